"""``slimport rewrite --diff``: unified diffs of the ported files, coloured on a terminal."""
from __future__ import annotations

import difflib
import os
from typing import TextIO


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
