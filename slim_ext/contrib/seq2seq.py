"""tf.contrib.seq2seq's decoding loop on TensorFlow 2: helpers, BasicDecoder, dynamic_decode.

TF1 sequence models decode with a ``Helper`` (what to feed the next step: the
ground truth, the previous sample, an embedding of it), a ``BasicDecoder`` (the cell,
the optional output layer, the helper) and ``dynamic_decode`` (a ``while_loop`` over
the steps until every sequence is finished). TensorFlow 2 has none of them, and
tensorflow-addons' ``tfa.seq2seq`` (another API: samplers for helpers) ends at
TensorFlow 2.15. They are written here on tf.compat.v1 with TF 1.15's graphs and
semantics: the decoder makes no variables of its own (the cell's and the output
layer's are the cell's and the layer's), ``dynamic_decode`` runs in the ``decoder``
variable scope, and the outputs, final state and sequence lengths are TF1's.

The attention mechanisms (Bahdanau, Luong, and their monotonic forms) and the
``AttentionWrapper`` are TF 1.15's, from slim_ext.contrib.attention_wrapper, and so are
the ``BeamSearchDecoder`` and ``gather_tree``, from slim_ext.contrib.beam_search_decoder
(loaded on first use).
"""
import abc
import collections
from typing import Any, Callable, Optional, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib.attention_wrapper import (
    AttentionMechanism, AttentionWrapper, AttentionWrapperState, BahdanauAttention,
    BahdanauMonotonicAttention, LuongAttention, LuongMonotonicAttention, hardmax,
    monotonic_attention, safe_cumprod)
from slim_ext.contrib.decoder import Decoder, dynamic_decode
from slim_ext.contrib.rnn._cell_parts import check_cell
from slim_ext.contrib.rnn.rnn import transpose_batch_time

__all__ = ["AttentionMechanism", "AttentionWrapper", "AttentionWrapperState", "BahdanauAttention",
           "BahdanauMonotonicAttention", "LuongMonotonicAttention", "monotonic_attention",
           "safe_cumprod",
           "LuongAttention", "BasicDecoder", "BasicDecoderOutput", "CustomHelper", "Decoder",
           "GreedyEmbeddingHelper", "Helper", "InferenceHelper", "SampleEmbeddingHelper",
           "ScheduledEmbeddingTrainingHelper", "ScheduledOutputTrainingHelper", "TrainingHelper",
           "dynamic_decode", "hardmax", "sequence_loss"]


# -- sampling ------------------------------------------------------------------------------

def _call_sampler(sample_n: Callable[[tf.Tensor], tf.Tensor], sample_shape: Any) -> tf.Tensor:
  """Draws ``prod(sample_shape)`` samples with ``sample_n`` and shapes them."""
  sample_shape = tf.convert_to_tensor(sample_shape, dtype=tf.int32, name="sample_shape")
  pad = tf.cast(tf.equal(tf.rank(sample_shape), 0), tf.int32)
  sample_shape = tf.reshape(sample_shape, tf.pad(tf.shape(sample_shape), paddings=[[pad, 0]],
                                                 constant_values=1))
  samples = sample_n(tf.reduce_prod(sample_shape))
  return tf.reshape(samples, tf.concat([sample_shape, tf.shape(samples)[1:]], 0))


def bernoulli_sample(probs: Any = None, logits: Any = None, dtype: tf.DType = tf.int32,
                     sample_shape: Any = (), seed: Optional[int] = None) -> tf.Tensor:
  """Bernoulli draws (``uniform < probs``), as TF1's helpers drew them."""
  probs = tf.sigmoid(logits, name="probs") if probs is None else \
      tf.convert_to_tensor(probs, name="probs")
  batch_shape = tf.shape(probs)

  def sample_n(n: tf.Tensor) -> tf.Tensor:
    uniform = tf.random_uniform(tf.concat([[n], batch_shape], 0), seed=seed, dtype=probs.dtype)
    return tf.cast(tf.less(uniform, probs), dtype)
  return _call_sampler(sample_n, sample_shape)


