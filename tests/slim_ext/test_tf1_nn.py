"""slim_ext.tf1_nn: ``tf.nn.leaky_relu`` as TensorFlow 1.12 computed it.

The expected values, dtypes and op names are what TensorFlow 1.12.0 (Python 3.6) gave
for the same graphs: ``maximum(alpha * features, features)`` in a ``LeakyRelu`` scope,
for any ``alpha`` it could convert to the features' dtype.
"""
import numpy as np
import pytest

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow

FEATURES = [-2.0, 0.0, 3.0]


@pytest.fixture(scope="module")
def tf1_nn(tf):  # pylint: disable=redefined-outer-name,unused-argument
  from slim_ext import tf1_nn as module  # pylint: disable=g-import-not-at-top
  return module


def _run(tf, build):
  with tf.Graph().as_default() as graph:
    outputs = build()
    with tf.Session(graph=graph) as session:
      session.run(tf.global_variables_initializer())
      return session.run(outputs), graph


def test_a_tensor_alpha_is_a_learned_slope(tf, tf1_nn):
  # tensorlayer 1.11.1's PReluLayer: act=tf.nn.leaky_relu, alpha=sigmoid(alpha_var).
  def build():
    alpha = tf.nn.sigmoid(tf.get_variable("alpha", initializer=0.0))
    output = tf1_nn.leaky_relu(tf.constant(FEATURES), alpha=alpha, name="PReLU_activation")
    gradient, = tf.gradients(output, alpha)
    return output, gradient

  (values, gradient), graph = _run(tf, build)
  np.testing.assert_allclose(values, [-1.0, 0.0, 3.0])
  np.testing.assert_allclose(gradient, -2.0)  # the slope learns: d/dalpha = -2
  assert graph.get_tensor_by_name("PReLU_activation:0").op.type == "Maximum"


def test_tensorflows_own_function_refuses_a_tensor_alpha(tf):
  # Why the port sends TF1 code here: the fused op (TF >= 1.13) takes a float only.
  with tf.Graph().as_default():
    with pytest.raises(TypeError):
      tf.nn.leaky_relu(tf.constant(FEATURES), alpha=tf.constant(0.5))


def test_a_slope_above_one_is_tf_1_12s_maximum(tf, tf1_nn):
  # The fused op maps 3 to 3 for alpha=2 (and -2 to -4); TF 1.12 gave 6 and -2.
  values, graph = _run(tf, lambda: tf1_nn.leaky_relu(tf.constant(FEATURES), alpha=2.0))
  np.testing.assert_allclose(values, [-2.0, 0.0, 6.0])
  assert [op.name for op in graph.get_operations() if op.name.startswith("Leaky")] == [
      "LeakyRelu/alpha", "LeakyRelu/mul", "LeakyRelu"]


def test_integer_features_and_an_array_of_slopes(tf, tf1_nn):
  values, _ = _run(tf, lambda: [
      tf1_nn.leaky_relu(tf.constant([-2, 3]), alpha=tf.constant(0.25)),
      tf1_nn.leaky_relu(tf.constant([[-1.0, -1.0]]), alpha=np.array([0.1, 0.3]))])
  assert values[0].dtype == np.float32
  np.testing.assert_allclose(values[0], [-0.5, 3.0])
  np.testing.assert_allclose(values[1], [[-0.1, -0.3]])


@pytest.mark.parametrize("alpha", [0.2, np.float32(0.1), 1, 0.0, -0.5])
def test_a_number_up_to_one_keeps_the_fused_op(tf, tf1_nn, alpha):
  def build():
    return (tf1_nn.leaky_relu(tf.constant(FEATURES), alpha=alpha, name="act"),
            tf.nn.leaky_relu(tf.constant(FEATURES), alpha=alpha))

  (ours, tensorflows), graph = _run(tf, build)
  np.testing.assert_allclose(ours, tensorflows)
  assert graph.get_tensor_by_name("act:0").op.type == "LeakyRelu"


def test_an_alpha_of_another_dtype_is_refused_as_on_tf_1_12(tf, tf1_nn):
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype "
                                         "float64"):
      tf1_nn.leaky_relu(tf.constant(FEATURES), alpha=tf.constant(0.5, tf.float64))
