"""The verify table, its details grouped by failing statement, and the JSON report.

JSON schema (``version`` 2: the ``calls`` check, ``root_reasons``, ``not_ported``)::

    {
      "version": 2,
      "tree": str, "roots": [str],          # absolute paths
      "root_reasons": {str: str},           # root -> why it was chosen
      "not_ported": str | null,             # the note for a tree rewrite would change
      "versions": {"tensorflow": str, ...}, # what the worker preloaded
      "environment": {str: str},            # variables verify set for the checks
      "processes": int, "preload_seconds": float, "seconds": float,
      "summary": {"import" | "script" | "build" | "calls": {kind: int}},
      "fails": int,                         # rows the port is answerable for ("fails",
                                            # "fails-when-called"); exit 1 when > 0
      "rows": [                             # one per check, see classify.Row
        {"check": str, "target": str, "file": str, "kind": str, "message": str,
         "where": str | null, "statement": str, "fix": str | null,
         "install": str | null, "seconds": float, "pid": int, "details": {...}}
      ]                                     # a "calls" row's details: "uses", and
                                            # "missing": [{"name", "qualified", "where",
                                            #   "statement", "fix"}]
    }
"""
import json
from typing import Dict, Iterable, List, Sequence

from slimport.verify.classify import Row
from slimport.verify.kinds import (BLOCKED, FAILS, FAILS_WHEN_CALLED, IMPORT_WORK, KINDS,
                                   NEEDS_SIZE, OK, PORT_FAILURES, PYTHON2, TREE_BUG)

REPORT_VERSION = 2
CHECKS = ("import", "script", "build", "calls")
_CHECK_TITLES = {"import": "import", "script": "--helpfull", "build": "build + step",
                 "calls": "names used"}
_KIND_TITLES = {
    OK: "ok",
    BLOCKED: "blocked: not installed / not found",
    PYTHON2: "Python 2 code",
    IMPORT_WORK: "does work at import",
    TREE_BUG: "fails on TF 1 too (tree bug)",
    NEEDS_SIZE: "needs --image-size",
    FAILS_WHEN_CALLED: "fails when called",
    FAILS: "fails",
}
# Details are shown worst first.
_DETAIL_ORDER = (FAILS, FAILS_WHEN_CALLED, TREE_BUG, NEEDS_SIZE, BLOCKED, PYTHON2, IMPORT_WORK)
_LISTED = 6


def summary(rows: Iterable[Row]) -> Dict[str, Dict[str, int]]:
    """Counts per check and kind (every kind present, zeros included)."""
    counts = {check: {kind: 0 for kind in KINDS} for check in CHECKS}
    for row in rows:
        counts[row.check][row.kind] += 1
    return counts


def table(rows: Sequence[Row]) -> List[str]:
    """The kinds-by-checks table, with only the checks that ran."""
    counts = summary(rows)
    checks = [check for check in CHECKS if sum(counts[check].values())]
    width = max(len(title) for title in _KIND_TITLES.values())
    lines = [" " * width + "".join(f"{_CHECK_TITLES[c]:>14}" for c in checks)]
    for kind in KINDS:
        lines.append(f"{_KIND_TITLES[kind]:<{width}}"
                     + "".join(f"{counts[c][kind]:>14}" for c in checks))
    return lines


def _names(rows: Sequence[Row], verbose: bool) -> str:
    targets = [row.target for row in rows]
    if verbose or len(targets) <= _LISTED:
        return ", ".join(targets)
    return ", ".join(targets[:_LISTED]) + f", ... (+{len(targets) - _LISTED})"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _grouped(rows: Sequence[Row]) -> Dict[tuple, List[Row]]:
    groups: Dict[tuple, List[Row]] = {}
    for row in rows:
        groups.setdefault((row.where, row.message, row.fix), []).append(row)
    return dict(sorted(groups.items(), key=lambda item: -len(item[1])))


def _called(members: Sequence[Row], verbose: bool) -> List[str]:
    """The names that fail when called, each with its fix and every place it is used."""
    uses: Dict[str, List[dict]] = {}
    for row in members:
        for entry in row.details.get("missing", []):
            uses.setdefault(entry["name"], []).append(entry)
    lines = [f"\n{_KIND_TITLES[FAILS_WHEN_CALLED].upper()} ({_count(len(uses), 'name')} in "
             f"{_count(len(members), 'module')}: the modules import, the code that uses "
             "these fails when it runs)"]
    for name, entries in sorted(uses.items()):
        places = [entry["where"] for entry in entries]
        shown = places if verbose or len(places) <= _LISTED else (
            places[:_LISTED] + [f"... (+{len(places) - _LISTED})"])
        lines.append(f"  {name}: does not exist here")
        if entries[0]["fix"]:
            lines.append(f"      fix: {entries[0]['fix']}")
        lines.append(f"      used at {', '.join(shown)}")
    return lines


def details(rows: Sequence[Row], verbose: bool = False) -> List[str]:
    """Every row that is not ok, grouped by (failing statement, message, fix); names that
    fail when called, by name."""
    lines: List[str] = []
    for kind in _DETAIL_ORDER:
        members = [row for row in rows if row.kind == kind]
        if not members:
            continue
        if kind == FAILS_WHEN_CALLED:
            lines += _called(members, verbose)
            continue
        groups = _grouped(members)
        lines.append(f"\n{_KIND_TITLES[kind].upper()} ({_count(len(members), 'check')}, "
                     f"{_count(len(groups), 'cause')})")
        for (where, message, fix), group in groups.items():
            lines.append(f"  {where or group[0].file or group[0].target}: {message}")
            if group[0].statement:
                lines.append(f"      {group[0].statement}")
            if fix:
                lines.append(f"      fix: {fix}")
            lines.append(f"      {_count(len(group), 'check')}: {_names(group, verbose)}")
        installs = sorted({row.install for row in members if row.install})
        if installs:
            lines.append(f"  pip install {' '.join(installs)}")
    return lines


def scripts_and_builds(rows: Sequence[Row], verbose: bool = False) -> List[str]:
    """One line per entry script that printed its flags, and per build that trained."""
    lines = []
    for row in rows:
        if row.kind != OK or row.check in ("import", "calls"):
            continue
        if row.check == "script":
            flags = [f"--{name}" for name in row.details.get("flags", [])]
            shown = flags if verbose or len(flags) <= 8 else flags[:8] + ["..."]
            lines.append(f"  {row.file}: {row.message}"
                         + (f": {' '.join(shown)}" if shown else ""))
        else:
            lines.append(f"  {row.target}: {row.message} ({row.seconds:.1f} s)")
    return (["\nentry scripts and builds:"] + lines) if lines else []


def to_json(rows: Sequence[Row], header: Dict[str, object]) -> Dict[str, object]:
    return {"version": REPORT_VERSION, **header, "summary": summary(rows),
            "fails": sum(1 for row in rows if row.kind in PORT_FAILURES),
            "rows": [row.as_dict() for row in rows]}


def write_json(path: str, rows: Sequence[Row], header: Dict[str, object]) -> None:
    with open(path, "w") as report_file:
        json.dump(to_json(rows, header), report_file, indent=1)
        report_file.write("\n")
