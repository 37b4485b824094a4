"""An Estimator job's ps task that ends: it serves until its workers have come and gone.

In TF1 and TF2 alike an Estimator ps task joins its server forever:
``train_and_evaluate`` calls ``server.join()`` on a ps (``_TrainingExecutor.run_ps``,
or the distribute coordinator for ParameterServerStrategy), and TF1-era trainers
that start their own ``tf.train.Server`` call ``server.join()`` themselves. A
platform then has to kill the ps, and the job never reports success. Here a ps
task's join returns once every worker of the cluster has been up and all are
down (slim_ext.cluster's ``serve_until_workers_exit``, the ps ending of slim's
bootstrap), and the process exits with status 0: as before, nothing after the
join runs on a ps. Joining any other task's server blocks as it always did.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

_PS = "ps"


def _cluster_of(server: Any):
  """slim_ext's ClusterConfig of the cluster and task a started server serves."""
  from slim_ext import cluster  # pylint: disable=g-import-not-at-top
  server_def = server.server_def
  jobs = {job.name: [job.tasks[index] for index in sorted(job.tasks)]
          for job in server_def.cluster.job}
  return cluster.parse_tf_config(
      {"cluster": jobs,
       "task": {"type": server_def.job_name, "index": server_def.task_index}},
      source="the server's ServerDef")


def join(server: Any) -> None:
  """``server.join()``, except that a ps task's join ends with its workers.

  Args:
    server: a started ``tf.distribute.Server`` (``tf.train.Server``).

  Returns:
    Never on a ps task: once every worker of the cluster has been up and all
    have been down for a moment (or on SIGTERM/SIGINT), the process exits
    with status 0. Any other task's server is joined as before.
  """
  if server.server_def.job_name != _PS:
    _join_forever(server)
    return
  from slim_ext import cluster  # pylint: disable=g-import-not-at-top
  config = _cluster_of(server)
  why = cluster.serve_until_workers_exit(config)
  cluster._exit_process(  # pylint: disable=protected-access
      f"estimator ps {config.task_index} stops: {why}.")


def _server_class() -> type:
  from tensorflow.python.training import server_lib  # pylint: disable=g-import-not-at-top
  return server_lib.Server


_join_forever = _server_class().join


@contextlib.contextmanager
def ps_joins_end() -> Iterator[None]:
  """Within the block, ``Server.join`` on a ps server is ``join`` above.

  Estimator starts and joins its ps server deep inside ``train_and_evaluate``
  (its own executor, or the distribute coordinator); the class's ``join`` is
  swapped only around that call, and only in a ps process, where nothing else
  runs.
  """
  server_class = _server_class()
  server_class.join = join
  try:
    yield
  finally:
    server_class.join = _join_forever
