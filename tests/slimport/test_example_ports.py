"""The ports of examples/ are what they were, fresh and from the cache alike.

``data/example_ports.json`` holds, for each tree of examples/, the SHA-256 of every
file ``slimport rewrite TREE --out OUT`` writes and of its JSON report (paths made
``SRC`` and ``OUT``), recorded before the rewrite's speed work (issue 33: one parse a
file, shared walks, pre-checks, the cache), which must not change a byte. A change of
the port that is meant (a new codemod, a fixed one) records them again:

    python -m tests.slimport.test_example_ports > tests/slimport/data/example_ports.json

and the diff of that file shows which files' ports changed.
"""
from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Dict

import pytest

from slimport.analysis import tf_code
from slimport.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = REPO_ROOT / "examples"
RECORDED = Path(__file__).with_name("data") / "example_ports.json"
TREES = sorted(path.name for path in EXAMPLES.iterdir() if path.is_dir())


def manifest(source: Path, out: Path, report: Path) -> Dict[str, str]:
    """The digests of a port: each file under ``out`` and the report (its paths as
    ``SRC`` and ``OUT``, so that where the port ran does not count)."""
    digests = {path.relative_to(out).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
               for path in sorted(out.rglob("*")) if path.is_file()}
    text = report.read_text().replace(str(out), "OUT").replace(str(source), "SRC")
    digests["<report>"] = hashlib.sha256(
        json.dumps(json.loads(text), sort_keys=True).encode()).hexdigest()
    return digests


def port(tree: str, work: Path, *extra: str) -> Dict[str, str]:
    """``slimport rewrite examples/TREE --out ... -j 1 --report``, in this process."""
    tf_code._NEIGHBOURS.clear()  # a neighbour's verdict is kept for a process's life
    out, report = work / f"out-{len(list(work.iterdir()))}", work / "report.json"
    assert main(["rewrite", str(EXAMPLES / tree), "--out", str(out), "-j", "1", "-q",
                 "--report", str(report), *extra]) == 0
    return manifest(EXAMPLES / tree, out, report)


@pytest.mark.parametrize("tree", TREES)
def test_the_port_is_as_recorded_fresh_and_cached(tree: str, tmp_path: Path) -> None:
    recorded = json.loads(RECORDED.read_text())
    fresh = port(tree, tmp_path, "--no-cache")
    assert fresh == recorded[tree], (
        f"the port of examples/{tree} changed; if that is meant, record it again: "
        f"python -m tests.slimport.test_example_ports > {RECORDED.relative_to(REPO_ROOT)}")
    cache = str(tmp_path / "cache")
    assert port(tree, tmp_path, "--cache-dir", cache) == fresh  # the cache filled
    assert port(tree, tmp_path, "--cache-dir", cache) == fresh  # every file a hit


def _record() -> None:
    recorded = {}
    for tree in TREES:
        with tempfile.TemporaryDirectory() as work:
            recorded[tree] = port(tree, Path(work), "--no-cache")
    print(json.dumps(recorded, indent=1, sort_keys=True))


if __name__ == "__main__":
    sys.exit(_record())