def categorical_sample(logits: Any, dtype: tf.DType = tf.int32, sample_shape: Any = (),
                       seed: Optional[int] = None) -> tf.Tensor:
  """Categorical draws from ``logits`` (``tf.multinomial``), as TF1's helpers drew them."""
  logits = tf.convert_to_tensor(logits, name="logits")
  event_size = tf.shape(logits)[-1]
  batch_shape = tf.shape(logits)[:-1]

  def sample_n(n: tf.Tensor) -> tf.Tensor:
    logits_2d = logits if logits.shape.ndims == 2 else tf.reshape(logits, [-1, event_size])
    sample_dtype = tf.int64 if logits.dtype.size > 4 else tf.int32
    draws = tf.random.categorical(logits_2d, n, seed=seed, dtype=sample_dtype)
    draws = tf.reshape(tf.transpose(draws), tf.concat([[n], batch_shape], 0))
    return tf.cast(draws, dtype)
  return _call_sampler(sample_n, sample_shape)


def _unstack_ta(inputs: tf.Tensor) -> tf.TensorArray:
  return tf.TensorArray(dtype=inputs.dtype, size=tf.shape(inputs)[0],
                        element_shape=inputs.get_shape()[1:]).unstack(inputs)


# -- helpers -------------------------------------------------------------------------------

class Helper(abc.ABC):
  """TF1's ``tf.contrib.seq2seq.Helper``: what a BasicDecoder feeds each step."""

  @property
  @abc.abstractmethod
  def batch_size(self) -> Any:
    """The batch size (a scalar int32 tensor)."""

  @property
  @abc.abstractmethod
  def sample_ids_shape(self) -> tf.TensorShape:
    """The shape of one sample id, without the batch."""

  @property
  @abc.abstractmethod
  def sample_ids_dtype(self) -> tf.DType:
    """The dtype of the sample ids."""

  @abc.abstractmethod
  def initialize(self, name: Optional[str] = None) -> Tuple[tf.Tensor, Any]:
    """Returns (finished, first inputs)."""

  @abc.abstractmethod
  def sample(self, time: tf.Tensor, outputs: Any, state: Any,
             name: Optional[str] = None) -> Any:
    """Returns the sample ids of this step."""

  @abc.abstractmethod
  def next_inputs(self, time: tf.Tensor, outputs: Any, state: Any, sample_ids: Any,
                  name: Optional[str] = None) -> Tuple[tf.Tensor, Any, Any]:
    """Returns (finished, next inputs, next state)."""


class _IdHelper(Helper):
  """A helper whose sample ids are int32 scalars, one per batch entry (``_batch_size``)."""

  @property
  def batch_size(self) -> Any:
    return self._batch_size

  @property
  def sample_ids_shape(self) -> tf.TensorShape:
    return tf.TensorShape([])

  @property
  def sample_ids_dtype(self) -> tf.DType:
    return tf.int32


class CustomHelper(Helper):
  """TF1's ``tf.contrib.seq2seq.CustomHelper``: a helper from three functions."""

  def __init__(self, initialize_fn: Callable, sample_fn: Callable, next_inputs_fn: Callable,
               sample_ids_shape: Any = None, sample_ids_dtype: Optional[tf.DType] = None):
    """Creates the helper.

    Args:
      initialize_fn: ``() -> (finished, next_inputs)``.
      sample_fn: ``(time, outputs, state) -> sample_ids``.
      next_inputs_fn: ``(time, outputs, state, sample_ids) -> (finished, next_inputs,
        next_state)``.
      sample_ids_shape: the shape of one sample id ([]).
      sample_ids_dtype: their dtype (int32).
    """
    self._initialize_fn = initialize_fn
    self._sample_fn = sample_fn
    self._next_inputs_fn = next_inputs_fn
    self._batch_size = None
    self._sample_ids_shape = tf.TensorShape(sample_ids_shape or [])
    self._sample_ids_dtype = sample_ids_dtype or tf.int32

  @property
  def batch_size(self) -> Any:
    if self._batch_size is None:
      raise ValueError("batch_size accessed before initialize was called")
    return self._batch_size

  @property
  def sample_ids_shape(self) -> tf.TensorShape:
    return self._sample_ids_shape

  @property
  def sample_ids_dtype(self) -> tf.DType:
    return self._sample_ids_dtype

  def initialize(self, name=None):
    with tf.name_scope(name, f"{type(self).__name__}Initialize"):
      finished, next_inputs = self._initialize_fn()
      if self._batch_size is None:
        self._batch_size = tf.size(finished)
    return finished, next_inputs

  def sample(self, time, outputs, state, name=None):
    with tf.name_scope(name, f"{type(self).__name__}Sample", (time, outputs, state)):
      return self._sample_fn(time=time, outputs=outputs, state=state)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    with tf.name_scope(name, f"{type(self).__name__}NextInputs", (time, outputs, state)):
      return self._next_inputs_fn(time=time, outputs=outputs, state=state,
                                  sample_ids=sample_ids)


