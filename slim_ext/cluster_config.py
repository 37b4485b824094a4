"""A cluster description from any spelling an orchestrator writes (no TensorFlow).

A task of a distributed job learns its cluster from the environment or from
MoXing-style flags (``--ps_hosts --worker_hosts --job_name --task_index``).
The environment spellings accepted, each recorded as a fixture in
``tests/slim_ext/tf_configs/``:

* TF2's ``TF_CONFIG`` (a ``chief`` job) and the UAI platform's and AI Platform
  Training's (a ``master`` job).
* Kubeflow TFJob (training-operator): replica types ``Chief``/``Master``/
  ``Worker``/``PS``/``Evaluator`` become the lowercase jobs, addresses are
  service DNS names (``<job>-worker-0.<namespace>.svc:2222``) and
  ``environment`` is ``"cloud"``. Current operators list the evaluator in the
  cluster, older ones (tf-operator) leave it out; both are read.
* Vertex AI and AI Platform Training: extra fields (``job``, ``task.trial``,
  ``task.cloud``) are ignored. Vertex AI's ``CLUSTER_SPEC`` names jobs after
  worker pools (``workerpool0``..``workerpool3`` = chief, worker, ps,
  evaluator); it is read when TF_CONFIG is not set.

``ClusterConfig`` holds one, validated, and gives the views slim's
between-graph training needs: jobs ``worker`` and ``ps`` only, the master (or
chief) merged into ``worker`` as task 0 and the other workers shifted up by
one, so ``/job:worker/task:<replica_id>`` and ``/job:ps/task:<i>`` name real
tasks; and TF2's view, with ``master`` renamed ``chief``. Invalid input is a
``ValueError`` that names the field. ``slim_ext.cluster`` builds servers,
sessions and strategies from it.
"""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type
from typing import TypeVar, Union

MASTER = "master"
CHIEF = "chief"
WORKER = "worker"
PS = "ps"
EVALUATOR = "evaluator"
KNOWN_JOBS = (MASTER, CHIEF, WORKER, PS, EVALUATOR)
# Jobs that have at most one task.
_SINGLE_TASK_JOBS = (MASTER, CHIEF, EVALUATOR)
# Vertex AI names jobs after the worker pools of the job request, whose
# positions fix their roles.
WORKER_POOL_JOBS = {
    "workerpool0": CHIEF,
    "workerpool1": WORKER,
    "workerpool2": PS,
    "workerpool3": EVALUATOR,
}

# The environment variables read, in order: TF_CONFIG (TensorFlow, Kubeflow,
# AI Platform, Vertex AI, UAI) and Vertex AI's CLUSTER_SPEC.
ENV_VARS = ("TF_CONFIG", "CLUSTER_SPEC")

ConfigT = TypeVar("ConfigT", bound="ClusterConfig")


