"""tensorflow.contrib.training's pieces with no TensorFlow 2 home, for ported imports.

tf.contrib.training's loops and evaluation helpers went to tf_slim; what has no
other home is here:

* ``HParams`` (and its parser), implemented in slim_ext.hparams:
  ``from tensorflow.contrib.training import HParams`` and
  ``from tensorflow.contrib.training.python.training import hparam`` land here.
* ``GreedyLoadBalancingStrategy`` and ``byte_size_load_fn``
  (``tensorflow/contrib/training/python/training/device_setter.py``): the
  ``ps_strategy`` of ``tf.compat.v1.train.replica_device_setter`` that puts
  each variable on the ps task holding the fewest bytes so far, as TF1-era
  multi-tower and parameter-server trainers (tensorflow/models' cifar10_estimator
  and the trainers built like it) place their variables.
"""
from typing import Any, Callable

import numpy as np

from slim_ext.hparams import HParams, parse_values

__all__ = ["GreedyLoadBalancingStrategy", "HParams", "byte_size_load_fn",
           "parse_values"]

# Variable ops whose single output is a resource handle, not the variable's value.
_RESOURCE_VARIABLE_OPS = ("VarHandleOp",)


def byte_size_load_fn(op: Any) -> int:
  """The size in bytes of a variable op's value: a load for GreedyLoadBalancingStrategy.

  Works for any op with a single output of fully defined shape. TF1 variables
  (``VariableV2``) output their value; the resource variables TF 2 creates by
  default (``VarHandleOp``, also under ``tf.compat.v1``) output a scalar handle,
  so their size is read from the op's ``dtype`` and ``shape`` attributes, as the
  same variable would have weighed in TF1.

  Args:
    op: an ``Operation`` with a single output, typically a variable op.

  Returns:
    The number of bytes of the variable (or of the op's output).

  Raises:
    ValueError: `op` does not have exactly one output, or its shape is not
      fully defined.
  """
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  if len(op.outputs) != 1:
    raise ValueError(f"Op {op} must have a single output")
  output = op.outputs[0]
  if op.type in _RESOURCE_VARIABLE_OPS:
    dtype = tf.as_dtype(op.get_attr("dtype"))
    shape = tf.TensorShape(op.get_attr("shape"))
  else:
    dtype, shape = output.dtype, output.shape
    if not shape.is_fully_defined():
      # A TF1 variable op is created before its output gets the shape its
      # "shape" attribute already has.
      shape = tf.TensorShape(op.get_attr("shape"))
  shape.assert_is_fully_defined()
  return shape.num_elements() * dtype.size


class GreedyLoadBalancingStrategy:
  """Places each op on the ps task with the least load so far.

  A ``ps_strategy`` for ``tf.compat.v1.train.replica_device_setter``: called
  with each op the setter puts on a ps task (the variables), it returns the
  task index with the smallest load (the first such task on a tie) and adds
  ``load_fn(op)`` to that task's load. With ``byte_size_load_fn`` the variables'
  bytes are spread evenly, largest or smallest alike; unlike round robin, a
  big embedding does not land next to another one by accident.

  Args:
    num_tasks: the number of ps tasks to place on.
    load_fn: ``fn(op) -> number``, the load an op adds to its task.
  """

  def __init__(self, num_tasks: int, load_fn: Callable[[Any], float]):
    self._num_tasks = num_tasks
    self._load_fn = load_fn
    self._loads = np.zeros(num_tasks)

  def __call__(self, op: Any) -> int:
    """Returns the ps task index for `op`, and charges its load to that task."""
    task = int(np.argmin(self._loads))
    self._loads[task] += self._load_fn(op)
    return task
