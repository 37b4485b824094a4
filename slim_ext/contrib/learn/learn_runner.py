"""``tf.contrib.learn.learn_runner`` (TF 1.15): builds an Experiment and runs this task's part.

``run(experiment_fn, run_config=config, hparams=hparams)`` calls
``experiment_fn(run_config, hparams)``, checks that the Estimator it built uses
that RunConfig (their ``uid()`` agree, so a RunConfig subclass that overrides
``uid`` keeps working), and calls the Experiment's schedule. Without a
``schedule``, the task type of the RunConfig (tf.contrib.learn's, which reads
the platform's ``TF_CONFIG``, ``master`` included) picks it, as TF 1.15 did:

| the job | schedule |
|---|---|
| one task (no cluster, or a cluster of one task) | ``train_and_evaluate`` |
| ``master`` | ``train_and_evaluate`` |
| ``worker`` | ``train`` |
| ``ps`` | ``run_std_server`` (here it ends once the workers are done) |
| any other task type (``chief``, ``evaluator``) | ValueError: pass ``schedule`` |

The deprecated form ``run(experiment_fn, output_dir=...)`` calls
``experiment_fn(output_dir=...)``. ``tune`` runs an Experiment per trial of a
tuner.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import tensorflow as tf

from slim_ext.contrib.learn import run_config as run_config_lib
from slim_ext.contrib.learn.experiment import Experiment
from slim_ext.hparams import HParams

_logging = tf.compat.v1.logging

# The schedule of each task type of a cluster (tf.contrib.learn's TaskType).
DEFAULT_SCHEDULES = {
    run_config_lib.TaskType.MASTER: "train_and_evaluate",
    run_config_lib.TaskType.PS: "run_std_server",
    run_config_lib.TaskType.WORKER: "train",
}
LOCAL_SCHEDULE = "train_and_evaluate"


def _schedules(experiment: Experiment) -> list:
  return [name for name in dir(experiment)
          if not name.startswith("_") and callable(getattr(experiment, name))]


def _execute_schedule(experiment: Experiment, schedule: str) -> Any:
  """Calls the Experiment's method named ``schedule``."""
  if not hasattr(experiment, schedule):
    _logging.error("Schedule references non-existent task %s", schedule)
    _logging.error("Allowed values for this experiment are: %s", _schedules(experiment))
    raise ValueError(f"Schedule references non-existent task {schedule}")
  task = getattr(experiment, schedule)
  if not callable(task):
    _logging.error("Schedule references non-callable member %s", schedule)
    _logging.error("Allowed values for this experiment are: %s", _schedules(experiment))
    raise TypeError(f"Schedule references non-callable member {schedule}")
  return task()


def _checked_experiment_fn(experiment_fn: Callable[..., Experiment],
                           require_hparams: bool = False
                           ) -> Callable[[Any, Optional[HParams]], Experiment]:
  """``experiment_fn``, checking that its Estimator uses the RunConfig it was given.

  Args:
    experiment_fn: ``(run_config, hparams) -> Experiment``.
    require_hparams: refuse ``hparams=None``.

  Returns:
    A function of the same arguments that returns the Experiment.
  """

  def checked(run_config: Any, hparams: Optional[HParams]) -> Experiment:
    if not isinstance(run_config, run_config_lib.RunConfig):
      raise ValueError("`run_config` must be `tf.contrib.learn.RunConfig` instance")
    if not run_config.model_dir:
      raise ValueError("Must specify a model directory `model_dir` in `run_config`.")
    if hparams is not None and not isinstance(hparams, HParams):
      raise ValueError("`hparams` must be `HParams` instance")
    if require_hparams and hparams is None:
      raise ValueError("`hparams` cannot be `None`.")
    expected_uid = run_config.uid()
    experiment = experiment_fn(run_config, hparams)
    if not isinstance(experiment, Experiment):
      raise TypeError("Experiment builder did not return an Experiment instance, "
                      f"got {type(experiment)} instead.")
    config = experiment.estimator.config
    if not hasattr(config, "uid"):
      raise RuntimeError(
          "Pass `run_config` argument of the `experiment_fn` to the Estimator in "
          "Experiment. It is likely a different `RunConfig` is passed to "
          "`Estimator` or the `config` constructor argument in `Estimator` is "
          "not set.")
    if config.uid() != expected_uid:
      raise RuntimeError(
          "`RunConfig` instance is expected to be used by the `Estimator` inside "
          f"the `Experiment`. expected {expected_uid}, but got {config.uid()}")
    return experiment

  return checked


