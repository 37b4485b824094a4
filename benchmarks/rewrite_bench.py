"""Rewrite throughput: slimport vs tf_upgrade_v2 vs the bare libcst floor.

Each run of a tool is a whole process started through ``_measure.py``, so wall
time, CPU time and peak RSS include interpreter start-up and imports, as a user
sees them. Runs are paired (A B C A B C ...): a change of machine load during
the benchmark hits every tool alike.

Tools:
  slimport       ``python -m slimport rewrite SRC --out OUT`` (default settings: one
                 process per CPU; CPU time includes the pool's processes, peak RSS is
                 the largest single process), with an empty cache (``--cache-dir``, a
                 fresh directory each run): a first run, paying the cache's writes
  slimport -j 1  the same in one process
  slimport -j 2  the same in two processes (the large tree only)
  tf_upgrade_v2  ``tf_upgrade_v2 --intree SRC --outtree OUT`` (ships with tensorflow)
  libcst floor   ``libcst_floor.py SRC OUT``: parse + codegen + write, no transformer
  libcst floor, 2 processes  the same, its files dealt to two processes at once (the
                 large tree only): how much faster two processes of this work can be on
                 the machine, the ceiling ``-j 2 / -j 1`` is read against
"""
from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

import _stats
import synthetic_tree

HERE = Path(__file__).resolve().parent
MEASURE = HERE / "_measure.py"
FLOOR = HERE / "libcst_floor.py"
# The floor's files dealt to two processes at once: the machine's ceiling for -j 2.
FLOOR_TWO = "libcst floor, 2 processes"


class BenchmarkError(RuntimeError):
    """A measured command failed; the message names it and shows its log's end."""


@dataclass
class Tool:
    """A rewrite tool: its name and how to run it from SRC into a fresh OUT."""

    name: str
    command: Callable[[Path, Path], List[str]]


def _tf_upgrade_v2() -> str:
    beside_python = Path(sys.executable).parent / "tf_upgrade_v2"
    found = beside_python if beside_python.exists() else shutil.which("tf_upgrade_v2")
    if not found:
        raise BenchmarkError("tf_upgrade_v2 not found beside this Python or on PATH; "
                             "it ships with the tensorflow package: pip install tensorflow")
    return str(found)


def _cache_of(out: Path) -> Path:
    """The cache directory of a slimport run writing ``out`` (removed with it)."""
    return out.with_name(out.name + ".cache")


def _slimport(*arguments: str) -> List[str]:
    return [sys.executable, "-m", "slimport", "rewrite", *arguments]


def _slimport_jobs(jobs: str) -> Tool:
    return Tool(f"slimport -j {jobs}", lambda src, out: _slimport(
        str(src), "--out", str(out), "-j", jobs, "--cache-dir", str(_cache_of(out))))


def tools(two_processes: bool = False) -> List[Tool]:
    """The tools compared, in the order each round runs them; ``two_processes`` adds
    ``slimport -j 2`` and the floor in two processes (the large tree's rows: what two
    processes win over one, and what they can win on this machine)."""
    upgrade = _tf_upgrade_v2()
    return [
        Tool("slimport", lambda src, out: _slimport(str(src), "--out", str(out),
                                                    "--cache-dir", str(_cache_of(out)))),
        _slimport_jobs("1"),
        *([_slimport_jobs("2")] if two_processes else []),
        Tool("tf_upgrade_v2", lambda src, out: [
            sys.executable, upgrade, "--intree", str(src), "--outtree", str(out),
            "--reportfile", str(out) + ".report.txt"]),
        Tool("libcst floor", lambda src, out: [sys.executable, str(FLOOR), str(src), str(out)]),
        *([Tool(FLOOR_TWO, lambda src, out: [sys.executable, str(FLOOR), str(src), str(out),
                                             "--processes", "2"])] if two_processes else []),
    ]


@functools.lru_cache(maxsize=None)
def _slimport_compiled() -> None:
    """Compile the slimport package the measured runs import to bytecode, once.

    pip compiles every module of a wheel it installs, as it did TensorFlow's and
    libcst's. A source tree run with PYTHONDONTWRITEBYTECODE set (as some images do)
    would compile slimport's modules again in every measured run: about 0.1 s of CPU the
    other tools do not pay.
    """
    where = subprocess.run(
        [sys.executable, "-c", "import os, slimport; print(os.path.dirname(slimport.__file__))"],
        capture_output=True, text=True, check=False)
    if where.returncode != 0:
        raise BenchmarkError(f"slimport does not import: {where.stderr}")
    subprocess.run([sys.executable, "-m", "compileall", "-q", where.stdout.strip()],
                   capture_output=True, check=True)


