"""tf.contrib.rnn's stacked bidirectional RNNs (contrib/rnn/python/ops/rnn.py).

Each layer is a forward and a backward cell; the concatenation of their outputs is
the next layer's input. Variables are made as in TF1, under
``stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/<cell scope>/``.
"""
from typing import Any, Callable, List, Optional, Sequence, Tuple

import tensorflow.compat.v1 as tf

__all__ = ["best_effort_input_batch_size", "stack_bidirectional_dynamic_rnn",
           "stack_bidirectional_rnn", "transpose_batch_time"]


def _check_layers(cells_fw: Sequence[Any], cells_bw: Sequence[Any],
                  initial_states_fw: Optional[Sequence[Any]],
                  initial_states_bw: Optional[Sequence[Any]]) -> None:
  if not cells_fw:
    raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
  if not cells_bw:
    raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
  if not isinstance(cells_fw, list):
    raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
  if not isinstance(cells_bw, list):
    raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
  if len(cells_fw) != len(cells_bw):
    raise ValueError("Forward and Backward cells must have the same depth.")
  for name, states in (("initial_states_fw", initial_states_fw),
                       ("initial_states_bw", initial_states_bw)):
    if states is not None and (not isinstance(states, list) or len(states) != len(cells_fw)):
      raise ValueError(f"{name} must be a list of state tensors (one per layer).")


