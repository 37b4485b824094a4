"""slim_ext.tf1_ops: TF 1.x's RegisterShape decorator and register_dense_tensor_like_type (the
checks they made; nothing reads what they record)."""
import pytest

from slim_ext import tf1_ops


def test_returns_the_function_and_never_calls_it():
  calls = []

  def shape(op):
    calls.append(op)
    return []

  assert tf1_ops.RegisterShape("SlimExtTestOpA")(shape) is shape
  assert calls == []


def test_one_function_an_op_type_as_in_tf1():
  tf1_ops.RegisterShape("SlimExtTestOpB")(lambda op: [])
  with pytest.raises(KeyError, match="Registering two shape functions with name "
                                     "'SlimExtTestOpB'"):
    tf1_ops.RegisterShape("SlimExtTestOpB")(lambda op: [])


def test_none_means_the_cpp_shape_function_any_number_of_times():
  assert tf1_ops.RegisterShape("SlimExtTestOpC")(None) is None
  assert tf1_ops.RegisterShape("SlimExtTestOpC")(None) is None


def test_the_op_type_must_be_a_string():
  with pytest.raises(TypeError, match="op_type must be a string"):
    tf1_ops.RegisterShape(3)


class _TensorLike:
  """Shaped as mesh-tensorflow 0.0.5's ReplicatedVariable: name and dtype properties."""

  @property
  def name(self):
    return "replicated"

  @property
  def dtype(self):
    return "float32"


class _NoDtype:
  name = property(lambda self: "x")
  dtype = "float32"  # an attribute, not a property


def test_a_tensor_like_type_needs_name_and_dtype_properties_as_in_tf1():
  assert tf1_ops.register_dense_tensor_like_type(_TensorLike) is None
  with pytest.raises(TypeError, match="Type _NoDtype does not define a `dtype` property"):
    tf1_ops.register_dense_tensor_like_type(_NoDtype)
  with pytest.raises(TypeError, match="Type int does not define a `name` property"):
    tf1_ops.register_dense_tensor_like_type(int)
