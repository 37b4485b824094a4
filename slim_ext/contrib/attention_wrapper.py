"""tf.contrib.seq2seq's attention: Bahdanau and Luong mechanisms and the AttentionWrapper.

TF1 sequence-to-sequence models attend over the encoder's outputs with an
``AttentionMechanism`` (``BahdanauAttention``: additive, ``LuongAttention``:
multiplicative) and wrap their decoder cell in an ``AttentionWrapper``, which at each
step feeds the previous attention with the input, scores the cell's output against
the memory, and mixes the context into the attention through an optional
``attention_layer``. tensorflow-addons' ``tfa.seq2seq`` (a Keras API) ended at
TensorFlow 2.15; these are TF 1.15's classes on tf.compat.v1, with its equations, its
``AttentionWrapperState`` and its variable names, so a TF1 model's checkpoint restores:

  memory_layer/kernel                         made where the mechanism is built
  .../attention_wrapper/<cell's variables>    the wrapped cell
  .../attention_wrapper/bahdanau_attention/query_layer/kernel, attention_v
      (attention_g, attention_b with ``normalize``)
  .../attention_wrapper/luong_attention/attention_g   (with ``scale``)
  .../attention_wrapper/attention_layer/kernel        (with ``attention_layer_size``)

The monotonic mechanisms (Raffel et al.) are here too, with the same variables in
``bahdanau_monotonic_attention`` / ``luong_monotonic_attention`` and an
``attention_score_bias``, and so are ``monotonic_attention`` and ``safe_cumprod``.
"""
import collections
import math
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np
import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn._cell_parts import RNNCell

__all__ = ["AttentionMechanism", "AttentionWrapper", "AttentionWrapperState",
           "BahdanauAttention", "BahdanauMonotonicAttention", "LuongAttention",
           "LuongMonotonicAttention", "hardmax", "monotonic_attention", "safe_cumprod"]


def _zeros(size: Any, batch_size: Any, dtype: tf.DType) -> tf.Tensor:
  """[batch_size] + size zeros, the static batch size kept in the shape."""
  shape = tf.TensorShape(size)
  zeros = tf.zeros(tf.concat([[batch_size], tf.constant(shape.as_list(), tf.int32)], 0),
                   dtype=dtype)
  zeros.set_shape(tf.TensorShape([tf.get_static_value(batch_size)]).concatenate(shape))
  return zeros


def _size(tensor: tf.Tensor, axis: int) -> Any:
  """The static size of ``tensor`` along ``axis``, else its dynamic size."""
  return tf.compat.dimension_value(tensor.shape[axis]) or tf.shape(tensor)[axis]

def hardmax(logits: Any, name: Optional[str] = None) -> tf.Tensor:
  """TF1's ``tf.contrib.seq2seq.hardmax``: one-hot of the argmax over the last axis."""
  with tf.name_scope(name, "Hardmax", [logits]):
    logits = tf.convert_to_tensor(logits, name="logits")
    depth = tf.compat.dimension_value(logits.get_shape()[-1])
    if depth is None:
      depth = tf.shape(logits)[-1]
    return tf.one_hot(tf.argmax(logits, -1), depth, dtype=logits.dtype)


class AttentionMechanism:
  """TF1's base of the attention mechanisms (``isinstance`` checks use it)."""

  @property
  def alignments_size(self) -> Any:
    raise NotImplementedError

  @property
  def state_size(self) -> Any:
    raise NotImplementedError


