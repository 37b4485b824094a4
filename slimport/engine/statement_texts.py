"""Each top-level statement's text, cut from the source libcst parsed it from.

After an edit the engine joins the new module's text from its top-level statements'
(``slimport.analysis.lines.ModuleCodes``); the statements no codemod changed are most of
them, and generating their code again was most of that join (a tenth of object
detection's libcst work). Their text is the source's own: this module cuts the source
at the statements' boundaries, which libcst does not record. A statement's own syntax
starts on the line the stdlib ``ast`` gives (its first decorator's, for a decorated
definition); before it come the blank and comment lines libcst gives it as
``leading_lines``; it ends where the next statement's start, or the module's footer,
begins.

Every boundary is checked against the text before any is used: the statements'
count, each one's leading lines being blank or comments and its own first line code
(``@`` for a decorated one), nothing but the next statement after a simple statement's
last line, nothing but blank and comment lines after a compound statement's, and the
module's header and footer libcst's own. Where one does not hold (a statement that
starts mid-line after ``;\\``, a decorator's name lines below its ``@``), no text is cut
and the engine generates every statement as before.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Sequence

import libcst as cst

from slimport.analysis.lines import code_of_nodes
from slimport.engine.skeleton import first_line, source_lines

# What may come before a comment, or make a line blank: Python's whitespace.
_BLANK = " \t\x0c"


def _blank_or_comment(line: str) -> bool:
    stripped = line.lstrip(_BLANK).rstrip("\r\n")
    return not stripped or stripped.startswith("#")


class StatementTexts:
    """The texts of one module's top-level statements, and the line each starts on.

    Attributes:
      texts: each statement's text, in ``module.body``'s order.
      starts: the 1-based line each starts on (its leading lines included).
    """

    def __init__(self, texts: List[str], starts: List[int]) -> None:
        self.texts, self.starts = texts, starts


def cut(module: cst.Module, text: str, tree: ast.Module) -> Optional[StatementTexts]:
    """The text of each top-level statement of ``module``, cut from ``text``.

    Args:
      module: libcst's parse of ``text``.
      text: the source.
      tree: the stdlib ``ast`` of ``text``.

    Returns:
      The texts, or None where a boundary cannot be made sure of (see the module).
    """
    # (A byte order mark is not the first statement's text.)
    if not module.has_trailing_newline or not module.body or text.startswith("\ufeff"):
        return None
    lines = source_lines(text)
    # The ast statements of each libcst statement (``a; b`` are one), by their first line.
    by_line: Dict[int, List[ast.stmt]] = {}
    for statement in tree.body:
        by_line.setdefault(first_line(statement), []).append(statement)
    if len(by_line) != len(module.body):
        return None
    owns = sorted(by_line)
    starts = [own - len(statement.leading_lines) for own, statement in zip(owns, module.body)]
    ends = [*starts[1:], len(lines) - len(module.footer) + 1]  # the line after each
    if starts[0] != len(module.header) + 1 or not _libcsts_own(module, lines):
        return None
    for own, start, end, statement in zip(owns, starts, ends, module.body):
        if not start <= own < end or not all(
                map(_blank_or_comment, lines[start - 1:own - 1])):
            return None
        head = lines[own - 1]
        if _blank_or_comment(head) or (getattr(statement, "decorators", ())
                                       and not head.startswith("@")):
            return None
        last = max(part.end_lineno or 0 for part in by_line[own])
        after = lines[last:end - 1]
        if isinstance(statement, cst.SimpleStatementLine) and after:
            return None
        if not last < end or not all(map(_blank_or_comment, after)):
            return None
    return StatementTexts(["".join(lines[start - 1:end - 1]) for start, end in zip(starts, ends)],
                          starts)


def _libcsts_own(module: cst.Module, lines: Sequence[str]) -> bool:
    """Whether the header and footer are the first and last lines of the text, as libcst
    generates them."""
    footer = len(module.footer)
    return (code_of_nodes(module, module.header)[0] == "".join(lines[:len(module.header)])
            and code_of_nodes(module, module.footer)[0] ==
            "".join(lines[len(lines) - footer:] if footer else []))
