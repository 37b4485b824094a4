"""kill -9 an in-place rewrite: every file is the old or the new version, never partial,
running the rewrite again finishes the job, and no process of the run outlives it.

Two kinds of kill: after a random number of files has been written (seeded, so CI
repeats them), and at the exact points inside ``engine.atomic_write`` a random kill
rarely hits (half-written temp file, complete temp file, just before the rename), via
tests/reliability/_killed_rewrite.py. Ctrl-C stops a run cleanly: exit 130, what was
and was not done, no traceback, no worker left, and it does not wait for the files
being ported: every output is complete or absent. The run is held still at its N-th
written file, or inside the port of a file that never ends by itself
(tests/reliability/_held_rewrite.py: the engine's RunObserver hook), before the signal
is sent, so the signal always lands
where the test wants it, on an idle machine as on a loaded one.
"""
from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict

import pytest

from slimport.engine import TEMP_SUFFIX
from tests.reliability import _held_rewrite as held
from tests._procs import Proc, ProcessSet, descendants, kill_all, wait_gone
from tests.slimport.conftest import write_tree

HERE = Path(__file__).resolve().parent
HELD_REWRITE = HERE / "_held_rewrite.py"
FILE_COUNT = 30
RANDOM_KILLS = 5
SEED = 6
RUN_TIMEOUT_SECS = 120
# A pool worker polls for its parent every 0.2 s; generous for a loaded machine.
ORPHAN_EXIT_SECS = 15


def _module(index: int) -> str:
    # Distinct files of a few sizes, all needing the same kind of port.
    layers = "\n".join(f"  net = slim.conv2d(net, {8 * (j + 1)}, [3, 3], scope='conv{j}')"
                       for j in range(1 + index % 7))
    return (f'"""Net {index}."""\nimport tensorflow as tf\n\nslim = tf.contrib.slim\n\n\n'
            f"def net_{index}(net):\n{layers}\n  return net\n")


def _tree() -> Dict[str, str]:
    files = {f"nets/net_{i:02d}.py": _module(i) for i in range(FILE_COUNT)}
    files["README.txt"] = "not Python\n"
    files["nets/__init__.py"] = ""
    return files


