"""The fork server of ``slimport verify``: loads TensorFlow once, checks each module in a child.

slimport.verify.runner starts it as ``python -m slimport.verify.worker`` in the
directory that holds the slimport package (so it runs the very slimport the
coordinator runs, installed or not), and the worker then takes that directory off
sys.path. It imports checks.py and nothing else of slimport, and nothing of
slim_ext: importing the ``slim_ext`` package applies its shims, and the checks must
see what the user's own process sees, shims only where the ported code imports
slim_ext itself.

Protocol, one JSON document per line. On stdin: first the configuration
(``roots``, ``preload``, ``max_children``, ``scratch``, ``tree_names``,
``tree_dirs``, ``parent_pid``, ``threads``, and optionally ``checks``: the module
that runs the jobs instead of checks.py, importable from the worker's PYTHONPATH,
for harnesses such as tools/od_suite.py), then one job per line (``id``,
``check``, ``timeout`` and what the check needs); end of input means no more
jobs. On stdout: ``{"event": "ready", ...}`` or ``{"event": "preload_failed",
...}`` once, then per job ``started`` (with the child's pid) and ``done`` (with
its result). The worker's own stdout and stdin are moved off fds 0 and 1 first,
so nothing a preloaded or checked module prints can corrupt the protocol.

Every child runs in its own process group and dies with the worker
(PR_SET_PDEATHSIG); a child over its time limit first dumps its stack
(faulthandler, so the report can say where it hung), and is killed with its
whole group ``GRACE_SECS`` later if it has not exited by then. The worker itself
dies with its parent.
"""
import ctypes
import gc
import importlib
import json
import os
import selectors
import signal
import sys
import time
from types import FrameType
from typing import Any, Dict, List, Optional, Tuple

from slimport.verify import checks

Json = Dict[str, Any]

GRACE_SECS = 10.0
_PR_SET_PDEATHSIG = 1
_POLL_SECS = 0.05


def _die_with_parent(parent_pid: int) -> None:
    """Asks Linux to SIGKILL this process when its parent exits (no-op elsewhere)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent_pid:  # the parent exited before prctl took effect
        os._exit(1)


def kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads, if it is still there."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Lines:
    """Reads newline-terminated JSON documents from a raw file descriptor."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.closed = False

    def read_available(self) -> List[Json]:
        """Reads what the pipe holds now; returns the complete documents."""
        data = os.read(self.fd, 1 << 16)
        if not data:
            self.closed = True
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line.strip()]

    def read_one(self) -> Optional[Json]:
        while b"\n" not in self.buffer and not self.closed:
            data = os.read(self.fd, 1 << 16)
            self.closed = not data
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line) if line.strip() else None


