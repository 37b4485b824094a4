"""tf.contrib.legacy_seq2seq on TensorFlow 2: TF1's static sequence-to-sequence models.

TensorFlow 2 has no home for these (tensorflow-addons' seq2seq is the other API,
and it ends at TF 2.15). They are written here on tf.compat.v1 RNN cells with
TF1's graphs and variable names (``rnn_decoder``, ``basic_rnn_seq2seq/...``,
``attention_decoder/AttnW_0``, ``.../Attention_0/kernel``,
``.../AttnOutputProjection/kernel``, ``embedding_attention_seq2seq/...``), so a
TF1 model's checkpoint restores into the ported graph. Inputs are Python lists of
per-step tensors, as in TF1.

Example:
  outputs, state = slim_ext.contrib.legacy_seq2seq.attention_decoder(
      decoder_inputs, encoder_state, attention_states, cell)
  loss = slim_ext.contrib.legacy_seq2seq.sequence_loss(logits, targets, weights)
"""
import copy
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import tensorflow.compat.v1 as tf

from slim_ext.contrib.rnn._cell_parts import Linear, check_cell
from slim_ext.contrib.rnn.core_rnn_cell import EmbeddingWrapper, OutputProjectionWrapper

__all__ = ["attention_decoder", "basic_rnn_seq2seq", "embedding_attention_decoder",
           "embedding_attention_seq2seq", "embedding_rnn_decoder", "embedding_rnn_seq2seq",
           "embedding_tied_rnn_seq2seq", "model_with_buckets", "one2many_rnn_seq2seq",
           "rnn_decoder", "sequence_loss", "sequence_loss_by_example", "tied_rnn_seq2seq"]

LoopFunction = Callable[[tf.Tensor, int], tf.Tensor]
Projection = Optional[Tuple[Any, Any]]


def _extract_argmax_and_embed(embedding: tf.Tensor, output_projection: Projection = None,
                              update_embedding: bool = True) -> LoopFunction:
  """The loop function that feeds the embedding of the previous output's argmax."""
  def loop_function(prev: tf.Tensor, _: int) -> tf.Tensor:
    if output_projection is not None:
      prev = tf.nn.xw_plus_b(prev, output_projection[0], output_projection[1])
    embedded = tf.nn.embedding_lookup(embedding, tf.argmax(prev, 1))
    return embedded if update_embedding else tf.stop_gradient(embedded)
  return loop_function


def _check_projection(output_projection: Projection, num_symbols: int,
                      dtype: tf.DType) -> None:
  if output_projection is None:
    return
  weights = tf.convert_to_tensor(output_projection[0], dtype=dtype)
  weights.get_shape().assert_is_compatible_with([None, num_symbols])
  biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
  biases.get_shape().assert_is_compatible_with([num_symbols])


def _decode_either_way(decode: Callable[[bool], Tuple[List[tf.Tensor], Any]],
                       feed_previous: Any, num_outputs: int,
                       state_structure: Any) -> Tuple[List[tf.Tensor], Any]:
  """TF1's answer to a ``feed_previous`` tensor: both decoders, chosen by tf.cond.

  ``decode(True)`` makes the variables, ``decode(False)`` reuses them.
  """
  def flat(feed: bool) -> List[tf.Tensor]:
    with tf.variable_scope(tf.get_variable_scope(), reuse=None if feed else True):
      outputs, state = decode(feed)
    return list(outputs) + tf.nest.flatten(state)

  outputs_and_state = tf.cond(feed_previous, lambda: flat(True), lambda: flat(False))
  state_list = outputs_and_state[num_outputs:]
  state = state_list[0]
  if tf.nest.is_nested(state_structure):
    state = tf.nest.pack_sequence_as(structure=state_structure, flat_sequence=state_list)
  return outputs_and_state[:num_outputs], state


def _decode(decode: Callable[..., Tuple[List[tf.Tensor], Any]], feed_previous: Any,
            num_outputs: int, state_structure: Any) -> Tuple[List[tf.Tensor], Any]:
  """``decode(feed_previous)`` for a Python bool; for a tensor, both decoders (whose fed
  previous outputs' embeddings stay fixed) chosen by tf.cond, as TF1 did."""
  if isinstance(feed_previous, bool):
    return decode(feed_previous)
  return _decode_either_way(lambda feed: decode(feed, update=False), feed_previous,
                            num_outputs, state_structure)


