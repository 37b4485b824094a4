"""Stand-ins for tf.contrib pieces that have no home in TensorFlow 2.

``slimport rewrite`` points uses of these contrib symbols here so that a ported file
still imports (one missing feature should not break a whole training tree) and fails
only where the feature is used, with a message naming what is gone and what to use.
Nothing here imports TensorFlow.

Example:
  from slim_ext import contrib
  contrib.quantize_create_training_graph()   # raises RemovedInTF2Error
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn, Type


class RemovedInTF2Error(NotImplementedError):
  """A tf.contrib feature the ported code called has no TensorFlow 2 equivalent."""


def _message(feature: str, alternative: str) -> str:
  return (
      f"{feature} was removed with tf.contrib and has no TensorFlow 2 replacement; "
      f"use {alternative} instead (slimport rewrote the call to this stand-in)."
  )


def _removed_function(feature: str, alternative: str) -> Callable[..., NoReturn]:
  def stand_in(*args: Any, **kwargs: Any) -> NoReturn:
    raise RemovedInTF2Error(_message(feature, alternative))

  stand_in.__name__ = feature.rsplit(".", 1)[-1]
  stand_in.__doc__ = f"Stand-in for {feature}.\n\nRaises:\n  RemovedInTF2Error: always.\n"
  return stand_in


def _removed_class(feature: str, alternative: str) -> Type[Any]:
  def __init__(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise RemovedInTF2Error(_message(feature, alternative))

  doc = f"Stand-in for {feature}: instantiating it raises RemovedInTF2Error."
  return type(feature.rsplit(".", 1)[-1], (), {"__init__": __init__, "__doc__": doc})


_QAT = (
    "quantization-aware training from tensorflow-model-optimization "
    "(tfmot.quantization.keras.quantize_model) on a Keras model"
)
_ESTIMATOR = (
    "the compat.v1 training loop (tf_slim.learning.train with slim_ext.cluster) or a "
    "tf.distribute strategy; tf.estimator is not in TensorFlow 2.21"
)

quantize_create_training_graph = _removed_function(
    "tf.contrib.quantize.create_training_graph", _QAT)
quantize_create_eval_graph = _removed_function("tf.contrib.quantize.create_eval_graph", _QAT)
HParams = _removed_class(
    "tf.contrib.training.HParams", "a plain dict, a dataclass or ml_collections.ConfigDict")
TPUEstimator = _removed_class("tf.contrib.tpu.TPUEstimator", _ESTIMATOR)
TPUEstimatorSpec = _removed_class("tf.contrib.tpu.TPUEstimatorSpec", _ESTIMATOR)
TPURunConfig = _removed_class("tf.contrib.tpu.RunConfig", _ESTIMATOR)
TPUConfig = _removed_class("tf.contrib.tpu.TPUConfig", _ESTIMATOR)
Experiment = _removed_class("tf.contrib.learn.Experiment", _ESTIMATOR)
LearnRunConfig = _removed_class("tf.contrib.learn.RunConfig", _ESTIMATOR)
learn_runner_run = _removed_function("tf.contrib.learn.learn_runner.run", _ESTIMATOR)