class _Worker:
    """Runs the jobs it is sent, at most ``max_children`` at a time."""

    def __init__(self, config: Json, jobs_in: _Lines, events_out: int) -> None:
        self.config = config
        self.checks: Any = checks
        self.jobs_in = jobs_in
        self.events_out = events_out
        self.queue: List[Json] = []
        # pid -> (job, started, killed at its limit)
        self.running: Dict[int, Tuple[Json, float, bool]] = {}

    def send(self, event: Json) -> None:
        data = (json.dumps(event) + "\n").encode()
        while data:
            data = data[os.write(self.events_out, data):]

    def serve(self) -> None:
        # A child's exit wakes the loop at once (SIGCHLD written to a pipe it watches).
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_read, False)
        os.set_blocking(wake_write, False)
        signal.signal(signal.SIGCHLD, lambda number, frame: None)
        signal.set_wakeup_fd(wake_write)
        selector = selectors.DefaultSelector()
        selector.register(self.jobs_in.fd, selectors.EVENT_READ)
        selector.register(wake_read, selectors.EVENT_READ)
        while not self.jobs_in.closed or self.queue or self.running:
            while self.queue and len(self.running) < self.config["max_children"]:
                self._start(self.queue.pop(0))
            for key, _ in selector.select(_POLL_SECS):
                if key.fd == wake_read:
                    while _drained(wake_read):
                        pass
                else:
                    self.queue += self.jobs_in.read_available()
                    if self.jobs_in.closed:
                        selector.unregister(self.jobs_in.fd)
                    # Expensive jobs (builds) first, so they do not form the tail of the run.
                    self.queue.sort(key=lambda job: -job.get("priority", 0))
            self._reap()
            self._enforce_limits()

    def stop_children(self) -> None:
        for pid in self.running:
            kill_group(pid)

    def _job_dir(self, job: Json) -> str:
        return os.path.join(self.config["scratch"], f"job-{job['id']}")

    def _start(self, job: Json) -> None:
        if job["check"] == "import" and sys.modules.get(job.get("module") or "") is not None:
            # The preload imported it already: a forked import would be a no-op.
            self.send({"event": "started", "id": job["id"], "pid": os.getpid()})
            self.send({"event": "done", "id": job["id"], "pid": os.getpid(), "exit_code": 0,
                       "seconds": 0.0, "output": "",
                       "result": {"status": "ok", "seconds": 0.0, "error": None,
                                  "details": {"preloaded": True}}})
            return
        directory = self._job_dir(job)
        os.makedirs(directory, exist_ok=True)
        sys.stdout.flush()
        sys.stderr.flush()
        # Timed from before the fork: the child may run (and arm its time limit) before
        # this process runs again, and a job's seconds must cover all of the child's.
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            self._child(job, directory)  # never returns
        try:
            os.setpgid(pid, pid)  # also done in the child: whichever runs first wins the race
        except (PermissionError, ProcessLookupError):
            pass
        self.running[pid] = (job, started, False)
        self.send({"event": "started", "id": job["id"], "pid": pid})

    def _child(self, job: Json, directory: str) -> None:
        status = 1
        try:
            os.setpgid(0, 0)
            _die_with_parent(self.config["worker_pid"])
            for number in (signal.SIGTERM, signal.SIGINT, signal.SIGPIPE):
                signal.signal(number, signal.SIG_DFL)
            log = os.open(os.path.join(directory, "output.log"),
                          os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(log, 1)
            os.dup2(log, 2)
            os.close(log)
            os.close(self.jobs_in.fd)
            os.close(self.events_out)
            os.chdir(directory)
            result = self.checks.run(job, self.config)
            sys.stdout.flush()
            sys.stderr.flush()
            partial = os.path.join(directory, "result.json.partial")
            with open(partial, "w") as result_file:
                json.dump(result, result_file)
            os.rename(partial, os.path.join(directory, "result.json"))
            status = 0
        finally:
            os._exit(status)

    def _reap(self) -> None:
        while self.running:
            # Peek first (WNOWAIT): while the child is an unreaped zombie its pid, and so
            # its process group id, cannot be reused, so killing the group is safe.
            try:
                exited = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if exited is None:
                return
            pid = exited.si_pid
            kill_group(pid)  # whatever the module started and left running
            _, wait_status = os.waitpid(pid, 0)
            job, started, killed = self.running.pop(pid)
            self.send(self._outcome(job, pid, os.waitstatus_to_exitcode(wait_status),
                                    killed, time.monotonic() - started))

    def _outcome(self, job: Json, pid: int, exit_code: int, killed: bool,
                 seconds: float) -> Json:
        directory = self._job_dir(job)
        try:
            with open(os.path.join(directory, "output.log"), errors="replace") as log:
                output = log.read()
        except OSError:
            output = ""
        event = {"event": "done", "id": job["id"], "pid": pid, "exit_code": exit_code,
                 "seconds": seconds, "output": output[-6000:]}
        result_path = os.path.join(directory, "result.json")
        if os.path.exists(result_path):
            with open(result_path) as result_file:
                event["result"] = json.load(result_file)
        elif killed or "Timeout (" in output:
            event["result"] = {"status": "timeout", "seconds": seconds}
        else:
            event["result"] = {"status": "crashed", "seconds": seconds}
        return event

    def _enforce_limits(self) -> None:
        now = time.monotonic()
        for pid, (job, started, killed) in list(self.running.items()):
            if not killed and now - started > job["timeout"] + GRACE_SECS:
                kill_group(pid)
                self.running[pid] = (job, started, True)


def _drained(fd: int) -> bool:
    try:
        return bool(os.read(fd, 4096))
    except BlockingIOError:
        return False


def _redirect_standard_fds() -> Tuple[int, int]:
    """Moves the protocol off fds 0 and 1; returns (jobs fd, events fd)."""
    jobs_fd, events_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # stray prints go to the worker's log, not into the protocol
    return jobs_fd, events_fd


def _exit_on_sigterm(number: int, frame: Optional[FrameType]) -> None:
    sys.exit(1)


def main() -> None:
    # The directory it was started in (slimport's) must not shadow the tree's modules.
    if sys.path and sys.path[0] in (os.getcwd(), ""):
        del sys.path[0]
    jobs_fd, events_fd = _redirect_standard_fds()
    jobs_in = _Lines(jobs_fd)
    config = jobs_in.read_one()
    _die_with_parent(config["parent_pid"])
    if config is None:
        return  # the coordinator went away before it sent anything
    config["worker_pid"] = os.getpid()
    os.chdir(config["scratch"])
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    sys.path[:0] = config["roots"]
    worker = _Worker(config, jobs_in, events_fd)
    started = time.monotonic()
    if config.get("checks"):
        worker.checks = importlib.import_module(config["checks"])
    preloaded = worker.checks.preload(config)
    preloaded["event"] = "ready" if preloaded.get("error") is None else "preload_failed"
    preloaded["seconds"] = time.monotonic() - started
    preloaded["worker_pid"] = os.getpid()
    worker.send(preloaded)
    if preloaded["event"] == "preload_failed":
        return
    # Objects loaded so far are never collected: the collector would otherwise write
    # to every page they share with the children (copy-on-write) in each child.
    gc.freeze()
    try:
        worker.serve()
    finally:
        worker.stop_children()


if __name__ == "__main__":
    main()