class _Mechanism(AttentionMechanism):
  """What both mechanisms share: the masked memory, its keys, the masked scores."""

  # Whether queries go through a ``query_layer`` of num_units (Bahdanau's do).
  _QUERY_LAYER = False

  def __init__(self, memory: Any, memory_sequence_length: Any, probability_fn: Callable,
               score_mask_value: Any, dtype: Optional[tf.DType], num_units: int,
               custom_key_value_fn: Optional[Callable], name: str):
    dtype = dtype or tf.float32
    self.dtype = dtype
    self._num_units = num_units
    self._name = name
    self._query_layer = tf.layers.Dense(num_units, name="query_layer", use_bias=False,
                                        dtype=dtype) if self._QUERY_LAYER else None
    self._memory_layer = tf.layers.Dense(num_units, name="memory_layer", use_bias=False,
                                         dtype=dtype)
    if score_mask_value is None:
      score_mask_value = tf.as_dtype(dtype).as_numpy_dtype(-np.inf)
    self._score_mask_value = score_mask_value
    self._memory_sequence_length = memory_sequence_length
    self._probability = probability_fn
    with tf.name_scope(name, "BaseAttentionMechanismInit", tf.nest.flatten(memory)):
      self._values = _masked_memory(memory, memory_sequence_length)
      self._keys = self._memory_layer(self._values)
      if custom_key_value_fn is not None:
        self._keys, self._values = custom_key_value_fn(self._keys, self._values)
      self._batch_size = _size(self._keys, 0)
      self._alignments_size = _size(self._keys, 1)

  def _probability_fn(self, score: tf.Tensor, state: Any) -> tf.Tensor:
    return self._probability(self._masked_score(score), state)

  def _masked_score(self, score: tf.Tensor) -> tf.Tensor:
    """``score`` with ``score_mask_value`` past each memory's length."""
    if self._memory_sequence_length is None:
      return score
    check = tf.assert_positive(
        self._memory_sequence_length,
        message="All values in memory_sequence_length must be greater than zero.")
    with tf.control_dependencies([check]):
      mask = tf.sequence_mask(self._memory_sequence_length, maxlen=tf.shape(score)[1])
    return tf.where(mask, score, self._score_mask_value * tf.ones_like(score))

  @property
  def memory_layer(self) -> Any:
    return self._memory_layer

  @property
  def query_layer(self) -> Any:
    return self._query_layer

  @property
  def values(self) -> tf.Tensor:
    return self._values

  @property
  def keys(self) -> tf.Tensor:
    return self._keys

  @property
  def batch_size(self) -> Any:
    return self._batch_size

  @property
  def alignments_size(self) -> Any:
    return self._alignments_size

  @property
  def state_size(self) -> Any:
    return self._alignments_size

  def initial_alignments(self, batch_size: Any, dtype: tf.DType) -> tf.Tensor:
    """Zeros, [batch_size, alignments_size]."""
    return _zeros(self._alignments_size, batch_size, dtype)

  def initial_state(self, batch_size: Any, dtype: tf.DType) -> tf.Tensor:
    """The initial alignments."""
    return self.initial_alignments(batch_size, dtype)


def _masked_memory(memory: Any, memory_sequence_length: Any) -> Any:
  """``memory`` as tensors (inner dimensions known), zero past each sequence's length.

  Raises:
    ValueError: a memory's inner dimensions are not known.
  """
  memory = tf.nest.map_structure(lambda m: tf.convert_to_tensor(m, name="memory"), memory)
  for tensor in tf.nest.flatten(memory):
    if not tensor.get_shape()[2:].is_fully_defined():
      raise ValueError(f"Expected memory {tensor.name} to have fully defined inner dims, "
                       f"but saw shape: {tensor.get_shape()}")
  if memory_sequence_length is None:
    return memory
  memory_sequence_length = tf.convert_to_tensor(memory_sequence_length,
                                                name="memory_sequence_length")
  first = tf.nest.flatten(memory)[0]
  mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(first)[1],
                          dtype=first.dtype)

  def masked(tensor: tf.Tensor) -> tf.Tensor:
    rank = tensor.get_shape().ndims
    rank = rank if rank is not None else tf.rank(tensor)
    ones = tf.ones(rank - 2, dtype=tf.int32)
    return tensor * tf.reshape(mask, tf.concat((tf.shape(mask), ones), 0))
  return tf.nest.map_structure(masked, memory)


class _Luong(_Mechanism):
  """Multiplicative scoring: ``query . key``, times a learned ``attention_g`` with
  ``scale``; the query's depth must be ``num_units``."""

  _SCOPE = "luong_attention"
  _scale: bool

  def _score(self, query: tf.Tensor) -> tf.Tensor:
    """Raises:
      ValueError: the query's depth is not the keys'.
    """
    gain = tf.get_variable("attention_g", dtype=query.dtype,
                           initializer=tf.ones_initializer, shape=()) if self._scale else None
    depth, key_units = query.get_shape()[-1], self._keys.get_shape()[-1]
    if depth != key_units:
      raise ValueError(
          "Incompatible or unknown inner dimensions between query and keys.  Query "
          f"({query}) has units: {depth}.  Keys ({self._keys}) have units: {key_units}.  "
          f"Perhaps you need to set num_units to the keys' dimension ({key_units})?")
    score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), self._keys, transpose_b=True), [1])
    return score if gain is None else gain * score

  def __call__(self, query: tf.Tensor, state: Any) -> Tuple[tf.Tensor, tf.Tensor]:
    """The alignments of ``query`` ([batch_size, num_units]), twice (the next state)."""
    with tf.variable_scope(None, self._SCOPE, [query]):
      score = self._score(query)
    alignments = self._probability_fn(score, state)
    return alignments, alignments