@dataclasses.dataclass(frozen=True)
class ClusterConfig:
  """A validated cluster and this task's place in it.

  Attributes:
    cluster: job name -> task addresses ("host:port"), jobs among KNOWN_JOBS;
      ``master`` stays ``master``, worker pools are named by their role.
    task_type: this task's job.
    task_index: this task's index in its job.
    environment: TF_CONFIG's ``environment`` (e.g. "cloud"), if any.
    source: where the description came from, for messages ("TF_CONFIG",
      "CLUSTER_SPEC", "flags").
  """
  cluster: Mapping[str, Tuple[str, ...]]
  task_type: str
  task_index: int
  environment: Optional[str] = None
  source: str = "TF_CONFIG"

  @classmethod
  def from_tf_config(cls: Type[ConfigT],
                     text_or_dict: Union[str, bytes, Mapping[str, Any]],
                     source: str = "TF_CONFIG") -> ConfigT:
    """Parses TF_CONFIG (or CLUSTER_SPEC) in any of the accepted spellings.

    Args:
      text_or_dict: the JSON text, or the decoded object.
      source: the variable it came from, named in messages.

    Returns:
      The ClusterConfig.

    Raises:
      ValueError: the text is not JSON, or a field is missing or invalid; the
        message names the field (e.g. ``TF_CONFIG.task.index``).
    """
    tf_config = _decode(text_or_dict, source)
    if "cluster" not in tf_config and "sparseCluster" in tf_config:
      raise ValueError(
          f"{source}.sparseCluster: this is the TF_CONFIG of a Kubeflow TFJob "
          "with enableDynamicWorker: true, which lists only this task and "
          "the ps tasks; between-graph training needs every worker (slim's "
          "--worker_replicas, the chief): set enableDynamicWorker: false.")
    if "cluster" not in tf_config:
      raise ValueError(f"{source}.cluster: missing.")
    task = tf_config.get("task")
    if not isinstance(task, Mapping):
      raise ValueError(f"{source}.task: expected an object with \"type\" "
                       f"and \"index\", got {task!r}.")
    for key in ("type", "index"):
      if key not in task:
        raise ValueError(f"{source}.task.{key}: missing.")
    environment = tf_config.get("environment")
    if environment is not None and not isinstance(environment, str):
      raise ValueError(f"{source}.environment: expected a string, got "
                       f"{environment!r}.")
    return _build(cls, tf_config["cluster"], task["type"], task["index"],
                  environment, _FieldNames.of_env_var(source))

  @classmethod
  def from_env(cls: Type[ConfigT],
               environ: Optional[Mapping[str, str]] = None
               ) -> Optional[ConfigT]:
    """The cluster the environment describes, or None for a local job.

    Reads TF_CONFIG, or CLUSTER_SPEC when TF_CONFIG is unset or blank.

    Args:
      environ: the environment to read; ``os.environ`` by default.

    Returns:
      None when neither is set, the one set is blank or ``{}``, or it names a
      single training task; the ClusterConfig otherwise.

    Raises:
      ValueError: the variable is set but invalid (the message names it and
        the field).
    """
    if environ is None:
      environ = os.environ
    for name in ENV_VARS:
      text = environ.get(name, "").strip()
      if text:
        tf_config = _decode(text, name)
        if tf_config == {}:
          return None
        config = cls.from_tf_config(tf_config, source=name)
        return config if config.is_distributed else None
    return None

  @classmethod
  def from_moxing_flags(cls: Type[ConfigT],
                        ps_hosts: Union[str, Sequence[str], None],
                        worker_hosts: Union[str, Sequence[str], None],
                        job_name: str, task_index: int) -> Optional[ConfigT]:
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
      raise ValueError("--worker_hosts: empty, but --ps_hosts lists ps "
                       "tasks; list the workers too.")
    if job_name not in (PS, WORKER):
      raise ValueError(f"--job_name: {job_name!r} is not 'ps' or 'worker'.")
    config = _build(cls, cluster, job_name, task_index, None, _MOXING_FIELDS)
    return config if config.is_distributed else None

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

  @property
  def is_distributed(self) -> bool:
    """More than one training task, or this task is the evaluator."""
    return (self.task_type == EVALUATOR
            or sum(len(self.cluster.get(job, ()))
                   for job in (MASTER, CHIEF, WORKER, PS)) > 1)

  def tf1_cluster_dict(self) -> Dict[str, List[str]]:
    """The between-graph cluster: jobs ``worker`` (master first) and ``ps``.

    The evaluator is not part of it: it evaluates checkpoints on its own.

    Returns:
      {"worker": [...], "ps": [...]} ("ps" only when there are ps tasks).
    """
    workers = [*self.cluster.get(self.chief_job, ()),
               *self.cluster.get(WORKER, ())]
    view = {WORKER: workers}
    if self.num_ps:
      view[PS] = list(self.cluster[PS])
    return view

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
        "between-graph training cluster; run the evaluation script on it "
        "(python -m slim_ext.evaluator eval_image_classifier.py ...).")

  def tf1_address(self) -> str:
    """This task's "host:port" in the between-graph cluster."""
    job_name, task_index = self.tf1_task()
    return self.tf1_cluster_dict()[job_name][task_index]

  def device_filters(self) -> List[str]:
    """The devices a TF1 worker's sessions need: the ps tasks and its own.

    Without these filters a session waits until every task of the cluster
    is up, so a worker would wait for a chief that has finished and gone.

    Returns:
      ["/job:ps", "/job:worker/task:<i>"].

    Raises:
      ValueError: this task is not a TF1 worker.
    """
    job_name, task_index = self.tf1_task()
    if job_name != WORKER:
      raise ValueError(f"{self.source}: device filters are for workers; "
                       f"this task is {self.task_type} {self.task_index}.")
    return [f"/job:{PS}", f"/job:{WORKER}/task:{task_index}"]

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


class _FieldNames:
  """How errors name the fields of one input spelling."""

  def __init__(self, source: str, cluster: str, task_type: str,
               task_index: str, job_fields: Optional[Mapping[str, str]] = None):
    self.source = source
    self.cluster = cluster
    self.task_type = task_type
    self.task_index = task_index
    self._job_fields = job_fields or {}

  @classmethod
  def of_env_var(cls, name: str) -> _FieldNames:
    return cls(name, f"{name}.cluster", f"{name}.task.type",
               f"{name}.task.index")

  def job(self, job: str) -> str:
    return self._job_fields.get(job, f"{self.cluster}.{job}")


