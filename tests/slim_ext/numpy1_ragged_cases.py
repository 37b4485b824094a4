"""The values tests/slim_ext/data/numpy1_ragged holds NumPy 1.16's np.size, np.shape
and np.ndim of.

Read by the fixture's script on Python 2.7 with NumPy 1.16.6, and by
tests/slim_ext/test_numpy1.py on TensorFlow 2's Python: keep it to what both run.
"""
import numpy as np


def _zeros(*shape):
  return np.zeros(shape, np.bool_)


# name -> a function making the value (a new one each call).
VALUES = [
    # magenta 1.1.7's data_hierarchical: per track, per segment one-hot chord controls
    # of different lengths.
    ("magenta_controls", lambda: [[_zeros(10, 25), _zeros(12, 25)],
                                  [_zeros(10, 25), _zeros(12, 25)]]),
    ("one_track", lambda: [[_zeros(10, 25), _zeros(12, 25)]]),
    ("ragged_lists", lambda: [[1, 2], [3]]),
    ("ragged_tuples", lambda: ((1, 2), (3,))),
    ("ragged_arrays", lambda: [_zeros(3), _zeros(4)]),
    ("ragged_with_empty", lambda: [[], [1]]),
    ("ragged_empty_arrays", lambda: [_zeros(0, 25), _zeros(3, 25)]),
    ("nested_empty_ragged", lambda: [[_zeros(0, 25)], [_zeros(0, 25), _zeros(1, 25)]]),
    ("ragged_deep", lambda: [[[1, 2], [3, 4]], [[5, 6]]]),
    ("ragged_third_level", lambda: [[[1, 2], [3]], [[4, 5], [6, 7]]]),
    # NumPy 1 refused these too: the first dimensions agree, later ones do not.
    ("same_first_dimension", lambda: [_zeros(2, 3), _zeros(2, 4)]),
    ("regular", lambda: [[1, 2], [3, 4]]),
    ("empty_list", lambda: []),
    ("list_of_empty", lambda: [[], []]),
    ("empty_arrays", lambda: [_zeros(0, 25), _zeros(0, 25)]),
    ("strings", lambda: ["ab", "c"]),
    ("scalar", lambda: 3),
    ("array", lambda: _zeros(4, 5)),
]
# The calls each value is given: (function name, extra arguments).
CALLS = [("size", ()), ("size", (0,)), ("size", (1,)), ("shape", ()), ("ndim", ())]
