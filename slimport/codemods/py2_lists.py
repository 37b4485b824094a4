"""Python 2 lists that Python 3 made views and iterators, where the code needs the list.

On Python 2, ``d.keys()`` / ``d.values()`` / ``d.items()``, ``range(...)``, ``zip(...)``,
``map(...)`` and ``filter(...)`` returned lists. Python 3's views, ranges and iterators
iterate the same, so most uses need nothing; these fail or change meaning, and get
``list(...)`` around the call, which gives back what Python 2 gave (2to3's ``fix_dict``
and ``fix_zip`` rule, limited to the places a list is certainly needed):

- indexed or sliced: ``d.keys()[0]``, ``scope.values()[0]``, ``zip(a, b)[1:]``;
- an operand of ``+`` or ``*``: ``range(1, 7) * 6``, ``d.keys() + extra``;
- an argument of a TensorFlow or NumPy function: ``tf.stack(d.values())``,
  ``np.mean(d.values())`` (TensorFlow cannot convert a view; NumPy makes a 0-d object
  array of it);
- measured: ``len(zip(a, b))``, ``len(filter(f, xs))`` (an iterator has no length);
- in TF1 code only (``is_tf1_code``; in plain Python a stored view may be meant as one):
  a view, ``zip``, ``map`` or ``filter`` stored by an assignment or returned: Python 2
  code measured and re-read such lists (``len``, a second loop, ``sess.run`` of a
  function's ``feature_maps.values()``) where an iterator is empty after one pass and a
  view follows later changes of its dict; a ``range`` stored under a name the file
  also adds or multiplies (``steps = range(n)`` ... ``steps + boundaries``); a ``zip``,
  ``map`` or ``filter`` tested for truth (``if filter(f, xs):``: an iterator is always
  true, a Python 2 list was false when empty); any of them compared with ``==`` or
  ``!=`` (a view, range or iterator never equals a list).

In Python 2 code (``py2_code``: Python 2 was the code's meaning, whatever TF API it
uses) a result stored under a name is a list where the file uses that name as one (the
names are the file's, a list is what Python 2 stored): a ``zip``, ``map``, ``filter`` or
view indexed, a ``zip``, ``map``, ``filter``, view or ``range`` item- or slice-assigned
(``dims[i], dims[j] = dims[j], dims[i]``), deleted from, sorted in place, appended to (and
the other list methods), a ``zip``, ``map`` or ``filter`` measured with ``len()`` or
returned, any but a ``range`` handed to TensorFlow's ``nest``, ``json``, TensorFlow or
NumPy (``out = map(f, flat)`` ... ``nest.pack_sequence_as(x, out)``). In Python 2 code
that fails on Python 3 as written (``is_python2_only``) every stored or returned
iterator and view is a list, as in TF1 code.

A stored ``x.values()`` (and kin) is left when the file uses what it stored as a mapping
(``.update``, ``.get``, ``['key']``): then ``x`` was no dict and its ``values()`` no list
(``HParams.values()`` returns a dict).

The builtins count only where they are Python's (not rebound, no ``*`` import), and
``list`` must be the builtin too. Only Python 2 code, TF1 code and plain Python are
ported (``leftovers_are_ours``); TF2 code written for Python 3 is its authors'.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Set

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.codemods.base import StatementFilter, code_of
from slimport.analysis.builtin_names import bound_here, has_star_import, module_bound_names
from slimport.analysis.names import Bindings, bound_names, collect_bindings, dotted_parts
from slimport.analysis.py2_code import describe, is_python2_only, python2_evidence
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.analysis.tf_code import is_tf1_code

VIEW_METHODS = frozenset({"keys", "values", "items"})
LIST_BUILTINS = frozenset({"range", "zip", "map", "filter"})
# Results an assignment stores or a function returns: iterators (empty after one pass)
# and views (live), not ranges (which index, measure and re-iterate like a list).
ITERATORS = frozenset({"zip", "map", "filter"})
ARRAY_LIBRARIES = ("tensorflow", "numpy")
# What only a mapping has: a stored ``x.values()`` used so was not a Python 2 list.
MAPPING_ONLY = frozenset({"update", "get", "setdefault", "keys", "values", "items",
                          "popitem", "iteritems", "iterkeys", "itervalues", "has_key"})
# How a file uses a name as a list (``_list_uses``) -> what a report says of it.
INDEXED, ASSIGNED, SORTED, MUTATED, MEASURED, RETURNED, HANDED = (
    "indexes", "assigns items of", "sorts in place", "appends to (or another list method)",
    "measures with len()", "returns", "hands to a function that needs a sequence")
LIST_METHODS = frozenset({"append", "extend", "insert", "remove", "pop", "reverse"})
# Which uses need a list, by what was stored: a range indexes and measures, a view
# measures, like a list.
NEEDS_LIST: Dict[str, frozenset] = {
    "iterator": frozenset({INDEXED, ASSIGNED, SORTED, MUTATED, MEASURED, RETURNED, HANDED}),
    "view": frozenset({INDEXED, ASSIGNED, SORTED, MUTATED, HANDED}),
    "range": frozenset({ASSIGNED, SORTED, MUTATED}),
}
# Functions that need a sequence, not an iterator: TensorFlow's nest (``tf.nest``,
# ``tensorflow.python.util.nest``, contrib's), json's writers, and any TensorFlow or
# NumPy function.
SEQUENCE_LIBRARIES = ("tensorflow.", "numpy.", "json.dump")
_TRIGGER_TEXT = re.compile(r"\.(?:keys|values|items)\(\s*\)|\b(?:range|zip|map|filter)\(")


def _candidate(node: ast.expr) -> bool:
    """``x.keys()`` (and kin) or a call of a list builtin, on the stdlib ast."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr in VIEW_METHODS and not node.args and not node.keywords
    return isinstance(func, ast.Name) and func.id in LIST_BUILTINS


