"""Issue 42's yardstick: a port gives the same output however it is run.

    python tools/same_output.py [CORPUS ...] [--keep DIR] [-j N] [--trees N] [--deadline S]
    tox -e same-output              (every corpus below)

CORPUS: ``examples`` (every tree of examples/), the PyPI peers ``facenet``,
``object_detection`` (0.1.1), ``research_slim`` (object detection 2.8.0 with slim's
nets), ``tensorlayer``, ``magenta``, and the TF1 libraries the peer suites port as
dependencies, ``tflearn`` (0.3.2) and ``tensor2tensor`` (1.14) (downloaded and cached as
tools/corpus.py does), or an installed package (``tf_slim``, ``tf_keras``, ``keras``,
``tensorflow``). For each, ``slimport rewrite SRC --out ONCE -j 1`` is the reference
(``-j N`` for a tree of more than 500 Python files: tensor2tensor, an installed Keras or
TensorFlow), and

- twice: ``--check`` over ONCE finds nothing to change (port(port(x)) == port(x));
- in place: a copy of SRC ported in place with ``-j N`` is ONCE, byte for byte;
  (both answered by the reference itself for a large tree whose ONCE is SRC byte for
  byte, as the installed TF 2 packages are: a second port, and an in-place one, would
  read the very bytes the reference read, with the same ``-j``; the table marks them
  ``=port``)
- diff: ``--diff -j N`` (from the cache the first run filled) applied with ``patch``
  to a copy of SRC is ONCE;
- alone: each sub-folder (two levels down, each holding Python files; at most 12, or
  4 of a large tree, spread over it) ported on its own with ``--out`` (``-j N``; ``-j 1``
  for a large tree, whose reference ran ``-j N``: so every tree has ``-j 1`` against
  ``-j N``) gives ONCE's files, but where a file's facts come from other roots than
  in the whole tree (the reports' ``facts_from``: it shares code with the tree outside
  what the sub-folder sees), which the table counts apart ("explained", not a failure);
- stdin: a sample of files ported through ``slimport rewrite - --stdin-filename`` (which
  reads the file's own import root) is ONCE's, explained differences apart as above;
- lines: every finding of ONCE's report has its line (none reported at line 0);
- comments: every comment line of a file ONCE changed is still in it (those of a
  generated ``*_pb2.py`` the run regenerated whole excepted).

Prints a table (a column per corpus: files compared, and those that differ) and every
difference. Exit status 0 when every check holds, 1 when one does not, 2 when a step
could not run.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import _harness
import corpus
import magenta_suite
import tensorlayer_suite
import tflearn_suite

REPO = Path(__file__).resolve().parents[1]
PEERS = {peer.name: peer for peer in (*corpus.CORPORA, corpus.RESEARCH_SLIM,
                                       tensorlayer_suite.TENSORLAYER, magenta_suite.MAGENTA,
                                       tflearn_suite.TFLEARN, magenta_suite.TENSOR2TENSOR)}
INSTALLED = ("tf_slim", "tf_keras", "keras", "tensorflow")
DEFAULT = ("examples", *PEERS, *INSTALLED)
CHECKS = ("twice", "in place", "diff", "alone", "stdin", "lines", "comments")
# The checks whose runs would read the reference's own input again when the reference
# port changed no byte of the tree: port(x) == x gives port(port(x)) == port(x), and an
# in-place port of x that writes nothing.
IDENTITY_ANSWERS = ("twice", "in place")
# The checks that may differ where a file's facts came from other roots.
SCOPED = ("alone", "stdin")
# Files ported through standard input, per tree (each is a process of its own).
STDIN_SAMPLE = 4
# Sub-folders ported alone, per tree, at most (spread over the tree's sub-folders).
ALONE_LIMIT = 12
# A tree of more Python files than this (an installed Keras or TensorFlow, TF 2 code the
# port leaves as it is) is ported with -j N, its reference too, and fewer of its
# sub-folders alone, with -j 1: -j 1 against -j N is checked there.
LARGE_TREE = 500
LARGE_ALONE_LIMIT = 4
_SHOWN = 8
# The exit statuses of a port: a file that does not parse is reported (exit 2), in every
# run alike.
PORTED = (0, 2)


@dataclass
class Outcome:
    """One tree's comparisons: check -> files compared, and the differences found."""

    name: str
    compared: Dict[str, int] = field(default_factory=dict)
    differences: Dict[str, List[str]] = field(default_factory=dict)
    # Files of SCOPED checks that differ where their facts came from other roots.
    explained: Dict[str, List[str]] = field(default_factory=dict)
    # Checks the reference port answered: it left every file as it was (IDENTITY_ANSWERS).
    by_reference: bool = False
    # Wall seconds per step ("port": the reference port; then each check's runs).
    seconds: Dict[str, float] = field(default_factory=dict)

    @contextlib.contextmanager
    def timed(self, step: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        finally:
            self.seconds[step] = self.seconds.get(step, 0.0) + time.monotonic() - started

    def count(self, check: str, files: int, differing: Sequence[str],
              explained: Sequence[str] = ()) -> None:
        self.compared[check] = self.compared.get(check, 0) + files
        self.differences.setdefault(check, []).extend(differing)
        self.explained.setdefault(check, []).extend(explained)


def _slimport(arguments: Sequence[str], deadline: _harness.Deadline, cwd: Path,
              log: Path, stdin: Optional[Path] = None) -> subprocess.CompletedProcess:
    """``python -m slimport ARGUMENTS`` in ``cwd``, bounded; its stderr to ``log``."""
    with open(log, "a") as errors:
        errors.write(f"$ slimport {' '.join(arguments)}\n")
        errors.flush()
        source = open(stdin, "rb") if stdin is not None else subprocess.DEVNULL
        try:
            return subprocess.run([sys.executable, "-m", "slimport", *arguments], cwd=cwd,
                                  stdin=source, stdout=subprocess.PIPE, stderr=errors,
                                  timeout=max(1.0, deadline.left()), check=False,
                                  env={**os.environ, "NO_COLOR": "1"})
        finally:
            if stdin is not None:
                source.close()


def _rewrite(arguments: Sequence[str], deadline: _harness.Deadline, cwd: Path, log: Path,
             allowed: Sequence[int] = (0,)) -> subprocess.CompletedProcess:
    """``slimport rewrite ARGUMENTS``; a RuntimeError when it exits otherwise than allowed
    (a file slimport cannot port exits 2: allowed where the tree has such files)."""
    ran = _slimport(["rewrite", *arguments], deadline, cwd, log)
    if ran.returncode not in allowed:
        raise RuntimeError(f"slimport rewrite {' '.join(arguments)} exited "
                           f"{ran.returncode}; see {log}")
    return ran


def _copy_python(source: Path, target: Path) -> None:
    """Copy the folders and Python files of ``source`` to ``target`` (what a port reads:
    an installed TensorFlow's shared libraries are a gigabyte it never opens)."""
    shutil.copytree(source, target, symlinks=True, ignore=lambda folder, names: [
        name for name in names if not name.endswith(".py")
        and not os.path.isdir(os.path.join(folder, name))])


def _differing(reference: Path, other: Path, names: Sequence[str]) -> List[str]:
    """The names of ``names`` whose file under ``other`` is not ``reference``'s."""
    return [name for name in names if not (other / name).is_file()
            or not filecmp.cmp(reference / name, other / name, shallow=False)]


def _sub_folders(source: Path, limit: int) -> List[Path]:
    """Folders one and two levels down that hold Python files, at most ``limit``, spread
    over the tree (every n-th, in path order)."""
    found = sorted({path.parent for path in source.rglob("*.py")
                    if 1 <= len(path.parent.relative_to(source).parts) <= 2
                    and "__pycache__" not in path.parts})
    step = max(1, -(-len(found) // limit))
    return found[::step]


def _split(names: Sequence[str], explained: Sequence[bool]) -> Tuple[List[str], List[str]]:
    """``names`` as (failures, explained differences), by ``explained``."""
    return ([name for name, known in zip(names, explained) if not known],
            [name for name, known in zip(names, explained) if known])


def _facts_from(report: Path) -> Dict[str, List[str]]:
    if not report.is_file():
        raise RuntimeError(f"slimport rewrite wrote no {report}")
    return {entry["path"]: entry["facts_from"]
            for entry in _harness.read_json(report)["files"]}


def check_tree(name: str, source: Path, work: Path, jobs: int,
               deadline: _harness.Deadline) -> Outcome:
    """Ports ``source`` every way and compares each with the reference port."""
    outcome = Outcome(name)
    for check in CHECKS:
        outcome.count(check, 0, [])
    work.mkdir(parents=True)
    log = work / "slimport.log"
    # Every run starts from the folder above the tree, so paths in reports and diffs
    # read alike: the tree's own name, then its files.
    cwd, top = source.parent, source.name
    once = work / "once"
    cache = ["--cache-dir", str(work / "cache")]
    large = sum(1 for _ in source.rglob("*.py")) > LARGE_TREE
    with outcome.timed("port"):
        _rewrite([top, "--out", str(once / top), "-j", str(jobs if large else 1), *cache,
                  "--report", str(work / "once.json"), "-q"], deadline, cwd, log, PORTED)
    reference = once / top
    report = _harness.read_json(work / "once.json")
    entries = {Path(entry["path"]).relative_to(top).as_posix(): entry
               for entry in report["files"] if entry["path"].endswith(".py")}
    ported = sorted(entries)

    # A large tree's reference ran with -j N already, as these would.
    outcome.by_reference = large and not _differing(source, reference, ported)
    if outcome.by_reference:
        for check in IDENTITY_ANSWERS:
            outcome.count(check, len(ported), [])
    else:
        _second_ports(outcome, source, reference, ported, work, jobs, deadline, log)

    with outcome.timed("diff"):
        diff = _rewrite([top, "--diff", "-j", str(jobs), *cache], deadline, cwd, log,
                        (0, 1, 2))
    patched = work / "patched" / top
    _copy_python(source, patched)
    applied = subprocess.run(["patch", "-p1", "-s", "-d", str(patched.parent)],
                             input=diff.stdout, capture_output=True, check=False,
                             timeout=max(1.0, deadline.left()))
    if applied.returncode != 0:
        raise RuntimeError(f"patch could not apply slimport's --diff of {top}: "
                           f"{applied.stdout.decode(errors='replace')[:500]}")
    outcome.count("diff", len(ported), _differing(reference, patched, ported))

    whole = _facts_from(work / "once.json")
    (work / "alone").mkdir()
    for number, folder in enumerate(_sub_folders(source, LARGE_ALONE_LIMIT if large
                                                  else ALONE_LIMIT)):
        relative = folder.relative_to(cwd).as_posix()
        alone = work / "alone" / str(number)
        report_path = work / "alone" / f"{number}.json"
        with outcome.timed("alone"):
            _rewrite([relative, "--out", str(alone), "-j", str(1 if large else jobs),
                      "--no-cache", "--report", str(report_path), "-q"], deadline, cwd, log,
                     PORTED)
        roots = {Path(path).relative_to(relative).as_posix(): facts_from
                 for path, facts_from in _facts_from(report_path).items()
                 if path.endswith(".py")}
        differing = _differing(reference / folder.relative_to(source), alone, sorted(roots))
        outcome.count("alone", len(roots), *_split(
            [f"{relative}/{name}" for name in differing],
            [whole.get(f"{relative}/{name}") != roots[name] for name in differing]))

    sample = ported[::max(1, len(ported) // STDIN_SAMPLE)][:STDIN_SAMPLE]
    differing, moved = [], []
    for name in sample:
        piped = work / "stdin.json"
        with outcome.timed("stdin"):
            ran = _slimport(["rewrite", "-", "--stdin-filename", f"{top}/{name}",
                             "--report", str(piped)], deadline, cwd, log, stdin=source / name)
        if ran.stdout != (reference / name).read_bytes():
            differing.append(name)
            moved.append(list(_facts_from(piped).values()) != [whole.get(f"{top}/{name}")])
    outcome.count("stdin", len(sample), *_split(differing, moved))

    unplaced = [f"{entry['path']}: [{finding['codemod']}] {finding['message']}"
                for entry in report["files"] for finding in entry["findings"]
                if finding["line"] == 0 or finding["source_line"] == 0]
    outcome.count("lines", sum(len(entry["findings"]) for entry in report["files"]), unplaced)

    changed = [name for name in ported if entries[name]["status"] == "changed"
               and "protos" not in entries[name]["codemods"]]
    outcome.count("comments", len(changed), [
        name for name in changed
        if _comment_lines(source / name) - _comment_lines(reference / name)])
    return outcome


def _second_ports(outcome: Outcome, source: Path, reference: Path, ported: Sequence[str],
                  work: Path, jobs: int, deadline: _harness.Deadline, log: Path) -> None:
    """The checks of IDENTITY_ANSWERS: ``--check`` over the reference, and a copy of
    ``source`` ported in place."""
    cwd, top = source.parent, source.name
    with outcome.timed("twice"):
        _rewrite([str(reference), "--check", "-j", str(jobs), "--no-cache", "--report",
                  str(work / "twice.json")], deadline, cwd, log, (0, 1, 2))
    changed = [entry["path"] for entry in _harness.read_json(work / "twice.json")["files"]
               if entry["status"] == "changed"]
    outcome.count("twice", len(ported), changed)

    in_place = work / "in_place" / top
    _copy_python(source, in_place)
    with outcome.timed("in place"):
        _rewrite([str(in_place), "-j", str(jobs), "--no-cache", "-q"], deadline, cwd, log,
                 PORTED)
    outcome.count("in place", len(ported), _differing(reference, in_place, ported))


def _comment_lines(path: Path) -> Counter:
    """The comment lines of a file (stripped), counted."""
    return Counter(line.strip() for line in path.read_text(errors="replace").splitlines()
                   if line.lstrip().startswith("#"))


def sources(name: str, unpacked: Path, cache: Path,
            deadline: _harness.Deadline) -> Dict[str, Path]:
    """The trees a corpus name stands for: label -> source directory (an installed
    package's Python files are copied first: ``--out`` would copy its libraries too)."""
    if name == "examples":
        return {f"examples/{tree.name}": tree for tree in sorted((REPO / "examples").iterdir())
                if tree.is_dir()}
    if name in PEERS:
        peer = PEERS[name]
        top = corpus.unpack(corpus.fetch(peer, cache, deadline), unpacked / name)
        if name == "magenta":  # the wheel's package, not the folder it was unpacked in
            top = top / "magenta"
        return {name: top}
    copy = unpacked / name / name
    if not copy.exists():
        _copy_python(_harness.installed_package(name), copy)
    return {name: copy}


def check_trees(trees: Dict[str, Path], base: Path, jobs: int, at_once: int,
                deadline: _harness.Deadline) -> List[Outcome]:
    """``check_tree`` of every tree, ``at_once`` at a time; the outcomes in ``trees``' order.

    Raises:
      RuntimeError, TimeoutError, subprocess.SubprocessError: a step could not run (the
        first such error; the trees still running finish first).
    """
    def check(label: str) -> Outcome:
        print(f"=== {label}: {trees[label]}", flush=True)
        outcome = check_tree(label, trees[label], base / label.replace("/", "_"), jobs,
                             deadline)
        print(f"    {label}: {sum(outcome.seconds.values()):.0f} s", flush=True)
        return outcome

    with concurrent.futures.ThreadPoolExecutor(max(1, at_once)) as pool:
        return list(pool.map(check, trees))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="*", default=list(DEFAULT), metavar="CORPUS",
                        help=f"what to port (default: all of {', '.join(DEFAULT)})")
    parser.add_argument("--cache", type=Path, default=corpus.default_cache(),
                        help="where the PyPI peers' archives are kept (default: "
                             "$SLIMPORT_CORPUS_CACHE or ~/.cache/slimport/corpus)")
    _harness.add_run_options(parser, deadline=3600.0, jobs_help="processes per rewrite")
    parser.add_argument("--trees", type=int, default=2, metavar="N",
                        help="trees checked at once (default 2: most of a tree's runs are "
                             "one process, or a process starting, so two keep 2 cores busy)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.corpora
               if name not in DEFAULT and name not in INSTALLED]
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(DEFAULT)}")
    deadline = _harness.Deadline(args.deadline)
    with tempfile.TemporaryDirectory(prefix="slimport-same-output-") as scratch:
        base = args.keep or Path(scratch)
        try:
            trees = {label: source for name in args.corpora
                     for label, source in sources(name, base / "unpacked", args.cache,
                                                  deadline).items()}
            outcomes = check_trees(trees, base, args.jobs, args.trees, deadline)
        except (RuntimeError, TimeoutError, subprocess.SubprocessError) as error:
            print(f"same_output: {error}", file=sys.stderr)
            return 2
    rows = [[check, *(f"{len(o.differences.get(check, []))} of {o.compared.get(check, 0)}"
                      + (f" (+{len(o.explained[check])})" if o.explained.get(check) else "")
                      + (" =port" if o.by_reference and check in IDENTITY_ANSWERS else "")
                      for o in outcomes)] for check in CHECKS]
    print(_harness.table(["differ", *(o.name for o in outcomes)], rows))
    steps = ("port", *(check for check in CHECKS if check not in ("lines", "comments")))
    print(_harness.table(["wall s", *(o.name for o in outcomes)],
                         [[step, *(f"{o.seconds.get(step, 0.0):.0f}" for o in outcomes)]
                          for step in steps]))
    print("=port: the reference port left every file as it was, byte for byte, so a "
          "second port and an in-place port read its own input again")
    print("(+N): files whose facts came from other roots (what shares code with the tree "
          "outside the sub-folder, or outside the file's own root for standard input), "
          "differing as they may")
    for o in outcomes:
        for check in SCOPED:
            for name in o.explained.get(check, [])[:_SHOWN]:
                print(f"  {o.name}: {check}: {name}")
    failed = False
    for o in outcomes:
        for check, names in o.differences.items():
            if names:
                failed = True
                print(f"\n{o.name}: {check}: {len(names)} differ", file=sys.stderr)
                for shown in names[:_SHOWN]:
                    print(f"  {shown}", file=sys.stderr)
                if len(names) > _SHOWN:
                    print(f"  ... and {len(names) - _SHOWN} more", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
