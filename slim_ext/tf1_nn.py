"""``tf.nn`` functions as TensorFlow 1.12 computed them, where later releases changed them.

``slimport rewrite`` sends TF1 code's uses here where a later TensorFlow changed what a
function accepts or computes:

- ``leaky_relu``: up to TF 1.12 it was ``maximum(alpha * features, features)`` inside a
  ``LeakyRelu`` name scope, with ``alpha`` converted to a tensor of the features' dtype,
  so ``alpha`` could be a Tensor or a Variable (a learned slope: tensorlayer 1.11.1's
  ``PReluLayer`` passes ``sigmoid(alpha_var)``). TF 1.13 made it the fused
  ``LeakyRelu`` op, whose ``alpha`` is a float attribute: a Tensor alpha fails while
  the graph is built, and for ``alpha > 1`` the op computes ``features if features > 0
  else alpha * features``, not the maximum (``alpha=2`` maps 3 to 3, TF 1.12 to 6).
"""
from __future__ import annotations

import numbers
from typing import Any, Optional

import tensorflow as tf


def _fused_op_computes_the_same(alpha: Any) -> bool:
  """Whether TF 2's fused LeakyRelu op gives what TF 1.12's maximum gave for ``alpha``.

  It does for a real number up to 1 (for those ``maximum(alpha * x, x)`` is ``x`` for
  ``x > 0`` and ``alpha * x`` otherwise, and both gradients are ``alpha`` at 0); a
  Tensor, a Variable, an array or a slope above 1 needs TF 1.12's computation.
  """
  return (isinstance(alpha, numbers.Real) and not tf.is_tensor(alpha)
          and float(alpha) <= 1.0)


def leaky_relu(features: Any, alpha: Any = 0.2, name: Optional[str] = None) -> tf.Tensor:
  """``tf.nn.leaky_relu`` as TensorFlow 1.12 computed it: ``alpha`` may be a Tensor.

  For a real number ``alpha`` up to 1 this is TensorFlow's fused LeakyRelu op, which
  computes the same values and gradients; otherwise (a Tensor or Variable ``alpha``,
  an array of slopes, a slope above 1) it is TF 1.12's computation: in a
  ``LeakyRelu`` name scope, integer features cast to float32, ``alpha`` converted to
  the features' dtype, and ``maximum(alpha * features, features)``.

  Args:
    features: a `Tensor` of preactivation values (float16, float32, float64, int32 or
      int64).
    alpha: the slope for ``features < 0``: a number, an array or a `Tensor`
      (broadcast against ``features``).
    name: a name for the operation (optional).

  Returns:
    The activation, a `Tensor` of the features' float dtype.

  Raises:
    ValueError: ``alpha`` is a Tensor of another dtype than the features' (a float64
      alpha for float32 features), as on TF 1.12.
  """
  if _fused_op_computes_the_same(alpha):
    return tf.compat.v1.nn.leaky_relu(features, alpha=alpha, name=name)
  with tf.compat.v1.name_scope(name, "LeakyRelu", [features, alpha]) as scope:
    features = tf.convert_to_tensor(features, name="features")
    if features.dtype.is_integer:
      features = tf.cast(features, tf.float32)
    alpha = tf.convert_to_tensor(alpha, dtype=features.dtype, name="alpha")
    return tf.maximum(alpha * features, features, name=scope)
