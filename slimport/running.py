"""Run a plan: the other jobs first (directories, copies, links), then the Python
files, in this process or in a pool of worker processes.

A run never stops halfway because of one file: each file's problems come back as
its FileResult (``writing.port_file``), and a pool worker that dies takes only the
files it held with it (reported, never half-written). Workers never outlive the
run: each watches its parent and exits when that process is gone (``kill -9`` of
``slimport`` leaves nothing behind), and Ctrl-C stops the run after the files in
progress, with no traceback from the workers.
"""
from __future__ import annotations

import concurrent.futures
import os
import signal
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, List

from slimport import hold_for_tests
from slimport.planning import COPY, PORT, Job, Plan
from slimport.report import FAILED, FileResult
from slimport.writing import Settings, place, port_file

# How often a pool worker checks that the process that started it is still there.
PARENT_POLL_SECS = 0.2
# Exit status of a worker whose parent died (EX_SOFTWARE-like, never seen by a user).
ORPHANED_EXIT = 70


@dataclass
class RunResult:
    """Per-path results (sorted by path) and how many other files --out copied."""

    results: List[FileResult]
    copied: int = 0


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECS)
    os._exit(ORPHANED_EXIT)  # no cleanup: the parent is gone, and writes are atomic


def _start_worker() -> None:
    """Pool worker set-up: Ctrl-C is the parent's to handle; exit with the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True,
                     name="slimport-parent-watch").start()


def _size_or_zero(job: Job) -> int:
    try:
        return job.source.stat().st_size
    except OSError:
        return 0  # port_file reports why it cannot be read


def _worker_died(job: Job) -> FileResult:
    return FileResult(path=job.display, status=FAILED, error=(
        "the worker process porting it died (killed, or out of memory); the file is "
        "whole, as it was or ported if its write had finished; run again, with -j 1 to "
        "use one process"))


def _port_in_pool(jobs: List[Job], settings: Settings, workers: int,
                  on_done: Callable[[FileResult], None]) -> List[FileResult]:
    results: List[FileResult] = []
    futures: Dict[concurrent.futures.Future, Job] = {}
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers,
                                                  initializer=_start_worker)
    try:
        # Largest first, so that no big file is left running alone at the end.
        for job in sorted(jobs, key=_size_or_zero, reverse=True):
            futures[pool.submit(port_file, job, settings)] = job
        for future in concurrent.futures.as_completed(futures):
            try:
                result = future.result()
            except concurrent.futures.process.BrokenProcessPool:
                # A worker was killed (out of memory, a signal): every file it and
                # the pool still held is reported, none is half-written.
                result = _worker_died(futures[future])
            on_done(result)
            results.append(result)
    except BaseException:
        # Ctrl-C (or a bug in on_done): start no more files (a future not yet handed to
        # a worker cancels), finish those being written.
        for future in futures:
            future.cancel()
        hold_for_tests.release()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return results


def run(the_plan: Plan, settings: Settings, jobs: int = 1,
        on_done: Callable[[FileResult], None] = lambda result: None) -> RunResult:
    """Carry out ``the_plan``.

    Args:
      the_plan: from ``planning.plan``.
      settings: codemods, their options, write/diff.
      jobs: worker processes for the Python files; 1 ports them in this process.
        Never more processes than files.
      on_done: called with each Python file's result as it completes (progress).

    Returns:
      RunResult with results sorted by path.
    """
    results: List[FileResult] = list(the_plan.skipped)
    copied = 0
    for job in the_plan.jobs:
        if job.kind == PORT:
            continue
        failure = place(job)
        if failure is not None:
            results.append(failure)
        elif job.kind == COPY:
            copied += 1

    python_jobs = the_plan.python_jobs
    if jobs <= 1 or len(python_jobs) <= 1:
        for job in python_jobs:
            result = port_file(job, settings)
            on_done(result)
            results.append(result)
    else:
        results += _port_in_pool(python_jobs, settings, min(jobs, len(python_jobs)), on_done)
    results.sort(key=lambda result: result.path)
    return RunResult(results, copied)
