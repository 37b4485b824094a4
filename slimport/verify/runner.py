"""Runs verify's jobs in the fork server (worker.py) and hands back their results.

The fork server is one child process of this interpreter that imports TensorFlow
once and forks a child per job (see worker.py for the protocol). This side
starts it, sends the jobs, reads the events, and makes sure nothing outlives the
run: the worker is in its own process group, every job child in another, and on
exit (normal, error or Ctrl-C) each of those groups is killed by id. The worker
enforces each job's time limit; a job running far past it means the worker is
stuck, and the run stops with an error rather than hanging.
"""
import dataclasses
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, Iterator, Optional, Sequence

from slimport.output.native_log import without_native_log
from slimport.verify.worker import kill_group

WORKER_MODULE = "slimport.verify.worker"
# The directory holding the slimport package: the worker starts there, so that
# ``-m slimport.verify.worker`` finds this very copy of slimport, installed or not.
_SLIMPORT_HOME = str(Path(__file__).resolve().parents[2])
# Beyond a job's own limit (the worker kills it GRACE_SECS after it): how long
# this side waits before calling the worker stuck.
_BACKSTOP_SECS = 60.0
_POLL_SECS = 0.2


class WorkerError(RuntimeError):
    """The fork server could not start, failed to preload, or stopped answering."""


@dataclasses.dataclass
class Done:
    """A finished job: what was asked and what the worker reported."""
    job: Dict[str, object]
    pid: int
    exit_code: int
    result: Dict[str, object]
    output: str


class Runner:
    """A running fork server; use as a context manager.

    with Runner(config, env, scratch) as runner:
      runner.submit({"check": "import", "module": "nets.lenet", ...})
      for done in runner.results():
        ...
    """

    def __init__(self, config: Dict[str, object], env: Dict[str, str], scratch: str,
                 preload_timeout: float = 600.0,
                 on_start: Optional[Callable[[Dict[str, object]], None]] = None,
                 native_log: bool = False):
        self.config = dict(config, scratch=scratch, parent_pid=os.getpid())
        # Whether the worker's log, when shown, keeps TensorFlow's native start-up lines.
        self.native_log = native_log
        self.env = env
        self.scratch = scratch
        self.preload_timeout = preload_timeout
        self.on_start = on_start
        self.ready: Dict[str, object] = {}
        self.process: Optional[subprocess.Popen] = None
        self.log_path = os.path.join(scratch, "worker.log")
        self._buffer = b""
        # Jobs not yet taken by the worker's stdin pipe. Writes never block: a worker
        # busy writing events it cannot get rid of would otherwise never read again.
        self._outgoing = b""
        self._next_id = 0
        self._pending: Dict[int, Dict[str, object]] = {}
        self._started: Dict[int, float] = {}
        self._child_pids: Dict[int, int] = {}

    def __enter__(self) -> "Runner":
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", WORKER_MODULE], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=log, env=self.env, cwd=_SLIMPORT_HOME,
                start_new_session=True)
        try:
            os.set_blocking(self.process.stdin.fileno(), False)
            self._send(self.config)
            self.ready = self._next_event(time.monotonic() + self.preload_timeout)
            if self.ready is None:
                raise WorkerError(f"the verify worker exited while starting:\n{self.log_tail()}")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def log_tail(self, chars: int = 3000) -> str:
        with open(self.log_path, errors="replace") as log:
            text = log.read()
        return (text if self.native_log else without_native_log(text))[-chars:]

    def submit(self, job: Dict[str, object]) -> Dict[str, object]:
        """Queues a job (a dict with ``check``, ``timeout`` and its fields).

        Returns:
          The job, with its id.
        """
        job = dict(job, id=self._next_id)
        self._next_id += 1
        self._pending[job["id"]] = job
        self._send(job)
        return job

    def results(self) -> Iterator[Done]:
        """Yields finished jobs until every submitted job is done (jobs may be added meanwhile).

        Raises:
          WorkerError: the worker exited, or a job ran past its limit by far.
        """
        while self._pending:
            event = self._next_event(self._deadline())
            if event is None:
                raise WorkerError(f"the verify worker exited with {len(self._pending)} job(s) "
                                  f"unfinished:\n{self.log_tail()}")
            if event["event"] == "started":
                self._started[event["id"]] = time.monotonic()
                self._child_pids[event["id"]] = event["pid"]
                if self.on_start is not None:
                    self.on_start(self._pending[event["id"]])
            elif event["event"] == "done":
                self._started.pop(event["id"], None)
                self._child_pids.pop(event["id"], None)
                yield Done(job=self._pending.pop(event["id"]), pid=event["pid"],
                           exit_code=event["exit_code"], result=event["result"],
                           output=event["output"])

    def close(self) -> None:
        """Stops the worker and every job child still known, by process group id."""
        if self.process is None:
            return
        self._outgoing = b""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10 if not self._pending else 0.5)
        except subprocess.TimeoutExpired:
            pass
        kill_group(self.process.pid)
        for pid in self._child_pids.values():
            kill_group(pid)
        self.process.wait()
        self.process.stdout.close()
        self.process = None

    def _deadline(self) -> float:
        limits = [started + float(self._pending[job_id]["timeout"]) + _BACKSTOP_SECS
                  for job_id, started in self._started.items()]
        # Jobs not yet started wait for a free slot: only running ones have a deadline.
        return min(limits) if limits else time.monotonic() + 3600.0

    def _send(self, document: Dict[str, object]) -> None:
        self._outgoing += (json.dumps(document) + "\n").encode()
        self._flush()

    def _flush(self) -> None:
        """Writes what the worker's stdin pipe takes now; the rest waits for the next try."""
        while self._outgoing:
            try:
                written = os.write(self.process.stdin.fileno(), self._outgoing)
            except BlockingIOError:
                return
            except BrokenPipeError:
                self._outgoing = b""  # the worker is gone; reading its events says why
                return
            self._outgoing = self._outgoing[written:]

    def _next_event(self, deadline: float) -> Optional[Dict[str, object]]:
        while b"\n" not in self._buffer:
            if time.monotonic() > deadline:
                stuck = ", ".join(str(self._pending[job_id].get("target"))
                                  for job_id in self._started)
                raise WorkerError(f"the verify worker stopped answering (running: {stuck}):\n"
                                  f"{self.log_tail()}")
            self._flush()
            events, stdin = self.process.stdout.fileno(), self.process.stdin.fileno()
            readable, _, _ = select.select([events], [stdin] if self._outgoing else [], [],
                                           _POLL_SECS)
            if readable:
                data = os.read(events, 1 << 16)
                if not data:
                    return None
                self._buffer += data
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)


def worker_environment(extra: Sequence[str] = ()) -> Dict[str, str]:
    """This process's environment for the worker, quiet TF logs, plus ``KEY=VALUE`` items."""
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PYTHONSTARTUP", None)
    for item in extra:
        key, _, value = item.partition("=")
        env[key] = value
    return env
