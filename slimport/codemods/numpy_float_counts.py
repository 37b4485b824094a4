"""The sample count of ``np.linspace`` / ``logspace`` / ``geomspace`` -> ``int(count)``,
what NumPy 1.12 - 1.17 made of it.

Those NumPy releases took a count that is no integer (``16.0``, the product of a rate
and a proto's float duration) with a DeprecationWarning and used ``int(count)``;
NumPy 1.18 refuses it ("'float' object cannot be interpreted as an integer"). TF1-era
code counted samples so (magenta 1.1.7's audio tests: ``np.linspace(0, 1, sample_rate
* sequence.total_time)``). Whether a count is a float is the data's, so every count
that is not certainly an integer (an int literal, ``len(...)``, ``int(...)``) becomes
``int(count)``: for an integer that is the same number, for anything else the number
NumPy 1.17 used. Only calls that certainly are NumPy's, and only TF1-era code and plain
Python (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Optional, Pattern, Set

import libcst as cst

from slimport.analysis.builtin_names import binds_anywhere
from slimport.analysis.names import Bindings, name_in
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, chain_filter, code_of

NUMPY = "numpy"
# Each function, and the position of its count among its parameters.
COUNTED = {"linspace": 2, "logspace": 2, "geomspace": 2}
COUNT = "num"
# Calls whose result is certainly an int.
_INT_MAKERS = frozenset({"int", "len"})


def _counted(qualified: Optional[str]) -> bool:
    return name_in(qualified, NUMPY) in COUNTED


def _certainly_int(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return _certainly_int(node.expression)
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and \
        node.func.value in _INT_MAKERS


class NumpyFloatCountsCommand(LeftoverCodemod):
    """Writes ``int(count)`` for np.linspace's count where it may be a float."""

    NAME: ClassVar[str] = "numpy_float_counts"
    DESCRIPTION: ClassVar[str] = (
        "np.linspace / logspace / geomspace's count where it may be a float (NumPy 1.18 "
        "refuses one) -> int(count), what NumPy 1.12-1.17 used"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\b(?:%s)\(" % "|".join(sorted(COUNTED)))

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return NUMPY in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: _counted(bindings.resolve_parts(parts)))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._counts: Set[int] = set()
        # ``int`` and ``len`` are the builtins only where the file binds neither.
        return not binds_anywhere(parsed, _INT_MAKERS)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.resolve_name(node.func)
        if not _counted(qualified) or any(arg.star for arg in node.args):
            return
        position = COUNTED[qualified.rpartition(".")[2]]
        positional = [arg for arg in node.args if arg.keyword is None]
        keyword = [arg for arg in node.args if arg.keyword is not None
                   and arg.keyword.value == COUNT]
        count = positional[position] if len(positional) > position else \
            (keyword[0] if keyword else None)
        if count is None or _certainly_int(count.value):
            return
        self._counts.add(id(count))
        self.record_edit(node, f"{code_of(node.func)}(...): count {code_of(count.value)} -> "
                               f"int({code_of(count.value)}) (NumPy >= 1.18 refuses a float "
                               "count; 1.12-1.17 used int() of it)")

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        if id(original_node) not in self._counts:
            return updated_node
        self._counts.discard(id(original_node))
        return updated_node.with_changes(value=cst.Call(
            func=cst.Name("int"), args=[cst.Arg(updated_node.value)]))
