"""The call-time check's rows: per module, "ok" or the names that fail when called.

names.py lists every TensorFlow name each module uses; the worker's ``names`` job
says which do not exist with slim_ext loaded. (slim_ext's stand-ins for contrib
features TensorFlow 2 has nowhere exist, and raise when called: the rewrite reported
each, with what to use.) A name on a line whose import already failed is the import
row's to report, not this one's.
"""
import os
from typing import Dict, Iterable, List, Sequence, Set

from slimport.verify import fixes, names, sources
from slimport.verify.classify import Row
from slimport.verify.kinds import FAILS, FAILS_WHEN_CALLED, OK
from slimport.verify.tree import Tree

CHECK = "calls"
_LISTED = 3


def _missing_uses(module_uses: Sequence[names.Use], missing: Dict[str, Dict[str, object]],
                  blamed: Set[str]) -> List[names.Use]:
    return [use for use in module_uses if use.name in missing and use.where not in blamed]


def _entry(use: names.Use, looked_up: Dict[str, object], tree: Tree) -> Dict[str, object]:
    return {"name": use.spelled, "qualified": use.name, "where": use.where,
            "statement": _statement(use, tree),
            "fix": fixes.call_time(use.name, looked_up, use.relpath not in tree.unported)}


def _statement(use: names.Use, tree: Tree) -> str:
    return sources.line_of(os.path.join(tree.top, use.relpath), use.line)


def _message(entries: List[Dict[str, object]], version: str) -> str:
    shown = sorted({str(entry["name"]) for entry in entries})
    if len(shown) == 1:
        return f"{shown[0]} does not exist in TensorFlow {version} (with slim_ext loaded)"
    more = f", ... (+{len(shown) - _LISTED})" if len(shown) > _LISTED else ""
    return (f"{len(shown)} names do not exist in TensorFlow {version} (with slim_ext loaded): "
            f"{', '.join(shown[:_LISTED])}{more}")


def rows(tree: Tree, uses: Sequence[names.Use], missing: Dict[str, Dict[str, object]],
         import_rows: Iterable[Row], version: str, seconds: float) -> List[Row]:
    """One row per module of the tree whose import did not fail.

    A module whose import fails is the import row's: what it uses further down
    mostly fails for the same reason (an unported ``tf.contrib.slim``), and fixing
    the import comes first. Elsewhere a name on a line another row blames (a module
    that failed importing it) is not listed twice.

    Args:
      tree: the tree.
      uses: every use names.py found.
      missing: the worker's answer: name -> what it found out (names that resolve
        are not in it).
      import_rows: the import check's rows.
      version: the TensorFlow version the names were looked up in.
      seconds: how long the lookup took (on each row).

    Returns:
      The rows: "ok", or "fails-when-called" with every missing use in
      ``details["missing"]``.
    """
    import_rows = list(import_rows)
    failed = {row.file for row in import_rows if row.kind == FAILS}
    blamed = {row.where for row in import_rows if row.kind != OK and row.where}
    by_module: Dict[str, List[names.Use]] = {}
    for use in uses:
        by_module.setdefault(use.relpath, []).append(use)
    found = []
    for module in tree.modules:
        if module.relpath in failed:
            continue
        module_uses = by_module.get(module.relpath, [])
        failing = _missing_uses(module_uses, missing, blamed)
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
