"""tf.contrib.eager's object-oriented metrics (``tfe.metrics.Mean`` & co.), which TF 2 dropped.

TF 1.5-1.15 code written for eager execution kept running averages in these objects:
``m = tfe.metrics.Mean(name="loss")``, ``m(values, weights)`` once per batch,
``m.result()`` at the end (tensor2tensor's ``create_eager_metrics_internal``).
Keras' metrics are their successors, with another contract (``__call__`` returns the
result, float32 by default, ``reset_state``); this module keeps TF 1.x's, on
TensorFlow 2's ops:

- the statistics are float64 resource variables named ``<metric name>/numer`` and
  ``/denom``, made on the first call, in the graph's local and metric variable
  collections (global with ``use_global_variables``) outside eager execution;
- calling a metric returns its arguments, for chaining; in graph mode the update runs
  as one function call, whose outputs are those arguments (run them to update);
- ``result()`` is ``numer / denom`` and writes it as a summary under the metric's name
  when a default summary writer records; ``init_variables()`` resets (eagerly) or
  returns the initializer op (graph).

Example:
  loss = Mean(name="loss")
  for batch in dataset:
    loss(batch_loss, batch_weights)
  print(loss.result().numpy())
"""
import re
from typing import Any, List, Optional, Tuple

import tensorflow.compat.v1 as tf

__all__ = ["Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "Mean", "Metric",
           "SparseAccuracy"]

# What a variable scope name cannot hold (TF 1.x replaced it with "_").
_NOT_IN_SCOPE_NAMES = re.compile(r"[^A-Za-z0-9_.\-/]")


class Metric(tf.Module):
  """TF 1.x's ``tfe.metrics.Metric``: variables made by ``build`` on the first call,
  updated by ``call``, read by ``result``. Subclasses define those three."""

  def __init__(self, name: Optional[str] = None, use_global_variables: bool = False):
    """Creates the metric's variable scope (its name made unique there, as TF 1.x did).

    Args:
      name: the metric's name (default: its class name).
      use_global_variables: outside eager execution, put the variables in the global
        variables collection instead of the local one.
    """
    super().__init__()
    self._built = False
    self._vars: List[tf.Variable] = []
    self._initial_values = {}
    self._use_global_variables = use_global_variables
    name = name or type(self).__name__
    scope_name = _NOT_IN_SCOPE_NAMES.sub("_", name)
    with tf.variable_scope(scope_name, use_resource=True, reuse=False) as scope:
      position = scope.name.rfind(scope_name)
      self._metric_name = name + scope.name[position + len(scope_name):]
      self._scope = scope
    if tf.executing_eagerly():
      self._construction_scope = tf.init_scope
      self._update = self.call
    else:
      self._construction_scope = tf.get_default_graph().as_default
      # One function call per update, as TF 1.x's defun: running what __call__
      # returned runs every variable update of ``call``.
      self._update = tf.function(self.call, autograph=False)

  def __call__(self, *args: Any, **kwargs: Any) -> Any:
    """Updates the metric with a batch: builds it on the first call.

    Returns:
      What ``call`` returns (the arguments); outside eager execution, tensors whose
      evaluation runs the update.
    """
    if not self._built:
      with tf.variable_scope(self._scope), self._construction_scope():
        self.build(*args, **kwargs)
      self._built = True
    return self._update(*args, **kwargs)

  @property
  def name(self) -> str:
    """The metric's name, unique among the scopes of its graph."""
    return self._metric_name

  @property
  def variables(self) -> List[tf.Variable]:
    """The variables ``build`` made, in order."""
    return self._vars

  def init_variables(self) -> Optional[tf.Operation]:
    """Resets the variables to their first values.

    Returns:
      Outside eager execution, the op that does it; eagerly, None (done).
    """
    if tf.executing_eagerly():
      for variable in self._vars:
        variable.assign(self._initial_values[variable.ref()])
      return None
    return tf.group([variable.initializer for variable in self._vars])

  def build(self, *args: Any, **kwargs: Any) -> None:
    """Creates the variables (``add_variable``), given the first call's arguments."""
    raise NotImplementedError("Metrics must define a build() member function")

  def call(self, *args: Any, **kwargs: Any) -> Any:
    """Accumulates one batch's statistics; use ``__call__``."""
    raise NotImplementedError("Metrics must define a call() member function")

  def result(self) -> tf.Tensor:
    """The metric's value."""
    raise NotImplementedError("Metrics must define a result() member function")

  def value(self) -> Any:
    """Eagerly ``result`` itself (a callable); in a graph, ``result()``."""
    return self.result if tf.executing_eagerly() else self.result()

  def aggregate(self, metrics: List["Metric"]) -> None:
    """Adds the variables of ``metrics`` (of this metric's type) into this one's.

    Raises:
      TypeError: a metric is of another type.
      ValueError: a metric's variables are not in this one's order.
    """
    for metric in metrics:
      if type(self) is not type(metric):
        raise TypeError(f"All metrics must be the same type, '{type(self)}' != "
                        f"'{type(metric)}'.")
    for index, variable in enumerate(self._vars):
      if any(metric._vars[index].name != variable.name for metric in metrics):
        raise ValueError("All metrics must have variables in the same order.")
      variable.assign_add(tf.add_n([metric._vars[index] for metric in metrics]))

  def add_variable(self, name: str, shape: Any = None, dtype: Any = None,
                   initializer: Any = None) -> tf.Variable:
    """Creates one of the metric's variables; only ``build`` may call it.

    Raises:
      RuntimeError: called after the metric was built.
    """
    if self._built:
      raise RuntimeError("Can't call add_variable() except in build().")
    collections = None
    if not tf.executing_eagerly():
      collections = [tf.GraphKeys.GLOBAL_VARIABLES if self._use_global_variables
                     else tf.GraphKeys.LOCAL_VARIABLES, tf.GraphKeys.METRIC_VARIABLES]
    variable = tf.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                               trainable=False, collections=collections, use_resource=True)
    self._vars.append(variable)
    if tf.executing_eagerly():
      self._initial_values[variable.ref()] = variable.value()
    return variable


