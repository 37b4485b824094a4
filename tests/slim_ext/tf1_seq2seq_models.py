"""Small TF1 attention decoders, built from whatever ``seq2seq`` module is passed in.

tests/slim_ext/data/tf1_seq2seq/make_fixture.py builds them with TensorFlow 1.15's own
``tf.contrib.seq2seq`` and saves a checkpoint and what they computed; tests/slim_ext/
test_contrib_seq2seq.py builds them with slim_ext.contrib.seq2seq on TensorFlow 2,
restores that checkpoint by name and compares. So this module runs on Python 3.7 /
TF 1.15 too: no TensorFlow import of its own, nothing newer than Python 3.7.

Each model lives in its own top-level variable scope (its name below).
"""
import numpy as np

BATCH, MEMORY_TIME, MEMORY_DEPTH, STEPS, INPUT_DEPTH = 2, 4, 6, 3, 5


def inputs():
  """The fixed inputs: memory [BATCH, MEMORY_TIME, MEMORY_DEPTH], its lengths, and the
  decoder's inputs [BATCH, STEPS, INPUT_DEPTH]."""
  state = np.random.RandomState(5)
  memory = state.uniform(-1, 1, size=(BATCH, MEMORY_TIME, MEMORY_DEPTH)).astype(np.float32)
  decoder_inputs = state.uniform(-1, 1, size=(BATCH, STEPS, INPUT_DEPTH)).astype(np.float32)
  return memory, np.array([MEMORY_TIME, 2], np.int32), decoder_inputs


def gather_tree_inputs():
  """Words [5, 2, 3] (9 is the end token) and the beams they came from."""
  state = np.random.RandomState(2)
  words = state.randint(0, 8, size=(5, 2, 3)).astype(np.int32)
  words[2, 0, 1] = 9
  parents = state.randint(0, 3, size=(5, 2, 3)).astype(np.int32)
  return words, parents


