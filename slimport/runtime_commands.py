"""The commands that need the runtime: ``slimport doctor`` and ``slimport verify``.

Both need TensorFlow, which the rewrite never imports: each says how to install it
when it is missing. ``doctor`` runs ``python -m slim_ext`` in a child process of this
interpreter and hides TensorFlow's native start-up lines (noise, unless the child
fails); ``verify`` runs ``slimport.verify`` here, its fork server in a child.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
from typing import Dict, List

from slim_facts.requirements import pip_install_line

# TensorFlow's native start-up logging (absl/C++), which ignores TF_CPP_MIN_LOG_LEVEL
# before absl::InitializeLog() is called: "I0000 00:00:17... port.cc:153] oneDNN ...".
_NATIVE_LOG_LINE = re.compile(
    r"(?:[IWE]\d{4} [\d:.]+\s+\d+ \S+:\d+\] "
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IWE] \S+:\d+\] "
    r"|WARNING: All log messages before absl::InitializeLog\(\) is called)")


def _needs_tensorflow(command: str, why: str) -> bool:
    """True, after saying how to install it, when this Python has no TensorFlow."""
    if importlib.util.find_spec("tensorflow") is not None:
        return False
    print(f"slimport {command}: TensorFlow is not installed for {sys.executable}.\n{why} "
          f"Install the runtime with:\n  {pip_install_line()}", file=sys.stderr)
    return True


def _child_env() -> Dict[str, str]:
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def doctor() -> int:
    """``slimport doctor``: ``python -m slim_ext`` with this interpreter."""
    if _needs_tensorflow("doctor", "The rewrite does not need it, but ported code does."):
        return 1
    return _without_native_log([sys.executable, "-m", "slim_ext"])


def _without_native_log(command: List[str]) -> int:
    """Run ``command``; TensorFlow's native start-up lines are noise on its stderr, unless
    it fails (then everything is shown)."""
    child = subprocess.run(command, env=_child_env(), check=False,
                           stderr=subprocess.PIPE, text=True, errors="replace")
    lines = child.stderr.splitlines(keepends=True)
    if child.returncode == 0:
        lines = [line for line in lines if not _NATIVE_LOG_LINE.match(line)]
    sys.stderr.write("".join(lines))
    return child.returncode


def verify(args: argparse.Namespace) -> int:
    """``slimport verify ARGS``: the same as ``python -m slimport.verify ARGS``, but
    once the arguments and paths are checked, it says how to install TensorFlow when
    this Python lacks it."""
    from slimport.verify import cli as verify_cli

    return verify_cli.run_command(args, can_start=lambda: not _needs_tensorflow(
        "verify", "Verifying a port imports and builds the ported code, which needs it."))
