"""Small TF1 recurrent models, built from whatever library is passed in.

tests/slim_ext/data/tf1_rnn/make_fixture.py builds them with TensorFlow 1.15's own
``tf.contrib.rnn`` / ``cudnn_rnn`` / ``legacy_seq2seq`` and saves a checkpoint and
their outputs; tests/slim_ext/test_contrib_rnn.py builds the same graph with
slim_ext's stand-ins on TensorFlow 2, restores that checkpoint by name and checks
the outputs. So this module runs on Python 3.7 / TF 1.15 too: no TensorFlow
import of its own, nothing newer than Python 3.7.

Each model lives in its own top-level variable scope (its name below).
"""
import numpy as np

BATCH, TIME, DEPTH = 2, 5, 3


def inputs():
  """The fixed inputs: float sequences [BATCH, TIME, DEPTH] and int symbols."""
  state = np.random.RandomState(0)
  floats = state.uniform(-1, 1, size=(BATCH, TIME, DEPTH)).astype(np.float32)
  symbols = state.randint(0, 7, size=(TIME, BATCH)).astype(np.int32)
  return floats, symbols


def build(tf, rnn, rnn_cell, cudnn_rnn, legacy_seq2seq, seq2seq):
  """Builds every model; returns {name: output tensor}.

  Args:
    tf: the v1 API (``tensorflow`` on 1.15, ``tensorflow.compat.v1`` on 2).
    rnn: ``tf.contrib.rnn`` or slim_ext.contrib.rnn.
    rnn_cell: ``tf.contrib.rnn.python.ops.rnn_cell`` (LayerNormLSTMCell is only there)
      or slim_ext.contrib.rnn.rnn_cell.
    cudnn_rnn: ``tf.contrib.cudnn_rnn`` or slim_ext.contrib.cudnn_rnn.
    legacy_seq2seq: ``tf.contrib.legacy_seq2seq`` or slim_ext.contrib.legacy_seq2seq.
    seq2seq: ``tf.contrib.seq2seq`` or slim_ext.contrib.seq2seq.
  """
  floats, symbols = inputs()
  x = tf.constant(floats)
  lengths = tf.constant([TIME, 3], dtype=tf.int32)
  steps = tf.unstack(x, axis=1)
  outputs = {}

  def dynamic(name, cell, values=x, **kwargs):
    with tf.variable_scope(name):
      out, state = tf.nn.dynamic_rnn(cell, values, dtype=tf.float32, **kwargs)
    outputs[name] = out
    outputs[name + "/state"] = tf.concat(tf.nest.flatten(state), 1)

  dynamic("lstm_block", rnn.LSTMBlockCell(4, use_peephole=True, cell_clip=0.5))
  dynamic("lstm_block_plain", rnn.LSTMBlockCell(4), sequence_length=lengths)
  dynamic("gru_block", rnn.GRUBlockCell(4))
  dynamic("gru_block_v2", rnn.GRUBlockCellV2(4))
  dynamic("layer_norm_basic", rnn.LayerNormBasicLSTMCell(4))
  dynamic("layer_norm_basic_no_norm", rnn.LayerNormBasicLSTMCell(4, layer_norm=False))
  dynamic("layer_norm_lstm", rnn_cell.LayerNormLSTMCell(4, use_peepholes=True, num_proj=3,
                                                   layer_norm=True, cell_clip=2.0))
  dynamic("coupled", rnn.CoupledInputForgetGateLSTMCell(4, use_peepholes=True, num_proj=3,
                                                        num_unit_shards=2))
  dynamic("nas", rnn.NASCell(4, num_proj=3, use_bias=True))
  dynamic("ugrnn", rnn.UGRNNCell(4))
  dynamic("attention", rnn.AttentionCellWrapper(rnn.BasicLSTMCell(4), attn_length=3))
  dynamic("highway", rnn.HighwayWrapper(rnn.BasicRNNCell(DEPTH),
                                        couple_carry_transform_gates=False))
  dynamic("projections", rnn.OutputProjectionWrapper(
      rnn.InputProjectionWrapper(rnn.GRUCell(4), 5, activation=tf.tanh), 2))
  dynamic("embedding", rnn.EmbeddingWrapper(rnn.BasicLSTMCell(4), 7, 3),
          values=tf.expand_dims(tf.transpose(tf.constant(symbols)), -1))
  dynamic("cudnn_lstm_cell", cudnn_rnn.CudnnCompatibleLSTMCell(4))
  dynamic("cudnn_gru_cell", cudnn_rnn.CudnnCompatibleGRUCell(4))

  with tf.variable_scope("fused"):
    fused = rnn.LSTMBlockFusedCell(4, use_peephole=True)
    time_major = tf.transpose(x, [1, 0, 2])
    out, state = fused(time_major, dtype=tf.float32, sequence_length=lengths)
    outputs["fused"] = out
    outputs["fused/state"] = tf.concat(list(state), 1)
  with tf.variable_scope("fused_reversed"):
    backward = rnn.TimeReversedFusedRNN(
        rnn.FusedRNNCellAdaptor(rnn.BasicLSTMCell(3), use_dynamic_rnn=True))
    out, _ = backward(tf.transpose(x, [1, 0, 2]), dtype=tf.float32,
                      sequence_length=lengths)
    outputs["fused_reversed"] = out
  with tf.variable_scope("stacked"):
    out, _, _ = rnn.stack_bidirectional_dynamic_rnn(
        [rnn.LSTMBlockCell(3), rnn.GRUCell(3)], [rnn.LSTMBlockCell(3), rnn.GRUCell(3)], x,
        dtype=tf.float32, sequence_length=lengths)
    outputs["stacked"] = out
  with tf.variable_scope("stacked_static"):
    out, _, _ = rnn.stack_bidirectional_rnn([rnn.BasicLSTMCell(3)], [rnn.BasicLSTMCell(3)],
                                            steps, dtype=tf.float32)
    outputs["stacked_static"] = tf.stack(out, 1)

  encoder_symbols = tf.unstack(tf.constant(symbols))
  decoder_symbols = [tf.mod(s, 6) for s in encoder_symbols[::-1]]  # 6 decoder symbols
  with tf.variable_scope("seq2seq_basic"):
    out, _ = legacy_seq2seq.basic_rnn_seq2seq(steps, steps[::-1], rnn.BasicLSTMCell(4))
    outputs["seq2seq_basic"] = tf.stack(out, 1)
  with tf.variable_scope("seq2seq_tied"):
    out, _ = legacy_seq2seq.tied_rnn_seq2seq(steps, steps[::-1], rnn.GRUCell(4))
    outputs["seq2seq_tied"] = tf.stack(out, 1)
  with tf.variable_scope("seq2seq_attention"):
    cell = rnn.GRUCell(4)
    encoded, state = tf.nn.static_rnn(cell, steps, dtype=tf.float32)
    attention_states = tf.stack(encoded, 1)
    out, _ = legacy_seq2seq.attention_decoder(steps, state, attention_states, cell,
                                              num_heads=2, initial_state_attention=True)
    outputs["seq2seq_attention"] = tf.stack(out, 1)
  with tf.variable_scope("seq2seq_embedding_attention"):
    out, _ = legacy_seq2seq.embedding_attention_seq2seq(
        encoder_symbols, decoder_symbols, rnn.BasicLSTMCell(4), num_encoder_symbols=7,
        num_decoder_symbols=6, embedding_size=3, feed_previous=True)
    outputs["seq2seq_embedding_attention"] = tf.stack(out, 1)
  with tf.variable_scope("seq2seq_embedding"):
    out, _ = legacy_seq2seq.embedding_rnn_seq2seq(
        encoder_symbols, decoder_symbols, rnn.GRUCell(4), num_encoder_symbols=7,
        num_decoder_symbols=6, embedding_size=3, feed_previous=tf.constant(False))
    outputs["seq2seq_embedding"] = tf.stack(out, 1)
    targets = decoder_symbols[1:] + decoder_symbols[:1]
    weights = [tf.ones([BATCH]) for _ in decoder_symbols]
    outputs["seq2seq_embedding/loss"] = legacy_seq2seq.sequence_loss(out, targets, weights)
    outputs["seq2seq_embedding/loss_by_example"] = legacy_seq2seq.sequence_loss_by_example(
        out, targets, weights)
  with tf.variable_scope("seq2seq_embedding_tied"):
    out, _ = legacy_seq2seq.embedding_tied_rnn_seq2seq(
        encoder_symbols, encoder_symbols[::-1], rnn.BasicLSTMCell(4), num_symbols=7,
        embedding_size=3, feed_previous=True)
    outputs["seq2seq_embedding_tied"] = tf.stack(out, 1)

  lengths_all = tf.constant([TIME, TIME], dtype=tf.int32)
  with tf.variable_scope("decode_training"):
    cell = rnn.LSTMBlockCell(4)
    decoder = seq2seq.BasicDecoder(
        cell, seq2seq.TrainingHelper(x, lengths), cell.zero_state(BATCH, tf.float32),
        output_layer=tf.layers.Dense(5))
    out, state, final_lengths = seq2seq.dynamic_decode(decoder, impute_finished=True)
    outputs["decode_training"] = out.rnn_output
    outputs["decode_training/ids"] = out.sample_id
    outputs["decode_training/state"] = tf.concat(list(state), 1)
    outputs["decode_training/lengths"] = final_lengths
    targets = tf.cast(tf.argmax(out.rnn_output, -1), tf.int32)
    outputs["decode_training/loss"] = seq2seq.sequence_loss(
        out.rnn_output, targets, tf.sequence_mask(lengths, tf.shape(targets)[1],
                                                   dtype=tf.float32))
  with tf.variable_scope("decode_greedy"):
    embedding = tf.get_variable("embedding", [6, DEPTH])
    cell = rnn.GRUCell(4)
    decoder = seq2seq.BasicDecoder(
        cell, seq2seq.GreedyEmbeddingHelper(embedding, tf.constant([1, 2]), 5),
        cell.zero_state(BATCH, tf.float32), output_layer=tf.layers.Dense(6))
    out, _, final_lengths = seq2seq.dynamic_decode(decoder, maximum_iterations=TIME,
                                                   output_time_major=True)
    outputs["decode_greedy"] = out.rnn_output
    outputs["decode_greedy/lengths"] = final_lengths
  with tf.variable_scope("decode_scheduled"):
    cell = rnn.BasicLSTMCell(DEPTH)
    helper = seq2seq.ScheduledOutputTrainingHelper(
        x, lengths_all, sampling_probability=0.0, next_inputs_fn=tf.tanh)
    decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
    out, _, _ = seq2seq.dynamic_decode(decoder)
    outputs["decode_scheduled"] = out.rnn_output
  with tf.variable_scope("decode_inference"):
    cell = rnn.BasicRNNCell(DEPTH)
    helper = seq2seq.InferenceHelper(
        sample_fn=tf.tanh, sample_shape=[DEPTH], sample_dtype=tf.float32,
        start_inputs=x[:, 0], end_fn=lambda sample: tf.reduce_sum(sample, -1) > 2.5)
    decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
    out, _, final_lengths = seq2seq.dynamic_decode(decoder, maximum_iterations=TIME)
    outputs["decode_inference"] = out.rnn_output
    outputs["decode_inference/lengths"] = final_lengths
  outputs["tile_batch"] = seq2seq.tile_batch(x, 3)
  outputs["hardmax"] = seq2seq.hardmax(x)
  return outputs
