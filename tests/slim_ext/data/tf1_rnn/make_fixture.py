"""Writes this directory's fixture: TF 1.15's own contrib RNN models, saved.

tests/slim_ext/tf1_rnn_models.py builds small models with TensorFlow 1.15's
``tf.contrib.rnn``, ``tf.contrib.cudnn_rnn``, ``tf.contrib.legacy_seq2seq`` and
``tf.contrib.seq2seq``;
this script (with tests/slim_ext/tf1_fixture.py) gives every variable a random value,
runs the models and writes

  model.ckpt.index, model.ckpt.data-00000-of-00001   the checkpoint (V2)
  outputs.npz                                         every model's outputs
  variables.json                                      each variable's name and shape

tests/slim_ext/test_contrib_rnn.py restores the checkpoint into the same models
built with slim_ext's stand-ins on TensorFlow 2 and compares the outputs. It needs
TensorFlow 1.15, which installs on Python 3.7 only (made so, 2026-11-26):

  python3.7 -m venv /tmp/tf115
  /tmp/tf115/bin/pip install 'tensorflow-cpu==1.15.*' 'numpy<1.19' 'protobuf<3.21'
  /tmp/tf115/bin/python tests/slim_ext/data/tf1_rnn/make_fixture.py
"""
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import tf1_fixture  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import tf1_rnn_models  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def main():
  assert tf.__version__.startswith("1.15"), tf.__version__
  with tf.Graph().as_default():
    from tensorflow.contrib.rnn.python.ops import rnn_cell  # pylint: disable=g-import-not-at-top
    outputs = tf1_rnn_models.build(tf, tf.contrib.rnn, rnn_cell, tf.contrib.cudnn_rnn,
                                   tf.contrib.legacy_seq2seq, tf.contrib.seq2seq)
    tf1_fixture.save(tf, outputs, HERE)


if __name__ == "__main__":
  main()
