"""``int()`` / ``float()`` of one-element NumPy arrays, which NumPy 2 refuses.

NumPy 1 converted an array of one element, of any shape, to a Python scalar; NumPy 2
raises ``TypeError: only 0-dimensional arrays can be converted to Python scalars``.
research/slim's ``model_deploy_test`` builds its labels as ``np.random.randint(0, 2,
size=(16, 1)).astype(np.float32)`` and reads ``int(2 * self._labels[i] + ...)``: each row
is an array of one element. Where ``int(E)`` / ``float(E)`` indexes, in ``E``, a name or
``self`` attribute the file binds to a NumPy array (a NumPy call's result, through
``.astype``/``.reshape``/``.copy``) and nothing else, the call becomes
``slim_ext.numpy1.to_int(E)`` / ``to_float(E)``, which convert as NumPy 1 did (and as
``int``/``float`` do for everything else). Only TF1-era code (``leftovers_are_ours``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Set

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.builtin_names import bound_here, module_bound_names
from slimport.analysis.names import Bindings, collect_bindings, dotted_parts
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

RUNTIME = "slim_ext.numpy1"
CONVERSIONS: Dict[str, str] = {"int": f"{RUNTIME}.to_int", "float": f"{RUNTIME}.to_float"}
# Methods whose result is the same kind of array.
ARRAY_METHODS = frozenset({"astype", "reshape", "copy", "squeeze", "flatten", "ravel"})
_TRIGGER_TEXT = re.compile(r"\b(?:int|float)\(")


def _numpy_result(bindings: Bindings, value: ast.expr) -> bool:
    """Whether ``value`` is a NumPy call's result (through array methods)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ARRAY_METHODS and isinstance(value.func.value, ast.Call):
        value = value.func.value
    if not isinstance(value, ast.Call):
        return False
    parts = dotted_parts(value.func)
    return parts is not None and (bindings.resolve_parts(parts) or "").startswith("numpy.")


def array_names(tree: ast.Module) -> Set[str]:
    """Names and ``self.x`` attributes every assignment of the file binds to a NumPy array.

    Args:
      tree: the whole file's stdlib ``ast``.

    Returns:
      Their spellings (``labels``, ``self._labels``).
    """
    bindings = collect_bindings(tree)
    arrays: Set[str] = set()
    others: Set[str] = set()
    for node in nodes_of(tree, (ast.Assign,)):
        for target in node.targets:  # type: ignore[attr-defined]
            parts = dotted_parts(target)
            if parts is None or (len(parts) == 2 and parts[0] != "self") or len(parts) > 2:
                continue
            name = ".".join(parts)
            (arrays if _numpy_result(bindings, node.value) else others).add(name)  # type: ignore[attr-defined]
    return arrays - others


class Numpy1ScalarsCommand(LeftoverCodemod):
    """int()/float() of indexed NumPy arrays -> NumPy 1's conversion in slim_ext.numpy1."""

    NAME: ClassVar[str] = "numpy1_scalars"
    DESCRIPTION: ClassVar[str] = (
        "int()/float() of an expression indexing a NumPy array (a one-element row, which "
        "NumPy 2 refuses to convert) -> slim_ext.numpy1.to_int/to_float, NumPy 1's conversion"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "numpy" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return lambda statement: any(
            isinstance(node.func, ast.Name) and node.func.id in CONVERSIONS  # type: ignore[attr-defined]
            for node in nodes_of(statement, (ast.Call,)))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._arrays = array_names(self.original_ast or parsed)
        if not self._arrays:
            return False
        self._module_bound = module_bound_names(tree, parsed)
        self._converted: Dict[int, str] = {}
        return True

    def _indexed_array(self, node: cst.BaseExpression) -> Optional[str]:
        finder = _IndexedNames()
        node.visit(finder)
        return next((name for name in finder.names if name in self._arrays), None)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Name) or func.value not in CONVERSIONS \
                or len(node.args) != 1 or node.args[0].keyword is not None \
                or node.args[0].star or bound_here(self.scopes, self._module_bound, func.value):
            return
        array = self._indexed_array(node.args[0].value)
        if array is None:
            return
        home = CONVERSIONS[func.value]
        problem = (f"{code_of(node)}: `{array}` is a NumPy array, whose one-element rows "
                   f"{func.value}() converted on NumPy 1; NumPy 2 refuses them")
        if not self.slim_ext_free(node, problem, home):
            return
        self.add_needed_import(RUNTIME)
        self._converted[id(node)] = home
        self.record_edit(node, f"{problem}: {func.value} -> {home}")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        home = self._converted.pop(id(original_node), None)
        if home is None:
            return updated_node
        return updated_node.with_changes(func=cst.parse_expression(home))


class _IndexedNames(cst.CSTVisitor):
    """The spellings of what an expression indexes (``self._labels`` of ``self._labels[i]``)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: Set[str] = set()

    def visit_Subscript(self, node: cst.Subscript) -> None:
        parts = dotted_parts(node.value)
        if parts is not None:
            self.names.add(".".join(parts))
