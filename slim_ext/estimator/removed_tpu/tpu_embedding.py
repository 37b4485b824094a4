"""``tensorflow.python.tpu.tpu_embedding`` for TPUEstimator's import on TF >= 2.16.

``_tpu_estimator_embedding`` imports seven optimizer parameter classes from the
TPU embedding v1 library at import time, and users build
``tf.compat.v1.estimator.tpu.experimental.EmbeddingConfigSpec`` with them. They
only hold hyperparameters, so they are provided with TF 2.15's constructor
arguments (same order, same defaults) and its one validation. The library
itself (TPUEmbedding, TableConfig, FeatureConfig, EnqueueData) runs only on a
TPU and is not revived.
"""
import inspect
from typing import Any, Sequence, Tuple

from slim_ext.estimator.removed_tpu import missing_tpu_names

_REQUIRED = inspect.Parameter.empty
# Arguments every TF 2.15 parameter class ends with, after its own.
_COMMON = (
    ("use_gradient_accumulation", True),
    ("clip_weight_min", None),
    ("clip_weight_max", None),
    ("weight_decay_factor", None),
    ("multiply_weight_decay_factor_by_learning_rate", None),
)
_CLIP_GRADIENT = (("clip_gradient_min", None), ("clip_gradient_max", None))


class _OptimizationParameters:
  """Holds an embedding optimizer's hyperparameters as attributes."""

  _signature = inspect.Signature()

  def __init__(self, *args: Any, **kwargs: Any):
    bound = self._signature.bind(*args, **kwargs)
    bound.apply_defaults()
    for name, value in bound.arguments.items():
      setattr(self, name, value)
    if not self.use_gradient_accumulation and (
        self.clip_gradient_min is not None or self.clip_gradient_max is not None):
      raise ValueError("When using gradient clipping limits, gradient "
                       "accumulation must be enabled.")

  def __repr__(self) -> str:
    values = ", ".join(f"{name}={getattr(self, name)!r}"
                       for name in self._signature.parameters)
    return f"{type(self).__name__}({values})"


def _parameters_class(name: str, own: Sequence[Tuple[str, Any]],
                      after_common: Sequence[Tuple[str, Any]] = ()) -> type:
  """A parameter class taking learning_rate, `own`, the common arguments, `after_common`."""
  arguments = (("learning_rate", _REQUIRED), *own, *_COMMON, *after_common,
               *_CLIP_GRADIENT)
  signature = inspect.Signature([
      inspect.Parameter(argument, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                        default=default) for argument, default in arguments])
  return type(name, (_OptimizationParameters,), {
      "_signature": signature,
      "__signature__": signature,
      "__doc__": f"TPU embedding {name[:-len('Parameters')]} optimizer "
                 "parameters (TF 2.15's arguments).",
  })


AdagradParameters = _parameters_class(
    "AdagradParameters", (("initial_accumulator", 0.1),))
ProximalAdagradParameters = _parameters_class(
    "ProximalAdagradParameters",
    (("initial_accumulator", 0.1), ("l1_regularization_strength", 0.0),
     ("l2_regularization_strength", 0.0)))
AdamParameters = _parameters_class(
    "AdamParameters",
    (("beta1", 0.9), ("beta2", 0.999), ("epsilon", 1e-08), ("lazy_adam", True),
     ("sum_inside_sqrt", True)))
FtrlParameters = _parameters_class(
    "FtrlParameters",
    (("learning_rate_power", -0.5), ("initial_accumulator_value", 0.1),
     ("l1_regularization_strength", 0.0), ("l2_regularization_strength", 0.0)),
    after_common=(("multiply_linear_by_learning_rate", False), ("beta", 0),
                  ("allow_zero_accumulator", False)))
MomentumParameters = _parameters_class(
    "MomentumParameters", (("momentum", _REQUIRED), ("use_nesterov", False)))
RMSPropParameters = _parameters_class(
    "RMSPropParameters",
    (("rho", _REQUIRED), ("momentum", _REQUIRED), ("epsilon", _REQUIRED)))
StochasticGradientDescentParameters = _parameters_class(
    "StochasticGradientDescentParameters", ())

__getattr__ = missing_tpu_names("tensorflow.python.tpu.tpu_embedding",
                                "the TPU embedding v1 library")
