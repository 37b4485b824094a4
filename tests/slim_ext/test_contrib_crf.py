"""slim_ext.contrib.crf against TF 1.15's own tf.contrib.crf.

tests/slim_ext/data/tf1_crf holds a checkpoint TensorFlow 1.15 wrote for the tagger
of tests/slim_ext/tf1_crf_models.py, built there with ``tf.contrib.crf`` itself, and
everything that graph computed: log likelihoods, scores, decoded tags, gradients
(make_fixture.py in that directory says how it was made). Here the same graph is
built with slim_ext on this TensorFlow: the ``transitions`` variable must have TF1's
name and shape, the checkpoint must restore by name with a plain Saver, and every
output must be what TF 1.15 computed.
"""
import json
from pathlib import Path

import numpy as np
import pytest

import slim_ext  # noqa: F401  pylint: disable=unused-import
import tensorflow.compat.v1 as tf
from slim_ext.contrib import crf
from tests.slim_ext import tf1_fixture, tf1_crf_models

FIXTURE = Path(__file__).parent / "data" / "tf1_crf"


def _expected():
  return tf1_fixture.expected_outputs(FIXTURE)


@pytest.fixture(scope="module")
def restored():
  """(the graph's variables by name and shape, its outputs from TF 1.15's checkpoint)."""
  return tf1_fixture.restore(tf, lambda: tf1_crf_models.build(tf, crf), FIXTURE)


def test_the_transitions_variable_has_tf1s_name_and_shape(restored):
  variables, _ = restored
  assert variables == json.loads((FIXTURE / "variables.json").read_text())


@pytest.mark.parametrize("name", sorted(n for n in _expected() if not n.startswith("viterbi/")))
def test_outputs_match_tf1(restored, name):
  _, values = restored
  expected = _expected()[name]
  assert values[name].dtype == expected.dtype
  np.testing.assert_allclose(values[name], expected, rtol=1e-5, atol=1e-5)


def test_viterbi_decode_matches_tf1():
  potentials, _, _, transitions = tf1_crf_models.inputs()
  expected = _expected()
  decoded = 0
  for row, length in enumerate(tf1_crf_models.LENGTHS):
    if length:
      tags, score = crf.viterbi_decode(potentials[row, :length], transitions)
      assert isinstance(tags, list)
      assert tags == expected[f"viterbi/tags_{row}"].tolist()
      np.testing.assert_allclose(score, expected[f"viterbi/score_{row}"], rtol=1e-6)
      decoded += 1
  assert decoded == 3


def test_the_likelihood_reuses_the_scope_s_transitions():
  with tf.Graph().as_default():
    x = tf.ones([2, 4, 3])
    y = tf.zeros([2, 4], tf.int32)
    with tf.variable_scope("crf"):
      _, made = crf.crf_log_likelihood(x, y, tf.constant([4, 2]))
    with tf.variable_scope("crf", reuse=True):
      _, reused = crf.crf_log_likelihood(x, y, tf.constant([4, 2]))
    assert made is reused
    assert [v.op.name for v in tf.trainable_variables()] == ["crf/transitions"]
