"""run(input_fn, model_fn, optimizer_fn): a MoXing-style entry point on tf_slim.

A training script writes three functions and one call::

  def input_fn(run_mode):
    return features, labels        # tensors (or a tf.data.Dataset)

  def model_fn(inputs, run_mode):
    features, labels = inputs
    ...
    return slim_ext.ModelSpec(loss=loss, log_info={"accuracy": accuracy})

  def optimizer_fn():
    return tf.compat.v1.train.GradientDescentOptimizer(0.5)

  slim_ext.run(input_fn, model_fn, optimizer_fn,
               run_mode=slim_ext.ModeKeys.TRAIN, log_dir=train_dir,
               max_number_of_steps=1000)

and the same script trains in one process, with ``--num_gpus=N`` clones, or as
one task of an asynchronous ps/worker cluster (``--ps_hosts --worker_hosts
--job_name --task_index`` or ``TF_CONFIG``), with no code change.

Everything is the existing machinery: ``slim_ext.cluster.bootstrap`` joins
the cluster (a ps task serves and exits inside it), ``slim_ext.model_deploy``
builds the clones on this replica's task with variables on the ps tasks,
``tf_slim.learning.train`` runs the training loop and
``tf_slim.evaluation.evaluate_once`` the evaluation.

run() builds its model in a fresh ``tf.Graph`` (TF1 graph semantics) and does
not switch the whole process out of eager mode. Because of that, it starts
none of the Supervisor's background threads (those run outside the graph and
would execute eagerly): checkpoints every ``save_model_secs`` and summaries
every ``save_summaries_steps`` are written by the training step itself, on
the training thread, in the same ``session.run`` as the step they describe.

run() may be called at module level, with no ``absl.app.run`` (MoXing scripts
are written that way): it reads ``--num_gpus`` and the cluster flags from
``sys.argv`` itself whenever absl has not given them a value
(``command_line_flags``). Progress (the loss and log_info every
``log_every_n_steps``, the averaged metrics after evaluation) goes to the
console through the Python logger ``slim_ext.run`` (CONSOLE_LOGGER), which has
its own handler, so it is printed whatever absl's logging set-up is; silence
it with ``logging.getLogger("slim_ext.run").setLevel(logging.WARNING)``.
"""
from __future__ import annotations

import dataclasses
import logging as pylogging
import os
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from absl import flags
from absl import logging
import tensorflow.compat.v1 as tf
import tf_slim as slim

from slim_ext import cluster
from slim_ext import model_deploy
from slim_ext import uflag
from slim_ext.model_spec import ModelSpec
from slim_ext.model_spec import ModeKeys
from slim_facts import cluster_flags

__all__ = ["ModeKeys", "ModelSpec", "command_line_flags", "run"]

CHECKPOINT_BASENAME = "model.ckpt"
# The flags run() reads: clones per worker and this task's place in a cluster.
NUM_GPUS_FLAG = "num_gpus"
RUN_FLAGS = (NUM_GPUS_FLAG,
             *(name for name, _, _ in cluster_flags.CLUSTER_STRING_FLAGS),
             cluster_flags.CLUSTER_TASK_INDEX_FLAG[0])
CONSOLE_LOGGER = "slim_ext.run"

InputFn = Callable[..., Any]
ModelFn = Callable[..., ModelSpec]
OptimizerFn = Callable[[], tf.train.Optimizer]


def _check_count(value: Optional[int], name: str) -> int:
  if value is None:
    return 0
  if isinstance(value, bool) or not isinstance(value, int) or value < 0:
    raise ValueError(f"{name}: expected a whole number >= 0, got {value!r}.")
  return value


class _ConsoleHandler(pylogging.StreamHandler):
  """Writes to the sys.stderr of the moment (test runners and notebooks swap
  it), never to one captured when the handler was made."""

  def __init__(self):
    super().__init__(sys.stderr)

  @property
  def stream(self):
    return sys.stderr

  @stream.setter
  def stream(self, unused_stream):
    pass


def _console() -> pylogging.Logger:
  """The logger run() reports progress on; printed whatever absl's set-up."""
  logger = pylogging.getLogger(CONSOLE_LOGGER)
  if not logger.handlers:
    handler = _ConsoleHandler()
    handler.setFormatter(pylogging.Formatter("%(asctime)s %(message)s",
                                             "%H:%M:%S"))
    logger.addHandler(handler)
    if logger.level == pylogging.NOTSET:  # a level the user chose stays
      logger.setLevel(pylogging.INFO)
    # absl's handler sits on the root logger; going there too would print
    # every line twice once absl logs at INFO.
    logger.propagate = False
  return logger


