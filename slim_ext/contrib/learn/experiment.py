"""``tf.contrib.learn.Experiment`` (TF 1.15) on tensorflow-estimator's Estimator.

TF1-era trainers (tensorflow/models' ``tutorials/image/cifar10_estimator`` and
the platform trainers built from it) hand an Estimator and its input functions
to an Experiment, and ``learn_runner.run`` (``slim_ext.contrib.learn.learn_runner``)
calls the Experiment's method for this task: ``train_and_evaluate`` on the
master, ``train`` on a worker, ``run_std_server`` on a ps. This is that class,
with TF 1.15's constructor and schedules, for a ``tf.estimator.Estimator``
(tensorflow-estimator 2.15, revived by slim_ext on TF >= 2.16):

* ``train``: in a cluster whose RunConfig is tf.contrib.learn's
  (``slim_ext.contrib.learn.run_config``) and whose environment is ``cloud``,
  starts this task's server first; worker ``n`` waits ``min(60, 5 n)`` seconds
  (or, with ``delay_workers_by_global_step``, for a global step); then
  ``Estimator.train(max_steps=train_steps)``.
* ``evaluate``: after ``eval_delay_secs``, one evaluation.
* ``train_and_evaluate``: trains with an evaluation of each new checkpoint
  (at most every ``min_eval_frequency`` steps and ``check_interval_secs``:
  tf.contrib.learn's ValidationMonitor, here a SessionRunHook), then evaluates
  and exports once more; ``checkpoint_and_export`` evaluates and exports after
  each checkpoint instead.
* ``continuous_eval`` / ``continuous_eval_on_train_data``: evaluate each new
  checkpoint, at most once per ``continuous_eval_throttle_secs``, until the
  global step reaches ``train_steps``.
* ``continuous_train_and_eval``, ``local_run``, ``test``.
* ``run_std_server``: starts this task's server and joins it. TensorFlow's
  join never returns, so a ps never ended by itself; here a ps task's join
  (``slim_ext.cluster.join``) ends once every worker of the cluster has come
  and gone, and the process exits with status 0.

What went with tf.contrib.learn's own Estimators is refused with the reason:
an estimator that is not a ``tf.estimator.Estimator``, and train monitors
that are not SessionRunHooks (tf.contrib.learn's monitors).
"""
from __future__ import annotations

import contextlib
import functools
import math
import os
import time
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple

import slim_ext  # noqa: F401  (revives tf.estimator on TF >= 2.16)
import tensorflow as tf
from tensorflow.python.util import function_utils
from tensorflow_estimator.python.estimator import estimator as core_estimator

from slim_ext.contrib.learn import checkpoint_evaluation
from slim_ext.contrib.learn import export_strategy as export_strategy_lib
from slim_ext.contrib.learn import run_config as run_config_lib

__all__ = ["Experiment"]

_logging = tf.compat.v1.logging
_GLOBAL_STEP = tf.compat.v1.GraphKeys.GLOBAL_STEP
# How often a waiting continuous evaluation repeats its warning.
_WARNING_EVERY_SECS = 600


def _with_checkpoint_path(predicate_fn: Callable[..., bool]) -> Callable[..., bool]:
  """``predicate_fn`` called as ``(eval_results, checkpoint_path)``."""
  if "checkpoint_path" in function_utils.fn_args(predicate_fn):
    return predicate_fn
  return lambda eval_results, checkpoint_path: predicate_fn(eval_results)


def _predicate(continuous_eval_predicate_fn: Optional[Callable[..., bool]]
               ) -> Optional[Callable[..., bool]]:
  if continuous_eval_predicate_fn is None:
    return None
  if not callable(continuous_eval_predicate_fn):
    raise ValueError("`continuous_eval_predicate_fn` must be a callable, or None.")
  return _with_checkpoint_path(continuous_eval_predicate_fn)


@contextlib.contextmanager
def _restored(obj: Any, attribute: str) -> Iterator[None]:
  """Within the block ``obj.attribute`` may change; after it, it is restored."""
  saved = getattr(obj, attribute)
  try:
    yield
  finally:
    setattr(obj, attribute, saved)


