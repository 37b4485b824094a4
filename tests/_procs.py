"""Local helper processes for tests: free ports, start, wait, stop by pid.

Tests that need a separate process (a gRPC server task, a second worker) start
it through `ProcessSet`, whose exit stops every process it started, so a failing
assertion never leaves a server behind. `descendants` and `wait_gone` check that
the processes a started process started in turn (a pool's workers) end with it.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Mapping, Sequence, TypeVar

LOCALHOST = "127.0.0.1"
K = TypeVar("K")


def free_ports(count: int) -> list[int]:
    """Returns `count` distinct TCP ports on 127.0.0.1 that were free just now.

    All sockets stay bound until every port is chosen, so the ports differ
    from each other; another program may still take one before it is used.
    """
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((LOCALHOST, 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def free_port() -> int:
    """Returns one TCP port on 127.0.0.1 that was free just now."""
    return free_ports(1)[0]


def log_tail(log_path: Path, max_chars: int = 4000) -> str:
    """Returns the end of a process log, for assertion messages."""
    text = Path(log_path).read_text(errors="replace")
    return text[-max_chars:]


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name: [state, ppid, ...]; None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def descendants(pid: int) -> list[int]:
    """Pids of the processes `pid` started, and theirs, running now (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, pending = [], [pid]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def alive(pids: Sequence[int]) -> list[int]:
    """The `pids` still running (a zombie, dead but not yet reaped, is not)."""
    return [pid for pid in pids if (_stat_fields(pid) or ["Z"])[0] not in ("Z", "X")]


def wait_gone(pids: Sequence[int], timeout: float) -> list[int]:
    """Waits up to `timeout` seconds for `pids` to end; returns those still running.

    The caller then stops them itself (by pid), so a failing check leaves nothing
    behind either.
    """
    deadline = time.monotonic() + timeout
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(pids)


def kill_all(pids: Sequence[int]) -> None:
    """SIGKILL each of `pids` that still runs."""
    for pid in alive(pids):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def run_side_by_side(
    commands: Mapping[K, tuple[Sequence[str], Path]],
    env: Mapping[str, str],
    timeout: float,
) -> dict[K, subprocess.CompletedProcess]:
    """Runs each `commands` value, (argv, cwd), at once and waits for every one.

    For short processes that each pay TensorFlow's import: side by side they
    share the cores. Output is captured as text; a process still running when
    this returns (a timeout, an error) is killed by pid.

    Raises:
      subprocess.TimeoutExpired: a process ran longer than `timeout` seconds.
    """
    procs = {
        key: subprocess.Popen(list(argv), cwd=cwd, env=dict(env), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for key, (argv, cwd) in commands.items()
    }
    results = {}
    try:
        for key, proc in procs.items():
            stdout, stderr = proc.communicate(timeout=timeout)
            results[key] = subprocess.CompletedProcess(proc.args, proc.returncode,
                                                       stdout, stderr)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


class Proc:
    """A started Python process and the file its stdout and stderr go to."""

    def __init__(self, popen: subprocess.Popen, log_path: Path, name: str):
        self.popen = popen
        self.log_path = log_path
        self.name = name

    @property
    def pid(self) -> int:
        return self.popen.pid

    def returncode(self) -> int | None:
        """Returns the exit code, or None while the process runs."""
        return self.popen.poll()

    def log(self) -> str:
        return Path(self.log_path).read_text(errors="replace")

    def wait(self, timeout: float) -> int:
        """Waits for the process to exit and returns its exit code.

        Raises:
          TimeoutError: the process still runs after `timeout` seconds; the
            message carries the end of its log.
        """
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TimeoutError(
                f"{self.name} (pid {self.pid}) still running after {timeout:g} s;"
                f" log {self.log_path} ends with:\n{log_tail(self.log_path)}"
            ) from None

    def pause(self) -> None:
        """Stops the process where it is (SIGSTOP) until `resume`; its listening sockets
        still accept connections (the kernel completes them), so it still looks up."""
        self.popen.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Lets a paused process run on (SIGCONT)."""
        self.popen.send_signal(signal.SIGCONT)

    def stop(self, grace_secs: float = 5.0) -> int:
        """Stops the process: SIGTERM, then SIGKILL after `grace_secs`.

        Returns:
          The exit code (negative signal number when killed by a signal).
        """
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            self.popen.send_signal(signal.SIGCONT)  # a paused process handles it now
            try:
                self.popen.wait(timeout=grace_secs)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        return self.popen.returncode


def start_python(
    args: Sequence[str],
    log_path: Path,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    name: str | None = None,
) -> Proc:
    """Starts `python args...` with this interpreter, output to `log_path`.

    The child inherits this environment plus `env`; TensorFlow's C++ logging is
    quietened and Python output unbuffered, so the log is complete on a kill.
    """
    child_env = dict(os.environ)
    child_env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    child_env["PYTHONUNBUFFERED"] = "1"
    child_env.update(env or {})
    log_path = Path(log_path)
    with open(log_path, "wb") as log_file:
        popen = subprocess.Popen(
            [sys.executable, *args],
            stdout=log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=child_env,
            cwd=cwd,
        )
    return Proc(popen, log_path, name or Path(args[0]).name)


class ProcessSet:
    """Context manager that stops, by pid, every process started through it.

    with ProcessSet() as procs:
        server = procs.start_python([script, "--port", str(port)], tmp / "ps.log")
        ...
    """

    def __init__(self) -> None:
        self.procs: list[Proc] = []

    def start_python(self, args: Sequence[str], log_path: Path, **kwargs) -> Proc:
        proc = start_python(args, log_path, **kwargs)
        self.procs.append(proc)
        return proc

    def wait_all(self, procs: Sequence[Proc], deadline: float) -> dict[str, int]:
        """Waits for `procs` until the `time.monotonic()` deadline.

        Returns:
          Exit codes by process name.

        Raises:
          TimeoutError: a process is still running at the deadline.
        """
        return {
            proc.name: proc.wait(max(0.0, deadline - time.monotonic()))
            for proc in procs
        }

    def stop_all(self) -> None:
        for proc in reversed(self.procs):
            proc.stop()

    def __enter__(self) -> ProcessSet:
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop_all()
