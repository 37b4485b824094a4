"""tf.contrib.rnn's fused-cell interface (contrib/rnn/python/ops/fused_rnn_cell.py).

A fused cell runs a whole time-major sequence in one call:
``cell(inputs, initial_state=None, dtype=None, sequence_length=None, scope=None)``
returns (outputs, final state). ``FusedRNNCellAdaptor`` makes one of an ordinary
cell (with ``static_rnn`` or ``dynamic_rnn``), ``TimeReversedFusedRNN`` runs a
fused cell backwards in time (the backward half of a bidirectional LSTM).
"""
import abc
from typing import Any, Optional

import tensorflow.compat.v1 as tf

__all__ = ["FusedRNNCell", "FusedRNNCellAdaptor", "TimeReversedFusedRNN"]


class FusedRNNCell(abc.ABC):
  """TF1's ``tf.contrib.rnn.FusedRNNCell``: the interface of a fused RNN."""

  @abc.abstractmethod
  def __call__(self, inputs: Any, initial_state: Optional[Any] = None,
               dtype: Optional[tf.DType] = None, sequence_length: Optional[Any] = None,
               scope: Optional[Any] = None) -> Any:
    """Runs the RNN over ``inputs`` ([time, batch, depth] or a list of [batch, depth]).

    Returns:
      (outputs, final state); the outputs are a list when the inputs were.
    """


class FusedRNNCellAdaptor(FusedRNNCell):
  """TF1's ``tf.contrib.rnn.FusedRNNCellAdaptor``: an RNN cell as a fused cell."""

  def __init__(self, cell: Any, use_dynamic_rnn: bool = False):
    """Adapts ``cell``; ``use_dynamic_rnn``: run it with dynamic_rnn, else static_rnn."""
    self._cell = cell
    self._use_dynamic_rnn = use_dynamic_rnn

  def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None,
               scope=None):
    is_list = isinstance(inputs, list)
    if self._use_dynamic_rnn:
      outputs, state = tf.nn.dynamic_rnn(
          self._cell, tf.stack(inputs) if is_list else inputs,
          sequence_length=sequence_length, initial_state=initial_state, dtype=dtype,
          time_major=True, scope=scope)
      return (tf.unstack(outputs) if is_list else outputs), state
    outputs, state = tf.nn.static_rnn(
        self._cell, inputs if is_list else tf.unstack(inputs), initial_state=initial_state,
        dtype=dtype, sequence_length=sequence_length, scope=scope)
    return (outputs if is_list else tf.stack(outputs)), state


class TimeReversedFusedRNN(FusedRNNCell):
  """TF1's ``tf.contrib.rnn.TimeReversedFusedRNN``: runs a fused cell backwards in time.

  With ``sequence_length``, each sequence is reversed within its own length.
  """

  def __init__(self, cell: FusedRNNCell):
    self._cell = cell

  @staticmethod
  def _reverse(values: Any, lengths: Optional[Any]) -> Any:
    if isinstance(values, list):
      return list(reversed(values))
    if lengths is None:
      return tf.reverse(values, [0])
    return tf.reverse_sequence(values, lengths, 0, 1)

  def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None,
               scope=None):
    outputs, state = self._cell(self._reverse(inputs, sequence_length),
                                initial_state=initial_state, dtype=dtype,
                                sequence_length=sequence_length, scope=scope)
    return self._reverse(outputs, sequence_length), state
