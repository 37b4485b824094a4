"""slim_ext.graph_equality: ``==`` between graph tensors answered directly, as TF1 did.

Every answer is TensorFlow's own (``math_ops.tensor_equals`` / ``tensor_not_equals``, the
functions behind TF's ``Tensor.__eq__``); the fast path only skips the way there, and
only where TensorFlow's answer is object identity.
"""
import pytest

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


@pytest.fixture
def math_ops(tf):  # pylint: disable=redefined-outer-name,unused-argument
  from tensorflow.python.ops import math_ops as module  # pylint: disable=g-import-not-at-top
  return module


@pytest.fixture
def graph_code(tf):
  """Tensor equality off, as ``tf.disable_v2_behavior()`` leaves it, in a new graph."""
  saved = tf.Tensor._USE_EQUALITY  # pylint: disable=protected-access
  tf.Tensor._USE_EQUALITY = False  # pylint: disable=protected-access
  try:
    with tf.Graph().as_default():
      yield
  finally:
    tf.Tensor._USE_EQUALITY = saved  # pylint: disable=protected-access


@pytest.fixture
def counted(monkeypatch, math_ops):
  """How many times TensorFlow's own ``==`` / ``!=`` functions were called."""
  calls = []
  for name in ("tensor_equals", "tensor_not_equals"):
    original = getattr(math_ops, name)
    monkeypatch.setattr(math_ops, name,
                        lambda *args, _original=original: calls.append(1) or _original(*args))
  return calls


def test_graph_tensors_compare_as_objects_without_tensorflows_dispatch(tf, graph_code,
                                                                      counted, math_ops):
  a = tf.constant(1.0)
  b = tf.constant(1.0)
  outputs = [a, b, a + b]
  assert (a == a, a == b, a != b, a != a, a == None, a != None) == (  # noqa: E711
      True, False, True, False, False, True)
  assert b in outputs and outputs.index(b) == 1 and a + b not in outputs
  # tensorlayer's list_remove_repeat over a net's outputs
  unique = []
  for tensor in outputs + outputs:
    if tensor not in unique:
      unique.append(tensor)
  assert unique == outputs
  assert counted == []  # answered here, not by TensorFlow's dispatch
  # TensorFlow's own answers are the same.
  assert (math_ops.tensor_equals(a, b), math_ops.tensor_not_equals(a, b)) == (False, True)


def test_other_operands_go_to_tensorflow(tf, graph_code, counted):
  a = tf.constant([1, 2])
  variable = tf.Variable([1, 2])
  assert (a == 3, a != 3, a == [1, 2], a == variable) == (False, True, False, False)
  assert len(counted) == 4


def test_eager_tensors_still_compare_element_by_element(tf, counted):
  assert tf.Tensor._USE_EQUALITY  # pylint: disable=protected-access
  equal = tf.constant([1, 2]) == tf.constant([1, 3])
  assert equal.numpy().tolist() == [True, False]
  assert (tf.constant([1, 2]) != tf.constant([1, 3])).numpy().tolist() == [False, True]
  assert len(counted) == 2


def test_install_is_idempotent(tf):
  from slim_ext import graph_equality  # pylint: disable=g-import-not-at-top
  patched = tf.Tensor.__eq__, tf.Tensor.__ne__
  assert graph_equality.install() is False
  assert (tf.Tensor.__eq__, tf.Tensor.__ne__) == patched
