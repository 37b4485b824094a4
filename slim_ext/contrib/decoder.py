"""tf.contrib.seq2seq's decoder interface and its loop: Decoder and dynamic_decode.

TF 1.15 kept them in ``seq2seq/python/ops/decoder.py``, apart from the decoders built
on them (slim_ext.contrib.seq2seq's ``BasicDecoder``, slim_ext.contrib.beam_search_decoder's
``BeamSearchDecoder``); both modules take them from here.
"""
import abc
from typing import Any, Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn.rnn import transpose_batch_time

__all__ = ["Decoder", "dynamic_decode"]


class Decoder(abc.ABC):
  """TF1's ``tf.contrib.seq2seq.Decoder``: what dynamic_decode runs."""

  @property
  def batch_size(self) -> Any:
    raise NotImplementedError

  @property
  def output_size(self) -> Any:
    raise NotImplementedError

  @property
  def output_dtype(self) -> Any:
    raise NotImplementedError

  @abc.abstractmethod
  def initialize(self, name: Optional[str] = None) -> Tuple[Any, Any, Any]:
    """Returns (finished, initial inputs, initial state)."""

  @abc.abstractmethod
  def step(self, time: tf.Tensor, inputs: Any, state: Any,
           name: Optional[str] = None) -> Tuple[Any, Any, Any, Any]:
    """Returns (outputs, next state, next inputs, finished)."""

  def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> Tuple[Any, Any]:
    raise NotImplementedError

  @property
  def tracks_own_finished(self) -> bool:
    return False


def _zeros(size: Any, dtype: tf.DType, batch_size: Any) -> tf.Tensor:
  """Zeros of shape [batch_size] + size (TF1's ``_zero_state_tensors`` of one entry)."""
  shape = tf.TensorShape(size)
  zeros = tf.zeros(tf.concat([[batch_size], tf.constant(shape.as_list(), dtype=tf.int32)], 0),
                   dtype=dtype)
  static_batch = tf.get_static_value(batch_size)
  zeros.set_shape(tf.TensorShape([static_batch]).concatenate(shape))
  return zeros


def dynamic_decode(decoder: Decoder, output_time_major: bool = False,
                   impute_finished: bool = False, maximum_iterations: Any = None,
                   parallel_iterations: int = 32, swap_memory: bool = False,
                   scope: Optional[Any] = None) -> Tuple[Any, Any, tf.Tensor]:
  """TF1's ``tf.contrib.seq2seq.dynamic_decode``: steps ``decoder`` until every sequence
  is finished (or ``maximum_iterations``).

  Args:
    decoder: a Decoder.
    output_time_major: return [time, batch, ...] outputs (else [batch, time, ...]).
    impute_finished: zero the outputs and keep the state of finished sequences.
    maximum_iterations: the most steps.
    parallel_iterations: the while_loop's.
    swap_memory: the while_loop's.
    scope: the variable scope ("decoder").

  Returns:
    (final outputs, final state, final sequence lengths).

  Raises:
    TypeError: decoder is no Decoder.
    ValueError: maximum_iterations is not a scalar.
  """
  if not isinstance(decoder, Decoder):
    raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
  with tf.variable_scope(scope, "decoder") as varscope:
    if not tf.executing_eagerly() and varscope.caching_device is None:
      varscope.set_caching_device(lambda op: op.device)
    if maximum_iterations is not None:
      maximum_iterations = tf.convert_to_tensor(maximum_iterations, dtype=tf.int32,
                                                name="maximum_iterations")
      if maximum_iterations.get_shape().ndims != 0:
        raise ValueError("maximum_iterations must be a scalar")
    initial_finished, initial_inputs, initial_state = decoder.initialize()
    zero_outputs = tf.nest.map_structure(
        lambda size, dtype: _zeros(size, dtype, decoder.batch_size),
        decoder.output_size, decoder.output_dtype)
    if maximum_iterations is not None:
      initial_finished = tf.logical_or(initial_finished, 0 >= maximum_iterations)
    initial_lengths = tf.zeros_like(initial_finished, dtype=tf.int32)
    static_batch = tf.get_static_value(tf.convert_to_tensor(decoder.batch_size))

    def element_shape(size: Any) -> Optional[tf.TensorShape]:
      if not isinstance(size, tf.TensorShape) or size.ndims == 0:
        return None
      return tf.TensorShape([static_batch]).concatenate(size)

    initial_outputs_ta = tf.nest.map_structure(
        lambda size, dtype: tf.TensorArray(dtype=dtype, size=0, dynamic_size=True,
                                           element_shape=element_shape(size)),
        decoder.output_size, decoder.output_dtype)

    def condition(unused_time, unused_outputs_ta, unused_state, unused_inputs, finished,
                  unused_lengths):
      return tf.logical_not(tf.reduce_all(finished))

    def body(time, outputs_ta, state, inputs, finished, lengths):
      next_outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
          time, inputs, state)
      next_finished = decoder_finished if decoder.tracks_own_finished else \
          tf.logical_or(decoder_finished, finished)
      next_lengths = tf.where(tf.logical_not(finished),
                              tf.fill(tf.shape(lengths), time + 1), lengths)
      tf.nest.assert_same_structure(state, decoder_state)
      tf.nest.assert_same_structure(outputs_ta, next_outputs)
      tf.nest.assert_same_structure(inputs, next_inputs)
      emit = tf.nest.map_structure(lambda out, zero: tf.where(finished, zero, out),
                                   next_outputs, zero_outputs) if impute_finished \
          else next_outputs

      def keep_finished_state(new: Any, current: Any) -> Any:
        if isinstance(current, tf.TensorArray):
          return new
        new.set_shape(current.shape)
        return new if new.shape.ndims == 0 else tf.where(finished, current, new)

      next_state = tf.nest.map_structure(keep_finished_state, decoder_state, state) \
          if impute_finished else decoder_state
      outputs_ta = tf.nest.map_structure(lambda ta, out: ta.write(time, out), outputs_ta,
                                         emit)
      return time + 1, outputs_ta, next_state, next_inputs, next_finished, next_lengths

    result = tf.while_loop(
        condition, body,
        loop_vars=(tf.constant(0, dtype=tf.int32), initial_outputs_ta, initial_state,
                   initial_inputs, initial_finished, initial_lengths),
        parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
        swap_memory=swap_memory)
    final_outputs = tf.nest.map_structure(lambda ta: ta.stack(), result[1])
    final_state, final_lengths = result[2], result[5]
    try:
      final_outputs, final_state = decoder.finalize(final_outputs, final_state, final_lengths)
    except NotImplementedError:
      pass
    if not output_time_major:
      final_outputs = tf.nest.map_structure(transpose_batch_time, final_outputs)
  return final_outputs, final_state, final_lengths
