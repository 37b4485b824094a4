"""One cluster description from any of its spellings, in TF1 and TF2 form.

A job learns its cluster from ``TF_CONFIG`` (the platform form has a
``master`` job, TF2's has ``chief``) or from MoXing-style flags
(``--ps_hosts --worker_hosts --job_name --task_index``). ``ClusterConfig``
holds it once, validated, and gives:

* the TF1 between-graph view slim's ``train_image_classifier.py`` and
  model_deploy expect: jobs ``worker`` and ``ps`` only, the master (or chief)
  merged into ``worker`` as task 0 and the other workers shifted up by one, so
  ``/job:worker/task:<replica_id>`` and ``/job:ps/task:<i>`` name real tasks;
* the TF2 view: ``TF_CONFIG`` with ``master`` renamed ``chief``, and a
  ``tf.distribute`` strategy for the task's role.

``bootstrap(FLAGS)`` is the one call a ported slim script makes at the top of
``main``: it starts this task's server, makes a ps task serve until its
workers are gone, and fills slim's ``--master --task --worker_replicas
--num_ps_tasks`` for a worker. Importing this module defines the MoXing flags
unless the script already has flags of those names.
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import socket
import sys
import threading
import time
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from absl import flags
from absl import logging
import tensorflow as tf

from slimport import contract

MASTER = "master"
CHIEF = "chief"
WORKER = "worker"
PS = "ps"
EVALUATOR = "evaluator"
KNOWN_JOBS = (MASTER, CHIEF, WORKER, PS, EVALUATOR)
# Jobs that have at most one task.
_SINGLE_TASK_JOBS = (MASTER, CHIEF, EVALUATOR)

# Spellings of the same slim flag across TF1-era training scripts.
TASK_FLAGS = contract.TASK_FLAGS
REPLICAS_FLAGS = contract.REPLICAS_FLAGS
PS_TASKS_FLAGS = contract.PS_TASKS_FLAGS

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
  for name, default, help_text in contract.CLUSTER_STRING_FLAGS:
    if name not in flag_values:
      flags.DEFINE_string(name, default, help_text, flag_values=flag_values,
                          allow_override=True)
  name, default, help_text = contract.CLUSTER_TASK_INDEX_FLAG
  if name not in flag_values:
    flags.DEFINE_integer(name, default, help_text, flag_values=flag_values,
                         allow_override=True)


@dataclasses.dataclass(frozen=True)
class ClusterConfig:
  """A validated cluster and this task's place in it (the TF_CONFIG view).

  Attributes:
    cluster: job name -> task addresses ("host:port"), jobs among KNOWN_JOBS,
      as given (``master`` stays ``master``).
    task_type: this task's job.
    task_index: this task's index in its job.
    environment: TF_CONFIG's ``environment`` (e.g. "cloud"), if any.
    source: where the description came from, for messages ("TF_CONFIG",
      "flags").
  """
  cluster: Mapping[str, Tuple[str, ...]]
  task_type: str
  task_index: int
  environment: Optional[str] = None
  source: str = "TF_CONFIG"

  @property
  def chief_job(self) -> Optional[str]:
    """``master`` or ``chief``, whichever the cluster has, else None."""
    for job in (MASTER, CHIEF):
      if job in self.cluster:
        return job
    return None

  @property
  def num_ps(self) -> int:
    """Number of ps tasks."""
    return len(self.cluster.get(PS, ()))

  @property
  def num_workers(self) -> int:
    """Number of training workers, the master/chief included (TF1 view)."""
    return len(self.tf1_cluster_dict()[WORKER])

  @property
  def is_chief(self) -> bool:
    """Whether this task initialises and saves the model (TF1 worker 0)."""
    if self.task_type in (MASTER, CHIEF):
      return True
    return (self.task_type == WORKER and self.chief_job is None
            and self.task_index == 0)

  def tf1_cluster_dict(self) -> Dict[str, list]:
    """The between-graph cluster: jobs ``worker`` (master first) and ``ps``.

    The evaluator is not part of it: it runs its own local session.

    Returns:
      {"worker": [...], "ps": [...]} ("ps" only when there are ps tasks).
    """
    workers = [*self.cluster.get(self.chief_job, ()),
               *self.cluster.get(WORKER, ())]
    view = {WORKER: workers}
    if self.num_ps:
      view[PS] = list(self.cluster[PS])
    return view

  def tf1_cluster_spec(self) -> tf.train.ClusterSpec:
    """``tf.train.ClusterSpec`` of ``tf1_cluster_dict()``."""
    return tf.train.ClusterSpec(self.tf1_cluster_dict())

  def tf1_task(self) -> Tuple[str, int]:
    """This task as (job name, task index) in the between-graph cluster.

    Returns:
      ("worker", 0) for the master/chief; ("worker", i + 1) for TF_CONFIG
      worker i when there is a master/chief, else ("worker", i); ("ps", i).

    Raises:
      ValueError: this task is the evaluator, which is not in that cluster.
    """
    if self.task_type in (MASTER, CHIEF):
      return WORKER, 0
    if self.task_type == WORKER:
      return WORKER, self.task_index + (1 if self.chief_job else 0)
    if self.task_type == PS:
      return PS, self.task_index
    raise ValueError(
        f"{self.source}: the {self.task_type} task has no place in the "
        "between-graph training cluster; run evaluation in a local session.")

  def to_tf2_tf_config(self) -> Dict[str, Any]:
    """TF_CONFIG as TF2 expects it: ``master`` renamed ``chief``.

    Returns:
      A dict; ``json.dumps`` it into ``os.environ["TF_CONFIG"]``.
    """
    def tf2_job(job):
      return CHIEF if job == MASTER else job
    tf_config = {
        "cluster": {tf2_job(job): list(addresses)
                    for job, addresses in self.cluster.items()},
        "task": {"type": tf2_job(self.task_type), "index": self.task_index},
    }
    if self.environment is not None:
      tf_config["environment"] = self.environment
    return tf_config

  def start_server(self, protocol: str = "grpc",
                   tf2: bool = False) -> tf.distribute.Server:
    """Starts this task's server.

    Args:
      protocol: the server protocol.
      tf2: serve in the TF2 cluster (``to_tf2_tf_config()``) instead of the
        between-graph one, as the ps and worker tasks of a
        ParameterServerStrategy cluster do.

    Returns:
      The started ``tf.distribute.Server``; a TF1 worker's sessions use its
      ``target``, a ps task calls ``join()`` or ``serve_until_workers_exit``.

    Raises:
      ValueError: this task is the evaluator (TF1 view).
    """
    if tf2:
      resolver = self.cluster_resolver()
      return tf.distribute.Server(resolver.cluster_spec(),
                                  job_name=resolver.task_type,
                                  task_index=resolver.task_id,
                                  protocol=protocol, start=True)
    job_name, task_index = self.tf1_task()
    return tf.distribute.Server(self.tf1_cluster_spec(), job_name=job_name,
                                task_index=task_index, protocol=protocol,
                                start=True)

  def session_config(self) -> tf.compat.v1.ConfigProto:
    """Session options for a TF1 worker: see only the ps tasks and itself.

    Without ``device_filters`` a session on a worker's target waits until
    every task of the cluster is up, and hangs once another worker has
    exited. The filters must be on the session (``tf.Session(target,
    config=...)``, ``slim.learning.train(session_config=...)``); the same
    ConfigProto given to the server does not reach client sessions.

    Returns:
      A ConfigProto with this worker's device filters.

    Raises:
      ValueError: this task is not a TF1 worker.
    """
    job_name, task_index = self.tf1_task()
    if job_name != WORKER:
      raise ValueError(f"{self.source}: session_config is for workers; this "
                       f"task is {self.task_type} {self.task_index}.")
    return tf.compat.v1.ConfigProto(device_filters=[
        f"/job:{PS}", f"/job:{WORKER}/task:{task_index}"])

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


class _FieldNames:
  """How errors name the fields of one input spelling."""

  def __init__(self, source: str, cluster: str, task_type: str,
               task_index: str, job_fields: Optional[Mapping[str, str]] = None):
    self.source = source
    self.cluster = cluster
    self.task_type = task_type
    self.task_index = task_index
    self._job_fields = job_fields or {}

  def job(self, job: str) -> str:
    return self._job_fields.get(job, f"{self.cluster}.{job}")


_TF_CONFIG_FIELDS = _FieldNames("TF_CONFIG", "TF_CONFIG.cluster",
                                "TF_CONFIG.task.type", "TF_CONFIG.task.index")
_MOXING_FIELDS = _FieldNames("flags", "--ps_hosts/--worker_hosts",
                             "--job_name", "--task_index",
                             {PS: "--ps_hosts", WORKER: "--worker_hosts"})


def _check_address(address: Any, field: str) -> str:
  """Returns `address` if it is "host:port", else raises ValueError."""
  if not isinstance(address, str):
    raise ValueError(f"{field}: expected a \"host:port\" string, got "
                     f"{address!r}.")
  host, _, port = address.rpartition(":")
  if not host or not port.isdigit() or not 0 < int(port) < 65536:
    raise ValueError(f"{field}: {address!r} is not \"host:port\" (a host "
                     "name or IP, a colon, a port 1-65535).")
  return address


def _build(cluster: Any, task_type: Any, task_index: Any,
           environment: Optional[str], names: _FieldNames) -> ClusterConfig:
  """Validates one cluster description and returns it as a ClusterConfig."""
  if not isinstance(cluster, dict):
    raise ValueError(f"{names.cluster}: expected an object of job name -> "
                     f"address list, got {cluster!r}.")
  jobs: Dict[str, Tuple[str, ...]] = {}
  where: Dict[str, str] = {}
  for job, addresses in cluster.items():
    if job not in KNOWN_JOBS:
      raise ValueError(f"{names.cluster}: unknown job {job!r}; jobs are "
                       f"{', '.join(KNOWN_JOBS)}.")
    field = names.job(job)
    if not isinstance(addresses, list):
      raise ValueError(f"{field}: expected a list of \"host:port\", got "
                       f"{addresses!r}.")
    if not addresses:
      continue  # "ps": [] is how some launchers say "no ps tasks"
    if job in _SINGLE_TASK_JOBS and len(addresses) > 1:
      raise ValueError(f"{field}: {len(addresses)} tasks; a cluster has at "
                       f"most one {job}.")
    for i, address in enumerate(addresses):
      task_field = f"{field}[{i}]"
      _check_address(address, task_field)
      if address in where:
        raise ValueError(f"{task_field}: {address} is also {where[address]}; "
                         "every task needs its own address.")
      where[address] = task_field
    jobs[job] = tuple(addresses)
  if MASTER in jobs and CHIEF in jobs:
    raise ValueError(f"{names.cluster}: has both 'master' and 'chief'; they "
                     "are two names for the same task, keep one.")
  if not set(jobs) - {EVALUATOR}:
    raise ValueError(f"{names.cluster}: no training tasks; list at least one "
                     "of master, chief, worker.")
  if not isinstance(task_type, str) or task_type not in KNOWN_JOBS:
    raise ValueError(f"{names.task_type}: {task_type!r} is not one of "
                     f"{', '.join(KNOWN_JOBS)}.")
  if isinstance(task_index, bool) or not isinstance(task_index, int):
    raise ValueError(f"{names.task_index}: expected an integer, got "
                     f"{task_index!r}.")
  # An evaluator may be left out of the cluster (it serves nothing).
  num_tasks = len(jobs.get(task_type, ())) or int(task_type == EVALUATOR)
  if not num_tasks:
    raise ValueError(f"{names.task_type}: {task_type!r} is not a job of "
                     f"{names.cluster} (jobs: {', '.join(jobs)}).")
  if not 0 <= task_index < num_tasks:
    raise ValueError(f"{names.task_index}: {task_index} is out of range for "
                     f"job {task_type!r} with {num_tasks} "
                     f"task{'s' if num_tasks > 1 else ''}.")
  if jobs.get(PS) and not (set(jobs) & {MASTER, CHIEF, WORKER}):
    raise ValueError(f"{names.cluster}: ps tasks but no workers.")
  return ClusterConfig(cluster=jobs, task_type=task_type,
                       task_index=task_index, environment=environment,
                       source=names.source)


def parse_tf_config(text_or_dict: Union[str, bytes, Mapping[str, Any]]
                    ) -> ClusterConfig:
  """Parses TF_CONFIG in the platform form (``master``) or TF2's (``chief``).

  Args:
    text_or_dict: TF_CONFIG's JSON text, or the decoded object.

  Returns:
    The ClusterConfig, jobs kept as given (master stays master).

  Raises:
    ValueError: the text is not JSON, or a field is missing or invalid; the
      message names the field (e.g. ``TF_CONFIG.task.index``).
  """
  if isinstance(text_or_dict, (str, bytes)):
    try:
      tf_config = json.loads(text_or_dict)
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError
      raise ValueError(f"TF_CONFIG: not valid JSON ({error}).") from None
  else:
    tf_config = text_or_dict
  if not isinstance(tf_config, Mapping):
    raise ValueError(f"TF_CONFIG: expected a JSON object, got {tf_config!r}.")
  if "cluster" not in tf_config:
    raise ValueError("TF_CONFIG.cluster: missing.")
  task = tf_config.get("task")
  if not isinstance(task, Mapping):
    raise ValueError("TF_CONFIG.task: expected an object with \"type\" and "
                     f"\"index\", got {task!r}.")
  for key in ("type", "index"):
    if key not in task:
      raise ValueError(f"TF_CONFIG.task.{key}: missing.")
  environment = tf_config.get("environment")
  if environment is not None and not isinstance(environment, str):
    raise ValueError(f"TF_CONFIG.environment: expected a string, got "
                     f"{environment!r}.")
  return _build(tf_config["cluster"], task["type"], task["index"],
                environment, _TF_CONFIG_FIELDS)


def _is_distributed(config: ClusterConfig) -> bool:
  """More than one training task, or this task is the evaluator."""
  return (config.task_type == EVALUATOR
          or sum(len(config.cluster.get(job, ()))
                 for job in (MASTER, CHIEF, WORKER, PS)) > 1)


def from_env(environ: Optional[Mapping[str, str]] = None
             ) -> Optional[ClusterConfig]:
  """The cluster TF_CONFIG describes, or None when the job is not distributed.

  Args:
    environ: the environment to read; ``os.environ`` by default.

  Returns:
    None when TF_CONFIG is unset, blank, ``{}``, or names a single training
    task; the ClusterConfig otherwise.

  Raises:
    ValueError: TF_CONFIG is set but invalid (the message names the field).
  """
  if environ is None:
    environ = os.environ
  text = environ.get("TF_CONFIG", "").strip()
  if not text:
    return None
  try:
    tf_config = json.loads(text)
  except ValueError as error:
    raise ValueError(f"TF_CONFIG: not valid JSON ({error}).") from None
  if tf_config == {}:
    return None
  config = parse_tf_config(tf_config)
  return config if _is_distributed(config) else None


def _split_hosts(hosts: Union[str, Sequence[str], None]) -> list:
  if hosts is None:
    return []
  if isinstance(hosts, str):
    return [host.strip() for host in hosts.split(",") if host.strip()]
  return list(hosts)


def from_moxing_flags(ps_hosts: Union[str, Sequence[str], None],
                      worker_hosts: Union[str, Sequence[str], None],
                      job_name: str, task_index: int
                      ) -> Optional[ClusterConfig]:
  """The cluster MoXing-style flags describe; worker 0 is the chief.

  Args:
    ps_hosts: --ps_hosts, "host:port,host:port" or a list.
    worker_hosts: --worker_hosts, same form.
    job_name: --job_name, "ps" or "worker".
    task_index: --task_index.

  Returns:
    The ClusterConfig (task_type "ps" or "worker"), or None when the flags
    name no hosts or a single worker without ps tasks.

  Raises:
    ValueError: a flag is invalid; the message names it.
  """
  cluster = {PS: _split_hosts(ps_hosts), WORKER: _split_hosts(worker_hosts)}
  if not cluster[PS] and not cluster[WORKER]:
    return None
  if not cluster[WORKER]:
    raise ValueError("--worker_hosts: empty, but --ps_hosts lists ps tasks; "
                     "list the workers too.")
  if job_name not in (PS, WORKER):
    raise ValueError(f"--job_name: {job_name!r} is not 'ps' or 'worker'.")
  config = _build(cluster, job_name, task_index, None, _MOXING_FIELDS)
  return config if _is_distributed(config) else None


def _from_flags(flag_values: flags.FlagValues) -> Optional[ClusterConfig]:
  names = ("ps_hosts", "worker_hosts", "job_name", "task_index")
  if not all(name in flag_values for name in names):
    return None
  return from_moxing_flags(*(flag_values[name].value for name in names))


def _address_is_up(address: str, timeout: float = 1.0) -> bool:
  host, _, port = address.rpartition(":")
  try:
    with socket.create_connection((host.strip("[]"), int(port)),
                                  timeout=timeout):
      return True
  except OSError:
    return False


def serve_until_workers_exit(config: ClusterConfig,
                             poll_secs: float = PS_POLL_SECS,
                             idle_exit_secs: float = PS_IDLE_EXIT_SECS
                             ) -> str:
  """Blocks a ps task while its workers train.

  Returns once every worker has been seen up and all of them have then been
  down for `idle_exit_secs`, or on SIGTERM/SIGINT. The ps server keeps
  serving on its own threads meanwhile.

  Args:
    config: the cluster; its TF1 workers are watched.
    poll_secs: seconds between checks (a TCP connect to each worker).
    idle_exit_secs: how long all workers must be down.

  Returns:
    Why it returned: "workers exited" or the signal's name.
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
      if len(seen) < len(workers) or up:
        all_down_since = None
        continue
      if all_down_since is None:
        all_down_since = time.monotonic()
      elif time.monotonic() - all_down_since >= idle_exit_secs:
        return "workers exited"
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


