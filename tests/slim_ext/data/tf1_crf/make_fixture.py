"""Writes this directory's fixture: TF 1.15's own tf.contrib.crf on a small tagger.

tests/slim_ext/tf1_crf_models.py builds a dense layer with a CRF on top, and calls
every public function of ``tf.contrib.crf``, with TensorFlow 1.15's own; this script
(with tests/slim_ext/tf1_fixture.py) gives every variable a random value, runs the
graph and writes

  model.ckpt.index, model.ckpt.data-00000-of-00001   the checkpoint (V2)
  outputs.npz                                         every output, the gradients
                                                      included, and viterbi/* (NumPy
                                                      ``viterbi_decode`` of each sequence)
  variables.json                                      each variable's name and shape

tests/slim_ext/test_contrib_crf.py restores the checkpoint into the same graph built
with slim_ext.contrib.crf on TensorFlow 2 and compares. It needs TensorFlow 1.15 on
Python 3.7 (tests/slim_ext/tf1_fixture.py says how to make that venv):

  /tmp/tf115/bin/python tests/slim_ext/data/tf1_crf/make_fixture.py
"""
import os
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import tf1_crf_models  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import tf1_fixture  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def main():
  assert tf.__version__.startswith("1.15"), tf.__version__
  potentials, _, _, transitions = tf1_crf_models.inputs()
  viterbi = {}
  for row, length in enumerate(tf1_crf_models.LENGTHS):
    if length:
      tags, score = tf.contrib.crf.viterbi_decode(potentials[row, :length], transitions)
      viterbi["viterbi/tags_%d" % row] = np.array(tags)
      viterbi["viterbi/score_%d" % row] = np.array(score)
  with tf.Graph().as_default():
    tf1_fixture.save(tf, tf1_crf_models.build(tf, tf.contrib.crf), HERE, more=viterbi)


if __name__ == "__main__":
  main()
