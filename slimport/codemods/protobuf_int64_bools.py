"""A bool in ``tf.train.Int64List(value=...)``: stored as 0 / 1 again, as protobuf 3 did.

TF1 ran on protobuf 3, whose int64 fields took a bool as 0 / 1; TF1-era dataset tools
fill ``tf.train.Int64List`` from annotations and flags that are bools (object
detection's COCO converter stores each annotation's ``iscrowd``, which its tests write
as ``False``). protobuf's upb runtime since 5.x refuses the bool (TF 2.21 installs 7.x:
``Expected an int, got a boolean``). Which values are bools only the run knows, so the
value goes through ``slim_ext.protobuf3.int64_values``: a list or tuple holding a bool
comes back with each bool as its int, anything else unchanged (the same object), so
every value protobuf took before is stored as before. ``value=`` of int literals written
out is left. Only TF1-era code and plain Python are ported (``tf1_era_file``).
"""
from __future__ import annotations

import re
from typing import ClassVar, Pattern

import libcst as cst

from slimport.codemods._protobuf_values import RUNTIME, FieldConversion, ProtobufValuesCodemod

CONVERSION = f"{RUNTIME}.int64_values"
_TRIGGER_TEXT = re.compile(r"\bInt64List\(")


def _int_literals(value: cst.BaseExpression) -> bool:
    """``[1, 2]``, ``(3,)``, ``[-1]``: no bool can be among them."""
    if not isinstance(value, (cst.List, cst.Tuple)):
        return False
    return all(isinstance(element, cst.Element) and isinstance(
        element.value.expression if isinstance(element.value, cst.UnaryOperation)
        else element.value, cst.Integer) for element in value.elements)


class ProtobufInt64BoolsCommand(ProtobufValuesCodemod):
    """Passes tf.train.Int64List's value through slim_ext.protobuf3.int64_values."""

    NAME: ClassVar[str] = "protobuf_int64_bools"
    DESCRIPTION: ClassVar[str] = (
        "tf.train.Int64List(value=v) -> value=slim_ext.protobuf3.int64_values(v): a bool "
        "stored as 0/1, as TF1's protobuf 3 did (protobuf >= 5 refuses it)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    FIELD: ClassVar[FieldConversion] = FieldConversion(
        "Int64List", CONVERSION, "protobuf >= 5 refuses a bool in an int64 field, which "
        "TF1's protobuf 3 stored as 0/1", _int_literals)
