"""Statements the codemods build, recognise and remove: imports and docstrings.

Built with libcst's own parser from their text (``small_statement``), so what is
inserted is spelled as a user would write it. A statement removed leaves its comments
and blank lines to the code around it (``keep_lines_of_removed``).
"""
from __future__ import annotations

from typing import AbstractSet, List, Sequence, Tuple

import libcst as cst

from slimport.codemods.base import code_of


def small_statement(text: str) -> cst.BaseSmallStatement:
    """The one small statement ``text`` parses to.

    Args:
      text: e.g. ``import tf_slim as slim``.

    Returns:
      The statement, without its line.
    """
    statement = cst.parse_statement(text)
    assert isinstance(statement, cst.SimpleStatementLine)
    return statement.body[0]


def import_statement(path: str, local: str) -> cst.BaseSmallStatement:
    """The import that binds ``local`` to the module or name ``path``.

    Args:
      path: a dotted name, e.g. ``tf_slim``, ``slim_ext.mox`` or ``tf_slim.nets.vgg``.
      local: the name the file uses for it.

    Returns:
      ``import tf_slim as slim`` for a top-level name, else ``from slim_ext import
      mox as local`` (with no ``as`` when the names are the same).
    """
    if "." not in path:
        return small_statement(f"import {path}" if path == local else f"import {path} as {local}")
    package, _, name = path.rpartition(".")
    alias = "" if name == local else f" as {local}"
    return small_statement(f"from {package} import {name}{alias}")


def imports_module(tree: cst.Module, module: str) -> bool:
    """Whether ``tree`` has ``import MODULE`` (a plain import of it) at module level.

    Args:
      tree: the file (or its skeleton: module-level imports are kept there).
      module: a dotted module name, e.g. ``slim_ext.legacy_keras``.

    Returns:
      True when a module-level ``import`` line names ``module`` itself.
    """
    return any(isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Import) and any(
            code_of(alias.name) == module for alias in small.names)
        for small in statement.body) for statement in tree.body)


def without_trailing_comma(aliases: Sequence[cst.ImportAlias]) -> List[cst.ImportAlias]:
    """``aliases`` for an import line of their own: no comma after the last one.

    Args:
      aliases: names taken from a longer ``from ... import a, b, c`` line.

    Returns:
      A new list; the last alias loses its comma.
    """
    aliases = list(aliases)
    if aliases and aliases[-1].comma is not cst.MaybeSentinel.DEFAULT:
        aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return aliases


def is_docstring(statement: cst.BaseStatement) -> bool:
    """True for a statement that is one string literal (a docstring in first place).

    Args:
      statement: a statement of a module or block body.

    Returns:
      Whether it is a docstring-shaped statement.
    """
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def _blank_run(lines: Sequence[cst.EmptyLine], from_end: bool) -> int:
    """How many comment-less empty lines ``lines`` starts (or ends) with."""
    count = 0
    for line in (reversed(lines) if from_end else lines):
        if line.comment is not None:
            break
        count += 1
    return count


def keep_lines_of_removed(body: Sequence[cst.BaseStatement], removed: AbstractSet[int]
                          ) -> Tuple[List[cst.BaseStatement], List[cst.EmptyLine]]:
    """A body without the statements ``removed`` names, each one's comments and blank
    lines handed to the statement after it.

    Libcst keeps a statement's comment lines and blank lines above it with the
    statement, so removing it (an import nothing uses after the port) would take
    ``# Dependency imports`` with it. The gap the removed line sat in is kept once:
    blank lines below it do not double those above it.

    Args:
      body: a body's statements.
      removed: ``id()`` of those to remove.

    Returns:
      The new body, and the lines left over when the last statements were removed (for
      the body's footer, before its own).
    """
    kept: List[cst.BaseStatement] = []
    carried: List[cst.EmptyLine] = []
    for statement in body:
        if id(statement) in removed:
            carried += statement.leading_lines
            continue
        if carried:
            own = list(statement.leading_lines)
            overlap = min(_blank_run(carried, from_end=True), _blank_run(own, from_end=False))
            statement = statement.with_changes(leading_lines=[*carried, *own[overlap:]])
            carried = []
        kept.append(statement)
    return kept, carried
