"""A ``str`` joined over a protobuf bytes field: ``b''.join``, as Python 2's ``str`` was bytes.

TF1-era code read ``tf.train.Example`` strings back with ``''.join(example.features.
feature[key].bytes_list.value)`` (object detection 0.1.1's ``metrics/tf_example_parser.py``):
on Python 2 the separator and the field's items were both ``str``, and the result was the
bytes. On Python 3 a bytes list field holds ``bytes``, and ``str.join`` refuses them
(``TypeError: sequence item 0: expected str instance, bytes found``) on every call, so the
separator literal becomes a bytes literal: the result is the bytes Python 2 gave. Only
where the joined value is certainly such a field (an attribute chain that ends in
``.bytes_list.value``) and the separator is a plain ASCII string literal. Only TF1-era code
(``leftovers_are_ours``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Pattern, Set

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

# The field the edit needs (``.join(`` alone is in most files: ``os.path.join``).
_TRIGGER_TEXT = re.compile(r"\.bytes_list\.value\b")


def _bytes_field(node: cst.BaseExpression) -> bool:
    """``<...>.bytes_list.value``: a protobuf bytes list field."""
    return isinstance(node, cst.Attribute) and node.attr.value == "value" and \
        isinstance(node.value, cst.Attribute) and node.value.attr.value == "bytes_list"


def _plain_ascii_literal(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.SimpleString) and node.prefix == "" and \
        str(node.evaluated_value).isascii()


class ProtobufBytesJoinsCommand(LeftoverCodemod):
    """Joins a protobuf bytes field with a bytes separator, as Python 2 joined its str."""

    NAME: ClassVar[str] = "protobuf_bytes_joins"
    DESCRIPTION: ClassVar[str] = (
        "''.join(x.bytes_list.value) -> b''.join(x.bytes_list.value): the bytes Python 2 "
        "joined (Python 3's str.join refuses the field's bytes)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return ".join(" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return lambda statement: any(
            isinstance(node.func, ast.Attribute) and node.func.attr == "join"  # type: ignore[attr-defined]
            for node in nodes_of(statement, (ast.Call,)))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._separators: Set[int] = set()
        return True

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "join"
                and _plain_ascii_literal(func.value) and len(node.args) == 1
                and node.args[0].keyword is None and not node.args[0].star
                and _bytes_field(node.args[0].value)):
            return
        self._separators.add(id(func.value))
        self.record_edit(node, f"{code_of(node)}: a protobuf bytes field joined by a str, "
                               "which Python 3 refuses -> b-prefixed separator (Python 2 "
                               "joined the bytes)")

    def leave_SimpleString(self, original_node: cst.SimpleString,
                           updated_node: cst.SimpleString) -> cst.SimpleString:
        if id(original_node) not in self._separators:
            return updated_node
        self._separators.discard(id(original_node))
        return updated_node.with_changes(value="b" + updated_node.value)