class _Bahdanau(_Mechanism):
  """Additive scoring: ``v . tanh(keys + query_layer(query))``, or with ``normalize``
  the weight-normalized form (``attention_g``, ``attention_b``)."""

  _SCOPE = "bahdanau_attention"
  _QUERY_LAYER = True
  _normalize: bool

  def _score(self, query: tf.Tensor) -> tf.Tensor:
    projected = tf.expand_dims(self._query_layer(query), 1)
    v = tf.get_variable("attention_v", [self._num_units], dtype=query.dtype)
    if not self._normalize:
      return tf.reduce_sum(v * tf.tanh(self._keys + projected), [2])
    g = tf.get_variable("attention_g", dtype=query.dtype, shape=(),
                        initializer=tf.constant_initializer(math.sqrt(1. / self._num_units)))
    b = tf.get_variable("attention_b", [self._num_units], dtype=query.dtype,
                        initializer=tf.zeros_initializer())
    v = g * v * tf.rsqrt(tf.reduce_sum(tf.square(v)))
    return tf.reduce_sum(v * tf.tanh(self._keys + projected + b), [2])

  __call__ = _Luong.__call__


def _softmax_like(probability_fn: Optional[Callable]) -> Callable:
  """The user's ``probability_fn`` (softmax) of the score alone, as mechanisms call it.

  Raises:
    TypeError: it is not callable.
  """
  probability_fn = probability_fn or tf.nn.softmax
  if not callable(probability_fn):
    raise TypeError("probability_fn must be callable, saw type: "
                    f"{type(probability_fn).__name__}")
  return lambda score, _: probability_fn(score)


class LuongAttention(_Luong):
  """TF1's multiplicative attention (Luong et al., 2015)."""

  def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
               scale: bool = False, probability_fn: Optional[Callable] = None,
               score_mask_value: Any = None, dtype: Optional[tf.DType] = None,
               custom_key_value_fn: Optional[Callable] = None, name: str = "LuongAttention"):
    """Builds the keys: ``memory_layer`` (no bias) over the masked memory.

    Args:
      num_units: the depth of the keys (and of the queries).
      memory: [batch_size, max_time, ...] (the encoder's outputs).
      memory_sequence_length: [batch_size] lengths; the memory and the scores past
        them are masked.
      scale: learn a scalar ``attention_g`` (initially 1) the scores are multiplied by.
      probability_fn: scores -> alignments (softmax).
      score_mask_value: the masked scores' value (-inf).
      dtype: the layers' dtype (float32).
      custom_key_value_fn: (keys, values) -> (keys, values).
      name: the op scope.
    """
    super().__init__(memory, memory_sequence_length, _softmax_like(probability_fn),
                     score_mask_value, dtype, num_units, custom_key_value_fn, name)
    self._scale = scale


class BahdanauAttention(_Bahdanau):
  """TF1's additive attention (Bahdanau et al., 2015)."""

  def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
               normalize: bool = False, probability_fn: Optional[Callable] = None,
               score_mask_value: Any = None, dtype: Optional[tf.DType] = None,
               custom_key_value_fn: Optional[Callable] = None,
               name: str = "BahdanauAttention"):
    """Builds the keys: ``memory_layer`` (no bias) over the masked memory; the
    arguments are LuongAttention's, ``normalize`` (weight normalization of
    ``attention_v``) in place of ``scale``, and ``num_units`` is also the depth of
    ``query_layer``, which projects the queries."""
    super().__init__(memory, memory_sequence_length, _softmax_like(probability_fn),
                     score_mask_value, dtype, num_units, custom_key_value_fn, name)
    self._normalize = normalize


