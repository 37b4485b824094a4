"""tf.contrib.rnn's projection and embedding wrappers (contrib/rnn/python/ops/core_rnn_cell.py).

Each wraps a cell and makes its variables while it runs, in the wrapper's scope
(``input_projection_wrapper``, ``output_projection_wrapper``,
``embedding_wrapper``), as TF1 did: ``kernel`` and ``bias`` for a projection,
``embedding`` for the embedding; the wrapped cell's variables go under it.
"""
import math
from typing import Any, Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn._cell_parts import Activation, Linear, RNNCell, Wrapper, check_cell

__all__ = ["EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper",
           "BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell",
           "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "ResidualWrapper"]

# TF 1.0-1.1's module of this name also held the core cells, which TF 1.2 moved to
# tf.nn.rnn_cell (renaming their variables kernel and bias, from weights and biases):
# code of that time reaches them here (tflearn 0.3.2's fallback for old TensorFlows).
BasicLSTMCell = tf.nn.rnn_cell.BasicLSTMCell
BasicRNNCell = tf.nn.rnn_cell.BasicRNNCell
DeviceWrapper = tf.nn.rnn_cell.DeviceWrapper
DropoutWrapper = tf.nn.rnn_cell.DropoutWrapper
GRUCell = tf.nn.rnn_cell.GRUCell
LSTMCell = tf.nn.rnn_cell.LSTMCell
LSTMStateTuple = tf.nn.rnn_cell.LSTMStateTuple
MultiRNNCell = tf.nn.rnn_cell.MultiRNNCell
ResidualWrapper = tf.nn.rnn_cell.ResidualWrapper


class _CheckedWrapper(Wrapper):
  """A wrapper that checks its cell when it is made."""

  def __init__(self, cell: RNNCell, reuse: Optional[bool] = None):
    super().__init__(_reuse=reuse)
    check_cell(cell)
    self._cell = cell


class EmbeddingWrapper(_CheckedWrapper):
  """TF1's ``tf.contrib.rnn.EmbeddingWrapper``: embeds integer inputs before the cell."""

  def __init__(self, cell: RNNCell, embedding_classes: int, embedding_size: int,
               initializer: Optional[Any] = None, reuse: Optional[bool] = None):
    """Wraps ``cell``.

    Args:
      cell: the cell the embedded inputs go to.
      embedding_classes: how many symbols are embedded.
      embedding_size: the size of each symbol's vector.
      initializer: the embedding's initializer; else the scope's, else uniform in
        [-sqrt(3), sqrt(3)] (variance 1).
      reuse: whether to reuse the variables of an existing scope.

    Raises:
      TypeError: cell is not an RNN cell.
      ValueError: embedding_classes or embedding_size is not positive.
    """
    super().__init__(cell, reuse)
    if embedding_classes <= 0 or embedding_size <= 0:
      raise ValueError("Both embedding_classes and embedding_size must be > 0: "
                       f"{embedding_classes}, {embedding_size}.")
    self._embedding_classes = embedding_classes
    self._embedding_size = embedding_size
    self._initializer = initializer

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, Any]:
    with tf.device("/cpu:0"):
      initializer = self._initializer or tf.get_variable_scope().initializer
      if not initializer:
        limit = math.sqrt(3)
        initializer = tf.random_uniform_initializer(-limit, limit)
      dtype = state[0].dtype if isinstance(state, tuple) else state.dtype
      embedding = tf.get_variable("embedding", [self._embedding_classes,
                                                self._embedding_size],
                                  initializer=initializer, dtype=dtype)
      embedded = tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1]))
    return self._cell(embedded, state)


class InputProjectionWrapper(_CheckedWrapper):
  """TF1's ``tf.contrib.rnn.InputProjectionWrapper``: projects the inputs before the cell."""

  def __init__(self, cell: RNNCell, num_proj: int, activation: Optional[Activation] = None,
               input_size: Optional[int] = None, reuse: Optional[bool] = None):
    """Wraps ``cell``.

    Args:
      cell: the cell the projected inputs go to.
      num_proj: the size of the projection.
      activation: applied to the projection, if given.
      input_size: deprecated in TF1 and unused.
      reuse: whether to reuse the variables of an existing scope.
    """
    super().__init__(cell, reuse)
    if input_size is not None:
      tf.logging.warn("%s: The input_size parameter is deprecated.", self)
    self._num_proj = num_proj
    self._activation = activation
    self._linear = None

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, Any]:
    if self._linear is None:
      self._linear = Linear(inputs, self._num_proj, True)
    projected = self._linear(inputs)
    if self._activation:
      projected = self._activation(projected)
    return self._cell(projected, state)


class OutputProjectionWrapper(_CheckedWrapper):
  """TF1's ``tf.contrib.rnn.OutputProjectionWrapper``: projects the cell's output."""

  def __init__(self, cell: RNNCell, output_size: int,
               activation: Optional[Activation] = None, reuse: Optional[bool] = None):
    """Wraps ``cell``.

    Args:
      cell: the cell whose output is projected.
      output_size: the size of the projection.
      activation: applied to the projection, if given.
      reuse: whether to reuse the variables of an existing scope.

    Raises:
      ValueError: output_size is not positive.
    """
    super().__init__(cell, reuse)
    if output_size < 1:
      raise ValueError(f"Parameter output_size must be > 0: {output_size}.")
    self._output_size = output_size
    self._activation = activation
    self._linear = None

  @property
  def output_size(self) -> int:
    return self._output_size

  def call(self, inputs: tf.Tensor, state: Any) -> Tuple[tf.Tensor, Any]:
    output, new_state = self._cell(inputs, state)
    if self._linear is None:
      self._linear = Linear(output, self._output_size, True)
    projected = self._linear(output)
    if self._activation:
      projected = self._activation(projected)
    return projected, new_state
