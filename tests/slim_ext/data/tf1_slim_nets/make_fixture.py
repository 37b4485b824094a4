"""Writes this directory's fixture: what TF 1.15's own slim networks compute.

tests/slim_ext/tf1_slim_nets.py names the networks (``tf.contrib.slim.nets`` and
examples/slim_tf1's nets as written, unported) and draws every variable's value
from its name; this script builds each with TensorFlow 1.15 and writes

  expected.json        per net: every variable's name and shape, the logits on the
                       fixed input, and for the nets that train the loss and every
                       variable's change in one step; each with its float32 noise
                       (how far it moves when the input moves one float32 step or
                       the batch comes in the other order)
  <net>.ckpt.index,    the small nets' variables (tf1_slim_nets.CHECKPOINTED),
  <net>.ckpt.data-*    saved by TF 1.15 (V2 checkpoints)

tests/slim_ext/test_tf1_slim_nets.py builds the same nets with tf_slim on
TensorFlow 2 and compares. TensorFlow 1.15 installs on Python 3.7 only (made so,
2026-11-29; the script runs in about 1 minute on 2 cores):

  python3.7 -m venv /tmp/tf115
  /tmp/tf115/bin/pip install tensorflow==1.15.5 'numpy<1.19' 'protobuf<3.21'
  /tmp/tf115/bin/python tests/slim_ext/data/tf1_slim_nets/make_fixture.py
"""
import json
import os
import sys
import time

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "examples", "slim_tf1"))
import tf1_slim_nets  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
from nets import nets_factory  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def main():
  assert tf.__version__.startswith("1.15"), tf.__version__
  slim = tf.contrib.slim
  from tensorflow.contrib.slim import nets  # pylint: disable=g-import-not-at-top
  expected = {}
  for name in tf1_slim_nets.NETS:
    started = time.time()
    save_to = (os.path.join(HERE, name + ".ckpt") if name in tf1_slim_nets.CHECKPOINTED
               else None)
    expected[name] = tf1_slim_nets.measure(tf, slim, nets, nets_factory, name,
                                           measure_noise=True, save_to=save_to)
    step_noise = expected[name].get("step", {}).get("noise")
    print("%s: %d variables, logits' noise %.2g, step's %s, %.1f s" % (
        name, len(expected[name]["variables"]), expected[name]["noise"],
        step_noise and "%.2g (loss) %.2g (changes)" % tuple(step_noise),
        time.time() - started))
  with open(os.path.join(HERE, "expected.json"), "w") as listing:
    json.dump(expected, listing, indent=1, sort_keys=True)
    listing.write("\n")


if __name__ == "__main__":
  main()
