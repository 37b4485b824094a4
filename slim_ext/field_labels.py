"""Protobuf 7's field descriptors: the ``label`` TensorFlow's own proto comparison reads.

Protobuf 7 dropped ``FieldDescriptor.label`` (``is_repeated`` and ``is_required`` say the
same). TensorFlow 2.21 takes protobuf up to 7 (grpcio-tools 1.85, the protos extra, needs
7) but its ``tensorflow/python/util/protobuf/compare.py`` still reads ``desc.label``: every
``tf.test.TestCase.assertProtoEquals`` then fails with ``AttributeError: FieldDescriptor
has no attribute 'label'`` before comparing (magenta 1.1.7's ``sequences_lib_test``: 8
tests that pass on Python 2.7 + TF 1.14, and all 76 with protobuf 6). ``install`` gives
the descriptor classes a read-only ``label`` computed as protobuf 6 stored it; where the
attribute exists it is left alone.
"""
from __future__ import annotations

from google.protobuf import descriptor
from google.protobuf import descriptor_pb2


def _label(field) -> int:
  """``LABEL_REPEATED``, ``LABEL_REQUIRED`` or ``LABEL_OPTIONAL``, as protobuf 6 said."""
  if field.is_repeated:
    return descriptor.FieldDescriptor.LABEL_REPEATED
  if field.is_required:
    return descriptor.FieldDescriptor.LABEL_REQUIRED
  return descriptor.FieldDescriptor.LABEL_OPTIONAL


def install() -> bool:
  """Gives protobuf 7's field descriptors their ``label`` back.

  Returns:
    True when it added the attribute now; False when every descriptor class has one
    (protobuf < 7, or installed before).
  """
  # The Python class and the C implementation's (upb's descriptors are its instances).
  sample = descriptor_pb2.FieldDescriptorProto.DESCRIPTOR.fields[0]
  added = False
  for kind in {descriptor.FieldDescriptor, type(sample)}:
    if not hasattr(kind, "label"):
      kind.label = property(_label, doc="protobuf 6's label (slim_ext.field_labels)")
      added = True
  return added
