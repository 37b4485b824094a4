"""slim_ext's tf.contrib.rnn / cudnn_rnn / (legacy_)seq2seq stand-ins against TF 1.15's own.

tests/slim_ext/data/tf1_rnn holds a checkpoint TensorFlow 1.15 wrote for the models
of tests/slim_ext/tf1_rnn_models.py, built there with ``tf.contrib`` itself, and
what those models computed (make_fixture.py in that directory says how it was
made). Here the same models are built with slim_ext on this TensorFlow: every
variable must have the name and shape TF 1.15 gave it, the checkpoint must restore
by name with a plain Saver, and every output must be what TF 1.15 computed.
"""
import json
from pathlib import Path

import numpy as np
import pytest

import slim_ext  # noqa: F401  pylint: disable=unused-import
import tensorflow.compat.v1 as tf
from slim_ext.contrib import cudnn_rnn, legacy_seq2seq, rnn, seq2seq
from slim_ext.contrib.rnn import rnn_cell
from tests.slim_ext import tf1_rnn_models

FIXTURE = Path(__file__).parent / "data" / "tf1_rnn"


@pytest.fixture(scope="module")
def restored():
  """(the graph's variables by name, its outputs computed from TF 1.15's checkpoint)."""
  graph = tf.Graph()
  with graph.as_default():
    outputs = tf1_rnn_models.build(tf, rnn, rnn_cell, cudnn_rnn, legacy_seq2seq, seq2seq)
    variables = {v.op.name: v.get_shape().as_list() for v in tf.global_variables()}
    with tf.Session() as session:
      tf.train.Saver().restore(session, str(FIXTURE / "model.ckpt"))
      values = session.run(outputs)
  return variables, values


def _expected_outputs():
  with np.load(FIXTURE / "outputs.npz") as saved:
    return {name.replace("__", "/"): saved[name] for name in saved.files}


def test_every_variable_has_tf1s_name_and_shape(restored):
  variables, _ = restored
  expected = json.loads((FIXTURE / "variables.json").read_text())
  assert sorted(set(expected) - set(variables)) == []  # missing here
  assert sorted(set(variables) - set(expected)) == []  # not in TF 1.15's graph
  assert {name: shape for name, shape in variables.items()
          if shape != expected[name]} == {}


@pytest.mark.parametrize("name", sorted(_expected_outputs()))
def test_outputs_match_tf1(restored, name):
  _, values = restored
  np.testing.assert_allclose(values[name], _expected_outputs()[name], rtol=1e-5, atol=1e-5)


def test_lstm_block_cell_trains():
  # The step is written in core ops: gradients flow (TF 2 has the LSTMBlockCell kernel
  # but no gradient for it).
  with tf.Graph().as_default():
    x = tf.ones([2, 3, 4])
    outputs, _ = tf.nn.dynamic_rnn(rnn.LSTMBlockCell(5, use_peephole=True), x,
                                   dtype=tf.float32)
    loss = tf.reduce_sum(outputs)
    gradients = tf.gradients(loss, tf.trainable_variables())
    assert len(gradients) == 5 and all(g is not None for g in gradients)


def test_the_package_also_stands_for_tf_contrib_rnn_as_a_value():
  # ``from tensorflow.contrib import rnn``: the core names are there too, one object each.
  assert rnn.BasicLSTMCell is tf.nn.rnn_cell.BasicLSTMCell
  assert rnn.static_rnn is tf.nn.static_rnn
  assert rnn.LayerRNNCell is tf.nn.rnn_cell.BasicRNNCell.__bases__[0]
  with pytest.raises(AttributeError, match="ConvLSTMCell"):
    assert rnn.ConvLSTMCell is None


def test_core_rnn_cell_also_holds_tf_1_1s_core_cells():
  # TF 1.0-1.1's contrib.rnn.python.ops.core_rnn_cell held the cells TF 1.2 moved to
  # tf.nn.rnn_cell; the module a ported import of it binds has them, the same objects.
  from slim_ext.contrib.rnn import core_rnn_cell  # pylint: disable=g-import-not-at-top
  for name in ("BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell",
               "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "ResidualWrapper"):
    assert getattr(core_rnn_cell, name) is getattr(tf.nn.rnn_cell, name), name
  assert set(core_rnn_cell.__all__) >= {"LSTMStateTuple", "EmbeddingWrapper"}
