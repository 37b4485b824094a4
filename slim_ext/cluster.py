"""Joins a process to its cluster: servers, sessions, strategies, life-cycle.

``bootstrap(FLAGS)`` is the one call a ported slim script makes at the top of
``main``. It reads the cluster (``slim_ext.cluster_config``: TF_CONFIG in the
TF2, UAI, Kubeflow, AI Platform and Vertex AI spellings, CLUSTER_SPEC, or the
MoXing flags) and, by role:

* ps: serves until its workers are done, then ends the process with status 0;
* master/chief/worker: starts its server and fills slim's ``--master --task
  --worker_replicas --num_ps_tasks``, and makes the Supervisors of
  ``slim.learning.train`` open sessions that need only the ps tasks and this
  task (``slim_ext.supervisor``), so the tasks may start in any order and a
  worker never waits for a chief that has finished;
* any training task whose job is already done (the checkpoint in
  ``--train_dir`` has reached ``--max_number_of_steps``) exits 0 at once;
* evaluator: belongs to no training cluster; it runs the evaluation script
  under ``python -m slim_ext.evaluator``.

``ClusterConfig`` here is ``cluster_config.ClusterConfig`` plus the TensorFlow
objects for its task (server, session config, TF2 strategy). Importing this
module defines the MoXing flags unless the script already has flags of those
names.
"""
from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from typing import Any, Callable, Optional, Sequence

from absl import flags
from absl import logging
import tensorflow as tf

from slim_ext import _flag_definitions
from slim_ext import cluster_config
from slim_facts import cluster_flags
from slim_facts import platform_flags

# The names ported scripts and slim_ext.runner use from this module.
MASTER = cluster_config.MASTER
CHIEF = cluster_config.CHIEF
WORKER = cluster_config.WORKER
PS = cluster_config.PS
EVALUATOR = cluster_config.EVALUATOR
KNOWN_JOBS = cluster_config.KNOWN_JOBS

# Spellings of the same slim flag across TF1-era training scripts.
TASK_FLAGS = cluster_flags.TASK_FLAGS
REPLICAS_FLAGS = cluster_flags.REPLICAS_FLAGS
PS_TASKS_FLAGS = cluster_flags.PS_TASKS_FLAGS
# The slim flags that say where a job's checkpoints go and when it is done.
TRAIN_DIR_FLAG = platform_flags.TRAIN_MAPPING["output_dir"]
TARGET_STEPS_FLAG = platform_flags.TRAIN_MAPPING["max_step"]

# How often a ps task checks whether its workers are still there.
PS_POLL_SECS = 0.5
# A ps task exits once every worker has been down this long, so a worker that
# restarts quickly does not lose its ps.
PS_IDLE_EXIT_SECS = 2.0


def define_flags(flag_values: flags.FlagValues = flags.FLAGS) -> None:
  """Defines --ps_hosts --worker_hosts --job_name --task_index where missing.

  Defined with ``allow_override``, so a script that defines them itself after
  importing this module keeps its own definitions.

  Args:
    flag_values: where to define them; absl's global FLAGS by default.
  """
  _flag_definitions.define_missing(
      flag_values, __name__, cluster_flags.CLUSTER_STRING_FLAGS,
      (cluster_flags.CLUSTER_TASK_INDEX_FLAG,))


