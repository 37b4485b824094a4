"""NumPy 1's conversions of one-element arrays, for ported TF1-era code.

NumPy 1.x converted an array of one element, of any number of dimensions, to a Python
scalar: ``int(np.array([3.0]))`` was 3 (deprecated in 1.25). NumPy 2 converts only
0-dimensional arrays and raises ``TypeError: only 0-dimensional arrays can be converted
to Python scalars`` for the rest. ``slimport rewrite`` sends ``int(...)`` and
``float(...)`` of expressions that index a NumPy array (``int(2 * labels[i] + 1)`` with
``labels`` of shape (16, 1)) here.
"""
from __future__ import annotations

from typing import Any

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
