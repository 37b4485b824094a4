"""Runs ``slimport`` held still at a chosen point, so that a test's Ctrl-C or kill lands
there, however fast or loaded the machine.

Usage:
  python _held_rewrite.py after-writes N DIR SLIMPORT-ARGS...
  python _held_rewrite.py in-port NAME DIR SLIMPORT-ARGS...

``after-writes``: every process of the run that writes a ported file (this one with
``-j 1``, each pool worker otherwise) notes the write in DIR; a writer that finds N or
more noted creates ``DIR/held`` and waits: in this process until Ctrl-C interrupts it
(KeyboardInterrupt, as anywhere else in the run), in a pool worker until the
interrupted run has cancelled the files not yet started (``RunObserver.interrupted``
creates ``DIR/released``).

``in-port``: the process about to port the file named NAME creates ``DIR/held-in`` and
waits there until Ctrl-C interrupts it or the run is interrupted: a file that takes
forever to port, so a run that waits for the file in progress never ends.

The hold is the engine's own ``RunObserver`` hook, injected through
``slimport.cli.main``; pool workers are forked from this process and find the class
here. A killed run's workers exit as orphans do (``slimport.engine.run``).
"""
from __future__ import annotations

import itertools
import os
import sys
import time
from pathlib import Path

from slimport import cli
from slimport.engine import RunObserver

HELD = "held"
HELD_IN = "held-in"
RELEASED = "released"
_WRITTEN = "written-"
# How often a holding process looks for DIR/released.
_POLL_SECS = 0.01
# This process's writes (a pool worker gets the observer anew with every file).
_writes = itertools.count()


def _touch(path: str) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o644))


class HoldingObserver(RunObserver):
    """Holds the run still after ``after_writes`` writes, or before porting ``in_port``."""

    def __init__(self, directory: str, after_writes: int = 0, in_port: str = "") -> None:
        self.directory = directory
        self.after_writes = after_writes
        self.in_port = in_port

    def _wait_for_release(self) -> None:
        released = os.path.join(self.directory, RELEASED)
        while not os.path.exists(released):
            time.sleep(_POLL_SECS)  # Ctrl-C raises KeyboardInterrupt here

    def before_port(self, source: Path) -> None:
        if self.in_port and source.name == self.in_port:
            _touch(os.path.join(self.directory, HELD_IN))
            self._wait_for_release()

    def after_write(self) -> None:
        if not self.after_writes:
            return
        _touch(os.path.join(self.directory, f"{_WRITTEN}{os.getpid()}-{next(_writes)}"))
        if sum(name.startswith(_WRITTEN) for name in os.listdir(self.directory)) \
                < self.after_writes:
            return
        _touch(os.path.join(self.directory, HELD))
        self._wait_for_release()

    def interrupted(self) -> None:
        _touch(os.path.join(self.directory, RELEASED))


def main(argv: list) -> int:
    mode, value, directory, slimport_args = argv[0], argv[1], argv[2], argv[3:]
    observer = HoldingObserver(directory, after_writes=int(value)) if mode == "after-writes" \
        else HoldingObserver(directory, in_port=value)
    return cli.main(slimport_args, observer=observer)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
