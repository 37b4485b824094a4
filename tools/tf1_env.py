"""The peers' suites in their time: a Python 2.7 + TensorFlow 1.14 interpreter.

    python tools/tf1_env.py [--dir DIR] [--python PYTHON2.7]
    tox -e era          (makes it, then runs the peers' suites against it: --tf1-all)

TF1-era projects were written and tested on Python 2.7 first. This makes (once; later
calls check it and print it) a virtualenv of Python 2.7 with TensorFlow 1.14, the last
release with cp27 wheels beside 1.15's, and the peers' own dependencies, at pinned
versions (pip 19 resolves slowly on Python 2 without them), and prints its interpreter:
the ``--tf1-python`` of tools/od_suite.py, tools/tensorlayer_suite.py and
tools/magenta_suite.py. virtualenv 20.21 is the last that makes Python 2 environments;
it is installed beside the environment, not into any Python of the machine.

Exit status 0 when the interpreter imports TensorFlow 1.14; 2 when a step failed.
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Sequence

DEFAULT_DIR = Path.home() / ".cache" / "slimport" / "py27-tf114"
VIRTUALENV = "virtualenv==20.21.1"
# TensorFlow 1.14 and what it needs, at versions that install on Python 2.7.
TENSORFLOW = ("tensorflow==1.14.0", "tensorflow-estimator==1.14.0", "tensorboard==1.14.0",
              "numpy==1.16.6", "protobuf==3.17.3", "absl-py==0.15.0", "grpcio==1.39.0",
              "pytest==4.6.11", "mock==3.0.5", "scipy==1.2.3", "pillow==6.2.2", "six==1.16.0")
# What the peers' tests import (object detection 0.1.1, tensorlayer 1.11.1: its wheel's
# requirements), at the last versions for Python 2.7 within their ranges (wrapt: TF 1.14
# needs >= 1.11.1, above tensorlayer's range).
PEERS = ("contextlib2==0.6.0.post1", "pandas==0.24.2", "lxml==4.2.6", "matplotlib==2.2.5",
         "imageio==2.4.1", "progressbar2==3.38.0", "requests==2.20.1",
         "scikit-learn==0.20.4", "scikit-image==0.14.5", "tqdm==4.28.1", "wrapt==1.12.1",
         "Cython==0.29.36")
# Built from its sdist against the NumPy above (needs Cython installed first).
BUILT = ("pycocotools==2.0.0",)
CHECK = "import tensorflow as tf, sys; assert tf.__version__ == '1.14.0'; print(sys.executable)"


def find_python27() -> Optional[str]:
    """A Python 2.7 interpreter: ``python2.7`` on PATH, else pyenv's."""
    found = shutil.which("python2.7")
    if found:
        return found
    pyenv = sorted(glob.glob(str(Path.home() / ".pyenv" / "versions" / "2.7*" / "bin" / "python")))
    return pyenv[-1] if pyenv else None


def interpreter(env: Path) -> Path:
    return env / "bin" / "python"


def _run(command: Sequence[str], **kwargs) -> None:
    print("+", " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True, **kwargs)


def make(env: Path, python27: str) -> Path:
    """The environment's interpreter, made first when it does not import TF 1.14.

    Raises:
      subprocess.CalledProcessError: a step failed.
    """
    python = interpreter(env)
    if python.exists() and subprocess.run([str(python), "-c", CHECK],
                                          capture_output=True).returncode == 0:
        return python
    tool = env.with_name(env.name + "-virtualenv")
    _run([sys.executable, "-m", "pip", "install", "-q", "--target", tool, VIRTUALENV])
    _run([sys.executable, "-m", "virtualenv", "-p", python27, env],
         env=dict(os.environ, PYTHONPATH=str(tool)))
    for group in (TENSORFLOW, PEERS, BUILT):
        _run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *group])
    _run([python, "-c", CHECK])
    return python


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                        help="where the environment is (default: %(default)s)")
    parser.add_argument("--python", default=None,
                        help="the Python 2.7 to make it from (default: python2.7, or pyenv's)")
    args = parser.parse_args(argv)
    python27 = args.python or find_python27()
    if python27 is None:
        print("no Python 2.7 found: give --python", file=sys.stderr)
        return 2
    try:
        print(make(args.dir, python27))
    except subprocess.CalledProcessError as error:
        print(f"failed: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
