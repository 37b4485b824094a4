"""``tf.estimator.train_and_evaluate`` with a ps task that ends."""
from __future__ import annotations

from typing import Any

from slim_ext import cluster_config
from slim_ext.estimator import ps


def train_and_evaluate(estimator: Any, train_spec: Any, eval_spec: Any) -> Any:
  """``tf.estimator.train_and_evaluate``; on a ps task, the ps ends with its workers.

  Everything is tensorflow-estimator's own: the roles read from TF_CONFIG
  (``master``, ``chief``, ``worker``, ``ps``, ``evaluator``), the distribute
  coordinator for ``RunConfig(train_distribute=...)``, the servers. The one
  difference is on a ps task, whose server Estimator joins forever: there the
  join returns once every worker has come and gone, and the process exits
  with status 0 (``slim_ext.estimator.ps.join``).

  Args:
    estimator: a ``tf.estimator.Estimator``.
    train_spec: a ``tf.estimator.TrainSpec``.
    eval_spec: a ``tf.estimator.EvalSpec``.

  Returns:
    What ``tf.estimator.train_and_evaluate`` returns: on the chief (or a
    local job) the last evaluation's metrics and export results, else None.
  """
  from tensorflow_estimator.python.estimator import training  # pylint: disable=g-import-not-at-top
  task = cluster_config.ClusterConfig.from_env()
  if task is None or task.task_type != cluster_config.PS:
    return training.train_and_evaluate(estimator, train_spec, eval_spec)
  with ps.ps_joins_end():
    return training.train_and_evaluate(estimator, train_spec, eval_spec)
