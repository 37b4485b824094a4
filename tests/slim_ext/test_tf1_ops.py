"""slim_ext.tf1_ops.RegisterShape: TF 1.x's decorator (the checks it made, nothing called)."""
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
