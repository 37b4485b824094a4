"""slim_ext.numpy1: NumPy 1's int() and float() of one-element arrays, and its size,
shape and ndim of ragged nested lists.

tests/slim_ext/data/numpy1_ragged/expected.json holds what NumPy 1.16.6 itself (Python
2.7) answered for the values of tests/slim_ext/numpy1_ragged_cases.py (its
make_fixture.py regenerates it).
"""
import json
from pathlib import Path

import numpy as np
import pytest

from slim_ext import numpy1
from slim_ext.numpy1 import to_float, to_int
from tests.slim_ext import numpy1_ragged_cases

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


RAGGED = json.loads((Path(__file__).parent / "data" / "numpy1_ragged" / "expected.json")
                    .read_text())


def test_numpy_2_refuses_a_ragged_list():
  with pytest.raises(ValueError, match="inhomogeneous"):
    np.size([[1, 2], [3]])


@pytest.mark.parametrize("name, make", numpy1_ragged_cases.VALUES,
                         ids=[name for name, _ in numpy1_ragged_cases.VALUES])
def test_size_shape_ndim_as_numpy_1_16(name, make):
  for function, args in numpy1_ragged_cases.CALLS:
    expected = RAGGED[name][f"{function}{args!r}"]
    if isinstance(expected, dict):  # NumPy 1.16 raised; an axis out of range is
      # NumPy 2's AxisError, an IndexError
      with pytest.raises({"IndexError": IndexError, "ValueError": ValueError}[
          expected["error"]]):
        getattr(numpy1, function)(make(), *args)
      continue
    result = getattr(numpy1, function)(make(), *args)
    assert (list(result) if isinstance(result, tuple) else result) == expected, \
        (name, function, args)


def test_a_regular_value_keeps_its_dtype_free_answer():
  assert numpy1.shape(np.zeros((2, 3))) == (2, 3) and numpy1.ndim(5.0) == 0
  assert numpy1.size([[1.5, 2.5]], 1) == 2
