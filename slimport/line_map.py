"""Which line of one version of a text a line of another version is.

Codemods add and remove lines (an import here, a statement at the top of ``main``
there), so the line a finding was reported on in the text one codemod saw is
neither its line in the user's file nor its line in the output. A ``LineMap``
relates two versions of a text both ways; the engine chains them over the edits of
a file to name a finding's line in the source and in the ported file.

Line 0 means "unknown" everywhere and maps to 0.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from slimport.skeleton import source_lines

Opcode = Tuple[str, int, int, int, int]


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


def between(before: str, after: str) -> LineMap:
    """The LineMap from ``before`` to ``after`` (lines as Python counts them)."""
    old, new = source_lines(before), source_lines(after)
    backward: List[int] = []
    forward: List[int] = []
    last_old, last_new = max(len(old), 1), max(len(new), 1)
    opcodes = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
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