def _is_distributed(config: Any) -> bool:
  """Whether the cluster has more than one task."""
  cluster_spec = config.cluster_spec
  if not cluster_spec:
    return False
  return sum(len(cluster_spec.job_tasks(job)) for job in cluster_spec.jobs) > 1


def default_schedule(config: Any) -> str:
  """The schedule TF 1.15's learn_runner ran for this RunConfig's task.

  Args:
    config: a RunConfig (tf.contrib.learn's or tf.estimator's), or None.

  Returns:
    ``train_and_evaluate``, ``train`` or ``run_std_server``.

  Raises:
    ValueError: a cluster without a task type, or a task type with no default.
  """
  if not config or not _is_distributed(config):
    return LOCAL_SCHEDULE
  if not config.task_type:
    raise ValueError("Must specify a schedule")
  if config.task_type not in DEFAULT_SCHEDULES:
    raise ValueError(
        f"No default schedule for task type: {config.task_type} (tf.contrib.learn's "
        f"learn_runner has one for {', '.join(sorted(DEFAULT_SCHEDULES))} only); "
        "pass learn_runner.run(..., schedule=...) for this task, e.g. "
        "'continuous_eval' for an evaluator")
  return DEFAULT_SCHEDULES[config.task_type]


def run(experiment_fn: Callable[..., Experiment], output_dir: Optional[str] = None,
        schedule: Optional[str] = None, run_config: Any = None,
        hparams: Optional[HParams] = None) -> Any:
  """Builds the Experiment and runs its ``schedule`` (by default, this task's).

  Args:
    experiment_fn: ``(run_config, hparams) -> Experiment``, whose Estimator is
      built with that ``run_config``; or, deprecated, ``(output_dir) ->
      Experiment``.
    output_dir: for the deprecated form only.
    schedule: the Experiment method to run; None: this task's default (see
      the module docstring).
    run_config: a tf.contrib.learn RunConfig with a ``model_dir`` (not with
      ``output_dir``).
    hparams: HParams handed to ``experiment_fn`` (only with ``run_config``).

  Returns:
    What the schedule returns.

  Raises:
    ValueError: ``output_dir`` and ``run_config`` both or neither given, a bad
      RunConfig or HParams, no default schedule for this task, or an unknown
      schedule.
    TypeError: ``experiment_fn`` or the schedule is not callable, or
      ``experiment_fn`` did not return an Experiment.
    RuntimeError: the Estimator does not use ``run_config``.
  """
  if output_dir is not None and run_config is not None:
    raise ValueError("Cannot provide both `output_dir` and `run_config`")
  if output_dir is None and run_config is None:
    raise ValueError("Must set value for `output_dir` or `run_config`")
  if not callable(experiment_fn):
    raise TypeError(f'Experiment builder "{experiment_fn}" is not callable.')
  if run_config is not None:
    experiment = _checked_experiment_fn(experiment_fn)(run_config, hparams)
  else:
    if not output_dir:
      raise ValueError("Must specify an output directory")
    if hparams is not None:
      raise ValueError(
          "Must set `hparams` as None for `experiment_fn` with `output_dir`.")
    experiment = experiment_fn(output_dir=output_dir)
    if not isinstance(experiment, Experiment):
      raise TypeError("Experiment builder did not return an Experiment instance, "
                      f"got {type(experiment)} instead.")
  config = run_config or experiment.estimator.config
  return _execute_schedule(experiment, schedule or default_schedule(config))


def tune(experiment_fn: Callable[..., Experiment], tuner: Any) -> None:
  """Runs an Experiment per trial: ``tuner.run_experiment`` while ``tuner.next_trial()``.

  Args:
    experiment_fn: ``(run_config, hparams) -> Experiment``; hparams required.
    tuner: an object with ``next_trial()`` and ``run_experiment(experiment_fn)``
      (tf.contrib.learn's Tuner interface).
  """
  while tuner.next_trial():
    tuner.run_experiment(_checked_experiment_fn(experiment_fn, require_hparams=True))