def measure(command: Sequence[str], log: Path) -> Dict[str, float]:
    """Runs `command` in its own process; returns its wall, cpu (s) and peak_mb.

    Raises:
      BenchmarkError: the command exited non-zero (the error carries its log's end).
    """
    _slimport_compiled()
    wrapper = subprocess.run([sys.executable, str(MEASURE), str(log), "--", *command],
                             capture_output=True, text=True, check=False)
    if wrapper.returncode != 0:
        raise BenchmarkError(f"measuring {' '.join(command)} failed: {wrapper.stderr}")
    sample = json.loads(wrapper.stdout.strip().splitlines()[-1])
    if sample["returncode"] != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise BenchmarkError(f"{' '.join(command)} exited {sample['returncode']}; "
                             f"log {log} ends with:\n{tail}")
    return sample


@dataclass
class Samples:
    """Every run of one tool on one tree."""

    wall: List[float] = field(default_factory=list)
    cpu: List[float] = field(default_factory=list)
    peak_mb: List[float] = field(default_factory=list)

    def add(self, sample: Dict[str, float]) -> None:
        self.wall.append(sample["wall"])
        self.cpu.append(sample["cpu"])
        self.peak_mb.append(sample["peak_mb"])


def paired_runs(source: Path, work: Path, runs: int, progress: Callable[[str], None],
                two_processes: bool = False) -> Dict[str, Samples]:
    """Runs every tool `runs` times on `source`, interleaved A B C A B C ...

    Returns:
      Samples by tool name.
    """
    compared = tools(two_processes)
    samples = {tool.name: Samples() for tool in compared}
    for round_index in range(runs):
        for tool in compared:
            out = work / f"out-{tool.name.replace(' ', '_')}"
            for scratch in (out, _cache_of(out)):
                shutil.rmtree(scratch, ignore_errors=True)
            sample = measure(tool.command(source, out), work / f"{out.name}.log")
            samples[tool.name].add(sample)
            progress(f"  run {round_index + 1}/{runs} {tool.name}: {sample['wall']:.2f} s wall,"
                     f" {sample['cpu']:.2f} s cpu, {sample['peak_mb']:.0f} MB")
            for scratch in (out, _cache_of(out)):
                shutil.rmtree(scratch, ignore_errors=True)
    return samples


def _tree_size(root: Path) -> tuple:
    files = sorted(root.rglob("*.py"))
    return len(files), sum(path.read_bytes().count(b"\n") for path in files)


def comparison_table(samples: Dict[str, Samples]) -> str:
    """One row per tool, then slimport's ratios to the others (those of each round's
    runs: median and range)."""
    rows = [[name, _stats.spread(s.wall), _stats.spread(s.cpu), _stats.spread(s.peak_mb, 0)]
            for name, s in samples.items()]
    for ours_name, other in (("slimport", "tf_upgrade_v2"), ("slimport", "libcst floor"),
                             ("slimport -j 1", "tf_upgrade_v2"),
                             ("slimport -j 1", "libcst floor"),
                             ("slimport -j 2", "slimport -j 1"),
                             (FLOOR_TWO, "libcst floor"),
                             ("slimport", "slimport -j 1")):
        if ours_name not in samples or other not in samples:
            continue
        ours, theirs = samples[ours_name], samples[other]
        rows.append([f"{ours_name} / {other}", _stats.paired_ratio(ours.wall, theirs.wall),
                     _stats.paired_ratio(ours.cpu, theirs.cpu),
                     _stats.paired_ratio(ours.peak_mb, theirs.peak_mb)])
    return _stats.table(["tool", "wall s, median (min–max)", "CPU s", "peak RSS MB"], rows)


