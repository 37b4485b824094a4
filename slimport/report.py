"""Per-file results of a rewrite, and the ways to show them.

The engine produces one ``FileResult`` per Python file it looked at (plus one per
path it skipped or could not copy); this module turns a list of them into

- a terminal summary (``summary_text``): changed files, every item needing a human as
  ``path:line: message \u2014 fix: ...``, skipped paths, failures as
  ``path:line: reason``, and totals; more or less of it with ``-v`` / ``-q``;
- a unified diff (``unified_diff``, coloured by ``colored_diff``) for ``--diff``;
- a JSON document (``to_json`` / ``write_json``) for ``--report FILE.json``;
- a progress line (``Progress``) on a terminal.

A finding's line is its line in the file the user goes on to edit: the ported file
when one was written (in place, or the ``--out`` copy), else the source.

JSON schema (``version`` 2)::

    {
      "version": 2,                       # schema version of this document
      "slimport_version": "0.1.0",
      "mode": "in-place" | "out" | "diff" | "check",
      "summary": {
        "files": int,                     # paths reported (all statuses)
        "changed": int, "unchanged": int, "failed": int, "skipped": int,
        "copied": int,                    # non-Python files copied by --out
        "edits": int,                     # findings of kind "edit", all files
        "attention": int                  # findings of kind "attention"/"warning"
      },
      "warnings": [str],                  # about the run as a whole (e.g. --map)
      "files": [
        {
          "path": str,                    # the source path as given/walked
          "output": str | null,           # where the result went (null: nothing written)
          "status": "changed" | "unchanged" | "failed" | "skipped",
          "codemods": [str],              # codemods that recorded an edit, in run order
          "edits": int,
          "findings": [
            {"codemod": str, "line": int, "source_line": int, "message": str,
             "fix": str, "kind": "edit" | "attention" | "warning"}
          ],
          "error": str | null,            # why it failed or was skipped
          "error_line": int | null        # line of a parse failure, when known
        }
      ]
    }

``line`` is the finding's line in ``output`` when that is not null, else in
``path``; ``source_line`` its line in ``path``. 0 means the codemod could not pin
the finding to a line. Version 1 had no ``warnings`` and no ``source_line``, and
its ``line`` was always a line of ``path``.
"""
from __future__ import annotations

import difflib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, TextIO, Tuple

from slimport import __version__
from slimport.codemods._findings import ATTENTION, EDIT, Finding

REPORT_SCHEMA_VERSION = 2

CHANGED = "changed"
UNCHANGED = "unchanged"
FAILED = "failed"
SKIPPED = "skipped"
STATUSES = (CHANGED, UNCHANGED, FAILED, SKIPPED)

# A libcst ``context.warnings`` entry that did not come from ``needs_attention``.
WARNING = "warning"

# Verbosity of the summary: -q, default, -v.
QUIET, NORMAL, VERBOSE = -1, 0, 1