def rnn_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any, cell: Any,
                loop_function: Optional[LoopFunction] = None,
                scope: Optional[Any] = None) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.rnn_decoder``: runs ``cell`` over the decoder inputs.

  Args:
    decoder_inputs: a list of [batch, depth] tensors.
    initial_state: the cell's initial state.
    cell: the RNN cell.
    loop_function: ``f(prev_output, i)`` -> the input of step i (> 0) instead of
      decoder_inputs[i] (greedy decoding).
    scope: the variable scope ("rnn_decoder").

  Returns:
    (a list of outputs, the final state).
  """
  with tf.variable_scope(scope or "rnn_decoder"):
    state = initial_state
    outputs, prev = [], None
    for i, inp in enumerate(decoder_inputs):
      if loop_function is not None and prev is not None:
        with tf.variable_scope("loop_function", reuse=True):
          inp = loop_function(prev, i)
      if i > 0:
        tf.get_variable_scope().reuse_variables()
      output, state = cell(inp, state)
      outputs.append(output)
      if loop_function is not None:
        prev = output
  return outputs, state


def basic_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor],
                      decoder_inputs: Sequence[tf.Tensor], cell: Any,
                      dtype: tf.DType = tf.float32,
                      scope: Optional[Any] = None) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.basic_rnn_seq2seq``: encode with a copy of ``cell``, decode
  with ``cell`` from the encoder's final state (scope "basic_rnn_seq2seq")."""
  with tf.variable_scope(scope or "basic_rnn_seq2seq"):
    _, enc_state = tf.nn.static_rnn(copy.deepcopy(cell), encoder_inputs, dtype=dtype)
    return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor],
                     decoder_inputs: Sequence[tf.Tensor], cell: Any,
                     loop_function: Optional[LoopFunction] = None,
                     dtype: tf.DType = tf.float32,
                     scope: Optional[Any] = None) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.tied_rnn_seq2seq``: encoder and decoder share one cell's
  variables (under "combined_tied_rnn_seq2seq/<scope or tied_rnn_seq2seq>")."""
  with tf.variable_scope("combined_tied_rnn_seq2seq"):
    scope = scope or "tied_rnn_seq2seq"
    _, enc_state = tf.nn.static_rnn(cell, encoder_inputs, dtype=dtype, scope=scope)
    tf.get_variable_scope().reuse_variables()
    return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function,
                       scope=scope)


def embedding_rnn_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any,
                          cell: Any, num_symbols: int, embedding_size: int,
                          output_projection: Projection = None, feed_previous: bool = False,
                          update_embedding_for_previous: bool = True,
                          scope: Optional[Any] = None) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.embedding_rnn_decoder``: embeds integer decoder inputs
  (``embedding``, [num_symbols, embedding_size]) and runs rnn_decoder; with
  ``feed_previous`` each step after the first gets the previous output's argmax.

  Raises:
    ValueError: output_projection does not fit num_symbols.
  """
  with tf.variable_scope(scope or "embedding_rnn_decoder") as scope:
    _check_projection(output_projection, num_symbols, scope.dtype)
    embedding = tf.get_variable("embedding", [num_symbols, embedding_size])
    loop_function = (_extract_argmax_and_embed(embedding, output_projection,
                                               update_embedding_for_previous)
                     if feed_previous else None)
    embedded = (tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs)
    return rnn_decoder(embedded, initial_state, cell, loop_function=loop_function)


