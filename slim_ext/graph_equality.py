"""TF1's speed for ``==`` between graph tensors: object identity, asked for directly.

In TF1 graph code a ``Tensor`` compared as an object (TensorFlow 1.14 defined no
``__eq__``), and TF1 code leans on it: ``if t not in outputs``, ``params.index(v)``,
``list_remove_repeat`` over every layer's outputs. TensorFlow >= 1.15 routes ``==``
through ``math_ops.tensor_equals``, which in graph code (``tf.disable_v2_behavior()``,
the ported code's mode) also answers ``self is other``, but only after an import, the
op dispatcher and the traceback filter: some 3 microseconds a comparison instead of
tens of nanoseconds. tensorlayer 1.11.1's Inception-v4 builds in 17 s on TF 1.14 and in
59 s on TF 2.21, of which 53 s are its 40 million comparisons, and its own two
"build within 40 s" tests fail.

``install`` answers ``tensor == other`` and ``tensor != other`` at once, with TensorFlow's
own answer, where TensorFlow's is object identity whatever the dispatcher holds: tensor
equality is off (``Tensor._USE_EQUALITY`` False, as ``disable_v2_behavior`` leaves it)
and ``other`` is a ``Tensor`` or None (types a dispatcher may claim, a ``KerasTensor``,
a ``RaggedTensor``, an extension type, are none of those). Everything else, eager and
``tf.function`` code among it, goes to TensorFlow's ``__eq__`` as before.
"""
from __future__ import annotations

import tensorflow as tf

_MARK = "_slim_ext_graph_equality"


def install() -> bool:
  """Gives ``Tensor.__eq__`` / ``__ne__`` the direct answer in graph code.

  Returns:
    True when it patched ``Tensor`` now; False when it already had (idempotent).
  """
  tensor = tf.Tensor
  equals, not_equals = tensor.__eq__, tensor.__ne__
  if getattr(equals, _MARK, False):
    return False

  def __eq__(self, other):  # pylint: disable=invalid-name
    if not tensor._USE_EQUALITY and (other is None or isinstance(other, tensor)):  # pylint: disable=protected-access
      return self is other
    return equals(self, other)

  def __ne__(self, other):  # pylint: disable=invalid-name
    if not tensor._USE_EQUALITY and (other is None or isinstance(other, tensor)):  # pylint: disable=protected-access
      return self is not other
    return not_equals(self, other)

  for patched, original in ((__eq__, equals), (__ne__, not_equals)):
    setattr(patched, _MARK, True)
    patched.__doc__ = original.__doc__
  tensor.__eq__, tensor.__ne__ = __eq__, __ne__
  return True
