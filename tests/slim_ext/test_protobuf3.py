"""slim_ext.protobuf3: an int64 field's values as TF1's protobuf 3 stored them, a bytes
field's as Python 2 gave them.

TF 1.15's protobuf 3.20 (and TF 2.15's 4.25) stored ``Int64List(value=[False, True, 3])``
as ``[0, 1, 3]`` (run 2026-11-27); the installed protobuf may refuse the bool. On Python
2.7 + TF 1.14 ``BytesList(value=['jpeg', 'caf\xc3\xa9'])`` stored the str's bytes (the
UTF-8 of the source's literal; run 2026-11-29); Python 3's protobuf refuses a str.
"""
import numpy as np
import pytest
import tensorflow as tf

from slim_ext.protobuf3 import bytes_values, int64_values

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


@pytest.mark.parametrize(("values", "stored"), [
    ([False, True, 3], [0, 1, 3]),
    ((True,), [1]),
    ([np.int64(2), False], [2, 0]),
])
def test_bools_are_stored_as_protobuf3_stored_them(values, stored):
    assert list(tf.train.Int64List(value=int64_values(values)).value) == stored


@pytest.mark.parametrize("values", [[1, 2], (3,), [], np.array([True, False]), iter([True])])
def test_values_without_a_bool_in_a_list_are_given_back_unread(values):
    assert int64_values(values) is values


def test_strs_are_stored_as_python_2_stored_them():
  with pytest.raises(TypeError):
    tf.train.BytesList(value=["jpeg"])
  stored = tf.train.BytesList(value=bytes_values(["jpeg", "caf\u00e9", b"\xff"])).value
  assert list(stored) == [b"jpeg", b"caf\xc3\xa9", b"\xff"]
  assert list(tf.train.BytesList(value=bytes_values(np.array(["a", "b"]))).value) == [b"a", b"b"]
  # A pandas column's to_numpy(): an object array of str (object detection's OID tool).
  column = np.array(["/m/01", "/m/02"], dtype=object)
  assert list(tf.train.BytesList(value=bytes_values(column)).value) == [b"/m/01", b"/m/02"]


@pytest.mark.parametrize("values", [[b"a"], (b"b",), [], np.array([b"a"]), iter(["a"])])
def test_values_without_a_str_are_given_back_unread(values):
  assert bytes_values(values) is values
