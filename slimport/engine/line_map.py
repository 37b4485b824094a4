"""Which line of one version of a text a line of another version is.

Codemods add and remove lines (an import here, a statement at the top of ``main``
there), so the line a finding was reported on in the text one codemod saw is
neither its line in the user's file nor its line in the output. A ``LineMap``
relates two versions of a text both ways; the engine chains them over the edits of
a file to name a finding's line in the source and in the ported file.

The lines are related by a line diff. difflib's ``SequenceMatcher`` alone is
quadratic on a big file with edits all over it (each search for the longest
matching stretch walks every occurrence of every blank line), so ``line_opcodes``
gives it a text of up to ``DIFFLIB_LINES`` lines whole and narrows a longer one
first: lines equal at both ends, then lines that occur exactly once in each text
(an unchanged ``def`` line, a docstring, a call) paired in order, as ``git diff
--patience`` does, and difflib over the stretches between those pairs. Line 0 means
"unknown" everywhere and maps to 0.
"""
from __future__ import annotations

import bisect
import difflib
from collections import Counter
from dataclasses import dataclass
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

from slimport.engine.skeleton import source_lines

Opcode = Tuple[str, int, int, int, int]
# (i, j, size): old[i:i + size] == new[j:j + size].
Block = Tuple[int, int, int]
# Stretches up to this many lines on each side go to difflib whole: its opcodes, as
# for every file before, at a cost that stays small.
DIFFLIB_LINES = 1000


@dataclass(frozen=True)
class LineMap:
    """Lines of an ``old`` text and a ``new`` one, related both ways (1-based)."""

    # For each line of the new text, the old line it comes from. An inserted or
    # rewritten line maps to the start of the stretch it replaced: where a reader
    # of the old text should look.
    backward: Sequence[int]
    # For each line of the old text, the new line it went to. A rewritten line maps
    # to its counterpart in the rewritten stretch, a deleted one to the line after.
    forward: Sequence[int]
    # difflib's opcodes from the old lines to the new ones (0-based), for realign.
    opcodes: Sequence[Opcode] = ()

    def old_line(self, line: int) -> int:
        return _look_up(self.backward, line)

    def new_line(self, line: int) -> int:
        return _look_up(self.forward, line)


def _look_up(table: Sequence[int], line: int) -> int:
    if line <= 0 or not table:
        return line
    return table[min(line, len(table)) - 1]


def _unique_pairs(old: Sequence[str], new: Sequence[str], alo: int, ahi: int, blo: int,
                  bhi: int) -> List[Tuple[int, int]]:
    """The longest in-order chain of lines that occur once in ``old[alo:ahi]`` and once
    in ``new[blo:bhi]``, as (i, j) pairs (patience sorting: n log n)."""
    in_old = Counter(old[alo:ahi])
    in_new = Counter(new[blo:bhi])
    where_new = {new[j]: j for j in range(blo, bhi) if in_new[new[j]] == 1}
    pairs = [(i, where_new[old[i]]) for i in range(alo, ahi)
             if in_old[old[i]] == 1 and old[i] in where_new]
    # Longest increasing run of j over pairs in i order: tops[k] is the smallest j
    # that ends a chain of k + 1 pairs; back links rebuild the chain.
    tops: List[int] = []
    ends: List[int] = []
    previous: List[int] = []
    for index, (_, j) in enumerate(pairs):
        depth = bisect.bisect_left(tops, j)
        if depth == len(tops):
            tops.append(j)
            ends.append(index)
        else:
            tops[depth], ends[depth] = j, index
        previous.append(ends[depth - 1] if depth else -1)
    chain: List[Tuple[int, int]] = []
    index = ends[-1] if ends else -1
    while index >= 0:
        chain.append(pairs[index])
        index = previous[index]
    return chain[::-1]


class _Stretch(NamedTuple):
    """``old[alo:ahi]`` against ``new[blo:bhi]``, still to be matched."""

    alo: int
    ahi: int
    blo: int
    bhi: int


def _difflib_blocks(old: Sequence[str], new: Sequence[str], part: _Stretch) -> List[Block]:
    matcher = difflib.SequenceMatcher(None, old[part.alo:part.ahi], new[part.blo:part.bhi],
                                      autojunk=False)
    return [(part.alo + i, part.blo + j, size)
            for i, j, size in matcher.get_matching_blocks() if size]


