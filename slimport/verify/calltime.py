"""The call-time check's rows: one per module, "ok" or the names that fail when called.

names.py lists every TensorFlow name each module uses; the worker's ``names`` job
says which do not exist with slim_ext loaded (or are slim_ext stand-ins, which
raise when called). A name on a line whose import already failed is the import
row's to report, not this one's.
"""
import os
from typing import Dict, Iterable, List, Sequence

from slimport.verify import fixes, names, sources
from slimport.verify.classify import Row
from slimport.verify.kinds import FAILS_WHEN_CALLED, OK
from slimport.verify.tree import Tree

CHECK = "calls"
_LISTED = 3


def _missing_uses(module_uses: Sequence[names.Use], missing: Dict[str, Dict[str, object]],
                  reported: Iterable[str]) -> List[names.Use]:
    already = set(reported)
    return [use for use in module_uses if use.name in missing and use.where not in already]


def _entry(use: names.Use, looked_up: Dict[str, object], tree: Tree) -> Dict[str, object]:
    return {"name": use.spelled, "qualified": use.name, "where": use.where,
            "statement": _statement(use, tree),
            "fix": fixes.call_time(use.name, looked_up, use.relpath not in tree.unported),
            "stand_in": bool(looked_up.get("stand_in"))}


def _statement(use: names.Use, tree: Tree) -> str:
    return sources.line_of(os.path.join(tree.top, use.relpath), use.line)


def _message(entries: List[Dict[str, object]], version: str) -> str:
    shown = sorted({str(entry["name"]) for entry in entries})
    if len(shown) == 1:
        entry = entries[0]
        if entry["stand_in"]:
            return f"{shown[0]} is a stand-in that raises when called"
        return f"{shown[0]} does not exist in TensorFlow {version} (with slim_ext loaded)"
    more = f", ... (+{len(shown) - _LISTED})" if len(shown) > _LISTED else ""
    return (f"{len(shown)} names do not exist in TensorFlow {version} (with slim_ext loaded): "
            f"{', '.join(shown[:_LISTED])}{more}")


def rows(tree: Tree, uses: Sequence[names.Use], missing: Dict[str, Dict[str, object]],
         reported: Iterable[str], version: str, seconds: float) -> List[Row]:
    """One row per module of the tree.

    Args:
      tree: the tree.
      uses: every use names.py found.
      missing: the worker's answer: name -> what it found out (names that resolve
        are not in it).
      reported: ``file:line`` of statements another row already blames (a failed import).
      version: the TensorFlow version the names were looked up in.
      seconds: how long the lookup took (on each row).

    Returns:
      The rows: "ok", or "fails-when-called" with every missing use in
      ``details["missing"]``.
    """
    reported = list(reported)
    by_module: Dict[str, List[names.Use]] = {}
    for use in uses:
        by_module.setdefault(use.relpath, []).append(use)
    found = []
    for module in tree.modules:
        module_uses = by_module.get(module.relpath, [])
        failing = _missing_uses(module_uses, missing, reported)
        row = Row(check=CHECK, target=module.name, file=module.relpath, kind=OK,
                       message=f"every TensorFlow name resolves ({len(module_uses)} uses)",
                       seconds=seconds, details={"uses": len(module_uses)})
        if failing:
            entries = [_entry(use, missing[use.name], tree) for use in failing]
            first = entries[0]
            row.kind, row.message = FAILS_WHEN_CALLED, _message(entries, version)
            row.where, row.statement, row.fix = (str(first["where"]), str(first["statement"]),
                                                 first["fix"])
            row.details["missing"] = entries
        found.append(row)
    return found

