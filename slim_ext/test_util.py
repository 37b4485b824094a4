"""TensorFlow test-case assertions as TF 1.15 ran them, where TF 2 cannot run them.

``slimport rewrite`` sends a TF test's ``self.assertAllEqual(a, b)`` here where ``a`` is
certainly a NumPy array of a dtype TensorFlow has no name for (a structured record
dtype, as TF1-era evaluation code kept its box and label tuples in): TF 2's
``assertAllEqual`` asks ``tf.as_dtype(a.dtype)`` whether NaNs should compare equal and
raises ``TypeError`` for such a dtype before comparing anything; TF 1.15 asked the same
question with ``a.dtype in (float16, float32, float64, bfloat16)``, answered no, and
compared the arrays element by element.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np
import tensorflow as tf

# TF1's message prints the actual value only up to these sizes (so as not to print
# giant tensors).
_PRINTED_NDIM, _PRINTED_SIZE = 3, 500


def _has_tf_name(dtype: np.dtype) -> bool:
  """Whether TensorFlow names ``dtype`` (its assertions can then run on it)."""
  try:
    tf.as_dtype(dtype)
  except TypeError:
    return False
  return True


def _as_array(test_case: tf.test.TestCase, value: Any) -> np.ndarray:
  """``value`` as the array TF's assertions compare: a tensor's value, else np.array."""
  if tf.is_tensor(value):
    value = test_case.evaluate(value)
  return value if isinstance(value, np.ndarray) else np.array(value)


def assert_all_equal(test_case: tf.test.TestCase, a: Any, b: Any,
                     msg: Optional[str] = None) -> None:
  """``test_case.assertAllEqual(a, b, msg)`` with TF 1.15's result for every dtype.

  Where TensorFlow names the dtype of ``a`` (every dtype a tensor can have, strings and
  objects), this is the test case's own ``assertAllEqual``. Otherwise (a structured or
  datetime NumPy array, which TF 2's raises ``TypeError`` on) it is TF 1.15's check:
  the shapes must be equal, then every element (NaNs unequal: such a dtype was none of
  TF1's floating dtypes), and a failure names where they differ.

  Args:
    test_case: the ``tf.test.TestCase`` asserting (its ``evaluate`` reads tensors).
    a: the expected array, or anything ``np.array`` takes.
    b: the actual array, tensor or anything ``np.array`` takes.
    msg: a message to add on failure.

  Raises:
    AssertionError: the shapes or the values differ.
  """
  if not isinstance(a, np.ndarray) or _has_tf_name(a.dtype):
    test_case.assertAllEqual(a, b, msg)
    return
  msg = msg or ""
  b = _as_array(test_case, b)
  printed = (" Contents: %s. \n%s." % (b, msg)
             if b.ndim <= _PRINTED_NDIM or b.size < _PRINTED_SIZE else " " + msg)
  test_case.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s.%s"
                        % (a.shape, b.shape, printed))
  same = a == b
  if np.all(same):
    return
  details = [msg]
  if a.ndim:
    where = np.where(np.logical_not(same))
    details.append("not equal where = {}".format(where))
    lhs, rhs = a[where], b[where]
  else:  # np.where of a 0-d array indexes nothing.
    lhs, rhs = a, b
  details.append("not equal lhs = {}".format(lhs))
  details.append("not equal rhs = {}".format(rhs))
  np.testing.assert_array_equal(a, b, err_msg="\n".join(details))
