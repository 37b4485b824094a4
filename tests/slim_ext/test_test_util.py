"""slim_ext.test_util: TF 1.15's assertAllEqual where TF 2's cannot name the dtype."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from slim_ext import test_util

# object detection 0.1.1's utils/vrd_evaluation.label_data_type.
LABELS = np.dtype([("subject", "i4"), ("object", "i4"), ("relation", "i4")])


@pytest.fixture(name="case")
def _case() -> tf.test.TestCase:
  return tf.test.TestCase()


def _labels(*rows: tuple) -> np.ndarray:
  return np.array(list(rows), dtype=LABELS)


def test_tf2_own_assert_raises_on_a_record_dtype(case: tf.test.TestCase) -> None:
  """What the port is for: TF 2's assertAllEqual never compares record arrays."""
  with pytest.raises(TypeError):
    case.assertAllEqual(_labels((1, 2, 1)), _labels((1, 2, 1)))


def test_equal_records_pass(case: tf.test.TestCase) -> None:
  test_util.assert_all_equal(case, _labels((1, 2, 1), (2, 1, 3)), _labels((1, 2, 1), (2, 1, 3)))


def test_a_different_record_fails_naming_where(case: tf.test.TestCase) -> None:
  with pytest.raises(AssertionError, match=r"(?s)not equal where = \(array\(\[1\]\),\).*"
                     r"not equal lhs = \[\(2, 1, 3\)\].*not equal rhs = \[\(2, 1, 4\)\]"):
    test_util.assert_all_equal(case, _labels((1, 2, 1), (2, 1, 3)),
                               _labels((1, 2, 1), (2, 1, 4)), msg="labels")


def test_a_shape_mismatch_fails_as_tf1_did(case: tf.test.TestCase) -> None:
  """TF 1.15 turned a list of tuples into a 2-d int array: a shape mismatch."""
  with pytest.raises(AssertionError, match=r"Shape mismatch: expected \(1,\), got \(1, 3\)"):
    test_util.assert_all_equal(case, _labels((1, 2, 3)), [(1, 2, 3)])


def test_a_tensor_is_evaluated(case: tf.test.TestCase) -> None:
  with pytest.raises(AssertionError, match="Shape mismatch"):
    test_util.assert_all_equal(case, _labels((1, 2, 3)), tf.constant([[1, 2, 3]]))


def test_dtypes_tf_names_are_tf2s_own_check(case: tf.test.TestCase) -> None:
  """NaNs compare equal in TF's float check; strings and bytes compare as TF 2's do."""
  test_util.assert_all_equal(case, np.array([1.0, np.nan]), np.array([1.0, np.nan]))
  test_util.assert_all_equal(case, np.array(["a"]), np.array([b"a"]))
  with pytest.raises(AssertionError):
    test_util.assert_all_equal(case, np.array([1, 2]), np.array([1, 3]))
  test_util.assert_all_equal(case, [1, 2], tf.constant([1, 2]))
