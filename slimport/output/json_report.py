"""The ``--report FILE.json`` document of a rewrite.

JSON schema (``version`` 4)::

    {
      "version": 4,                       # schema version of this document
      "slimport_version": "0.1.0",
      "mode": "in-place" | "out" | "diff" | "check" | "stdin",
      "summary": {
        "files": int,                     # paths reported (all statuses)
        "changed": int, "unchanged": int, "failed": int, "skipped": int,
        "copied": int,                    # non-Python files copied by --out
        "edits": int,                     # findings of kind "edit", all files
        "attention": int                  # findings of kind "attention"/"warning",
                                          # a tree finding counting once
      },
      "warnings": [str],                  # about the run as a whole (e.g. --map)
      "tree_findings": [                  # one cause, one fix, many files (a missing tool)
        {"codemod": str, "message": str, "fix": str, "kind": "attention", "paths": [str]}
      ],
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
          "error_line": int | null,       # line of a parse failure, when known
          "facts_from": [str]             # import roots besides the file's own whose
                                          # code its tree facts were read from (the
                                          # roots it imports; empty: its own root only)
        }
      ]
    }

``line`` is the finding's line in ``output`` when that is not null, else in
``path``; ``source_line`` its line in ``path``. 0 means the codemod could not pin
the finding to a line. Version 1 had no ``warnings`` and no ``source_line``, and
its ``line`` was always a line of ``path``. Version 2 had no ``tree_findings``: a
missing grpcio-tools was a finding in each stale ``*_pb2.py``'s entry. Version 3 had no
``facts_from``: every file's facts were read off the whole tree ported.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from slimport import __version__
from slimport.output.results import FileResult, TreeFinding, summarize

REPORT_SCHEMA_VERSION = 4


def to_json(results: Sequence[FileResult], mode: str, copied: int = 0,
            warnings: Sequence[str] = (), tree_findings: Sequence[TreeFinding] = ()) -> dict:
    """The ``--report`` document (schema in this module's docstring)."""
    return {
        "version": REPORT_SCHEMA_VERSION,
        "slimport_version": __version__,
        "mode": mode,
        "summary": summarize(results, copied, tree_findings),
        "warnings": list(warnings),
        "tree_findings": [tree_finding.as_dict() for tree_finding in tree_findings],
        "files": [result.as_dict() for result in results],
    }


def write_json(path: Path, results: Sequence[FileResult], mode: str, copied: int = 0,
               warnings: Sequence[str] = (), tree_findings: Sequence[TreeFinding] = ()
               ) -> None:
    """Write the ``--report`` document to ``path`` (UTF-8, indented, trailing newline)."""
    document = to_json(results, mode, copied, warnings, tree_findings)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
