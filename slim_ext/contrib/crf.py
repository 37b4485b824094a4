"""tf.contrib.crf on TensorFlow 2: the linear-chain CRF of TF1's sequence taggers.

TF1 named-entity and part-of-speech taggers put a CRF on top of their recurrent
layers: ``crf_log_likelihood`` for the loss (making the ``transitions`` variable in
the caller's variable scope when no matrix is given), ``crf_decode`` in the graph or
``viterbi_decode`` in NumPy for the best tag sequence. tensorflow-addons' ``tfa.text``
had them last, on TensorFlow <= 2.15; nothing has them on 2.16+. Here they are on
tf.compat.v1 with TF 1.15's computation: the forward and decoding passes are
``dynamic_rnn`` over TF1's three cells, a one-step sequence takes the short path TF1
took, and a sequence of length 0 scores 0. The variable keeps TF1's name and shape
(``<scope>/transitions``, [num_tags, num_tags], the scope's default initializer), so
a TF1 tagger's checkpoint restores.

Example:
  with tf.variable_scope("crf"):
    log_likelihood, transitions = crf_log_likelihood(logits, tags, lengths)
  loss = tf.reduce_mean(-log_likelihood)
  tags, score = crf_decode(logits, transitions, lengths)
"""
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn._cell_parts import RNNCell

__all__ = ["CrfDecodeBackwardRnnCell", "CrfDecodeForwardRnnCell", "CrfForwardRnnCell",
           "crf_binary_score", "crf_decode", "crf_log_likelihood", "crf_log_norm",
           "crf_multitag_sequence_score", "crf_sequence_score", "crf_unary_score",
           "viterbi_decode"]


def _one_step_or_more(inputs: tf.Tensor, one_step: Callable[[], Any],
                      more_steps: Callable[[], Any]) -> Any:
  """``one_step()`` when ``inputs`` ([batch, time, tags]) has one time step, else
  ``more_steps()``: chosen while building when the length is known, else by tf.cond."""
  steps = tf.compat.dimension_value(inputs.shape[1])
  if steps is None:
    return tf.cond(tf.equal(tf.shape(inputs)[1], 1), one_step, more_steps)
  return one_step() if steps == 1 else more_steps()


def _zero_where_empty(values: tf.Tensor, sequence_lengths: tf.Tensor) -> tf.Tensor:
  """``values`` with 0 for the sequences of length 0 (or less)."""
  return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(values), values)


def _lengths_less_one(sequence_lengths: tf.Tensor) -> tf.Tensor:
  return tf.maximum(tf.constant(0, dtype=sequence_lengths.dtype), sequence_lengths - 1)


def _length_mask(sequence_lengths: tf.Tensor, tag_indices: tf.Tensor) -> tf.Tensor:
  return tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1],
                          dtype=tf.float32)


def crf_sequence_score(inputs: Any, tag_indices: Any, sequence_lengths: Any,
                       transition_params: Any) -> tf.Tensor:
  """The unnormalized score of each tag sequence: its unary plus its binary scores.

  Args:
    inputs: [batch_size, max_seq_len, num_tags] unary potentials.
    tag_indices: [batch_size, max_seq_len] tag indices to score (int32 or int64).
    sequence_lengths: [batch_size] true sequence lengths.
    transition_params: [num_tags, num_tags] binary potentials (from tag i to tag j).

  Returns:
    [batch_size] scores.
  """
  def one_step() -> tf.Tensor:
    batch = tf.shape(inputs, out_type=tag_indices.dtype)[0]
    rows = tf.reshape(tf.range(batch, dtype=tag_indices.dtype), [-1, 1])
    scores = tf.gather_nd(tf.squeeze(inputs, [1]), tf.concat([rows, tag_indices], axis=1))
    return _zero_where_empty(scores, sequence_lengths)

  def more_steps() -> tf.Tensor:
    return (crf_unary_score(tag_indices, sequence_lengths, inputs)
            + crf_binary_score(tag_indices, sequence_lengths, transition_params))
  return _one_step_or_more(inputs, one_step, more_steps)


def crf_multitag_sequence_score(inputs: Any, tag_bitmap: Any, sequence_lengths: Any,
                                transition_params: Any) -> tf.Tensor:
  """The unnormalized score of all the tag sequences ``tag_bitmap`` allows (several
  tags may be right at one step; one-hot rows give ``crf_sequence_score``).

  Args:
    inputs: [batch_size, max_seq_len, num_tags] unary potentials.
    tag_bitmap: [batch_size, max_seq_len, num_tags] booleans: the allowed tags.
    sequence_lengths: [batch_size] true sequence lengths.
    transition_params: [num_tags, num_tags] binary potentials.

  Returns:
    [batch_size] scores (the log-sum-exp over the allowed sequences).
  """
  def allowed() -> tf.Tensor:
    return tf.where(tag_bitmap, inputs, tf.fill(tf.shape(inputs), float("-inf")))

  return _one_step_or_more(
      inputs, lambda: tf.reduce_logsumexp(allowed(), axis=[1, 2], keepdims=False),
      lambda: crf_log_norm(allowed(), sequence_lengths, transition_params))


