"""Session defaults for the Supervisors `tf_slim.learning.train` creates.

`tf_slim.learning.train` builds a `tf.compat.v1.train.Supervisor` without a
`recovery_wait_secs` argument and opens its session with the caller's
`session_config` (None in research/slim's scripts). Two things follow on an
asynchronous ps/worker cluster:

* A session with no `device_filters` waits until every task of the cluster
  answers. A worker whose chief has already trained to the target and exited
  then waits forever, and so does a chief whose other workers have not
  started. `set_device_filters(filters)` gives the sessions these
  Supervisors open the filters of this task (`cluster.bootstrap` sets the ps
  tasks and the worker itself), unless the caller's `session_config` has
  filters of its own.
* A non-chief worker checks every 30 s (Supervisor's default) whether the
  chief has initialised the model. 30 s stays the default: a short job still
  ends correctly, a late worker just waits its poll out.
  `set_recovery_wait_secs(seconds)` (or SLIM_EXT_RECOVERY_WAIT_SECS through
  `apply_env()`) changes it; the tests use 1 s.

Both apply only to the Supervisors `tf_slim.learning` creates: the
`supervisor` module name inside `tf_slim.learning` is pointed at a view of
TensorFlow's module whose `Supervisor` fills them in. TensorFlow's own module
and tf_slim's source stay unchanged; an explicit `recovery_wait_secs=` still
wins.
"""
from __future__ import annotations

import os
import types
from typing import List, Optional, Sequence

from tensorflow.python.training import supervisor as tf_supervisor
import tensorflow.compat.v1 as tf
from tf_slim import learning

ENV_VAR = "SLIM_EXT_RECOVERY_WAIT_SECS"

# Supervisor's own default, used until set_recovery_wait_secs is called.
DEFAULT_RECOVERY_WAIT_SECS = 30.0

_recovery_wait_secs = DEFAULT_RECOVERY_WAIT_SECS
_device_filters: List[str] = []


def _with_device_filters(
    config: Optional[tf.ConfigProto]) -> Optional[tf.ConfigProto]:
  """`config` with slim_ext's device filters, unless it has filters itself."""
  if not _device_filters or (config is not None and config.device_filters):
    return config
  filtered = tf.ConfigProto()
  if config is not None:
    filtered.CopyFrom(config)
  filtered.device_filters.extend(_device_filters)
  return filtered


class _Supervisor(tf_supervisor.Supervisor):
  """tf.compat.v1.train.Supervisor with slim_ext's session defaults."""

  def __init__(self, *args, **kwargs):
    kwargs.setdefault("recovery_wait_secs", _recovery_wait_secs)
    super().__init__(*args, **kwargs)

  def prepare_or_wait_for_session(self, master="", config=None,
                                  wait_for_checkpoint=False,
                                  max_wait_secs=7200,
                                  start_standard_services=True):
    # managed_session, which learning.train uses, opens its session here.
    return super().prepare_or_wait_for_session(
        master=master, config=_with_device_filters(config),
        wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
        start_standard_services=start_standard_services)


class _SupervisorModuleView(types.ModuleType):
  """TensorFlow's supervisor module, except that `Supervisor` is `_Supervisor`."""

  def __init__(self, wrapped: types.ModuleType):
    super().__init__(wrapped.__name__, wrapped.__doc__)
    self._wrapped = wrapped
    self.Supervisor = _Supervisor

  def __getattr__(self, name: str):
    return getattr(self._wrapped, name)


def _install() -> None:
  """Points tf_slim.learning at the view (once)."""
  if not isinstance(learning.supervisor, _SupervisorModuleView):
    learning.supervisor = _SupervisorModuleView(learning.supervisor)


def recovery_wait_secs() -> float:
  """Returns the poll interval `tf_slim.learning.train` Supervisors get."""
  return _recovery_wait_secs


def set_recovery_wait_secs(seconds: float) -> None:
  """Makes `tf_slim.learning.train`'s non-chief workers poll every `seconds`.

  Applies to every `learning.train` call after this one; calling it again only
  changes the interval.

  Args:
    seconds: Time a non-chief worker waits between checks that the chief has
      initialised the variables (Supervisor's `recovery_wait_secs`).

  Raises:
    ValueError: If `seconds` is not a positive number.
  """
  global _recovery_wait_secs
  seconds = float(seconds)
  if not seconds > 0:
    raise ValueError(f"recovery_wait_secs must be > 0 seconds, got {seconds}")
  _recovery_wait_secs = seconds
  _install()


def device_filters() -> List[str]:
  """Returns the device filters `tf_slim.learning.train` sessions get."""
  return list(_device_filters)


def set_device_filters(filters: Sequence[str]) -> None:
  """Gives `tf_slim.learning.train`'s sessions these device filters.

  A session whose `session_config` has device filters of its own keeps them;
  other options of a given `session_config` are kept.

  Args:
    filters: Device name prefixes, e.g. ["/job:ps", "/job:worker/task:1"];
      empty to stop adding filters.
  """
  global _device_filters
  _device_filters = list(filters)
  _install()


def apply_env() -> float | None:
  """Applies env var SLIM_EXT_RECOVERY_WAIT_SECS when it is set and not empty.

  Returns:
    The interval applied, or None when the variable is unset.

  Raises:
    ValueError: If the variable is not a positive number; the message names
      the variable and its value.
  """
  text = os.environ.get(ENV_VAR, "").strip()
  if not text:
    return None
  try:
    seconds = float(text)
    set_recovery_wait_secs(seconds)
  except ValueError:
    raise ValueError(
        f"{ENV_VAR}={text!r}: expected a positive number of seconds,"
        f" e.g. {ENV_VAR}=1"
    ) from None
  return seconds