class ClusterConfig(cluster_config.ClusterConfig):
  """A validated cluster, and the TensorFlow objects of this task in it."""

  def tf1_cluster_spec(self) -> tf.train.ClusterSpec:
    """``tf.train.ClusterSpec`` of ``tf1_cluster_dict()``."""
    return tf.train.ClusterSpec(self.tf1_cluster_dict())

  def server_def(self, protocol: str = "grpc",
                 tf2: bool = False) -> tf.train.ServerDef:
    """The definition of this task's server, without starting it.

    Args:
      protocol: the server protocol.
      tf2: serve in the TF2 cluster (``to_tf2_tf_config()``) instead of the
        between-graph one, as the ps and worker tasks of a
        ParameterServerStrategy cluster do.

    Returns:
      A ``tf.train.ServerDef``.

    Raises:
      ValueError: this task is the evaluator (TF1 view).
    """
    if tf2:
      resolver = self.cluster_resolver()
      cluster_spec = resolver.cluster_spec()
      job_name, task_index = resolver.task_type, resolver.task_id
    else:
      cluster_spec = self.tf1_cluster_spec()
      job_name, task_index = self.tf1_task()
    return tf.train.ServerDef(cluster=cluster_spec.as_cluster_def(),
                              job_name=job_name, task_index=task_index,
                              protocol=protocol)

  def start_server(self, protocol: str = "grpc",
                   tf2: bool = False) -> tf.distribute.Server:
    """Starts this task's server (``server_def(protocol, tf2)``).

    Returns:
      The started ``tf.distribute.Server``; a TF1 worker's sessions use its
      ``target``, a ps task calls ``join()`` or ``serve_until_workers_exit``.

    Raises:
      ValueError: this task is the evaluator (TF1 view).
    """
    return tf.distribute.Server(self.server_def(protocol, tf2), start=True)

  def session_config(self) -> tf.compat.v1.ConfigProto:
    """Session options for a TF1 worker: see only the ps tasks and itself.

    ``bootstrap`` gives the same filters to every session
    ``slim.learning.train`` opens; sessions a script opens itself take this
    ConfigProto (``tf.Session(target, config=...)``). The filters must be on
    the session: the same ConfigProto given to the server does not reach
    client sessions.

    Returns:
      A ConfigProto with ``device_filters()``.

    Raises:
      ValueError: this task is not a TF1 worker.
    """
    return tf.compat.v1.ConfigProto(device_filters=self.device_filters())

  def cluster_resolver(
      self) -> tf.distribute.cluster_resolver.SimpleClusterResolver:
    """A cluster resolver of the TF2 view, for ``tf.distribute`` strategies."""
    tf_config = self.to_tf2_tf_config()
    return tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec(tf_config["cluster"]),
        task_type=tf_config["task"]["type"], task_id=self.task_index,
        rpc_layer="grpc")

  def strategy(self) -> tf.distribute.Strategy:
    """The TF2 strategy for this task's role.

    * cluster with ps tasks: ``ParameterServerStrategy``, built on the chief,
      which coordinates; ps and worker tasks only serve
      (``start_server(tf2=True).join()``).
    * cluster without ps: ``MultiWorkerMirroredStrategy`` on every worker and
      the chief.
    * evaluator: the default strategy (it evaluates checkpoints alone).

    Build it at program start, before other TensorFlow work.

    Returns:
      The strategy.

    Raises:
      ValueError: a ps or worker task of a ParameterServerStrategy cluster
        asks for a strategy, or such a cluster has no master/chief to run the
        coordinator.
    """
    if self.task_type == EVALUATOR:
      return tf.distribute.get_strategy()
    if not self.num_ps:
      return tf.distribute.MultiWorkerMirroredStrategy(
          cluster_resolver=self.cluster_resolver())
    if self.chief_job is None:
      raise ValueError(
          f"{self.source}: a cluster with ps tasks needs a chief (or master) "
          "task to run the ParameterServerStrategy coordinator; add one.")
    if self.task_type not in (MASTER, CHIEF):
      raise ValueError(
          f"{self.source}: the {self.task_type} task {self.task_index} of a "
          "ParameterServerStrategy cluster only serves: call "
          "start_server(tf2=True).join() instead of building a strategy.")
    return tf.distribute.experimental.ParameterServerStrategy(
        self.cluster_resolver())


parse_tf_config = ClusterConfig.from_tf_config
from_env = ClusterConfig.from_env
from_moxing_flags = ClusterConfig.from_moxing_flags


def strategy_for(config: Optional[ClusterConfig]) -> tf.distribute.Strategy:
  """The strategy for `config`'s task, or MirroredStrategy when it is None.

  Args:
    config: the cluster (``from_env()``), or None for a local job.

  Returns:
    ``config.strategy()``, or a MirroredStrategy over the local devices.
  """
  if config is None:
    return tf.distribute.MirroredStrategy()
  return config.strategy()


def _from_flags(flag_values: flags.FlagValues) -> Optional[ClusterConfig]:
  names = ("ps_hosts", "worker_hosts", "job_name", "task_index")
  if not all(name in flag_values for name in names):
    return None
  return from_moxing_flags(*(flag_values[name].value for name in names))


