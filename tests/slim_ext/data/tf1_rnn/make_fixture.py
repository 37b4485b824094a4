"""Writes this directory's fixture: TF 1.15's own contrib RNN models, saved.

tests/slim_ext/tf1_rnn_models.py builds small models with TensorFlow 1.15's
``tf.contrib.rnn``, ``tf.contrib.cudnn_rnn``, ``tf.contrib.legacy_seq2seq`` and
``tf.contrib.seq2seq``;
this script gives every variable a random value, runs the models and writes

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
import json
import os
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import tf1_rnn_models  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def main():
  assert tf.__version__.startswith("1.15"), tf.__version__
  graph = tf.Graph()
  with graph.as_default():
    from tensorflow.contrib.rnn.python.ops import rnn_cell  # pylint: disable=g-import-not-at-top
    outputs = tf1_rnn_models.build(tf, tf.contrib.rnn, rnn_cell, tf.contrib.cudnn_rnn,
                                   tf.contrib.legacy_seq2seq, tf.contrib.seq2seq)
    variables = tf.global_variables()
    saver = tf.train.Saver(variables)
    values = np.random.RandomState(1)
    with tf.Session() as session:
      session.run(tf.global_variables_initializer())
      for variable in variables:
        shape = variable.get_shape().as_list()
        variable.load((values.normal(size=shape) * 0.5).astype(np.float32), session)
      results = session.run(outputs)
      saver.save(session, os.path.join(HERE, "model.ckpt"), write_meta_graph=False,
                 write_state=False)
  np.savez(os.path.join(HERE, "outputs.npz"), **{k.replace("/", "__"): v
                                                for k, v in results.items()})
  shapes = sorted((v.op.name, v.get_shape().as_list()) for v in variables)
  with open(os.path.join(HERE, "variables.json"), "w") as listing:
    listing.write("{\n" + ",\n".join("%s: %s" % (json.dumps(name), json.dumps(shape))
                                      for name, shape in shapes) + "\n}\n")
  print(f"{len(variables)} variables, {len(results)} outputs written to {HERE}")


if __name__ == "__main__":
  main()
