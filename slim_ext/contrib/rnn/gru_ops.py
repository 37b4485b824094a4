"""tf.contrib.rnn's block GRU cells (contrib/rnn/python/ops/gru_ops.py), on tf.compat.v1.

TensorFlow 2 keeps the ``GRUBlockCell`` kernel but not its gradient; the step is
written with the kernel's equations in core ops:

  [r, u] = sigmoid([x, h_prev] @ w_ru + b_ru)
  c = tanh([x, r * h_prev] @ w_c + b_c)
  h = (1 - u) * c + u * h_prev

TF 1.15's variable names are kept: ``w_ru``, ``b_ru``, ``w_c``, ``b_c`` for
``GRUBlockCell``; ``gates/kernel``, ``gates/bias``, ``candidate/kernel``,
``candidate/bias`` for ``GRUBlockCellV2``, as ``tf.nn.rnn_cell.GRUCell`` names them.
The gate bias starts at 1, the candidate's at 0.
"""
from typing import Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn._cell_parts import LayerRNNCell, UnitSizes

__all__ = ["GRUBlockCell", "GRUBlockCellV2"]


class GRUBlockCell(UnitSizes, LayerRNNCell):
  """TF1's ``tf.contrib.rnn.GRUBlockCell`` (deprecated there for GRUBlockCellV2)."""

  _NAMES = {"gate_kernel": "w_ru", "gate_bias": "b_ru", "candidate_kernel": "w_c",
            "candidate_bias": "b_c"}

  def __init__(self, num_units: Optional[int] = None, cell_size: Optional[int] = None,
               reuse: Optional[bool] = None, name: str = "gru_cell"):
    """Creates the cell.

    Args:
      num_units: the number of units.
      cell_size: the old name of ``num_units``.
      reuse: whether to reuse the variables of an existing scope.
      name: the layer name.

    Raises:
      ValueError: not exactly one of num_units and cell_size.
    """
    super().__init__(_reuse=reuse, name=name)
    if (cell_size is None) == (num_units is None):
      raise ValueError("Exactly one of num_units or cell_size must be provided.")
    self._num_units = num_units if num_units is not None else cell_size
    self.input_spec = tf.layers.InputSpec(ndim=2)

  def build(self, input_shape: tf.TensorShape) -> None:
    input_size = tf.compat.dimension_value(tf.TensorShape(input_shape)[1])
    if input_size is None:
      raise ValueError("Expecting input_size to be set.")
    rows = input_size + self._num_units
    names = self._NAMES
    self._gate_kernel = self.add_weight(names["gate_kernel"], [rows, self._num_units * 2])
    self._gate_bias = self.add_weight(names["gate_bias"], [self._num_units * 2],
                                      initializer=tf.constant_initializer(1.0))
    self._candidate_kernel = self.add_weight(names["candidate_kernel"],
                                             [rows, self._num_units])
    self._candidate_bias = self.add_weight(names["candidate_bias"], [self._num_units],
                                           initializer=tf.constant_initializer(0.0))
    self.built = True

  def call(self, inputs: tf.Tensor, h_prev: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    cell_size = tf.compat.dimension_value(h_prev.get_shape().with_rank(2)[1])
    if cell_size != self._num_units:
      raise ValueError(f"Shape of h_prev[1] incorrect: cell_size {self._num_units} vs "
                       f"{cell_size}")
    gates = tf.sigmoid(tf.nn.bias_add(tf.matmul(tf.concat([inputs, h_prev], 1),
                                                self._gate_kernel), self._gate_bias))
    r, u = tf.split(gates, 2, axis=1)
    c = tf.tanh(tf.nn.bias_add(tf.matmul(tf.concat([inputs, r * h_prev], 1),
                                         self._candidate_kernel), self._candidate_bias))
    h = (1 - u) * c + u * h_prev
    return h, h


class GRUBlockCellV2(GRUBlockCell):
  """TF1's ``tf.contrib.rnn.GRUBlockCellV2``: GRUBlockCell with GRUCell's variable names."""

  _NAMES = {"gate_kernel": "gates/kernel", "gate_bias": "gates/bias",
            "candidate_kernel": "candidate/kernel", "candidate_bias": "candidate/bias"}
