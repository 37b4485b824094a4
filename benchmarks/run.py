"""Entry point of `tox -e bench`: every benchmark, one markdown table each.

    python benchmarks/run.py [--quick] [--runs N]
                             [--only rewrite,large,scaling,bigfile,profile,train]
                             [--markdown FILE] [--work DIR]

Full mode: the rewrite on examples/slim_tf1, the 90-file corpus and two real trees
(research/slim as of 2022 and object detection 0.1.1: sdists downloaded from PyPI and
cached as the corpus env does, real_trees.py), N paired runs (default 5); `rewrite
--check` over the ports of the corpus and of research/slim a first and a second time
(nothing changed: the cache's every file a hit); the large tree (four PyPI TF1
distributions together, 1,375 files, real_trees.LARGE) with -j 1 and -j 2 rows, at
most 3 paired runs; the scaling table (10 / 90 /
900 files; trees above 90 files are run once, they take minutes per tool), one big
file's time per line at 2,000 and 20,000 lines (big_file.py), the profile, and the
training benchmarks.
--quick: 2 runs, the 10-file corpus, the big file at 1,000 and 5,000 lines, no
scaling or profile, short training runs; a smoke test of the whole harness in a few
minutes.

Exits 0 when every benchmark ran, 1 when one failed to run (its error is
printed); it never judges the figures.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _stats  # noqa: E402
import big_file  # noqa: E402
import synthetic_tree  # noqa: E402
import profile_rewrite  # noqa: E402
import real_trees  # noqa: E402
import rewrite_bench  # noqa: E402
import train_bench  # noqa: E402

BENCHMARKS = ("rewrite", "large", "scaling", "bigfile", "profile", "train")
# Paired runs on the large tree at most (a round of its five tools takes minutes).
LARGE_RUNS = 3
SEED = 0


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace, work: Path) -> list:
    """Runs the selected benchmarks; returns their markdown sections."""
    runs = args.runs or (2 if args.quick else 5)
    sections = []
    known = {}
    if "rewrite" in args.only:
        trees = {}
        if not args.quick:
            trees["examples/slim_tf1"] = synthetic_tree.EXAMPLE_TREE
        size = 10 if args.quick else synthetic_tree.PACKAGE_FILES
        generated = work / f"corpus-{size}"
        synthetic_tree.build(generated, size, SEED)
        trees[f"generated corpus (seed {SEED})"] = generated
        if not args.quick:
            trees.update(real_trees.unpack_all(work))
        for label, source in trees.items():
            section, measured = rewrite_bench.compare(label, source, work, runs, _progress)
            sections.append(section)
            if source == generated:
                known[size] = measured
        checked = {f"the generated corpus (seed {SEED})": generated}
        if real_trees.RESEARCH_SLIM in trees:
            checked[real_trees.RESEARCH_SLIM] = trees[real_trees.RESEARCH_SLIM]
        for label, source in checked.items():
            sections.append(rewrite_bench.second_check(label, source, work, runs, _progress))
        print("\n\n".join(sections[-(len(trees) + len(checked)):]), "\n", flush=True)
    if "large" in args.only and not args.quick:
        section, _ = rewrite_bench.compare(real_trees.LARGE, real_trees.unpack_large(work),
                                           work, min(runs, LARGE_RUNS), _progress,
                                           two_processes=True)
        sections.append(section)
        print(section, "\n", flush=True)
    if "scaling" in args.only and not args.quick:
        section = rewrite_bench.scaling(
            args.scaling_sizes,
            lambda size: 1 if size > synthetic_tree.PACKAGE_FILES else runs, work, SEED,
            _progress, known)
        sections.append(section)
        print(section, "\n", flush=True)
    if "bigfile" in args.only:
        section = big_file.scaling([1000, 5000] if args.quick else [2000, 20000],
                                   1 if args.quick else 3, SEED, _progress)
        sections.append(section)
        print(section, "\n", flush=True)
    if "profile" in args.only and not args.quick:
        section = profile_rewrite.profile(synthetic_tree.PACKAGE_FILES, SEED, 25)
        sections.append(section)
        print(section, "\n", flush=True)
    if "train" in args.only:
        trees = train_bench.Trees(work / "train", _progress)
        steps = 100 if args.quick else 400
        for benchmark in (
                lambda: train_bench.overhead(trees, runs, steps, _progress),
                lambda: train_bench.import_times(runs, _progress),
                lambda: train_bench.ps_scaling(trees, 1 if args.quick else max(2, runs // 2),
                                               60 if args.quick else 300, _progress),
                lambda: train_bench.placement(trees, _progress)):
            section = benchmark()
            sections.append(section)
            print(section, "\n", flush=True)
    return sections


def _names(text: str) -> list:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown benchmark {', '.join(unknown)}; "
                                         f"known: {', '.join(BENCHMARKS)}")
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smoke test: a few minutes")
    parser.add_argument("--runs", type=int, default=0,
                        help="paired runs per measurement (default 5, --quick 2)")
    parser.add_argument("--only", type=_names, default=list(BENCHMARKS),
                        help=f"comma-separated subset of {','.join(BENCHMARKS)}")
    parser.add_argument("--scaling-sizes", type=lambda t: [int(x) for x in t.split(",")],
                        default=[10, synthetic_tree.PACKAGE_FILES, 900],
                        help="corpus sizes in files for the scaling table (default 10,90,900)")
    parser.add_argument("--markdown", type=Path,
                        help="also write the machine description and every table to FILE")
    parser.add_argument("--work", type=Path,
                        help="scratch directory (default: a temporary one, removed after)")
    args = parser.parse_args()

    header = "\n".join(f"- {line}" for line in _stats.machine())
    print(header, "\n", flush=True)
    started = time.monotonic()
    try:
        if args.work:
            args.work.mkdir(parents=True, exist_ok=True)
            sections = run(args, args.work)
        else:
            with tempfile.TemporaryDirectory(prefix="slimport-bench-") as temp:
                sections = run(args, Path(temp))
    # BenchmarkError, and pip failing to download a real tree, are RuntimeErrors.
    except (RuntimeError, TimeoutError) as error:
        print(f"benchmark failed to run: {error}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    print(f"all benchmarks ran in {elapsed / 60:.1f} min", flush=True)
    if args.markdown:
        args.markdown.write_text(header + f"\n- benchmark time: {elapsed / 60:.1f} min\n\n"
                                 + "\n\n".join(sections) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
