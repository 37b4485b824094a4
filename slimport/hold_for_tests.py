"""A test hook: hold a rewrite still once it has written N files, so that a test's
Ctrl-C or kill lands in the middle of the run, however fast or loaded the machine.

With ``SLIMPORT_TEST_HOLD=N:DIR`` in the environment, every process of a run that
writes a ported file (the CLI with ``-j 1``, each pool worker otherwise) notes the
write in DIR; a writer that finds N or more noted creates ``DIR/held`` and waits: in
the CLI's own process until Ctrl-C interrupts it (KeyboardInterrupt, as anywhere else
in the run), in a pool worker until the interrupted run has cancelled the files not
yet started and calls ``release`` (``DIR/released``). A killed run's workers exit as
orphans do (``slimport.running``). Without the variable, which is never set outside
the tests, ``after_write`` and ``release`` return at once.
"""
from __future__ import annotations

import itertools
import os
import time
from typing import Optional, Tuple

ENV = "SLIMPORT_TEST_HOLD"
HELD = "held"
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
    released = os.path.join(directory, RELEASED)
    _touch(os.path.join(directory, HELD))
    while not os.path.exists(released):
        time.sleep(_POLL_SECS)  # Ctrl-C raises KeyboardInterrupt here in the CLI's process


def release() -> None:
    """Let every holding writer go on (the run was interrupted and cancelled the rest)."""
    setting = _setting()
    if setting is not None:
        _touch(os.path.join(setting[1], RELEASED))