def is_chief(flag_values: flags.FlagValues = flags.FLAGS) -> bool:
  """Whether this process saves the model: the chief of its cluster, or alone.

  Reads the cluster as ``bootstrap`` does (TF_CONFIG or CLUSTER_SPEC, else
  --ps_hosts/--worker_hosts/--job_name/--task_index) and starts nothing.

  Args:
    flag_values: the flags the cluster flags are read from.

  Returns:
    True with no cluster, or when this task is the master, the chief or the
    TF1 worker 0.
  """
  config = from_env() or _from_flags(flag_values)
  return config is None or config.is_chief


def _address_is_up(address: str, timeout: float = 1.0) -> bool:
  host, _, port = address.rpartition(":")
  try:
    with socket.create_connection((host.strip("[]"), int(port)),
                                  timeout=timeout):
      return True
  except OSError:
    return False


def finished_step(flag_values: flags.FlagValues) -> Optional[int]:
  """The global step of a job that is done, from its latest checkpoint.

  A job is done once its latest checkpoint in ``--train_dir`` has reached
  ``--max_number_of_steps``: that is when ``slim.learning.train`` stops every
  worker, and the chief saves such a checkpoint as it finishes.

  Args:
    flag_values: the script's parsed flags.

  Returns:
    The checkpoint's global step when the job is done; None when it is not,
    or when the script defines neither flag or sets no target.
  """
  train_dir, target = (
      flag_values[name].value if name in flag_values else None
      for name in (TRAIN_DIR_FLAG, TARGET_STEPS_FLAG))
  if not train_dir or not target or target <= 0:
    return None
  checkpoint = tf.train.latest_checkpoint(train_dir)
  if checkpoint is None:
    return None
  try:
    step = int(tf.train.load_variable(checkpoint, "global_step"))
  except tf.errors.NotFoundError:  # deleted by the saver, or no global step
    return None
  return step if step >= target else None


def serve_until_workers_exit(config: ClusterConfig,
                             poll_secs: float = PS_POLL_SECS,
                             idle_exit_secs: float = PS_IDLE_EXIT_SECS,
                             job_done: Optional[Callable[[], bool]] = None
                             ) -> str:
  """Blocks a ps task while its workers train.

  Returns once no worker has been up for `idle_exit_secs` and either every
  worker has been seen up or `job_done()` says the job is done (a worker
  that comes later will find it done and exit at once); or on
  SIGTERM/SIGINT. The ps server keeps serving on its own threads meanwhile.

  Args:
    config: the cluster; its TF1 workers are watched.
    poll_secs: seconds between checks (a TCP connect to each worker).
    idle_exit_secs: how long all workers must be down.
    job_done: tells whether the job is done; asked only while every worker
      is down and some have not been seen.

  Returns:
    Why it returned: "workers exited", "job done", or the signal's name.
  """
  stop = threading.Event()
  received = []

  def on_signal(signum, unused_frame):
    received.append(signal.Signals(signum).name)
    stop.set()

  previous = {signum: signal.signal(signum, on_signal)
              for signum in (signal.SIGTERM, signal.SIGINT)}
  try:
    workers = config.tf1_cluster_dict()[WORKER]
    seen = set()
    all_down_since = None
    while not stop.wait(poll_secs):
      up = {address for address in workers if _address_is_up(address)}
      seen |= up
      if up:
        all_down_since = None
        continue
      if all_down_since is None:
        all_down_since = time.monotonic()
      if time.monotonic() - all_down_since < idle_exit_secs:
        continue
      if len(seen) == len(workers):
        return "workers exited"
      if job_done is not None and job_done():
        return "job done"
    return received[0]
  finally:
    for signum, handler in previous.items():
      signal.signal(signum, handler)


def _set_first_defined(flag_values: flags.FlagValues, names: Sequence[str],
                       value: Any, every: bool = False) -> list:
  """Sets the first (or every) defined flag among `names`; returns those set."""
  done = []
  for name in names:
    if name in flag_values:
      setattr(flag_values, name, value)
      done.append(name)
      if not every:
        break
  return done


def _exit_process(why: str) -> None:
  """Ends this task with status 0 once its logs are out."""
  logging.info("cluster: %s", why)
  logging.flush()
  sys.stdout.flush()
  sys.stderr.flush()
  # Not sys.exit: TF's gRPC server cannot be stopped, and interpreter
  # teardown was seen to block for minutes while a worker still held a
  # connection to it. A task that exits here has nothing else to clean up.
  os._exit(0)  # pylint: disable=protected-access


