"""Continuation lines follow the bracket they were aligned to.

An edit that shortens or lengthens the text before an open bracket
(``tf.app.flags.DEFINE_integer(`` -> ``flags.DEFINE_integer(``) would leave the
lines that continue the call aligned to where the bracket used to be::

    flags.DEFINE_integer('batch_size', 32,
                                'Images per batch.')

``realign`` moves such lines by as much as their bracket moved, for every
codemod: it compares the source with the ported text line by line and, for each
edited stretch, tokenizes only the logical line it is part of, never the file.

A line moves only when it is unchanged by the codemods, continues a bracket opened
on an edited line (or on a line that moved), is indented with spaces, and starts
exactly at the old column of the first item after that bracket (the "visual
indent" of PEP 8). Inside an edited stretch of as many lines as it replaced, a line
the edit rewrote but left at its column moves too, when it is so aligned to a bracket
of the stretch's first line (``tf.concat(3, [x,`` / ``y])`` -> ``tf.concat([x,`` /
``y], 3)``). Hanging indents, lines inside strings and everything else stay
byte-identical; a stretch the tokenizer cannot read is left as it is, and so is
the whole file if moving lines would change what it parses to.
"""
from __future__ import annotations

import ast
import itertools
import tokenize
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from slimport.engine.line_map import Opcode, line_opcodes
from slimport.engine.skeleton import source_lines

_OPENING = "([{"
_CLOSING = {")": "(", "]": "[", "}": "{"}
# Tokens that do not count as "the first item after a bracket" or as a line's start.
_LAYOUT = (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)


@dataclass
class _Bracket:
    char: str
    row: int
    # Column of the first token after the bracket on its line; None: a hanging
    # indent (nothing but a comment follows it), which does not depend on where
    # the bracket is.
    column: Optional[int] = None
    # How far that token moved in the ported text.
    shift: int = 0


class _Unreadable(Exception):
    """The stretch is not a whole piece of Python the tokenizer can follow."""


class _Scan:
    """Open brackets along the tokens of one stretch of lines.

    ``lines[start:]`` is tokenized from ``start`` on; rows are indices into ``lines``.
    """

    def __init__(self, lines: List[str], start: int) -> None:
        self.stack: List[_Bracket] = []
        self._waiting: List[_Bracket] = []
        self._covered = start - 1  # last row a token reached
        self._tokens = self._read(lines, start)

    @staticmethod
    def _read(lines: List[str], start: int) -> Iterator[tokenize.TokenInfo]:
        rest = itertools.islice(lines, start, None)
        try:
            for token in tokenize.generate_tokens(lambda: next(rest, "")):
                yield token._replace(start=(token.start[0] - 1 + start, token.start[1]),
                                     end=(token.end[0] - 1 + start, token.end[1]))
        except (tokenize.TokenError, SyntaxError) as error:  # IndentationError included
            raise _Unreadable from error

    def tokens(self) -> Iterator[Tuple[tokenize.TokenInfo, bool]]:
        """Each token, and whether it is the first thing on its line."""
        for token in self._tokens:
            row = token.start[0]
            first_on_line = row > self._covered and token.type not in _LAYOUT
            if token.type == tokenize.ENDMARKER:
                return
            yield token, first_on_line
            if token.type not in _LAYOUT:
                self._covered = max(self._covered, token.end[0])

    def track(self, token: tokenize.TokenInfo, shift: int) -> None:
        """Update the open brackets with ``token``; ``shift``: how far its line moved."""
        row, column = token.start
        if self._waiting:
            if row == self._waiting[0].row and token.type not in _LAYOUT \
                    and token.type != tokenize.COMMENT:
                for bracket in self._waiting:
                    bracket.column = column
            self._waiting = []
        if token.type != tokenize.OP:
            return
        if token.string in _OPENING:
            bracket = _Bracket(token.string, row, shift=shift)
            self.stack.append(bracket)
            self._waiting.append(bracket)
        elif token.string in _CLOSING:
            if not self.stack or self.stack[-1].char != _CLOSING[token.string]:
                raise _Unreadable  # opened before the stretch began
            self.stack.pop()


def _open_at_end(lines: List[str], start: int, end: int) -> List[_Bracket]:
    """The brackets still open after ``lines[start:end]``, tokenized from ``start``."""
    scan = _Scan(lines, start)
    for token, _ in scan.tokens():
        if token.start[0] >= end:
            break
        scan.track(token, 0)
    return scan.stack


def _paired_shifts(old: List[_Bracket], new: List[_Bracket]) -> bool:
    """Give each old bracket the distance its first item moved; False if they differ."""
    if [bracket.char for bracket in old] != [bracket.char for bracket in new]:
        return False
    for before, after in zip(old, new):
        if before.column is not None and after.column is not None:
            before.shift = after.column - before.column
    return True


