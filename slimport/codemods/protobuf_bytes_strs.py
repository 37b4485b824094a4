"""A ``str`` in ``tf.train.BytesList(value=...)``: encoded, as Python 2's ``str`` was bytes.

TF1-era dataset code (written on Python 2) fills ``tf.train.BytesList`` with strings:
object detection's ``dataset_util.bytes_feature('jpeg')``, image file names, class
names. Python 2's ``str`` was bytes and protobuf stored it as it was; on Python 3 the
same literal is text and protobuf refuses it (``TypeError: expected bytes, str found``),
so no Python 3 program passes one. Which values are ``str`` only the run knows, so the
value goes through ``slim_ext.protobuf3.bytes_values``: a list or tuple holding a
``str`` comes back with each ``str`` encoded as UTF-8 (the bytes a Python 2 source's
literal was; what ``tf.compat.as_bytes`` gives), a NumPy array of text likewise,
anything else unchanged. ``value=`` of bytes literals written out is left. Only TF1-era
code (``leftovers_are_ours``).
"""
from __future__ import annotations

import re
from typing import ClassVar, Pattern

import libcst as cst

from slimport.codemods._protobuf_values import RUNTIME, FieldConversion, ProtobufValuesCodemod

CONVERSION = f"{RUNTIME}.bytes_values"
_TRIGGER_TEXT = re.compile(r"\bBytesList\(")


def _bytes_literals(value: cst.BaseExpression) -> bool:
    """``[b'a', b'b']``: bytes already."""
    return isinstance(value, (cst.List, cst.Tuple)) and all(
        isinstance(element, cst.Element) and isinstance(element.value, cst.SimpleString)
        and "b" in element.value.prefix.lower() for element in value.elements)


class ProtobufBytesStrsCommand(ProtobufValuesCodemod):
    """Passes tf.train.BytesList's value through slim_ext.protobuf3.bytes_values."""

    NAME: ClassVar[str] = "protobuf_bytes_strs"
    DESCRIPTION: ClassVar[str] = (
        "tf.train.BytesList(value=v) -> value=slim_ext.protobuf3.bytes_values(v): a str "
        "encoded as UTF-8, as Python 2's str was bytes (Python 3's protobuf refuses it)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    FIELD: ClassVar[FieldConversion] = FieldConversion(
        "BytesList", CONVERSION, "protobuf refuses a str in a bytes field on Python 3; "
        "Python 2's str was bytes", _bytes_literals)
