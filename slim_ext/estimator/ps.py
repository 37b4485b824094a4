"""An Estimator job's ps task that ends: it serves until its workers have come and gone.

In TF1 and TF2 alike an Estimator ps task joins its server forever:
``train_and_evaluate`` calls ``server.join()`` on a ps (``_TrainingExecutor.run_ps``,
or the distribute coordinator for ParameterServerStrategy). A platform then has
to kill the ps, and the job never reports success. Around ``train_and_evaluate``
the server class's ``join`` is slim_ext.cluster's ``join``: a ps task's join
ends once every worker of the cluster has been up and all are down, and the
process exits with status 0 (as before, nothing after the join runs on a ps).
Joining any other task's server blocks as it always did. TF1-era trainers that
start their own ``tf.train.Server`` get the same ending from
``slim_ext.cluster.Server``.
"""
from __future__ import annotations

import contextlib
from typing import Iterator


@contextlib.contextmanager
def ps_joins_end() -> Iterator[None]:
  """Within the block, ``Server.join`` is ``slim_ext.cluster.join``.

  Estimator starts and joins its ps server deep inside ``train_and_evaluate``
  (its own executor, or the distribute coordinator); the class's ``join`` is
  swapped only around that call.
  """
  # Loaded here, not at import: slim_ext.estimator must not load TensorFlow.
  from slim_ext import cluster  # pylint: disable=g-import-not-at-top
  from tensorflow.python.training import server_lib  # pylint: disable=g-import-not-at-top
  own_join = server_lib.Server.join
  server_lib.Server.join = cluster.join
  try:
    yield
  finally:
    server_lib.Server.join = own_join
