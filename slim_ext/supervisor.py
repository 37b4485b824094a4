"""Lets callers set how often `tf_slim.learning.train`'s non-chief workers poll.

`tf_slim.learning.train` builds a `tf.compat.v1.train.Supervisor` without a
`recovery_wait_secs` argument, so a non-chief worker waits 30 s (Supervisor's
default) between checks that the chief has initialised the model. A short
distributed run can then finish on the chief before another worker starts.

`set_recovery_wait_secs(seconds)` changes that default for the Supervisors
`tf_slim.learning` creates, and only for those: it points the `supervisor`
module name inside `tf_slim.learning` at a view of TensorFlow's module whose
`Supervisor` fills in `recovery_wait_secs`. TensorFlow's own module and tf_slim's
source stay unchanged; an explicit `recovery_wait_secs=` still wins.
"""
from __future__ import annotations

import os
import types

from tensorflow.python.training import supervisor as tf_supervisor
from tf_slim import learning

ENV_VAR = "SLIM_EXT_RECOVERY_WAIT_SECS"

# Supervisor's own default, used until set_recovery_wait_secs is called.
DEFAULT_RECOVERY_WAIT_SECS = 30.0

_recovery_wait_secs = DEFAULT_RECOVERY_WAIT_SECS


class _Supervisor(tf_supervisor.Supervisor):
  """tf.compat.v1.train.Supervisor with slim_ext's recovery_wait_secs."""

  def __init__(self, *args, **kwargs):
    kwargs.setdefault("recovery_wait_secs", _recovery_wait_secs)
    super().__init__(*args, **kwargs)


class _SupervisorModuleView(types.ModuleType):
  """TensorFlow's supervisor module, except that `Supervisor` is `_Supervisor`."""

  def __init__(self, wrapped: types.ModuleType):
    super().__init__(wrapped.__name__, wrapped.__doc__)
    self._wrapped = wrapped
    self.Supervisor = _Supervisor

  def __getattr__(self, name: str):
    return getattr(self._wrapped, name)


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
  if not isinstance(learning.supervisor, _SupervisorModuleView):
    learning.supervisor = _SupervisorModuleView(learning.supervisor)


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