def bootstrap(flag_values: flags.FlagValues = flags.FLAGS
              ) -> Optional[ClusterConfig]:
  """Joins this process to its cluster, the TF1 between-graph way.

  Reads TF_CONFIG, else --ps_hosts/--worker_hosts/--job_name/--task_index.
  Then, by role:

  * no cluster: changes nothing.
  * ps: starts the server and serves until every worker has come and gone
    (or SIGTERM/SIGINT), then ends the process with status 0 (``os._exit``,
    after flushing logs: nothing after ``bootstrap`` runs on a ps task).
  * master/chief/worker: starts the server and sets slim's flags, in the
    spelling the script defines: ``master`` = the server's target, ``task``
    (``task_id``/``task_index``) = its TF1 task index, ``worker_replicas``
    (``num_replicas``) and ``num_ps_tasks`` (``ps_tasks``); then applies
    ``slim_ext.supervisor.apply_env()`` (SLIM_EXT_RECOVERY_WAIT_SECS).
    Sessions that should not wait for the other workers pass
    ``config.session_config()``.
  * evaluator: starts nothing; the caller evaluates locally.

  Args:
    flag_values: the script's parsed flags.

  Returns:
    The ClusterConfig, or None when the job is not distributed.

  Raises:
    ValueError: TF_CONFIG or the cluster flags are invalid.
  """
  config = from_env()
  if config is None:
    config = _from_flags(flag_values)
  elif any(name in flag_values and flag_values[name].present
           for name in ("ps_hosts", "worker_hosts")):
    logging.warning("cluster: TF_CONFIG is set; ignoring --ps_hosts and "
                    "--worker_hosts.")
  if config is None:
    logging.info("cluster: no cluster in TF_CONFIG or flags; training "
                 "locally.")
    return None
  role = f"{config.source} {config.task_type} {config.task_index}"
  if config.task_type == EVALUATOR:
    logging.info("cluster: %s; no server started, evaluate locally.", role)
    return config
  job_name, task_index = config.tf1_task()
  server = config.start_server()
  if job_name == PS:
    logging.info("cluster: %s serves at %s until its %d workers exit.",
                 role, server.target, config.num_workers)
    why = serve_until_workers_exit(config)
    logging.info("cluster: ps %d stops: %s.", task_index, why)
    logging.flush()
    sys.stdout.flush()
    sys.stderr.flush()
    # Not sys.exit: TF's gRPC server cannot be stopped, and interpreter
    # teardown was seen to block for minutes while a worker still held a
    # connection to it. A ps task has nothing else to clean up.
    os._exit(0)  # pylint: disable=protected-access
  flags_set = [
      *_set_first_defined(flag_values, ("master",), server.target),
      *_set_first_defined(flag_values, TASK_FLAGS, task_index, every=True),
      *_set_first_defined(flag_values, REPLICAS_FLAGS, config.num_workers),
      *_set_first_defined(flag_values, PS_TASKS_FLAGS, config.num_ps),
  ]
  from slim_ext import supervisor  # pylint: disable=g-import-not-at-top
  supervisor.apply_env()
  logging.info(
      "cluster: %s is /job:worker/task:%d of %d workers, %d ps; server %s; "
      "set %s.", role, task_index, config.num_workers, config.num_ps,
      server.target,
      ", ".join(f"--{name}={flag_values[name].value}" for name in flags_set) or
      "no flags (the script defines none of them)")
  return config


define_flags()
