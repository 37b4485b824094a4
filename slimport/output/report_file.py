"""``--report PATH``: the JSON document or the HTML page, as the path's suffix says.

``.json`` is the JSON report (``slimport.output.json_report``), ``.html`` the page to
review the port (``slimport.output.html_report``); any other suffix is refused before
anything runs, naming both.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, Optional, Sequence

from slimport.output import html_report, json_report
from slimport.output.results import FileResult, TreeFinding

WRITERS: Dict[str, Callable[..., None]] = {
    ".json": json_report.write_json,
    ".html": html_report.write_html,
}


def format_problem(path: Path) -> Optional[str]:
    """Why ``path`` names no report format, or None.

    Args:
      path: the ``--report`` argument.

    Returns:
      A message naming both formats, or None for ``.json`` and ``.html``.
    """
    if path.suffix.lower() in WRITERS:
        return None
    return (f"{str(path)!r}: the report's format follows the file's suffix: .json for the "
            f"JSON report, .html for a page to review the port, e.g. --report port.json or "
            f"--report port.html")


def is_page(path: Path) -> bool:
    """Whether ``--report path`` asks for the HTML page (then the engine keeps each
    file's review hunks)."""
    return path.suffix.lower() == ".html"


def write_report(path: Path, results: Sequence[FileResult], mode: str, copied: int = 0,
                 warnings: Sequence[str] = (), tree_findings: Sequence[TreeFinding] = ()
                 ) -> None:
    """Write the report ``path``'s suffix names.

    Raises:
      OSError: it cannot be written.
    """
    WRITERS[path.suffix.lower()](path, results, mode, copied, warnings, tree_findings)
