"""What porting one file in memory gives: the ``Ported`` result (plain data, no libcst).

``slimport.engine.port`` makes it; the cache (``slimport.engine.cache``) keeps it and
gives it back without loading the codemods; ``slimport.engine.jobs`` writes and reports it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from slimport.analysis.findings import Finding


@dataclass(frozen=True)
class Ported:
    """The outcome of porting one source text in memory."""

    data: bytes
    before: str = ""
    after: str = ""
    codemods: Tuple[str, ...] = ()
    # Each finding's ``line`` is its line in the input.
    findings: Tuple[Finding, ...] = ()
    # For each finding, its line in ``data`` (the ported text; 0: unknown).
    output_lines: Tuple[int, ...] = ()
    error: Optional[str] = None
    error_line: Optional[int] = None
    # Why the file was not ported although a codemod applies (too large).
    skipped: Optional[str] = None
    # On error or skip: the codemods whose text pre-check (``applies_to``) matches
    # the file, so it probably needs porting; () when none does.
    would_apply: Tuple[str, ...] = ()