def command_line_flags(argv: Optional[Sequence[str]] = None
                       ) -> flags.FlagValues:
  """--num_gpus and the cluster flags this process was started with.

  A flag that already has a value in absl's FLAGS (parsed by ``app.run``,
  or set by the script) keeps it. Any other is read from `argv` here: a
  module-level script has no ``app.run``, and a script that read its own
  flags before importing slim_ext had them parsed before these existed.

  Args:
    argv: the command line, program name first; ``sys.argv`` by default.
      Flags other than these are ignored.

  Returns:
    A FlagValues with exactly RUN_FLAGS, parsed.

  Raises:
    absl.flags.IllegalFlagValueError: one of them has an invalid value
      (e.g. ``--num_gpus=two``).
  """
  run_flags = flags.FlagValues()
  uflag.define_flags(run_flags)
  cluster.define_flags(run_flags)
  for name in set(run_flags) - set(RUN_FLAGS):  # the other platform flags
    delattr(run_flags, name)
  run_flags(list(sys.argv if argv is None else argv), known_only=True)
  given = flags.FLAGS
  for name in RUN_FLAGS:
    if name in given and not given[name].using_default_value:
      setattr(run_flags, name, given[name].value)
  return run_flags


def _num_clones(run_flags: flags.FlagValues) -> int:
  """--num_gpus when positive, else 1."""
  return max(1, int(run_flags[NUM_GPUS_FLAG].value or 0))


def _inputs(input_fn: InputFn, run_mode: ModeKeys, batch_size: int) -> Any:
  """Calls input_fn and returns its tensors, checked, batched if asked to.

  With `batch_size`, input_fn gives single examples: a Dataset is batched
  with ``Dataset.batch``, tensors with ``tf.train.batch`` (a queue the
  training and evaluation loops start the runners of). A last batch may be
  short.
  """
  inputs = input_fn(run_mode)
  from_dataset = isinstance(inputs, tf.data.Dataset)
  if from_dataset:
    if batch_size:
      inputs = inputs.batch(batch_size)
    inputs = tf.data.make_one_shot_iterator(inputs).get_next()
  flat = tf.nest.flatten(inputs)
  for tensor in flat:
    if not isinstance(tensor, tf.Tensor):
      raise TypeError(
          f"input_fn returned a {type(tensor).__name__} among its outputs; "
          "return a tensor, a list of tensors (e.g. iterator.get_next()) or "
          "a tf.data.Dataset.")
  if not flat:
    raise ValueError("input_fn returned no tensors.")
  if batch_size and not from_dataset:
    undefined = [t for t in flat if not t.shape.is_fully_defined()]
    if undefined:
      raise ValueError(
          f"input_fn output {undefined[0].name} has shape "
          f"{undefined[0].shape}; batching single examples (batch_size) "
          "needs every shape known: "
          "set_shape() them, or batch in input_fn and leave batch_size out.")
    batched = tf.train.batch(flat, batch_size, allow_smaller_final_batch=True)
    # A list of one tensor comes back as the tensor.
    inputs = tf.nest.pack_sequence_as(inputs, tf.nest.flatten(batched))
  return inputs


def _split_batch(inputs: Any, num_clones: int) -> List[Any]:
  """Splits every input along its first (batch) dimension, one part per clone.

  Clone i gets rows [i*n//k, (i+1)*n//k) of a batch of n, so parts differ by
  at most one row and a short last batch is still shared out.
  """
  if num_clones == 1:
    return [inputs]
  flat = tf.nest.flatten(inputs)
  for tensor in flat:
    if tensor.shape.rank == 0:
      raise ValueError(
          f"input_fn output {tensor.name} is a scalar; with {num_clones} "
          "clones run() splits every input along its first (batch) "
          "dimension, so each must have one.")
  batch_size = tf.shape(flat[0], out_type=tf.int32)[0]
  parts = []
  for index in range(num_clones):
    with tf.name_scope(f"split_for_clone_{index}"):
      begin = batch_size * index // num_clones
      end = batch_size * (index + 1) // num_clones
      parts.append(tf.nest.pack_sequence_as(
          inputs, [tensor[begin:end] for tensor in flat]))
  return parts


