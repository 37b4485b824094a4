"""TensorFlow test-case assertions as the TF1 era ran them, where TF 2 / Python 3 cannot.

Two kinds. A record array (``assert_all_equal``):

``slimport rewrite`` sends a TF test's ``self.assertAllEqual(a, b)`` here where ``a`` is
certainly a NumPy array of a dtype TensorFlow has no name for (a structured record
dtype, as TF1-era evaluation code kept its box and label tuples in): TF 2's
``assertAllEqual`` asks ``tf.as_dtype(a.dtype)`` whether NaNs should compare equal and
raises ``TypeError`` for such a dtype before comparing anything; TF 1.15 asked the same
question with ``a.dtype in (float16, float32, float64, bfloat16)``, answered no, and
compared the arrays element by element.

A Python 2 project's strings (``Python2StrEquality``): in Python 2 a string literal was
bytes, the type a TF1 session returns for a string tensor, so
``self.assertEqual('image_id', decoded['source_id'])`` passed; on Python 3 the literal is
text, TensorFlow still returns bytes, and ``'image_id' != b'image_id'``. ``slimport
rewrite`` puts the mixin first among the bases of such a project's test cases: an
assertion that fails (or raises ``TypeError``, as ``'scope' in b'scope/w'`` does) is tried
again with every ``str`` encoded as UTF-8 (the bytes its
Python 2 source literal was), as Python 2's ``==`` compared them, and passes when that
passes. An assertion that passes, and one that fails both ways, is the TestCase's own
(its own message). One difference from Python 2 stays: a ``unicode`` value of Python 2
with characters outside ASCII compared unequal to its UTF-8 bytes, and compares equal
here (Python 3 cannot tell it from a literal).
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


def python2_strings(value: Any) -> Any:
  """``value`` with every ``str`` in it encoded as UTF-8: what Python 2 held.

  Goes through lists, tuples (named ones become plain tuples, which compare the same),
  sets, dict keys and values and NumPy arrays of text or objects; anything else is
  returned as it is.

  Args:
    value: a value an assertion compares.

  Returns:
    The value with its text as bytes.
  """
  if isinstance(value, str):
    return value.encode("utf-8")
  if isinstance(value, np.ndarray):
    if value.dtype.kind == "U":
      return np.char.encode(value, "utf-8")
    if value.dtype.kind == "O":
      encoded = np.empty(value.shape, dtype=object)
      for index in np.ndindex(*value.shape):
        encoded[index] = python2_strings(value[index])
      return encoded
    return value
  if isinstance(value, dict):
    return {python2_strings(key): python2_strings(item) for key, item in value.items()}
  if isinstance(value, list):
    return [python2_strings(item) for item in value]
  if isinstance(value, tuple):
    return tuple(python2_strings(item) for item in value)
  if isinstance(value, (set, frozenset)):
    return type(value)(python2_strings(item) for item in value)
  return value


# The TestCase assertions whose passing Python 2's str == bytes could decide: the two
# values they compare are their first two arguments. assertNotIn is one for a substring
# (``'scope' not in b'scope/weights'`` raises TypeError on Python 3); assertAlmostEqual is
# one because it passes first on ``first == second`` (of two lists of dicts, say, whose
# difference Python 3 then fails to take); assertNotEqual is not: what differs on Python 2
# differs on Python 3 too.
PYTHON2_ASSERTIONS = ("assertEqual", "assertIn", "assertNotIn", "assertCountEqual",
                      "assertItemsEqual", "assertListEqual", "assertTupleEqual",
                      "assertSequenceEqual", "assertDictEqual", "assertSetEqual",
                      "assertAllEqual", "assertAlmostEqual")


def _python2_assertion(name: str) -> Any:
  """The mixin's ``name``: the TestCase's own, then Python 2's strings where it fails."""

  def assertion(self, *args, **kwargs):
    own = getattr(super(Python2StrEquality, self), name)
    try:
      return own(*args, **kwargs)
    except (self.failureException, TypeError) as error:
      # TypeError: ``'a' in b'abc'``, which Python 2 answered.
      failure = error
    try:
      own(*[python2_strings(value) for value in args[:2]], *args[2:], **kwargs)
    except self.failureException as python2_failure:
      if isinstance(failure, TypeError):
        raise python2_failure from None  # Python 2's verdict, where Python 3 has none
      raise failure from None
    except Exception:  # pylint: disable=broad-except
      # A comparison Python 2 could not make either (a list == a longer array raised
      # there too): the TestCase's own failure stands.
      raise failure from None
    return None

  assertion.__name__ = name
  assertion.__doc__ = ("The TestCase's own ``%s``; where it fails, again with every str "
                       "as UTF-8 bytes (Python 2's strings)." % name)
  return assertion


class Python2StrEquality(object):
  """Mixed into a Python 2 project's test case, before its TestCase base: assertions
  compare ``str`` and ``bytes`` as Python 2 did (``PYTHON2_ASSERTIONS``)."""


for _name in PYTHON2_ASSERTIONS:
  setattr(Python2StrEquality, _name, _python2_assertion(_name))
del _name
