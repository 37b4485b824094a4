"""What the tf.contrib.rnn stand-ins share: TF1's cell base, linear maps, layer norm.

TF1's contrib cells were written on three pieces of ``rnn_cell_impl``: ``RNNCell``
(variables made with ``get_variable`` while the cell runs, in the scope the
caller is in), ``LayerRNNCell`` (variables made once in ``build``, in the cell's
own layer scope) and ``_Linear`` (one ``kernel`` and one ``bias`` for the concat
of its arguments). TensorFlow 2's ``tf.compat.v1.nn.rnn_cell`` still has the
first two (tf_keras' legacy cells on 2.16+, made reachable by slim_ext's shims),
so the stand-ins sit on them and their variables get the names TF1 gave them.
(``import slim_ext``, which runs before any of its submodules, applies those shims.)
"""
from typing import Any, Callable, Optional, Sequence, Union

import tensorflow.compat.v1 as tf
import tf_slim

RNNCell = tf.nn.rnn_cell.RNNCell
# TF1's LayerRNNCell is not exported; it is the base of the exported cells.
LayerRNNCell = tf.nn.rnn_cell.BasicRNNCell.__bases__[0]
LSTMStateTuple = tf.nn.rnn_cell.LSTMStateTuple

_Tensors = Union[tf.Tensor, Sequence[tf.Tensor]]


def static_size(tensor: tf.Tensor, axis: int = -1) -> int:
  """The static size of ``tensor`` along ``axis``.

  Raises:
    ValueError: the size is not known when the graph is built.
  """
  size = tf.compat.dimension_value(tensor.get_shape()[axis])
  if size is None:
    raise ValueError(f"the size of {tensor} along axis {axis} must be known "
                     f"(shape {tensor.get_shape()})")
  return size


def input_depth(inputs: tf.Tensor) -> int:
  """The static depth of a cell's [batch, depth] inputs.

  Raises:
    ValueError: the inputs are not 2-D or their depth is unknown.
  """
  inputs.get_shape().with_rank(2)
  return static_size(inputs, 1)


class Linear:
  """TF1's ``_Linear``: ``concat(args) @ kernel + bias``, variables made when built.

  Both variables are made in the variable scope current at construction, named
  ``kernel`` and ``bias`` as in TF1 (the bias without the scope's partitioner).
  """

  def __init__(self, args: _Tensors, output_size: int, build_bias: bool,
               bias_initializer: Optional[Any] = None,
               kernel_initializer: Optional[Any] = None):
    args = list(args) if isinstance(args, (list, tuple)) else [args]
    if not args:
      raise ValueError("`args` must be specified")
    for arg in args:
      if arg.get_shape().ndims != 2:
        raise ValueError(f"linear is expecting 2D arguments: {[a.get_shape() for a in args]}")
    input_size = sum(static_size(arg, 1) for arg in args)
    dtype = args[0].dtype
    self._build_bias = build_bias
    with tf.variable_scope(tf.get_variable_scope()) as outer_scope:
      self._kernel = tf.get_variable("kernel", [input_size, output_size], dtype=dtype,
                                     initializer=kernel_initializer)
      if build_bias:
        with tf.variable_scope(outer_scope) as inner_scope:
          inner_scope.set_partitioner(None)
          self._bias = tf.get_variable(
              "bias", [output_size], dtype=dtype,
              initializer=bias_initializer or tf.constant_initializer(0.0, dtype=dtype))

  def product(self, args: _Tensors) -> tf.Tensor:
    """``concat(args) @ kernel``, without the bias."""
    args = list(args) if isinstance(args, (list, tuple)) else [args]
    return tf.matmul(args[0] if len(args) == 1 else tf.concat(args, 1), self._kernel)

  def __call__(self, args: _Tensors) -> tf.Tensor:
    product = self.product(args)
    return tf.nn.bias_add(product, self._bias) if self._build_bias else product


def layer_norm(inputs: tf.Tensor, scope: str, gain: float, shift: float) -> tf.Tensor:
  """TF1's cells' layer norm: ``gamma``/``beta`` under ``scope``, made with the cell's
  initial gain and shift, then ``contrib.layers.layer_norm`` (tf_slim's) reusing them.
  """
  shape = inputs.get_shape()[-1:]
  with tf.variable_scope(scope):
    tf.get_variable("gamma", shape=shape, dtype=inputs.dtype,
                    initializer=tf.constant_initializer(gain))
    tf.get_variable("beta", shape=shape, dtype=inputs.dtype,
                    initializer=tf.constant_initializer(shift))
  return tf_slim.layer_norm(inputs, reuse=True, scope=scope)


def sharded_variable(name: str, shape: Sequence[int], dtype: tf.DType,
                     num_shards: int) -> tf.Tensor:
  """TF1's ``_get_concat_variable``: ``name`` split row-wise into ``name_0``..., concatenated.

  Raises:
    ValueError: more shards than rows.
  """
  if num_shards > shape[0]:
    raise ValueError(f"Too many shards: shape={shape}, num_shards={num_shards}")
  rows, extra = divmod(shape[0], num_shards)
  shards = [tf.get_variable(f"{name}_{i}", [rows + (1 if i < extra else 0), *shape[1:]],
                            dtype=dtype) for i in range(num_shards)]
  if len(shards) == 1:
    return shards[0]
  concat_name = f"{tf.get_variable_scope().name}/{name}/concat:0"
  for value in tf.get_collection(tf.GraphKeys.CONCATENATED_VARIABLES):
    if value.name == concat_name:
      return value
  value = tf.concat(shards, 0, name=f"{name}/concat")
  tf.add_to_collection(tf.GraphKeys.CONCATENATED_VARIABLES, value)
  return value


class LSTMSizes:
  """``state_size`` and ``output_size`` of an LSTM of ``_num_units`` units and an optional
  ``_num_proj`` projection (a mixin before the cell's base class)."""

  _num_proj: Optional[int] = None

  @property
  def state_size(self) -> LSTMStateTuple:
    return LSTMStateTuple(self._num_units, self._num_proj or self._num_units)

  @property
  def output_size(self) -> int:
    return self._num_proj or self._num_units


class UnitSizes:
  """``state_size`` and ``output_size`` of a cell whose state is its ``_num_units``-wide
  output (a mixin before the cell's base class)."""

  @property
  def state_size(self) -> int:
    return self._num_units

  @property
  def output_size(self) -> int:
    return self._num_units


class Wrapper(RNNCell):
  """A cell around ``_cell``: its state and output sizes, and its zero state under the
  wrapper's name (TF1's wrappers' shared part)."""

  _cell: Any

  @property
  def state_size(self) -> Any:
    return self._cell.state_size

  @property
  def output_size(self) -> Any:
    return self._cell.output_size

  def zero_state(self, batch_size: Any, dtype: tf.DType) -> Any:
    with tf.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
      return self._cell.zero_state(batch_size, dtype)


def is_cell(cell: Any) -> bool:
  """Whether ``cell`` behaves as an RNN cell (TF1's ``_like_rnncell``)."""
  return (hasattr(cell, "output_size") and hasattr(cell, "state_size")
          and hasattr(cell, "zero_state") and callable(cell))


def check_cell(cell: Any) -> None:
  """Raises:
    TypeError: ``cell`` is not an RNN cell.
  """
  if not is_cell(cell):
    raise TypeError(f"The parameter cell is not RNNCell: {cell!r}")


Activation = Callable[[tf.Tensor], tf.Tensor]
