"""NumPy 1's conversions of one-element arrays, for ported TF1-era code.

NumPy 1.x converted an array of one element, of any number of dimensions, to a Python
scalar: ``int(np.array([3.0]))`` was 3 (deprecated in 1.25). NumPy 2 converts only
0-dimensional arrays and raises ``TypeError: only 0-dimensional arrays can be converted
to Python scalars`` for the rest. ``slimport rewrite`` sends ``int(...)`` and
``float(...)`` of expressions that index a NumPy array (``int(2 * labels[i] + 1)`` with
``labels`` of shape (16, 1)) here.

NumPy 1.x also made an array of a ragged nested list (``[[a, b], [c]]``, arrays of
different lengths): an object array of the lists' regular outer shape (deprecated in
1.20); NumPy 1.24 refuses it (``ValueError: setting an array element with a sequence.
The requested array has an inhomogeneous shape``). ``np.size``, ``np.shape`` and
``np.ndim`` of a nested list made that array, so TF1-era code that asked whether a list
of ragged controls was empty (magenta 1.1.7's ``if np.size(control):``) fails now; the
rewrite sends those calls to ``size``, ``shape`` and ``ndim`` here.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Tuple, TypeVar

import numpy as np


def _scalar_array(value: Any) -> Any:
  """A one-element array as a 0-dimensional one; anything else as it is."""
  if isinstance(value, np.ndarray) and value.ndim > 0 and value.size == 1:
    return value.reshape(())
  return value


def to_int(value: Any) -> int:
  """``int(value)`` as NumPy 1 computed it: a one-element array gives its element.

  Args:
    value: what ``int()`` is given.

  Returns:
    The int; arrays of another size raise ``TypeError`` as they did.
  """
  return int(_scalar_array(value))


def to_float(value: Any) -> float:
  """``float(value)`` as NumPy 1 computed it: a one-element array gives its element.

  Args:
    value: what ``float()`` is given.

  Returns:
    The float; arrays of another size raise ``TypeError`` as they did.
  """
  return float(_scalar_array(value))


_Result = TypeVar("_Result")


def _as_numpy_1(function: Callable[..., _Result], a: Any, *args: Any) -> _Result:
  """``function(a, *args)``; a ragged nested sequence, which NumPy >= 1.24 makes no
  array of, as the object array NumPy 1 made of it (``dtype=object``, which gives a
  regular sequence its shape as well, and still refuses what NumPy 1 refused)."""
  try:
    return function(a, *args)
  except ValueError:
    if isinstance(a, np.ndarray):
      raise
    return function(np.array(a, dtype=object), *args)


def size(a: Any, axis: Optional[int] = None) -> int:
  """``np.size(a, axis)`` as NumPy 1 computed it: a ragged nested list counts as
  the object array NumPy 1 made of it.

  Args:
    a: an array, or what NumPy makes one of (NumPy's name for it).
    axis: the axis whose length to give; None for the number of elements.

  Returns:
    The size (``np.size([[x, y], [z]])`` is 2, as in NumPy 1.16).

  Raises:
    IndexError: ``axis`` is out of range (NumPy 2's AxisError, an IndexError).
    ValueError: NumPy 1 refused the value too (arrays whose first dimensions agree and
      later ones do not).
  """
  return _as_numpy_1(np.size, a, axis)


def shape(a: Any) -> Tuple[int, ...]:
  """``np.shape(a)`` as NumPy 1 computed it (a ragged nested list: its regular outer
  shape).

  Args:
    a: an array, or what NumPy makes one of (NumPy's name for it).

  Returns:
    The shape (``np.shape([[1, 2], [3]])`` is (2,), as in NumPy 1.16).

  Raises:
    ValueError: NumPy 1 refused the value too.
  """
  return _as_numpy_1(np.shape, a)


def ndim(a: Any) -> int:
  """``np.ndim(a)`` as NumPy 1 computed it (a ragged nested list: the number of its
  regular outer dimensions).

  Args:
    a: an array, or what NumPy makes one of (NumPy's name for it).

  Returns:
    The number of dimensions (``np.ndim([[1, 2], [3]])`` is 1, as in NumPy 1.16).

  Raises:
    ValueError: NumPy 1 refused the value too.
  """
  return _as_numpy_1(np.ndim, a)
