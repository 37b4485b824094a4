"""slim_ext.contrib.seq2seq's attention and beam search against TF 1.15's tf.contrib.seq2seq.

tests/slim_ext/data/tf1_seq2seq holds a checkpoint TensorFlow 1.15 wrote for the
attention decoders of tests/slim_ext/tf1_seq2seq_models.py (one searched with beams),
built there with ``tf.contrib.seq2seq`` itself, and what they computed, gradients included
(make_fixture.py in that directory says how it was made). Here the same models are
built with slim_ext on this TensorFlow: every variable must have the name and shape
TF 1.15 gave it, the checkpoint must restore by name, every output must be TF 1.15's.
"""
import json
from pathlib import Path

import numpy as np
import pytest

import slim_ext  # noqa: F401  pylint: disable=unused-import
import tensorflow.compat.v1 as tf
from slim_ext.contrib import seq2seq
from tests.slim_ext import tf1_fixture, tf1_seq2seq_models

FIXTURE = Path(__file__).parent / "data" / "tf1_seq2seq"


def _expected():
  return tf1_fixture.expected_outputs(FIXTURE)


@pytest.fixture(scope="module")
def restored():
  """(the graph's variables by name and shape, its outputs from TF 1.15's checkpoint)."""
  return tf1_fixture.restore(tf, lambda: tf1_seq2seq_models.build(tf, seq2seq), FIXTURE)


def test_every_variable_has_tf1s_name_and_shape(restored):
  variables, _ = restored
  assert variables == json.loads((FIXTURE / "variables.json").read_text())


def test_the_same_outputs_and_gradients_exist(restored):
  # Where TF 1.15 had no gradient (the hardmax Luong keys: argmax), TF 2's while loop
  # (control flow v2) gives zeros for what the loop captured.
  _, values = restored
  extra = sorted(set(values) - set(_expected()))
  assert extra == ["gradient/both/memory_layer_1/kernel"]
  assert not values[extra[0]].any()
  assert sorted(set(_expected()) - set(values)) == []


@pytest.mark.parametrize("name", sorted(_expected()))
def test_outputs_match_tf1(restored, name):
  _, values = restored
  np.testing.assert_allclose(values[name], _expected()[name], rtol=1e-5, atol=1e-5)


def test_the_state_is_checked_as_in_tf1():
  with tf.Graph().as_default():
    memory = tf.zeros([2, 3, 4])
    cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(4),
                                    seq2seq.LuongAttention(4, memory))
    with pytest.raises(TypeError, match="Expected state to be instance of "
                                        "AttentionWrapperState"):
      cell(tf.zeros([2, 1]), tf.zeros([2, 4]))
    with pytest.raises(TypeError, match="must be an AttentionMechanism"):
      seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(4), memory)
