"""The facts a run hands its ports: the facts of each scope, and each file's scope.

``slimport.engine.facts.survey`` gathers them before anything is written; every port
of the run (in this process or a pool worker) asks for its file's facts here. A file's
scope is its import root and the roots it imports (``slimport.analysis.import_roots``),
and the report names the roots besides its own that its facts came from.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Mapping, Tuple


@dataclass(frozen=True)
class Scope:
    """The facts gathered over one scope, and the roots they were gathered from."""

    roots: Tuple[str, ...]
    facts: Mapping[str, Any]


@dataclass(frozen=True)
class TreeFacts:
    """The facts of each scope of a run, and the scope each Python file of it is in.

    ``files`` maps a file's absolute path to its scope's index in ``scopes`` and to
    the name of its own root; a file it does not know (standard input without a
    name) gets no facts, and so each codemod's ``alone`` value.
    """

    scopes: Tuple[Scope, ...] = ()
    files: Mapping[str, Tuple[int, str]] = field(default_factory=dict)

    def for_file(self, filename: str) -> Mapping[str, Any]:
        """The facts the codemods porting ``filename`` get.

        Args:
          filename: a Python file of the run.

        Returns:
          Fact name -> value; empty for a file outside the survey.
        """
        known = self.files.get(os.path.abspath(filename))
        return {} if known is None else self.scopes[known[0]].facts

    def sources_of(self, filename: str) -> Tuple[str, ...]:
        """The roots besides its own whose code the facts of ``filename`` were read
        from (what it imports, directly or not), for the report.

        Args:
          filename: a Python file of the run.

        Returns:
          Root names, sorted; empty when its facts are its own root's.
        """
        known = self.files.get(os.path.abspath(filename))
        if known is None:
            return ()
        return tuple(root for root in self.scopes[known[0]].roots if root != known[1])