class TrainingHelper(_IdHelper):
  """TF1's ``tf.contrib.seq2seq.TrainingHelper``: feeds the ground-truth inputs."""

  def __init__(self, inputs: Any, sequence_length: Any, time_major: bool = False,
               name: Optional[str] = None):
    """Creates the helper.

    Args:
      inputs: [batch, time, ...] (or [time, batch, ...] with time_major).
      sequence_length: [batch] lengths.
      time_major: whether inputs are time-major.
      name: the op scope.

    Raises:
      ValueError: sequence_length is not a vector.
    """
    with tf.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
      inputs = tf.convert_to_tensor(inputs, name="inputs")
      self._inputs = inputs
      if not time_major:
        inputs = tf.nest.map_structure(transpose_batch_time, inputs)
      self._input_tas = tf.nest.map_structure(_unstack_ta, inputs)
      self._sequence_length = tf.convert_to_tensor(sequence_length, name="sequence_length")
      if self._sequence_length.get_shape().ndims != 1:
        raise ValueError("Expected sequence_length to be a vector, but received shape: "
                         f"{self._sequence_length.get_shape()}")
      self._zero_inputs = tf.nest.map_structure(lambda inp: tf.zeros_like(inp[0, :]), inputs)
      self._batch_size = tf.size(sequence_length)

  @property
  def inputs(self) -> tf.Tensor:
    return self._inputs

  @property
  def sequence_length(self) -> tf.Tensor:
    return self._sequence_length

  def initialize(self, name=None):
    with tf.name_scope(name, "TrainingHelperInitialize"):
      finished = tf.equal(0, self._sequence_length)
      next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._zero_inputs,
                            lambda: tf.nest.map_structure(lambda ta: ta.read(0),
                                                          self._input_tas))
      return finished, next_inputs

  def sample(self, time, outputs, name=None, **unused_kwargs):
    with tf.name_scope(name, "TrainingHelperSample", [time, outputs]):
      return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

  def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
    with tf.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
      next_time = time + 1
      finished = next_time >= self._sequence_length
      next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._zero_inputs,
                            lambda: tf.nest.map_structure(lambda ta: ta.read(next_time),
                                                          self._input_tas))
      return finished, next_inputs, state


