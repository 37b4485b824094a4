"""``np.size`` / ``np.shape`` / ``np.ndim`` of what may be a ragged nested list.

NumPy 1.x made an object array of a ragged nested list (``[[a, b], [c]]``, arrays of
different lengths), so ``np.size`` of it counted its regular outer shape; NumPy 1.24
refuses the array (``ValueError: ... inhomogeneous shape``), and these three functions
fail with it. TF1-era code asked this of lists of per-segment arrays: magenta 1.1.7's
``music_vae/data_hierarchical.py`` tests ``if np.size(control):`` on chord controls of
different lengths. Such a call becomes ``slim_ext.numpy1.size`` / ``shape`` / ``ndim``
with the same arguments: NumPy's own function, and for a ragged sequence the object
array NumPy 1 made of it (for anything else the same answer, so the edit is exact
wherever it is made). It is made where the code asks NumPy about a Python sequence: the
argument is a list or tuple display or a comprehension, or the call is tested for truth
(``if np.size(x):``, ``not np.size(x)``: is the list empty), and the argument is not
certainly an array (a NumPy call's result, a name every assignment of the file binds to
one). Any other call, ``np.ones(np.size(predictions))`` of an array parameter, is left
as it is. Only TF1-era code and plain Python (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Pattern, Set

import libcst as cst

from slimport.analysis.names import Bindings, dotted_parts
from slimport.codemods._leftovers import LeftoverCodemod, reads_function
from slimport.codemods._runtime_calls import RuntimeCalls
from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods.numpy1_scalars import array_names

RUNTIME = "slim_ext.numpy1"
# numpy function -> NumPy 1's, in slim_ext.
_NAMES = ("size", "shape", "ndim")
HOMES: Dict[str, str] = {f"numpy.{name}": f"{RUNTIME}.{name}" for name in _NAMES}
# Python sequences written out.
_SEQUENCES = (cst.List, cst.Tuple, cst.ListComp)


class Numpy1RaggedCommand(RuntimeCalls, LeftoverCodemod):
    """np.size/shape/ndim of what may be a ragged list -> NumPy 1's, in slim_ext.numpy1."""

    NAME: ClassVar[str] = "numpy1_ragged"
    DESCRIPTION: ClassVar[str] = (
        "np.size / np.shape / np.ndim of what may be a ragged nested list (NumPy >= 1.24 "
        "makes no array of it) -> slim_ext.numpy1.size / shape / ndim, NumPy 1's answer"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\b(?:size|shape|ndim)\(")
    RUNTIME: ClassVar[str] = RUNTIME

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "numpy" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return reads_function(frozenset(_NAMES))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._arrays = array_names(self.original_ast or parsed)
        self.start_runtime_calls()
        self._truth_tests: Set[int] = set()
        return True

    def _tested(self, test: cst.BaseExpression) -> None:
        """Marks ``test`` as tested for truth, and through ``not`` / ``and`` / ``or``."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            self._tested(test.expression)
        elif isinstance(test, cst.BooleanOperation):
            self._tested(test.left)
            self._tested(test.right)
        else:
            self._truth_tests.add(id(test))

    def visit_If(self, node: cst.If) -> None:
        self._tested(node.test)

    def visit_While(self, node: cst.While) -> None:
        self._tested(node.test)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._tested(node.test)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self._tested(node.expression)

    def visit_Assert(self, node: cst.Assert) -> None:
        self._tested(node.test)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.resolve_name(node.func)
        if qualified not in HOMES or not node.args or node.args[0].star:
            return
        argument = node.args[0].value
        if not (isinstance(argument, _SEQUENCES) or id(node) in self._truth_tests) \
                or self._certainly_an_array(argument):
            return
        home = HOMES[qualified]
        problem = (f"{code_of(node)}: NumPy >= 1.24 makes no array of a ragged nested "
                   "list, which NumPy 1 made an object array of")
        if not self.slim_ext_free(node, problem, f"{home}(...)"):
            return
        self.send_to_runtime(node, home)
        self.record_edit(node, f"{problem}: {code_of(node.func)} -> {home}")

    def _certainly_an_array(self, value: cst.BaseExpression) -> bool:
        """A NumPy call's result, a name the file binds only to NumPy arrays."""
        if isinstance(value, cst.Call):
            return (self.resolve_name(value.func) or "").startswith("numpy.")
        parts = dotted_parts(value)
        return parts is not None and ".".join(parts) in self._arrays
