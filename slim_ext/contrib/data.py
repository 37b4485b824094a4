"""tensorflow.contrib.data's ``*_and_drop_remainder`` transformations, on tf.data.

TF1's ``tf.contrib.data.batch_and_drop_remainder(n)`` returned a function for
``Dataset.apply`` that batches and drops the last, smaller batch; since TF 1.10 it
was ``dataset.batch(n, drop_remainder=True)`` under a deprecation notice, and
``padded_batch_and_drop_remainder`` was ``padded_batch(..., drop_remainder=True)``.
These are the same transformations, so ``dataset.apply(...)`` calls keep working
after the port, with the static batch dimension TF1 gave them.
"""
from typing import Any, Callable

import tensorflow as tf

__all__ = ["batch_and_drop_remainder", "padded_batch_and_drop_remainder"]


def batch_and_drop_remainder(batch_size: Any) -> Callable[[tf.data.Dataset], tf.data.Dataset]:
  """A ``Dataset.apply`` transformation: batches of ``batch_size``, the remainder dropped.

  Args:
    batch_size: the number of consecutive elements in each batch (int or int64
      scalar tensor).

  Returns:
    A function from a dataset to its batched dataset.
  """
  def apply_fn(dataset: tf.data.Dataset) -> tf.data.Dataset:
    return dataset.batch(batch_size, drop_remainder=True)
  return apply_fn


def padded_batch_and_drop_remainder(
    batch_size: Any, padded_shapes: Any, padding_values: Any = None
) -> Callable[[tf.data.Dataset], tf.data.Dataset]:
  """A ``Dataset.apply`` transformation: padded batches, the remainder dropped.

  Args:
    batch_size: the number of consecutive elements in each batch.
    padded_shapes: the shape each component is padded to, as for
      ``Dataset.padded_batch``.
    padding_values: the values to pad with (default: 0, or "" for strings).

  Returns:
    A function from a dataset to its padded, batched dataset.
  """
  def apply_fn(dataset: tf.data.Dataset) -> tf.data.Dataset:
    return dataset.padded_batch(batch_size, padded_shapes, padding_values,
                                drop_remainder=True)
  return apply_fn
