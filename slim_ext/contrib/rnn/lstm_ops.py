"""tf.contrib.rnn's block LSTM cells (contrib/rnn/python/ops/lstm_ops.py), on tf.compat.v1.

``LSTMBlockCell`` ran one step as a single kernel; TensorFlow 2 keeps the kernel
(``LSTMBlockCell`` op) but not its gradient, so the step is written here with the
kernel's equations in core ops (the same numbers, and differentiable). The fused
cell runs the whole sequence with the ``BlockLSTM`` kernel, whose gradient core
TensorFlow still registers. Variables, their shapes and initial values are TF1's:
``kernel`` ([input + units, 4 * units], gates i, c, f, o), ``bias`` (zeros) and the
peepholes ``w_i_diag``, ``w_f_diag``, ``w_o_diag``, under the cell's layer scope
(``lstm_cell`` by default, as ``tf.nn.rnn_cell.LSTMCell``), so TF1 checkpoints load.
"""
from typing import Any, Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn._cell_parts import LayerRNNCell, LSTMSizes, LSTMStateTuple

__all__ = ["LSTMBlockCell", "LSTMBlockFusedCell", "LSTMBlockWrapper"]


def lstm_block_step(inputs: tf.Tensor, cs_prev: tf.Tensor, h_prev: tf.Tensor,
                    kernel: tf.Tensor, bias: tf.Tensor,
                    peepholes: Optional[Tuple[tf.Tensor, tf.Tensor, tf.Tensor]],
                    forget_bias: float, cell_clip: float) -> Tuple[tf.Tensor, tf.Tensor]:
  """One step of TF1's LSTMBlockCell kernel: returns (cs, h).

  ``i, ci, f, o = split([x, h_prev] @ kernel + bias)``; the peepholes read the
  previous cell state for i and f and the new one for o; ``cell_clip`` > 0 clips
  the cell state.
  """
  gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h_prev], 1), kernel), bias)
  i, ci, f, o = tf.split(gates, 4, axis=1)
  if peepholes is not None:
    w_i, w_f, w_o = peepholes
    i += cs_prev * w_i
    f += cs_prev * w_f
  cs = tf.sigmoid(f + forget_bias) * cs_prev + tf.sigmoid(i) * tf.tanh(ci)
  if cell_clip > 0:
    cs = tf.clip_by_value(cs, -cell_clip, cell_clip)
  if peepholes is not None:
    o += cs * peepholes[2]
  return cs, tf.sigmoid(o) * tf.tanh(cs)


class LSTMBlockCell(LSTMSizes, LayerRNNCell):
  """TF1's ``tf.contrib.rnn.LSTMBlockCell``: a basic LSTM cell, one fused step.

  ``forget_bias`` (default 1) is added to the forget gate's pre-activation.
  """

  def __init__(self, num_units: int, forget_bias: float = 1.0,
               cell_clip: Optional[float] = None, use_peephole: bool = False,
               dtype: Optional[tf.DType] = None, reuse: Optional[bool] = None,
               name: str = "lstm_cell"):
    """Creates the cell.

    Args:
      num_units: the number of units.
      forget_bias: added to the forget gate's pre-activation.
      cell_clip: clips the cell state to [-cell_clip, cell_clip]; None: no clipping.
      use_peephole: whether to use the diagonal peephole connections.
      dtype: the variables' dtype.
      reuse: whether to reuse the variables of an existing scope.
      name: the layer name ("lstm_cell": LSTMCell's variable names).
    """
    super().__init__(_reuse=reuse, dtype=dtype, name=name)
    self._num_units = num_units
    self._forget_bias = forget_bias
    self._use_peephole = use_peephole
    self._cell_clip = cell_clip if cell_clip is not None else -1
    self.input_spec = tf.layers.InputSpec(ndim=2)

  def build(self, inputs_shape: tf.TensorShape) -> None:
    input_size = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
    if not input_size:
      raise ValueError(f"Expecting inputs_shape[1] to be set: {inputs_shape}")
    self._kernel = self.add_weight("kernel", [input_size + self._num_units,
                                              self._num_units * 4])
    self._bias = self.add_weight("bias", [self._num_units * 4],
                                 initializer=tf.constant_initializer(0.0))
    self._peepholes = None
    if self._use_peephole:
      self._peepholes = tuple(self.add_weight(name, [self._num_units])
                              for name in ("w_i_diag", "w_f_diag", "w_o_diag"))
    self.built = True

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, LSTMStateTuple]:
    if len(state) != 2:
      raise ValueError("Expecting state to be a tuple with length 2.")
    cs_prev, h_prev = state
    cs, h = lstm_block_step(inputs, cs_prev, h_prev, self._kernel, self._bias,
                            self._peepholes, self._forget_bias, self._cell_clip)
    return h, LSTMStateTuple(cs, h)


