"""slim_ext.py2: Python 2's `/` and ordering.

Every expected value is what Python 2.7.18 with NumPy 1.16.6 and TensorFlow 1.14 gave
for the same expression (run with tools/tf1_env.py's interpreter, 2026-11-29).
"""
import numpy as np
import pytest
import tensorflow as tf

from slim_ext.py2 import cmp, div, idiv, sort_key

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


@pytest.mark.parametrize("x, y, expected", [
    (7, 2, 3), (-7, 2, -4), (7.0, 2, 3.5), (7, 2.0, 3.5), (True, 2, 0),
    (np.int64(7), 2, np.int64(3)), (np.int32(7), np.float32(2), np.float64(3.5)),
])
def test_div_of_numbers(x, y, expected):
  result = div(x, y)
  assert result == expected and type(result) is type(expected)


def test_div_of_arrays():
  floored = div(np.array([7, -7]), 2)
  assert floored.tolist() == [3, -4] and floored.dtype == np.int64
  assert div(np.array([7.0, -7.0]), 2).tolist() == [3.5, -3.5]


def test_div_of_tensors():
  assert div(tf.constant([7, -7]), 2).numpy().tolist() == [3, -4]
  assert div(tf.constant([7, -7], tf.int64), tf.constant([2, 2], tf.int64)).numpy().tolist() \
      == [3, -4]
  assert div(tf.constant([7.0, -7.0]), 2).numpy().tolist() == [3.5, -3.5]


def test_idiv_divides_an_array_in_place():
  a = np.array([7, 9])
  b = a
  a = idiv(a, 2)
  assert a is b and b.tolist() == [3, 4]
  assert idiv(7, 2) == 3 and idiv(7.0, 2) == 3.5


@pytest.mark.parametrize("values, expected", [
    ([None, "conv2", "a", None, "conv1"], [None, None, "a", "conv1", "conv2"]),
    ([3, None, "b", 1.5, (None, 2), ("a",), [1], "a"],
     [None, 1.5, 3, [1], "a", "b", (None, 2), ("a",)]),
    ([(1, None), (1, "a"), (None, "z"), (0, 2)], [(None, "z"), (0, 2), (1, None), (1, "a")]),
])
def test_sort_key_orders_as_python_2(values, expected):
  assert sorted(values, key=sort_key) == expected


def test_min_max_and_cmp():
  assert min([None, 3, "x"], key=sort_key) is None
  assert max([None, 3, "x"], key=sort_key) == "x"
  assert [cmp(None, 0), cmp("a", 1), cmp(2, 2), cmp((1, None), (1, "a"))] == [-1, 1, 0, -1]
