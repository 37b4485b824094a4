"""Where the rewrite's time goes: per-stage and per-codemod totals, and cProfile's top.

    python benchmarks/profile_rewrite.py [--files 90] [--top 25]

Ports a generated corpus in this process through ``slimport.engine.port_source``
(what ``slimport rewrite`` runs per file, minus file I/O), under cProfile, with
timers around libcst's parse, each codemod's ``transform_module`` (which includes
building its MetadataWrapper and resolving its metadata) and the final codegen.
Prints markdown: one table of stages and codemods, one of the top functions.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, List

import libcst as cst

import _stats
import synthetic_tree

TIMES: Dict[str, float] = defaultdict(float)
CALLS: Dict[str, int] = defaultdict(int)


def _timed(label: str, function: Callable) -> Callable:
    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            TIMES[label] += time.perf_counter() - started
            CALLS[label] += 1
    return timed


def _instrument() -> List[type]:
    """Wraps parse, codegen and every codemod's transform_module with timers."""
    from slimport.engine import passes
    from slimport.codemods import CODEMODS

    passes.cst = _ParseTimingLibcst()
    for codemod in CODEMODS:
        codemod.transform_module = _timed(f"codemod {codemod.NAME}", codemod.transform_module)
    code_property = cst.Module.code
    cst.Module.code = property(_timed("codegen (Module.code)", code_property.fget))
    return CODEMODS


class _ParseTimingLibcst:
    """The libcst module as slimport.engine.passes sees it, with parse_module timed."""

    parse_module = staticmethod(_timed("parse (libcst.parse_module)", cst.parse_module))

    def __getattr__(self, name: str):
        return getattr(cst, name)


def profile(files: int, seed: int, top: int) -> str:
    """Runs the profile and returns its markdown section."""
    started = time.perf_counter()
    from slimport import engine  # noqa: F401  (timed: the CLI's imports)
    import_secs = time.perf_counter() - started
    codemods = _instrument()
    with tempfile.TemporaryDirectory() as temp:
        source = Path(temp) / "corpus"
        n_files, lines = synthetic_tree.build(source, files, seed)
        paths = sorted(source.rglob("*.py"))
        sources = [(str(path), path.read_bytes()) for path in paths]
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for filename, data in sources:
        engine.port_source(data, filename, codemods, {})
    profiler.disable()
    total = time.perf_counter() - started

    rows = [["importing slimport.engine + codemods (once per process)", f"{import_secs:.2f}",
             "", "1", ""]]
    for label in sorted(TIMES, key=TIMES.get, reverse=True):
        rows.append([label, f"{TIMES[label]:.2f}", f"{100 * TIMES[label] / total:.0f}%",
                     str(CALLS[label]), f"{1000 * TIMES[label] / CALLS[label]:.0f}"])
    rows.append(["port_source total (under cProfile)", f"{total:.2f}", "100%", str(n_files),
                 f"{1000 * total / n_files:.0f}"])
    stages = _stats.table(["stage", "seconds", "share", "calls", "ms per call"], rows)

    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    listing = text.getvalue()
    body = listing[listing.index("ncalls"):] if "ncalls" in listing else listing
    return (f"### Profile: {n_files} files, {lines} lines, in one process (-j 1)\n\n"
            f"Per-codemod times include building the codemod's MetadataWrapper and "
            f"resolving its metadata. cProfile roughly doubles the times; the shares "
            f"are what matters.\n\n{stages}\n\nTop {top} functions by own time:\n\n"
            f"```\n{body.rstrip()}\n```")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=synthetic_tree.PACKAGE_FILES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(profile(args.files, args.seed, args.top))


if __name__ == "__main__":
    main()
