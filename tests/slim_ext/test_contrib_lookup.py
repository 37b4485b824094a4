"""slim_ext.contrib.lookup.HashTable: tf.contrib.lookup.HashTable's signature and ``init``.

The expected values are TF 1.15's (its contrib.lookup.HashTable run on the same keys):
a looked-up key gives its value, a missing one the default, once ``init`` (or
``tables_initializer``) ran; before that a lookup fails.
"""
import pytest


def _table(tf, **kwargs):
  from slim_ext.contrib.lookup import HashTable  # pylint: disable=g-import-not-at-top
  keys = tf.constant(["person", "dog"])
  values = tf.constant([1, 18], tf.int64)
  return HashTable(tf.lookup.KeyValueTensorInitializer(keys, values), -1, **kwargs)


@pytest.mark.tf
def test_init_fills_the_table_and_missing_keys_get_the_default(tf):
  with tf.Graph().as_default():
    table = _table(tf)
    ids = table.lookup(tf.constant(["dog", "cat", "person"]))
    with tf.Session() as session:
      with pytest.raises(tf.errors.FailedPreconditionError):
        session.run(ids)
      session.run(table.init)
      assert list(session.run(ids)) == [18, -1, 1]


@pytest.mark.tf
def test_tables_initializer_and_the_positional_contrib_signature(tf):
  with tf.Graph().as_default():
    table = _table(tf, shared_name="labels", name="label_map")
    ids = table.lookup(tf.constant(["person"]))
    with tf.Session() as session:
      session.run(tf.tables_initializer())
      assert list(session.run(ids)) == [1]
    assert table.name.startswith("label_map")
    assert table.init is table.initializer
    assert table.resource_handle.op.get_attr("shared_name") == b"labels"
