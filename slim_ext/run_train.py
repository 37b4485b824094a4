"""``slim_ext.run`` in TRAIN: join the cluster, deploy the clones, train with tf_slim.

``cluster.bootstrap`` joins the cluster (a ps task serves and exits inside it),
``model_deploy`` builds the clones on this replica's task with variables on the ps
tasks, and ``tf_slim.learning.train`` runs the loop with a train_step_fn
(``TrainStep``) that also logs, writes summaries and saves: run() builds its model
in a fresh graph and does not leave eager mode, so none of the Supervisor's
background threads (which would run eagerly) is started.
"""
from __future__ import annotations

import dataclasses
import os
import time
from typing import Any, Callable, Dict, List, Optional

from absl import flags
from absl import logging
import tensorflow.compat.v1 as tf
import tf_slim as slim

from slim_ext import cluster
from slim_ext import model_deploy
from slim_ext.model_spec import ModelSpec
from slim_ext.model_spec import ModeKeys
from slim_ext.run_console import console
from slim_ext.run_inputs import InputFn
from slim_ext.run_inputs import ModelFn
from slim_ext.run_inputs import batched_inputs
from slim_ext.run_inputs import checked_spec
from slim_ext.run_inputs import checkpoint_file
from slim_ext.run_inputs import split_batch

CHECKPOINT_BASENAME = "model.ckpt"

OptimizerFn = Callable[[], tf.train.Optimizer]


@dataclasses.dataclass(frozen=True)
class Schedule:
  """When a training loop stops, logs, writes summaries and saves.

  Attributes:
    max_number_of_steps: the step to stop at; 0 until the data ends.
    count_worker_steps: count this worker's own steps toward
      max_number_of_steps instead of the global step.
    log_every_n_steps: print loss and log_info every N steps; 0 never.
    save_summaries_steps: write summaries every N steps; 0 never.
    save_model_secs: save a checkpoint every N seconds; 0 only at the end.
  """
  max_number_of_steps: int
  count_worker_steps: bool
  log_every_n_steps: int
  save_summaries_steps: int
  save_model_secs: int

  def due(self, every_n_steps: int, step: int) -> bool:
    return bool(every_n_steps) and step % every_n_steps == 0

  def done(self, global_step: int, worker_steps: int) -> bool:
    counted = worker_steps if self.count_worker_steps else global_step
    return bool(self.max_number_of_steps) and (
        counted >= self.max_number_of_steps)


class TrainStep:
  """train_step_fn for tf_slim.learning.train that also logs and saves.

  One ``session.run`` per step fetches the train op, the global step after
  the update and, when due, log_info and the summaries, so what is logged is
  what this step computed.
  """

  def __init__(self, log_values: Dict[str, tf.Tensor],
               global_step_after: tf.Tensor,
               summary_op: Optional[tf.Tensor], log_dir: str,
               saver: tf.train.Saver, is_chief: bool, schedule: Schedule):
    self._log_values = log_values
    self._global_step_after = global_step_after
    self._summary_op = summary_op if is_chief else None
    self._log_dir = log_dir
    self._saver = saver
    self._is_chief = is_chief
    self._schedule = schedule
    self._summary_writer = None
    self._last_save = time.monotonic()
    self.local_steps = 0
    self.global_step = 0
    self.loss = float("nan")

  def __call__(self, sess: tf.Session, train_op: tf.Tensor,
               unused_global_step: tf.Variable,
               unused_train_step_kwargs: Dict[str, Any]):
    schedule = self._schedule
    fetches = {"loss": train_op, "global_step": self._global_step_after}
    next_step = self.local_steps + 1
    if schedule.due(schedule.log_every_n_steps, next_step):
      fetches["log_info"] = self._log_values
    if (self._summary_op is not None
        and schedule.due(schedule.save_summaries_steps, next_step)):
      fetches["summary"] = self._summary_op
    started = time.monotonic()
    try:
      results = sess.run(fetches)
    except tf.errors.OutOfRangeError:
      console().info("run: input_fn's data is exhausted after %d steps of "
                     "this worker (global step %d); stopping.",
                     self.local_steps, self.global_step)
      return self.loss, True
    self.local_steps = next_step
    self.loss = float(results["loss"])
    self.global_step = int(results["global_step"])
    if "log_info" in results:
      values = ", ".join(f"{name} = {value:.4f}" for name, value in
                         {"loss": self.loss, **results["log_info"]}.items())
      console().info("run: step %d (global step %d): %s (%.3f sec/step)",
                     self.local_steps, self.global_step, values,
                     time.monotonic() - started)
    if "summary" in results:
      self._writer(sess.graph).add_summary(results["summary"],
                                           self.global_step)
    if (self._is_chief and schedule.save_model_secs
        and time.monotonic() - self._last_save >= schedule.save_model_secs):
      self._saver.save(sess, os.path.join(self._log_dir, CHECKPOINT_BASENAME),
                       global_step=self.global_step)
      self._last_save = time.monotonic()
    return self.loss, schedule.done(self.global_step, self.local_steps)

  def _writer(self, graph: tf.Graph) -> tf.summary.FileWriter:
    if self._summary_writer is None:
      self._summary_writer = tf.summary.FileWriter(self._log_dir, graph)
    return self._summary_writer

  def close(self) -> None:
    if self._summary_writer is not None:
      self._summary_writer.close()


