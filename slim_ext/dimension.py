"""TF1's dimensions: an integral float (``16.0``) is the dimension 16 again.

TF1 code written for Python 2 builds shapes with ``/`` (``channels / n_group``); on
Python 3 that is a float. TensorFlow 1.15's ``Dimension(value)`` took any value with
``int(value) == value`` (``Dimension(16.0)`` is 16; ``16.5`` raised "Ambiguous
dimension"), so such code ran on TF 1.15 under Python 3. TensorFlow >= 2.0 accepts only
values with ``__index__`` and refuses ``16.0`` with a TypeError: the variable
``get_variable(shape=[3, 3, channels / n_group, n])`` is no longer made. ``install``
gives ``Dimension`` back TF 1.15's rule for integral real numbers; every other value
(a non-integral float, a string, an object) is left to TensorFlow's own check, so what
TF 2 accepts is unchanged and what it refuses is refused as before, but for the
integral floats TF 1.15 took.
"""
from __future__ import annotations

import numbers

from tensorflow.python.framework import tensor_shape

_MARK = "_slim_ext_tf1_dimension"


def _integral_real(value) -> bool:
  """A real number without ``__index__`` whose value is a whole number (``16.0``)."""
  return (isinstance(value, numbers.Real) and not hasattr(value, "__index__")
          and not isinstance(value, bool) and float(value).is_integer())


def install() -> bool:
  """Makes ``tensor_shape.Dimension`` take an integral float, as TF 1.15 did.

  Returns:
    True when it patched ``Dimension`` now; False when it already had (idempotent).
  """
  dimension = tensor_shape.Dimension
  init = dimension.__init__
  if getattr(init, _MARK, False):
    return False

  def __init__(self, value):  # pylint: disable=invalid-name
    init(self, int(value) if _integral_real(value) else value)

  setattr(__init__, _MARK, True)
  __init__.__doc__ = init.__doc__
  dimension.__init__ = __init__
  return True