def _model_spec(model_fn: ModelFn, inputs: Any, run_mode: ModeKeys,
                graph: tf.Graph) -> ModelSpec:
  """Calls model_fn and checks what it returned for `run_mode`."""
  spec = model_fn(inputs, run_mode)
  if not isinstance(spec, ModelSpec):
    raise TypeError(f"model_fn returned {type(spec).__name__}; return "
                    "slim_ext.ModelSpec(loss=..., log_info={...}).")
  named = {"ModelSpec.loss": spec.loss,
           **{f"ModelSpec.log_info[{name!r}]": value
              for name, value in spec.log_info.items()}}
  for field, tensor in named.items():
    if tensor is not None and tensor.graph is not graph:
      raise ValueError(f"{field}: {tensor.name} belongs to another graph; "
                       "build it inside model_fn from its inputs.")
  if run_mode == ModeKeys.TRAIN and spec.loss is None:
    raise ValueError("ModelSpec.loss: None, but run_mode is TRAIN; return "
                     "ModelSpec(loss=<scalar loss tensor>, ...) to train.")
  if run_mode == ModeKeys.EVAL and spec.loss is None and not spec.log_info:
    raise ValueError("ModelSpec: neither loss nor log_info is set, so EVAL "
                     "has nothing to average; set log_info (e.g. "
                     "{'accuracy': ...}).")
  return spec


def _checkpoint_file(checkpoint_path: str) -> str:
  """A checkpoint prefix: `checkpoint_path` itself, or a directory's latest."""
  if tf.io.gfile.isdir(checkpoint_path):
    latest = tf.train.latest_checkpoint(checkpoint_path)
    if latest is None:
      raise ValueError(
          f"checkpoint_path: {checkpoint_path} is a directory with no "
          "checkpoint in it; train into it first, or pass a checkpoint "
          "prefix such as <dir>/model.ckpt-1000.")
    return latest
  if not tf.io.gfile.exists(checkpoint_path + ".index"):
    raise ValueError(
        f"checkpoint_path: no checkpoint {checkpoint_path} (looked for "
        f"{checkpoint_path}.index); pass a training log_dir or a checkpoint "
        "prefix such as <dir>/model.ckpt-1000.")
  return checkpoint_path


@dataclasses.dataclass(frozen=True)
class _Schedule:
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


