"""A generator handed to NumPy's stacking functions -> the list NumPy made of it.

``np.stack``, ``vstack``, ``hstack``, ``dstack``, ``column_stack`` and ``row_stack``
took any iterable of arrays and turned it into a list first; NumPy 1.16 deprecated a
non-sequence iterable there and NumPy 2 refuses it ("arrays to stack must be passed as
a 'sequence' type"). TF1-era code stacked generator expressions (magenta 1.1.7's
music_vae data_test: ``np.stack(np.argmax(s, axis=-1) for s in parts)``). A generator
expression as the first argument becomes the list comprehension of the same items: the
list NumPy built from it, in the same order. Only calls that certainly are NumPy's
(``numpy.stack`` by any import spelling) are ported; other iterables (a name, a
``map``) are left. Only TF1-era code and plain Python are ported (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Optional, Pattern, Set

import libcst as cst

from slimport.analysis.names import Bindings, name_in
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, chain_filter, code_of

NUMPY = "numpy"
STACKERS = frozenset({"stack", "vstack", "hstack", "dstack", "column_stack", "row_stack"})


def _stacker(qualified: Optional[str]) -> bool:
    return name_in(qualified, NUMPY) in STACKERS


class NumpyStackGeneratorsCommand(LeftoverCodemod):
    """Ports ``np.stack(x for x in xs)`` to ``np.stack([x for x in xs])`` (NumPy 2)."""

    NAME: ClassVar[str] = "numpy_stack_generators"
    DESCRIPTION: ClassVar[str] = (
        "a generator expression handed to np.stack / vstack / hstack / ... (refused by "
        "NumPy 2) -> the list comprehension NumPy made of it"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\b(?:%s)\(" % "|".join(sorted(STACKERS)))

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: _stacker(bindings.resolve_parts(parts)))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._generators: Set[int] = set()
        return True

    def visit_Call(self, node: cst.Call) -> None:
        if not node.args or node.args[0].keyword is not None or node.args[0].star or \
                not isinstance(node.args[0].value, cst.GeneratorExp) or \
                not _stacker(self.resolve_name(node.func)):
            return
        self._generators.add(id(node.args[0].value))
        self.record_edit(node, f"{code_of(node.func)}(<generator>) -> "
                               f"{code_of(node.func)}([...]) (NumPy 2 refuses a generator; "
                               "NumPy < 2 made this list of it)")

    def leave_GeneratorExp(self, original_node: cst.GeneratorExp,
                           updated_node: cst.GeneratorExp) -> cst.BaseExpression:
        if id(original_node) not in self._generators:
            return updated_node
        self._generators.discard(id(original_node))
        # (A lone generator argument's parentheses are the call's; the list has brackets.)
        return cst.ListComp(elt=updated_node.elt, for_in=updated_node.for_in)
