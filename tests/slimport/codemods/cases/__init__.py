"""Codemod cases as data: what one codemod makes of a source, and what it reports.

Each module of this package is named for a registered codemod (its ``NAME``) and holds
``CASES``, a list of

- ``Edit(title, before, after)``: the codemod turns ``before`` into ``after``, and leaves
  ``after`` as it is;
- ``Noop(title, source)``: the codemod gives ``source`` back byte for byte and reports
  nothing (most bugs in rewriters are edits where none was due);
- ``Reported(title, source, findings)``: the codemod gives ``source`` back byte for byte
  and reports exactly ``findings`` (what it could not port, and says so).

tests/slimport/codemods/test_cases.py runs every case of every registered codemod; the
first case of a module is an ``Edit`` that shows the codemod at its best, and
docs/codemods.md shows it (tools/gen_codemod_docs.py). A case's ``options`` are the
codemod's keyword arguments (its ``OPTIONS``); ``tree`` and ``path`` say what the engine
knows of the tree the file is in (``SourceTree``) and where in it the file is, for a
codemod whose edit depends on that. A module may also hold ``TEXT_PRECHECK``: sources and
whether the codemod's cheap text pre-check (``applies_to``) lets the engine parse them for
it (a file it turns away costs nothing).

Sources are written as they read best in a table: they are dedented, and a first newline
is dropped (the one after an opening ``\"\"\"``; a source that starts with a blank line
starts with two newlines).
"""
from __future__ import annotations

import importlib
import textwrap
from dataclasses import dataclass, field
from types import ModuleType
from typing import Mapping, Optional, Sequence, Union

from slimport.analysis.findings import ATTENTION, EDIT
from slimport.analysis.source_tree import SourceTree


def _table(name: str) -> Optional[ModuleType]:
    module_name = f"{__name__}.{name}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        return None


def cases_of(name: str) -> Optional[Sequence["Case"]]:
    """The cases of the codemod named ``name``: ``CASES`` of ``cases/<name>.py``.

    Args:
      name: a codemod's ``NAME``.

    Returns:
      Its cases, in their order; None when it has no cases module.
    """
    table = _table(name)
    return None if table is None else table.CASES


def text_precheck_of(name: str) -> Mapping[str, bool]:
    """The ``TEXT_PRECHECK`` rows of the codemod named ``name`` (none: empty).

    Args:
      name: a codemod's ``NAME``.

    Returns:
      source -> whether the codemod's text pre-check lets it through.
    """
    return getattr(_table(name), "TEXT_PRECHECK", {})


def source_text(written: str) -> str:
    """A source as a case writes it -> the text the codemod is given.

    Args:
      written: the source, maybe indented, maybe starting with the newline after
        ``\"\"\"``.

    Returns:
      It dedented, without that first newline.
    """
    text = textwrap.dedent(written)
    return text[1:] if text.startswith("\n") else text


@dataclass(frozen=True)
class ExpectedFinding:
    """A finding a case expects: its line and kind, and parts of its message and fix
    (empty: any)."""

    line: int
    kind: str
    message: str = ""
    fix: str = ""

    def describe(self) -> str:
        """The expectation in the words a failing test prints.

        Returns:
          ``line N kind: 'message part' (fix: 'fix part')``.
        """
        fix = f" (fix: {self.fix!r})" if self.fix else ""
        return f"line {self.line} {self.kind}: {self.message!r}{fix}"


def edit(line: int, message: str = "") -> ExpectedFinding:
    """An edit the codemod records at ``line``, its message containing ``message``.

    Args:
      line: the 1-based line of ``before``.
      message: a part of the message.

    Returns:
      The expected finding.
    """
    return ExpectedFinding(line, EDIT, message)


def attention(line: int, message: str = "", fix: str = "") -> ExpectedFinding:
    """A construct the codemod reports at ``line`` (``needs_attention``).

    Args:
      line: the 1-based line of the source.
      message: a part of what the finding says.
      fix: a part of the fix it suggests.

    Returns:
      The expected finding.
    """
    return ExpectedFinding(line, ATTENTION, message, fix)


@dataclass(frozen=True)
class _Case:
    title: str
    # The codemod's keyword arguments.
    options: Mapping[str, object] = field(default_factory=dict, kw_only=True)
    # What the engine knows of the tree (None: the file is ported on its own) and the
    # file's path in it.
    tree: Optional[SourceTree] = field(default=None, kw_only=True)
    path: str = field(default="", kw_only=True)


@dataclass(frozen=True)
class Edit(_Case):
    """``before`` becomes ``after``; ``after`` stays as it is, with no edit recorded.

    ``findings``: every attention finding of the run (none when empty), and every edit
    finding when any is listed; unlisted, the edits are not compared, but the change must
    be in the report (an edit, or an attention finding that says what the code became).
    """

    before: str
    after: str
    findings: Sequence[ExpectedFinding] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "before", source_text(self.before))
        object.__setattr__(self, "after", source_text(self.after))
        object.__setattr__(self, "findings", tuple(self.findings))


@dataclass(frozen=True)
class Noop(_Case):
    """``source`` comes back byte for byte, with no finding."""

    source: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", source_text(self.source))


@dataclass(frozen=True)
class Reported(_Case):
    """``source`` comes back byte for byte, with exactly ``findings``."""

    source: str
    findings: Sequence[ExpectedFinding]

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", source_text(self.source))
        object.__setattr__(self, "findings", tuple(self.findings))
        if not self.findings:
            raise ValueError(f"Reported case {self.title!r} lists no finding: make it a Noop")


Case = Union[Edit, Noop, Reported]

__all__ = ["Case", "Edit", "ExpectedFinding", "Noop", "Reported", "attention",
           "cases_of", "edit", "source_text", "text_precheck_of"]