def _hooks(train_monitors: Optional[Sequence[Any]]) -> List[Any]:
  """The training hooks; tf.contrib.learn's monitors went with it."""
  hooks = list(train_monitors or [])
  for hook in hooks:
    if not isinstance(hook, tf.compat.v1.train.SessionRunHook):
      raise ValueError(
          f"train_monitors: {hook!r} is not a SessionRunHook. tf.contrib.learn's "
          "monitors are gone with it; pass tf.estimator.SessionRunHook objects "
          "(tf.compat.v1.train.LoggingTensorHook, StopAtStepHook, ...) instead.")
  return hooks


class Experiment:
  """An Estimator, its inputs and how to train and evaluate it, by task.

  Args:
    estimator: a ``tf.estimator.Estimator``.
    train_input_fn: returns the training features and labels.
    eval_input_fn: returns the evaluation features and labels; with
      ``eval_steps=None`` it must end (one pass over the evaluation data).
    eval_metrics: must be None (a tf.estimator.Estimator's metrics are its
      ``eval_metric_ops``).
    train_steps: train until this global step; None trains forever.
    eval_steps: steps per evaluation; None runs until the input ends.
    train_monitors: SessionRunHooks for training.
    eval_hooks: SessionRunHooks for evaluation.
    local_eval_frequency: ``local_run``'s ``min_eval_frequency``.
    eval_delay_secs: ``evaluate`` and ``continuous_eval`` start this many
      seconds late.
    continuous_eval_throttle_secs: at most one continuous evaluation per this
      many seconds.
    min_eval_frequency: ``train_and_evaluate`` evaluates a new checkpoint at
      most every this many steps (None: 1; 0: only after training).
    delay_workers_by_global_step: worker ``n`` waits for global step
      ``8000 log(n + 1)`` instead of ``min(60, 5 n)`` seconds.
    export_strategies: an ExportStrategy, an iterable of them, or None.
    train_steps_per_iteration: ``continuous_train_and_eval``'s steps per
      round (None: ``train_steps / 10``, or 1000).
    checkpoint_and_export: ``train_and_evaluate`` evaluates and exports after
      each checkpoint the RunConfig saves, instead of ``min_eval_frequency``.
    saving_listeners: CheckpointSaverListeners for ``Estimator.train``.
    check_interval_secs: at least this many seconds between looks for a new
      checkpoint in ``train_and_evaluate``.

  Raises:
    ValueError: the estimator is not a tf.estimator.Estimator, ``eval_metrics``
      is given, an export strategy is not an ExportStrategy, or
      ``train_steps_per_iteration`` is not an integer.
  """

  def __init__(self,
               estimator: Any,
               train_input_fn: Callable[..., Any],
               eval_input_fn: Callable[..., Any],
               eval_metrics: Optional[dict] = None,
               train_steps: Optional[int] = None,
               eval_steps: Optional[int] = 100,
               train_monitors: Optional[Sequence[Any]] = None,
               eval_hooks: Optional[Sequence[Any]] = None,
               local_eval_frequency: Optional[int] = None,
               eval_delay_secs: float = 120,
               continuous_eval_throttle_secs: float = 60,
               min_eval_frequency: Optional[int] = None,
               delay_workers_by_global_step: bool = False,
               export_strategies: Any = None,
               train_steps_per_iteration: Optional[int] = None,
               checkpoint_and_export: bool = False,
               saving_listeners: Optional[Sequence[Any]] = None,
               check_interval_secs: float = 5):
    if not isinstance(estimator, core_estimator.Estimator):
      raise ValueError(
          f"`estimator` must be a tf.estimator.Estimator, got {type(estimator)}: "
          "tf.contrib.learn's own Estimators (Trainable / Evaluable) are gone "
          "with it; build a tf.estimator.Estimator from the same model_fn.")
    if eval_metrics is not None:
      raise ValueError(
          "`eval_metrics` must be `None` with `tf.estimator.Estimator`. "
          "Use `eval_metric_ops` in `tf.estimator.EstimatorSpec` instead.")
    if (train_steps_per_iteration is not None
        and not isinstance(train_steps_per_iteration, int)):
      raise ValueError("`train_steps_per_iteration` must be an integer.")
    self._estimator = estimator
    self._train_input_fn = train_input_fn
    self._eval_input_fn = eval_input_fn
    self._eval_metrics = eval_metrics
    self._train_steps = train_steps
    self._eval_steps = eval_steps
    self._train_monitors = _hooks(train_monitors)
    self._eval_hooks = list(eval_hooks or [])
    self._local_eval_frequency = local_eval_frequency
    self._eval_delay_secs = eval_delay_secs
    self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
    self._min_eval_frequency = 1 if min_eval_frequency is None else min_eval_frequency
    self._delay_workers_by_global_step = delay_workers_by_global_step
    self._train_steps_per_iteration = train_steps_per_iteration
    self._checkpoint_and_export = checkpoint_and_export
    self._saving_listeners = saving_listeners
    self._check_interval_secs = check_interval_secs
    self._export_strategies = ()
    self._set_export_strategies(export_strategies)
    # The server this task started: kept, so it serves as long as the process.
    self._server = None

  @property
  def estimator(self) -> Any:
    return self._estimator

  @property
  def eval_metrics(self) -> Optional[dict]:
    return self._eval_metrics

  @property
  def train_steps(self) -> Optional[int]:
    return self._train_steps

  @property
  def eval_steps(self) -> Optional[int]:
    return self._eval_steps

  def _set_export_strategies(self, values: Any) -> None:
    if isinstance(values, export_strategy_lib.ExportStrategy):
      values = [values]
    strategies = tuple(values or ())
    for strategy in strategies:
      if not isinstance(strategy, export_strategy_lib.ExportStrategy):
        raise ValueError("`export_strategies` must be an ExportStrategy, an "
                         f"iterable of ExportStrategy, or `None`, found {strategy}.")
    self._export_strategies = strategies

  def extend_train_hooks(self, additional_hooks: Sequence[Any]) -> None:
    """Adds SessionRunHooks to those training runs with."""
    self._train_monitors.extend(_hooks(additional_hooks))

  def reset_export_strategies(self, new_export_strategies: Any = None) -> tuple:
    """Replaces the export strategies.

    Args:
      new_export_strategies: an ExportStrategy, an iterable of them, or None.

    Returns:
      The export strategies it had.
    """
    old = self._export_strategies
    self._set_export_strategies(new_export_strategies)
    return old

  # -- schedules ---------------------------------------------------------------

  def train(self, delay_secs: Optional[float] = None) -> Any:
    """Trains to ``train_steps``, after this task's server and delay.

    Args:
      delay_secs: seconds to wait first; None: ``min(60, 5 * task_id)`` (or a
        global-step wait with ``delay_workers_by_global_step``).

    Returns:
      The trained estimator.

    Raises:
      ValueError: a cluster is configured with a RunConfig that is not
        tf.contrib.learn's (the Experiment cannot start its server).
    """
    start = time.time()
    # The server starts before the delay: the other tasks may need it.
    config = self._estimator.config
    if isinstance(config, run_config_lib.RunConfig):
      if (config.cluster_spec and config.master
          and config.environment == run_config_lib.Environment.LOCAL):
        _logging.warning("ClusterSpec and master are provided, but environment is "
                         "set to 'local'. Set environment to 'cloud' if you intend "
                         "to use the distributed runtime.")
      if (config.environment not in (run_config_lib.Environment.LOCAL,
                                     run_config_lib.Environment.GOOGLE)
          and config.cluster_spec and config.master):
        self._start_server()
    elif config.cluster_spec and config.master:
      raise ValueError(
          "For distributed runtime, Experiment class only works with "
          f"tf.contrib.learn.RunConfig for now, but provided {type(config)}.")
    extra_hooks = []
    if delay_secs is None:
      task_id = config.task_id or 0
      if self._delay_workers_by_global_step:
        extra_hooks.append(tf.compat.v1.train.GlobalStepWaiterHook(
            int(8000.0 * math.log(task_id + 1))))
        delay_secs = 0
      else:
        delay_secs = min(60, task_id * 5)
    if delay_secs > 0:
      _logging.info("Waiting %d secs before starting training.",
                    delay_secs - (time.time() - start))
      time.sleep(delay_secs)
    return self._call_train(max_steps=self._train_steps,
                            hooks=self._train_monitors + extra_hooks)

  def evaluate(self, delay_secs: Optional[float] = None,
               name: Optional[str] = None) -> dict:
    """One evaluation, after ``delay_secs`` (default ``eval_delay_secs``).

    Args:
      delay_secs: seconds to wait first.
      name: the evaluation's name (its summaries go to ``eval_<name>``);
        default ``one_pass``.

    Returns:
      The metrics ``Estimator.evaluate`` returns.
    """
    if delay_secs is None:
      delay_secs = self._eval_delay_secs
    if delay_secs:
      _logging.info("Waiting %d secs before starting eval.", delay_secs)
      time.sleep(delay_secs)
    return self._call_evaluate(self._eval_input_fn, self._eval_steps,
                               name=name or "one_pass",
                               hooks=self._eval_hooks)

  def local_run(self) -> Tuple[dict, list]:
    """``train_and_evaluate`` with ``local_eval_frequency`` (deprecated in TF1)."""
    with _restored(self, "_min_eval_frequency"):
      self._min_eval_frequency = self._local_eval_frequency
      return self.train_and_evaluate()

  def continuous_eval(self, delay_secs: Optional[float] = None,
                      throttle_delay_secs: Optional[float] = None,
                      evaluate_checkpoint_only_once: bool = True,
                      continuous_eval_predicate_fn: Optional[Callable[..., bool]] = None,
                      name: str = "continuous") -> None:
    """Evaluates each new checkpoint until training has reached ``train_steps``.

    Args:
      delay_secs: seconds to wait first (default ``eval_delay_secs``).
      throttle_delay_secs: at least this many seconds from one evaluation's
        start to the next (default ``continuous_eval_throttle_secs``).
      evaluate_checkpoint_only_once: skip a checkpoint already evaluated.
      continuous_eval_predicate_fn: ``(eval_results[, checkpoint_path]) ->
        bool``: go on while it returns True (it is first called with None).
      name: the evaluation's name (summaries in ``eval_<name>``).

    Raises:
      ValueError: ``continuous_eval_predicate_fn`` is not callable.
    """
    self._continuous_eval(self._eval_input_fn, name, delay_secs, throttle_delay_secs,
                          evaluate_checkpoint_only_once, continuous_eval_predicate_fn)

  def continuous_eval_on_train_data(
      self, delay_secs: Optional[float] = None,
      throttle_delay_secs: Optional[float] = None,
      continuous_eval_predicate_fn: Optional[Callable[..., bool]] = None,
      name: str = "continuous_on_train_data") -> None:
    """``continuous_eval`` on the training input, without exports."""
    self._continuous_eval(self._train_input_fn, name, delay_secs, throttle_delay_secs,
                          True, continuous_eval_predicate_fn, export=False)

  def train_and_evaluate(self) -> Tuple[dict, list]:
    """Trains, evaluating new checkpoints on the way, then evaluates and exports.

    While training, each new checkpoint is evaluated at most every
    ``min_eval_frequency`` steps and ``check_interval_secs`` (0: none while
    training); with ``checkpoint_and_export`` each checkpoint the RunConfig
    saves is evaluated and exported instead, and the last of those is the
    result. The master of a cluster runs this: it trains, writes the
    checkpoints and evaluates them.

    Returns:
      (the last evaluation's metrics, the export results).
    """
    config = self._estimator.config
    intermediate_export = self._checkpoint_and_export and (
        config.save_checkpoints_secs or config.save_checkpoints_steps)
    with _restored(self, "_train_monitors"):
      self._train_monitors = list(self._train_monitors)
      if intermediate_export:
        listener = checkpoint_evaluation.EvalAndExportListener(
            functools.partial(self._call_evaluate, self._eval_input_fn,
                              self._eval_steps, hooks=self._eval_hooks),
            self._maybe_export, self._estimator.model_dir)
        self._train_monitors.append(tf.compat.v1.train.CheckpointSaverHook(
            self._estimator.model_dir, save_secs=config.save_checkpoints_secs,
            save_steps=config.save_checkpoints_steps, listeners=[listener]))
      elif self._min_eval_frequency:
        self._train_monitors.append(checkpoint_evaluation.EvaluateNewCheckpointsHook(
            self._estimator,
            functools.partial(self._call_evaluate, self._eval_input_fn,
                              self._eval_steps, hooks=self._eval_hooks),
            self._min_eval_frequency, self._check_interval_secs))
      self.train(delay_secs=0)
    if intermediate_export:
      return listener.eval_result, listener.export_results
    # name=None: the summaries go to <model_dir>/eval.
    eval_result = self._call_evaluate(self._eval_input_fn, self._eval_steps,
                                      hooks=self._eval_hooks)
    return eval_result, self._maybe_export(eval_result)

  def continuous_train_and_eval(
      self, continuous_eval_predicate_fn: Optional[Callable[..., bool]] = None
  ) -> Tuple[Optional[dict], Optional[list]]:
    """Trains ``train_steps_per_iteration`` steps, evaluates and exports, in turns.

    For one machine. Stops when the global step reaches ``train_steps`` or
    the predicate returns False.

    Args:
      continuous_eval_predicate_fn: ``(eval_results[, checkpoint_path]) ->
        bool``: go on while it returns True (first called with None).

    Returns:
      (the last evaluation's metrics, the last export results).

    Raises:
      ValueError: ``continuous_eval_predicate_fn`` is not callable.
    """
    predicate_fn = _predicate(continuous_eval_predicate_fn)
    steps = 1000
    if self._train_steps_per_iteration is not None:
      steps = self._train_steps_per_iteration
    elif self._train_steps is not None:
      steps = int(self._train_steps / 10)
    eval_result = export_results = latest_checkpoint = None
    while not predicate_fn or predicate_fn(
        eval_result, checkpoint_path=latest_checkpoint if eval_result else None):
      if self._has_training_stopped(eval_result):
        _logging.info("Stop training model as max steps reached")
        break
      _logging.info("Training model for %s steps", steps)
      self._call_train(steps=steps, hooks=self._train_monitors)
      _logging.info("Evaluating model now.")
      latest_checkpoint = tf.train.latest_checkpoint(self._estimator.model_dir)
      eval_result = self._call_evaluate(self._eval_input_fn, self._eval_steps,
                                        name="one_pass",
                                        checkpoint_path=latest_checkpoint,
                                        hooks=self._eval_hooks)
      export_results = self._maybe_export(eval_result)
    return eval_result, export_results

  def run_std_server(self) -> None:
    """Starts this task's server and joins it (a ps task's schedule).

    A ps task of the cluster ends once every worker has come and gone, with
    exit status 0 (``slim_ext.cluster.join``); any other task serves forever,
    as in TF1.

    Raises:
      ValueError: the RunConfig names no cluster, task or master.
    """
    from slim_ext import cluster  # pylint: disable=g-import-not-at-top
    cluster.join(self._start_server())

  def test(self) -> dict:
    """Trains one step, evaluates one step and exports.

    Returns:
      The evaluation's metrics.
    """
    self._call_train(steps=1, hooks=self._train_monitors)
    eval_result = self._call_evaluate(self._eval_input_fn, 1, name="one_pass")
    self._maybe_export(eval_result)
    return eval_result

  # -- the pieces --------------------------------------------------------------

  def _continuous_eval(self, input_fn: Callable[..., Any], name: str,
                       delay_secs: Optional[float],
                       throttle_delay_secs: Optional[float],
                       evaluate_checkpoint_only_once: bool = True,
                       continuous_eval_predicate_fn: Optional[Callable[..., bool]] = None,
                       export: bool = True) -> None:
    predicate_fn = _predicate(continuous_eval_predicate_fn)
    if delay_secs is None:
      delay_secs = self._eval_delay_secs
    if throttle_delay_secs is None:
      throttle_delay_secs = self._continuous_eval_throttle_secs
    if delay_secs:
      _logging.info("Waiting %f secs before starting eval.", delay_secs)
      time.sleep(delay_secs)
    previous_path = None
    eval_result = None
    last_warning_time = 0
    while not predicate_fn or predicate_fn(eval_result, checkpoint_path=previous_path):
      if self._has_training_stopped(eval_result):
        _logging.info("Exiting continuous eval, global_step=%s >= train_step=%s",
                      eval_result[_GLOBAL_STEP], self._train_steps)
        return
      start = time.time()
      latest_path = tf.train.latest_checkpoint(self._estimator.model_dir)
      waiting = None
      if not latest_path:
        waiting = ("Estimator is not fitted yet. "
                   "Will start an evaluation when a checkpoint is ready.")
      elif evaluate_checkpoint_only_once and latest_path == previous_path:
        waiting = "No new checkpoint ready for evaluation."
      if waiting:
        eval_result = {}
        if time.time() - last_warning_time > _WARNING_EVERY_SECS:
          _logging.warning(waiting)
          last_warning_time = time.time()
      else:
        eval_result = self._call_evaluate(input_fn, self._eval_steps, name=name,
                                          checkpoint_path=latest_path,
                                          hooks=self._eval_hooks) or {}
        if export:
          self._maybe_export(eval_result, checkpoint_path=latest_path)
        last_warning_time = 0
        previous_path = latest_path
      duration = time.time() - start
      if duration < throttle_delay_secs:
        _logging.info("Waiting %f secs before starting next eval run.",
                      throttle_delay_secs - duration)
        time.sleep(throttle_delay_secs - duration)

  def _has_training_stopped(self, eval_result: Optional[dict]) -> bool:
    if not eval_result:
      return False
    global_step = eval_result.get(_GLOBAL_STEP)
    return bool(global_step and self._train_steps
                and global_step >= self._train_steps)

  def _maybe_export(self, eval_result: Optional[dict],
                    checkpoint_path: Optional[str] = None) -> list:
    """Exports with each export strategy, under ``<model_dir>/export/<name>``."""
    export_dir_base = os.path.join(tf.compat.as_bytes(self._estimator.model_dir),
                                   b"export")
    return [strategy.export(self._estimator,
                            os.path.join(export_dir_base,
                                         tf.compat.as_bytes(strategy.name)),
                            checkpoint_path=checkpoint_path, eval_result=eval_result)
            for strategy in self._export_strategies]

  def _start_server(self) -> tf.distribute.Server:
    """Starts this task's server, from the estimator's RunConfig."""
    config = self._estimator.config
    if (not config.cluster_spec or not config.task_type or not config.master
        or config.task_id is None):
      raise ValueError("Could not start server; be sure to specify cluster_spec, "
                       "task_type, master, and task in RunConfig or set the "
                       "TF_CONFIG environment variable.")
    self._server = tf.distribute.Server(
        config.cluster_spec, job_name=config.task_type, task_index=config.task_id,
        config=config.tf_config, start=True)
    return self._server

  def _call_train(self, steps: Optional[int] = None, max_steps: Optional[int] = None,
                  hooks: Optional[List[Any]] = None) -> Any:
    return self._estimator.train(input_fn=self._train_input_fn, steps=steps,
                                 max_steps=max_steps, hooks=hooks,
                                 saving_listeners=self._saving_listeners)

  def _call_evaluate(self, input_fn: Callable[..., Any], steps: Optional[int],
                     name: Optional[str] = None,
                     checkpoint_path: Optional[str] = None,
                     hooks: Optional[List[Any]] = None) -> dict:
    return self._estimator.evaluate(input_fn=input_fn, steps=steps, name=name,
                                    checkpoint_path=checkpoint_path, hooks=hooks)