def safe_cumprod(x: Any, *args: Any, **kwargs: Any) -> tf.Tensor:
  """``tf.cumprod`` as ``exp(cumsum(log(x)))``, ``x`` clipped to [tiny, 1] (no 0**0
  gradients); ``args`` and ``kwargs`` are cumsum's."""
  with tf.name_scope(None, "SafeCumprod", [x]):
    x = tf.convert_to_tensor(x, name="x")
    tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
    return tf.exp(tf.cumsum(tf.log(tf.clip_by_value(x, tiny, 1)), *args, **kwargs))


def monotonic_attention(p_choose_i: Any, previous_attention: Any, mode: str) -> tf.Tensor:
  """The expected monotonic alignments from the probabilities of stopping at each
  memory entry and the previous alignments (Raffel et al., 2017).

  Args:
    p_choose_i: [batch_size, max_time] probabilities of choosing each entry.
    previous_attention: [batch_size, max_time] the previous step's alignments.
    mode: "recursive" (a scan; exact), "parallel" (cumulative products; exact up to
      their precision) or "hard" (0/1 probabilities).

  Returns:
    [batch_size, max_time] alignments.

  Raises:
    ValueError: an unknown mode.
  """
  p_choose_i = tf.convert_to_tensor(p_choose_i, name="p_choose_i")
  previous_attention = tf.convert_to_tensor(previous_attention, name="previous_attention")
  if mode == "recursive":
    batch_size = _size(p_choose_i, 0)
    not_before = tf.concat([tf.ones((batch_size, 1)), 1 - p_choose_i[:, :-1]], 1)
    carried = tf.scan(lambda q, step: tf.reshape(step[0] * q + step[1], (batch_size,)),
                      [tf.transpose(not_before), tf.transpose(previous_attention)],
                      tf.zeros((batch_size,)))
    return p_choose_i * tf.transpose(carried)
  if mode == "parallel":
    skipped = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
    return p_choose_i * skipped * tf.cumsum(
        previous_attention / tf.clip_by_value(skipped, 1e-10, 1.), axis=1)
  if mode == "hard":
    p_choose_i *= tf.cumsum(previous_attention, axis=1)
    return p_choose_i * tf.cumprod(1 - p_choose_i, axis=1, exclusive=True)
  raise ValueError("mode must be 'recursive', 'parallel', or 'hard'.")


def _monotonic(sigmoid_noise: float, mode: str, seed: Optional[int]) -> Callable:
  """(score, previous alignments) -> monotonic alignments: the score, with Gaussian
  noise of ``sigmoid_noise``, through a sigmoid (a step in "hard" mode)."""
  def probability(score: tf.Tensor, previous_alignments: tf.Tensor) -> tf.Tensor:
    if sigmoid_noise > 0:
      score += sigmoid_noise * tf.random_normal(tf.shape(score), dtype=score.dtype, seed=seed)
    p_choose_i = tf.cast(score > 0, score.dtype) if mode == "hard" else tf.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)
  return probability


class _Monotonic:
  """Monotonic mechanisms: all attention on the first memory entry at the start, and a
  learned ``attention_score_bias`` added to the scores."""

  _keys: tf.Tensor
  _alignments_size: Any
  _score_bias_init: float

  def initial_alignments(self, batch_size: Any, dtype: tf.DType) -> tf.Tensor:
    """One-hot on the first entry, [batch_size, alignments_size]."""
    return tf.one_hot(tf.zeros((batch_size,), dtype=tf.int32), self._alignments_size,
                      dtype=dtype)

  def _score(self, query: tf.Tensor) -> tf.Tensor:
    score = super()._score(query)  # type: ignore[misc]
    return score + tf.get_variable("attention_score_bias", dtype=score.dtype,
                                   initializer=self._score_bias_init)


