"""slim_ext.dimension: TF 1.15's rule for integral floats in shapes, restored.

Each accepted value below is one TensorFlow 1.15's ``Dimension`` took (``int(v) == v``)
and TensorFlow 2.21's refuses with a TypeError; each refused value is refused by
TensorFlow 2.21 with the same error after ``import slim_ext`` as before it.
"""
import numpy as np
import pytest

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


@pytest.fixture(scope="module")
def tensor_shape(tf):  # pylint: disable=redefined-outer-name,unused-argument
  from tensorflow.python.framework import tensor_shape as module  # pylint: disable=g-import-not-at-top
  return module


@pytest.mark.parametrize("value, expected", [
    (16.0, 16), (0.0, 0), (np.float32(4.0), 4), (np.float64(3.0), 3),
    # What TF 2 took already is unchanged.
    (7, 7), (np.int64(5), 5), (None, None), (True, 1),
])
def test_integral_values_are_dimensions(tensor_shape, value, expected):
  assert tensor_shape.Dimension(value).value == expected


@pytest.mark.parametrize("value", [16.5, float("nan"), float("inf"), "3", 2.0 + 0j, [1]])
def test_other_values_are_refused_as_before(tensor_shape, value):
  with pytest.raises(TypeError, match="Dimension value must be integer"):
    tensor_shape.Dimension(value)


def test_negative_float_is_refused_as_a_negative_int(tensor_shape):
  with pytest.raises(ValueError, match="Dimension -2 must be >= 0"):
    tensor_shape.Dimension(-2.0)


def test_shapes_built_with_true_division(tf):
  # tensorlayer 1.11.1's GroupConv2d: shape=[..., channels / n_group, n_filter].
  with tf.Graph().as_default():
    channels, n_group = 32, 2
    weights = tf.get_variable("W", shape=[3, 3, channels / n_group, 8])
    inputs = tf.placeholder(tf.float32, [None, 12 / 2])
    assert weights.shape.as_list() == [3, 3, 16, 8]
    assert inputs.shape.as_list() == [None, 6]


def test_install_is_idempotent(tensor_shape):
  from slim_ext import dimension  # pylint: disable=g-import-not-at-top
  patched = tensor_shape.Dimension.__init__
  assert dimension.install() is False
  assert tensor_shape.Dimension.__init__ is patched