_MOXING_FIELDS = _FieldNames("flags", "--ps_hosts/--worker_hosts",
                             "--job_name", "--task_index",
                             {PS: "--ps_hosts", WORKER: "--worker_hosts"})


def _decode(text_or_dict: Union[str, bytes, Mapping[str, Any]],
            source: str) -> Mapping[str, Any]:
  """The JSON object of a TF_CONFIG-like variable."""
  if isinstance(text_or_dict, (str, bytes)):
    try:
      tf_config = json.loads(text_or_dict)
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError
      raise ValueError(f"{source}: not valid JSON ({error}).") from None
  else:
    tf_config = text_or_dict
  if not isinstance(tf_config, Mapping):
    raise ValueError(f"{source}: expected a JSON object, got {tf_config!r}.")
  return tf_config


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


def _role(job: Any, worker_pools: bool) -> Any:
  """The role a job name stands for: worker pools by position, else as is."""
  return WORKER_POOL_JOBS.get(job, job) if worker_pools else job


def _build(cls: Type[ConfigT], cluster: Any, task_type: Any, task_index: Any,
           environment: Optional[str], names: _FieldNames) -> ConfigT:
  """Validates one cluster description and returns it as a `cls`."""
  if not isinstance(cluster, dict):
    raise ValueError(f"{names.cluster}: expected an object of job name -> "
                     f"address list, got {cluster!r}.")
  worker_pools = any(job in WORKER_POOL_JOBS for job in cluster)
  accepted = tuple(WORKER_POOL_JOBS) if worker_pools else KNOWN_JOBS
  jobs: Dict[str, Tuple[str, ...]] = {}
  where: Dict[str, str] = {}
  for job, addresses in cluster.items():
    if job not in accepted:
      raise ValueError(f"{names.cluster}: unknown job {job!r}; jobs are "
                       f"{', '.join(accepted)}"
                       + (" (worker pools and role names do not mix)."
                          if worker_pools else "."))
    field = names.job(job)
    if not isinstance(addresses, list):
      raise ValueError(f"{field}: expected a list of \"host:port\", got "
                       f"{addresses!r}.")
    if not addresses:
      continue  # "ps": [] is how some launchers say "no ps tasks"
    role = _role(job, worker_pools)
    if role in _SINGLE_TASK_JOBS and len(addresses) > 1:
      raise ValueError(f"{field}: {len(addresses)} tasks; a cluster has at "
                       f"most one {role}.")
    for i, address in enumerate(addresses):
      task_field = f"{field}[{i}]"
      _check_address(address, task_field)
      if address in where:
        raise ValueError(f"{task_field}: {address} is also {where[address]}; "
                         "every task needs its own address.")
      where[address] = task_field
    jobs[role] = tuple(addresses)
  if MASTER in jobs and CHIEF in jobs:
    raise ValueError(f"{names.cluster}: has both 'master' and 'chief'; they "
                     "are two names for the same task, keep one.")
  if not set(jobs) - {EVALUATOR}:
    raise ValueError(f"{names.cluster}: no training tasks; list at least one "
                     "of master, chief, worker.")
  if not isinstance(task_type, str) or task_type not in accepted:
    raise ValueError(f"{names.task_type}: {task_type!r} is not one of "
                     f"{', '.join(accepted)}.")
  role = _role(task_type, worker_pools)
  if isinstance(task_index, bool) or not isinstance(task_index, int):
    raise ValueError(f"{names.task_index}: expected an integer, got "
                     f"{task_index!r}.")
  # An evaluator may be left out of the cluster (it serves nothing).
  num_tasks = len(jobs.get(role, ())) or int(role == EVALUATOR)
  if not num_tasks:
    raise ValueError(f"{names.task_type}: {task_type!r} is not a job of "
                     f"{names.cluster} (jobs: "
                     f"{', '.join(job for job in cluster if cluster[job])}).")
  if not 0 <= task_index < num_tasks:
    raise ValueError(f"{names.task_index}: {task_index} is out of range for "
                     f"job {task_type!r} with {num_tasks} "
                     f"task{'s' if num_tasks > 1 else ''}.")
  if jobs.get(PS) and not (set(jobs) & {MASTER, CHIEF, WORKER}):
    raise ValueError(f"{names.cluster}: ps tasks but no workers.")
  return cls(cluster=jobs, task_type=role, task_index=task_index,
             environment=environment, source=names.source)


def _split_hosts(hosts: Union[str, Sequence[str], None]) -> List[str]:
  if hosts is None:
    return []
  if isinstance(hosts, str):
    return [host.strip() for host in hosts.split(",") if host.strip()]
  return list(hosts)