class BahdanauMonotonicAttention(_Monotonic, _Bahdanau):
  """TF1's monotonic additive attention (``bahdanau_monotonic_attention`` scope)."""

  _SCOPE = "bahdanau_monotonic_attention"

  def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
               normalize: bool = False, score_mask_value: Any = None,
               sigmoid_noise: float = 0., sigmoid_noise_seed: Optional[int] = None,
               score_bias_init: float = 0., mode: str = "parallel",
               dtype: Optional[tf.DType] = None, name: str = "BahdanauMonotonicAttention"):
    """BahdanauAttention's arguments, and: ``sigmoid_noise`` (the standard deviation of
    the noise added to the scores before the sigmoid) and its seed, ``score_bias_init``
    (the score bias' first value) and ``mode`` (monotonic_attention's)."""
    super().__init__(memory, memory_sequence_length,
                     _monotonic(sigmoid_noise, mode, sigmoid_noise_seed), score_mask_value,
                     dtype, num_units, None, name)
    self._normalize = normalize
    self._score_bias_init = score_bias_init


class LuongMonotonicAttention(_Monotonic, _Luong):
  """TF1's monotonic multiplicative attention (``luong_monotonic_attention`` scope)."""

  _SCOPE = "luong_monotonic_attention"

  def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
               scale: bool = False, score_mask_value: Any = None, sigmoid_noise: float = 0.,
               sigmoid_noise_seed: Optional[int] = None, score_bias_init: float = 0.,
               mode: str = "parallel", dtype: Optional[tf.DType] = None,
               name: str = "LuongMonotonicAttention"):
    """LuongAttention's arguments, and BahdanauMonotonicAttention's noise, score bias
    and mode."""
    super().__init__(memory, memory_sequence_length,
                     _monotonic(sigmoid_noise, mode, sigmoid_noise_seed), score_mask_value,
                     dtype, num_units, None, name)
    self._scale = scale
    self._score_bias_init = score_bias_init


class AttentionWrapperState(
    collections.namedtuple("AttentionWrapperState",
                           ("cell_state", "attention", "time", "alignments",
                            "alignment_history", "attention_state"))):
  """TF1's state of an AttentionWrapper: the cell's state, the last attention, the
  step, the alignments (and their history: a TensorArray), the mechanisms' states."""

  def clone(self, **kwargs: Any) -> "AttentionWrapperState":
    """This state with the fields in ``kwargs`` replaced; a replaced tensor must
    have the shape of the one it replaces (checked, and the static shape kept)."""
    def same_shape(old: Any, new: Any) -> Any:
      if not (isinstance(old, tf.Tensor) and isinstance(new, tf.Tensor)):
        return new
      if tf.executing_eagerly():
        if old.shape.as_list() != new.shape.as_list():
          raise ValueError("The shape of the AttentionWrapperState is expected to be same "
                           "as the one to clone. self.shape: %s, input.shape: %s"
                           % (old.shape, new.shape))
        return new
      with tf.control_dependencies([tf.assert_equal(tf.shape(old), tf.shape(new))]):
        checked = tf.identity(new)
      checked.set_shape(old.shape.merge_with(new.shape))
      return checked
    return tf.nest.map_structure(same_shape, self, self._replace(**kwargs))


def _compute_attention(mechanism: Any, cell_output: tf.Tensor, attention_state: Any,
                       attention_layer: Any) -> Tuple[tf.Tensor, tf.Tensor, Any]:
  """(attention, alignments, next attention state) of one mechanism: the context is
  the alignments' weighted sum of the memory, through ``attention_layer`` with the
  cell's output when there is one."""
  alignments, next_state = mechanism(cell_output, state=attention_state)
  context = tf.squeeze(tf.matmul(tf.expand_dims(alignments, 1), mechanism.values), [1])
  attention = attention_layer(tf.concat([cell_output, context], 1)) \
      if attention_layer is not None else context
  return attention, alignments, next_state


