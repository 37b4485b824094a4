"""tensorflow.contrib.lookup's ``HashTable``, on tf.compat.v1.lookup.StaticHashTable.

TF 1.15's ``tf.contrib.lookup.HashTable(initializer, default_value, shared_name=None,
name=None)`` was an initializable hash table: built in the graph, filled by
``tf.tables_initializer()`` (or its ``init`` op), looked up with ``lookup``. TensorFlow 2
keeps that table as ``tf.compat.v1.lookup.StaticHashTable``, which takes ``name`` third
and has no ``init``; this class keeps the contrib signature and the ``init`` name.
The other contrib.lookup names the rewrite sends to ``tf.compat.v1.lookup``
(``KeyValueTensorInitializer``, ``TextFileInitializer``, ...).

Example:
  table = HashTable(tf.lookup.KeyValueTensorInitializer(keys, values), -1)
  ids = table.lookup(names)          # after tf.tables_initializer() has run
"""
from typing import Any, Optional

import tensorflow as tf


class HashTable(tf.compat.v1.lookup.StaticHashTable):
  """A hash table filled once by its initializer, as tf.contrib.lookup.HashTable."""

  def __init__(self, initializer: Any, default_value: Any,
               shared_name: Optional[str] = None, name: Optional[str] = None):
    """Creates the table; it is filled when ``init`` (or tables_initializer) runs.

    Args:
      initializer: the table initializer (``KeyValueTensorInitializer``, ...).
      default_value: the value of a key the table does not have.
      shared_name: if non-empty, the table is shared under this name across
        sessions (else TensorFlow 2's own unique name, as StaticHashTable does).
      name: a name for the operations.

    Raises:
      ValueError: ``default_value`` does not fit the initializer's value type.
    """
    self._contrib_shared_name = shared_name
    super().__init__(initializer, default_value, name=name)

  def _create_resource(self) -> Any:
    # StaticHashTable names the resource after its initializer; contrib's own name
    # wins, as it did in TF 1.15.
    if self._contrib_shared_name:
      self._shared_name = self._contrib_shared_name
    return super()._create_resource()

  @property
  def init(self) -> Any:
    """The operation that fills the table (``initializer`` in TensorFlow 2)."""
    return self.initializer
