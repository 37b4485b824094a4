"""One thing a codemod did or could not do: what codemods record and reports show."""
from __future__ import annotations

from dataclasses import dataclass

# The kinds of finding: an edit made; something left for the user (a codemod's
# ``needs_attention``); a libcst ``context.warnings`` entry that came from neither.
EDIT = "edit"
ATTENTION = "attention"
WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """One thing a codemod did (``kind=EDIT``) or could not do (``kind=ATTENTION``).

    Plain data, so findings cross process boundaries as they are; the report
    (``slimport.output.results``) uses this same class.
    """

    codemod: str
    line: int
    message: str
    fix: str = ""
    kind: str = EDIT

    def as_dict(self) -> dict:
        """The finding as plain data, for the JSON report.

        Returns:
          ``codemod``, ``line``, ``message``, ``fix`` and ``kind``.
        """
        return {
            "codemod": self.codemod,
            "line": self.line,
            "message": self.message,
            "fix": self.fix,
            "kind": self.kind,
        }

    def as_warning(self) -> str:
        """The libcst ``context.warnings`` entry for this finding (libcst.tool shows these).

        Returns:
          ``line N: message (fix: ...)``.
        """
        return f"line {self.line}: {self.message} (fix: {self.fix})"
