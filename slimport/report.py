"""Per-file results of a rewrite, and the ``--report FILE.json`` document.

The engine produces one ``FileResult`` per Python file it looked at (plus one per
path it skipped or could not copy). This module defines it and turns a list of them
into the JSON document (``to_json`` / ``write_json``); the other ways to show them are
``slimport.summary`` (the terminal summary), ``slimport.diffs`` (``--diff``) and
``slimport.progress`` (the progress line).

A finding's line is its line in the file the user goes on to edit: the ported file
when one was written (in place, or the ``--out`` copy), else the source.

JSON schema (``version`` 2)::

    {
      "version": 2,                       # schema version of this document
      "slimport_version": "0.1.0",
      "mode": "in-place" | "out" | "diff" | "check" | "stdin",
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

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

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
