"""Statements the codemods build and recognise: imports and docstrings.

Built with libcst's own parser from their text (``small_statement``), so what is
inserted is spelled as a user would write it.
"""
from __future__ import annotations

from typing import List, Sequence

import libcst as cst


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
