"""A file cut down to what its codemods need, and the way back to the whole file.

libcst is the slow part of a rewrite: parsing a 300-line file and walking every node
costs far more than the edits. A TF1 net file needs its imports edited and perhaps
three calls in one function; the other 250 lines only have to come through
unchanged. So the engine hands the codemods a *skeleton* of the file: module-level
statements as they are (imports, flag definitions, ``if __name__`` blocks: what the
codemods read), and of functions and classes only the statements some codemod says
it needs (``SlimportCodemod.statement_filter``), the blocks and definitions that hold
them, imports and alias assignments. Every run of other statements in a block becomes
one placeholder line at the same indentation::

    __slimport_elided_3__(conv, net, scope, slim, tf)

and a run of whole module-level definitions one that is still a definition::

    def __slimport_elided_4__(): __slimport_elided_4__(inputs, net, slim, tf)

The call reads every name the elided statements mention, so a codemod asking "is
``tf`` still used?" or "is the name ``flags`` taken?" gets the answer the whole file
would give (never a less careful one; a name only assigned there counts as read).
After the codemods ran, ``expand`` puts the original text back in place of each
placeholder line. A placeholder a codemod changed or dropped makes ``expand`` return
None, and the engine ports the file again over the whole file.

Statements are elided only when they own whole lines (no ``a; b`` or ``if x: y``
sharing a line with something kept), so the text outside placeholders is the file's
own lines, byte for byte; ``origins`` maps each skeleton line to its source line for
the report.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Set

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import (
    Bindings,
    is_binding_statement,
    statement_blocks,
    uses_walrus,
)

PLACEHOLDER_PREFIX = "__slimport_elided_"
PLACEHOLDER = PLACEHOLDER_PREFIX + "{}__"
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_ALWAYS_KEPT = (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)
# Python's own line breaks; str.splitlines would also split at \x0c, \x1c, \u2028, ...
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
# Those other breaks (vertical tab, form feed, file / group / record separators; NEL,
# Unicode line and paragraph separators).
_ASCII_BREAKS = "\x0b\x0c\x1c\x1d\x1e"
_OTHER_BREAKS = _ASCII_BREAKS + "\x85\u2028\u2029"

StatementFilter = Callable[[ast.stmt], bool]


def source_lines(text: str) -> List[str]:
    """``text`` split into lines the way Python counts them, line endings kept."""
    # splitlines is several times faster than the pattern; it agrees with it on a text
    # without the other breaks (the test for those is a few scans of the text).
    others = _ASCII_BREAKS if text.isascii() else _OTHER_BREAKS
    if any(other in text for other in others):
        return _LINE.findall(text)
    return text.splitlines(True)


@dataclass
class Skeleton:
    """The cut-down text, where its lines come from, and the text each placeholder hides."""

    text: str
    # For each skeleton line, the 1-based source line it is (a placeholder: the
    # first line it hides).
    origins: List[int]
    elided: Dict[str, str] = field(default_factory=dict)

    @property
    def is_whole(self) -> bool:
        return not self.elided

    def source_line(self, line: int) -> int:
        """The source line skeleton line ``line`` stands for (0 stays 0: unknown)."""
        if not self.origins or not 0 < line <= len(self.origins):
            return line
        return self.origins[line - 1]

    def expand(self, code: str) -> Optional[str]:
        """``code`` (the skeleton after a codemod) with every placeholder line restored.

        Returns:
          None if some placeholder line is not in ``code`` exactly once, as it was.
        """
        if self.is_whole:
            return code
        seen: Set[str] = set()
        out = []
        for line in source_lines(code):
            hidden = self.elided.get(line)
            if hidden is None:
                out.append(line)
            elif line in seen:
                return None
            else:
                seen.add(line)
                out.append(hidden)
        return "".join(out) if len(seen) == len(self.elided) else None


def first_line(statement: ast.stmt) -> int:
    """The line a statement's own syntax starts on: its first decorator's, if it has any.

    Args:
      statement: a stdlib ``ast`` statement.

    Returns:
      The 1-based line.
    """
    decorators = getattr(statement, "decorator_list", None)
    return min([statement.lineno, *(d.lineno for d in decorators)]) if decorators else \
        statement.lineno


@dataclass
class _ElidedRun:
    """Statements of one block to elide: lines ``first``-``last`` (1-based, inclusive)."""

    first: int
    last: int
    statements: List[ast.stmt]
    # Module-level definitions: the placeholder is a ``def``, so that code looking for
    # the first definition of the module (compat_v1's disable_v2_behavior() goes
    # before it) finds it where it was.
    definitions: bool


class _Builder:
    def __init__(self, lines: List[str], bindings: Bindings, needed: StatementFilter,
                 walrus: bool) -> None:
        self.lines = lines
        self.walrus = walrus
        self.encoded: Dict[int, bytes] = {}
        self.bindings = bindings
        self.needed = needed
        self.runs: List[_ElidedRun] = []

    def _bytes(self, number: int) -> bytes:
        # ast columns are UTF-8 byte offsets.
        if number not in self.encoded:
            self.encoded[number] = self.lines[number - 1].encode("utf-8")
        return self.encoded[number]

    def owns_its_lines(self, statement: ast.stmt) -> bool:
        """True if nothing but whitespace and a comment shares its first and last lines."""
        first = first_line(statement)
        if first != statement.lineno:  # decorated: the line starts with '@'
            head_ok = self.lines[first - 1].lstrip().startswith("@")
        else:
            head_ok = not self._bytes(first)[:statement.col_offset].strip()
        if not head_ok or statement.end_lineno is None or statement.end_col_offset is None:
            return False
        rest = self._bytes(statement.end_lineno)[statement.end_col_offset:].strip()
        return not rest or rest.startswith(b"#")

    def block(self, body: Sequence[ast.stmt], module_level: bool = False) -> bool:
        """Mark the runs to elide in ``body``; True if anything in it is kept.

        At module level only function and class definitions may be elided: the rest
        is what the codemods read (imports, flags, ``if __name__`` blocks), and a
        run of definitions becomes a placeholder that is itself a definition.
        """
        run: List[ast.stmt] = []
        any_kept = False
        for statement in body:
            if (module_level and not isinstance(statement, _DEFINITIONS)) \
                    or self.kept(statement):
                any_kept = True
                self._close(run, module_level)
                run = []
            else:
                run.append(statement)
        self._close(run, module_level)
        return any_kept

    def kept(self, statement: ast.stmt) -> bool:
        marked = len(self.runs)
        inner = [self.block(block) for block in statement_blocks(statement)]
        # A statement that keeps something inside it is kept whatever its own parts are:
        # they are not asked about (the filters of a compound statement read its whole
        # body again, once per level of nesting).
        if any(inner) or (
            isinstance(statement, _ALWAYS_KEPT)
            or is_binding_statement(statement, self.bindings, self.walrus)
            or not self.owns_its_lines(statement)
            or self.needed(statement)
        ):
            return True
        del self.runs[marked:]  # elided whole: nothing inside it is elided on its own
        return False

    def _close(self, run: List[ast.stmt], definitions: bool) -> None:
        if not run:
            return
        last = run[-1].end_lineno or 0
        if definitions:
            last = self._trailing_comments(first_line(run[0]), last)
        self.runs.append(_ElidedRun(first_line(run[0]), last, run, definitions))

    def _trailing_comments(self, first: int, last: int) -> int:
        """``last``, moved past the comment lines indented under the definitions.

        They belong to the last definition's body. Left after its one-line placeholder
        (``def __slimport_elided_0__(): ...`` then ``    # a``) they would meet a
        libcst bug that drops the first of them at the end of a file; inside the
        placeholder's text they come back unchanged.
        """
        head = self.lines[first - 1]
        indent = len(head) - len(head.lstrip(" \t\f"))
        end = last
        for number in range(last + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            stripped = line.lstrip(" \t\f")
            if not stripped.strip():
                continue
            if not stripped.startswith("#") or len(line) - len(stripped) <= indent:
                break
            end = number
        return end


def _mentioned_names(statements: Sequence[ast.stmt]) -> List[str]:
    names: Set[str] = set()
    for statement in statements:
        names.update(node.id for node in nodes_of(statement, (ast.Name,)))  # type: ignore[attr-defined]
        names.update(node.arg for node in nodes_of(statement, (ast.arg,)))  # type: ignore[attr-defined]
        names.update(node.name for node in nodes_of(statement, _DEFINITIONS))  # type: ignore[attr-defined]
        names.update(node.name for node in nodes_of(statement, (ast.ExceptHandler,))  # type: ignore[attr-defined]
                     if node.name)  # type: ignore[attr-defined]
    return sorted(names)


def build(text: str, tree: ast.Module, bindings: Bindings,
          needed: StatementFilter) -> Skeleton:
    """The skeleton of ``text`` (parsed as ``tree``) for a codemod that needs ``needed``.

    Args:
      text: the source.
      tree: ``ast.parse(text)``.
      bindings: ``collect_bindings(tree)``; alias assignments are always kept.
      needed: True for a statement (a definition at module level, anything inside
        one) the codemods may edit or read; for a compound statement, judged on its
        own parts (``if`` test, ``with`` items, decorators, handler types), not its
        body, and True keeps the header, not the body.
    """
    lines = source_lines(text)
    builder = _Builder(lines, bindings, needed, uses_walrus(tree))
    builder.block(tree.body, module_level=True)
    if not builder.runs:
        return Skeleton(text, list(range(1, len(lines) + 1)))
    out: List[str] = []
    origins: List[int] = []
    elided: Dict[str, str] = {}
    line = 1
    # Inner blocks close their runs before the block around them does.
    for number, run in enumerate(sorted(builder.runs, key=lambda run: run.first)):
        out.extend(lines[line - 1:run.first - 1])
        origins.extend(range(line, run.first))
        head = lines[run.first - 1]
        indent = head[:len(head) - len(head.lstrip(" \t\f"))]
        ending = lines[run.last - 1][len(lines[run.last - 1].rstrip("\r\n")):]
        name = PLACEHOLDER.format(number)
        call = f"{name}({', '.join(_mentioned_names(run.statements))})"
        placeholder = f"{indent}def {name}(): {call}{ending}" if run.definitions \
            else f"{indent}{call}{ending}"
        elided[placeholder] = "".join(lines[run.first - 1:run.last])
        out.append(placeholder)
        origins.append(run.first)
        line = run.last + 1
    out.extend(lines[line - 1:])
    origins.extend(range(line, len(lines) + 1))
    return Skeleton("".join(out), origins, elided)
