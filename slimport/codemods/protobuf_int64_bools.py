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

import ast
import re
from typing import ClassVar, Dict, Pattern

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

RUNTIME = "slim_ext.protobuf3"
CONVERSION = f"{RUNTIME}.int64_values"
# tf.train.Int64List by the paths TF1 code reached it through.
INT64_LISTS = frozenset({"tensorflow.train.Int64List", "tensorflow.compat.v1.train.Int64List",
                         "tensorflow.core.example.feature_pb2.Int64List"})
_TRIGGER_TEXT = re.compile(r"\bInt64List\(")


def _int_literals(value: cst.BaseExpression) -> bool:
    """``[1, 2]``, ``(3,)``, ``[-1]``: no bool can be among them."""
    if not isinstance(value, (cst.List, cst.Tuple)):
        return False
    return all(isinstance(element, cst.Element) and isinstance(
        element.value.expression if isinstance(element.value, cst.UnaryOperation)
        else element.value, cst.Integer) for element in value.elements)


class ProtobufInt64BoolsCommand(LeftoverCodemod):
    """Passes tf.train.Int64List's value through slim_ext.protobuf3.int64_values."""

    NAME: ClassVar[str] = "protobuf_int64_bools"
    DESCRIPTION: ClassVar[str] = (
        "tf.train.Int64List(value=v) -> value=slim_ext.protobuf3.int64_values(v): a bool "
        "stored as 0/1, as TF1's protobuf 3 did (protobuf >= 5 refuses it)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return lambda statement: any(
            node.attr == "Int64List" for node in nodes_of(statement, (ast.Attribute,))) or any(
            node.id == "Int64List" for node in nodes_of(statement, (ast.Name,)))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        # Int64List calls to port -> the index of their value= argument.
        self._ported: Dict[cst.Call, int] = {}
        return True

    def visit_Call(self, node: cst.Call) -> None:
        if self.resolve_name(node.func) not in INT64_LISTS:
            return
        for index, arg in enumerate(node.args):
            if arg.keyword is None or arg.keyword.value != "value":
                continue
            value = arg.value
            if _int_literals(value) or (isinstance(value, cst.Call)
                                        and self.resolve_name(value.func) == CONVERSION):
                return
            if not self.slim_ext_free(
                    node, f"{code_of(node)}: protobuf >= 5 refuses a bool in an int64 field, "
                    "which TF1's protobuf 3 stored as 0/1",
                    f"value={CONVERSION}({code_of(value)})"):
                return
            self._ported[node] = index
            self.record_edit(node, f"value={code_of(value)} -> value={CONVERSION}(...) "
                                   "(protobuf >= 5 refuses a bool in an int64 field, which "
                                   "TF1's protobuf 3 stored as 0/1)")
            return

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        index = self._ported.pop(original_node, None)
        if index is None:
            return updated_node
        self.add_needed_import(RUNTIME)
        arg = updated_node.args[index]
        converted = cst.Call(func=cst.parse_expression(CONVERSION),
                             args=[cst.Arg(arg.value)])
        args = list(updated_node.args)
        args[index] = arg.with_changes(value=converted)
        return updated_node.with_changes(args=args)
