"""What the codemods share that pass a ``tf.train.*List(value=...)`` through a slim_ext
function giving the field what TF1's protobuf 3 on Python 2 took (``int64_values``,
``bytes_values``): the call found by the paths TF1 code reached it through, its
``value=`` wrapped, literals that need nothing left (``FieldConversion``)."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable, ClassVar, Dict, FrozenSet

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

RUNTIME = "slim_ext.protobuf3"
# The modules TF1 code reached tf.train's feature lists through.
FEATURE_MODULES = ("tensorflow.train", "tensorflow.compat.v1.train",
                   "tensorflow.core.example.feature_pb2")


def feature_lists(name: str) -> FrozenSet[str]:
    """``tf.train.<name>`` by every path TF1 code reached it through.

    Args:
      name: a feature list's class name (``BytesList``).

    Returns:
      Its qualified names.
    """
    return frozenset(f"{module}.{name}" for module in FEATURE_MODULES)


@dataclass(frozen=True)
class FieldConversion:
    """A feature list whose ``value=`` goes through a slim_ext function.

    Attributes:
      list_name: ``Int64List``, ``BytesList``.
      conversion: the function's dotted name.
      why: what the newer protobuf or Python refuses, for the report.
      needs_nothing: whether a ``value=`` is a literal the field takes as it is.
    """

    list_name: str
    conversion: str
    why: str
    needs_nothing: Callable[[cst.BaseExpression], bool]


class ProtobufValuesCodemod(LeftoverCodemod):
    """Base: subclasses set ``FIELD``."""

    FIELD: ClassVar[FieldConversion]

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        name = cls.FIELD.list_name
        return lambda statement: any(
            node.attr == name for node in nodes_of(statement, (ast.Attribute,))) or any(
            node.id == name for node in nodes_of(statement, (ast.Name,)))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        # The calls to port -> the index of their value= argument.
        self._ported: Dict[cst.Call, int] = {}
        self._lists = feature_lists(self.FIELD.list_name)
        return True

    def visit_Call(self, node: cst.Call) -> None:
        if self.resolve_name(node.func) not in self._lists:
            return
        for index, arg in enumerate(node.args):
            if arg.keyword is None or arg.keyword.value != "value":
                continue
            value, field = arg.value, self.FIELD
            if field.needs_nothing(value) or (isinstance(value, cst.Call) and self.resolve_name(
                    value.func) == field.conversion):
                return
            if not self.slim_ext_free(node, f"{code_of(node)}: {field.why}",
                                      f"value={field.conversion}({code_of(value)})"):
                return
            self._ported[node] = index
            self.record_edit(node, f"value={code_of(value)} -> value={field.conversion}(...) "
                                   f"({field.why})")
            return

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        index = self._ported.pop(original_node, None)
        if index is None:
            return updated_node
        self.add_needed_import(RUNTIME)
        arg = updated_node.args[index]
        converted = cst.Call(func=cst.parse_expression(self.FIELD.conversion),
                             args=[cst.Arg(arg.value)])
        args = list(updated_node.args)
        args[index] = arg.with_changes(value=converted)
        return updated_node.with_changes(args=args)
