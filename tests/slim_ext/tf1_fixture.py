"""Writing a fixture of TF 1.15's numbers: what each data/tf1_*/make_fixture.py shares.

A make_fixture script builds a graph with TensorFlow 1.15's own ``tf.contrib`` (from a
``tf1_*_models.py`` module that the test builds again with slim_ext), and ``save``
gives every variable a random value, runs the graph's outputs and writes, in the
fixture's directory:

  model.ckpt.index, model.ckpt.data-00000-of-00001   the checkpoint (V2)
  outputs.npz                                         every output ("/" spelled "__")
  variables.json                                      each variable's name and shape

It runs on Python 3.7 with TensorFlow 1.15 (the only Python it installs on; made so,
2026-11-26):

  python3.7 -m venv /tmp/tf115
  /tmp/tf115/bin/pip install 'tensorflow-cpu==1.15.*' 'numpy<1.19' 'protobuf<3.21'

so it has no TensorFlow import of its own (``tf`` is passed in), nothing newer than
Python 3.7.
"""
import json
import os

import numpy as np


def save(tf, outputs, directory, more=None):
  """Sets the default graph's variables, runs ``outputs`` and writes the fixture.

  Args:
    tf: TensorFlow 1.15.
    outputs: {name: tensor} of the default graph.
    directory: where the files go.
    more: {name: array} computed outside the graph, saved with the outputs.

  Returns:
    {name: value} of what was saved.
  """
  variables = tf.global_variables()
  saver = tf.train.Saver(variables)
  values = np.random.RandomState(1)
  with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for variable in variables:
      shape = variable.get_shape().as_list()
      variable.load((values.normal(size=shape) * 0.5).astype(np.float32), session)
    results = session.run(outputs)
    saver.save(session, os.path.join(directory, "model.ckpt"), write_meta_graph=False,
               write_state=False)
  results.update(more or {})
  np.savez(os.path.join(directory, "outputs.npz"), **{k.replace("/", "__"): v
                                                     for k, v in results.items()})
  shapes = sorted((v.op.name, v.get_shape().as_list()) for v in variables)
  with open(os.path.join(directory, "variables.json"), "w") as listing:
    listing.write("{\n" + ",\n".join("%s: %s" % (json.dumps(name), json.dumps(shape))
                                      for name, shape in shapes) + "\n}\n")
  print(f"{len(variables)} variables, {len(results)} outputs written to {directory}")
  return results


def expected_outputs(directory):
  """What ``save`` wrote to ``directory/outputs.npz``, by the outputs' own names.

  Args:
    directory: the fixture's directory (a ``pathlib.Path``).

  Returns:
    {name: array}.
  """
  with np.load(str(directory / "outputs.npz")) as saved:
    return {name.replace("__", "/"): saved[name] for name in saved.files}


def restore(tf, build, directory):
  """Builds a graph with ``build()``, restores the fixture's checkpoint into it by
  variable name and runs what ``build`` returned.

  Args:
    tf: the v1 API (``tensorflow.compat.v1`` on TensorFlow 2).
    build: () -> {name: tensor}.
    directory: the fixture's directory (a ``pathlib.Path``).

  Returns:
    ({variable name: shape}, {name: value}).
  """
  with tf.Graph().as_default():
    outputs = build()
    variables = {v.op.name: v.get_shape().as_list() for v in tf.global_variables()}
    with tf.Session() as session:
      tf.train.Saver().restore(session, str(directory / "model.ckpt"))
      return variables, session.run(outputs)
