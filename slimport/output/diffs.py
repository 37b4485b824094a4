"""``slimport rewrite --diff``: unified diffs of the ported files, coloured on a terminal;
and the hunks the HTML report shows (``review_hunks``)."""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from typing import Collection, List, TextIO, Tuple


def unified_diff(before: str, after: str, path: str) -> str:
    """A ``git diff``-style unified diff of one file's text, '' when equal.

    Args:
      before: the original text.
      after: the ported text.
      path: the name shown in the ``---``/``+++`` headers.

    Returns:
      The diff, every line ending in a newline (a missing final newline is marked
      the way ``diff`` does, so the diff applies with ``patch``/``git apply``).
    """
    if before == after:
        return ""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{path}",
        tofile=f"b/{path}",
    )
    out = []
    for line in lines:
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


# ANSI SGR codes, as git colours a diff: headers bold, hunks cyan, - red, + green.
_DIFF_COLORS = (("+++", "1"), ("---", "1"), ("@@", "36"), ("+", "32"), ("-", "31"))


def colored_diff(diff: str) -> str:
    """``diff`` with git's colours; line endings and text otherwise unchanged."""
    out = []
    for line in diff.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        code = next((code for prefix, code in _DIFF_COLORS if body.startswith(prefix)), None)
        out.append(f"\x1b[{code}m{body}\x1b[0m{line[len(body):]}" if code else line)
    return "".join(out)


def use_color(stream: TextIO, when: str) -> bool:
    """Whether to colour output to ``stream``: ``when`` is always, never or auto.

    ``--color always`` / ``never`` decide. With auto, the first that applies: a
    non-empty NO_COLOR turns colour off (https://no-color.org), a non-empty
    FORCE_COLOR turns it on, also when piped (https://force-color.org), TERM=dumb
    turns it off, and otherwise it is on for a terminal only. NO_COLOR before
    FORCE_COLOR is CPython's own order (3.13's coloured tracebacks); the command line
    before both is what no-color.org asks.
    """
    if when != "auto":
        return when == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


# The line endings Python's tokenizer knows (str.splitlines also splits at form feeds
# and other separators, which would put the findings' line numbers off).
_LINE_END = re.compile(r"\r\n|\r|\n")
# Lines shown around each change and each finding's line in a review hunk.
REVIEW_CONTEXT = 3
# A review hunk's line tags, as in a unified diff.
KEPT, REMOVED, ADDED = " ", "-", "+"


@dataclass(frozen=True)
class Hunk:
    """A stretch of a file's diff: where it starts on each side, and its lines.

    Attributes:
      old_start: the 1-based line of the original where it starts (the line before it
        when it removes or keeps no line, as in a unified diff's header).
      new_start: the same in the ported text.
      lines: (KEPT, REMOVED or ADDED, the line's text without its line ending).
    """

    old_start: int
    new_start: int
    lines: Tuple[Tuple[str, str], ...]

    @property
    def old_count(self) -> int:
        return sum(1 for tag, _ in self.lines if tag != ADDED)

    @property
    def new_count(self) -> int:
        return sum(1 for tag, _ in self.lines if tag != REMOVED)


def source_lines(text: str) -> List[str]:
    """``text``'s lines without their endings, split where Python's tokenizer splits.

    Args:
      text: a source file's text.

    Returns:
      Line ``n`` (1-based) of the file is item ``n - 1``.
    """
    lines = _LINE_END.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def review_hunks(before: str, after: str, marked: Collection[int],
                 context: int = REVIEW_CONTEXT) -> Tuple[Hunk, ...]:
    """The hunks a person reviews: every change, and every ``marked`` line of ``before``,
    each with ``context`` unchanged lines around it.

    Args:
      before: the original text.
      after: the ported text (``before`` itself for a file that did not change).
      marked: 1-based lines of ``before`` to show even where nothing changed (the
        lines findings are on).
      context: unchanged lines shown on each side of a change or a marked line.

    Returns:
      The hunks in order; () when nothing changed and no line is marked.
    """
    old, new = source_lines(before), source_lines(after)
    # Every line of the merged diff: (tag, text, old lines before it, new lines before it).
    rows: List[Tuple[str, str, int, int]] = []
    wanted: List[int] = []
    # An unchanged file (only its findings' lines to show) needs no matching; a changed
    # one is matched as unified_diff matches it.
    opcodes = ([("equal", 0, len(old), 0, len(new))] if before == after
               else difflib.SequenceMatcher(None, old, new).get_opcodes())
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            for offset in range(i2 - i1):
                if i1 + offset + 1 in marked:
                    wanted.append(len(rows))
                rows.append((KEPT, old[i1 + offset], i1 + offset, j1 + offset))
            continue
        for index in range(i1, i2):
            wanted.append(len(rows))
            rows.append((REMOVED, old[index], index, j1))
        for index in range(j1, j2):
            wanted.append(len(rows))
            rows.append((ADDED, new[index], i2, index))
    hunks: List[Hunk] = []
    start = end = -1
    for row in wanted:
        if row - context > end + 1 and end >= 0:
            hunks.append(_hunk(rows[start:end + 1]))
            start = -1
        if start < 0:
            start = max(row - context, 0)
        end = min(row + context, len(rows) - 1)
    if end >= 0:
        hunks.append(_hunk(rows[start:end + 1]))
    return tuple(hunks)


def _hunk(rows: List[Tuple[str, str, int, int]]) -> Hunk:
    tag, _, old_before, new_before = rows[0]
    lines = tuple((tag, text) for tag, text, _, _ in rows)
    # A unified diff's header names the line before a hunk that has none on a side.
    old_start = old_before + (1 if any(t != ADDED for t, _ in lines) else 0)
    new_start = new_before + (1 if any(t != REMOVED for t, _ in lines) else 0)
    return Hunk(old_start, new_start, lines)
