"""The summary ``slimport rewrite`` prints at the end of a run.

Changed files, every item needing a human as ``path:line: message \u2014 fix: ...``,
skipped paths, failures as ``path:line: reason``, and totals; more or less of it
with ``-v`` / ``-q``. A finding's line is its line in the file the user goes on to
edit (``FileResult.shown``).
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from slimport.output.results import (
    CHANGED,
    FAILED,
    SKIPPED,
    UNCHANGED,
    FileResult,
    TreeFinding,
    summarize,
)
from slimport.analysis.findings import EDIT, Finding

# Verbosity of the summary: -q, default, -v.
QUIET, NORMAL, VERBOSE = -1, 0, 1


def count(number: int, singular: str, plural: str = "") -> str:
    """``1 file``, ``2 files``, ``1 needs attention``, ``3 need attention``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def _attention_line(where: str, finding: Finding) -> str:
    text = f"{where}: [{finding.codemod}] {finding.message}"
    if finding.fix:
        text += f" \u2014 fix: {finding.fix}"
    return text


def _file_attention(result: FileResult, finding: Finding) -> str:
    return _attention_line(f"{result.shown}:{finding.line}" if finding.line else result.shown,
                           finding)


def _tree_attention(tree_finding: TreeFinding, verbosity: int) -> str:
    """One line for the tree: its first file and how many more; with -v every file."""
    first, *more = tree_finding.paths
    line = _attention_line(f"{first} and {count(len(more), 'other file')}" if more else first,
                           tree_finding.finding)
    if verbosity >= VERBOSE and more:
        line += "".join(f"\n    {path}" for path in tree_finding.paths)
    return line


def _section(title: str, lines: List[str], number: Optional[int] = None) -> str:
    """``title (number):`` and the lines below it; ``number`` defaults to the lines'."""
    heading = f"{title} ({len(lines) if number is None else number}):"
    return "\n".join([heading, *(f"  {line}" for line in lines)])


def summary_text(results: Sequence[FileResult], mode: str, copied: int = 0, *,
                 verbosity: int = NORMAL, warnings: Sequence[str] = (),
                 left_out: Sequence[Tuple[str, str]] = (),
                 tree_findings: Sequence[TreeFinding] = ()) -> str:
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
      tree_findings: findings about many files at once, one line each (with
        VERBOSE, their files below it).

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
    attention = [*(_tree_attention(t, verbosity) for t in tree_findings),
                 *(_file_attention(r, f) for r in results for f in r.attention)]
    if attention:
        sections.append(_section("Needs attention", attention))
    if verbosity >= VERBOSE:
        unchanged = [r.path for r in results if r.status == UNCHANGED]
        if unchanged:
            sections.append(_section("Unchanged", unchanged))
        if left_out:
            sections.append(_section("Left out", [f"{path}: {why}" for path, why in left_out]))
    skipped = [f"{r.where}: {r.error}" for r in results if r.status == SKIPPED]
    if skipped:
        sections.append(_section("Skipped", skipped))
    if failed:
        sections.append(_section("Failed, left untouched", failed))
    if warnings:
        sections.append(_section("Warnings", list(warnings)))

    totals = summarize(results, copied, tree_findings)
    verb = "would change" if dry else "changed"
    line = (f"{count(totals[CHANGED], 'file')} {verb}, {totals[UNCHANGED]} unchanged, "
            f"{totals[FAILED]} failed, {totals[SKIPPED]} skipped; "
            f"{count(totals['edits'], 'edit')}, "
            f"{count(totals['attention'], 'needs', 'need')} attention")
    if copied:
        line += f"; {count(copied, 'other file')} copied"
    sections.append(line)
    return "\n\n".join(sections) + "\n"
