"""Writes this directory's fixture: TF 1.15's own tf.contrib.seq2seq attention, saved.

tests/slim_ext/tf1_seq2seq_models.py builds four attention decoders with TensorFlow
1.15's ``tf.contrib.seq2seq`` (Bahdanau and Luong mechanisms, the AttentionWrapper,
BasicDecoder, BeamSearchDecoder, dynamic_decode, gather_tree); tf1_fixture.py saves their
checkpoint, outputs and gradients, and the variables' names and shapes, and
tests/slim_ext/test_contrib_seq2seq.py compares slim_ext's models with them. Run with
TensorFlow 1.15 on Python 3.7 (tf1_fixture.py says how to make that venv):

  /tmp/tf115/bin/python tests/slim_ext/data/tf1_seq2seq/make_fixture.py
"""
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import tf1_fixture  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import tf1_seq2seq_models  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def main():
  assert tf.__version__.startswith("1.15"), tf.__version__
  with tf.Graph().as_default():
    tf1_fixture.save(tf, tf1_seq2seq_models.build(tf, tf.contrib.seq2seq), HERE)


if __name__ == "__main__":
  main()