def _needs_list(statement: ast.stmt) -> bool:
    """Whether ``statement`` has a candidate where a list is needed (the skeleton keeps it)."""
    # Every candidate is a call: a statement without one (most) is settled here.
    if not any(_candidate(node) for node in nodes_of(statement, (ast.Call,))):
        return False
    return any(_candidate(node.value) for node in nodes_of(statement, (ast.Subscript,))) \
        or any(isinstance(node.op, (ast.Add, ast.Mult))
               and (_candidate(node.left) or _candidate(node.right))
               for node in nodes_of(statement, (ast.BinOp,))) \
        or any(_candidate(arg) for node in nodes_of(statement, (ast.Call,)) for arg in node.args) \
        or any(node.value is not None and _candidate(node.value)
               for node in nodes_of(statement, (ast.Assign, ast.Return))) \
        or any(_candidate(node.test)
               for node in nodes_of(statement, (ast.If, ast.While, ast.IfExp))) \
        or any(isinstance(node.op, ast.Not) and _candidate(node.operand)
               for node in nodes_of(statement, (ast.UnaryOp,))) \
        or any(_candidate(value) for node in nodes_of(statement, (ast.BoolOp,))
               for value in node.values) \
        or any(_candidate(operand) for node in nodes_of(statement, (ast.Compare,))
               for operand in (node.left, *node.comparators))


def _mapping_names(tree: ast.Module) -> Set[str]:
    """Names the file uses as a mapping: ``x.update(...)``, ``x.get(...)``, ``x['key']``."""
    names = {node.value.id for node in nodes_of(tree, (ast.Attribute,))  # type: ignore[attr-defined]
             if node.attr in MAPPING_ONLY and isinstance(node.value, ast.Name)}  # type: ignore[attr-defined]
    names.update(node.value.id for node in nodes_of(tree, (ast.Subscript,))  # type: ignore[attr-defined]
                 if isinstance(node.value, ast.Name)  # type: ignore[attr-defined]
                 and isinstance(node.slice, ast.Constant)  # type: ignore[attr-defined]
                 and isinstance(node.slice.value, str))  # type: ignore[attr-defined]
    return names


def _combined_names(tree: ast.Module) -> Set[str]:
    """Names the file uses as an operand of ``+`` or ``*``."""
    return {operand.id for node in nodes_of(tree, (ast.BinOp,))
            if isinstance(node.op, (ast.Add, ast.Mult))  # type: ignore[attr-defined]
            for operand in (node.left, node.right)  # type: ignore[attr-defined]
            if isinstance(operand, ast.Name)}


