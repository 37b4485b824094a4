"""Python 2's meaning of ``/`` and of ordering, for ported Python 2 code.

``slimport rewrite`` sends here what Python 3 computes differently and no spelling of
Python 3 computes the same for every value the code may see: ``a / b`` in a Python 2
module without ``from __future__ import division`` (``div``, ``idiv``), and sorting,
``min``/``max`` of lists that can hold ``None`` beside other values (``sort_key``).
Each does what Python 2.7 (with NumPy and TensorFlow 1.x on it) did.
"""
from __future__ import annotations

import numbers
import operator
import sys
from typing import Any, Tuple

import numpy as np


def _is_tensor(value: Any) -> bool:
  tensorflow = sys.modules.get("tensorflow")
  return tensorflow is not None and tensorflow.is_tensor(value)


def _is_integral(value: Any) -> bool:
  """Whether Python 2's ``/`` floored for ``value``: an int (bool too), a NumPy integer
  scalar or array, an integer tensor."""
  if isinstance(value, (numbers.Integral, np.integer)):
    return True
  if isinstance(value, np.ndarray):
    return value.dtype.kind in "iu"
  if _is_tensor(value):
    return bool(value.dtype.is_integer)
  return False


def div(x: Any, y: Any) -> Any:
  """``x / y`` as Python 2 computed it without ``from __future__ import division``.

  Floor division when both are integers (``7 / 2`` is 3, ``-7 / 2`` is -4): Python ints,
  NumPy integers (scalars and arrays: NumPy's ``divide`` floored them on Python 2), and
  integer tensors (TF 1.x's ``Tensor.__div__`` was ``tf.div``, which floors integer
  dtypes: ``tf.compat.v1.div``). True division otherwise, as Python 3's ``/``.

  Args:
    x: the dividend.
    y: the divisor.

  Returns:
    The quotient Python 2 gave.
  """
  if _is_integral(x) and _is_integral(y):
    if _is_tensor(x) or _is_tensor(y):
      import tensorflow as tf  # pylint: disable=g-import-not-at-top
      return tf.compat.v1.div(x, y)
    return x // y
  return x / y


def idiv(x: Any, y: Any) -> Any:
  """``x /= y`` as Python 2 computed it: in place where ``x`` is mutable (a NumPy array).

  Args:
    x: the value divided (an array is divided in place, as ``/=`` did).
    y: the divisor.

  Returns:
    The value to bind ``x`` to (``x`` itself for an array).
  """
  if _is_integral(x) and _is_integral(y):
    if _is_tensor(x) or _is_tensor(y):
      return div(x, y)
    return operator.ifloordiv(x, y)
  return operator.itruediv(x, y)


def sort_key(value: Any) -> Tuple[Any, ...]:
  """A key under which values sort as Python 2 ordered them.

  Python 2 ordered values of any two types: ``None`` before everything, numbers by value
  before every other type, values of other types grouped by their type's name; tuples
  and lists compare element by element under the same order. ``str`` and ``bytes`` (both
  Python 2's ``str``) compare as text. Values of one other type compare as they do.

  Args:
    value: any value of the sorted list.

  Returns:
    A tuple that orders as Python 2 ordered ``value``.
  """
  if value is None:
    return (0,)
  if isinstance(value, (numbers.Real, np.number)) and not isinstance(value, np.complexfloating):
    return (1, value)
  if isinstance(value, (tuple, list)):
    return (2, type(value).__name__, tuple(sort_key(item) for item in value))
  if isinstance(value, bytes):
    return (2, "str", value.decode("latin-1"))
  if isinstance(value, str):
    return (2, "str", value)
  return (2, type(value).__name__, value)


def cmp(a: Any, b: Any) -> int:
  """Python 2's builtin ``cmp``: -1, 0 or 1 as ``a`` orders before, with or after ``b``.

  Args:
    a: a value.
    b: a value.

  Returns:
    -1, 0 or 1, in Python 2's order (``sort_key``).
  """
  key_a, key_b = sort_key(a), sort_key(b)
  return (key_a > key_b) - (key_a < key_b)