def crf_log_norm(inputs: Any, sequence_lengths: Any, transition_params: Any) -> tf.Tensor:
  """The log partition function of each sequence: the forward algorithm.

  Args:
    inputs: [batch_size, max_seq_len, num_tags] unary potentials.
    sequence_lengths: [batch_size] true sequence lengths.
    transition_params: [num_tags, num_tags] binary potentials.

  Returns:
    [batch_size] log normalizers (0 for an empty sequence).
  """
  first_input = tf.squeeze(tf.slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])

  def one_step() -> tf.Tensor:
    return _zero_where_empty(tf.reduce_logsumexp(first_input, [1]), sequence_lengths)

  def more_steps() -> tf.Tensor:
    _, alphas = tf.nn.dynamic_rnn(
        cell=CrfForwardRnnCell(transition_params),
        inputs=tf.slice(inputs, [0, 1, 0], [-1, -1, -1]),
        sequence_length=_lengths_less_one(sequence_lengths), initial_state=first_input,
        dtype=tf.float32)
    return _zero_where_empty(tf.reduce_logsumexp(alphas, [1]), sequence_lengths)
  return _one_step_or_more(inputs, one_step, more_steps)


def crf_log_likelihood(inputs: Any, tag_indices: Any, sequence_lengths: Any,
                       transition_params: Any = None) -> Tuple[tf.Tensor, Any]:
  """The log-likelihood of each tag sequence under the CRF.

  Args:
    inputs: [batch_size, max_seq_len, num_tags] unary potentials (num_tags known).
    tag_indices: [batch_size, max_seq_len] tag indices.
    sequence_lengths: [batch_size] true sequence lengths.
    transition_params: [num_tags, num_tags] binary potentials; when None, the variable
      ``transitions`` is made (or reused) in the current variable scope.

  Returns:
    (log_likelihood [batch_size], transition_params: the one given or made).
  """
  num_tags = tf.compat.dimension_value(inputs.shape[2])
  if transition_params is None:
    transition_params = tf.get_variable("transitions", [num_tags, num_tags])
  scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
  return scores - crf_log_norm(inputs, sequence_lengths, transition_params), \
      transition_params


def crf_unary_score(tag_indices: Any, sequence_lengths: Any, inputs: Any) -> tf.Tensor:
  """The sum of each sequence's unary potentials at its tags, within its length.

  Args:
    tag_indices: [batch_size, max_seq_len] tag indices.
    sequence_lengths: [batch_size] true sequence lengths.
    inputs: [batch_size, max_seq_len, num_tags] unary potentials.

  Returns:
    [batch_size] unary scores.
  """
  batch, steps, num_tags = tf.unstack(tf.shape(inputs))
  # Index of (b, t, tag) in the flat inputs: b * steps * num_tags + t * num_tags + tag.
  offsets = (tf.expand_dims(tf.range(batch) * steps * num_tags, 1)
             + tf.expand_dims(tf.range(steps) * num_tags, 0))
  if tag_indices.dtype == tf.int64:
    offsets = tf.cast(offsets, tf.int64)
  picked = tf.gather(tf.reshape(inputs, [-1]), tf.reshape(offsets + tag_indices, [-1]))
  unary = tf.reshape(picked, [batch, steps])
  return tf.reduce_sum(unary * _length_mask(sequence_lengths, tag_indices), 1)


def crf_binary_score(tag_indices: Any, sequence_lengths: Any,
                     transition_params: Any) -> tf.Tensor:
  """The sum of each sequence's transition potentials between its tags.

  Args:
    tag_indices: [batch_size, max_seq_len] tag indices.
    sequence_lengths: [batch_size] true sequence lengths.
    transition_params: [num_tags, num_tags] binary potentials.

  Returns:
    [batch_size] binary scores.
  """
  num_tags = transition_params.get_shape()[0]
  transitions = tf.shape(tag_indices)[1] - 1
  from_tags = tf.slice(tag_indices, [0, 0], [-1, transitions])
  to_tags = tf.slice(tag_indices, [0, 1], [-1, transitions])
  binary = tf.gather(tf.reshape(transition_params, [-1]), from_tags * num_tags + to_tags)
  # The transition into step t counts when step t is inside the sequence.
  inside = tf.slice(_length_mask(sequence_lengths, tag_indices), [0, 1], [-1, -1])
  return tf.reduce_sum(binary * inside, 1)


class _TransitionCell(RNNCell):
  """A cell of TF1's CRF: no variables, the transition matrix broadcast over the batch."""

  def __init__(self, transition_params: Any):
    super().__init__()
    self._transition_params = tf.expand_dims(transition_params, 0)
    self._num_tags = tf.compat.dimension_value(transition_params.shape[0])

  @property
  def state_size(self) -> int:
    return self._num_tags

  @property
  def output_size(self) -> int:
    return self._num_tags


