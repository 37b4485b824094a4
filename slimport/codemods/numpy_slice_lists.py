"""A list of slices used as a NumPy index -> the tuple NumPy read it as.

NumPy < 1.23 read a list index that held a slice (``arr[[slice(None), slice(0, 1)]]``)
as the tuple of its items, a multidimensional index; NumPy 1.15 deprecated that and
1.23 made such a list a fancy index, which fails ("only integers, slices ... are valid
indices"). TF1-era code built such indexes for one axis of many (magenta 1.1.7's
spectral_ops_test: ``s = [slice(None),] * x.ndim; s[axis] = slice(0, 1); x[s]``).
``x[s]`` -> ``x[tuple(s)]``, NumPy's own fix in its deprecation message: the same
index.

Ported only where the list certainly holds slices when it is used: ``s`` is bound in
a function only by a list of ``slice(...)`` calls and ``...`` (repeated with ``* n`` or
not), it is changed only by putting a ``slice(...)`` at an item, and every other use of
it in the file is as the whole index of a subscript; ``slice`` is the builtin. Any other
use (passed to a function, appended to, bound otherwise) leaves it as it is: the list
may then hold no slice, and NumPy reads a list of integers as a fancy index still. Only
TF1-era code and plain Python are ported (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Set, Tuple

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.builtin_names import binds_anywhere
from slimport.analysis.names import Bindings, bound_names
from slimport.codemods._collect_first import CollectsFirst
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

SLICE = "slice"


def _slice_call(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and \
        node.func.value == SLICE


def _slice_list(node: cst.BaseExpression) -> bool:
    """``[slice(...), ..., ...]``, or such a list times a count (either side)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
        return _slice_list(node.left) or _slice_list(node.right)
    return isinstance(node, cst.List) and bool(node.elements) and all(
        isinstance(element, cst.Element) and (
            _slice_call(element.value) or isinstance(element.value, cst.Ellipsis))
        for element in node.elements) and any(
        _slice_call(element.value) for element in node.elements)


class NumpySliceListsCommand(CollectsFirst, LeftoverCodemod):
    """Ports ``x[s]`` with ``s`` a list of slices to ``x[tuple(s)]`` (NumPy >= 1.23).

    A list is certain only when the whole file agrees: every binding and use is read
    first (CollectsFirst).
    """

    NAME: ClassVar[str] = "numpy_slice_lists"
    DESCRIPTION: ClassVar[str] = (
        "a list of slices used as an index (NumPy < 1.23 read it as a tuple) -> "
        "x[tuple(s)], where the list certainly holds only slices"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\bslice\(")

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Every statement that uses a name some statement binds to a list: its
        # bindings, its item assignments and its uses decide.
        lists = {name for node in nodes_of(tree, (ast.Assign,))
                 if isinstance(node.value, (ast.List, ast.BinOp))  # type: ignore[attr-defined]
                 for name in bound_names(node)}
        return lambda statement: any(node.id in lists  # type: ignore[attr-defined]
                                     for node in nodes_of(statement, (ast.Name,)))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        # ``slice`` is the builtin only where the file binds no name ``slice``.
        if binds_anywhere(parsed, {SLICE}):
            return False
        # (scope, name) -> how many bindings of it there are lists of slices.
        self._slice_lists: Dict[Tuple[int, str], int] = {}
        # The Name nodes that are such a binding, a slice put at an item, or an index.
        self._known_uses: Set[int] = set()
        # Names used any other way somewhere in the file.
        self._other_uses: Set[str] = set()
        self._indexes: Dict[int, cst.Subscript] = {}
        self._collecting = False
        return True

    def _scope(self) -> Optional[int]:
        scopes = self.scopes.scopes
        return id(scopes[-1].node) if scopes else None

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self._collecting:
            return
        if len(node.targets) == 1:
            target = node.targets[0].target
            if isinstance(target, cst.Name) and _slice_list(node.value) and \
                    self._scope() is not None:
                key = (self._scope(), target.value)
                self._slice_lists[key] = self._slice_lists.get(key, 0) + 1
                self._known_uses.add(id(target))
            elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) \
                    and _slice_call(node.value):
                self._known_uses.add(id(target.value))  # s[axis] = slice(0, 1)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        # (``x[s,]`` is a tuple holding the list: a fancy index on every NumPy.)
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index) or \
                isinstance(node.slice[0].comma, cst.Comma):
            return
        index = node.slice[0].slice.value
        if not isinstance(index, cst.Name) or node.slice[0].slice.star is not None:
            return
        if self._collecting:
            self._known_uses.add(id(index))
        elif self._certain(index.value):
            self._indexes[id(node)] = node
            self.record_edit(node, f"{code_of(node)} -> {code_of(node.value)}"
                                   f"[tuple({index.value})] (NumPy >= 1.23 reads a list of "
                                   "slices as a fancy index, not as the tuple NumPy < 1.23 "
                                   "read)")

    def visit_Name(self, node: cst.Name) -> None:
        if self._collecting and id(node) not in self._known_uses:
            self._other_uses.add(node.value)

    def leave_Subscript(self, original_node: cst.Subscript, updated_node: cst.Subscript
                        ) -> cst.BaseExpression:
        if self._indexes.pop(id(original_node), None) is None:
            return updated_node
        (element,) = updated_node.slice
        index = element.slice.value
        return updated_node.with_changes(slice=[element.with_changes(
            slice=element.slice.with_changes(value=cst.Call(
                func=cst.Name("tuple"), args=[cst.Arg(index)])))])

    def _certain(self, name: str) -> bool:
        """Whether ``name``, where the visit is, is a list that holds slices only."""
        if name in self._other_uses:
            return False
        for scope in reversed(self.scopes.scopes):
            entries = scope.entries.get(name)
            if entries is None:
                continue
            return name not in scope.declared_global | scope.declared_nonlocal and \
                self._slice_lists.get((id(scope.node), name), 0) == len(entries)
        return False