class AttentionWrapper(RNNCell):
  """TF1's ``tf.contrib.seq2seq.AttentionWrapper``: a cell that attends over memory."""

  def __init__(self, cell: Any, attention_mechanism: Any, attention_layer_size: Any = None,
               alignment_history: bool = False, cell_input_fn: Optional[Callable] = None,
               output_attention: bool = True, initial_cell_state: Any = None,
               name: Optional[str] = None, attention_layer: Any = None,
               attention_fn: Optional[Callable] = None, dtype: Optional[tf.DType] = None):
    """Wraps ``cell``.

    Args:
      cell: the RNNCell.
      attention_mechanism: a mechanism, or a list (their attentions concatenated).
      attention_layer_size: one int a mechanism: the attention is a Dense layer (no
        bias, ``attention_layer``) of [cell output, context]; None: the context.
      alignment_history: keep every step's alignments (a TensorArray in the state).
      cell_input_fn: (inputs, attention) -> the cell's input (their concat).
      output_attention: output the attention (Luong), else the cell's output
        (Bahdanau).
      initial_cell_state: the cell state ``zero_state`` gives.
      name: the layer's name ("attention_wrapper").
      attention_layer: layers of one's own instead of ``attention_layer_size``.
      attention_fn: (mechanism, cell_output, attention_state, attention_layer) ->
        (attention, alignments, next attention state).
      dtype: the layer's dtype.

    Raises:
      TypeError: a mechanism is not an AttentionMechanism, cell_input_fn is not
        callable.
      ValueError: both attention_layer_size and attention_layer, or not one a mechanism.
    """
    super().__init__(name=name, dtype=dtype)
    self._is_multi = isinstance(attention_mechanism, (list, tuple))
    mechanisms = tuple(attention_mechanism) if self._is_multi else (attention_mechanism,)
    for mechanism in mechanisms:
      if not isinstance(mechanism, AttentionMechanism):
        raise TypeError("attention_mechanism must be an AttentionMechanism or list of "
                        "multiple AttentionMechanism instances, saw type: "
                        f"{type(mechanism).__name__}")
    if cell_input_fn is None:
      cell_input_fn = lambda inputs, attention: tf.concat([inputs, attention], -1)  # noqa: E731
    elif not callable(cell_input_fn):
      raise TypeError(f"cell_input_fn must be callable, saw type: {type(cell_input_fn).__name__}")
    if attention_layer_size is not None and attention_layer is not None:
      raise ValueError("Only one of attention_layer_size and attention_layer should be set")
    if attention_layer_size is not None:
      sizes = tuple(attention_layer_size) if isinstance(attention_layer_size, (list, tuple)) \
          else (attention_layer_size,)
      _one_each(sizes, mechanisms, "attention_layer_size", "integer")
      self._attention_layers = tuple(
          tf.layers.Dense(size, name="attention_layer", use_bias=False, dtype=m.dtype)
          for size, m in zip(sizes, mechanisms))
      self._attention_layer_size = sum(sizes)
    elif attention_layer is not None:
      self._attention_layers = tuple(attention_layer) \
          if isinstance(attention_layer, (list, tuple)) else (attention_layer,)
      _one_each(self._attention_layers, mechanisms, "attention_layer", "layer")
      self._attention_layer_size = sum(
          tf.compat.dimension_value(layer.compute_output_shape(
              [None, cell.output_size + tf.compat.dimension_value(m.values.shape[-1])])[-1])
          for layer, m in zip(self._attention_layers, mechanisms))
    else:
      self._attention_layers = None
      self._attention_layer_size = sum(tf.compat.dimension_value(m.values.shape[-1])
                                       for m in mechanisms)
    self._attention_fn = attention_fn or _compute_attention
    self._cell = cell
    self._attention_mechanisms = mechanisms
    self._cell_input_fn = cell_input_fn
    self._output_attention = output_attention
    self._alignment_history = alignment_history
    with tf.name_scope(name, "AttentionWrapperInit"):
      self._initial_cell_state = None if initial_cell_state is None else self._checked(
          initial_cell_state, _size(tf.nest.flatten(initial_cell_state)[-1], 0),
          f"When constructing AttentionWrapper {self._base_name}: Non-matching batch sizes "
          "between the memory (encoder output) and initial_cell_state.  Are you using the "
          "BeamSearchDecoder?  You may need to tile your initial state via the "
          "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width.",
          "check_initial_cell_state")

  def _checked(self, structure: Any, batch_size: Any, message: str, name: str) -> Any:
    """``structure``'s tensors, run after checking ``batch_size`` is the memory's."""
    checks = [tf.assert_equal(batch_size, m.batch_size, message=message)
              for m in self._attention_mechanisms]
    with tf.control_dependencies(checks):
      return tf.nest.map_structure(lambda s: tf.identity(s, name=name), structure)

  def _item_or_tuple(self, items: Any) -> Any:
    items = tuple(items)
    return items if self._is_multi else items[0]

  @property
  def output_size(self) -> Any:
    return self._attention_layer_size if self._output_attention else self._cell.output_size

  @property
  def state_size(self) -> AttentionWrapperState:
    mechanisms = self._attention_mechanisms
    return AttentionWrapperState(
        cell_state=self._cell.state_size, time=tf.TensorShape([]),
        attention=self._attention_layer_size,
        alignments=self._item_or_tuple(m.alignments_size for m in mechanisms),
        attention_state=self._item_or_tuple(m.state_size for m in mechanisms),
        alignment_history=self._item_or_tuple(
            m.alignments_size if self._alignment_history else () for m in mechanisms))

  def zero_state(self, batch_size: Any, dtype: tf.DType) -> AttentionWrapperState:
    """The first state: ``initial_cell_state`` (or the cell's zero state), zero
    attention and alignments, empty histories.

    Raises:
      ValueError: (or InvalidArgument when run) batch_size is not the memory's.
    """
    with tf.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
      cell_state = self._initial_cell_state if self._initial_cell_state is not None \
          else self._cell.get_initial_state(batch_size=batch_size, dtype=dtype)
      cell_state = self._checked(
          cell_state, batch_size,
          f"When calling zero_state of AttentionWrapper {self._base_name}: Non-matching "
          "batch sizes between the memory (encoder output) and the requested batch size.  "
          "Are you using the BeamSearchDecoder?  If so, make sure your encoder output has "
          "been tiled to beam_width via tf.contrib.seq2seq.tile_batch, and the batch_size= "
          "argument passed to zero_state is batch_size * beam_width.", "checked_cell_state")
      alignments = [m.initial_alignments(batch_size, dtype)
                    for m in self._attention_mechanisms]
      return AttentionWrapperState(
          cell_state=cell_state, time=tf.zeros([], dtype=tf.int32),
          attention=_zeros(self._attention_layer_size, batch_size, dtype),
          alignments=self._item_or_tuple(alignments),
          attention_state=self._item_or_tuple(m.initial_state(batch_size, dtype)
                                              for m in self._attention_mechanisms),
          alignment_history=self._item_or_tuple(
              tf.TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape)
              if self._alignment_history else () for a in alignments))

  def call(self, inputs: Any, state: AttentionWrapperState
           ) -> Tuple[tf.Tensor, AttentionWrapperState]:
    """One step: the cell on (inputs, previous attention), then each mechanism.

    Raises:
      TypeError: state is not an AttentionWrapperState.
    """
    if not isinstance(state, AttentionWrapperState):
      raise TypeError("Expected state to be instance of AttentionWrapperState. Received "
                      f"type {type(state)} instead.")
    cell_output, next_cell_state = self._cell(self._cell_input_fn(inputs, state.attention),
                                              state.cell_state)
    cell_output = self._checked(
        cell_output, _size(cell_output, 0),
        f"When applying AttentionWrapper {self.name}: Non-matching batch sizes between "
        "the memory (encoder output) and the query (decoder output).  Are you using the "
        "BeamSearchDecoder?  You may need to tile your memory input via the "
        "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width.",
        "checked_cell_output")
    previous_states = state.attention_state if self._is_multi else [state.attention_state]
    histories = state.alignment_history if self._is_multi else [state.alignment_history]
    attentions, alignments, attention_states, next_histories = [], [], [], []
    for i, mechanism in enumerate(self._attention_mechanisms):
      attention, alignment, next_attention_state = self._attention_fn(
          mechanism, cell_output, previous_states[i],
          self._attention_layers[i] if self._attention_layers else None)
      attentions.append(attention)
      alignments.append(alignment)
      attention_states.append(next_attention_state)
      next_histories.append(histories[i].write(state.time, alignment)
                            if self._alignment_history else ())
    attention = tf.concat(attentions, 1)
    next_state = AttentionWrapperState(
        time=state.time + 1, cell_state=next_cell_state, attention=attention,
        attention_state=self._item_or_tuple(attention_states),
        alignments=self._item_or_tuple(alignments),
        alignment_history=self._item_or_tuple(next_histories))
    return (attention if self._output_attention else cell_output), next_state


def _one_each(items: Sequence[Any], mechanisms: Sequence[Any], argument: str,
              what: str) -> None:
  if len(items) != len(mechanisms):
    raise ValueError(f"If provided, {argument} must contain exactly one {what} per "
                     f"attention_mechanism, saw: {len(items)} vs {len(mechanisms)}")