class CrfForwardRnnCell(_TransitionCell):
  """TF1's forward-algorithm cell: the state and the output are the alphas
  (``inputs + logsumexp over the previous tag of (alphas + transitions)``)."""

  def __call__(self, inputs: tf.Tensor, state: tf.Tensor,
               scope: Optional[str] = None) -> Tuple[tf.Tensor, tf.Tensor]:
    """One step: [batch, num_tags] potentials and alphas -> the new alphas, twice."""
    scores = tf.expand_dims(state, 2) + self._transition_params
    alphas = inputs + tf.reduce_logsumexp(scores, [1])
    return alphas, alphas


class CrfDecodeForwardRnnCell(_TransitionCell):
  """TF1's Viterbi forward cell: the state is the best score ending in each tag, the
  output the best previous tag (int32 backpointers)."""

  def __call__(self, inputs: tf.Tensor, state: tf.Tensor,
               scope: Optional[str] = None) -> Tuple[tf.Tensor, tf.Tensor]:
    """One step: [batch, num_tags] potentials and scores -> (backpointers, scores)."""
    scores = tf.expand_dims(state, 2) + self._transition_params
    backpointers = tf.cast(tf.argmax(scores, 1), dtype=tf.int32)
    return backpointers, inputs + tf.reduce_max(scores, [1])


class CrfDecodeBackwardRnnCell(RNNCell):
  """TF1's Viterbi backward cell: follows the backpointers from the last tag."""

  def __init__(self, num_tags: int):
    super().__init__()
    self._num_tags = num_tags

  @property
  def state_size(self) -> int:
    return 1

  @property
  def output_size(self) -> int:
    return 1

  def __call__(self, inputs: tf.Tensor, state: tf.Tensor,
               scope: Optional[str] = None) -> Tuple[tf.Tensor, tf.Tensor]:
    """One step: [batch, num_tags] backpointers and [batch, 1] tags -> the earlier
    [batch, 1] tags, twice."""
    tags = tf.squeeze(state, axis=[1])
    rows = tf.range(tf.shape(inputs)[0])
    earlier = tf.expand_dims(tf.gather_nd(inputs, tf.stack([rows, tags], axis=1)), axis=-1)
    return earlier, earlier


def viterbi_decode(score: np.ndarray, transition_params: np.ndarray
                   ) -> Tuple[List[int], Any]:
  """The best tag sequence of one sequence, in NumPy (outside the graph).

  Args:
    score: [seq_len, num_tags] unary potentials.
    transition_params: [num_tags, num_tags] binary potentials.

  Returns:
    (the best tags, a list of seq_len ints; their score).
  """
  best = np.zeros_like(score)
  pointers = np.zeros_like(score, dtype=np.int32)
  best[0] = score[0]
  for step in range(1, score.shape[0]):
    candidates = best[step - 1][:, np.newaxis] + transition_params
    best[step] = score[step] + candidates.max(axis=0)
    pointers[step] = candidates.argmax(axis=0)
  tags = [np.argmax(best[-1])]
  for step_pointers in pointers[:0:-1]:
    tags.append(step_pointers[tags[-1]])
  return tags[::-1], np.max(best[-1])


def crf_decode(potentials: Any, transition_params: Any,
               sequence_length: Any) -> Tuple[tf.Tensor, tf.Tensor]:
  """The best tag sequence of each sequence, in the graph (Viterbi).

  Args:
    potentials: [batch_size, max_seq_len, num_tags] unary potentials.
    transition_params: [num_tags, num_tags] binary potentials.
    sequence_length: [batch_size] true sequence lengths.

  Returns:
    (decode_tags: [batch_size, max_seq_len] int32, best_score: [batch_size]).
  """
  def one_step() -> Tuple[tf.Tensor, tf.Tensor]:
    squeezed = tf.squeeze(potentials, [1])
    tags = tf.expand_dims(tf.argmax(squeezed, axis=1), 1)
    return tf.cast(tags, dtype=tf.int32), tf.reduce_max(squeezed, axis=1)

  def more_steps() -> Tuple[tf.Tensor, tf.Tensor]:
    num_tags = tf.compat.dimension_value(potentials.shape[2])
    less_one = _lengths_less_one(sequence_length)
    backpointers, last_score = tf.nn.dynamic_rnn(
        CrfDecodeForwardRnnCell(transition_params),
        inputs=tf.slice(potentials, [0, 1, 0], [-1, -1, -1]), sequence_length=less_one,
        initial_state=tf.squeeze(tf.slice(potentials, [0, 0, 0], [-1, 1, -1]), axis=[1]),
        time_major=False, dtype=tf.int32)
    backpointers = tf.reverse_sequence(backpointers, less_one, seq_axis=1)
    last_tag = tf.expand_dims(tf.cast(tf.argmax(last_score, axis=1), dtype=tf.int32), -1)
    earlier_tags, _ = tf.nn.dynamic_rnn(
        CrfDecodeBackwardRnnCell(num_tags), inputs=backpointers, sequence_length=less_one,
        initial_state=last_tag, time_major=False, dtype=tf.int32)
    tags = tf.concat([last_tag, tf.squeeze(earlier_tags, axis=[2])], axis=1)
    tags = tf.reverse_sequence(tags, sequence_length, seq_axis=1)
    return tags, tf.reduce_max(last_score, axis=1)
  return _one_step_or_more(potentials, one_step, more_steps)
