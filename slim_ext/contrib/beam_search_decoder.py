"""tf.contrib.seq2seq's beam search: BeamSearchDecoder and gather_tree, as TF 1.15 had them.

TF1 translation models decode at inference with a ``BeamSearchDecoder`` run by
``dynamic_decode``: each step keeps the ``beam_width`` best partial sequences of each
batch entry (log probabilities summed, optionally divided by GNMT's length penalty and
with a coverage penalty over an AttentionWrapper's alignments), and ``finalize``
follows the parent pointers back (``gather_tree``) to give each beam's whole sequence.
tensorflow-addons' port ended at TensorFlow 2.15 and ``gather_tree`` was a C++ kernel of
contrib; here both are written on tf.compat.v1 ops with TF 1.15's computation, outputs
and states (``BeamSearchDecoderState``, ``BeamSearchDecoderOutput``,
``FinalBeamSearchDecoderOutput``). The decoder makes no variables of its own.
"""
import collections
from typing import Any, Callable, Optional, Tuple

import numpy as np
import tensorflow.compat.v1 as tf

from slim_ext.contrib.attention_wrapper import AttentionWrapperState
from slim_ext.contrib.decoder import Decoder
from slim_ext.contrib.rnn._cell_parts import check_cell

__all__ = ["BeamSearchDecoder", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
           "FinalBeamSearchDecoderOutput", "gather_tree", "gather_tree_from_array",
           "tile_batch"]


def _tile_batch(t: Any, multiplier: int) -> tf.Tensor:
  t = tf.convert_to_tensor(t, name="t")
  if t.shape.ndims is None or t.shape.ndims < 1:
    raise ValueError("t must have statically known rank")
  shape_t = tf.shape(t)
  tiling = [1] * (t.shape.ndims + 1)
  tiling[1] = multiplier
  batch = tf.compat.dimension_value(t.shape[0])
  tiled = tf.reshape(tf.tile(tf.expand_dims(t, 1), tiling),
                     tf.concat(([shape_t[0] * multiplier], shape_t[1:]), 0))
  tiled.set_shape(tf.TensorShape([batch * multiplier if batch is not None else None])
                  .concatenate(t.shape[1:]))
  return tiled


def tile_batch(t: Any, multiplier: int, name: Optional[str] = None) -> Any:
  """TF1's ``tf.contrib.seq2seq.tile_batch``: each batch entry repeated ``multiplier``
  times in place ([a, b] -> [a, a, b, b]), for every tensor of the structure ``t``.

  Raises:
    ValueError: a tensor's rank is not known.
  """
  flat = tf.nest.flatten(t)
  with tf.name_scope(name, "tile_batch", flat + [multiplier]):
    return tf.nest.map_structure(lambda tensor: _tile_batch(tensor, multiplier), t)


class BeamSearchDecoderState(
    collections.namedtuple("BeamSearchDecoderState",
                           ("cell_state", "log_probs", "finished", "lengths",
                            "accumulated_attention_probs"))):
  """TF1's beam search state: each beam's cell state, log probability, whether it
  ended, its length and (with a coverage penalty) its summed attention."""


class BeamSearchDecoderOutput(
    collections.namedtuple("BeamSearchDecoderOutput",
                           ("scores", "predicted_ids", "parent_ids"))):
  """TF1's step output: each beam's score, word and the beam it came from."""


class FinalBeamSearchDecoderOutput(
    collections.namedtuple("FinalBeamDecoderOutput",
                           ["predicted_ids", "beam_search_decoder_output"])):
  """TF1's final output: the whole sequences ([time, batch, beam], or batch-major)
  and the step outputs."""