def build(tf, seq2seq):
  """Builds every model; returns {name: output tensor}.

  Args:
    tf: the v1 API (``tensorflow`` on 1.15, ``tensorflow.compat.v1`` on 2).
    seq2seq: ``tf.contrib.seq2seq`` or slim_ext.contrib.seq2seq.
  """
  memory_values, length_values, input_values = inputs()
  memory = tf.constant(memory_values)
  lengths = tf.constant(length_values)
  decoder_inputs = tf.constant(input_values)
  out = {}
  with tf.variable_scope("bahdanau"):
    # Normalized Bahdanau attention, an attention layer, the cell's output out, the
    # alignment history kept; decoded by BasicDecoder and dynamic_decode.
    mechanism = seq2seq.BahdanauAttention(4, memory, memory_sequence_length=lengths,
                                          normalize=True)
    cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.BasicLSTMCell(3), mechanism,
                                    attention_layer_size=5, alignment_history=True,
                                    output_attention=False)
    helper = seq2seq.TrainingHelper(decoder_inputs, tf.constant([STEPS, 2]))
    decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32),
                                   output_layer=tf.layers.Dense(7))
    outputs, state, _ = seq2seq.dynamic_decode(decoder)
    out["bahdanau/logits"] = outputs.rnn_output
    out["bahdanau/sample_id"] = outputs.sample_id
    out["bahdanau/alignment_history"] = state.alignment_history.stack()
    out["bahdanau/attention"] = state.attention
    out["bahdanau/time"] = state.time
  with tf.variable_scope("luong"):
    # Scaled Luong attention with the context as attention, its cell state from
    # elsewhere (clone), run by dynamic_rnn.
    mechanism = seq2seq.LuongAttention(4, memory, memory_sequence_length=lengths, scale=True)
    cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(4), mechanism)
    start = cell.zero_state(BATCH, tf.float32).clone(cell_state=tf.fill([BATCH, 4], 0.5))
    outputs, state = tf.nn.dynamic_rnn(cell, decoder_inputs, initial_state=start,
                                       dtype=tf.float32)
    out["luong/outputs"] = outputs
    out["luong/alignments"] = state.alignments
    out["luong/cell_state"] = state.cell_state
  with tf.variable_scope("both"):
    # Two mechanisms, one attention layer each; the cell's first state given.
    bahdanau = seq2seq.BahdanauAttention(3, memory, memory_sequence_length=lengths)
    luong = seq2seq.LuongAttention(3, memory, probability_fn=seq2seq.hardmax)
    initial = tf.nn.rnn_cell.LSTMStateTuple(tf.fill([BATCH, 3], 0.1), tf.fill([BATCH, 3], -0.2))
    cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.LSTMCell(3), [bahdanau, luong],
                                    attention_layer_size=[2, 3], initial_cell_state=initial)
    outputs, state = tf.nn.dynamic_rnn(cell, decoder_inputs,
                                       initial_state=cell.zero_state(BATCH, tf.float32),
                                       dtype=tf.float32)
    out["both/outputs"] = outputs
    out["both/alignments_0"], out["both/alignments_1"] = state.alignments
  with tf.variable_scope("beam"):
    # Beam search over an attention decoder (the memory tiled to the beams), GNMT's
    # length and coverage penalties, an embedding matrix and an output layer.
    beams, vocabulary, end = 3, 6, 1
    mechanism = seq2seq.BahdanauAttention(
        4, seq2seq.tile_batch(memory, beams),
        memory_sequence_length=seq2seq.tile_batch(lengths, beams))
    cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(4), mechanism,
                                    attention_layer_size=4)
    embedding = tf.get_variable("embedding", [vocabulary, INPUT_DEPTH])
    decoder = seq2seq.BeamSearchDecoder(
        cell, embedding, tf.fill([BATCH], 0), end, cell.zero_state(BATCH * beams, tf.float32),
        beams, output_layer=tf.layers.Dense(vocabulary), length_penalty_weight=0.6,
        coverage_penalty_weight=0.3)
    outputs, state, lengths_out = seq2seq.dynamic_decode(decoder, maximum_iterations=6)
    out["beam/predicted_ids"] = outputs.predicted_ids
    out["beam/scores"] = outputs.beam_search_decoder_output.scores
    out["beam/parent_ids"] = outputs.beam_search_decoder_output.parent_ids
    out["beam/log_probs"] = state.log_probs
    out["beam/lengths"] = state.lengths
    out["beam/decoded_lengths"] = lengths_out
  # gather_tree on its own, with broken paths (an end token mid-beam) and a short entry.
  step_values, parent_values = gather_tree_inputs()
  out["gather_tree"] = seq2seq.gather_tree(tf.constant(step_values), tf.constant(parent_values),
                                           tf.constant([5, 3]), 9)
  with tf.variable_scope("both"):
    loss = tf.reduce_sum(out["both/outputs"]) + tf.reduce_sum(out["bahdanau/logits"])
    weights = tf.trainable_variables()
    for variable, gradient in zip(weights, tf.gradients(loss, weights)):
      if gradient is not None:
        out["gradient/" + variable.op.name] = gradient
  with tf.variable_scope("monotonic"):
    # Both monotonic mechanisms (parallel and recursive), their score biases; the
    # hard mode and safe_cumprod on their own.
    bahdanau = seq2seq.BahdanauMonotonicAttention(4, memory, memory_sequence_length=lengths,
                                                  normalize=True, score_bias_init=-1.)
    luong = seq2seq.LuongMonotonicAttention(4, memory, scale=True, mode="recursive")
    cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(4), [bahdanau, luong],
                                    alignment_history=True)
    outputs, state = tf.nn.dynamic_rnn(cell, decoder_inputs, dtype=tf.float32,
                                       initial_state=cell.zero_state(BATCH, tf.float32))
    out["monotonic/outputs"] = outputs
    out["monotonic/history_0"] = state.alignment_history[0].stack()
    out["monotonic/history_1"] = state.alignment_history[1].stack()
    choose = tf.constant([[0.2, 0.7, 0.9, 0.1], [0.6, 0.0, 1.0, 0.3]])
    previous = tf.constant([[1.0, 0.0, 0.0, 0.0], [0.2, 0.5, 0.3, 0.0]])
    out["monotonic/hard"] = seq2seq.monotonic_attention(tf.cast(choose > 0.5, tf.float32),
                                                        previous, "hard")
    out["monotonic/safe_cumprod"] = seq2seq.safe_cumprod(choose, axis=1, exclusive=True)
  return out