def _list_uses(tree: ast.Module) -> Dict[str, Set[str]]:
    """Name -> how the file uses it as a list (``INDEXED``, ``ASSIGNED``, ...)."""
    bindings = collect_bindings(tree)
    uses: Dict[str, Set[str]] = {}

    def use(node: ast.AST, how: str) -> None:
        if isinstance(node, ast.Name):
            uses.setdefault(node.id, set()).add(how)

    for node in nodes_of(tree, (ast.Subscript,)):
        use(node.value, INDEXED if isinstance(node.ctx, ast.Load) else ASSIGNED)  # type: ignore[attr-defined]
    for node in nodes_of(tree, (ast.Return,)):
        if node.value is not None:  # type: ignore[attr-defined]
            use(node.value, RETURNED)  # type: ignore[attr-defined]
    for node in nodes_of(tree, (ast.Call,)):
        func = node.func  # type: ignore[attr-defined]
        if isinstance(func, ast.Attribute) and func.attr == "sort":
            use(func.value, SORTED)
        elif isinstance(func, ast.Attribute) and func.attr in LIST_METHODS:
            use(func.value, MUTATED)
        elif isinstance(func, ast.Name) and func.id == "len" and len(node.args) == 1:  # type: ignore[attr-defined]
            use(node.args[0], MEASURED)  # type: ignore[attr-defined]
        elif _needs_sequence(bindings, func):
            for arg in node.args:  # type: ignore[attr-defined]
                use(arg, HANDED)
    return uses


def _needs_sequence(bindings: Bindings, func: ast.expr) -> bool:
    """Whether a call of ``func`` needs a sequence: nest's, json's writers, TF's, NumPy's."""
    parts = dotted_parts(func)
    if parts is None:
        return False
    qualified = bindings.resolve_parts(parts) or ""
    return "nest" in parts[:-1] or qualified.startswith(SEQUENCE_LIBRARIES)


def _stored_kind(func: cst.BaseExpression) -> str:
    """What a candidate call stores: an iterator, a view or a range."""
    if isinstance(func, cst.Attribute):
        return "view"
    return "range" if isinstance(func, cst.Name) and func.value == "range" else "iterator"