def embedding_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor],
                          decoder_inputs: Sequence[tf.Tensor], cell: Any,
                          num_encoder_symbols: int, num_decoder_symbols: int,
                          embedding_size: int, output_projection: Projection = None,
                          feed_previous: Any = False, dtype: Optional[tf.DType] = None,
                          scope: Optional[Any] = None) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.embedding_rnn_seq2seq``: embedding encoder and decoder; the
  decoder's outputs are projected to ``num_decoder_symbols`` unless
  ``output_projection`` is given. ``feed_previous`` may be a boolean tensor."""
  with tf.variable_scope(scope or "embedding_rnn_seq2seq") as scope:
    if dtype is not None:
      scope.set_dtype(dtype)
    else:
      dtype = scope.dtype
    encoder_cell = EmbeddingWrapper(copy.deepcopy(cell), embedding_classes=num_encoder_symbols,
                                    embedding_size=embedding_size)
    _, encoder_state = tf.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
    if output_projection is None:
      cell = OutputProjectionWrapper(cell, num_decoder_symbols)

    def decode(feed: bool, update: bool = True) -> Tuple[List[tf.Tensor], Any]:
      return embedding_rnn_decoder(
          decoder_inputs, encoder_state, cell, num_decoder_symbols, embedding_size,
          output_projection=output_projection, feed_previous=feed,
          update_embedding_for_previous=update)

    return _decode(decode, feed_previous, len(decoder_inputs), encoder_state)


def embedding_tied_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor],
                               decoder_inputs: Sequence[tf.Tensor], cell: Any,
                               num_symbols: int, embedding_size: int,
                               num_decoder_symbols: Optional[int] = None,
                               output_projection: Projection = None,
                               feed_previous: Any = False, dtype: Optional[tf.DType] = None,
                               scope: Optional[Any] = None) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.embedding_tied_rnn_seq2seq``: one embedding and one cell for
  encoder and decoder (tied_rnn_seq2seq over embedded inputs)."""
  with tf.variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as scope:
    dtype = scope.dtype
    _check_projection(output_projection, num_symbols, dtype)
    embedding = tf.get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
    emb_encoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in encoder_inputs]
    emb_decoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in decoder_inputs]
    if output_projection is None:
      cell = OutputProjectionWrapper(cell, num_decoder_symbols or num_symbols)

    def decode(feed: bool, update: bool = True) -> Tuple[List[tf.Tensor], Any]:
      loop_function = (_extract_argmax_and_embed(embedding, output_projection, update)
                       if feed else None)
      return tied_rnn_seq2seq(emb_encoder_inputs, emb_decoder_inputs, cell,
                              loop_function=loop_function, dtype=dtype)

    if isinstance(feed_previous, bool):
      return decode(feed_previous)
    batch_size = tf.compat.dimension_value(encoder_inputs[0].get_shape()[0])
    if batch_size is None:
      batch_size = tf.shape(encoder_inputs[0])[0]
    return _decode(decode, feed_previous, len(decoder_inputs),
                   cell.zero_state(batch_size, dtype))


