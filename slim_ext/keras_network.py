"""A ported slim network as a Keras layer: the step after the port, onto TF 2.

TensorFlow's migration guide answers "my model is TF1-style code" with tf_keras'
``track_tf1_style_variables``: a Keras layer whose ``call`` runs the TF1 code,
whose ``tf.compat.v1.get_variable`` calls (all of slim's) create the layer's
weights once, by their TF1 names, and reuse them on every later call, with the
regularizers as ``layer.losses``. ``SlimNetwork`` is that layer for a slim
network, so a ported tree can leave ``tf.compat.v1`` graph mode:

  network = SlimNetwork.from_nets_factory(nets_factory, "lenet", num_classes=10)
  inputs = tf_keras.Input([28, 28, 3])
  model = tf_keras.Model(inputs, network(inputs))
  network.restore_tf1_checkpoint("train/model.ckpt-300")   # by TF1 names
  model.compile(tf_keras.optimizers.SGD(0.01),
                tf_keras.losses.SparseCategoricalCrossentropy(from_logits=True))
  model.fit(images, labels)                                 # eager or tf.function
  tf.train.Checkpoint(model=model).save("keras/ckpt")       # object-based

It runs eagerly and inside ``tf.function``; batch norm uses the batch's
statistics and updates its moving averages when called with ``training=True``
(as ``model.fit`` does) and the moving averages otherwise.
"""
from __future__ import annotations

from typing import Callable

import slim_ext  # noqa: F401  pylint: disable=unused-import  (tf_slim on TF 2.16+)
import tf_keras
from tf_keras.api._v1.keras.utils import track_tf1_style_variables

from slim_ext.export import restore_by_name


class SlimNetwork(tf_keras.layers.Layer):
  """A slim network (logits from images) as a Keras layer with TF1 variable names."""

  def __init__(self, network_fn_for: Callable[[bool], Callable], name: str = None,
               **network_kwargs):
    """Wraps a slim network.

    Args:
      network_fn_for: ``network_fn_for(is_training)`` returns the network_fn
        (``images -> logits`` or ``(logits, end_points)``) built for training or
        for inference, as ``nets_factory.get_network_fn(..., is_training=...)``.
      name: the layer's name.
      **network_kwargs: passed to every network_fn call (``dropout_keep_prob``).
    """
    super().__init__(name=name)
    self._network_fns = {is_training: network_fn_for(is_training)
                         for is_training in (False, True)}
    self._network_kwargs = network_kwargs

  @classmethod
  def from_nets_factory(cls, nets_factory, model_name: str, num_classes: int,
                        weight_decay: float = 0.0, **network_kwargs) -> "SlimNetwork":
    """The network a slim ``nets_factory`` module names.

    Args:
      nets_factory: the module (``nets.nets_factory`` of a ported tree).
      model_name: a name of its ``networks_map``.
      num_classes: the classes the network predicts.
      weight_decay: its arg scope's weight decay (the layer's ``losses``).
      **network_kwargs: passed to every network_fn call.

    Returns:
      A SlimNetwork named model_name.
    """
    def network_fn_for(is_training):
      return nets_factory.get_network_fn(model_name, num_classes, weight_decay=weight_decay,
                                         is_training=is_training)
    return cls(network_fn_for, name=model_name, **network_kwargs)

  @track_tf1_style_variables
  def call(self, images, training=None):  # pylint: disable=arguments-differ
    logits = self._network_fns[bool(training)](images, **self._network_kwargs)
    return logits[0] if isinstance(logits, tuple) else logits

  def restore_tf1_checkpoint(self, checkpoint_path: str) -> None:
    """Gives every weight the value of its TF1 name in a name-based checkpoint.

    Args:
      checkpoint_path: a checkpoint (one TF 1.x or the ported tree wrote), or a
        directory (its latest checkpoint).

    Raises:
      ValueError: if the layer has not been called yet (it has no weights), or
        if the checkpoint lacks a weight or holds it with another shape.
    """
    if not self.weights:
      raise ValueError(f"{self.name} has no weights yet: call it (or build the model) first")
    restore_by_name(self.weights, checkpoint_path)