def _serve_as_ps(config: ClusterConfig, target: str,
                 job_done: Optional[Callable[[], bool]]) -> None:
  """A ps task's life once its server runs: serve its workers, then exit 0."""
  logging.info("cluster: %s %s %d serves at %s until its %d workers exit.",
               config.source, config.task_type, config.task_index, target,
               config.num_workers)
  why = serve_until_workers_exit(config, job_done=job_done)
  _exit_process(f"ps {config.task_index} stops: {why}.")


def _filter_learning_sessions(device_filters: Sequence[str]) -> None:
  """Gives slim.learning.train's sessions these filters and the env's wait."""
  # Loaded here, not at import: only a TF1 worker needs tf_slim.
  from slim_ext import supervisor  # pylint: disable=g-import-not-at-top
  supervisor.set_device_filters(device_filters)
  supervisor.apply_env()


def bootstrap(flag_values: flags.FlagValues = flags.FLAGS
              ) -> Optional[ClusterConfig]:
  """Joins this process to its cluster, the TF1 between-graph way.

  Reads TF_CONFIG (or CLUSTER_SPEC), else --ps_hosts/--worker_hosts/
  --job_name/--task_index. Then, by role:

  * no cluster: changes nothing.
  * ps, master/chief/worker whose job is done (``finished_step``): ends the
    process with status 0 (``os._exit``, after flushing logs), so a task
    started or restarted after the chief finished does not wait for tasks
    that have gone.
  * ps: starts the server and serves until every worker has come and gone,
    or the job is done and no worker is up (or SIGTERM/SIGINT), then ends
    the process with status 0: nothing after ``bootstrap`` runs on a ps.
  * master/chief/worker: starts the server and sets slim's flags, in the
    spelling the script defines: ``master`` = the server's target, ``task``
    (``task_id``/``task_index``) = its TF1 task index, ``worker_replicas``
    (``num_replicas``) and ``num_ps_tasks`` (``ps_tasks``). Sessions of
    ``slim.learning.train`` get ``config.device_filters()`` (see
    ``slim_ext.supervisor``); ``SLIM_EXT_RECOVERY_WAIT_SECS`` sets their
    poll interval.
  * evaluator: starts nothing and returns; a training script (one that
    defines ``--worker_replicas``) is refused, because it would train a
    model of its own.

  Args:
    flag_values: the script's parsed flags.

  Returns:
    The ClusterConfig, or None when the job is not distributed.

  Raises:
    ValueError: TF_CONFIG or the cluster flags are invalid, or a training
      script runs as the evaluator.
  """
  config = from_env()
  if config is None:
    config = _from_flags(flag_values)
  elif any(name in flag_values and flag_values[name].present
           for name in ("ps_hosts", "worker_hosts")):
    logging.warning("cluster: %s is set; ignoring --ps_hosts and "
                    "--worker_hosts.", config.source)
  if config is None:
    logging.info("cluster: no cluster in %s or flags; training locally.",
                 " or ".join(cluster_config.ENV_VARS))
    return None
  role = f"{config.source} {config.task_type} {config.task_index}"
  if config.task_type == EVALUATOR:
    replicas_flags = [name for name in REPLICAS_FLAGS if name in flag_values]
    if replicas_flags:
      raise ValueError(
          f"{config.source}: this task is the evaluator, but this script "
          f"trains (it defines --{replicas_flags[0]}) and would train a "
          "model of its own; run the evaluation script on the evaluator: "
          "python -m slim_ext.evaluator eval_image_classifier.py <its "
          "flags>.")
    logging.info("cluster: %s; no server started, evaluate locally.", role)
    return config
  step = finished_step(flag_values)
  if step is not None:
    _exit_process(f"{role}: the job is done (the checkpoint in "
                  f"--{TRAIN_DIR_FLAG} is at step {step}, target "
                  f"{flag_values[TARGET_STEPS_FLAG].value}); nothing to do.")
  job_name, task_index = config.tf1_task()
  server = config.start_server()
  if job_name == PS:
    _serve_as_ps(config, server.target,
                 lambda: finished_step(flag_values) is not None)
  flags_set = [
      *_set_first_defined(flag_values, (cluster_flags.MASTER_FLAG,),
                          server.target),
      *_set_first_defined(flag_values, TASK_FLAGS, task_index, every=True),
      *_set_first_defined(flag_values, REPLICAS_FLAGS, config.num_workers),
      *_set_first_defined(flag_values, PS_TASKS_FLAGS, config.num_ps),
  ]
  _filter_learning_sessions(config.device_filters())
  logging.info(
      "cluster: %s is /job:worker/task:%d of %d workers, %d ps; server %s; "
      "sessions see %s; set %s.", role, task_index, config.num_workers,
      config.num_ps, server.target, ", ".join(config.device_filters()),
      ", ".join(f"--{name}={flag_values[name].value}" for name in flags_set) or
      "no flags (the script defines none of them)")
  return config


