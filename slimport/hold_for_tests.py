"""Test hooks: hold a rewrite still at a chosen point, so that a test's Ctrl-C or kill
lands there, however fast or loaded the machine.

With ``SLIMPORT_TEST_HOLD=N:DIR`` in the environment, every process of a run that
writes a ported file (the CLI with ``-j 1``, each pool worker otherwise) notes the
write in DIR once the file's result is recorded; a writer that finds N or more noted
creates ``DIR/held`` and waits: in the CLI's own process until Ctrl-C interrupts it
(KeyboardInterrupt, as anywhere else in the run), in a pool worker until the
interrupted run has cancelled the files not yet started and calls ``release``
(``DIR/released``).

With ``SLIMPORT_TEST_HOLD_IN=NAME:DIR``, the process porting the file named NAME
creates ``DIR/held-in`` after reading it, before porting it, and waits there until
Ctrl-C interrupts it or ``release`` is called: a file that takes forever to port, so
a run that waits for the file in progress to finish never ends.

A killed run's workers exit as orphans do (``slimport.running``). Without the
variables, which are never set outside the tests, the hooks return at once.
"""
from __future__ import annotations

import itertools
import os
import time
from pathlib import Path
from typing import Optional, Tuple

ENV = "SLIMPORT_TEST_HOLD"
ENV_IN = "SLIMPORT_TEST_HOLD_IN"
HELD = "held"
HELD_IN = "held-in"
RELEASED = "released"
_WRITTEN = "written-"
# How often a holding writer looks for DIR/released.
_POLL_SECS = 0.01
_writes = itertools.count()


def _setting() -> Optional[Tuple[int, str]]:
    value = os.environ.get(ENV)
    if not value:
        return None
    count, _, directory = value.partition(":")
    return int(count), directory


def _wait_for_release(directory: str) -> None:
    released = os.path.join(directory, RELEASED)
    while not os.path.exists(released):
        time.sleep(_POLL_SECS)  # Ctrl-C raises KeyboardInterrupt here


def _touch(path: str) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o644))


def after_write() -> None:
    """Note one written file; hold here once N are written (see the module docstring)."""
    setting = _setting()
    if setting is None:
        return
    count, directory = setting
    _touch(os.path.join(directory, f"{_WRITTEN}{os.getpid()}-{next(_writes)}"))
    if sum(name.startswith(_WRITTEN) for name in os.listdir(directory)) < count:
        return
    _touch(os.path.join(directory, HELD))
    _wait_for_release(directory)


def while_porting(path: Path) -> None:
    """Hold before porting the file named as ``SLIMPORT_TEST_HOLD_IN`` says."""
    value = os.environ.get(ENV_IN)
    if not value:
        return
    name, _, directory = value.partition(":")
    if path.name == name:
        _touch(os.path.join(directory, HELD_IN))
        _wait_for_release(directory)


def release() -> None:
    """Let every holding process go on (the run was interrupted and cancelled the rest)."""
    for directory in (value.partition(":")[2] for value in
                      (os.environ.get(ENV), os.environ.get(ENV_IN)) if value):
        _touch(os.path.join(directory, RELEASED))
