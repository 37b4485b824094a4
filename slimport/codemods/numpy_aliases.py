"""NumPy names that NumPy 1.24 / 2.0 removed -> what they stood for.

TF1-era code wrote ``np.float``, ``np.int``, ``np.bool``, ``np.object``, ``np.str``,
``np.long``, ``np.unicode`` and ``np.complex``: aliases of the Python builtins, removed
in NumPy 1.24 (TensorFlow 2.21 ships NumPy 2). They become the builtins they were
(``np.bool`` and ``np.long`` came back in NumPy 2 as NumPy scalar types, which are not
what the code meant). The other NumPy 2 removals become the NumPy names that always
meant the same (``np.float_`` -> ``np.float64``, ``np.NaN`` -> ``np.nan``,
``np.product`` -> ``np.prod``); those exist in NumPy 1.x too, so the result runs with
TF 2.15's NumPy as well. Any name numpy is imported as counts (``import numpy``,
``import numpy as onp``); a builtin is not used where the file binds that name itself.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Set

import libcst as cst

from slimport.codemods.base import StatementFilter, chain_filter, code_of
from slimport.analysis.builtin_names import bound_here, module_bound_names
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.analysis.names import (
    Bindings,
    bound_names,
    dotted_expression,
    dotted_parts,
)

NUMPY = "numpy"
# numpy.<alias> -> the builtin it was.
BUILTIN_ALIASES: Dict[str, str] = {
    "bool": "bool", "int": "int", "float": "float", "complex": "complex",
    "object": "object", "str": "str", "long": "int", "unicode": "str",
}
# numpy.<removed> -> the numpy name that means the same in NumPy 1.x and 2.x.
RENAMED: Dict[str, str] = {
    "float_": "float64", "complex_": "complex128", "string_": "bytes_",
    "unicode_": "str_", "bool8": "bool_", "int0": "intp", "uint0": "uintp",
    "object0": "object_", "NaN": "nan", "NAN": "nan", "Inf": "inf", "Infinity": "inf",
    "infty": "inf", "PINF": "inf", "round_": "round", "product": "prod",
    "cumproduct": "cumprod", "sometrue": "any", "alltrue": "all",
}
_TRIGGER_TEXT = re.compile(r"\.(?:%s)\b" % "|".join(sorted({*BUILTIN_ALIASES, *RENAMED})))


def _removed(qualified: Optional[str]) -> Optional[str]:
    """``numpy.float`` -> ``float``; None for names NumPy still has."""
    if qualified is None or not qualified.startswith(NUMPY + "."):
        return None
    name = qualified[len(NUMPY) + 1:]
    return name if name in BUILTIN_ALIASES or name in RENAMED else None


class NumpyAliasesCommand(LeftoverCodemod):
    """Replaces NumPy's removed aliases with the builtins / NumPy names they stood for."""

    NAME: ClassVar[str] = "numpy_aliases"
    DESCRIPTION: ClassVar[str] = (
        "NumPy names removed in 1.24 / 2.0 (np.float, np.int, np.bool, "
        "np.float_, np.NaN, ...) -> the builtins / NumPy names they meant"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "numpy" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Also what binds a builtin's name: whether ``int`` is the builtin depends on it.
        builtins = set(BUILTIN_ALIASES.values())
        uses = chain_filter(lambda parts: _removed(bindings.resolve_parts(parts)) is not None)
        return lambda statement: (uses(statement)
                                  or bool(builtins & set(bound_names(statement))))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._module_bound = module_bound_names(tree, parsed)
        self._replacements: Dict[cst.Attribute, cst.BaseExpression] = {}
        # Attributes written, not read: ``np.object = object`` (a compat shim) stays.
        self._written: Set[int] = set()
        return True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._written.add(id(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._written.add(id(node.target))

    def visit_Del(self, node: cst.Del) -> None:
        self._written.add(id(node.target))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        return self._replacements.pop(original_node, updated_node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        parts = dotted_parts(node)
        if parts is None:
            return True
        name = _removed(self.resolve_name(node))
        if name is None or len(parts) < 2 or id(node) in self._written:
            return False
        head = ".".join(parts[:-1])
        if name in RENAMED:
            new: cst.BaseExpression = dotted_expression(f"{head}.{RENAMED[name]}")
        else:
            builtin = BUILTIN_ALIASES[name]
            if bound_here(self.scopes, self._module_bound, builtin):
                self.needs_attention(node, f"{code_of(node)} was removed from NumPy; it "
                                     f"meant the builtin {builtin}, which this file binds "
                                     "to something else here", f"use builtins.{builtin}")
                return False
            new = cst.Name(builtin)
        self._replacements[node] = new.with_changes(lpar=node.lpar, rpar=node.rpar)
        self.record_edit(node, f"{code_of(node)} -> {code_of(new)}")
        return False

