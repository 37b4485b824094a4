"""``RegisterShape``: TF1's Python shape-function decorator, which TensorFlow 2 dropped.

TensorFlow 0.x inferred an op's output shapes in Python: a custom op's module
registered a shape function with ``@tf.RegisterShape("MyOp")`` (public up to TF 0.12;
``tensorflow.python.framework.ops.RegisterShape`` through TF 1.15). Since TF 1.0 shapes
come from the op's C++ ``SetShapeFn``: TF 1.x still kept the registry, checked its
arguments and refused a second function for one op type, but never called what was
registered. TensorFlow 2 removed the class, so a TF1 custom-op module fails at import;
``slimport rewrite`` (``register_shape``) sends its uses here, to that TF 1.x decorator.

Example:
  @RegisterShape("ZeroOut")
  def _zero_out_shape(op):
    return [op.inputs[0].get_shape()]
"""
from typing import Callable, Dict, Optional

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