def _stack(cells_fw: List[Any], cells_bw: List[Any], inputs: Any,
           initial_states_fw: Optional[List[Any]], initial_states_bw: Optional[List[Any]],
           scope: Optional[Any], run_layer: Callable[..., Tuple[Any, Any, Any]]
           ) -> Tuple[Any, tuple, tuple]:
  """Runs ``run_layer(cell_fw, cell_bw, inputs, initial_fw, initial_bw, cell_scope)`` ->
  (outputs, state_fw, state_bw) for each layer, in ``cell_<i>`` scopes, each layer's
  outputs the next one's inputs.

  Raises:
    ValueError: the cell lists or initial state lists do not match.
  """
  _check_layers(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
  states_fw, states_bw = [], []
  with tf.variable_scope(scope or "stack_bidirectional_rnn"):
    for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
      with tf.variable_scope(f"cell_{i}") as cell_scope:
        inputs, state_fw, state_bw = run_layer(
            cell_fw, cell_bw, inputs, initial_states_fw[i] if initial_states_fw else None,
            initial_states_bw[i] if initial_states_bw else None, cell_scope)
      states_fw.append(state_fw)
      states_bw.append(state_bw)
  return inputs, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_rnn(cells_fw: List[Any], cells_bw: List[Any], inputs: List[Any],
                            initial_states_fw: Optional[List[Any]] = None,
                            initial_states_bw: Optional[List[Any]] = None,
                            dtype: Optional[tf.DType] = None,
                            sequence_length: Optional[Any] = None,
                            scope: Optional[Any] = None) -> Tuple[Any, tuple, tuple]:
  """TF1's ``tf.contrib.rnn.stack_bidirectional_rnn`` (static_bidirectional_rnn per layer).

  Args:
    cells_fw: the forward cells, one per layer.
    cells_bw: the backward cells, one per layer.
    inputs: a list of [batch, depth] tensors, one per time step.
    initial_states_fw: the forward initial states, one per layer (zeros if None).
    initial_states_bw: the backward initial states, one per layer.
    dtype: the dtype of zero initial states.
    sequence_length: [batch] lengths.
    scope: the variable scope ("stack_bidirectional_rnn").

  Returns:
    (outputs: a list of depth-concatenated forward and backward outputs, the
    forward final states, the backward final states), one state per layer.

  Raises:
    ValueError: the cell lists or initial state lists do not match.
  """
  def run_layer(cell_fw, cell_bw, layer_inputs, initial_fw, initial_bw, cell_scope):
    return tf.nn.static_bidirectional_rnn(
        cell_fw, cell_bw, layer_inputs, initial_state_fw=initial_fw,
        initial_state_bw=initial_bw, sequence_length=sequence_length, dtype=dtype,
        scope=cell_scope)
  return _stack(cells_fw, cells_bw, inputs, initial_states_fw, initial_states_bw, scope,
                run_layer)


def stack_bidirectional_dynamic_rnn(cells_fw: List[Any], cells_bw: List[Any], inputs: Any,
                                    initial_states_fw: Optional[List[Any]] = None,
                                    initial_states_bw: Optional[List[Any]] = None,
                                    dtype: Optional[tf.DType] = None,
                                    sequence_length: Optional[Any] = None,
                                    parallel_iterations: Optional[int] = None,
                                    time_major: bool = False,
                                    scope: Optional[Any] = None) -> Tuple[Any, tuple, tuple]:
  """TF1's ``tf.contrib.rnn.stack_bidirectional_dynamic_rnn`` (bidirectional_dynamic_rnn
  per layer).

  Args:
    cells_fw: the forward cells, one per layer.
    cells_bw: the backward cells, one per layer.
    inputs: [batch, time, depth] ([time, batch, depth] if time_major).
    initial_states_fw: the forward initial states, one per layer (zeros if None).
    initial_states_bw: the backward initial states, one per layer.
    dtype: the dtype of zero initial states.
    sequence_length: [batch] lengths.
    parallel_iterations: passed to each layer's dynamic RNN.
    time_major: whether inputs and outputs are time-major.
    scope: the variable scope ("stack_bidirectional_rnn").

  Returns:
    (outputs: the depth-concatenated forward and backward outputs of the last
    layer, the forward final states, the backward final states), one per layer.

  Raises:
    ValueError: the cell lists or initial state lists do not match.
  """
  def run_layer(cell_fw, cell_bw, layer_inputs, initial_fw, initial_bw, unused_scope):
    outputs, (state_fw, state_bw) = tf.nn.bidirectional_dynamic_rnn(
        cell_fw, cell_bw, layer_inputs, initial_state_fw=initial_fw,
        initial_state_bw=initial_bw, sequence_length=sequence_length,
        parallel_iterations=parallel_iterations, dtype=dtype, time_major=time_major)
    return tf.concat(outputs, 2), state_fw, state_bw
  return _stack(cells_fw, cells_bw, inputs, initial_states_fw, initial_states_bw, scope,
                run_layer)


def transpose_batch_time(x: Any) -> tf.Tensor:
  """TF1's ``tf.contrib.rnn.transpose_batch_time``: swaps the first two axes (rank >= 2).

  Raises:
    ValueError: x has a known rank below 2.
  """
  x = tf.convert_to_tensor(x)
  rank = x.get_shape().ndims
  if rank is not None and rank < 2:
    raise ValueError(f"Expected input tensor {x} to have rank at least 2, but saw shape: "
                     f"{x.get_shape()}")
  if rank is not None:
    permutation = [1, 0, *range(2, rank)]
  else:
    permutation = tf.concat([[1, 0], tf.range(2, tf.rank(x))], axis=0)
  result = tf.transpose(x, permutation)
  static = x.get_shape()
  if rank is not None:
    result.set_shape(tf.TensorShape([static[1], static[0]]).concatenate(static[2:]))
  return result


def best_effort_input_batch_size(flat_input: Sequence[tf.Tensor]) -> Any:
  """TF1's ``tf.contrib.rnn.best_effort_input_batch_size``: the batch size of time-major
  inputs, static if any input knows it, else the first input's dynamic one.

  Raises:
    ValueError: an input has rank below 2, or there is no input.
  """
  if not flat_input:
    raise ValueError("The batch size of no input cannot be known")
  for value in flat_input:
    shape = value.get_shape()
    if shape.ndims is None:
      continue
    if shape.ndims < 2:
      raise ValueError(f"Expected input tensor {value} to have rank at least 2")
    batch_size = tf.compat.dimension_value(shape[1])
    if batch_size is not None:
      return batch_size
  return tf.shape(flat_input[0])[1]
