"""mox.get_optimizer_fn: MoXing's optimizers by name, as tf.compat.v1.train ones."""
from __future__ import annotations

from typing import Any, Callable, Optional

import tensorflow.compat.v1 as tf

# MoXing's names for its built-in optimizers.
OPTIMIZERS = {
    "adadelta": tf.train.AdadeltaOptimizer,
    "adagrad": tf.train.AdagradOptimizer,
    "adam": tf.train.AdamOptimizer,
    "ftrl": tf.train.FtrlOptimizer,
    "momentum": tf.train.MomentumOptimizer,
    "rmsprop": tf.train.RMSPropOptimizer,
    "sgd": tf.train.GradientDescentOptimizer,
}


def get_optimizer_fn(name: str, learning_rate: Any, scope: Optional[str] = None,
                     *args: Any, **kwargs: Any
                     ) -> Callable[[], tf.train.Optimizer]:
  """An optimizer_fn for mox.run: ``get_optimizer_fn('sgd', learning_rate=0.5)``.

  Args:
    name: one of OPTIMIZERS ("sgd", "momentum", "adam", ...).
    learning_rate: a float, or a tensor built inside optimizer_fn's graph.
    scope: the optimizer's name (the scope of its slots and update ops).
    *args: more positional arguments of the optimizer, after learning_rate
      (e.g. momentum's ``momentum``).
    **kwargs: its keyword arguments (``momentum=0.9``, ``beta1=...``).

  Returns:
    A function that builds the optimizer when called.

  Raises:
    ValueError: `name` is not one of OPTIMIZERS.
  """
  optimizer_class = OPTIMIZERS.get(str(name).lower())
  if optimizer_class is None:
    raise ValueError(f"get_optimizer_fn: unknown optimizer {name!r}; known: "
                     f"{', '.join(sorted(OPTIMIZERS))}.")
  if scope is not None:
    kwargs["name"] = scope

  def optimizer_fn() -> tf.train.Optimizer:
    return optimizer_class(learning_rate, *args, **kwargs)
  return optimizer_fn