def gather_tree(step_ids: Any, parent_ids: Any, max_sequence_lengths: Any, end_token: Any,
                name: Optional[str] = None) -> tf.Tensor:
  """Each beam's whole sequence, following the parent pointers back from its end.

  Args:
    step_ids: [max_time, batch_size, beam_width] the words chosen at each step.
    parent_ids: [max_time, batch_size, beam_width] the beam each came from.
    max_sequence_lengths: [batch_size] the steps each batch entry ran.
    end_token: the end token; past the length, and after a beam's first end token,
      every entry is it.
    name: the op scope.

  Returns:
    [max_time, batch_size, beam_width] the sequences, step_ids' dtype.
  """
  with tf.name_scope(name, "GatherTree", [step_ids, parent_ids, max_sequence_lengths]):
    step_ids = tf.convert_to_tensor(step_ids, name="step_ids")
    parent_ids = tf.convert_to_tensor(parent_ids, name="parent_ids")
    end_token = tf.cast(end_token, step_ids.dtype)
    lengths = tf.cast(max_sequence_lengths, tf.int32)
    beams = tf.shape(step_ids)[2]
    steps = tf.range(tf.shape(step_ids)[0])

    def back(carried: Tuple[tf.Tensor, tf.Tensor], step: Tuple[tf.Tensor, ...]
             ) -> Tuple[tf.Tensor, tf.Tensor]:
      """One step back: the word of the beam followed, and that beam's parent."""
      _, follow = carried
      ids, parents, time = step
      inside = tf.expand_dims(time < lengths, 1)
      word = tf.where_v2(inside, tf.gather(ids, follow, batch_dims=1), end_token)
      return word, tf.where_v2(inside, tf.gather(parents, follow, batch_dims=1), follow)

    start = tf.tile(tf.expand_dims(tf.range(beams), 0), [tf.shape(step_ids)[1], 1])
    words, _ = tf.scan(back, (step_ids, tf.cast(parent_ids, tf.int32), steps),
                       initializer=(tf.cast(start, step_ids.dtype), start), reverse=True)
    # After a beam's first end token, only end tokens.
    ended = tf.cumsum(tf.cast(tf.equal(words, end_token), tf.int32), axis=0, exclusive=True)
    words = tf.where(ended > 0, tf.fill(tf.shape(words), end_token), words)
    words.set_shape(step_ids.shape)
    return words


def gather_tree_from_array(t: tf.Tensor, parent_ids: tf.Tensor,
                           sequence_length: tf.Tensor) -> tf.Tensor:
  """``t`` ([max_time, batch_size * beam_width, ...]) reordered along each beam's
  path, as TF1 sorted the TensorArrays of a beam search's final cell state."""
  max_time = tf.compat.dimension_value(parent_ids.shape[0]) or tf.shape(parent_ids)[0]
  batch_size = tf.compat.dimension_value(parent_ids.shape[1]) or tf.shape(parent_ids)[1]
  beam_width = tf.compat.dimension_value(parent_ids.shape[2]) or tf.shape(parent_ids)[2]
  beam_ids = tf.tile(tf.reshape(tf.range(beam_width), [1, 1, -1]), [max_time, batch_size, 1])
  sorted_ids = gather_tree(beam_ids, parent_ids,
                           tf.cast(tf.reduce_max(sequence_length, axis=1), tf.int32),
                           beam_width + 1)
  inside = tf.transpose(tf.sequence_mask(sequence_length, maxlen=max_time), perm=[2, 0, 1])
  sorted_ids = tf.where(inside, sorted_ids, beam_ids)
  times = tf.tile(tf.reshape(tf.range(max_time), [-1, 1, 1]), [1, batch_size, beam_width])
  batches = tf.transpose(tf.tile(tf.reshape(tf.range(batch_size), [-1, 1, 1]),
                                 [1, max_time, beam_width]), perm=[1, 0, 2])
  gathered = tf.gather_nd(tf.reshape(t, [max_time, batch_size, beam_width, -1]),
                          tf.stack([times, batches, sorted_ids], -1))
  return tf.reshape(gathered, tf.shape(t))


def _check_rank(t: tf.Tensor) -> None:
  if t.shape.ndims is None:
    raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")


def _gather_beams(indices: tf.Tensor, params: tf.Tensor, batch_size: Any, range_size: Any,
                  gather_shape: Any, name: Optional[str] = None) -> tf.Tensor:
  """``params`` [batch, range_size, ...] gathered along its second axis by ``indices``
  [batch, beam] (TF1's ``_tensor_gather_helper``)."""
  with tf.name_scope(name, "tensor_gather_helper"):
    offsets = tf.expand_dims(tf.range(batch_size) * range_size, 1)
    flat = tf.gather(tf.reshape(params, gather_shape), tf.reshape(indices + offsets, [-1]))
    out = tf.reshape(flat, tf.shape(params)[:1 + len(gather_shape)], name="output")
    out.set_shape(tf.TensorShape([tf.get_static_value(batch_size)])
                  .concatenate(params.shape[1:1 + len(gather_shape)]))
    return out