def _python_files(root: Path) -> Dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def _temp_files(root: Path) -> list:
    return sorted(p.name for p in root.rglob("*" + TEMP_SUFFIX))


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Dict[str, Dict[str, bytes]]:
    """The tree before and after one uninterrupted in-place run."""
    root = write_tree(tmp_path_factory.mktemp("reference") / "src", _tree())
    before = _python_files(root)
    done = subprocess.run([sys.executable, "-m", "slimport", "rewrite", str(root)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_SECS)
    assert done.returncode == 0, done.stderr
    after = _python_files(root)
    changed = [name for name in before if before[name] != after[name]]
    assert len(changed) == FILE_COUNT, changed
    return {"before": before, "after": after}


def _assert_old_or_new(root: Path, reference) -> int:
    """Every Python file is the old or the new version; returns how many are new."""
    now = _python_files(root)
    assert sorted(now) == sorted(reference["before"])
    new = 0
    for name, data in now.items():
        if data == reference["after"][name]:
            new += data != reference["before"][name]
        else:
            assert data == reference["before"][name], f"{name} is neither old nor new:\n{data!r}"
    return new


def _finish_and_compare(root: Path, reference, slimport_cli) -> None:
    rerun = slimport_cli("rewrite", str(root), timeout=RUN_TIMEOUT_SECS)
    assert rerun.returncode == 0, rerun.stderr
    assert _python_files(root) == reference["after"]
    assert _temp_files(root) == []
    assert (root / "README.txt").read_text() == "not Python\n"


# Every held run ports without the cache, so that none depends on what other runs left in
# the default one (.slimport_cache in the working directory, shared by every run of the
# tests there): a file it already held was written by the run's own process, not a pool
# worker, and an after-writes run of -j 2 was held with no worker to kill.
HELD_RUN_OPTIONS = ("--no-cache",)


def _held_after_writes(procs: ProcessSet, root: Path, jobs: str, after: int, hold: Path,
                  log: Path) -> Proc:
    """``slimport rewrite ROOT -j JOBS``, held still once ``after`` files are written."""
    hold.mkdir()
    proc = procs.start_python([str(HELD_REWRITE), "after-writes", str(after), str(hold),
                               "rewrite", str(root), "-j", jobs, *HELD_RUN_OPTIONS], log,
                              name="slimport")
    deadline = time.monotonic() + RUN_TIMEOUT_SECS
    while not (hold / held.HELD).exists():
        assert proc.returncode() is None, f"the run ended before it was held:\n{proc.log()}"
        assert time.monotonic() < deadline, f"the run was never held:\n{proc.log()}"
        time.sleep(0.01)
    return proc


def _assert_workers_end(workers: list) -> None:
    """The pool workers of a killed run exit by themselves; stopped by pid if not."""
    left = wait_gone(workers, ORPHAN_EXIT_SECS)
    kill_all(left)
    assert not left, f"pool workers {left} outlived the killed slimport run"


def test_random_kills_lose_nothing(reference, slimport_cli, tmp_path: Path, make_tree) -> None:
    rng = random.Random(SEED)
    landed = []
    for round_index in range(RANDOM_KILLS):
        root = make_tree(tmp_path / f"round{round_index}" / "src", _tree())
        kill_after = rng.randint(1, FILE_COUNT - 2)
        with ProcessSet() as procs:
            proc = _held_after_writes(procs, root, "2", kill_after, tmp_path / f"hold{round_index}",
                                 tmp_path / f"round{round_index}.log")
            workers = descendants(proc.pid)
            proc.popen.send_signal(signal.SIGKILL)
            code = proc.wait(30)
        assert code == -signal.SIGKILL, proc.log()
        assert len(workers) == 2, workers
        _assert_workers_end(workers)
        new = _assert_old_or_new(root, reference)
        landed.append(new)
        # Each of the two workers writes at most one file after the count is reached.
        assert kill_after <= new <= kill_after + 1 < FILE_COUNT
        _finish_and_compare(root, reference, slimport_cli)
    # The kills landed at different points of the run, not all at one place.
    assert len(set(landed)) > 1, landed


@pytest.mark.parametrize("point", ["write", "fsync", "replace"])
def test_kill_inside_atomic_write_loses_nothing(point: str, reference, slimport_cli,
                                                tmp_path: Path, make_tree) -> None:
    root = make_tree(tmp_path / "src", _tree())
    with ProcessSet() as procs:
        # -j 1: the patched writes are this process's own, not a pool worker's; no cache:
        # its entries' writes would count among the N.
        proc = procs.start_python([str(HERE / "_killed_rewrite.py"), point, "3", "rewrite",
                                   str(root), "-j", "1", "--no-cache"], tmp_path / "killed.log",
                                  name="killed")
        code = proc.wait(RUN_TIMEOUT_SECS)
    assert code == -signal.SIGKILL, proc.log()
    assert _assert_old_or_new(root, reference) == 2
    # The third file's temp file is left behind, and only it.
    leftovers = _temp_files(root)
    assert len(leftovers) == 1, leftovers
    assert leftovers[0].startswith(".net_02.py.")
    _finish_and_compare(root, reference, slimport_cli)


def test_leftover_temp_file_is_not_copied_by_out(tmp_path: Path, make_tree,
                                                 slimport_cli) -> None:
    src = make_tree(tmp_path / "src", {"a.py": _module(0),
                                       ".a.py.k2j3" + TEMP_SUFFIX: "half a fi"})
    before = (src / (".a.py.k2j3" + TEMP_SUFFIX)).read_bytes()
    result = slimport_cli("rewrite", "src", "--out", "ported")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "ported").iterdir()) == ["a.py"]
    # --out never touches the source, not even to clean up.
    assert (src / (".a.py.k2j3" + TEMP_SUFFIX)).read_bytes() == before



DYING_WORKER = """
import os, signal, sys
from slimport import cli
from slimport.engine import port
port_source = port.port_source
def dies_on_f3(data, filename, *args, **kwargs):
    if filename.endswith("f3.py"):
        os.kill(os.getpid(), signal.SIGKILL)
    return port_source(data, filename, *args, **kwargs)
port.port_source = dies_on_f3
sys.exit(cli.main(["rewrite", "src", "-j", "2"]))
"""


