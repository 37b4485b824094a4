"""The floor for any libcst-based rewrite: parse every file, generate it back, write it.

    python benchmarks/libcst_floor.py SRC_DIR OUT_DIR [--processes N]

No transformer, no metadata: what is left is the cost of reading, parsing,
code generation and writing, which slimport cannot go below while it keeps
libcst's byte-exact round trip for the files it edits.

With ``--processes N`` the files are dealt by size into N parts of about equal bytes,
and N processes forked after ``import libcst`` (as ``slimport rewrite -j N`` forks its
workers after loading the codemods) do one part each at once: the speed-up two
processes of this work can get on the machine, which ``-j 2``'s is read against.
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import List

import libcst as cst


def dealt(files: List[Path], parts: int) -> List[List[Path]]:
    """``files`` in ``parts`` lists of about equal bytes: each file, largest first, goes
    to the list with the fewest bytes so far."""
    shares: List[List[Path]] = [[] for _ in range(parts)]
    sizes = [0] * parts
    for path in sorted(files, key=lambda path: path.stat().st_size, reverse=True):
        lightest = sizes.index(min(sizes))
        shares[lightest].append(path)
        sizes[lightest] += path.stat().st_size
    return shares


def round_trip(files: List[Path], source_root: Path, out_root: Path) -> None:
    for path in files:
        module = cst.parse_module(path.read_bytes())
        target = out_root / path.relative_to(source_root)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(module.bytes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--processes", type=int, default=1,
                        help="processes at once, each on its share of the files")
    args = parser.parse_args()
    shares = dealt(sorted(args.source.rglob("*.py")), max(1, args.processes))
    children = []
    for share in shares[1:]:
        child = os.fork()
        if child == 0:
            status = 1
            try:
                round_trip(share, args.source, args.out)
                status = 0
            finally:
                os._exit(status)  # not the parent's clean-up: it is still running
        children.append(child)
    round_trip(shares[0], args.source, args.out)
    failed = [child for child in children if os.waitpid(child, 0)[1] != 0]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
