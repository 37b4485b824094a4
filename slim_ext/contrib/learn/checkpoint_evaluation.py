"""Evaluating an Experiment's new checkpoints while it trains.

``Experiment.train_and_evaluate`` evaluates as training goes: each new
checkpoint, looked for every ``min_eval_frequency`` steps
(``EvaluateNewCheckpointsHook``, what tf.contrib.learn's ValidationMonitor
did), or each checkpoint right after it is saved, then exported
(``EvalAndExportListener``, for ``checkpoint_and_export``).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Optional

import tensorflow as tf

_logging = tf.compat.v1.logging


class EvaluateNewCheckpointsHook(tf.compat.v1.train.SessionRunHook):
  """Evaluates each new checkpoint while training (tf.contrib.learn's ValidationMonitor).

  Looked at on the first step, then every ``every_n_steps`` steps and once
  more at the end, but not more often than every ``check_interval_secs``: if
  the newest checkpoint is one it has not evaluated, it evaluates it with
  ``evaluate_fn`` and logs the metrics.
  """

  def __init__(self, estimator: Any, evaluate_fn: Callable[[], dict],
               every_n_steps: int, check_interval_secs: Optional[float]) -> None:
    self._estimator = estimator
    self._evaluate_fn = evaluate_fn
    self._every_n_steps = every_n_steps
    self._check_interval_secs = check_interval_secs
    self._last_check_time = None
    self._evaluated_path = None
    self._global_step = None
    self._last_looked_step = 0
    self._last_step = None

  def begin(self) -> None:
    self._global_step = tf.compat.v1.train.get_global_step()

  def before_run(self, run_context: Any) -> Any:
    return tf.compat.v1.train.SessionRunArgs(self._global_step)

  def after_run(self, run_context: Any, run_values: Any) -> None:
    # The step just run, numbered as the monitors numbered it (1 = the first).
    step = run_values.results
    self._last_step = step
    if step <= 1 or step >= self._last_looked_step + self._every_n_steps:
      self._last_looked_step = step
      self._evaluate_if_new(step)

  def end(self, session: Any) -> None:
    # Also when the last step was looked at: the step it read is fetched beside the
    # train op (the value before or after its increment, as the ops happen to run),
    # so that look may have come before the last checkpoint was saved.
    if self._last_step is not None:
      self._evaluate_if_new(self._last_step)

  def _evaluate_if_new(self, step: int) -> None:
    now = time.time()
    if (self._check_interval_secs is not None and self._last_check_time is not None
        and now - self._last_check_time <= self._check_interval_secs):
      return
    self._last_check_time = now
    latest_path = tf.train.latest_checkpoint(self._estimator.model_dir)
    if latest_path is None or latest_path == self._evaluated_path:
      return
    self._evaluated_path = latest_path
    results = self._evaluate_fn()
    _logging.info("Validation (step %d): %s", step, ", ".join(
        f"{name} = {value}" for name, value in results.items()))


class EvalAndExportListener(tf.compat.v1.train.CheckpointSaverListener):
  """After each checkpoint is saved, evaluates and exports it (``checkpoint_and_export``)."""

  def __init__(self, eval_fn: Callable[..., dict], export_fn: Callable[..., list],
               model_dir: str) -> None:
    self._eval_fn = eval_fn
    self._export_fn = export_fn
    self._model_dir = model_dir
    self._latest_path = None
    self.eval_result = None
    self.export_results = None

  def after_save(self, session: Any, global_step_value: int) -> None:
    _logging.info("Checking for checkpoint in %s", self._model_dir)
    latest_path = tf.train.latest_checkpoint(self._model_dir)
    if not latest_path:
      _logging.warning("Skipping evaluation and export since model has not been "
                       "saved yet.")
    elif latest_path == self._latest_path:
      _logging.warning("Skipping evaluation due to same latest checkpoint %s.",
                       latest_path)
    else:
      self._latest_path = latest_path
      self.eval_result = self._eval_fn(name="intermediate_export",
                                       checkpoint_path=latest_path)
      self.export_results = self._export_fn(self.eval_result,
                                            checkpoint_path=latest_path)