def _scatter_merge(where_sampling: tf.Tensor, sampled: tf.Tensor, where_not: tf.Tensor,
                   not_sampled: tf.Tensor, shape: tf.Tensor) -> tf.Tensor:
  return (tf.scatter_nd(indices=where_sampling, updates=sampled, shape=shape)
          + tf.scatter_nd(indices=where_not, updates=not_sampled, shape=shape))


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
  """TF1's ``tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper``: with
  ``sampling_probability``, feeds the embedding of a sample of the outputs instead of
  the ground truth (scheduled sampling)."""

  def __init__(self, inputs, sequence_length, embedding, sampling_probability,
               time_major=False, seed=None, scheduling_seed=None, name=None):
    """Creates the helper (TF1's arguments; ``embedding``: a matrix or a function of ids).

    Raises:
      ValueError: sampling_probability is neither a scalar nor a vector.
    """
    with tf.name_scope(name, "ScheduledEmbeddingSamplingWrapper",
                       [embedding, sampling_probability]):
      self._embedding_fn = embedding if callable(embedding) else \
          (lambda ids: tf.nn.embedding_lookup(embedding, ids))
      self._sampling_probability = tf.convert_to_tensor(sampling_probability,
                                                        name="sampling_probability")
      if self._sampling_probability.get_shape().ndims not in (0, 1):
        raise ValueError("sampling_probability must be either a scalar or a vector. saw "
                         f"shape: {self._sampling_probability.get_shape()}")
      self._seed = seed
      self._scheduling_seed = scheduling_seed
      super().__init__(inputs=inputs, sequence_length=sequence_length,
                       time_major=time_major, name=name)

  def sample(self, time, outputs, state, name=None):
    with tf.name_scope(name, "ScheduledEmbeddingTrainingHelperSample",
                       [time, outputs, state]):
      select = bernoulli_sample(probs=self._sampling_probability, dtype=tf.bool,
                                sample_shape=self.batch_size, seed=self._scheduling_seed)
      return tf.where(select, categorical_sample(logits=outputs, seed=self._seed),
                      tf.fill([self.batch_size], -1))

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    with tf.name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs",
                       [time, outputs, state, sample_ids]):
      finished, base_next_inputs, state = super().next_inputs(
          time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)

      def maybe_sample() -> tf.Tensor:
        where_sampling = tf.cast(tf.where(sample_ids > -1), tf.int32)
        where_not = tf.cast(tf.where(sample_ids <= -1), tf.int32)
        sampled = self._embedding_fn(tf.gather_nd(sample_ids, where_sampling))
        return _scatter_merge(where_sampling, sampled, where_not,
                              tf.gather_nd(base_next_inputs, where_not),
                              tf.shape(base_next_inputs))
      next_inputs = tf.cond(tf.reduce_all(finished), lambda: base_next_inputs, maybe_sample)
      return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
  """TF1's ``tf.contrib.seq2seq.ScheduledOutputTrainingHelper``: with
  ``sampling_probability``, feeds the previous output (through ``next_inputs_fn``,
  with ``auxiliary_inputs`` concatenated) instead of the ground truth."""

  def __init__(self, inputs, sequence_length, sampling_probability, time_major=False,
               seed=None, next_inputs_fn=None, auxiliary_inputs=None, name=None):
    """Creates the helper (TF1's arguments).

    Raises:
      ValueError: sampling_probability is neither a scalar nor a vector.
    """
    with tf.name_scope(name, "ScheduledOutputTrainingHelper",
                       [inputs, auxiliary_inputs, sampling_probability]):
      self._sampling_probability = tf.convert_to_tensor(sampling_probability,
                                                        name="sampling_probability")
      if self._sampling_probability.get_shape().ndims not in (0, 1):
        raise ValueError("sampling_probability must be either a scalar or a vector. saw "
                         f"shape: {self._sampling_probability.get_shape()}")
      if auxiliary_inputs is None:
        maybe_concatenated = inputs
      else:
        inputs = tf.convert_to_tensor(inputs, name="inputs")
        auxiliary_inputs = tf.convert_to_tensor(auxiliary_inputs, name="auxiliary_inputs")
        maybe_concatenated = tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1),
                                                   inputs, auxiliary_inputs)
        if not time_major:
          auxiliary_inputs = tf.nest.map_structure(transpose_batch_time, auxiliary_inputs)
      self._auxiliary_input_tas = (tf.nest.map_structure(_unstack_ta, auxiliary_inputs)
                                   if auxiliary_inputs is not None else None)
      self._seed = seed
      self._next_inputs_fn = next_inputs_fn
      super().__init__(inputs=maybe_concatenated, sequence_length=sequence_length,
                       time_major=time_major, name=name)

  def sample(self, time, outputs, state, name=None):
    with tf.name_scope(name, "ScheduledOutputTrainingHelperSample", [time, outputs, state]):
      return bernoulli_sample(probs=self._sampling_probability, sample_shape=self.batch_size,
                              seed=self._seed)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    with tf.name_scope(name, "ScheduledOutputTrainingHelperNextInputs",
                       [time, outputs, state, sample_ids]):
      finished, base_next_inputs, state = super().next_inputs(
          time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name)
      sample_ids = tf.cast(sample_ids, tf.bool)

      def with_auxiliary(outputs_: Any, indices: Optional[tf.Tensor] = None) -> Any:
        if self._auxiliary_input_tas is None:
          return outputs_
        auxiliary = tf.nest.map_structure(lambda ta: ta.read(time + 1),
                                          self._auxiliary_input_tas)
        if indices is not None:
          auxiliary = tf.gather_nd(auxiliary, indices)
        return tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1), outputs_, auxiliary)

      def maybe_sample() -> tf.Tensor:
        if self._next_inputs_fn is None:
          return tf.where(sample_ids, with_auxiliary(outputs), base_next_inputs)
        where_sampling = tf.cast(tf.where(sample_ids), tf.int32)
        where_not = tf.cast(tf.where(tf.logical_not(sample_ids)), tf.int32)
        sampled = with_auxiliary(self._next_inputs_fn(tf.gather_nd(outputs, where_sampling)),
                                 where_sampling)
        return _scatter_merge(where_sampling, sampled, where_not,
                              tf.gather_nd(base_next_inputs, where_not),
                              tf.shape(base_next_inputs))
      no_samples = tf.logical_not(tf.reduce_any(sample_ids))
      next_inputs = tf.cond(tf.logical_or(tf.reduce_all(finished), no_samples),
                            lambda: base_next_inputs, maybe_sample)
      return finished, next_inputs, state


