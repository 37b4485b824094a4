"""tensorflow.contrib.lookup's ``HashTable``, on tf.compat.v1.lookup.StaticHashTable.

TF 1.15's ``tf.contrib.lookup.HashTable(initializer, default_value, shared_name=None,
name=None)`` was an initializable hash table: built in the graph, filled by
``tf.tables_initializer()`` (or its ``init`` op), looked up with ``lookup``. TensorFlow 2
keeps that table as ``tf.compat.v1.lookup.StaticHashTable``, which takes ``name`` third
and has no ``init``; this class keeps the contrib signature and the ``init`` name.
The contrib.lookup names TensorFlow 2 exports go to ``tf.compat.v1.lookup``
(``KeyValueTensorInitializer``, ``TextFileInitializer``, ...); the ones it keeps but no
longer exports are here, as the same objects TF 1.15's contrib.lookup re-exported from
core TensorFlow (``index_table_from_file``, ``IdTableWithHashBuckets``, the hasher
specs, ``MutableHashTable``, ...); and contrib's own wrappers are here as TF 1.15 wrote
them: ``index_table_from_tensor`` and ``index_to_string_table_from_tensor`` take the
vocabulary as ``mapping`` (core's functions call it ``vocabulary_list``), and
``string_to_index`` / ``index_to_string`` build such a table and look a tensor up in it.

Example:
  table = HashTable(tf.lookup.KeyValueTensorInitializer(keys, values), -1)
  ids = table.lookup(names)          # after tf.tables_initializer() has run
  ids = index_table_from_tensor(mapping=["emerson", "lake"]).lookup(names)
"""
from typing import Any, Optional

import tensorflow as tf
from tensorflow.python.ops import lookup_ops
# contrib.lookup's names from core TensorFlow (re-exported: ``__all__``).
from tensorflow.python.ops.lookup_ops import FastHashSpec
from tensorflow.python.ops.lookup_ops import HasherSpec
from tensorflow.python.ops.lookup_ops import IdTableWithHashBuckets
from tensorflow.python.ops.lookup_ops import index_table_from_file
from tensorflow.python.ops.lookup_ops import index_to_string_table_from_file
from tensorflow.python.ops.lookup_ops import InitializableLookupTableBase
from tensorflow.python.ops.lookup_ops import LookupInterface
from tensorflow.python.ops.lookup_ops import MutableHashTable
from tensorflow.python.ops.lookup_ops import StrongHashSpec
from tensorflow.python.ops.lookup_ops import TableInitializerBase
from tensorflow.python.ops.lookup_ops import TextFileIdTableInitializer
from tensorflow.python.ops.lookup_ops import TextFileStringTableInitializer

# The rest of contrib.lookup's names, where the rewrite sends them one by one: with them
# this module is all of contrib.lookup, what ``tf.contrib.lookup`` used as a value
# becomes (object detection 2.x: ``lookup = contrib_lookup`` on TensorFlow 1).
KeyValueTensorInitializer = tf.compat.v1.lookup.KeyValueTensorInitializer
MutableDenseHashTable = tf.compat.v1.lookup.experimental.DenseHashTable
TextFileIndex = tf.compat.v1.lookup.TextFileIndex
TextFileInitializer = tf.compat.v1.lookup.TextFileInitializer

__all__ = [
    "FastHashSpec", "HashTable", "HasherSpec", "IdTableWithHashBuckets",
    "InitializableLookupTableBase", "KeyValueTensorInitializer", "LookupInterface",
    "MutableDenseHashTable", "MutableHashTable", "StrongHashSpec", "TableInitializerBase",
    "TextFileIdTableInitializer", "TextFileIndex", "TextFileInitializer",
    "TextFileStringTableInitializer",
    "index_table_from_file", "index_table_from_tensor", "index_to_string",
    "index_to_string_table_from_file", "index_to_string_table_from_tensor",
    "string_to_index", "string_to_index_table_from_file",
    "string_to_index_table_from_tensor",
]


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


