"""tensorflow.contrib.nn's deprecated_flipped_* losses, as TF 1.15 defined them.

TensorFlow 1.0 made ``labels`` and ``logits`` of the cross-entropy functions keyword
arguments, in the order (labels, logits). ``tf.contrib.nn`` kept the old positional
order, (logits, labels), under ``deprecated_flipped_*`` names: each was the core
function with its two arguments swapped, and so is each one here (``tf.compat.v1.nn``
keeps the core functions with TF1's parameters, ``dim`` included).

Example:
  loss = deprecated_flipped_sigmoid_cross_entropy_with_logits(logits, targets)
"""
from typing import Any, Optional

import tensorflow as tf


def deprecated_flipped_softmax_cross_entropy_with_logits(
    logits: Any, labels: Any, dim: int = -1, name: Optional[str] = None) -> Any:
  """Softmax cross entropy, with ``logits`` first as TF 0.x took them.

  Args:
    logits: unscaled log probabilities, ``[batch_size, num_classes]``.
    labels: a probability distribution per row, the shape and dtype of ``logits``.
    dim: the class dimension.
    name: a name for the operation.

  Returns:
    The per-example loss, ``logits``' shape without ``dim``.
  """
  return tf.compat.v1.nn.softmax_cross_entropy_with_logits(
      labels=labels, logits=logits, dim=dim, name=name)


def deprecated_flipped_sparse_softmax_cross_entropy_with_logits(
    logits: Any, labels: Any, name: Optional[str] = None) -> Any:
  """Sparse softmax cross entropy, with ``logits`` first as TF 0.x took them.

  Args:
    logits: unscaled log probabilities, ``[d_0, ..., d_{r-1}, num_classes]``.
    labels: class indices, ``[d_0, ..., d_{r-1}]``, int32 or int64.
    name: a name for the operation.

  Returns:
    The per-example loss, ``labels``' shape.
  """
  return tf.compat.v1.nn.sparse_softmax_cross_entropy_with_logits(
      labels=labels, logits=logits, name=name)


def deprecated_flipped_sigmoid_cross_entropy_with_logits(
    logits: Any, targets: Any, name: Optional[str] = None) -> Any:
  """Sigmoid cross entropy, with ``logits`` first and ``targets`` as TF 0.x named them.

  Args:
    logits: unscaled log odds.
    targets: the labels, the shape and dtype of ``logits``.
    name: a name for the operation.

  Returns:
    The element-wise loss, ``logits``' shape.
  """
  return tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(
      labels=targets, logits=logits, name=name)
