"""Run a plan: the other jobs first (directories, copies, links), then the Python
files, in this process or in a pool of worker processes.

A run never stops halfway because of one file: each file's problems come back as
its FileResult (``writing.port_file``), and a pool worker that dies takes only the
files it held with it (reported, never half-written). Workers never outlive the
run: each watches its parent and exits when that process is gone (``kill -9`` of
``slimport`` leaves nothing behind).

Ctrl-C stops the run at once (``slimport.engine.stopping``): the files being ported are
dropped where they are, those being written are finished, no other file is
started, and ``Interrupted`` carries what was done. The parent passes the Ctrl-C on
to its workers, so a signal sent to it alone (``kill -INT``) stops them too.

After the Python files, a run regenerates the tree's stale generated protobuf modules
when the settings ask for it (``slimport.engine.protos``); those it leaves to protoc
(``PortSettings.stale_protos_to_protoc``) are not ported first, and one protoc fails on
is ported then. A ``RunObserver`` given to
``run_plan`` hears of each file about to be ported and each file written, in the
process doing it (the tests hold a run still at an exact point with one).
"""
from __future__ import annotations

import concurrent.futures
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional

from slimport.analysis import file_reads
from slimport.engine import protos, stopping
from slimport.engine.plan import COPY, PORT, Job, Plan
from slimport.output.results import CHANGED, FAILED, FileResult, TreeFinding
from slimport.engine.cache import FileCache
from slimport.engine.jobs import Known, PortSettings, place, port_file, read_regular

# ``-j 0``: below this many bytes of Python to port (about 7k lines, 2 s of porting),
# one process. A pool pays for its start, for the parent's share of the run, and for
# two processes sharing one L3 and the memory bus (CPU +15% a file): on less it wins
# little or nothing.
POOL_MIN_BYTES = 256 << 10
# How often a pool worker checks that the process that started it is still there.
PARENT_POLL_SECS = 0.2
# Exit status of a worker whose parent died (EX_SOFTWARE-like, never seen by a user).
ORPHANED_EXIT = 70


class RunObserver:
    """What a run tells about its progress, in the process doing the work (a pool
    worker's, under ``-j``); this one listens to nothing. It crosses to pool workers
    pickled, so a subclass must be importable there."""

    def before_port(self, source: Path) -> None:
        """``source`` is about to be read and ported."""

    def after_write(self) -> None:
        """A ported file was written."""

    def interrupted(self) -> None:
        """Ctrl-C stopped the run; the files not started were cancelled."""


# The observer of a run nobody watches.
NO_OBSERVER = RunObserver()


@dataclass
class RunResult:
    """Per-path results (sorted by path), how many other files --out copied, and the
    findings about the tree as a whole."""

    results: List[FileResult]
    copied: int = 0
    tree_findings: List[TreeFinding] = field(default_factory=list)


class Interrupted(Exception):
    """Ctrl-C stopped the run: what was done, and how many Python files were not."""

    def __init__(self, done: RunResult, python_done: int, python_total: int) -> None:
        super().__init__("interrupted")
        self.done, self.python_done, self.python_total = done, python_done, python_total


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECS)
    os._exit(ORPHANED_EXIT)  # no cleanup: the parent is gone, and writes are atomic


# A pool worker's settings, given once when it starts (not pickled with every file).
_worker_settings: Optional[PortSettings] = None


def _start_worker(settings: PortSettings, originals: Mapping[str, bytes]) -> None:
    """Pool worker set-up: the run's settings and the files as the run read them;
    Ctrl-C interrupts a port, never a write; exit with the parent."""
    global _worker_settings
    _worker_settings = settings
    file_reads.read_as(originals)
    stopping.install(in_worker=True)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True,
                     name="slimport-parent-watch").start()