class GreedyEmbeddingHelper(_IdHelper):
  """TF1's ``tf.contrib.seq2seq.GreedyEmbeddingHelper``: feeds the embedding of the
  argmax of the outputs; a sequence ends at ``end_token``."""

  def __init__(self, embedding: Any, start_tokens: Any, end_token: Any):
    """Creates the helper.

    Args:
      embedding: an embedding matrix, or a function of ids.
      start_tokens: [batch] int32 ids of the first inputs.
      end_token: the int32 id that ends a sequence.

    Raises:
      ValueError: start_tokens is not a vector or end_token not a scalar.
    """
    self._embedding_fn = embedding if callable(embedding) else \
        (lambda ids: tf.nn.embedding_lookup(embedding, ids))
    self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32,
                                              name="start_tokens")
    self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
    if self._start_tokens.get_shape().ndims != 1:
      raise ValueError("start_tokens must be a vector")
    self._batch_size = tf.size(start_tokens)
    if self._end_token.get_shape().ndims != 0:
      raise ValueError("end_token must be a scalar")
    self._start_inputs = self._embedding_fn(self._start_tokens)

  def initialize(self, name=None):
    return tf.tile([False], [self._batch_size]), self._start_inputs

  def sample(self, time, outputs, state, name=None):
    if not isinstance(outputs, tf.Tensor):
      raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
    return tf.argmax(outputs, axis=-1, output_type=tf.int32)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    finished = tf.equal(sample_ids, self._end_token)
    next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                          lambda: self._embedding_fn(sample_ids))
    return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
  """TF1's ``tf.contrib.seq2seq.SampleEmbeddingHelper``: feeds the embedding of a sample
  of the outputs (softmax at ``softmax_temperature``)."""

  def __init__(self, embedding, start_tokens, end_token, softmax_temperature=None, seed=None):
    super().__init__(embedding, start_tokens, end_token)
    self._softmax_temperature = softmax_temperature
    self._seed = seed

  def sample(self, time, outputs, state, name=None):
    if not isinstance(outputs, tf.Tensor):
      raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
    logits = outputs if self._softmax_temperature is None else \
        outputs / self._softmax_temperature
    return categorical_sample(logits=logits, seed=self._seed)


class InferenceHelper(Helper):
  """TF1's ``tf.contrib.seq2seq.InferenceHelper``: feeds ``next_inputs_fn`` of the
  samples ``sample_fn`` draws; a sequence ends where ``end_fn`` says."""

  def __init__(self, sample_fn, sample_shape, sample_dtype, start_inputs, end_fn,
               next_inputs_fn=None):
    self._sample_fn = sample_fn
    self._end_fn = end_fn
    self._sample_shape = tf.TensorShape(sample_shape)
    self._sample_dtype = sample_dtype
    self._next_inputs_fn = next_inputs_fn
    self._batch_size = tf.shape(start_inputs)[0]
    self._start_inputs = tf.convert_to_tensor(start_inputs, name="start_inputs")

  @property
  def batch_size(self) -> Any:
    return self._batch_size

  @property
  def sample_ids_shape(self) -> tf.TensorShape:
    return self._sample_shape

  @property
  def sample_ids_dtype(self) -> tf.DType:
    return self._sample_dtype

  def initialize(self, name=None):
    return tf.tile([False], [self._batch_size]), self._start_inputs

  def sample(self, time, outputs, state, name=None):
    return self._sample_fn(outputs)

  def next_inputs(self, time, outputs, state, sample_ids, name=None):
    next_inputs = sample_ids if self._next_inputs_fn is None else \
        self._next_inputs_fn(sample_ids)
    return self._end_fn(sample_ids), next_inputs, state


# -- decoders ------------------------------------------------------------------------------

class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
  """TF1's ``tf.contrib.seq2seq.BasicDecoderOutput``."""


