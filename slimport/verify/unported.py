"""Is the tree ported? Ask the codemods, without TensorFlow, whether they would change it.

verify on a tree nobody ran ``slimport rewrite`` on finds TF1 spellings everywhere;
blaming the port for them ("this spelling was not ported: report it to slimport")
would be wrong. A rewrite is idempotent, so a file the codemods would still change
has not been through it. Only the files of failing rows are asked (a ported tree
with nothing failing costs nothing), the first ``ASKED`` of them, the cheap text
pre-check first; once one would change, the tree is not ported, and no failing file
of it is blamed on the port.
"""
import os
import shlex
from typing import Iterable, Set

from slimport import engine
from slimport.codemods import CODEMODS

# How many failing files are asked at most: enough to tell an unported tree, few
# enough that a large tree failing everywhere is not ported once more.
ASKED = 10


def would_change(paths: Iterable[str]) -> Set[str]:
    """The files among ``paths`` that ``slimport rewrite`` would change (a dry run).

    Args:
      paths: Python files (absolute).

    Returns:
      Those whose ported bytes differ from what is on disk.
    """
    changed = set()
    for path in sorted(set(paths)):
        try:
            with open(path, "rb") as source:
                data = source.read()
        except OSError:
            continue
        text = data.decode("utf-8", errors="replace")
        if not any(codemod.applies_to(text) for codemod in CODEMODS):
            continue
        ported = engine.port_source(data, path, CODEMODS, {},
                                    max_bytes=engine.DEFAULT_MAX_FILE_BYTES)
        if ported.error is None and ported.data != data:
            changed.add(path)
    return changed


def rewrite_command(top: str) -> str:
    """The command that ports the tree at ``top`` into a sibling directory."""
    out = top.rstrip(os.sep) + "_tf2"
    return f"slimport rewrite {shlex.quote(top)} --out {shlex.quote(out)}"


def note(top: str, changed: int, asked: int) -> str:
    """The line verify prints once, at the top, for a tree that is not ported."""
    return (f"this tree is not ported: `slimport rewrite` would still change {changed} of the "
            f"{asked} failing files asked. Run `{rewrite_command(top)}` first, then verify "
            "that directory")