def _length_penalty(sequence_lengths: tf.Tensor, penalty_factor: Any) -> Any:
  """GNMT's length penalty ``((5 + length) / 6) ** penalty_factor``; 1 without one."""
  factor = tf.convert_to_tensor(penalty_factor, name="penalty_factor")
  factor.set_shape(())
  if tf.get_static_value(factor) == 0:
    return 1.0
  return tf.div((5. + tf.cast(sequence_lengths, tf.float32)) ** factor, (5. + 1.) ** factor)


def _attention_probs(cell_state: Any, coverage_penalty_weight: float) -> Optional[tf.Tensor]:
  """The alignments of the attentional cells of ``cell_state``, averaged (None without
  a coverage penalty).

  Raises:
    ValueError: a coverage penalty with no attentional cell.
  """
  if coverage_penalty_weight == 0.0:
    return None
  states = [cell_state] if isinstance(cell_state, AttentionWrapperState) else \
      [s for s in cell_state if isinstance(s, AttentionWrapperState)] \
      if isinstance(cell_state, tuple) else []
  if not states:
    raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")

  def mean(probs: Any) -> tf.Tensor:
    if not isinstance(probs, (tuple, list)):
      return probs
    return tf.reduce_mean(tf.concat([tf.expand_dims(p, -1) for p in probs], -1), -1)
  return mean([mean(s.alignments) for s in states])


def _scores(log_probs: tf.Tensor, lengths: tf.Tensor, length_penalty_weight: Any,
            coverage_penalty_weight: Any, finished: tf.Tensor,
            attention_probs: Optional[tf.Tensor]) -> tf.Tensor:
  """Each candidate's score: log probability over the length penalty, plus the
  weighted coverage penalty of the beams that ended.

  Raises:
    ValueError: coverage_penalty_weight is not a scalar.
  """
  scores = log_probs / tf.cast(_length_penalty(lengths, length_penalty_weight),
                               log_probs.dtype)
  coverage_penalty_weight = tf.convert_to_tensor(coverage_penalty_weight,
                                                 name="coverage_penalty_weight")
  if coverage_penalty_weight.shape.ndims != 0:
    raise ValueError("coverage_penalty_weight should be a scalar, but saw shape: "
                     f"{coverage_penalty_weight.shape}")
  if tf.get_static_value(coverage_penalty_weight) == 0.0:
    return scores
  probs = tf.where(tf.equal(attention_probs, 0.0), tf.ones_like(attention_probs),
                   attention_probs)
  coverage = tf.reduce_sum(tf.log(tf.minimum(probs, 1.0)), 2) * tf.cast(finished, tf.float32)
  return scores + tf.expand_dims(coverage * coverage_penalty_weight, 2)