class BasicDecoder(Decoder):
  """TF1's ``tf.contrib.seq2seq.BasicDecoder``: the cell, an optional output layer, and
  a helper that chooses each step's inputs."""

  def __init__(self, cell: Any, helper: Helper, initial_state: Any,
               output_layer: Optional[Any] = None):
    """Creates the decoder.

    Args:
      cell: the RNN cell.
      helper: a Helper.
      initial_state: the cell's initial state.
      output_layer: a tf.compat.v1.layers.Layer applied to the cell's output.

    Raises:
      TypeError: cell, helper or output_layer is of the wrong type.
    """
    check_cell(cell)
    if not isinstance(helper, Helper):
      raise TypeError(f"helper must be a Helper, received: {type(helper)}")
    if output_layer is not None and not isinstance(output_layer, tf.layers.Layer):
      raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
    self._cell = cell
    self._helper = helper
    self._initial_state = initial_state
    self._output_layer = output_layer

  @property
  def batch_size(self) -> Any:
    return self._helper.batch_size

  def _rnn_output_size(self) -> Any:
    size = self._cell.output_size
    if self._output_layer is None:
      return size
    shape = tf.nest.map_structure(lambda s: tf.TensorShape([None]).concatenate(s), size)
    output_shape = self._output_layer.compute_output_shape(shape)
    return tf.nest.map_structure(lambda s: s[1:], output_shape)

  @property
  def output_size(self) -> BasicDecoderOutput:
    return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                              sample_id=self._helper.sample_ids_shape)

  @property
  def output_dtype(self) -> BasicDecoderOutput:
    dtype = tf.nest.flatten(self._initial_state)[0].dtype
    return BasicDecoderOutput(tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                              self._helper.sample_ids_dtype)

  def initialize(self, name=None):
    return self._helper.initialize() + (self._initial_state,)

  def step(self, time, inputs, state, name=None):
    with tf.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
      cell_outputs, cell_state = self._cell(inputs, state)
      if self._output_layer is not None:
        cell_outputs = self._output_layer(cell_outputs)
      sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
      finished, next_inputs, next_state = self._helper.next_inputs(
          time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
    return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished


# -- utilities -----------------------------------------------------------------------------

def sequence_loss(logits: Any, targets: Any, weights: Any,
                  average_across_timesteps: bool = True, average_across_batch: bool = True,
                  sum_over_timesteps: bool = False, sum_over_batch: bool = False,
                  softmax_loss_function: Optional[Callable] = None,
                  name: Optional[str] = None) -> tf.Tensor:
  """TF1's ``tf.contrib.seq2seq.sequence_loss``: weighted cross-entropy of
  [batch, time, classes] logits, averaged or summed over time and batch as asked.

  Raises:
    ValueError: a rank is wrong, or an average and a sum of one axis are both asked.
  """
  if len(logits.get_shape()) != 3:
    raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
  if len(targets.get_shape()) != 2:
    raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
  if len(weights.get_shape()) != 2:
    raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
  if average_across_timesteps and sum_over_timesteps:
    raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to "
                     "True at same time.")
  if average_across_batch and sum_over_batch:
    raise ValueError("average_across_batch and sum_over_batch cannot be set to True at "
                     "same time.")
  with tf.name_scope(name, "sequence_loss", [logits, targets, weights]):
    logits_flat = tf.reshape(logits, [-1, tf.shape(logits)[2]])
    targets = tf.reshape(targets, [-1])
    if softmax_loss_function is None:
      crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets,
                                                                logits=logits_flat)
    else:
      crossent = softmax_loss_function(labels=targets, logits=logits_flat)
    crossent *= tf.reshape(weights, [-1])
    if average_across_timesteps and average_across_batch:
      return tf.div_no_nan(tf.reduce_sum(crossent), tf.reduce_sum(weights))
    if sum_over_timesteps and sum_over_batch:
      return tf.div_no_nan(tf.reduce_sum(crossent),
                           tf.cast(tf.count_nonzero(weights), crossent.dtype))
    crossent = tf.reshape(crossent, tf.shape(logits)[0:2])
    if average_across_timesteps or average_across_batch:
      axis = [0] if average_across_batch else [1]
      return tf.div_no_nan(tf.reduce_sum(crossent, axis=axis),
                           tf.reduce_sum(weights, axis=axis))
    if sum_over_timesteps or sum_over_batch:
      axis = [0] if sum_over_batch else [1]
      return tf.div_no_nan(tf.reduce_sum(crossent, axis=axis),
                           tf.cast(tf.count_nonzero(weights, axis=axis), crossent.dtype))
    return crossent


# -- what is not here ------------------------------------------------------------------------


# The beam search (slim_ext.contrib.beam_search_decoder, with tile_batch as TF1 had it
# there): loaded on first use.
_BEAM_SEARCH_NAMES = ("BeamSearchDecoder", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
                      "FinalBeamSearchDecoderOutput", "gather_tree", "tile_batch")


def __getattr__(name: str) -> Any:
  if name in _BEAM_SEARCH_NAMES:
    from slim_ext.contrib import beam_search_decoder  # pylint: disable=g-import-not-at-top
    return getattr(beam_search_decoder, name)
  raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
