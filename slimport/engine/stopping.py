"""Ctrl-C during a rewrite: stop porting at once, never in the middle of a write.

A run installs ``install``'s SIGINT handler in every process that ports files: the
CLI's own (``-j 1``, and the parent of a pool) and each pool worker. The first
Ctrl-C marks the process as stopping and raises KeyboardInterrupt where it is,
unless a file is being written: a file half ported is dropped on the spot (a big one
can take seconds to finish), and nothing of it has been written. A write (``with
writing():`` temp file, fsync, rename; a copy into ``--out``) always runs to its
end, and the Ctrl-C that came during it is acted on after it (``requested``). So
every file is whole: as it was, or ported completely.

A pool worker is interrupted only while it ports a file (``with porting():``); idle,
between files, it only notes the request and starts no other file. A process forked
before its set-up ran (a worker being started) never raises, whatever it inherited.
"""
from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

_state = {
    # The process that installed the handler (a forked child is not it).
    "owner": 0,
    # The CLI's process is interrupted anywhere but in a write; a worker only in porting.
    "anywhere": True,
    "porting": False,
    "writing": False,
    "stopping": False,
}


def _on_sigint(signum: int, frame: Any) -> None:
    first = not _state["stopping"]
    _state["stopping"] = True
    if os.getpid() != _state["owner"] or _state["writing"] or not first:
        return  # acted on after the write, or between files; a second Ctrl-C adds nothing
    if _state["anywhere"] or _state["porting"]:
        raise KeyboardInterrupt


def install(in_worker: bool = False) -> Any:
    """Handle SIGINT as the module docstring says, in this (main) thread's process.

    Args:
      in_worker: True in a pool worker (interrupted only while porting a file).

    Returns:
      The handler it replaced, for ``restore``; None when this is not the main thread
      (signals then stay as they are).
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    _state.update(owner=os.getpid(), anywhere=not in_worker, porting=False, writing=False,
                  stopping=False)
    return signal.signal(signal.SIGINT, _on_sigint)


def restore(previous: Any) -> None:
    """Put back the SIGINT handler ``install`` replaced (None: nothing to do)."""
    if previous is not None:
        signal.signal(signal.SIGINT, previous)


def requested() -> bool:
    """Whether Ctrl-C came: start no other file."""
    return bool(_state["stopping"])


@contextmanager
def porting() -> Iterator[None]:
    """A pool worker ports a file here: Ctrl-C interrupts it."""
    _state["porting"] = True
    try:
        yield
    finally:
        _state["porting"] = False


@contextmanager
def writing() -> Iterator[None]:
    """A write runs to its end here; Ctrl-C is acted on after it."""
    _state["writing"] = True
    try:
        yield
    finally:
        _state["writing"] = False