def test_a_killed_pool_worker_is_reported_and_loses_nothing(tmp_path: Path) -> None:
    source = "import tensorflow as tf\nslim = tf.contrib.slim\n"
    for index in range(6):
        (tmp_path / "src").mkdir(exist_ok=True)
        (tmp_path / "src" / f"f{index}.py").write_text(source)
    done = subprocess.run([sys.executable, "-c", DYING_WORKER], cwd=tmp_path,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_SECS)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "f3.py: the worker process porting it died" in done.stdout + done.stderr
    for path in (tmp_path / "src").iterdir():
        assert path.read_text() in (source, "import tf_slim as slim\nimport slim_ext\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_cleanly(jobs: str, reference, slimport_cli, tmp_path: Path,
                              make_tree) -> None:
    root = make_tree(tmp_path / "src", _tree())
    with ProcessSet() as procs:
        proc = _held_after_writes(procs, root, jobs, 3, tmp_path / "hold",
                             tmp_path / "interrupted.log")
        workers = descendants(proc.pid)
        proc.popen.send_signal(signal.SIGINT)
        code = proc.wait(RUN_TIMEOUT_SECS)
    log = proc.log()
    assert code == 130, log
    assert "Traceback" not in log
    _assert_workers_end(workers)
    # The files written when Ctrl-C came are kept (each worker writes at most one
    # after the count is reached); the ports in progress are dropped.
    new = _assert_old_or_new(root, reference)
    assert 3 <= new <= 3 + int(jobs) - 1 < FILE_COUNT
    _assert_says_what_was_done(log, new)
    _finish_and_compare(root, reference, slimport_cli)


def _assert_says_what_was_done(log: str, ported: int) -> None:
    """The summary lists the ``ported`` files, the last line the counts."""
    assert f"Changed ({ported}):" in log or ported == 0, log
    done, left = map(int, re.search(
        r"slimport: interrupted: (\d+) of (?:\d+) Python files done, (\d+) left as they were "
        r"\(every file is whole\): run the same command again to finish\n", log).groups())
    # nets/__init__.py is a Python file too, unchanged whenever it is done.
    assert done in (ported, ported + 1) and done + left == FILE_COUNT + 1, log


def _held_in_porting(procs: ProcessSet, arguments: list, held_file: str, hold: Path,
                     log: Path) -> Proc:
    """``slimport ARGUMENTS``, held inside the port of ``held_file``, which never ends."""
    hold.mkdir()
    proc = procs.start_python([str(HELD_REWRITE), "in-port", held_file, str(hold),
                               *arguments, *HELD_RUN_OPTIONS], log, name="slimport")
    deadline = time.monotonic() + RUN_TIMEOUT_SECS
    while not (hold / held.HELD_IN).exists():
        assert proc.returncode() is None, f"the run ended before it was held:\n{proc.log()}"
        assert time.monotonic() < deadline, f"the run was never held:\n{proc.log()}"
        time.sleep(0.01)
    return proc


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("out", [False, True], ids=["in-place", "out"])
def test_ctrl_c_does_not_wait_for_the_file_being_ported(jobs: str, out: bool, reference,
                                                        tmp_path: Path, make_tree) -> None:
    # The held port never finishes by itself: a run that waited for the files in
    # progress would never end (and a released one would write it).
    root = make_tree(tmp_path / "src", _tree())
    held = "net_05.py"
    ported = tmp_path / "ported"
    arguments = ["rewrite", str(root), "-j", jobs, *(["--out", str(ported)] if out else [])]
    with ProcessSet() as procs:
        proc = _held_in_porting(procs, arguments, held, tmp_path / "hold",
                                tmp_path / "interrupted.log")
        workers = descendants(proc.pid)
        proc.popen.send_signal(signal.SIGINT)
        code = proc.wait(RUN_TIMEOUT_SECS)
    log = proc.log()
    assert code == 130, log
    assert "Traceback" not in log
    _assert_workers_end(workers)
    if out:
        written = _python_files(ported)
        assert f"nets/{held}" not in written
        for name, data in written.items():
            assert data == reference["after"][name], f"{name} is not complete"
        assert _python_files(root) == reference["before"], "--out never touches the source"
        assert (ported / "README.txt").read_text() == "not Python\n"
        done = len(written)
        done = len([name for name in written if name != "nets/__init__.py"])
        there = len(written)
        assert (f"slimport: interrupted: {ported} has {there} of the {FILE_COUNT + 1} "
                f"Python files, each complete; the other {FILE_COUNT + 1 - there} are not "
                f"there: run the same command again with --force to finish") in log
        assert _temp_files(ported) == []
    else:
        assert (root / "nets" / held).read_bytes() == reference["before"][f"nets/{held}"]
        done = _assert_old_or_new(root, reference)
        _assert_says_what_was_done(log, done)
        assert _temp_files(root) == []
    assert done < FILE_COUNT
