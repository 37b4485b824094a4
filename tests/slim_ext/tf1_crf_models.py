"""A small TF1 CRF tagger's graph, built from whatever ``crf`` module is passed in.

tests/slim_ext/data/tf1_crf/make_fixture.py builds it with TensorFlow 1.15's own
``tf.contrib.crf`` and saves a checkpoint and what it computed (scores, log
likelihoods, decoded tags, gradients, NumPy Viterbi paths); tests/slim_ext/
test_contrib_crf.py builds it with slim_ext.contrib.crf on TensorFlow 2, restores
the checkpoint by name and compares. So this module runs on Python 3.7 / TF 1.15 too:
no TensorFlow import of its own, nothing newer than Python 3.7.
"""
import numpy as np

BATCH, TIME, TAGS = 4, 5, 3
# A full sequence, two shorter ones and an empty one (TF1 scores it 0).
LENGTHS = [5, 3, 1, 0]


def inputs():
  """The fixed inputs: potentials [BATCH, TIME, TAGS], tags, a tag bitmap, and a
  transition matrix for the calls that are given one."""
  state = np.random.RandomState(7)
  potentials = state.normal(size=(BATCH, TIME, TAGS)).astype(np.float32)
  tags = state.randint(0, TAGS, size=(BATCH, TIME)).astype(np.int32)
  bitmap = state.uniform(size=(BATCH, TIME, TAGS)) < 0.6
  bitmap[np.arange(BATCH)[:, None], np.arange(TIME)[None, :], tags] = True
  transitions = state.normal(size=(TAGS, TAGS)).astype(np.float32)
  return potentials, tags, bitmap, transitions


def build(tf, crf):
  """Builds the graph; returns {name: tensor}.

  Args:
    tf: the v1 API (``tensorflow`` on 1.15, ``tensorflow.compat.v1`` on 2).
    crf: ``tf.contrib.crf`` or slim_ext.contrib.crf.
  """
  potentials, tags, bitmap, transitions = inputs()
  x = tf.constant(potentials)
  y = tf.constant(tags)
  lengths = tf.constant(LENGTHS, dtype=tf.int32)
  given = tf.constant(transitions)
  out = {}
  with tf.variable_scope("tagger"):
    # What TF1 taggers wrote: the transitions made by the likelihood, reused to decode.
    hidden = tf.layers.dense(x, TAGS, name="logits")
    log_likelihood, learned = crf.crf_log_likelihood(hidden, y, lengths)
    loss = tf.reduce_mean(-log_likelihood)
    out["log_likelihood"] = log_likelihood
    out["loss"] = loss
    out["decode_tags"], out["decode_score"] = crf.crf_decode(hidden, learned, lengths)
    weights = [v for v in tf.trainable_variables() if v.op.name.startswith("tagger/")]
    for variable, gradient in zip(weights, tf.gradients(loss, weights)):
      out["gradient/" + variable.op.name] = gradient
    out["gradient/logits"] = tf.gradients(loss, hidden)[0]
  out["sequence_score"] = crf.crf_sequence_score(x, y, lengths, given)
  out["sequence_score_int64"] = crf.crf_sequence_score(x, tf.cast(y, tf.int64), lengths,
                                                       given)
  out["unary_score"] = crf.crf_unary_score(y, lengths, x)
  out["binary_score"] = crf.crf_binary_score(y, lengths, given)
  out["log_norm"] = crf.crf_log_norm(x, lengths, given)
  out["multitag_score"] = crf.crf_multitag_sequence_score(x, tf.constant(bitmap), lengths,
                                                          given)
  given_likelihood, _ = crf.crf_log_likelihood(x, y, lengths, given)
  out["given_log_likelihood"] = given_likelihood
  out["given_gradient"] = tf.gradients(tf.reduce_sum(given_likelihood), x)[0]
  out["given_decode_tags"], out["given_decode_score"] = crf.crf_decode(x, given, lengths)
  # One time step: TF1's short paths.
  one = x[:, :1]
  out["one_step/log_likelihood"] = crf.crf_log_likelihood(one, y[:, :1], lengths, given)[0]
  out["one_step/decode_tags"], out["one_step/decode_score"] = crf.crf_decode(one, given,
                                                                              lengths)
  out["one_step/multitag_score"] = crf.crf_multitag_sequence_score(
      one, tf.constant(bitmap[:, :1]), lengths, given)
  # A time dimension unknown while building: the choice is made when the graph runs.
  unknown = tf.placeholder_with_default(x, [BATCH, None, TAGS])
  unknown_tags = tf.placeholder_with_default(y, [BATCH, None])
  out["unknown_time/log_likelihood"] = crf.crf_log_likelihood(
      unknown, unknown_tags, lengths, given)[0]
  out["unknown_time/decode_tags"] = crf.crf_decode(unknown, given, lengths)[0]
  # The forward cell as TF1 users ran it themselves.
  with tf.variable_scope("forward_cell"):
    out["forward_cell/alphas"], _ = tf.nn.dynamic_rnn(
        crf.CrfForwardRnnCell(given), x[:, 1:], initial_state=x[:, 0],
        dtype=tf.float32)
  return out
