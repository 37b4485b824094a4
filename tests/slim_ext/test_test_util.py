"""slim_ext.test_util: TF 1.15's assertAllEqual where TF 2's cannot name the dtype; Python 2's
str == bytes in a Python 2 project's test cases."""
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


class _Python2Case(test_util.Python2StrEquality, tf.test.TestCase):
  """A Python 2 project's test case, as py2_str_equality ports it."""

  def runTest(self) -> None:  # unittest needs a test method to make an instance
    pass


@pytest.fixture(name="py2_case")
def _py2_case() -> tf.test.TestCase:
  return _Python2Case()


# (assertion, expected, actual): each passed on Python 2.7 + TF 1.14 in object detection
# 0.1.1's tests and fails on Python 3 with the TestCase's own assertion.
PYTHON2_PASSES = [
    ("assertEqual", "image_id", b"image_id"),  # tf_example_decoder_test
    ("assertEqual", ["1"], np.array([b"1"], dtype=object)),  # dataset_builder_test
    ("assertEqual", [b"tmp_image.jpg"], ["tmp_image.jpg"]),  # create_coco_tf_record_test
    ("assertEqual", {"04": [1]}, {b"04": [1]}),
    ("assertIn", "another_variable", np.array([b"Conv/weights", b"another_variable"])),
    ("assertCountEqual", ["a", "b"], [b"b", b"a"]),
    ("assertListEqual", ["a"], [b"a"]),
    ("assertDictEqual", {"a": "b"}, {b"a": b"b"}),
    ("assertAllEqual", {"a": 1}, {b"a": 1}),  # TF 2 compares str and bytes arrays itself
    ("assertEqual", "caf\u00e9", "caf\u00e9".encode("utf-8")),  # a UTF-8 source's literal
    ("assertNotIn", "FirstStageFeatureExtractor", b"another_variable"),  # faster_rcnn's
    # coco_tools_test: the segments exported (pycocotools' counts, bytes) and read back
    ("assertAlmostEqual", [{"counts": b"PQ1", "score": 0.8}], [{"counts": "PQ1", "score": 0.8}]),
]


@pytest.mark.parametrize("assertion,expected,actual", PYTHON2_PASSES)
def test_python2_strings_pass(py2_case: tf.test.TestCase, case: tf.test.TestCase,
                              assertion: str, expected: object, actual: object) -> None:
  with pytest.raises((AssertionError, TypeError)):
    getattr(case, assertion)(expected, actual)  # Python 3's own: the loss the port is for
  getattr(py2_case, assertion)(expected, actual)


def test_a_failure_keeps_the_test_case_message(py2_case: tf.test.TestCase) -> None:
  with pytest.raises(AssertionError, match=r"^'abd' != b'abc'"):
    py2_case.assertEqual("abd", b"abc")
  with pytest.raises(AssertionError, match="Lists differ"):
    py2_case.assertEqual(["a", "c"], [b"a", b"b"])
  with pytest.raises(AssertionError, match="not found in"):
    py2_case.assertIn("x", [b"y"])
  with pytest.raises(AssertionError, match="unexpectedly found in"):
    py2_case.assertNotIn("scope", b"scope/weights")
  with pytest.raises(TypeError, match="not iterable"):
    py2_case.assertIn("a", 5)  # no Python 2 meaning makes it pass: Python 3's error
  with pytest.raises(TypeError, match="unsupported operand"):
    py2_case.assertAlmostEqual([{"counts": b"PQ1"}], [{"counts": "PQ2"}])


def test_what_python2_could_not_compare_still_raises(py2_case: tf.test.TestCase) -> None:
  # A list == a longer array: ambiguous truth on Python 2 too.
  with pytest.raises(ValueError):
    py2_case.assertEqual(["1", "2"], np.array([b"1"], dtype=object))


def test_negations_and_other_types_are_the_test_case_own(py2_case: tf.test.TestCase) -> None:
  py2_case.assertNotEqual("a", b"a")  # as on Python 3: what differed on Python 2 still does
  py2_case.assertEqual(1, 1.0)
  with pytest.raises(AssertionError):
    py2_case.assertEqual(1, "1")


def test_python2_strings_goes_through_containers() -> None:
  Point = __import__("collections").namedtuple("Point", "x y")
  assert test_util.python2_strings({"a": ("b", {"c"}), "n": Point("x", 1)}) == \
      {b"a": (b"b", {b"c"}), b"n": (b"x", 1)}
  assert test_util.python2_strings(np.array([["a"]])).dtype == np.dtype("S1")
  assert test_util.python2_strings(np.float32(1.5)) == np.float32(1.5)