def warm_start_fn(checkpoint_path: str) -> Optional[Callable[..., None]]:
  """Restores the model variables found in a checkpoint into a fresh model."""
  checkpoint = checkpoint_file(checkpoint_path)
  variables = list({v.op.name: v for v in
                    tf.trainable_variables() + slim.get_model_variables()
                    }.values())
  logging.info("run: variables start from %s where it has them.", checkpoint)
  return slim.assign_from_checkpoint_fn(checkpoint, variables,
                                        ignore_missing_vars=True)


def train(input_fn: InputFn, model_fn: ModelFn, optimizer_fn: OptimizerFn,
          log_dir: str, checkpoint_path: Optional[str], schedule: Schedule,
          num_clones: int, batch_size: int,
          run_flags: flags.FlagValues) -> Dict[str, float]:
  config = cluster.bootstrap(run_flags)  # a ps task never returns
  master, is_chief, session_config = "", True, None
  replica_id, num_replicas, num_ps_tasks = 0, 1, 0
  if config is not None:
    if config.task_type == cluster.EVALUATOR:
      raise ValueError(f"{config.source}: this task is the evaluator; run it "
                       "with run_mode=ModeKeys.EVAL.")
    _, replica_id = config.tf1_task()
    master = "grpc://" + config.tf1_cluster_dict()[cluster.WORKER][replica_id]
    is_chief = config.is_chief
    session_config = config.session_config()
    num_replicas, num_ps_tasks = config.num_workers, config.num_ps
  clone_on_cpu = len(tf.config.list_physical_devices("GPU")) < num_clones
  deploy_config = model_deploy.DeploymentConfig(
      num_clones=num_clones, clone_on_cpu=clone_on_cpu, replica_id=replica_id,
      num_replicas=num_replicas, num_ps_tasks=num_ps_tasks)
  console().info("run: TRAIN, %d clone(s) on %s, replica %d of %d, %d ps "
                 "task(s); log_dir %s.", num_clones,
                 "the CPU" if clone_on_cpu else "GPUs", replica_id,
                 num_replicas, num_ps_tasks, log_dir)

  with tf.Graph().as_default() as graph:
    with tf.device(deploy_config.variables_device()):
      global_step = tf.train.get_or_create_global_step()
    with tf.device(deploy_config.inputs_device()):
      clone_inputs = split_batch(
          batched_inputs(input_fn, ModeKeys.TRAIN, batch_size * num_clones),
          num_clones)
    with tf.device(deploy_config.optimizer_device()):
      optimizer = optimizer_fn()
    if not isinstance(optimizer, tf.train.Optimizer):
      raise TypeError(f"optimizer_fn returned {type(optimizer).__name__}; "
                      "return a tf.compat.v1.train optimizer, e.g. "
                      "tf.compat.v1.train.GradientDescentOptimizer(0.1).")
    specs: List[ModelSpec] = []
    place_variable = deploy_config.variables_device()

    def variable_getter(getter, *args, **kwargs):
      # model_deploy places slim variables only. tf.get_variable, and the
      # layers built on it, go through this getter, so every variable
      # model_fn creates lands on the ps tasks (or the CPU), not in a clone.
      with tf.device(place_variable):
        return getter(*args, **kwargs)

    def clone_fn():
      # model_deploy calls this once per clone, in order.
      with tf.variable_scope(tf.get_variable_scope(),
                             custom_getter=variable_getter):
        spec = checked_spec(model_fn, clone_inputs[len(specs)],
                            ModeKeys.TRAIN, graph)
      # A loss from tf.losses.* is in the collection already.
      if not any(spec.loss is loss
                 for loss in tf.get_collection(tf.GraphKeys.LOSSES)):
        tf.losses.add_loss(spec.loss)
      specs.append(spec)
      return spec

    model = model_deploy.deploy(deploy_config, clone_fn, optimizer=optimizer)
    log_values = {
        name: tf.add_n([tf.cast(spec.log_info[name], tf.float32)
                        for spec in specs]) / num_clones
        for name in specs[0].log_info}
    summaries = [tf.summary.scalar(name, value)
                 for name, value in log_values.items()]
    if model.summary_op is not None:
      summaries.append(model.summary_op)
    summary_op = tf.summary.merge(summaries)
    with tf.control_dependencies([model.train_op]):
      global_step_after = tf.identity(global_step)
    saver = tf.train.Saver()
    step = TrainStep(log_values, global_step_after, summary_op, log_dir,
                     saver, is_chief, schedule)
    try:
      slim.learning.train(
          model.train_op, logdir=log_dir, train_step_fn=step,
          master=master, is_chief=is_chief, global_step=global_step,
          init_fn=(warm_start_fn(checkpoint_path) if checkpoint_path
                   else None),
          session_config=session_config, saver=saver,
          summary_op=None, summary_writer=None, save_interval_secs=0,
          startup_delay_steps=0, log_every_n_steps=0)
    finally:
      step.close()
  console().info("run: TRAIN done at global step %d after %d steps of this "
                 "worker; loss %.4f.", step.global_step, step.local_steps,
                 step.loss)
  return {"global_step": step.global_step, "loss": step.loss}
