"""What tools/corpus.py and tools/noharm.py share: run slimport's two commands, bounded.

Both harnesses drive the real CLIs in child processes of this interpreter
(``python -m slimport rewrite``, ``python -m slimport.verify``) exactly as a user
would, read their JSON reports, and print fixed-width tables. Every child runs in
its own session and is killed with its whole process group when the harness's
deadline passes or the harness stops.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence


class Deadline:
    """The time left of a harness run, for every child it starts."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return self.end - time.monotonic()


@dataclass
class Ran:
    """A finished child: its exit code and wall time (output went to the terminal or a file)."""

    returncode: int
    seconds: float


def run(command: Sequence[str], deadline: Deadline, log: Optional[Path] = None,
        env: Optional[Dict[str, str]] = None, cwd: Optional[Path] = None) -> Ran:
    """Runs ``command`` in its own session (in ``cwd``); output to ``log`` (or through).

    Raises:
      TimeoutError: the deadline passed; the command's process group was killed.
    """
    child_env = dict(os.environ, **(env or {}))
    child_env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    started = time.monotonic()
    output = open(log, "w") if log else None
    try:
        process = subprocess.Popen(list(command), stdout=output, stderr=subprocess.STDOUT
                                   if output else None, env=child_env, cwd=cwd,
                                   start_new_session=True)
        try:
            returncode = process.wait(timeout=max(1.0, deadline.left()))
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            if deadline.left() <= 0:
                raise TimeoutError(f"{' '.join(command[:4])} ... did not finish within the "
                                   f"harness's {deadline.seconds:.0f} s") from None
            raise
    finally:
        if output:
            output.close()
    return Ran(returncode, time.monotonic() - started)


def rewrite(source: Path, out: Path, report: Path, deadline: Deadline,
            log: Optional[Path] = None, jobs: Optional[int] = None) -> Ran:
    """``slimport rewrite SOURCE --out OUT --report REPORT [-j JOBS]`` (a harness gives
    its ``-j``: the default reads the load average, which lags behind a harness's own
    runs just before, and would port a large tree in one process)."""
    return run([sys.executable, "-m", "slimport", "rewrite", str(source), "--out", str(out),
                "--report", str(report), *(["-j", str(jobs)] if jobs is not None else [])],
               deadline, log)


def verify(tree: Path, arguments: Sequence[str], report: Path, deadline: Deadline,
           log: Optional[Path] = None, env: Optional[Dict[str, str]] = None) -> Ran:
    """``python -m slimport.verify TREE ARGUMENTS --report REPORT`` (what slimport verify runs)."""
    return run([sys.executable, "-m", "slimport.verify", str(tree), *arguments,
                "--report", str(report)], deadline, log, env)


def add_run_options(parser: argparse.ArgumentParser, deadline: float, jobs_help: str) -> None:
    """--keep, -j and --deadline, as both harnesses take them."""
    parser.add_argument("--keep", type=Path,
                        help="keep the unpacked or ported trees and every report here")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help=f"{jobs_help} (default: CPU count)")
    parser.add_argument("--deadline", type=float, default=deadline,
                        help=f"seconds for the whole run (default {deadline:.0f})")


def run_each(names: Sequence[str], check: Callable[[str, Path], object], keep: Optional[Path],
             label: str) -> Optional[List[object]]:
    """``check(name, workdir)`` for each name, in a scratch directory (or ``keep``).

    Returns the outcomes, or None when a step could not run (the reason is printed).
    """
    # SIGTERM (tox stopping, a CI timeout) unwinds through run(), which kills the
    # running child's process group.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    with tempfile.TemporaryDirectory(prefix=f"slimport-{label}-") as scratch:
        base = keep or Path(scratch)
        try:
            return [check(name, base / name) for name in names]
        except (RuntimeError, TimeoutError, subprocess.SubprocessError) as error:
            print(f"{label}: {error}", file=sys.stderr)
            return None


def installed_package(name: str) -> Path:
    """The directory of an installed package (found, not imported)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"{name} is not an installed package")
    return Path(list(spec.submodule_search_locations)[0]).resolve()


@dataclass
class Case:
    """One test of a junit XML report (pytest's or absltest's)."""

    classname: str
    name: str
    outcome: str  # passed, failed (a failure or an error) or skipped
    text: str  # the traceback of a failed test, else ""


def junit_cases(path: Path) -> List[Case]:
    """Every <testcase> of a junit XML file, as pytest and absltest write them."""
    cases = []
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        outcome, text = "passed", ""
        # absltest marks a test it did not run (a suppressed ``test_session``) by status.
        if case.get("status") == "notrun" or case.get("result") == "skipped":
            outcome = "skipped"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
                # A blank line between: the message must not read as the traceback's tail.
                text = "\n\n".join(part for part in (child.text, child.get("message")) if part)
            elif child.tag == "skipped":
                outcome = "skipped"
        cases.append(Case(case.get("classname") or "", case.get("name") or "", outcome, text))
    return cases


def read_json(path: Path) -> dict:
    with open(path) as report_file:
        return json.load(report_file)


def table(header: Sequence[str], rows: List[Sequence[object]]) -> str:
    """A left-aligned first column and right-aligned others, as README tables read."""
    cells = [[str(cell) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = []
    for row in cells:
        lines.append("  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i])
                               for i, cell in enumerate(row)))
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)
