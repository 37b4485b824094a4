"""Stand-ins for what TensorFlow 2 removed with no replacement: they import fine and
raise ``RemovedInTF2Error`` when called, naming the feature and what to use instead.

A leaf module (it imports nothing of slim_ext): ``slim_ext.contrib`` and
``slim_ext.hparams`` both build on it.
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn, Type


class RemovedInTF2Error(NotImplementedError):
  """A tf.contrib feature the ported code called has no TensorFlow 2 equivalent."""


def _message(feature: str, alternative: str) -> str:
  return (
      f"{feature} is gone from TensorFlow 2 and has no replacement there; "
      f"use {alternative} instead (slimport rewrote the call to this stand-in)."
  )


def removed_function(feature: str, alternative: str) -> Callable[..., NoReturn]:
  """A function that raises RemovedInTF2Error naming ``feature`` and ``alternative``."""
  def stand_in(*args: Any, **kwargs: Any) -> NoReturn:
    raise RemovedInTF2Error(_message(feature, alternative))

  stand_in.__name__ = feature.rsplit(".", 1)[-1]
  stand_in.__doc__ = f"Stand-in for {feature}.\n\nRaises:\n  RemovedInTF2Error: always.\n"
  return stand_in


def removed_class(feature: str, alternative: str) -> Type[Any]:
  """A class whose constructor raises RemovedInTF2Error (isinstance checks still work)."""
  def __init__(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise RemovedInTF2Error(_message(feature, alternative))

  doc = f"Stand-in for {feature}: instantiating it raises RemovedInTF2Error."
  return type(feature.rsplit(".", 1)[-1], (), {"__init__": __init__, "__doc__": doc})