class LSTMBlockWrapper(tf.layers.Layer):
  """TF1's base of the fused LSTMs: runs ``_call_cell`` over a time-major sequence.

  Subclasses implement ``num_units`` and ``_call_cell(inputs, initial_cell_state,
  initial_output, dtype, sequence_length)`` -> (cell states, outputs), both
  ``[time, batch, units]``.
  """

  @property
  def num_units(self) -> int:
    raise NotImplementedError

  def _call_cell(self, inputs, initial_cell_state, initial_output, dtype, sequence_length):
    raise NotImplementedError

  def call(self, inputs: Any, initial_state: Optional[Tuple[tf.Tensor, tf.Tensor]] = None,
           dtype: Optional[tf.DType] = None, sequence_length: Optional[Any] = None):
    """Runs the LSTM over ``inputs`` ([time, batch, input] or a list of [batch, input]).

    Args:
      inputs: the sequence, time-major.
      initial_state: (cell state, output), each [batch, units]; zeros if None.
      dtype: the dtype of the zero initial state (needed without initial_state).
      sequence_length: [batch] lengths; the outputs past them are zeros and the
        final state is each sequence's last valid one.

    Returns:
      (outputs, LSTMStateTuple(final cell state, final output)); the outputs are a
      list when the inputs were.

    Raises:
      ValueError: the input depth is unknown, or neither initial_state nor dtype.
    """
    is_list = isinstance(inputs, list)
    if is_list:
      inputs = tf.stack(inputs)
    inputs_shape = inputs.get_shape().with_rank(3)
    if not tf.compat.dimension_value(inputs_shape[2]):
      raise ValueError(f"Expecting inputs_shape[2] to be set: {inputs_shape}")
    batch_size = tf.compat.dimension_value(inputs_shape[1])
    if batch_size is None:
      batch_size = tf.shape(inputs)[1]
    time_len = tf.compat.dimension_value(inputs_shape[0])
    if time_len is None:
      time_len = tf.shape(inputs)[0]
    if initial_state is None:
      if dtype is None:
        raise ValueError("Either initial_state or dtype needs to be specified")
      zeros = tf.zeros(tf.stack([batch_size, self.num_units]), dtype=dtype)
      initial_state = zeros, zeros
    else:
      if len(initial_state) != 2:
        raise ValueError("Expecting initial_state to be a tuple with length 2 or None")
      dtype = dtype or initial_state[0].dtype
    if sequence_length is not None:
      sequence_length = tf.convert_to_tensor(sequence_length)
    initial_cell_state, initial_output = initial_state
    cell_states, outputs = self._call_cell(inputs, initial_cell_state, initial_output,
                                           dtype, sequence_length)
    if sequence_length is None:
      final_cell_state, final_output = cell_states[-1], outputs[-1]
    else:
      mask = tf.transpose(tf.sequence_mask(sequence_length, time_len, dtype=dtype), [1, 0])
      outputs *= tf.tile(tf.expand_dims(mask, -1), [1, 1, self.num_units])
      # Index 0 is the initial state: a sequence of length 0 ends there.
      final_cell_state = self._last_valid(initial_cell_state, cell_states, sequence_length,
                                          batch_size)
      final_output = self._last_valid(initial_output, outputs, sequence_length, batch_size)
    if is_list:
      outputs = tf.unstack(outputs)
    return outputs, LSTMStateTuple(final_cell_state, final_output)

  @staticmethod
  def _last_valid(initial: tf.Tensor, steps: tf.Tensor, lengths: tf.Tensor,
                  batch_size: Any) -> tf.Tensor:
    data = tf.concat([tf.expand_dims(initial, 0), steps], 0)
    return tf.gather_nd(data, tf.stack([lengths, tf.range(batch_size)], axis=1))


class LSTMBlockFusedCell(LSTMBlockWrapper):
  """TF1's ``tf.contrib.rnn.LSTMBlockFusedCell``: the whole sequence in one kernel."""

  def __init__(self, num_units: int, forget_bias: float = 1.0,
               cell_clip: Optional[float] = None, use_peephole: bool = False,
               reuse: Optional[bool] = None, dtype: Optional[tf.DType] = None,
               name: str = "lstm_fused_cell"):
    """Creates the cell (arguments as LSTMBlockCell's)."""
    super().__init__(_reuse=reuse, name=name, dtype=dtype)
    self._num_units = num_units
    self._forget_bias = forget_bias
    self._cell_clip = cell_clip if cell_clip is not None else -1
    self._use_peephole = use_peephole
    self.input_spec = tf.layers.InputSpec(ndim=3)

  @property
  def num_units(self) -> int:
    return self._num_units

  def build(self, input_shape: tf.TensorShape) -> None:
    input_size = tf.compat.dimension_value(tf.TensorShape(input_shape)[2])
    self._kernel = self.add_weight("kernel", [input_size + self._num_units,
                                              self._num_units * 4])
    self._bias = self.add_weight("bias", [self._num_units * 4],
                                 initializer=tf.constant_initializer(0.0))
    if self._use_peephole:
      self._w_i_diag = self.add_weight("w_i_diag", [self._num_units])
      self._w_f_diag = self.add_weight("w_f_diag", [self._num_units])
      self._w_o_diag = self.add_weight("w_o_diag", [self._num_units])
    self.built = True

  def _call_cell(self, inputs, initial_cell_state=None, initial_output=None, dtype=None,
                 sequence_length=None):
    time_len = tf.compat.dimension_value(inputs.get_shape().with_rank(3)[0])
    if time_len is None:
      time_len = tf.shape(inputs)[0]
    if self._use_peephole:
      wci, wcf, wco = self._w_i_diag, self._w_f_diag, self._w_o_diag
    else:
      wci = wcf = wco = tf.zeros([self._num_units], dtype=dtype)
    if sequence_length is None:
      max_length = tf.cast(time_len, tf.int64)
    else:
      max_length = tf.cast(tf.reduce_max(sequence_length), tf.int64)
    result = tf.raw_ops.BlockLSTM(
        seq_len_max=max_length, x=inputs, cs_prev=initial_cell_state,
        h_prev=initial_output, w=self._kernel, wci=wci, wcf=wcf, wco=wco, b=self._bias,
        forget_bias=self._forget_bias, cell_clip=self._cell_clip,
        use_peephole=self._use_peephole)
    return result.cs, result.h