def attention_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any,
                      attention_states: tf.Tensor, cell: Any,
                      output_size: Optional[int] = None, num_heads: int = 1,
                      loop_function: Optional[LoopFunction] = None,
                      dtype: Optional[tf.DType] = None, scope: Optional[Any] = None,
                      initial_state_attention: bool = False) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.attention_decoder``: an RNN decoder reading
  ``attention_states`` ([batch, length, size]) with ``num_heads`` attention heads.

  Args:
    decoder_inputs: a list of [batch, depth] tensors.
    initial_state: the cell's initial state.
    attention_states: [batch, attn_length, attn_size], attn_size known.
    cell: the RNN cell.
    output_size: the size of the outputs (the cell's output size).
    num_heads: how many attention heads read the states.
    loop_function: ``f(prev_output, i)`` -> the input of step i (> 0).
    dtype: the dtype of the variables (the scope's).
    scope: the variable scope ("attention_decoder").
    initial_state_attention: compute the first attention from the initial state
      (else it starts at zeros).

  Returns:
    (a list of [batch, output_size] outputs, the final state).

  Raises:
    ValueError: no decoder input, num_heads < 1, or an unknown size.
  """
  if not decoder_inputs:
    raise ValueError("Must provide at least 1 input to attention decoder.")
  if num_heads < 1:
    raise ValueError("With less than 1 heads, use a non-attention decoder.")
  attn_size = tf.compat.dimension_value(attention_states.get_shape()[2])
  if attn_size is None:
    raise ValueError(f"Shape[2] of attention_states must be known: "
                     f"{attention_states.get_shape()}")
  output_size = output_size or cell.output_size
  with tf.variable_scope(scope or "attention_decoder", dtype=dtype) as scope:
    dtype = scope.dtype
    batch_size = tf.shape(decoder_inputs[0])[0]
    attn_length = tf.compat.dimension_value(attention_states.get_shape()[1])
    if attn_length is None:
      attn_length = tf.shape(attention_states)[1]
    hidden = tf.reshape(attention_states, [-1, attn_length, 1, attn_size])
    hidden_features, v = [], []
    for head in range(num_heads):
      k = tf.get_variable(f"AttnW_{head}", [1, 1, attn_size, attn_size], dtype=dtype)
      hidden_features.append(tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME"))
      v.append(tf.get_variable(f"AttnV_{head}", [attn_size], dtype=dtype))

    def attention(query: Any) -> List[tf.Tensor]:
      if tf.nest.is_nested(query):
        query = tf.concat(tf.nest.flatten(query), 1)
      reads = []
      for head in range(num_heads):
        with tf.variable_scope(f"Attention_{head}"):
          y = tf.cast(tf.reshape(Linear(query, attn_size, True)(query),
                                 [-1, 1, 1, attn_size]), dtype)
          scores = tf.reduce_sum(v[head] * tf.tanh(hidden_features[head] + y), [2, 3])
          weights = tf.cast(tf.nn.softmax(tf.cast(scores, tf.float32)), dtype)
          read = tf.reduce_sum(tf.reshape(weights, [-1, attn_length, 1, 1]) * hidden, [1, 2])
          reads.append(tf.reshape(read, [-1, attn_size]))
      return reads

    state = initial_state
    outputs, prev = [], None
    attns = [tf.zeros(tf.stack([batch_size, attn_size]), dtype=dtype)
             for _ in range(num_heads)]
    for attn in attns:
      attn.set_shape([None, attn_size])
    if initial_state_attention:
      attns = attention(initial_state)
    for i, inp in enumerate(decoder_inputs):
      if i > 0:
        tf.get_variable_scope().reuse_variables()
      if loop_function is not None and prev is not None:
        with tf.variable_scope("loop_function", reuse=True):
          inp = loop_function(prev, i)
      input_size = tf.compat.dimension_value(inp.get_shape().with_rank(2)[1])
      if input_size is None:
        raise ValueError(f"Could not infer input size from input: {inp.name}")
      step_inputs = [tf.cast(e, dtype) for e in [inp, *attns]]
      cell_output, state = cell(Linear(step_inputs, input_size, True)(step_inputs), state)
      if i == 0 and initial_state_attention:
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
          attns = attention(state)
      else:
        attns = attention(state)
      with tf.variable_scope("AttnOutputProjection"):
        projected = [tf.cast(cell_output, dtype), *attns]
        output = Linear(projected, output_size, True)(projected)
      if loop_function is not None:
        prev = output
      outputs.append(output)
  return outputs, state


def embedding_attention_decoder(decoder_inputs: Sequence[tf.Tensor], initial_state: Any,
                                attention_states: tf.Tensor, cell: Any, num_symbols: int,
                                embedding_size: int, num_heads: int = 1,
                                output_size: Optional[int] = None,
                                output_projection: Projection = None,
                                feed_previous: bool = False,
                                update_embedding_for_previous: bool = True,
                                dtype: Optional[tf.DType] = None,
                                scope: Optional[Any] = None,
                                initial_state_attention: bool = False
                                ) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.embedding_attention_decoder``: attention_decoder over embedded
  integer inputs (``embedding``), greedy with ``feed_previous``.

  Raises:
    ValueError: output_projection does not fit num_symbols.
  """
  output_size = output_size or cell.output_size
  if output_projection is not None:
    biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
    biases.get_shape().assert_is_compatible_with([num_symbols])
  with tf.variable_scope(scope or "embedding_attention_decoder", dtype=dtype):
    embedding = tf.get_variable("embedding", [num_symbols, embedding_size])
    loop_function = (_extract_argmax_and_embed(embedding, output_projection,
                                               update_embedding_for_previous)
                     if feed_previous else None)
    embedded = [tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs]
    return attention_decoder(embedded, initial_state, attention_states, cell,
                             output_size=output_size, num_heads=num_heads,
                             loop_function=loop_function,
                             initial_state_attention=initial_state_attention)


def embedding_attention_seq2seq(encoder_inputs: Sequence[tf.Tensor],
                                decoder_inputs: Sequence[tf.Tensor], cell: Any,
                                num_encoder_symbols: int, num_decoder_symbols: int,
                                embedding_size: int, num_heads: int = 1,
                                output_projection: Projection = None,
                                feed_previous: Any = False, dtype: Optional[tf.DType] = None,
                                scope: Optional[Any] = None,
                                initial_state_attention: bool = False
                                ) -> Tuple[List[tf.Tensor], Any]:
  """TF1's ``legacy_seq2seq.embedding_attention_seq2seq``: an embedding encoder whose
  outputs an embedding attention decoder reads (the model of TF1's translate
  tutorial). ``feed_previous`` may be a boolean tensor."""
  with tf.variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as scope:
    dtype = scope.dtype
    encoder_cell = EmbeddingWrapper(copy.deepcopy(cell), embedding_classes=num_encoder_symbols,
                                    embedding_size=embedding_size)
    encoder_outputs, encoder_state = tf.nn.static_rnn(encoder_cell, encoder_inputs,
                                                      dtype=dtype)
    attention_states = tf.concat(
        [tf.reshape(e, [-1, 1, cell.output_size]) for e in encoder_outputs], 1)
    output_size = None
    if output_projection is None:
      cell = OutputProjectionWrapper(cell, num_decoder_symbols)
      output_size = num_decoder_symbols

    def decode(feed: bool, update: bool = True) -> Tuple[List[tf.Tensor], Any]:
      return embedding_attention_decoder(
          decoder_inputs, encoder_state, attention_states, cell, num_decoder_symbols,
          embedding_size, num_heads=num_heads, output_size=output_size,
          output_projection=output_projection, feed_previous=feed,
          update_embedding_for_previous=update,
          initial_state_attention=initial_state_attention)

    return _decode(decode, feed_previous, len(decoder_inputs), encoder_state)


def one2many_rnn_seq2seq(encoder_inputs: Sequence[tf.Tensor],
                         decoder_inputs_dict: Dict[str, Sequence[tf.Tensor]], enc_cell: Any,
                         dec_cells_dict: Dict[str, Any], num_encoder_symbols: int,
                         num_decoder_symbols_dict: Dict[str, int], embedding_size: int,
                         feed_previous: Any = False, dtype: Optional[tf.DType] = None,
                         scope: Optional[Any] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
  """TF1's ``legacy_seq2seq.one2many_rnn_seq2seq``: one embedding encoder, one embedding
  decoder per task (``one2many_decoder_<name>``).

  Raises:
    TypeError: a cell is not an RNN cell.
    ValueError: the decoder dicts do not match.
  """
  check_cell(enc_cell)
  if len(dec_cells_dict) != len(decoder_inputs_dict):
    raise ValueError("len(dec_cells_dict) != len(decoder_inputs_dict)")
  for dec_cell in dec_cells_dict.values():
    check_cell(dec_cell)
  with tf.variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as scope:
    dtype = scope.dtype
    enc_cell = EmbeddingWrapper(enc_cell, embedding_classes=num_encoder_symbols,
                                embedding_size=embedding_size)
    _, encoder_state = tf.nn.static_rnn(enc_cell, encoder_inputs, dtype=dtype)
    outputs_dict, state_dict = {}, {}
    for name, decoder_inputs in decoder_inputs_dict.items():
      num_decoder_symbols = num_decoder_symbols_dict[name]
      with tf.variable_scope(f"one2many_decoder_{name}"):
        dec_cell = OutputProjectionWrapper(dec_cells_dict[name], num_decoder_symbols)

        def decode(feed: bool, inputs=decoder_inputs, cell=dec_cell,
                   symbols=num_decoder_symbols) -> Tuple[List[tf.Tensor], Any]:
          return embedding_rnn_decoder(inputs, encoder_state, cell, symbols, embedding_size,
                                       feed_previous=feed)

        if isinstance(feed_previous, bool):
          outputs, state = decode(feed_previous)
        else:
          outputs, state = _decode_either_way(decode, feed_previous, len(decoder_inputs),
                                              encoder_state)
      outputs_dict[name], state_dict[name] = outputs, state
  return outputs_dict, state_dict


def sequence_loss_by_example(logits: Sequence[tf.Tensor], targets: Sequence[tf.Tensor],
                             weights: Sequence[tf.Tensor],
                             average_across_timesteps: bool = True,
                             softmax_loss_function: Optional[Callable[..., tf.Tensor]] = None,
                             name: Optional[str] = None) -> tf.Tensor:
  """TF1's ``legacy_seq2seq.sequence_loss_by_example``: the weighted cross-entropy of
  each example, summed over the steps (divided by the weights' sum, by default).

  Args:
    logits: a list of [batch, classes] tensors.
    targets: a list of [batch] int tensors.
    weights: a list of [batch] float tensors.
    average_across_timesteps: divide by the sum of the weights (+ 1e-12).
    softmax_loss_function: ``f(labels=, logits=)`` instead of sparse softmax
      cross-entropy.
    name: the op scope ("sequence_loss_by_example").

  Returns:
    A [batch] tensor.

  Raises:
    ValueError: the three lists differ in length.
  """
  if len(targets) != len(logits) or len(weights) != len(logits):
    raise ValueError("Lengths of logits, weights, and targets must be the same "
                     f"{len(logits)}, {len(weights)}, {len(targets)}.")
  with tf.name_scope(name, "sequence_loss_by_example", [*logits, *targets, *weights]):
    log_perps = []
    for logit, target, weight in zip(logits, targets, weights):
      if softmax_loss_function is None:
        crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.reshape(target, [-1]), logits=logit)
      else:
        crossent = softmax_loss_function(labels=target, logits=logit)
      log_perps.append(crossent * weight)
    total = tf.add_n(log_perps)
    if average_across_timesteps:
      total /= tf.add_n(weights) + 1e-12
  return total


def sequence_loss(logits: Sequence[tf.Tensor], targets: Sequence[tf.Tensor],
                  weights: Sequence[tf.Tensor], average_across_timesteps: bool = True,
                  average_across_batch: bool = True,
                  softmax_loss_function: Optional[Callable[..., tf.Tensor]] = None,
                  name: Optional[str] = None) -> tf.Tensor:
  """TF1's ``legacy_seq2seq.sequence_loss``: sequence_loss_by_example summed over the
  batch (divided by the batch size, by default); a scalar."""
  with tf.name_scope(name, "sequence_loss", [*logits, *targets, *weights]):
    cost = tf.reduce_sum(sequence_loss_by_example(
        logits, targets, weights, average_across_timesteps=average_across_timesteps,
        softmax_loss_function=softmax_loss_function))
    if not average_across_batch:
      return cost
    return cost / tf.cast(tf.shape(targets[0])[0], cost.dtype)


def model_with_buckets(encoder_inputs: Sequence[tf.Tensor],
                       decoder_inputs: Sequence[tf.Tensor], targets: Sequence[tf.Tensor],
                       weights: Sequence[tf.Tensor], buckets: Sequence[Tuple[int, int]],
                       seq2seq: Callable[[Sequence[tf.Tensor], Sequence[tf.Tensor]], Any],
                       softmax_loss_function: Optional[Callable[..., tf.Tensor]] = None,
                       per_example_loss: bool = False,
                       name: Optional[str] = None) -> Tuple[List[Any], List[tf.Tensor]]:
  """TF1's ``legacy_seq2seq.model_with_buckets``: one ``seq2seq`` model per bucket of
  (encoder length, decoder length), sharing variables, and each one's loss.

  Raises:
    ValueError: the inputs are shorter than the last bucket.
  """
  if len(encoder_inputs) < buckets[-1][0]:
    raise ValueError(f"Length of encoder_inputs ({len(encoder_inputs)}) must be at least "
                     f"that of last bucket ({buckets[-1][0]}).")
  for label, values in (("targets", targets), ("weights", weights)):
    if len(values) < buckets[-1][1]:
      raise ValueError(f"Length of {label} ({len(values)}) must be at least that of last "
                       f"bucket ({buckets[-1][1]}).")
  loss_function = sequence_loss_by_example if per_example_loss else sequence_loss
  losses, outputs = [], []
  all_inputs = [*encoder_inputs, *decoder_inputs, *targets, *weights]
  with tf.name_scope(name, "model_with_buckets", all_inputs):
    for j, (encoder_length, decoder_length) in enumerate(buckets):
      with tf.variable_scope(tf.get_variable_scope(), reuse=True if j > 0 else None):
        bucket_outputs, _ = seq2seq(encoder_inputs[:encoder_length],
                                    decoder_inputs[:decoder_length])
        outputs.append(bucket_outputs)
        losses.append(loss_function(bucket_outputs, targets[:decoder_length],
                                    weights[:decoder_length],
                                    softmax_loss_function=softmax_loss_function))
  return outputs, losses