@dataclass
class FileResult:
    """What happened to one path."""

    path: str
    status: str
    output: Optional[str] = None
    codemods: List[str] = field(default_factory=list)
    # Each finding's line is in the file ``shown`` (see the module docstring).
    findings: List[Finding] = field(default_factory=list)
    # For each finding, its line in the source ``path``.
    source_lines: List[int] = field(default_factory=list)
    error: Optional[str] = None
    error_line: Optional[int] = None
    # Filled only when a diff was asked for.
    diff: str = ""

    @property
    def edits(self) -> int:
        return sum(1 for finding in self.findings if finding.kind == EDIT)

    @property
    def attention(self) -> List[Finding]:
        return [f for f in self.findings if f.kind in (ATTENTION, WARNING)]

    @property
    def shown(self) -> str:
        """The file the user goes on to edit: the one written, else the source."""
        return self.output or self.path

    def as_dict(self) -> dict:
        findings = []
        for index, finding in enumerate(self.findings):
            entry = finding.as_dict()
            source_line = self.source_lines[index] if index < len(self.source_lines) \
                else finding.line
            findings.append({"codemod": entry.pop("codemod"), "line": entry.pop("line"),
                             "source_line": source_line, **entry})
        return {
            "path": self.path,
            "output": self.output,
            "status": self.status,
            "codemods": list(self.codemods),
            "edits": self.edits,
            "findings": findings,
            "error": self.error,
            "error_line": self.error_line,
        }

    @property
    def where(self) -> str:
        """``path:line`` of a failure when its line is known, else ``path``."""
        return f"{self.path}:{self.error_line}" if self.error_line else self.path


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

    auto: only on a terminal, and not when the NO_COLOR environment variable is
    set to anything (https://no-color.org) or TERM is ``dumb``.
    """
    if when != "auto":
        return when == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def summarize(results: Sequence[FileResult], copied: int = 0) -> Dict[str, int]:
    """Totals over ``results``: counts per status, copied files, edits, attention items."""
    counts = {status: 0 for status in STATUSES}
    for result in results:
        counts[result.status] += 1
    return {
        "files": len(results),
        **counts,
        "copied": copied,
        "edits": sum(result.edits for result in results),
        "attention": sum(len(result.attention) for result in results),
    }


def to_json(results: Sequence[FileResult], mode: str, copied: int = 0,
            warnings: Sequence[str] = ()) -> dict:
    """The ``--report`` document (schema in this module's docstring)."""
    return {
        "version": REPORT_SCHEMA_VERSION,
        "slimport_version": __version__,
        "mode": mode,
        "summary": summarize(results, copied),
        "warnings": list(warnings),
        "files": [result.as_dict() for result in results],
    }


def write_json(path: Path, results: Sequence[FileResult], mode: str, copied: int = 0,
               warnings: Sequence[str] = ()) -> None:
    """Write the ``--report`` document to ``path`` (UTF-8, indented, trailing newline)."""
    document = to_json(results, mode, copied, warnings)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def count(number: int, singular: str, plural: str = "") -> str:
    """``1 file``, ``2 files``, ``1 needs attention``, ``3 need attention``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def _attention_line(result: FileResult, finding: Finding) -> str:
    where = f"{result.shown}:{finding.line}" if finding.line else result.shown
    text = f"{where}: [{finding.codemod}] {finding.message}"
    if finding.fix:
        text += f" \u2014 fix: {finding.fix}"
    return text


def _section(title: str, lines: List[str], number: Optional[int] = None) -> str:
    """``title (number):`` and the lines below it; ``number`` defaults to the lines'."""
    heading = f"{title} ({len(lines) if number is None else number}):"
    return "\n".join([heading, *(f"  {line}" for line in lines)])


def summary_text(results: Sequence[FileResult], mode: str, copied: int = 0, *,
                 verbosity: int = NORMAL, warnings: Sequence[str] = (),
                 left_out: Sequence[Tuple[str, str]] = ()) -> str:
    """The human summary printed at the end of a run.

    Args:
      results: every FileResult of the run.
      mode: "in-place", "out", "diff" or "check"; decides the verbs ("would change").
      copied: non-Python files copied by --out.
      verbosity: QUIET shows failures only; VERBOSE adds every edit, the unchanged
        files and ``left_out``.
      warnings: about the run as a whole.
      left_out: (path, why) of paths not walked that need no attention (``.git``,
        ``--exclude`` matches).

    Returns:
      Sections for changed files, items needing attention, skipped paths, failures
      and warnings (each only when non-empty), then one totals line; '' when quiet
      and nothing failed.
    """
    dry = mode in ("diff", "check")
    failed = [f"{r.where}: {r.error}" for r in results if r.status == FAILED]
    if verbosity <= QUIET:
        return _section("Failed, left untouched", failed) + "\n" if failed else ""
    sections: List[str] = []
    changed = [r for r in results if r.status == CHANGED]
    if changed:
        lines = []
        for result in changed:
            codemods = ", ".join(result.codemods) or "no codemod recorded an edit"
            lines.append(f"{result.shown}  ({count(result.edits, 'edit')}: {codemods})")
            if verbosity >= VERBOSE:
                lines += [f"    line {f.line}: [{f.codemod}] {f.message}"
                          for f in result.findings if f.kind == EDIT]
        sections.append(_section("Would change" if dry else "Changed", lines, len(changed)))
    attention = [_attention_line(r, f) for r in results for f in r.attention]
    if attention:
        sections.append(_section("Needs attention", attention))
    if verbosity >= VERBOSE:
        unchanged = [r.path for r in results if r.status == UNCHANGED]
        if unchanged:
            sections.append(_section("Unchanged", unchanged))
        if left_out:
            sections.append(_section("Left out", [f"{path}: {why}" for path, why in left_out]))
    skipped = [f"{r.path}: {r.error}" for r in results if r.status == SKIPPED]
    if skipped:
        sections.append(_section("Skipped", skipped))
    if failed:
        sections.append(_section("Failed, left untouched", failed))
    if warnings:
        sections.append(_section("Warnings", list(warnings)))

    totals = summarize(results, copied)
    verb = "would change" if dry else "changed"
    line = (f"{count(totals[CHANGED], 'file')} {verb}, {totals[UNCHANGED]} unchanged, "
            f"{totals[FAILED]} failed, {totals[SKIPPED]} skipped; "
            f"{count(totals['edits'], 'edit')}, "
            f"{count(totals['attention'], 'needs', 'need')} attention")
    if copied:
        line += f"; {count(copied, 'other file')} copied"
    sections.append(line)
    return "\n\n".join(sections) + "\n"


def _columns(stream: TextIO) -> int:
    """The terminal's width: $COLUMNS if set, else the terminal's own, else 80."""
    try:
        return max(int(os.environ["COLUMNS"]), 1)
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 80


class Progress:
    """A single updating ``[n/N] path`` line on a terminal; silent otherwise.

    Shown only when the stream is a terminal and there are more than ``threshold``
    files, so piped output and small runs stay clean. The line never wraps: a path
    too long for the terminal is cut at the front.
    """

    def __init__(self, total: int, stream: TextIO = sys.stderr, threshold: int = 5,
                 enabled: bool = True) -> None:
        self._total = total
        self._stream = stream
        self._done = 0
        self._width = 0
        isatty = getattr(stream, "isatty", None)
        self.enabled = enabled and bool(isatty and isatty()) and total > threshold
        # One column spare: writing the last one makes some terminals wrap.
        self._room = _columns(stream) - 1 if self.enabled else 0

    def advance(self, path: str) -> None:
        """Count one more file done and redraw the line."""
        self._done += 1
        if not self.enabled:
            return
        head = f"[{self._done}/{self._total}] "
        room = self._room - len(head)
        if len(path) > room:
            path = "..." + path[len(path) - room + 3:] if room > 3 else ""
        text = (head + path)[:self._room]
        padding = " " * max(0, self._width - len(text))
        self._width = len(text)
        self._stream.write("\r" + text + padding)
        self._stream.flush()

    def close(self) -> None:
        """Erase the progress line so the summary starts on a clean line."""
        if self.enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