def _split(old: Sequence[str], new: Sequence[str], part: _Stretch
           ) -> List[Union[Block, _Stretch]]:
    """A long stretch as the blocks and shorter stretches it is made of, in order: lines
    equal at both ends, then lines that occur once on each side."""
    alo, ahi, blo, bhi = part
    head = 0
    while alo + head < ahi and blo + head < bhi and old[alo + head] == new[blo + head]:
        head += 1
    tail = 0
    while alo + head < ahi - tail and blo + head < bhi - tail \
            and old[ahi - tail - 1] == new[bhi - tail - 1]:
        tail += 1
    parts: List[Union[Block, _Stretch]] = [(alo, blo, head)] if head else []
    middle = _Stretch(alo + head, ahi - tail, blo + head, bhi - tail)
    if middle.alo < middle.ahi and middle.blo < middle.bhi:
        pairs = _unique_pairs(old, new, *middle)
        if not pairs:
            parts += _difflib_blocks(old, new, middle)
        else:
            i0, j0 = middle.alo, middle.blo
            for i, j in pairs:
                parts += [_Stretch(i0, i, j0, j), (i, j, 1)]
                i0, j0 = i + 1, j + 1
            parts.append(_Stretch(i0, middle.ahi, j0, middle.bhi))
    if tail:
        parts.append((ahi - tail, bhi - tail, tail))
    return parts


def _matching_blocks(old: Sequence[str], new: Sequence[str]) -> List[Block]:
    """The matching blocks of ``old`` and ``new``, in order (see the module docstring)."""
    blocks: List[Block] = []
    # What is left to place, the next part last.
    pending: List[Union[Block, _Stretch]] = [_Stretch(0, len(old), 0, len(new))]
    while pending:
        part = pending.pop()
        if not isinstance(part, _Stretch):
            blocks.append(part)
        elif part.alo == part.ahi or part.blo == part.bhi:
            continue
        elif part.ahi - part.alo <= DIFFLIB_LINES and part.bhi - part.blo <= DIFFLIB_LINES:
            blocks += _difflib_blocks(old, new, part)
        else:
            pending += reversed(_split(old, new, part))
    return blocks


def line_opcodes(old: Sequence[str], new: Sequence[str]) -> List[Opcode]:
    """difflib-style opcodes from the lines ``old`` to the lines ``new`` (0-based).

    Args:
      old: the lines before.
      new: the lines after.

    Returns:
      ``(tag, i1, i2, j1, j2)`` tuples as ``SequenceMatcher.get_opcodes`` gives them
      ("equal", "replace", "delete", "insert"), covering both sequences in order.
    """
    opcodes: List[Opcode] = []
    i = j = 0
    for start_old, start_new, size in [*_matching_blocks(old, new), (len(old), len(new), 0)]:
        if i < start_old and j < start_new:
            opcodes.append(("replace", i, start_old, j, start_new))
        elif i < start_old:
            opcodes.append(("delete", i, start_old, j, j))
        elif j < start_new:
            opcodes.append(("insert", i, i, j, start_new))
        if size:
            if opcodes and opcodes[-1][0] == "equal":
                opcodes[-1] = ("equal", opcodes[-1][1], start_old + size,
                               opcodes[-1][3], start_new + size)
            else:
                opcodes.append(("equal", start_old, start_old + size, start_new,
                                start_new + size))
        i, j = start_old + size, start_new + size
    return opcodes


def between(before: str, after: str) -> LineMap:
    """The LineMap from ``before`` to ``after`` (lines as Python counts them)."""
    old, new = source_lines(before), source_lines(after)
    backward: List[int] = []
    forward: List[int] = []
    last_old, last_new = max(len(old), 1), max(len(new), 1)
    opcodes = line_opcodes(old, new)
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            backward += range(i1 + 1, i2 + 1)
            forward += range(j1 + 1, j2 + 1)
            continue
        backward += [min(i1 + 1, last_old)] * (j2 - j1)
        forward += [min(j1 + 1 + min(offset, max(j2 - j1 - 1, 0)), last_new)
                    for offset in range(i2 - i1)]
    return LineMap(backward, forward, opcodes)


class History:
    """The LineMaps of successive edits of one text, oldest first."""

    def __init__(self) -> None:
        self.steps: List[LineMap] = []

    def add(self, before: str, after: str) -> None:
        """Record the edit that turned ``before`` (the newest text so far) into ``after``."""
        self.steps.append(between(before, after))

    def oldest_line(self, line: int, upto: Optional[int] = None) -> int:
        """``line`` of the text after ``steps[:upto]`` (default: all) -> line of the first text."""
        for step in reversed(self.steps[:upto]):
            line = step.old_line(line)
        return line
