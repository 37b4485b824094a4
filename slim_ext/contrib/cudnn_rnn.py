"""tf.contrib.cudnn_rnn on TensorFlow 2: the cuDNN-compatible cells; the cuDNN layers reported.

TF1 code trained with ``CudnnLSTM`` / ``CudnnGRU`` on a GPU and ran the same
weights anywhere with ``CudnnCompatibleLSTMCell`` / ``CudnnCompatibleGRUCell``.
The compatible cells are here, with TF1's variable names
(``cudnn_compatible_lstm_cell/kernel``, ``.../bias``; ``gates/kernel``,
``candidate/input_projection/kernel``, ``candidate/hidden_projection/kernel`` and
their biases), so checkpoints restore. The cuDNN layers themselves, their saveables
and parameter converters ran only on a GPU with cuDNN and have no TensorFlow 2
home: they are stand-ins that raise RemovedInTF2Error when used, naming
``tf.keras.layers.LSTM`` / ``GRU`` (which pick cuDNN themselves on a GPU) and the
compatible cells.
"""
from typing import Any, Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.removed import removed_class
from slim_ext.contrib.rnn.lstm_ops import LSTMBlockCell

__all__ = ["CudnnCompatibleGRUCell", "CudnnCompatibleLSTMCell", "CudnnGRU",
           "CudnnGRUSaveable", "CudnnLSTM", "CudnnLSTMSaveable",
           "CudnnParamsFormatConverterGRU", "CudnnParamsFormatConverterLSTM",
           "CudnnParamsFormatConverterRelu", "CudnnParamsFormatConverterTanh",
           "CudnnRNNRelu", "CudnnRNNReluSaveable", "CudnnRNNTanh", "CudnnRNNTanhSaveable"]


class CudnnCompatibleLSTMCell(LSTMBlockCell):
  """TF1's ``tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell``: LSTMBlockCell with forget
  bias 0 (cuDNN's biases carry it), no clipping or peepholes, named
  ``cudnn_compatible_lstm_cell``."""

  def __init__(self, num_units: int, reuse: Optional[bool] = None):
    super().__init__(num_units, forget_bias=0, cell_clip=None, use_peephole=False,
                     reuse=reuse, name="cudnn_compatible_lstm_cell")


class CudnnCompatibleGRUCell(tf.nn.rnn_cell.GRUCell):
  """TF1's ``tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell``: cuDNN's GRU variant, where the
  reset gate scales the projected previous state (plus its own bias):

    h' = tanh(x @ W_h + b_Wh + r * (h_prev @ R_h + b_Rh)); h = (1 - u) * h' + u * h_prev
  """

  def __init__(self, num_units: int, reuse: Optional[bool] = None,
               kernel_initializer: Optional[Any] = None):
    super().__init__(num_units, activation=None, reuse=reuse,
                     kernel_initializer=kernel_initializer)

  def build(self, inputs_shape: tf.TensorShape) -> None:
    input_depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
    if input_depth is None:
      raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {inputs_shape}")
    units = self._num_units

    def bias(name: str, shape: list, default: Any) -> tf.Variable:
      return self.add_weight(name, shape=shape,
                             initializer=self._bias_initializer or default)

    self._gate_kernel = self.add_weight("gates/kernel", shape=[input_depth + units, 2 * units],
                                        initializer=self._kernel_initializer)
    self._gate_bias = bias("gates/bias", [2 * units],
                           tf.constant_initializer(1.0, dtype=self.dtype))
    self._candidate_input_kernel = self.add_weight(
        "candidate/input_projection/kernel", shape=[input_depth, units],
        initializer=self._kernel_initializer)
    self._candidate_hidden_kernel = self.add_weight(
        "candidate/hidden_projection/kernel", shape=[units, units],
        initializer=self._kernel_initializer)
    self._candidate_input_bias = bias("candidate/input_projection/bias", [units],
                                      tf.zeros_initializer(dtype=self.dtype))
    self._candidate_hidden_bias = bias("candidate/hidden_projection/bias", [units],
                                       tf.zeros_initializer(dtype=self.dtype))
    self.built = True

  def call(self, inputs: tf.Tensor, state: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    gates = tf.sigmoid(tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1),
                                                self._gate_kernel), self._gate_bias))
    r, u = tf.split(gates, 2, axis=1)
    candidate = tf.nn.bias_add(tf.matmul(inputs, self._candidate_input_kernel),
                               self._candidate_input_bias)
    candidate += r * tf.nn.bias_add(tf.matmul(state, self._candidate_hidden_kernel),
                                    self._candidate_hidden_bias)
    new_h = (1 - u) * self._activation(candidate) + u * state
    return new_h, new_h


_LAYERS = ("tf.keras.layers.LSTM / tf.keras.layers.GRU (they use cuDNN on a GPU "
           "themselves), or the CudnnCompatible*Cell of this module with "
           "tf.compat.v1.nn.dynamic_rnn (the same variables as TF1's canonical "
           "checkpoint format)")
_SAVEABLES = ("the CudnnCompatible*Cell of this module, which saves and restores the "
              "canonical (non-cuDNN) variables by name")
CudnnLSTM = removed_class("tf.contrib.cudnn_rnn.CudnnLSTM", _LAYERS)
CudnnGRU = removed_class("tf.contrib.cudnn_rnn.CudnnGRU", _LAYERS)
CudnnRNNTanh = removed_class("tf.contrib.cudnn_rnn.CudnnRNNTanh", _LAYERS)
CudnnRNNRelu = removed_class("tf.contrib.cudnn_rnn.CudnnRNNRelu", _LAYERS)
CudnnLSTMSaveable = removed_class("tf.contrib.cudnn_rnn.CudnnLSTMSaveable", _SAVEABLES)
CudnnGRUSaveable = removed_class("tf.contrib.cudnn_rnn.CudnnGRUSaveable", _SAVEABLES)
CudnnRNNTanhSaveable = removed_class("tf.contrib.cudnn_rnn.CudnnRNNTanhSaveable", _SAVEABLES)
CudnnRNNReluSaveable = removed_class("tf.contrib.cudnn_rnn.CudnnRNNReluSaveable", _SAVEABLES)
CudnnParamsFormatConverterLSTM = removed_class(
    "tf.contrib.cudnn_rnn.CudnnParamsFormatConverterLSTM", _SAVEABLES)
CudnnParamsFormatConverterGRU = removed_class(
    "tf.contrib.cudnn_rnn.CudnnParamsFormatConverterGRU", _SAVEABLES)
CudnnParamsFormatConverterTanh = removed_class(
    "tf.contrib.cudnn_rnn.CudnnParamsFormatConverterTanh", _SAVEABLES)
CudnnParamsFormatConverterRelu = removed_class(
    "tf.contrib.cudnn_rnn.CudnnParamsFormatConverterRelu", _SAVEABLES)
