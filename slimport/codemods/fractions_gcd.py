"""``fractions.gcd`` (removed in Python 3.9) -> ``slim_ext.stdlib.fractions_gcd``.

Python 3.5 deprecated ``fractions.gcd`` for ``math.gcd`` and 3.9 removed it. The two
differ: ``fractions.gcd`` took the sign of its second argument (``gcd(4, -6)`` is -2)
and took any rationals (``Fraction``, floats), ``math.gcd`` is never negative and takes
ints only; so no spelling with ``math.gcd`` is certain to compute the same. TF1-era code
called it on frame lengths (magenta 1.1.7's ``music/melspec_input.py``): each call
``fractions.gcd(a, b)`` becomes ``slim_ext.stdlib.fractions_gcd(a, b)``, Python 3.8's
function. A ``from fractions import gcd`` fails when the module is imported, so it is
reported with the fix and the file left. Only TF1-era code and plain Python
(``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Pattern

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod, reads_attribute
from slimport.codemods._runtime_calls import RuntimeCalls
from slimport.codemods.base import StatementFilter, code_of

REMOVED = "fractions.gcd"
RUNTIME = "slim_ext.stdlib"
HOME = f"{RUNTIME}.fractions_gcd"


class FractionsGcdCommand(RuntimeCalls, LeftoverCodemod):
    """Sends fractions.gcd calls to Python 3.8's function in slim_ext.stdlib."""

    NAME: ClassVar[str] = "fractions_gcd"
    DESCRIPTION: ClassVar[str] = (
        "fractions.gcd(a, b) (removed in Python 3.9; math.gcd differs in sign) -> "
        "slim_ext.stdlib.fractions_gcd(a, b), Python 3.8's function"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\bgcd\b")
    RUNTIME: ClassVar[str] = RUNTIME
    HOME: ClassVar[str] = HOME

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "fractions" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        reads = reads_attribute({"gcd"})
        return lambda statement: reads(statement) or isinstance(statement, ast.ImportFrom)

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self.start_runtime_calls()
        return True

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.module, cst.Name) and node.module.value == "fractions" and \
                not isinstance(node.names, cst.ImportStar) and \
                any(alias.name.value == "gcd" for alias in node.names):
            self.needs_attention(node, f"{code_of(node)}: fractions.gcd was removed in "
                                 "Python 3.9 (math.gcd differs in sign); left unchanged",
                                 f"from {RUNTIME} import fractions_gcd as gcd")

    def visit_Call(self, node: cst.Call) -> None:
        if not isinstance(node.func, cst.Attribute) or \
                self.resolve_name(node.func) != REMOVED:
            return
        if not self.slim_ext_free(node, f"{code_of(node)}: fractions.gcd was removed in "
                                  "Python 3.9", f"{HOME}(...)"):
            return
        self.send_to_runtime(node)
        self.record_edit(node, f"{code_of(node.func)} -> {HOME} (removed in Python 3.9; "
                               "math.gcd differs in sign)")
