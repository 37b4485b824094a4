"""``tf.contrib.learn.RunConfig`` (TF 1.x) on tensorflow-estimator 2.15's RunConfig.

TF1-era Estimator trainers (tensorflow/models' cifar10_estimator and the
platform trainers built like it) configure their Estimator with
``tf.contrib.learn.RunConfig`` or ``from tensorflow.contrib.learn.python.learn
import run_config``; TF 2 has no contrib. This is that class, for the same
constructor and properties, as a ``tf.estimator.RunConfig`` (the class
tensorflow-estimator 2.15's Estimator expects), so ``Estimator(config=...)``,
``replace()`` and ``uid()`` work. It reads ``TF_CONFIG`` as the contrib class
did (``cluster``, ``task``, ``environment``; ``master`` included):

* ``master``: the constructor's, else ``grpc://`` + this task's address (empty
  for a local job or a one-task cluster);
* ``is_chief``: without a task type, task 0; in the ``cloud`` environment
  (what training platforms write), the ``master`` task 0; elsewhere the
  ``worker`` task 0 (TF1's "legacy" rule, kept);
* ``num_ps_replicas``, ``num_worker_replicas`` (``worker`` + ``master``),
  ``task_type``, ``task_id``, ``cluster_spec``, ``environment``, and
  ``tf_config`` (the ConfigProto built from ``num_cores``,
  ``log_device_placement`` and ``gpu_memory_fraction``).

One difference, on purpose: when the job is distributed, the sessions get
tf.estimator.RunConfig's device filters (a worker sees only the ps tasks and
itself), also in a ``session_config`` the trainer gives (tensorflow/models'
cifar10_estimator gives one for ``allow_soft_placement``) unless it names
device filters of its own. TF 1.4's contrib class left them out, so every
session waited for every task of the cluster: a chief waited for workers not
yet started, and a worker still waiting for the chief's initialisation (it
looks every 30 s) when a short job's chief finished waited forever. With the
filters the tasks start and finish in any order and train exactly as before;
only a model that pins an op to another worker task (between-graph training
places everything on the ps tasks and this task) would no longer see that task.
"""
import collections
import json
import os
from typing import Any, List, Optional

import slim_ext  # noqa: F401  (revives tf.estimator on TF >= 2.16)
import tensorflow as tf
from tensorflow_estimator.python.estimator import run_config as core_run_config

# Properties uid() leaves out by default: changing them does not change the job.
_DEFAULT_UID_WHITE_LIST = [
    "tf_random_seed",
    "save_summary_steps",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
    "session_config",
    "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours",
    "log_step_count_steps",
]


class Environment:
  """TF_CONFIG's ``environment`` values."""
  CLOUD = "cloud"
  GOOGLE = "google"
  LOCAL = "local"


class TaskType:
  """TF_CONFIG's task types in tf.contrib.learn."""
  MASTER = "master"
  PS = "ps"
  WORKER = "worker"


def _tf_config() -> dict:
  return json.loads(os.environ.get("TF_CONFIG") or "{}")


def _master(cluster_spec: tf.train.ClusterSpec, task_type: Optional[str],
            task_id: int) -> str:
  """This task's server as the session master; '' for a local job."""
  jobs = cluster_spec.jobs
  if not jobs or (len(jobs) == 1 and len(cluster_spec.job_tasks(jobs[0])) == 1):
    return ""
  if not task_type:
    return ""
  if task_type not in jobs:
    raise ValueError(f"{task_type} is not a valid task_type in the cluster_spec:\n"
                     f"{cluster_spec}\n\nNote that these values may be coming "
                     "from the TF_CONFIG environment variable.")
  addresses = cluster_spec.job_tasks(task_type)
  if not 0 <= task_id < len(addresses):
    raise ValueError(f"{task_id} is not a valid task_id for task_type {task_type} "
                     f"in the cluster_spec:\n{cluster_spec}\n\nNote that these "
                     "values may be coming from the TF_CONFIG environment variable.")
  return "grpc://" + addresses[task_id]


def _is_chief(task_type: Optional[str], task_id: int, environment: str) -> bool:
  if task_type is None:
    return task_id == 0
  if environment == Environment.CLOUD:
    return task_type == TaskType.MASTER and task_id == 0
  # TF1's "legacy" rule outside the cloud environment.
  return task_type == TaskType.WORKER and task_id == 0