class _TrainStep:
  """train_step_fn for tf_slim.learning.train that also logs and saves.

  One ``session.run`` per step fetches the train op, the global step after
  the update and, when due, log_info and the summaries, so what is logged is
  what this step computed.
  """

  def __init__(self, log_values: Dict[str, tf.Tensor],
               global_step_after: tf.Tensor,
               summary_op: Optional[tf.Tensor], log_dir: str,
               saver: tf.train.Saver, is_chief: bool, schedule: _Schedule):
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
      _console().info("run: input_fn's data is exhausted after %d steps of "
                      "this worker (global step %d); stopping.",
                      self.local_steps, self.global_step)
      return self.loss, True
    self.local_steps = next_step
    self.loss = float(results["loss"])
    self.global_step = int(results["global_step"])
    if "log_info" in results:
      values = ", ".join(f"{name} = {value:.4f}" for name, value in
                         {"loss": self.loss, **results["log_info"]}.items())
      _console().info("run: step %d (global step %d): %s (%.3f sec/step)",
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


def _warm_start_fn(checkpoint_path: str) -> Optional[Callable[..., None]]:
  """Restores the model variables found in a checkpoint into a fresh model."""
  checkpoint = _checkpoint_file(checkpoint_path)
  variables = list({v.op.name: v for v in
                    tf.trainable_variables() + slim.get_model_variables()
                    }.values())
  logging.info("run: variables start from %s where it has them.", checkpoint)
  return slim.assign_from_checkpoint_fn(checkpoint, variables,
                                        ignore_missing_vars=True)


def _train(input_fn: InputFn, model_fn: ModelFn, optimizer_fn: OptimizerFn,
           log_dir: str, checkpoint_path: Optional[str], schedule: _Schedule,
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
  _console().info("run: TRAIN, %d clone(s) on %s, replica %d of %d, %d ps "
                  "task(s); log_dir %s.", num_clones,
                  "the CPU" if clone_on_cpu else "GPUs", replica_id,
                  num_replicas, num_ps_tasks, log_dir)

  with tf.Graph().as_default() as graph:
    with tf.device(deploy_config.variables_device()):
      global_step = tf.train.get_or_create_global_step()
    with tf.device(deploy_config.inputs_device()):
      clone_inputs = _split_batch(
          _inputs(input_fn, ModeKeys.TRAIN, batch_size * num_clones),
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
        spec = _model_spec(model_fn, clone_inputs[len(specs)],
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
    step = _TrainStep(log_values, global_step_after, summary_op, log_dir,
                      saver, is_chief, schedule)
    try:
      slim.learning.train(
          model.train_op, logdir=log_dir, train_step_fn=step,
          master=master, is_chief=is_chief, global_step=global_step,
          init_fn=(_warm_start_fn(checkpoint_path) if checkpoint_path
                   else None),
          session_config=session_config, saver=saver,
          summary_op=None, summary_writer=None, save_interval_secs=0,
          startup_delay_steps=0, log_every_n_steps=0)
    finally:
      step.close()
  _console().info("run: TRAIN done at global step %d after %d steps of this "
                  "worker; loss %.4f.", step.global_step, step.local_steps,
                  step.loss)
  return {"global_step": step.global_step, "loss": step.loss}


def _evaluate(input_fn: InputFn, model_fn: ModelFn, log_dir: Optional[str],
              max_number_of_steps: int, checkpoint_path: Optional[str],
              batch_size: int) -> Dict[str, float]:
  if not checkpoint_path:
    raise ValueError("checkpoint_path: required in EVAL; pass the training "
                     "log_dir or a checkpoint prefix.")
  checkpoint = _checkpoint_file(checkpoint_path)
  with tf.Graph().as_default() as graph:
    # Restored from the checkpoint, so summaries carry the training step.
    tf.train.get_or_create_global_step()
    inputs = _inputs(input_fn, ModeKeys.EVAL, batch_size)
    spec = _model_spec(model_fn, inputs, ModeKeys.EVAL, graph)
    values = dict(spec.log_info)
    if spec.loss is not None:
      values.setdefault("loss", spec.loss)
    # Weighting each batch by its size makes the streaming mean the mean over
    # examples, a short last batch included.
    examples = tf.shape(tf.nest.flatten(inputs)[0])[:1]
    weight = tf.cast(tf.reduce_prod(examples), tf.float32)
    means, updates = {}, []
    with tf.name_scope("eval_means"):
      for name, value in values.items():
        mean, update = tf.metrics.mean(value, weights=weight)
        means[name] = mean
        updates.append(update)
    summary_op = None
    if log_dir:
      summary_op = tf.summary.merge(
          [tf.summary.scalar(name, mean, collections=[])
           for name, mean in means.items()])
    _console().info("run: EVAL of %s.", checkpoint)
    results = slim.evaluation.evaluate_once(
        master="", checkpoint_path=checkpoint, logdir=log_dir,
        num_evals=max_number_of_steps or None, eval_op=updates,
        final_op=means, summary_op=summary_op)
  results = {name: float(value) for name, value in results.items()}
  _console().info("run: EVAL of %s: %s", checkpoint, ", ".join(
      f"{name} = {value:.4f}" for name, value in results.items()))
  return results


def run(input_fn: InputFn,
        model_fn: ModelFn,
        optimizer_fn: Optional[OptimizerFn] = None,
        run_mode: Union[ModeKeys, str] = ModeKeys.TRAIN,
        log_dir: Optional[str] = None,
        max_number_of_steps: Optional[int] = None,
        checkpoint_path: Optional[str] = None,
        log_every_n_steps: int = 10,
        save_summaries_steps: int = 100,
        save_model_secs: int = 600,
        num_clones: Optional[int] = None,
        batch_size: Optional[int] = None,
        count_worker_steps: bool = False) -> Dict[str, float]:
  """Trains or evaluates the model that input_fn and model_fn describe.

  TRAIN joins the cluster given by TF_CONFIG or --ps_hosts/--worker_hosts/
  --job_name/--task_index, if any (a ps task serves until its workers exit
  and then ends the process with status 0: run() does not return there),
  deploys `num_clones` clones of model_fn on this replica with each clone
  given its share of input_fn's batch, and trains with
  tf_slim.learning.train until the global step reaches `max_number_of_steps`
  or input_fn's data is exhausted. The chief saves checkpoints (every
  `save_model_secs` and at the end) and summaries (log_info, losses) to
  `log_dir`; a log_dir that already has a checkpoint is resumed.

  EVAL restores `checkpoint_path` and runs model_fn over input_fn's data
  once (until exhausted, or `max_number_of_steps` batches), averaging
  log_info (and the loss) over the examples; the averages are printed,
  written as summaries to `log_dir` when given, and returned.

  The flags it reads (--num_gpus, the cluster flags) come from the command
  line even when absl has not parsed it (``command_line_flags``); progress
  is printed on the console (CONSOLE_LOGGER).

  Args:
    input_fn: ``input_fn(run_mode)`` -> a tensor, a (nested) list/tuple/dict
      of tensors whose first dimension is the batch, or a tf.data.Dataset.
    model_fn: ``model_fn(inputs, run_mode)`` -> ModelSpec; called once per
      clone in TRAIN.
    optimizer_fn: ``optimizer_fn()`` -> a tf.compat.v1.train optimizer;
      called after the global step exists (``tf.train.get_global_step()``).
      Required in TRAIN.
    run_mode: ModeKeys.TRAIN or ModeKeys.EVAL (or "train"/"eval", any case).
    log_dir: TRAIN: checkpoints and summaries (required). EVAL: where eval
      summaries go (optional).
    max_number_of_steps: TRAIN: stop at this global step; EVAL: at most this
      many batches. None or 0: until the data is exhausted (as does any
      number the data runs out before, e.g. sys.maxsize).
    checkpoint_path: EVAL: checkpoint prefix or directory (its latest) to
      evaluate (required). TRAIN: start the model variables from it (those it
      has) when log_dir has no checkpoint yet.
    log_every_n_steps: print loss and log_info every N steps of this worker;
      0 never.
    save_summaries_steps: chief writes summaries every N steps; 0 never.
    save_model_secs: chief saves a checkpoint every N seconds; 0 only at
      the end.
    num_clones: clones per replica; None takes --num_gpus when it is
      positive, else 1. Clones go on GPUs when there are enough, else all
      on the CPU.
    batch_size: None or 0: input_fn gives batches. Otherwise input_fn gives
      single examples and run() batches them, `batch_size` per clone.
    count_worker_steps: TRAIN: `max_number_of_steps` counts this worker's
      own steps rather than the global step (how MoXing counts them).

  Returns:
    TRAIN: {"global_step": the last global step, "loss": the last loss}.
    EVAL: log_info name (and "loss") -> mean over the evaluated examples.

  Raises:
    ValueError, TypeError: an argument, input_fn's result, model_fn's
      ModelSpec or optimizer_fn's result is invalid (the message names it),
      or the cluster description is invalid.
    absl.flags.IllegalFlagValueError: --num_gpus or a cluster flag on the
      command line is invalid.
  """
  mode = ModeKeys.parse(run_mode)
  max_number_of_steps = _check_count(max_number_of_steps,
                                     "max_number_of_steps")
  batch_size = _check_count(batch_size, "batch_size")
  if mode == ModeKeys.EVAL:
    return _evaluate(input_fn, model_fn, log_dir, max_number_of_steps,
                     checkpoint_path, batch_size)
  if not callable(optimizer_fn):
    raise TypeError(f"optimizer_fn: got {optimizer_fn!r}, but TRAIN needs a "
                     "function returning a tf.compat.v1.train optimizer.")
  if not log_dir:
    raise ValueError("log_dir: required in TRAIN, for checkpoints and "
                     "summaries.")
  schedule = _Schedule(
      max_number_of_steps=max_number_of_steps,
      count_worker_steps=bool(count_worker_steps),
      log_every_n_steps=_check_count(log_every_n_steps, "log_every_n_steps"),
      save_summaries_steps=_check_count(save_summaries_steps,
                                        "save_summaries_steps"),
      save_model_secs=_check_count(save_model_secs, "save_model_secs"))
  run_flags = command_line_flags()
  if num_clones is None:
    num_clones = _num_clones(run_flags)
  if isinstance(num_clones, bool) or not isinstance(num_clones, int) or (
      num_clones < 1):
    raise ValueError(f"num_clones: expected a whole number >= 1, got "
                     f"{num_clones!r}.")
  return _train(input_fn, model_fn, optimizer_fn, log_dir, checkpoint_path,
                schedule, num_clones, batch_size, run_flags)