class Py2ListsCommand(LeftoverCodemod):
    """Wraps Python 2 list results in list() where the code indexes, adds or converts them."""

    NAME: ClassVar[str] = "py2_lists"
    DESCRIPTION: ClassVar[str] = (
        "Python 2 lists that are views/iterators now, where a list is needed "
        "(d.keys()[0], range(n) * k, tf.stack(d.values()), len(zip(...)), x = zip(...), "
        "if filter(...):) -> list(...)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Also what binds a builtin's name.
        names = LIST_BUILTINS | {"list"}
        return lambda statement: (_needs_list(statement)
                                  or bool(names & set(bound_names(statement))))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        if has_star_import(parsed):
            return False
        self._module_bound = module_bound_names(tree, parsed)
        whole = self.original_ast or parsed
        evidence = python2_evidence(whole)
        # Python 2 code: a result stored under a name the file uses as a list.
        self._list_uses = _list_uses(whole) if evidence else {}
        self._python2 = describe(evidence)
        # Stored and returned results: only where Python 2 lists are what the code meant.
        self._stores = is_tf1_code(parsed, self.original_ast, self.context.filename) \
            or is_python2_only(whole)
        self._combined = _combined_names(whole)
        self._mappings = _mapping_names(whole)
        self._wrap: Set[int] = set()
        return True

    def _is_candidate(self, node: cst.BaseExpression) -> bool:
        if not isinstance(node, cst.Call):
            return False
        func = node.func
        if isinstance(func, cst.Attribute):
            return func.attr.value in VIEW_METHODS and not node.args
        return isinstance(func, cst.Name) and func.value in LIST_BUILTINS \
            and not self._bound(func.value)

    def _bound(self, name: str) -> bool:
        return bound_here(self.scopes, self._module_bound, name)

    def _mark(self, node: cst.BaseExpression, why: str) -> None:
        if not self._is_candidate(node) or id(node) in self._wrap:
            return
        if self._bound("list"):
            self.needs_attention(node, f"{code_of(node)} is a list on Python 2 and {why}; "
                                 "`list` is rebound here", "wrap it in builtins.list(...)")
            return
        self._wrap.add(id(node))
        self.record_edit(node, f"{code_of(node)} -> list({code_of(node)}) ({why})")

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self._mark(node.value, "it is indexed")

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, (cst.Add, cst.Multiply)):
            self._mark(node.left, "it is an operand of + or *")
            self._mark(node.right, "it is an operand of + or *")

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "len" \
                and not self._bound("len") and len(node.args) == 1:
            self._mark_iterator(node.args[0].value, "it is measured with len()")
            return
        library = self._array_library(node.func)
        if library is None:
            return
        for arg in node.args:
            if not arg.star:
                self._mark(arg.value, f"{library} needs a list, not a view or iterator")

    # Truth and equality: TF1 code only (a Python 3 program may test an iterator).

    def _mark_truth(self, node: cst.BaseExpression) -> None:
        if self._stores:
            self._mark_iterator(node, "it is tested for truth, and an iterator is always "
                                "true where a Python 2 list was false when empty")

    def visit_If(self, node: cst.If) -> None:
        self._mark_truth(node.test)

    def visit_While(self, node: cst.While) -> None:
        self._mark_truth(node.test)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._mark_truth(node.test)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self._mark_truth(node.expression)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._mark_truth(node.left)
        self._mark_truth(node.right)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if not self._stores or not any(isinstance(target.operator, (cst.Equal, cst.NotEqual))
                                       for target in node.comparisons):
            return
        for operand in (node.left, *(target.comparator for target in node.comparisons)):
            self._mark(operand, "it is compared with == or !=, and a view, range or "
                       "iterator never equals a list")

    def _mark_iterator(self, node: cst.BaseExpression, why: str) -> None:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
                and node.func.value in ITERATORS:
            self._mark(node, why)

    def visit_Assign(self, node: cst.Assign) -> None:
        if isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Attribute) \
                and any(isinstance(target.target, cst.Name)
                        and target.target.value in self._mappings for target in node.targets):
            return  # used as a mapping: its values() was a mapping, no Python 2 list
        self._mark_used_as_list(node)
        if not self._stores:
            return
        self._mark_stored(node.value, "stored")
        value = node.value
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
                and value.func.value == "range" and any(
                    isinstance(target.target, cst.Name) and target.target.value in self._combined
                    for target in node.targets):
            self._mark(value, "it is stored under a name the file adds or multiplies")

    def _mark_used_as_list(self, node: cst.Assign) -> None:
        """In Python 2 code: a result stored under a name the file uses as a list."""
        value = node.value
        if not self._list_uses or not self._is_candidate(value):
            return
        needs = NEEDS_LIST[_stored_kind(value.func)]  # type: ignore[attr-defined]
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                name = target.target.value
                uses = sorted(self._list_uses.get(name, set()) & needs)
                if uses:
                    self._mark(value, f"it is stored in `{name}`, which the file "
                               f"{' and '.join(uses)}; Python 2 code ({self._python2}) "
                               "stored a list")
                    return

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None and self._stores:
            self._mark_stored(node.value, "returned")

    def _mark_stored(self, value: cst.BaseExpression, how: str) -> None:
        if not isinstance(value, cst.Call):
            return
        if isinstance(value.func, cst.Name) and value.func.value in ITERATORS:
            self._mark(value, f"it is {how}, and an iterator is empty after one pass")
        elif isinstance(value.func, cst.Attribute):
            self._mark(value, f"it is {how}, and a view follows later changes of its dict")

    def _array_library(self, func: cst.BaseExpression) -> Optional[str]:
        if dotted_parts(func) is None:
            return None
        qualified = self.resolve_name(func) or ""
        return next((library for library in ARRAY_LIBRARIES
                     if qualified.startswith(library + ".")), None)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if id(original_node) not in self._wrap:
            return updated_node
        self._wrap.discard(id(original_node))
        return cst.Call(func=cst.Name("list"), args=[cst.Arg(updated_node.with_changes(
            lpar=[], rpar=[]))], lpar=updated_node.lpar, rpar=updated_node.rpar)