def usable_cpus() -> int:
    """The CPUs this process may run on that other work does not hold now: those of
    its affinity mask less the 1-minute load average (rounded), at least 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    try:
        busy = int(os.getloadavg()[0] + 0.5)
    except (AttributeError, OSError):  # no load average (Windows)
        busy = 0
    return max(1, min(cpus, cpus - busy))


def automatic_jobs(sizes: List[int]) -> int:
    """How many processes ``-j 0`` ports files of ``sizes`` (bytes) in.

    One process for a small tree (under ``POOL_MIN_BYTES``) and when other work holds
    the CPUs: a pool whose workers wait for a core finishes later than one process
    would. Otherwise one process per free CPU, never more than files.

    Args:
      sizes: the size of each file to port.

    Returns:
      The number of processes, at least 1.
    """
    if sum(sizes) < POOL_MIN_BYTES:
        return 1
    return max(1, min(usable_cpus(), len(sizes)))


def _wrote(result: FileResult) -> bool:
    return result.status == CHANGED and result.output is not None


def _port_in_worker(job: Job, observer: RunObserver,
                    cache: Optional[FileCache]) -> Optional[FileResult]:
    """``port_file`` in a pool worker; None when Ctrl-C came first or stopped the port."""
    settings = _worker_settings
    assert settings is not None, "a pool worker starts with _start_worker"
    if stopping.requested():
        return None  # queued before the Ctrl-C: not started
    try:
        with stopping.porting():
            observer.before_port(job.source)
            result = port_file(job, settings, cache)
    except KeyboardInterrupt:
        return None
    if _wrote(result):
        observer.after_write()
    return result


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


def _stop_pool(pool: concurrent.futures.ProcessPoolExecutor,
               futures: Dict[concurrent.futures.Future, Job],
               observer: RunObserver) -> List[FileResult]:
    """After Ctrl-C: cancel what no worker started, interrupt the workers' ports, let
    their writes finish; the results of the files that were done."""
    for future in futures:
        future.cancel()
    # A terminal's Ctrl-C reaches the workers too; ``kill -INT`` of this process only.
    for pid in list(getattr(pool, "_processes", None) or {}):
        try:
            os.kill(pid, signal.SIGINT)
        except ProcessLookupError:
            pass
    observer.interrupted()
    pool.shutdown(wait=True, cancel_futures=True)
    done = []
    for future in futures:
        if future.cancelled() or not future.done() or future.exception() is not None:
            continue
        if future.result() is not None:
            done.append(future.result())
    return done


def _port_in_pool(jobs: List[Job], settings: PortSettings, workers: int,
                  on_done: Callable[[FileResult], None], observer: RunObserver,
                  cache: Optional[FileCache], originals: Mapping[str, bytes]
                  ) -> List[FileResult]:
    results: List[FileResult] = []
    futures: Dict[concurrent.futures.Future, Job] = {}
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers,
                                                  initializer=_start_worker,
                                                  initargs=(settings, originals))
    try:
        # Largest first, so that no big file is left running alone at the end.
        for job in sorted(jobs, key=_size_or_zero, reverse=True):
            futures[pool.submit(_port_in_worker, job, observer, cache)] = job
        for future in concurrent.futures.as_completed(futures):
            try:
                result = future.result()
            except concurrent.futures.process.BrokenProcessPool:
                # A worker was killed (out of memory, a signal): every file it and
                # the pool still held is reported, none is half-written.
                result = _worker_died(futures[future])
            if result is None:  # a worker saw a Ctrl-C this process has not (yet)
                raise KeyboardInterrupt
            on_done(result)
            results.append(result)
    except KeyboardInterrupt:
        raise _PoolInterrupted(_stop_pool(pool, futures, observer)) from None
    except BaseException:
        _stop_pool(pool, futures, observer)
        raise
    pool.shutdown(wait=True)
    return results


class _PoolInterrupted(Exception):
    def __init__(self, done: List[FileResult]) -> None:
        super().__init__("interrupted")
        self.done = done


def _port_in_this_process(jobs: List[Job], settings: PortSettings,
                          on_done: Callable[[FileResult], None], observer: RunObserver,
                          results: List[FileResult], cache: Optional[FileCache] = None,
                          known: Optional[Mapping[Path, Known]] = None) -> None:
    """Port ``jobs`` in this process, each result into ``results`` as it comes."""
    for job in jobs:
        if stopping.requested():  # Ctrl-C came during the last write
            raise KeyboardInterrupt
        observer.before_port(job.source)
        result = port_file(job, settings, cache, (known or {}).get(job.source))
        results.append(result)
        on_done(result)
        if _wrote(result):
            observer.after_write()


def _left_to_protoc(jobs: List[Job], settings: PortSettings, originals: Mapping[str, bytes],
                    known: Mapping[Path, Known]) -> List[Job]:
    """The stale generated modules among ``jobs`` that the run leaves to protoc
    (``PortSettings.stale_protos_to_protoc``): their bytes as the run read them."""
    if not (settings.regenerate_protos and settings.stale_protos_to_protoc):
        return []
    held = []
    for job in jobs:
        if not job.source.name.endswith(protos.GENERATED_SUFFIX):
            continue
        data = known[job.source][0] if job.source in known else \
            originals.get(os.path.abspath(job.source))
        if data is None:
            try:
                data = read_regular(job.source)[0]
            except OSError:
                continue  # ported, and its port reports it
        if protos.stale_module(job.source, data):
            held.append(job)
    return held


def _port_left_to_protoc(job: Job, settings: PortSettings, cache: Optional[FileCache],
                         known: Mapping[Path, Known]) -> FileResult:
    """The port of a module left to protoc that protoc did not regenerate: the cache's,
    or made now (written as any port is)."""
    if job.source not in known and not settings.codemods:
        # Every other port came from the cache, and no codemod was loaded.
        return FileResult(path=job.display, status=FAILED, error=(
            "not ported: it was left to protoc, which did not regenerate it (its protos "
            "finding says why), and this run took every other port from the cache and "
            "loaded no codemod; run again with --no-cache to port it"))
    return port_file(job, settings, cache, known.get(job.source))


def run_plan(plan: Plan, settings: PortSettings, jobs: int = 1,
             on_done: Callable[[FileResult], None] = lambda result: None,
             observer: RunObserver = NO_OBSERVER, cache: Optional[FileCache] = None,
             known: Optional[Mapping[Path, Known]] = None,
             originals: Optional[Mapping[str, bytes]] = None) -> RunResult:
    """Carry out ``plan``.

    Args:
      plan: from ``make_plan``.
      settings: codemods, their options and the tree's facts, write/diff, protos.
      jobs: worker processes for the Python files; 1 ports them in this process;
        0 chooses (``automatic_jobs``). Never more processes than files.
      on_done: called with each Python file's result as it completes (progress).
      observer: told of each file about to be ported and each written.
      cache: where ports are looked up and kept (None: no cache).
      known: Python files read already whose port the cache had (``prepare_run``):
        written and reported in this process, never ported.
      originals: absolute path -> the bytes of the run's Python files as read before
        anything was written (``prepare_run``): a port that looks at a neighbour of
        the run reads it so, whether or not the run has written it yet (in place).
        None: neighbours are read off the disk.

    Returns:
      RunResult with results sorted by path.

    Raises:
      Interrupted: Ctrl-C; it holds the results of what was done.
    """
    results: List[FileResult] = list(plan.skipped)
    python_jobs = plan.python_jobs
    copied = 0
    ported: List[FileResult] = []
    previous = stopping.install()
    outer = file_reads.read_as(originals or {})
    try:
        for job in plan.jobs:
            if job.kind == PORT:
                continue
            if stopping.requested():
                raise KeyboardInterrupt
            failure = place(job)
            if failure is not None:
                results.append(failure)
            elif job.kind == COPY:
                copied += 1
        known = known or {}
        held = _left_to_protoc(python_jobs, settings, originals or {}, known)
        held_sources = {job.source for job in held}
        to_port = [job for job in python_jobs
                   if job.source not in known and job.source not in held_sources]
        _port_in_this_process([job for job in python_jobs
                               if job.source in known and job.source not in held_sources],
                              settings, on_done, observer, ported, cache, known)
        if jobs == 0:
            jobs = automatic_jobs([_size_or_zero(job) for job in to_port])
        if jobs <= 1 or len(to_port) <= 1:
            _port_in_this_process(to_port, settings, on_done, observer, ported, cache)
        else:
            ported += _port_in_pool(to_port, settings, min(jobs, len(to_port)), on_done,
                                    observer, cache, originals or {})
    except (KeyboardInterrupt, _PoolInterrupted) as interruption:
        if isinstance(interruption, _PoolInterrupted):
            ported += interruption.done
        done = sorted(results + ported, key=lambda result: result.path)
        raise Interrupted(RunResult(done, copied), len(ported), len(python_jobs)) from None
    finally:
        stopping.restore(previous)
        file_reads.read_as(outer)
    results += ported
    tree_findings = []
    if settings.regenerate_protos:
        done = len(results)
        tree_findings = protos.regenerate_in_run(
            plan, results, settings, held,
            lambda job: _port_left_to_protoc(job, settings, cache, known))
        for result in results[done:]:  # the held modules' results
            on_done(result)
    results.sort(key=lambda result: result.path)
    return RunResult(results, copied, tree_findings)
