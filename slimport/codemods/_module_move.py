"""What contrib_slim and flags_to_absl share: following a module to its new home.

Both codemods move every name under a TF1 module to another package
(``tensorflow.contrib.slim`` -> ``tf_slim``, ``tensorflow.app.flags`` -> ``absl.flags``)
the same way: statements that bind a local name to the old module are rewritten where
they stand, keeping the name; other uses are rewritten through a module-level name
for the new home; an import whose every use was rewritten is then dropped. This base
keeps the bookkeeping for that: which nodes get which replacement, which statements
split off an import line, which names were rewritten and which are still used.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Set, Union

import libcst as cst

from slimport.codemods._base import SlimportCodemod, code_of
from slimport.names import collect_bindings, dotted_expression


def small_statement(text: str) -> cst.BaseSmallStatement:
    """The one small statement ``text`` (``import tf_slim as slim``) parses to."""
    statement = cst.parse_statement(text)
    assert isinstance(statement, cst.SimpleStatementLine)
    return statement.body[0]


def _without_trailing_comma(aliases: List[cst.ImportAlias]) -> List[cst.ImportAlias]:
    if aliases and aliases[-1].comma is not cst.MaybeSentinel.DEFAULT:
        aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return aliases


class ModuleMoveCodemod(SlimportCodemod):
    """Base for codemods that rewrite a module's bindings in place and its uses by alias.

    Subclasses rewrite in their ``visit_*`` methods by calling ``replace`` (for an
    ``Assign`` or ``Attribute``) or ``split_import``, and say which first names they
    rewrote (``rewritten_roots``) and which they saw used otherwise (``used_names``).
    """

    def start_file(self, tree: cst.Module) -> bool:
        parsed = self.file_ast(tree)
        self.bindings = collect_bindings(parsed)
        self.module_bindings = collect_bindings(parsed, module_level_only=True)
        self.rewritten_roots: Set[str] = set()
        self.used_names: Set[str] = set()
        self._replacements: Dict[cst.CSTNode, cst.CSTNode] = {}
        # Imports split off a ``from tensorflow.contrib import slim, layers`` line,
        # emitted as their own statements right after it.
        self._split_off: List[cst.BaseSmallStatement] = []
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = tree.visit(self)
        # RemoveImportsVisitor decides for itself whether an import is unused, but
        # costs a scope analysis of the whole file; names still seen here are not
        # worth asking about.
        for root in sorted(self.rewritten_roots - self.used_names):
            target = self.bindings.names.get(root)
            if target is not None:
                self.schedule_import_removal(root, target)
        return tree

    def replace(self, original: Union[cst.Assign, cst.Attribute], new: cst.CSTNode) -> None:
        """Put ``new`` in place of ``original`` when the visit leaves it."""
        self._replacements[original] = new

    def move_import(
        self,
        original: cst.Import,
        updated: cst.Import,
        new_path: Callable[[cst.ImportAlias], Optional[str]],
    ) -> cst.Import:
        """``import a.b as x``: each alias takes the path ``new_path`` gives (None: kept)."""
        aliases = []
        for alias in updated.names:
            path = new_path(alias)
            if path is not None:
                alias = alias.with_changes(name=dotted_expression(path))
            aliases.append(alias)
        if aliases == list(updated.names):
            return updated
        new = updated.with_changes(names=aliases)
        self.record_edit(original, f"{code_of(original)} -> {code_of(new)}")
        return new

    def move_import_from(
        self, original: cst.ImportFrom, updated: cst.ImportFrom, path: str
    ) -> cst.ImportFrom:
        """``from <old module> import ...`` becomes ``from <path> import ...``."""
        new = updated.with_changes(module=dotted_expression(path))
        self.record_edit(original, f"{code_of(original)} -> {code_of(new)}")
        return new

    def split_import(
        self,
        node: cst.ImportFrom,
        kept: List[cst.ImportAlias],
        moved: Sequence[cst.BaseSmallStatement],
    ) -> cst.BaseSmallStatement:
        """``node`` keeping only ``kept`` names, ``moved`` imports on lines after it.

        Returns:
          The statement to leave in ``node``'s place: the first of ``moved`` when
          nothing is kept.
        """
        if not kept:
            self._split_off.extend(moved[1:])
            return moved[0]
        self._split_off.extend(moved)
        return node.with_changes(names=_without_trailing_comma(kept))

    # Names in import statements are bindings, not uses; the subclasses' leave_Import
    # and leave_ImportFrom rewrite them whole.

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.used_names.add(node.value)

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        replacement = self._replacements.pop(original_node, None)
        return replacement if isinstance(replacement, cst.BaseSmallStatement) else updated_node

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        replacement = self._replacements.pop(original_node, None)
        return replacement if isinstance(replacement, cst.BaseExpression) else updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Union[cst.SimpleStatementLine, cst.FlattenSentinel[cst.SimpleStatementLine]]:
        if not self._split_off:
            return updated_node
        extra = [cst.SimpleStatementLine(body=[statement]) for statement in self._split_off]
        self._split_off = []
        return cst.FlattenSentinel([updated_node, *extra])

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        # ``try: from tensorflow.contrib import slim, layers`` has no line to add
        # after; the split-off imports join the same line.
        if not self._split_off:
            return updated_node
        body = list(updated_node.body)
        body[-1] = body[-1].with_changes(
            semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))
        )
        body.extend(self._split_off)
        self._split_off = []
        return updated_node.with_changes(body=body)
