"""Estimator's multi-worker strategies through the distribute coordinator, for TF >= 2.16.

TensorFlow <= 2.15 had ``tensorflow/python/distribute/estimator_training.py``:
the glue between tensorflow-estimator and TensorFlow's distribute coordinator.
TF 2.16 removed it with ``tf.estimator``, but kept the coordinator itself
(``distribute_coordinator.py``, unchanged in 2.21). tensorflow-estimator 2.15
imports this module by that name and calls the five functions below:

* ``RunConfig(train_distribute=...)`` calls ``init_run_config``, which decides
  from TF_CONFIG whether the coordinator runs the job: it does for a cluster
  with a ``chief`` (not ``master``) and a ``train_distribute`` strategy
  (MultiWorkerMirroredStrategy, tf.compat.v1's ParameterServerStrategy), in
  INDEPENDENT_WORKER mode; or with ``experimental_distribute.remote_cluster``,
  in STANDALONE_CLIENT mode.
* ``train_and_evaluate`` then hands each task its part through
  ``run_distribute_coordinator``: chief and workers train a copy of the
  estimator whose RunConfig describes their place in the cluster, the
  evaluator evaluates continuously, ps tasks serve.
* ``Estimator.train`` / ``evaluate`` go through ``estimator_train`` /
  ``estimator_evaluate`` in STANDALONE_CLIENT mode.

slim_ext installs this module under the old name only where TensorFlow has
none (``slim_ext.estimator.shims``); it behaves as TF 2.15's did.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, List, Optional

from tensorflow.python.distribute import distribute_coordinator
from tensorflow.python.distribute import distribute_coordinator_context
from tensorflow.python.distribute import multi_worker_util
from tensorflow.python.platform import tf_logging as logging
from tensorflow.python.training import server_lib

_TASK_TYPE = distribute_coordinator._TaskType  # pylint: disable=protected-access
CHIEF = _TASK_TYPE.CHIEF
EVALUATOR = _TASK_TYPE.EVALUATOR
PS = _TASK_TYPE.PS
WORKER = _TASK_TYPE.WORKER

_MODES = distribute_coordinator.CoordinatorMode
STANDALONE_CLIENT = _MODES.STANDALONE_CLIENT
INDEPENDENT_WORKER = _MODES.INDEPENDENT_WORKER

# pylint: disable=protected-access  (RunConfig keeps its state in _fields)


def _jobs(cluster_spec: server_lib.ClusterSpec) -> dict:
  return cluster_spec.as_dict()


def _global_id(cluster_spec: server_lib.ClusterSpec, task_type: Optional[str],
               task_id: int) -> int:
  """This task's index in the cluster, as RunConfig.global_id_in_cluster.

  Tasks are numbered chief first, then the other jobs by name, ps last.
  """
  if not task_type:
    return 0
  jobs = _jobs(cluster_spec)
  ordered = ([CHIEF] if CHIEF in jobs else []) + sorted(
      job for job in jobs if job not in (CHIEF, PS)) + (
          [PS] if PS in jobs else [])
  first_id = 0
  for job in ordered:
    if job == task_type:
      return first_id + task_id
    first_id += len(cluster_spec.job_tasks(job))
  raise RuntimeError(f"task type {task_type!r} is not in the cluster "
                     f"{jobs}.")


def _init_run_config_from_worker_context(config: Any, context: Any) -> None:
  """Makes a RunConfig describe the task a coordinator worker context runs."""
  config._service = None
  config._cluster_spec = context.cluster_spec
  config._task_type = context.task_type
  config._task_id = context.task_id
  config._master = context.master_target
  config._evaluation_master = context.master_target
  config._is_chief = context.is_chief
  if not config._cluster_spec:  # one local worker
    config._global_id_in_cluster = 0
    config._num_ps_replicas = 0
    config._num_worker_replicas = 1
  elif config._task_type == EVALUATOR:
    # The evaluator sees no other task: it evaluates checkpoints on its own.
    config._cluster_spec = server_lib.ClusterSpec({})
    config._global_id_in_cluster = None
    config._num_ps_replicas = 0
    config._num_worker_replicas = 0
  else:
    jobs = _jobs(config._cluster_spec)
    config._num_ps_replicas = len(jobs.get(PS, ()))
    config._num_worker_replicas = (
        len(jobs.get(WORKER, ())) + len(jobs.get(CHIEF, ())))
    config._global_id_in_cluster = _global_id(
        config._cluster_spec, config._task_type, config._task_id)


def _take_strategy_from_experimental_distribute(config: Any,
                                                kind: str) -> None:
  """Moves experimental_distribute.<kind>_distribute to config._<kind>_distribute."""
  from_experimental = getattr(config._experimental_distribute,
                              f"{kind}_distribute", None)
  if not from_experimental:
    return
  if getattr(config, f"_{kind}_distribute"):
    raise ValueError(f"Either `{kind}_distribute` or "
                     f"`experimental_distribute.{kind}_distribute` can be set.")
  setattr(config, f"_{kind}_distribute", from_experimental)


def init_run_config(config: Any, tf_config: dict) -> None:
  """Sets up a RunConfig built with distribution strategies.

  Args:
    config: the ``tf.estimator.RunConfig`` being constructed.
    tf_config: the decoded TF_CONFIG (``{}`` when unset).

  Raises:
    ValueError: a strategy is given twice (directly and in
      ``experimental_distribute``), or TF_CONFIG has a cluster while
      ``experimental_distribute.remote_cluster`` is set.
  """
  if config._experimental_distribute:
    _take_strategy_from_experimental_distribute(config, "train")
    _take_strategy_from_experimental_distribute(config, "eval")
  cluster_spec = server_lib.ClusterSpec(tf_config.get("cluster", {}))
  config._init_distributed_setting_from_environment_var({})

  remote_cluster = (config._experimental_distribute and
                    config._experimental_distribute.remote_cluster)
  if config._train_distribute and remote_cluster:
    if cluster_spec:
      raise ValueError('Cannot set both "cluster_spec" of TF_CONFIG and '
                       "`experimental_distribute.remote_cluster`")
    config._distribute_coordinator_mode = STANDALONE_CLIENT
    config._cluster_spec = remote_cluster
    logging.info("RunConfig initialized for Distribute Coordinator with "
                 "STANDALONE_CLIENT mode")
    return

  # A `master` job is the TF1 between-graph form: each task runs on its own
  # as RunConfig describes it, without the coordinator.
  if (not cluster_spec or "master" in cluster_spec.jobs or
      not config._train_distribute):
    config._distribute_coordinator_mode = None
    config._init_distributed_setting_from_environment_var(tf_config)
    config._maybe_overwrite_session_config_for_distributed_training()
    logging.info("Not using Distribute Coordinator.")
    return

  # The coordinator gives each task its settings when it runs it.
  config._cluster_spec = cluster_spec
  config._distribute_coordinator_mode = INDEPENDENT_WORKER
  logging.info("RunConfig initialized for Distribute Coordinator with "
               "INDEPENDENT_WORKER mode")


def should_run_distribute_coordinator(config: Any) -> bool:
  """Tells whether ``train_and_evaluate`` runs through the coordinator.

  Args:
    config: the estimator's RunConfig.

  Returns:
    True for a RunConfig set up by ``init_run_config`` for the coordinator,
    with a cluster.
  """
  mode = getattr(config, "_distribute_coordinator_mode", None)
  if mode is None:
    logging.info("Not using Distribute Coordinator.")
    return False
  if mode not in (STANDALONE_CLIENT, INDEPENDENT_WORKER):
    logging.warning("Unexpected distribute_coordinator_mode: %r", mode)
    return False
  if not config.cluster_spec:
    logging.warning("Running `train_and_evaluate` locally, ignoring "
                    "`experimental_distribute_coordinator_mode`.")
    return False
  return True


def _estimator_for_this_task(estimator: Any, kind: str, strategy: Any) -> Any:
  """A copy of `estimator` configured for the coordinator's current task.

  The copy's coordinator mode is cleared, so its own train/evaluate calls run
  the strategy directly instead of entering the coordinator again.
  """
  local_estimator = copy.deepcopy(estimator)
  setattr(local_estimator._config, f"_{kind}_distribute", strategy)
  context = distribute_coordinator_context.get_current_worker_context()
  _init_run_config_from_worker_context(local_estimator._config, context)
  logging.info("Updated config: %s", str(vars(local_estimator._config)))
  setattr(local_estimator, f"_{kind}_distribution", strategy)
  local_estimator._config._distribute_coordinator_mode = None
  return local_estimator


def train_and_evaluate(estimator: Any, train_spec: Any, eval_spec: Any,
                       executor_cls: Callable[..., Any]) -> Any:
  """Runs ``tf.estimator.train_and_evaluate`` through the coordinator.

  Args:
    estimator: the Estimator.
    train_spec: its TrainSpec.
    eval_spec: its EvalSpec.
    executor_cls: tensorflow_estimator's ``_TrainingExecutor``; the
      evaluator runs its continuous evaluation.

  Returns:
    What the coordinator returns for this task.

  Raises:
    ValueError: the RunConfig was not set up for the coordinator.
  """
  run_config = estimator.config
  mode = run_config._distribute_coordinator_mode
  if not mode:
    raise ValueError(
        "Distribute coordinator mode is not specified in `RunConfig`.")

  def train_on_this_worker(strategy):
    local_estimator = _estimator_for_this_task(estimator, "train", strategy)
    # A standalone client trains every worker from one process: it runs the
    # hooks (logging, ...) for the chief only.
    context = distribute_coordinator_context.get_current_worker_context()
    keep_hooks = mode == INDEPENDENT_WORKER or context.is_chief
    local_estimator.train(input_fn=train_spec.input_fn,
                          max_steps=train_spec.max_steps,
                          hooks=list(train_spec.hooks) if keep_hooks else [])

  def evaluate_continuously(strategy):
    local_estimator = _estimator_for_this_task(estimator, "eval", strategy)
    executor = executor_cls(local_estimator, train_spec, eval_spec)
    executor._start_continuous_evaluation()

  # In INDEPENDENT_WORKER mode the coordinator reads the cluster from TF_CONFIG.
  cluster_spec = run_config.cluster_spec if mode == STANDALONE_CLIENT else None
  if mode == STANDALONE_CLIENT:
    assert cluster_spec
  return distribute_coordinator.run_distribute_coordinator(
      train_on_this_worker,
      run_config.train_distribute,
      evaluate_continuously,
      run_config.eval_distribute,
      mode=mode,
      cluster_spec=cluster_spec,
      session_config=run_config.session_config)


def _run_on_standalone_client(estimator: Any, kind: str,
                              distributed_fn: Callable[..., Any],
                              hooks: Optional[List[Any]], api: str) -> Any:
  """``Estimator.train``/``evaluate`` of a standalone client: every worker's part.

  Args:
    estimator: the Estimator.
    kind: "train" or "eval": which strategy of the RunConfig to run.
    distributed_fn: ``fn(estimator, strategy, hooks)`` that trains or
      evaluates one worker's copy.
    hooks: the caller's hooks; the chief's copy runs them.
    api: the Estimator method, for messages.

  Returns:
    What the coordinator returns (the chief's result).

  Raises:
    ValueError: the cluster has an evaluator, the mode is not
      STANDALONE_CLIENT, or the strategy is between-graph.
  """
  config = estimator._config
  assert config._distribute_coordinator_mode
  assert config.cluster_spec
  strategy = getattr(config, f"_{kind}_distribute")
  assert strategy
  cluster_spec = multi_worker_util.normalize_cluster_spec(config.cluster_spec)
  if EVALUATOR in cluster_spec.jobs:
    raise ValueError("'evaluator' job is not supported if you don't use "
                     "`train_and_evaluate`")
  if config._distribute_coordinator_mode != STANDALONE_CLIENT:
    raise ValueError("Only `STANDALONE_CLIENT` mode is supported when you call "
                     f"`{api}`")
  if strategy.extended.experimental_between_graph:
    # One return value per worker and nothing to merge them with.
    raise ValueError(f"`{api}` API is not supported for "
                     f"{type(strategy).__name__} with `STANDALONE_CLIENT` "
                     "mode.")

  def run_this_worker(worker_strategy):
    local_estimator = _estimator_for_this_task(estimator, kind,
                                               worker_strategy)
    context = distribute_coordinator_context.get_current_worker_context()
    return distributed_fn(local_estimator, worker_strategy,
                          hooks if context.is_chief else [])

  return distribute_coordinator.run_distribute_coordinator(
      run_this_worker,
      strategy,
      mode=config._distribute_coordinator_mode,
      cluster_spec=cluster_spec,
      session_config=config.session_config)


def estimator_train(estimator: Any,
                    train_distributed_fn: Callable[..., Any],
                    hooks: Optional[List[Any]]) -> Any:
  """``Estimator.train`` in STANDALONE_CLIENT mode.

  Args:
    estimator: the Estimator.
    train_distributed_fn: ``fn(estimator, strategy, hooks)`` training one
      worker's copy.
    hooks: the caller's training hooks (run on the chief's copy).

  Returns:
    The chief's trained copy of the estimator.
  """
  def train_and_return_copy(local_estimator, strategy, chief_hooks):
    train_distributed_fn(local_estimator, strategy, chief_hooks)
    return local_estimator

  return _run_on_standalone_client(estimator, "train", train_and_return_copy,
                                   hooks, "Estimator.train")


def estimator_evaluate(estimator: Any,
                       evaluate_distributed_fn: Callable[..., Any],
                       hooks: Optional[List[Any]]) -> Any:
  """``Estimator.evaluate`` in STANDALONE_CLIENT mode.

  Args:
    estimator: the Estimator.
    evaluate_distributed_fn: ``fn(estimator, strategy, hooks)`` evaluating
      one worker's copy.
    hooks: the caller's evaluation hooks (run on the chief's copy).

  Returns:
    The chief's evaluation metrics.
  """
  return _run_on_standalone_client(estimator, "eval", evaluate_distributed_fn,
                                   hooks, "Estimator.evaluate")