def compare(label: str, source: Path, work: Path, runs: int,
            progress: Callable[[str], None], two_processes: bool = False
            ) -> Tuple[str, "Measured"]:
    """The comparison section for one tree, and its measurements (with a ``-j 2`` row
    when ``two_processes``)."""
    files, lines = _tree_size(source)
    progress(f"rewrite: {label} ({files} files, {lines} lines), {runs} paired runs")
    samples = paired_runs(source, work, runs, progress, two_processes)
    section = (f"### Rewrite: {label}: {files} files, {lines} lines, "
               f"{runs} paired runs\n\n{comparison_table(samples)}")
    return section, Measured(files, lines, samples)


def second_check(label: str, source: Path, work: Path, runs: int,
                 progress: Callable[[str], None]) -> str:
    """The CI / pre-commit gate over an already ported tree: ``rewrite --check`` with an
    empty cache, then again with nothing changed (every file a cache hit), paired.

    Args:
      label: the tree's name in the table.
      source: the TF1 tree; its port (made once, not measured) is what is checked.
      work: scratch directory.
      runs: paired runs.
      progress: prints one line of progress.

    Returns:
      The markdown section.
    """
    ported = work / "check-ported"
    shutil.rmtree(ported, ignore_errors=True)
    measure(_slimport(str(source), "--out", str(ported), "--no-cache"), work / "check-port.log")
    cache = work / "check-cache"
    first, second = Samples(), Samples()
    progress(f"rewrite --check: the port of {label}, first run then nothing changed, "
             f"{runs} paired runs")
    for round_index in range(runs):
        shutil.rmtree(cache, ignore_errors=True)
        for name, samples in (("first", first), ("second", second)):
            sample = measure(_slimport(str(ported), "--check", "--cache-dir", str(cache)),
                             work / f"check-{name}.log")
            samples.add(sample)
            progress(f"  run {round_index + 1}/{runs} --check, {name} run: {sample['wall']:.2f} s"
                     f" wall, {sample['cpu']:.2f} s cpu, {sample['peak_mb']:.0f} MB")
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(ported, ignore_errors=True)
    rows = [["first run (empty cache)", _stats.spread(first.wall), _stats.spread(first.cpu),
             _stats.spread(first.peak_mb, 0)],
            ["second run, nothing changed", _stats.spread(second.wall),
             _stats.spread(second.cpu), _stats.spread(second.peak_mb, 0)],
            ["second / first", _stats.paired_ratio(second.wall, first.wall),
             _stats.paired_ratio(second.cpu, first.cpu),
             _stats.paired_ratio(second.peak_mb, first.peak_mb)]]
    return (f"### `slimport rewrite --check` over the port of {label}: second run, nothing "
            f"changed ({runs} paired runs, default -j)\n\n"
            + _stats.table(["run", "wall s, median (min–max)", "CPU s", "peak RSS MB"], rows))


@dataclass
class Measured:
    """The samples of every tool on one tree, with the tree's size."""

    files: int
    lines: int
    samples: Dict[str, Samples]


def scaling(sizes: Sequence[int], runs_for: Callable[[int], int], work: Path, seed: int,
            progress: Callable[[str], None], known: Dict[int, Measured]) -> str:
    """How cost grows with the tree: wall, CPU and CPU ms per 1000 lines at each size.

    Args:
      sizes: corpus sizes in files.
      runs_for: paired runs to do at a size.
      work: scratch directory.
      seed: corpus seed.
      progress: prints one line of progress.
      known: sizes already measured (by `compare` on the same corpus), reused.
    """
    rows = []
    for size in sizes:
        if size in known:
            measured = known[size]
        else:
            source = work / f"corpus-{size}"
            files, lines = synthetic_tree.build(source, size, seed)
            runs = runs_for(size)
            progress(f"scaling: {files} files, {lines} lines, {runs} paired runs")
            measured = Measured(files, lines, paired_runs(source, work, runs, progress))
            shutil.rmtree(source)
        files, lines = measured.files, measured.lines
        for name, s in measured.samples.items():
            cpu = _stats.median(s.cpu)
            rows.append([files, lines, name, _stats.spread(s.wall), _stats.spread(s.cpu),
                         f"{cpu * 1e6 / lines:.0f}", _stats.spread(s.peak_mb, 0)])
    return ("### Rewrite cost against tree size\n\n"
            + _stats.table(["files", "lines", "tool", "wall s", "CPU s",
                            "CPU ms per 1000 lines", "peak RSS MB"], rows))
