"""The commands that need the runtime: ``slimport doctor`` and ``slimport verify``.

Both need TensorFlow, which the rewrite never imports: each says how to install it
when it is missing. ``doctor`` runs ``python -m slim_ext`` in a child process of this
interpreter and hides TensorFlow's native start-up lines (noise, unless the child
fails; ``-v`` shows them); ``verify`` runs ``slimport.verify`` here, its fork server in
a child.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from typing import Dict, List

from slim_facts.requirements import pip_install_line
from slimport.output.native_log import without_native_log


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


def doctor(verbose: bool = False) -> int:
    """``slimport doctor``: ``python -m slim_ext`` with this interpreter."""
    if _needs_tensorflow("doctor", "The rewrite does not need it, but ported code does."):
        return 1
    return _quietly([sys.executable, "-m", "slim_ext"], verbose)


def _quietly(command: List[str], verbose: bool) -> int:
    """Run ``command``; TensorFlow's native start-up lines are noise on its stderr, unless
    ``verbose`` or it fails (then everything is shown)."""
    child = subprocess.run(command, env=_child_env(), check=False,
                           stderr=subprocess.PIPE, text=True, errors="replace")
    shown = child.stderr if verbose or child.returncode else without_native_log(child.stderr)
    sys.stderr.write(shown)
    return child.returncode


def verify(args: argparse.Namespace) -> int:
    """``slimport verify ARGS``: the same as ``python -m slimport.verify ARGS``, but
    once the arguments and paths are checked, it says how to install TensorFlow when
    this Python lacks it."""
    from slimport.verify import cli as verify_cli

    return verify_cli.run_command(args, can_start=lambda: not _needs_tensorflow(
        "verify", "Verifying a port imports and builds the ported code, which needs it."))
