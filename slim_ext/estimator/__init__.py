"""tf.estimator on TensorFlow 2.15-2.21: tensorflow-estimator 2.15, revived.

TensorFlow 2.16 removed ``tf.estimator``; the last tensorflow-estimator
release (2.15, pure Python) is the real implementation, and it runs on TF 2.21
once the few TensorFlow names it imports are back (``slim_ext.estimator.shims``,
applied by ``import slim_ext``; nothing is applied on TF 2.15, which has them).
Then ``tf.estimator``, ``tf.compat.v1.estimator``, ``import
tensorflow_estimator`` and tf_keras' ``model_to_estimator`` work as on 2.15,
with RunConfig's TF_CONFIG roles, hooks, exporters, canned estimators and
multi-worker strategies (``slim_ext.estimator.estimator_training``).

On top, for clusters: an Estimator ps task joins its server forever;
``train_and_evaluate`` here is Estimator's own, except that a ps task ends once
its workers have come and gone (``slim_ext.cluster.Server`` does the same for
trainers that start their own ``tf.train.Server``).

Example:
  import slim_ext  # noqa: F401  (revives tf.estimator)
  import tensorflow as tf
  from slim_ext import estimator as slim_estimator
  slim_estimator.train_and_evaluate(tf.estimator.Estimator(model_fn), train, eval)
"""
from typing import Any

# Loaded on first use: they import TensorFlow (and tensorflow_estimator).
_LAZY = {"train_and_evaluate": "slim_ext.estimator.training"}


def __getattr__(name: str) -> Any:
  if name in _LAZY:
    import importlib  # pylint: disable=g-import-not-at-top
    return getattr(importlib.import_module(_LAZY[name]), name)
  raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
