"""The kinds of outcome a verify row can have, and a classification's verdict.

Kinds, in table order (what each means: classify.py's docstring and ``slimport
verify --help``). ``PORT_FAILURES`` are what the port is answerable for: verify
exits 1 when a row has one of them.
"""
import dataclasses
from typing import Optional

OK = "ok"
BLOCKED = "blocked"
PYTHON2 = "python2"
IMPORT_WORK = "import-work"
TREE_BUG = "tree-bug"
NEEDS_SIZE = "needs-image-size"
FAILS_WHEN_CALLED = "fails-when-called"
FAILS = "fails"
KINDS = (OK, BLOCKED, PYTHON2, IMPORT_WORK, TREE_BUG, NEEDS_SIZE, FAILS_WHEN_CALLED, FAILS)
PORT_FAILURES = (FAILS_WHEN_CALLED, FAILS)


@dataclasses.dataclass
class Verdict:
    """What a failure is: its kind, one line about it, the fix and a distribution to install."""

    kind: str
    message: str
    fix: Optional[str] = None
    install: Optional[str] = None
