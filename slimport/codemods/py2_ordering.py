"""Python 2's orderings that Python 3 refuses: ``None`` beside other values, ``cmp=``.

Python 2 ordered values of any two types (``None`` before everything, numbers before
other types, other types by their name); Python 3 raises ``TypeError`` for
``None < 'a'``. A Python 2 program that sorts a list holding ``None`` beside strings
(``conv_list = [k if k[:4] == 'conv' else None for k in d]; conv_list.sort()``) sorted
the ``None`` first. In Python 2 code (``py2_code``), where a list the file can fill with
``None`` -- a list display or comprehension with a literal ``None`` element (also in an
``x if c else None``), ``[None] * n``, or a list the file appends ``None`` to -- is
sorted (``x.sort()``, ``sorted(x)``) or ``min``/``max``-ed without a key, the call gets
``key=slim_ext.py2.sort_key``, under which values sort as Python 2 ordered them (the
same order as before for values Python 3 can compare). The list is named: the names are
the file's.

``x.sort(cmp=f)`` / ``sorted(x, cmp=f)`` (Python 3 has no ``cmp`` argument) ->
``key=functools.cmp_to_key(f)``, the same order (2to3 leaves it); the builtin ``cmp(a,
b)`` (gone in Python 3) -> ``slim_ext.py2.cmp(a, b)``, in Python 2's order. Only Python 2
code.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Pattern, Set

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.builtin_names import bound_here, module_bound_names
from slimport.analysis.names import Bindings
from slimport.analysis.py2_code import is_python2_code
from slimport.codemods._arguments import with_keyword_argument
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

RUNTIME = "slim_ext.py2"
SORT_KEY = f"{RUNTIME}.sort_key"
CMP = f"{RUNTIME}.cmp"
CMP_TO_KEY = "functools.cmp_to_key"
ORDERING_BUILTINS = frozenset({"sorted", "min", "max"})
FILLING_METHODS = frozenset({"append", "insert"})
_TRIGGER_TEXT = re.compile(r"\.sort\(|\b(?:sorted|min|max)\(")


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _can_be_none(node: ast.AST) -> bool:
    """``None`` itself, or an ``x if c else None`` either way round."""
    return _is_none(node) or (isinstance(node, ast.IfExp)
                              and (_is_none(node.body) or _is_none(node.orelse)))


def _holds_none(value: ast.AST) -> bool:
    """A list the value builds can hold ``None``: ``[a, None]``, ``[k if c else None for
    ...]``, ``[None] * n``."""
    if isinstance(value, ast.List):
        return any(_can_be_none(element) for element in value.elts)
    if isinstance(value, ast.ListComp):
        return _can_be_none(value.elt)
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return _holds_none(value.left) or _holds_none(value.right)
    return False


def none_holding_names(tree: ast.Module) -> Set[str]:
    """Names the file binds to (or fills with) lists that can hold ``None``.

    Args:
      tree: the whole file's stdlib ``ast``.

    Returns:
      The names.
    """
    names: Set[str] = set()
    for node in nodes_of(tree, (ast.Assign,)):
        if _holds_none(node.value):  # type: ignore[attr-defined]
            names.update(target.id for target in node.targets  # type: ignore[attr-defined]
                         if isinstance(target, ast.Name))
    for node in nodes_of(tree, (ast.Call,)):
        func = node.func  # type: ignore[attr-defined]
        if isinstance(func, ast.Attribute) and func.attr in FILLING_METHODS \
                and isinstance(func.value, ast.Name) and node.args \
                and _can_be_none(node.args[-1]):  # type: ignore[attr-defined]
            names.add(func.value.id)
    return names


def _keyword(call: cst.Call, name: str) -> bool:
    return any(arg.keyword is not None and arg.keyword.value == name for arg in call.args)


class Py2OrderingCommand(LeftoverCodemod):
    """Sorts lists that can hold None in Python 2's order; cmp= -> key=cmp_to_key."""

    NAME: ClassVar[str] = "py2_ordering"
    DESCRIPTION: ClassVar[str] = (
        "Python 2 code's sorts, min and max of lists that can hold None beside other "
        "values -> key=slim_ext.py2.sort_key (Python 2's order); sort(cmp=f) -> "
        "key=functools.cmp_to_key(f); cmp(a, b) -> slim_ext.py2.cmp(a, b)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        def orders(statement: ast.stmt) -> bool:
            return any((isinstance(node.func, ast.Attribute) and node.func.attr == "sort")  # type: ignore[attr-defined]
                       or (isinstance(node.func, ast.Name)  # type: ignore[attr-defined]
                           and node.func.id in ORDERING_BUILTINS)  # type: ignore[attr-defined]
                       for node in nodes_of(statement, (ast.Call,)))
        return orders

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        whole = self.original_ast or parsed
        if not is_python2_code(whole):
            return False
        self._none_names = none_holding_names(whole)
        self._module_bound = module_bound_names(tree, parsed)
        # ids of the calls that get key=sort_key, and of those whose cmp= becomes a key.
        self._sorted_in_py2_order: Set[int] = set()
        self._cmp_calls: Set[int] = set()
        self._builtin_cmps: Set[int] = set()  # ids of the names ``cmp`` that are the builtin
        return True

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        if id(original_node) not in self._builtin_cmps:
            return updated_node
        self._builtin_cmps.discard(id(original_node))
        return cst.parse_expression(CMP)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name) and func.value == "cmp" \
                and not bound_here(self.scopes, self._module_bound, "cmp") \
                and self.slim_ext_free(node, f"{code_of(node)}: Python 3 has no cmp", CMP):
            self.add_needed_import(RUNTIME)
            self._builtin_cmps.add(id(func))
            self.record_edit(node, f"cmp -> {CMP} (Python 3 has no cmp; Python 2's order)")
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "sort":
            subject = func.value
        elif isinstance(func, cst.Name) and func.value in ORDERING_BUILTINS \
                and not bound_here(self.scopes, self._module_bound, func.value):
            positional = [arg for arg in node.args if arg.keyword is None]
            subject = positional[0].value if len(positional) == 1 and not positional[0].star \
                else None
        else:
            return
        if _keyword(node, "cmp"):
            self._cmp_to_key(node)
        elif isinstance(subject, cst.Name) and subject.value in self._none_names \
                and not _keyword(node, "key"):
            self._sort_key(node, subject.value)

    def _sort_key(self, node: cst.Call, name: str) -> None:
        problem = (f"{code_of(node)}: `{name}` can hold None beside other values, which "
                   "Python 2 ordered first and Python 3 refuses to compare")
        if not self.slim_ext_free(node, problem, f"key={SORT_KEY}"):
            return
        self.add_needed_import(RUNTIME)
        self._sorted_in_py2_order.add(id(node))
        self.record_edit(node, f"{problem}: key={SORT_KEY} sorts in Python 2's order")

    def _cmp_to_key(self, node: cst.Call) -> None:
        if self.target_of("functools") not in (None, "functools"):
            self.needs_attention(node, f"{code_of(node)}: Python 3's sort takes no cmp=; "
                                 "`functools` is another name here", f"key={CMP_TO_KEY}(...)")
            return
        self.add_needed_import("functools")
        self._cmp_calls.add(id(node))
        self.record_edit(node, f"{code_of(node)}: cmp=f -> key={CMP_TO_KEY}(f) (Python 3's "
                         "sort takes no cmp)")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if id(original_node) in self._cmp_calls:
            self._cmp_calls.discard(id(original_node))
            return updated_node.with_changes(args=[
                arg.with_changes(keyword=cst.Name("key"), value=cst.Call(
                    cst.parse_expression(CMP_TO_KEY), [cst.Arg(arg.value)]))
                if arg.keyword is not None and arg.keyword.value == "cmp" else arg
                for arg in updated_node.args])
        if id(original_node) not in self._sorted_in_py2_order:
            return updated_node
        self._sorted_in_py2_order.discard(id(original_node))
        return with_keyword_argument(updated_node, "key", cst.parse_expression(SORT_KEY))
