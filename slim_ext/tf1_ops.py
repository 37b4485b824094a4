"""TF1's Python-side registries TensorFlow 2 dropped: ``RegisterShape`` and
``register_dense_tensor_like_type``.

TensorFlow 0.x inferred an op's output shapes in Python: a custom op's module
registered a shape function with ``@tf.RegisterShape("MyOp")`` (public up to TF 0.12;
``tensorflow.python.framework.ops.RegisterShape`` through TF 1.15). Since TF 1.0 shapes
come from the op's C++ ``SetShapeFn``: TF 1.x still kept the registry, checked its
arguments and refused a second function for one op type, but never called what was
registered. TensorFlow 2 removed the class, so a TF1 custom-op module fails at import;
``slimport rewrite`` (``tf1_registries``) sends its uses here, to that TF 1.x decorator.

A library with a variable type of its own registered it as tensor-like
(``ops.register_dense_tensor_like_type``, through TF 1.15: mesh-tensorflow's
``ReplicatedVariable``). TF 1.x checked the type's ``name`` and ``dtype`` properties and
recorded it for ``is_dense_tensor_like``; TensorFlow 2 removed the function, and its
``is_dense_tensor_like`` asks ``isinstance(t, tf.Tensor)``, reading no registry.
``slimport rewrite`` (``tf1_registries``) sends both here.

Example:
  @RegisterShape("ZeroOut")
  def _zero_out_shape(op):
    return [op.inputs[0].get_shape()]
"""
from typing import Callable, Dict, List, Optional

# op type -> the shape function registered for it (read by nothing, as in TF 1.x).
_SHAPE_FUNCTIONS: Dict[str, Callable] = {}


class RegisterShape:
  """TF 1.x's ``RegisterShape``: records a Python shape function for an op type.

  TensorFlow 1.x and 2 never call it (shapes come from the op's C++ shape function);
  what TF 1.x checked still holds: ``op_type`` is a string, and one op type gets one
  function (``None``, TF1's "use the C++ shape function", any number of times).
  """

  def __init__(self, op_type: str):
    """Names the op type the decorated function is for.

    Args:
      op_type: the op's type name (``"ZeroOut"``).

    Raises:
      TypeError: op_type is not a string.
    """
    if not isinstance(op_type, str):
      raise TypeError("op_type must be a string")
    self._op_type = op_type

  def __call__(self, f: Optional[Callable]) -> Optional[Callable]:
    """Registers ``f`` as the op type's shape function.

    Args:
      f: the shape function (``op -> [TensorShape, ...]``), or None.

    Returns:
      ``f`` itself.

    Raises:
      KeyError: the op type has a shape function already.
    """
    if f is not None:
      if self._op_type in _SHAPE_FUNCTIONS:
        raise KeyError(f"Registering two shape functions with name '{self._op_type}'!")
      _SHAPE_FUNCTIONS[self._op_type] = f
    return f


# The types registered as tensor-like (read by nothing in TensorFlow 2).
_TENSOR_LIKE_TYPES: List[type] = []


def register_dense_tensor_like_type(tensor_type: type) -> None:
  """TF 1.x's ``ops.register_dense_tensor_like_type``: records a type that stands for
  one dense tensor.

  TensorFlow 2's ``is_dense_tensor_like`` reads no registry; what TF 1.x checked still
  holds.

  Args:
    tensor_type: a class with ``name`` and ``dtype`` properties.

  Raises:
    TypeError: ``tensor_type`` lacks one of the properties.
  """
  for attribute in ("name", "dtype"):
    if not isinstance(getattr(tensor_type, attribute, None), property):
      raise TypeError(f"Type {tensor_type.__name__} does not define a `{attribute}` property")
  _TENSOR_LIKE_TYPES.append(tensor_type)