def index_table_from_tensor(mapping: Any, num_oov_buckets: int = 0, default_value: int = -1,
                            hasher_spec: Any = FastHashSpec, dtype: Any = tf.string,
                            name: Optional[str] = None) -> Any:
  """A table mapping each key of ``mapping`` to its position (an int64 id).

  Args:
    mapping: a 1-D tensor (or list) of unique keys; key ``mapping[i]`` gets id i.
    num_oov_buckets: buckets for keys not in ``mapping``, hashed by ``hasher_spec``.
    default_value: the id of a key not in ``mapping``, without buckets.
    hasher_spec: how keys are hashed into the buckets.
    dtype: the type of the keys (string or integer).
    name: a name for the operations.

  Returns:
    The lookup table; ``tf.tables_initializer()`` fills it.

  Raises:
    ValueError: ``mapping`` is None, or the other arguments do not fit.
  """
  if mapping is None:
    raise ValueError("mapping must be specified.")
  return lookup_ops.index_table_from_tensor(
      vocabulary_list=mapping, num_oov_buckets=num_oov_buckets,
      default_value=default_value, hasher_spec=hasher_spec, dtype=dtype, name=name)


def index_to_string_table_from_tensor(mapping: Any, default_value: str = "UNK",
                                      name: Optional[str] = None) -> Any:
  """A table mapping each int64 id to the key at that position of ``mapping``.

  Args:
    mapping: a 1-D string tensor (or list); id i looks up ``mapping[i]``.
    default_value: the value of an id outside ``mapping``.
    name: a name for the operations.

  Returns:
    The lookup table; ``tf.tables_initializer()`` fills it.

  Raises:
    ValueError: ``mapping`` is None.
  """
  if mapping is None:
    raise ValueError("mapping must be specified.")
  return lookup_ops.index_to_string_table_from_tensor(
      vocabulary_list=mapping, default_value=default_value, name=name)


def string_to_index_table_from_file(vocabulary_file: Optional[str] = None,
                                    num_oov_buckets: int = 0,
                                    vocab_size: Optional[int] = None,
                                    default_value: int = -1,
                                    hasher_spec: Any = FastHashSpec,
                                    name: Optional[str] = None) -> Any:
  """contrib.lookup's older name of ``index_table_from_file`` (string keys)."""
  return index_table_from_file(
      vocabulary_file, num_oov_buckets, vocab_size, default_value, hasher_spec,
      key_dtype=tf.string, name=name)


def string_to_index_table_from_tensor(mapping: Any, num_oov_buckets: int = 0,
                                      default_value: int = -1, hasher_spec: Any = FastHashSpec,
                                      name: Optional[str] = None) -> Any:
  """contrib.lookup's older name of ``index_table_from_tensor`` (string keys).

  Raises:
    ValueError: ``mapping`` is not a string tensor.
  """
  with tf.compat.v1.name_scope(name, "string_to_index") as scope:
    mapping = tf.convert_to_tensor(mapping)
  if tf.string != mapping.dtype.base_dtype:
    raise ValueError("string_to_index_table_from_tensor requires string.")
  return index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec,
                                 name=scope)


def string_to_index(tensor: Any, mapping: Any, default_value: int = -1,
                    name: Optional[str] = None) -> Any:
  """The ids of the strings of ``tensor``: their positions in ``mapping``.

  Args:
    tensor: a string tensor.
    mapping: a 1-D string tensor of unique keys.
    default_value: the id of a string not in ``mapping``.
    name: a name for the operations.

  Returns:
    An int64 tensor of ``tensor``'s shape, once ``tf.tables_initializer()`` ran.
  """
  table = index_table_from_tensor(mapping=mapping, default_value=default_value, name=name)
  return table.lookup(tensor)


def index_to_string(tensor: Any, mapping: Any, default_value: str = "UNK",
                    name: Optional[str] = None) -> Any:
  """The strings at the int64 positions ``tensor`` names in ``mapping``.

  Args:
    tensor: an int64 tensor of ids.
    mapping: a 1-D string tensor.
    default_value: the string of an id outside ``mapping``.
    name: a name for the operations.

  Returns:
    A string tensor of ``tensor``'s shape, once ``tf.tables_initializer()`` ran.
  """
  table = index_to_string_table_from_tensor(mapping=mapping, default_value=default_value,
                                            name=name)
  return table.lookup(tensor)
