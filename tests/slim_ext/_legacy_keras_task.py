"""Imports slim_ext.legacy_keras where a ported module may be imported; prints what Keras it got.

``python _legacy_keras_task.py fresh``: the module is imported first, as in a ported
script (TensorFlow's Keras loaders not used yet). ``keras_3_used``: TensorFlow was
imported and Keras 3 used through it first (``tf.keras`` loaded, ``from
tensorflow.keras.layers import Dense`` imported by path), as when pytest or another
module got there first. Prints one JSON line.
"""
import json
import os
import sys

import numpy as np

if sys.argv[1] == "keras_3_used":
  import tensorflow as tf
  from tensorflow.keras.layers import Dense as Keras3Dense
  tf.keras.Sequential()
  before = {"dense": Keras3Dense.__module__, "switch": os.environ.get("TF_USE_LEGACY_KERAS")}
else:
  before = {}

import slim_ext.legacy_keras  # pylint: disable=g-import-not-at-top,wrong-import-position
import tensorflow as tf  # pylint: disable=g-import-not-at-top,wrong-import-position
from tensorflow import keras  # pylint: disable=g-import-not-at-top,wrong-import-position
from tensorflow.keras.layers import Dense  # pylint: disable=g-import-not-at-top,wrong-import-position


def _package(module):
  """The installed package a module's file is in (a module may go by another name)."""
  site = os.path.dirname(os.path.dirname(sys.modules["tf_keras"].__file__))
  return os.path.relpath(module.__file__, site).split(os.sep)[0]


model = tf.keras.Sequential([Dense(2, input_shape=(3,))])
# Keras 3 refuses a TF1 optimizer ("Could not interpret optimizer identifier").
model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(0.01), loss="mse")
history = model.fit(np.ones((8, 3)), np.ones((8, 2)), epochs=2, verbose=0).history
print(json.dumps({
    "before": before,
    "keras": _package(tf.keras), "keras_v1": _package(tf.compat.v1.keras),
    "keras_v2": _package(tf.compat.v2.keras), "from_tensorflow": _package(keras),
    "losses": _package(tf.losses), "optimizers": _package(tf.optimizers),
    "dense": Dense.__module__, "set_learning_phase": hasattr(tf.keras.backend,
                                                             "set_learning_phase"),
    "switch": os.environ.get("TF_USE_LEGACY_KERAS"),
    "again": slim_ext.legacy_keras.use_keras_2(), "losses_fit": history["loss"],
}))