class Mean(Metric):
  """The (weighted) mean of the values it is called with."""

  def __init__(self, name: Optional[str] = None, dtype: tf.DType = tf.float64,
               use_global_variables: bool = False):
    """
    Args:
      name: the metric's name.
      dtype: the statistics' type (TF 1.x's default: float64).
      use_global_variables: see ``Metric``.
    """
    super().__init__(name=name, use_global_variables=use_global_variables)
    self.dtype = tf.as_dtype(dtype)

  def build(self, *args: Any, **kwargs: Any) -> None:
    del args, kwargs  # the statistics are scalars whatever the values
    self.numer = self.add_variable("numer", shape=(), dtype=self.dtype,
                                   initializer=tf.zeros_initializer)
    self.denom = self.add_variable("denom", shape=(), dtype=self.dtype,
                                   initializer=tf.zeros_initializer)

  def call(self, values: Any, weights: Any = None) -> Any:
    """Adds ``values`` (each times its weight, default 1) to the mean.

    Returns:
      ``values`` summed (unweighted) or ``(values times weights, weights)``, as TF 1.x.
    """
    if weights is None:
      self.denom.assign_add(tf.cast(tf.identity(tf.size(values)), self.dtype))
      values = tf.reduce_sum(values)
      self.numer.assign_add(tf.cast(values, self.dtype))
      return values
    weights = tf.cast(weights, self.dtype)
    self.denom.assign_add(tf.reduce_sum(weights))
    values = tf.cast(values, self.dtype) * weights
    self.numer.assign_add(tf.reduce_sum(values))
    return values, weights

  def result(self, write_summary: Any = True) -> tf.Tensor:
    """``numer / denom``, also written as a summary under the metric's name when
    ``write_summary`` and a default summary writer records."""
    mean = self.numer / self.denom
    if isinstance(write_summary, bool):
      if write_summary:
        tf.compat.v2.summary.scalar(self.name, mean)
    else:
      tf.cond(write_summary, lambda: tf.compat.v2.summary.scalar(self.name, mean),
              lambda: tf.constant(False))
    return mean


class _Matches(Mean):
  """A mean of 0/1 matches between labels and predictions (the accuracies)."""

  def __init__(self, name: Optional[str] = None, dtype: tf.DType = tf.float64):
    super().__init__(name=name, dtype=dtype)

  def compared(self, labels: Any, predictions: Any) -> Tuple[Any, Any]:
    """The labels and predictions as compared (checked, arg maxes, ...)."""
    raise NotImplementedError

  def call(self, labels: Any, predictions: Any, weights: Any = None) -> Any:
    """Adds each example's match (1 or 0, times its weight) to the mean.

    Returns:
      The labels and predictions as compared (and the weights), as TF 1.x.
    """
    labels, predictions = self.compared(labels, predictions)
    matches = tf.cast(tf.equal(labels, predictions), self.dtype)
    super().call(matches, weights=weights)
    if weights is None:
      return labels, predictions
    return labels, predictions, weights


def _same_shapes(labels: Any, predictions: Any) -> None:
  tf.assert_equal(tf.shape(labels), tf.shape(predictions),
                  message="Shapes of labels and predictions are unequal")


class Accuracy(_Matches):
  """How often ``predictions`` equals ``labels`` (same shapes, one example an element)."""

  def compared(self, labels: Any, predictions: Any) -> Tuple[Any, Any]:
    _same_shapes(labels, predictions)
    return labels, predictions


class CategoricalAccuracy(_Matches):
  """How often the arg max of ``predictions`` (scores) is that of one-hot ``labels``."""

  def compared(self, labels: Any, predictions: Any) -> Tuple[Any, Any]:
    _same_shapes(labels, predictions)
    return tf.argmax(labels, axis=-1), tf.argmax(predictions, axis=-1)


class BinaryAccuracy(_Matches):
  """How often ``predictions > threshold`` is the 0/1 ``labels``."""

  def __init__(self, threshold: float, name: Optional[str] = None,
               dtype: tf.DType = tf.float64):
    """
    Args:
      threshold: predictions above it are 1.
      name: the metric's name.
      dtype: the statistics' type.
    """
    super().__init__(name=name, dtype=dtype)
    self.threshold = threshold

  def compared(self, labels: Any, predictions: Any) -> Tuple[Any, Any]:
    _same_shapes(labels, predictions)
    return tf.cast(labels, tf.bool), tf.convert_to_tensor(predictions) > self.threshold


class SparseAccuracy(_Matches):
  """How often the arg max of ``predictions`` (scores, one row an example) is the
  integer ``labels``."""

  def compared(self, labels: Any, predictions: Any) -> Tuple[Any, Any]:
    tf.assert_equal(tf.shape(labels), tf.shape(predictions)[0],
                    message="First axis of labels and predictions is unequal")
    return tf.cast(labels, tf.int64), tf.argmax(predictions, axis=-1)