class BeamSearchDecoder(Decoder):
  """TF1's ``tf.contrib.seq2seq.BeamSearchDecoder``."""

  def __init__(self, cell: Any, embedding: Any, start_tokens: Any, end_token: Any,
               initial_state: Any, beam_width: int, output_layer: Any = None,
               length_penalty_weight: float = 0.0, coverage_penalty_weight: float = 0.0,
               reorder_tensor_arrays: bool = True):
    """Creates the decoder.

    Args:
      cell: the RNNCell; its state's batch is batch_size * beam_width (tile_batch).
      embedding: an embedding matrix, or a function of the ids.
      start_tokens: [batch_size] int32.
      end_token: the int32 end token.
      initial_state: the cell's first state ([batch_size * beam_width, ...]).
      beam_width: the number of beams.
      output_layer: a layer over the cell's outputs (to the vocabulary's logits).
      length_penalty_weight: GNMT's length penalty (0: none).
      coverage_penalty_weight: GNMT's coverage penalty (0: none; needs an
        AttentionWrapper).
      reorder_tensor_arrays: reorder the final state's TensorArrays along the beams.

    Raises:
      TypeError: cell is not a cell, or output_layer not a layer.
      ValueError: start_tokens is not a vector, or end_token not a scalar.
    """
    check_cell(cell)
    if output_layer is not None and not isinstance(output_layer, tf.layers.Layer):
      raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
    self._cell = cell
    self._output_layer = output_layer
    self._reorder_tensor_arrays = reorder_tensor_arrays
    self._beam_width = beam_width
    self._length_penalty_weight = length_penalty_weight
    self._coverage_penalty_weight = coverage_penalty_weight
    self._embedding_fn: Callable = embedding if callable(embedding) else \
        (lambda ids: tf.nn.embedding_lookup(embedding, ids))
    start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
    if start_tokens.get_shape().ndims != 1:
      raise ValueError("start_tokens must be a vector")
    self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
    if self._end_token.get_shape().ndims != 0:
      raise ValueError("end_token must be a scalar")
    self._batch_size = tf.size(start_tokens)
    self._initial_cell_state = tf.nest.map_structure(self._maybe_split, initial_state,
                                                     self._cell.state_size)
    self._start_tokens = tf.tile(tf.expand_dims(start_tokens, 1), [1, self._beam_width])
    self._start_inputs = self._embedding_fn(self._start_tokens)
    # Only the first beam of each entry is alive at the start.
    self._finished = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32),
                                depth=self._beam_width, on_value=False, off_value=True,
                                dtype=tf.bool)

  @property
  def batch_size(self) -> Any:
    return self._batch_size

  @property
  def tracks_own_finished(self) -> bool:
    return True

  @property
  def output_size(self) -> BeamSearchDecoderOutput:
    shape = tf.TensorShape([self._beam_width])
    return BeamSearchDecoderOutput(scores=shape, predicted_ids=shape, parent_ids=shape)

  def _rnn_output_size(self) -> Any:
    size = self._cell.output_size
    if self._output_layer is None:
      return size
    shapes = tf.nest.map_structure(lambda s: tf.TensorShape([None]).concatenate(s), size)
    return tf.nest.map_structure(lambda s: s[1:],
                                 self._output_layer.compute_output_shape(shapes))

  @property
  def output_dtype(self) -> BeamSearchDecoderOutput:
    dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
    return BeamSearchDecoderOutput(
        scores=tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
        predicted_ids=tf.int32, parent_ids=tf.int32)

  def initialize(self, name: Optional[str] = None) -> Tuple[Any, Any, BeamSearchDecoderState]:
    """(finished, the start tokens' embeddings, the first state: log probability 0
    for each entry's first beam, -inf for the others)."""
    dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
    log_probs = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32),
                           depth=self._beam_width,
                           on_value=tf.convert_to_tensor(0.0, dtype=dtype),
                           off_value=tf.convert_to_tensor(-np.inf, dtype=dtype), dtype=dtype)
    attention = _attention_probs(self._initial_cell_state, self._coverage_penalty_weight)
    state = BeamSearchDecoderState(
        cell_state=self._initial_cell_state, log_probs=log_probs, finished=self._finished,
        lengths=tf.zeros([self._batch_size, self._beam_width], dtype=tf.int64),
        accumulated_attention_probs=() if attention is None else attention)
    return self._finished, self._start_inputs, state

  def _merge(self, t: tf.Tensor, s: Any = None) -> tf.Tensor:
    """[batch, beam, ...] -> [batch * beam, ...]."""
    s = tf.TensorShape(tf.get_static_value(s)) if isinstance(s, tf.Tensor) \
        else tf.TensorShape(s)
    static_batch = tf.get_static_value(self._batch_size)
    merged = tf.reshape(t, tf.concat(([self._batch_size * self._beam_width],
                                      tf.shape(t)[2:]), 0))
    merged.set_shape(tf.TensorShape([None if static_batch is None
                                     else static_batch * self._beam_width]).concatenate(s))
    return merged

  def _split(self, t: tf.Tensor, s: Any = None) -> tf.Tensor:
    """[batch * beam, ...] -> [batch, beam, ...].

    Raises:
      ValueError: the batch is not batch_size * beam_width.
    """
    s = tf.TensorShape(tf.get_static_value(s)) if isinstance(s, tf.Tensor) \
        else tf.TensorShape(s)
    split = tf.reshape(t, tf.concat(([self._batch_size, self._beam_width],
                                     tf.shape(t)[1:]), 0))
    expected = tf.TensorShape([tf.get_static_value(self._batch_size),
                               self._beam_width]).concatenate(s)
    if not split.shape.is_compatible_with(expected):
      raise ValueError("Unexpected behavior when reshaping between beam width and batch "
                       f"size.  The reshaped tensor has shape: {split.shape}.  We expected "
                       f"it to have shape (batch_size, beam_width, depth) == {expected}.  "
                       "Perhaps you forgot to create a zero_state with "
                       "batch_size=encoder_batch_size * beam_width?")
    split.set_shape(expected)
    return split

  def _maybe_split(self, t: Any, s: Any) -> Any:
    if isinstance(t, tf.TensorArray):
      return t
    _check_rank(t)
    return self._split(t, s) if t.shape.ndims >= 1 else t

  def _maybe_merge(self, t: Any, s: Any) -> Any:
    if isinstance(t, tf.TensorArray):
      return t
    _check_rank(t)
    return self._merge(t, s) if t.shape.ndims >= 2 else t

  def _maybe_sort_array_beams(self, t: Any, parent_ids: tf.Tensor,
                              lengths: tf.Tensor) -> Any:
    """A TensorArray of the final cell state reordered along the beams' paths (where
    its elements are [batch * beam, ...]); anything else as it is."""
    if not isinstance(t, tf.TensorArray):
      return t
    shape = t.element_shape
    if shape.ndims is None or shape.ndims < 1:
      tf.logging.warn(f"The TensorArray {t.handle.name} in the cell state is not amenable to "
                      "sorting based on the beam search result. For a TensorArray to be "
                      "sorted, its elements shape must be defined and have at least a rank "
                      f"of 1, but saw shape: {shape}")
      return t
    static_batch = tf.get_static_value(self._batch_size)
    if static_batch is not None and tf.compat.dimension_value(shape[0]) is not None and (
        shape[0] != static_batch * self._beam_width or (
            shape.ndims >= 2 and tf.compat.dimension_value(shape[1]) is not None
            and (shape[0] != static_batch or shape[1] != self._beam_width))):
      tf.logging.warn("TensorArray reordering expects elements to be reshapable to "
                      f"{tf.TensorShape([static_batch, self._beam_width, None])} which is "
                      f"incompatible with the current shape {shape}. Consider setting "
                      "reorder_tensor_arrays to False to disable TensorArray reordering "
                      "during the beam search.")
      return t
    stacked = t.stack()
    rows = tf.shape(stacked)
    whole = tf.equal(rows[1], self._batch_size * self._beam_width)
    if stacked.shape.ndims != 2:
      whole = tf.logical_or(whole, tf.logical_and(tf.equal(rows[1], self._batch_size),
                                                  tf.equal(rows[2], self._beam_width)))
    check = tf.Assert(whole, [
        "TensorArray reordering expects elements to be reshapable to [batch_size, "
        "beam_size, -1] which is incompatible with the dynamic shape of "
        f"{stacked.name} elements. Consider setting reorder_tensor_arrays to False to "
        "disable TensorArray reordering during the beam search."])
    with tf.control_dependencies([check]):
      return gather_tree_from_array(stacked, parent_ids, lengths)

  def step(self, time: tf.Tensor, inputs: Any, state: BeamSearchDecoderState,
           name: Optional[str] = None) -> Tuple[Any, Any, Any, Any]:
    """One step of every beam: the cell, the best ``beam_width`` continuations."""
    with tf.name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
      inputs = tf.nest.map_structure(lambda inp: self._merge(inp, s=inp.shape[2:]), inputs)
      cell_state = tf.nest.map_structure(self._maybe_merge, state.cell_state,
                                         self._cell.state_size)
      cell_outputs, next_cell_state = self._cell(inputs, cell_state)
      cell_outputs = tf.nest.map_structure(lambda out: self._split(out, out.shape[1:]),
                                           cell_outputs)
      next_cell_state = tf.nest.map_structure(self._maybe_split, next_cell_state,
                                              self._cell.state_size)
      if self._output_layer is not None:
        cell_outputs = self._output_layer(cell_outputs)
      output, next_state = self._search_step(time, cell_outputs, next_cell_state, state)
      finished = next_state.finished
      next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                            lambda: self._embedding_fn(output.predicted_ids))
    return output, next_state, next_inputs, finished

  def _search_step(self, time: tf.Tensor, logits: tf.Tensor, next_cell_state: Any,
                   state: BeamSearchDecoderState
                   ) -> Tuple[BeamSearchDecoderOutput, BeamSearchDecoderState]:
    """The beams after this step: of every beam's continuations (an ended beam's only
    continuation is the end token, at no cost), the best ``beam_width`` by score."""
    batch_size, beam_width = self._batch_size, self._beam_width
    static_batch = tf.get_static_value(batch_size)
    was_finished = state.finished
    alive = tf.logical_not(was_finished)
    step_log_probs = tf.nn.log_softmax(logits)
    vocab_size = tf.compat.dimension_value(logits.shape[-1]) or tf.shape(logits)[-1]
    # An ended beam: log probability 0 for the end token, the lowest float otherwise.
    ended_row = tf.one_hot(self._end_token, tf.shape(step_log_probs)[2],
                           dtype=step_log_probs.dtype,
                           on_value=tf.convert_to_tensor(0.0, dtype=step_log_probs.dtype),
                           off_value=step_log_probs.dtype.min)
    step_log_probs = tf.where(
        tf.tile(tf.expand_dims(was_finished, 2), [1, 1, tf.shape(step_log_probs)[2]]),
        tf.tile(tf.reshape(ended_row, [1, 1, -1]),
                tf.concat([tf.shape(was_finished), [1]], 0)),
        step_log_probs)
    total_probs = tf.expand_dims(state.log_probs, 2) + step_log_probs
    # A live beam grows by one unless it emits the end token.
    grow = tf.one_hot(tf.fill([batch_size, beam_width], self._end_token), depth=vocab_size,
                      on_value=tf.constant(0, tf.int64), off_value=tf.constant(1, tf.int64),
                      dtype=tf.int64) * tf.expand_dims(tf.cast(alive, tf.int64), 2)
    candidate_lengths = grow + tf.expand_dims(state.lengths, 2)
    attention = _attention_probs(next_cell_state, self._coverage_penalty_weight)
    accumulated = None
    if attention is not None:
      accumulated = state.accumulated_attention_probs + \
          attention * tf.expand_dims(tf.cast(alive, tf.float32), 2)
    scores = _scores(total_probs, candidate_lengths, self._length_penalty_weight,
                     self._coverage_penalty_weight, was_finished, accumulated)
    tf.convert_to_tensor(time, name="time")
    best_scores, best = tf.nn.top_k(tf.reshape(scores, [batch_size, -1]),
                                    k=tf.convert_to_tensor(beam_width, dtype=tf.int32,
                                                           name="beam_width"))
    best_scores.set_shape([static_batch, beam_width])
    best.set_shape([static_batch, beam_width])
    next_log_probs = _gather_beams(best, total_probs, batch_size, beam_width * vocab_size,
                                   [-1], name="next_beam_probs")
    word_ids = tf.cast(tf.mod(best, vocab_size, name="next_beam_word_ids"), tf.int32)
    parent_ids = tf.cast(tf.floordiv(best, vocab_size), tf.int32,
                         name="next_beam_parent_ids")
    parent_finished = _gather_beams(parent_ids, was_finished, batch_size, beam_width, [-1])
    next_finished = tf.logical_or(parent_finished, tf.equal(word_ids, self._end_token),
                                  name="next_beam_finished")
    next_lengths = _gather_beams(parent_ids, state.lengths, batch_size, beam_width, [-1]) \
        + tf.cast(tf.logical_not(parent_finished), tf.int64)
    next_accumulated = () if accumulated is None else _gather_beams(
        parent_ids, accumulated, batch_size, beam_width, [batch_size * beam_width, -1],
        name="next_accumulated_attention_probs")

    def reorder(t: Any) -> Any:
      if isinstance(t, tf.TensorArray):
        return t
      _check_rank(t)
      if t.shape.ndims < 2:
        return t
      return _gather_beams(parent_ids, t, batch_size, beam_width,
                           [batch_size * beam_width, -1])
    next_state = BeamSearchDecoderState(
        cell_state=tf.nest.map_structure(reorder, next_cell_state),
        log_probs=next_log_probs, lengths=next_lengths, finished=next_finished,
        accumulated_attention_probs=next_accumulated)
    return BeamSearchDecoderOutput(scores=best_scores, predicted_ids=word_ids,
                                   parent_ids=parent_ids), next_state

  def finalize(self, outputs: BeamSearchDecoderOutput, final_state: BeamSearchDecoderState,
               sequence_lengths: Any) -> Tuple[FinalBeamSearchDecoderOutput, Any]:
    """The whole sequences (gather_tree over the steps' words and parents), and the
    final state with its TensorArrays reordered along the beams."""
    del sequence_lengths
    longest = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
    predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                max_sequence_lengths=longest, end_token=self._end_token)
    if self._reorder_tensor_arrays:
      final_state = final_state._replace(cell_state=tf.nest.map_structure(
          lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids, final_state.lengths),
          final_state.cell_state))
    return FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                        predicted_ids=predicted_ids), final_state