class RunConfig(core_run_config.RunConfig):
  """tf.contrib.learn's RunConfig: its arguments and TF_CONFIG rules, a tf.estimator.RunConfig.

  Args:
    master: the TensorFlow master; by default this task's server from TF_CONFIG.
    num_cores: threads for inter- and intra-op parallelism (0: TF picks).
    log_device_placement: log each op's device (in ``tf_config``).
    gpu_memory_fraction: fraction of each GPU's memory to use (in ``tf_config``).
    tf_random_seed: the graph-level random seed.
    save_summary_steps: save summaries every this many steps.
    save_checkpoints_secs: save a checkpoint every this many seconds; by
      default 600 unless ``save_checkpoints_steps`` is given.
    save_checkpoints_steps: save a checkpoint every this many steps.
    keep_checkpoint_max: checkpoints to keep.
    keep_checkpoint_every_n_hours: keep one checkpoint every this many hours.
    log_step_count_steps: log global steps/sec every this many steps.
    evaluation_master: the master to evaluate on ('' : in process).
    model_dir: where checkpoints and summaries go (or TF_CONFIG's ``model_dir``).
    session_config: a ConfigProto for the sessions, or None.
  """

  _USE_DEFAULT = 0

  def __init__(self,
               master: Optional[str] = None,
               num_cores: int = 0,
               log_device_placement: bool = False,
               gpu_memory_fraction: float = 1,
               tf_random_seed: Optional[int] = None,
               save_summary_steps: int = 100,
               save_checkpoints_secs: Any = _USE_DEFAULT,
               save_checkpoints_steps: Optional[int] = None,
               keep_checkpoint_max: int = 5,
               keep_checkpoint_every_n_hours: int = 10000,
               log_step_count_steps: int = 100,
               evaluation_master: str = "",
               model_dir: Optional[str] = None,
               session_config: Optional[tf.compat.v1.ConfigProto] = None):
    if save_checkpoints_secs == RunConfig._USE_DEFAULT:
      save_checkpoints_secs = 600 if save_checkpoints_steps is None else None
    super().__init__(
        model_dir=model_dir,
        tf_random_seed=tf_random_seed,
        save_summary_steps=save_summary_steps,
        save_checkpoints_steps=save_checkpoints_steps,
        save_checkpoints_secs=save_checkpoints_secs,
        session_config=session_config,
        keep_checkpoint_max=keep_checkpoint_max,
        keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
        log_step_count_steps=log_step_count_steps)
    if master is not None:
      self._master = master
    self._evaluation_master = evaluation_master or ""
    self._tf_config = tf.compat.v1.ConfigProto(
        log_device_placement=log_device_placement,
        inter_op_parallelism_threads=num_cores,
        intra_op_parallelism_threads=num_cores,
        gpu_options=tf.compat.v1.GPUOptions(
            per_process_gpu_memory_fraction=gpu_memory_fraction))

  def _init_distributed_setting_from_environment_var(self, tf_config: dict) -> None:
    """Reads the cluster and this task from TF_CONFIG by tf.contrib.learn's rules.

    tf.estimator.RunConfig calls this while it is constructed; its own rules
    differ (a cluster must have a chief or master, the master is always chief,
    a missing task type means "worker").
    """
    self._service = None
    self._cluster_spec = tf.train.ClusterSpec(tf_config.get("cluster", {}))
    task = tf_config.get("task", {})
    self._task_type = task.get("type")
    self._task_id = int(task.get("index") or 0)
    self._environment = tf_config.get("environment", Environment.LOCAL)
    self._master = _master(self._cluster_spec, self._task_type, self._task_id)
    self._evaluation_master = ""
    jobs = self._cluster_spec.as_dict()
    self._num_ps_replicas = len(jobs.get(TaskType.PS, ()))
    self._num_worker_replicas = (len(jobs.get(TaskType.WORKER, ())) +
                                 len(jobs.get(TaskType.MASTER, ())))
    self._is_chief = _is_chief(self._task_type, self._task_id, self._environment)
    # Numbered as tf.estimator numbers them, the chief's job first.
    chief_job = TaskType.MASTER if TaskType.MASTER in jobs else TaskType.WORKER
    self._global_id_in_cluster = (
        core_run_config._get_global_id_in_cluster(  # pylint: disable=protected-access
            self._cluster_spec, self._task_type, self._task_id, chief_job)
        if self._task_type in jobs and chief_job in jobs else 0)

  def _maybe_overwrite_session_config_for_distributed_training(self) -> None:
    """Adds the device filters of this task to the sessions of a cluster job.

    tf.estimator.RunConfig calls this while it is constructed and, without a
    ``session_config``, sets its default for the task; a ``session_config``
    without device filters gets that default's filters added to a copy.
    """
    filtered = self._get_default_session_config_distributed()
    if (not self._cluster_spec or filtered is None or self._session_config is None
        or self._session_config.device_filters):
      super()._maybe_overwrite_session_config_for_distributed_training()
      return
    session_config = tf.compat.v1.ConfigProto()
    session_config.CopyFrom(self._session_config)
    session_config.device_filters.extend(filtered.device_filters)
    self._session_config = session_config

  @property
  def environment(self) -> str:
    return self._environment

  @property
  def tf_config(self) -> tf.compat.v1.ConfigProto:
    return self._tf_config

  @staticmethod
  def get_task_id() -> int:
    """TF_CONFIG's ``task.index`` (0 when missing)."""
    task_index = _tf_config().get("task", {}).get("index")
    return int(task_index) if task_index else 0

  def uid(self, whitelist: Optional[List[str]] = None) -> str:
    """A string of every setting but those in `whitelist`, to compare configs.

    Args:
      whitelist: property names to leave out; ``_DEFAULT_UID_WHITE_LIST``
        by default.

    Returns:
      ``name=value`` pairs in name order.
    """
    if whitelist is None:
      whitelist = _DEFAULT_UID_WHITE_LIST
    state = {key: value for key, value in self.__dict__.items()
             if not key.startswith("__")}
    for name in whitelist:
      state.pop("_" + name, None)
    ordered = collections.OrderedDict(sorted(state.items()))
    if "_cluster_spec" in ordered:
      ordered["_cluster_spec"] = collections.OrderedDict(
          sorted(ordered["_cluster_spec"].as_dict().items()))
    return ", ".join(f"{key}={value!r}" for key, value in ordered.items())