def _moves_after(old: List[str], new: List[str], chunk: Tuple[int, int, int, int],
                 equal_until: int) -> Dict[int, int]:
    """Lines of ``new`` to move (index -> columns) after one edited stretch.

    ``chunk`` is (i1, i2, j1, j2): ``old[i1:i2]`` became ``new[j1:j2]``; the lines
    ``old[i2:equal_until]`` are unchanged and may continue its last logical line.
    """
    i1, i2, j1, j2 = chunk
    ends_open = _open_at_end(new, j1, j2)
    if not ends_open:
        return {}
    moves: Dict[int, int] = {}
    scan = _Scan(old, i1)
    paired = False
    for token, first_on_line in scan.tokens():
        row = token.start[0]
        if row < i2:
            scan.track(token, 0)
            continue
        if not paired:
            if not _paired_shifts(scan.stack, ends_open):
                return {}
            paired = True
        if not scan.stack or row >= equal_until:
            break  # the logical line ended, or reaches the next edit
        shift = 0
        if first_on_line:
            shift = _shift_for(old[row], token.start[1], scan.stack[-1])
            if shift:
                moves[j2 + row - i2] = shift
        else:
            shift = moves.get(j2 + row - i2, 0)
        scan.track(token, shift)
    return moves


def _line_starts(lines: List[str], start: int, end: int
                 ) -> Dict[int, Tuple[List[_Bracket], int]]:
    """For each row of ``lines[start + 1:end]`` that a token starts: the brackets open
    there (with the column of each one's first item) and that token's column."""
    scan = _Scan(lines, start)
    starts: Dict[int, Tuple[List[_Bracket], int]] = {}
    for token, first_on_line in scan.tokens():
        row = token.start[0]
        if row >= end:
            break
        if first_on_line and row > start:
            starts[row] = (list(scan.stack), token.start[1])
        scan.track(token, 0)
    return starts


def _moves_within(old: List[str], new: List[str], chunk: Tuple[int, int, int, int]
                  ) -> Dict[int, int]:
    """Lines of ``new`` to move inside one edited stretch of as many lines as it replaced:
    a line the edit left where it was, aligned to the first item after a bracket of the
    stretch's first line, follows that item (``tf.concat(3, [x,`` -> ``tf.concat([x,``
    moves the ``y])`` under ``x`` along, though the edit rewrote that line too)."""
    i1, i2, j1, j2 = chunk
    if i2 - i1 != j2 - j1 or i2 - i1 < 2:
        return {}
    old_starts, new_starts = _line_starts(old, i1, i2), _line_starts(new, j1, j2)
    moves: Dict[int, int] = {}
    for offset in range(1, i2 - i1):
        before, after = old_starts.get(i1 + offset), new_starts.get(j1 + offset)
        if before is None or after is None or not before[0] \
                or [b.char for b in before[0]] != [b.char for b in after[0]]:
            continue
        (old_open, column), (new_open, new_column) = before, after
        was, now = old_open[-1], new_open[-1]
        if was.row != i1 or now.row != j1 or was.column != column or new_column != column \
                or now.column is None:
            continue
        shift = now.column - column
        if shift and not old[i1 + offset][:column].strip(" ") and column + shift >= 0:
            moves[j1 + offset] = shift
    return moves


def _shift_for(line: str, column: int, innermost: _Bracket) -> int:
    if not innermost.shift or innermost.column != column:
        return 0
    if line[:column].strip(" ") or column + innermost.shift < 0:
        return 0  # tabs, or text before the token: not a plain visual indent
    return innermost.shift


def realign(before: str, after: str, opcodes: Optional[Sequence[Opcode]] = None) -> str:
    """``after`` (``before`` with codemod edits) with visually indented continuation
    lines moved along with their bracket; ``after`` itself if nothing moves.

    ``opcodes``: the opcodes from the lines of ``before`` to those of ``after``
    (``line_map.line_opcodes``), when the caller has them already.
    """
    old, new = source_lines(before), source_lines(after)
    if opcodes is None:
        opcodes = line_opcodes(old, new)
    moves: Dict[int, int] = {}
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag != "replace":
            continue
        try:
            moves.update(_moves_within(old, new, (i1, i2, j1, j2)))
        except _Unreadable:
            pass
        following = opcodes[index + 1] if index + 1 < len(opcodes) else None
        if following is None or following[0] != "equal":
            continue
        try:
            moves.update(_moves_after(old, new, (i1, i2, j1, j2), following[2]))
        except _Unreadable:
            continue
    if not moves:
        return after
    for row, shift in moves.items():
        line = new[row]
        body = line.lstrip(" ")
        new[row] = " " * (len(line) - len(body) + shift) + body
    moved = "".join(new)
    return moved if _same_tree(after, moved) else after


def _same_tree(first: str, second: str) -> bool:
    try:
        return ast.dump(ast.parse(first)) == ast.dump(ast.parse(second))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
