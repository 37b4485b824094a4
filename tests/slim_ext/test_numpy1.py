"""slim_ext.numpy1: NumPy 1's int() and float() of one-element arrays."""
import numpy as np
import pytest

from slim_ext.numpy1 import to_float, to_int

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


def test_numpy_2_refuses_what_numpy_1_converted():
  with pytest.raises(TypeError, match="0-dimensional"):
    int(np.array([[3.7]]))


@pytest.mark.parametrize("value, as_int, as_float", [
    (np.array([3.7]), 3, 3.7), (np.array([[2.0]]), 2, 2.0), (np.float32(1.5), 1, 1.5),
    (np.array(4), 4, 4.0), (5, 5, 5.0), ("6", 6, 6.0),
])
def test_converts_as_numpy_1(value, as_int, as_float):
  assert to_int(value) == as_int and type(to_int(value)) is int
  assert to_float(value) == pytest.approx(as_float) and type(to_float(value)) is float


def test_arrays_of_other_sizes_still_refused():
  with pytest.raises(TypeError):
    to_int(np.array([1, 2]))
