"""Per-file results of a rewrite: what happened to each path, and the totals.

The engine produces one ``FileResult`` per Python file it looked at (plus one per
path it skipped or could not copy). The ways to show them are
``slimport.output.json_report`` (``--report FILE.json``), ``slimport.output.summary``
(the terminal summary), ``slimport.output.diffs`` (``--diff``) and
``slimport.output.progress`` (the progress line).

A finding's line is its line in the file the user goes on to edit: the ported file
when one was written (in place, or the ``--out`` copy), else the source.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from slimport.analysis.findings import ATTENTION, EDIT, WARNING, Finding
from slimport.output.diffs import Hunk

CHANGED = "changed"
UNCHANGED = "unchanged"
FAILED = "failed"
SKIPPED = "skipped"
STATUSES = (CHANGED, UNCHANGED, FAILED, SKIPPED)


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
    # The import roots besides its own whose code the tree facts of its port were read
    # from (``slimport.engine.scoped_facts``): what it imports of the rest of the tree.
    facts_from: List[str] = field(default_factory=list)
    # Filled only when a diff was asked for.
    diff: str = ""
    # Filled only for the HTML report (``PortSettings.review``): the changes and the
    # findings' source lines with context (``slimport.output.diffs.review_hunks``).
    # None: no hunks were kept (not ported, or replaced whole by generated code).
    review: Optional[Tuple[Hunk, ...]] = None

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

    def source_line(self, index: int) -> int:
        """Finding ``index``'s line in the source ``path``."""
        if index < len(self.source_lines):
            return self.source_lines[index]
        return self.findings[index].line

    def as_dict(self) -> dict:
        findings = []
        for index, finding in enumerate(self.findings):
            entry = finding.as_dict()
            findings.append({"codemod": entry.pop("codemod"), "line": entry.pop("line"),
                             "source_line": self.source_line(index), **entry})
        return {
            "path": self.path,
            "output": self.output,
            "status": self.status,
            "codemods": list(self.codemods),
            "edits": self.edits,
            "findings": findings,
            "error": self.error,
            "error_line": self.error_line,
            "facts_from": list(self.facts_from),
        }

    @property
    def where(self) -> str:
        """``path:line`` of a failure when its line is known, else ``path``."""
        return f"{self.path}:{self.error_line}" if self.error_line else self.path


@dataclass(frozen=True)
class TreeFinding:
    """One finding about many files with one cause and one fix (a tool the run lacks):
    shown once for the tree, with its files, not once per file."""

    finding: Finding
    paths: Tuple[str, ...]

    def as_dict(self) -> dict:
        entry = self.finding.as_dict()
        del entry["line"]  # about whole files
        return {**entry, "paths": list(self.paths)}


def summarize(results: Sequence[FileResult], copied: int = 0,
              tree_findings: Sequence[TreeFinding] = ()) -> Dict[str, int]:
    """Totals over ``results``: counts per status, copied files, edits, attention items
    (each tree finding counts once)."""
    counts = {status: 0 for status in STATUSES}
    for result in results:
        counts[result.status] += 1
    return {
        "files": len(results),
        **counts,
        "copied": copied,
        "edits": sum(result.edits for result in results),
        "attention": sum(len(result.attention) for result in results) + len(tree_findings),
    }
