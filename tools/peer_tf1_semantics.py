"""A pytest plugin: TF1's run-time semantics for a TF1 project's tests, set before any of them.

    python -m pytest -p peer_tf1_semantics ...  (tools/ on PYTHONPATH; peer_suite.py does it)

tools/peer_suite.py reruns every failing test module of a ported tree with this plugin,
as the reference that tells whose fault a failure is. It sets what TF1 gave every
test module for free and what issue 25 asks the port to establish in each module:

- graph mode and v1 shapes (``tf.compat.v1.disable_v2_behavior()``), before any test
  module is imported: ``test_session()``, ``placeholder``, ``Dimension.value``,
  ``Tensor.eval`` work as on TF1;
- TF1's flag semantics: a flag read before anyone parsed the command line has its
  default (TF1's ``tf.app.flags.FLAGS`` parsed ``sys.argv`` itself, ignoring flags it
  did not know, such as pytest's).

Two more are fixed when TensorFlow is first imported, so peer_suite sets them in the
environment of the process instead: the pure-Python protobuf (for ``*_pb2.py`` from an
old protoc) and ``TF_USE_LEGACY_KERAS=1`` (TF1's ``tf.keras`` was Keras 2; on TF >= 2.16
it is Keras 3 unless this routes it to tf_keras). Nothing else is changed: a
test that still fails with this plugin fails for another reason than TF1's semantics.
"""
import tensorflow as tf
from absl import flags


def pytest_configure(config):  # pylint: disable=unused-argument
    tf.compat.v1.disable_v2_behavior()


def pytest_collection_finish(session):  # pylint: disable=unused-argument
    # Test modules define their flags at import (collection); tests read them later.
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
