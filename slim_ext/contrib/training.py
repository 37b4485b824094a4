"""tensorflow.contrib.training's HParams (and its parser), for ported imports.

tf.contrib.training's loops and evaluation helpers went to tf_slim; what has no
other home is the hyperparameter container, implemented in slim_ext.hparams.
``from tensorflow.contrib.training import HParams`` and
``from tensorflow.contrib.training.python.training import hparam`` both land here.
"""
from slim_ext.hparams import HParams, parse_values

__all__ = ["HParams", "parse_values"]
