"""slim_ext.field_labels: TF's own assertProtoEquals on protobuf 7 (magenta's
sequences_lib_test)."""
from __future__ import annotations

import tensorflow as tf
from google.protobuf import descriptor
from tensorflow.core.framework import tensor_shape_pb2

import slim_ext  # noqa: F401  (applies the shims, field_labels among them)
from slim_ext import field_labels


def test_tf_own_proto_comparison_runs() -> None:
  shape = tensor_shape_pb2.TensorShapeProto(dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=3)])
  case = tf.test.TestCase()
  case.assertProtoEquals("dim { size: 3 }", shape)
  try:
    case.assertProtoEquals("dim { size: 4 }", shape)
  except AssertionError:
    pass
  else:
    raise AssertionError("a different proto compared equal")


def test_labels_are_protobuf_6s() -> None:
  shape_fields = tensor_shape_pb2.TensorShapeProto.DESCRIPTOR.fields_by_name
  dim_fields = tensor_shape_pb2.TensorShapeProto.Dim.DESCRIPTOR.fields_by_name
  assert shape_fields["dim"].label == descriptor.FieldDescriptor.LABEL_REPEATED
  assert dim_fields["size"].label == descriptor.FieldDescriptor.LABEL_OPTIONAL
  assert field_labels.install() is False  # once is enough; protobuf < 7 has its own