# -- a script's own servers ---------------------------------------------------------


def _own_cluster(server_def: tf.train.ServerDef) -> Optional[ClusterConfig]:
  """The cluster a script's own server serves in, or None if not a slim one."""
  cluster_def = {job.name: [job.tasks[index] for index in sorted(job.tasks)]
                 for job in server_def.cluster.job}
  try:
    return ClusterConfig.from_tf_config(
        {"cluster": cluster_def, "task": {"type": server_def.job_name,
                                          "index": server_def.task_index}},
        source="tf.train.Server")
  except ValueError:
    # Job names or a layout slim_ext does not know (e.g. "localhost"): the
    # server stays TensorFlow's.
    return None


class Server(tf.distribute.Server):
  """``tf.train.Server`` for a script that starts its own cluster tasks.

  TensorFlow's server, with the ending ``bootstrap`` gives its own tasks:

  * ps: ``join()`` serves until every worker task of the server's cluster
    (master and chief included) has come and gone, or SIGTERM/SIGINT; then
    it ends the process with status 0. TensorFlow's ``join`` never returns,
    so nothing after it ran in the original either. A worker that never
    comes keeps it serving, as TensorFlow's would.
  * a worker (master, chief) of a cluster with ps tasks: the sessions of
    ``slim.learning.train`` see only the ps tasks and this task, and poll
    for the chief every SLIM_EXT_RECOVERY_WAIT_SECS when it is set, as under
    ``bootstrap``: a worker whose chief has trained to the target and exited
    does not wait for it forever. Sessions the script opens itself are its
    own.
  * any other server (a job layout slim_ext does not know): TensorFlow's.
  """

  def __init__(self, server_or_cluster_def, job_name=None, task_index=None,
               protocol=None, config=None, start=True):
    super().__init__(server_or_cluster_def, job_name=job_name,
                     task_index=task_index, protocol=protocol, config=config,
                     start=start)
    server_def = self.server_def
    self._cluster = _own_cluster(server_def)
    if (self._cluster is not None and self._cluster.num_ps
        and self._cluster.task_type in (MASTER, CHIEF, WORKER)):
      _filter_learning_sessions([
          f"/job:{PS}",
          f"/job:{server_def.job_name}/task:{server_def.task_index}"])

  def join(self) -> None:
    """Blocks while the server serves; a ps task ends once its job is done."""
    join(self)


# TensorFlow's own join, taken before anybody swaps the class's (Estimator's ps
# does, around train_and_evaluate: slim_ext.estimator.ps).
_TF_JOIN = tf.distribute.Server.join


def join(server: tf.distribute.Server) -> None:
  """``server.join()``, except that a ps task ends once its workers are gone.

  Args:
    server: a started ``tf.distribute.Server`` (``tf.train.Server``).

  Returns:
    Never on a ps task of a cluster slim_ext knows: once every worker of the
    cluster (master and chief included) has come and gone, or on
    SIGTERM/SIGINT, the process exits with status 0; TensorFlow's join never
    returned either. Any other server is joined as TensorFlow joins it.
  """
  config = _own_cluster(server.server_def)
  if config is None or config.task_type != PS:
    _TF_JOIN(server)
    return
  # No "job done" shortcut: a script's own workers (and Estimator's) do not
  # exit at once when the job is done (bootstrap's do), so a worker started
  # late still needs its ps, as it had it in TF1.
  _serve_as_ps(config, server.target, job_done=None)


define_flags()
