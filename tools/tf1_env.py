"""The peers' suites in their time: a Python 2.7 + TensorFlow 1.14 interpreter (or, for a
peer of TensorFlow 1.15's time, Python 3.7 + TensorFlow 1.15.5).

    python tools/tf1_env.py [--peer magenta|research_slim] [--dir DIR] [--python PYTHON]
    tox -e era          (makes them, then runs the peers' suites against them: --tf1-all)

TF1-era projects were written and tested on Python 2.7 first. This makes (once; later
calls check it and print it) a virtualenv of Python 2.7 with TensorFlow 1.14, the last
release with cp27 wheels beside 1.15's, and the peers' own dependencies, at pinned
versions (pip 19 resolves slowly on Python 2 without them), and prints its interpreter:
the ``--tf1-python`` of tools/od_suite.py, tools/tensorlayer_suite.py and
tools/tflearn_suite.py. ``--peer magenta`` makes magenta 1.1.7's in a virtualenv of its own
(``py27-tf114-magenta``; the ``--tf1-python`` of tools/magenta_suite.py): its pins
(mock < 3 and PyYAML < 4 for Apache Beam, gast 0.2.2, magenta's own) would change the
other peers' reference. ``--peer research_slim`` makes research/slim 2.8.0's
(``py37-tf115``; the ``--tf1-python`` of tools/slim_suite.py): that code is
``tensorflow.compat.v1`` and ``tf_slim`` beside ``tf.contrib``, which only TensorFlow 1.15
has, so its time is Python 3.7 + TensorFlow 1.15.5 with tf-slim 1.1.0. virtualenv 20.21 is
the last that makes Python 2 environments; it is installed beside the environment, not
into any Python of the machine.

Exit status 0 when the interpreter imports its TensorFlow (and, for a peer, what its
tests import); 2 when a step failed or a system library it needs is missing (magenta's
librosa loads libsndfile: ``apt-get install libsndfile1`` on Debian).
"""
from __future__ import annotations

import argparse
import ctypes.util
import dataclasses
import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, List, Optional, Sequence, Tuple

DEFAULT_DIR = Path.home() / ".cache" / "slimport" / "py27-tf114"
MAGENTA_DIR = DEFAULT_DIR.with_name("py27-tf114-magenta")
TF115_DIR = DEFAULT_DIR.with_name("py37-tf115")
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
# magenta 1.1.7's requirements (its wheel's) and theirs, at versions of its time (mid
# 2019) that install on Python 2.7.18, all pinned (pip's legacy resolver on Python 2
# takes the newest of an unpinned one, often a Python 3-only release). Every test module
# imports magenta.music (IPython, bokeh, librosa, pretty_midi, TensorFlow Probability
# 0.7.0, magenta's own pin); on Python 2 score2perf imports its Apache Beam pipeline (2.15,
# without [gcp]: mock < 3, PyYAML < 4, dill < 0.2.10, typing < 3.7); music_vae's data
# tensorflow-datasets. Left out: python-rtmidi < 1.2 (midi_hub_test; its build needs ALSA's
# headers, libasound2-dev, as on the port's side: tox env peersuite), dm-sonnet (no test
# module imports it).
MAGENTA = ("tensorflow-probability==0.7.0", "cloudpickle==1.1.1", "decorator==4.4.2",
           "gast==0.2.2",
           "ipython==5.8.0", "traitlets==4.3.3", "prompt-toolkit==1.0.18", "pygments==2.5.2",
           "pexpect==4.8.0", "ptyprocess==0.7.0", "pickleshare==0.7.5", "simplegeneric==0.8.1",
           "backports.shutil-get-terminal-size==1.0.0", "ipython-genutils==0.2.0",
           "pathlib2==2.3.7.post1", "scandir==1.10.0", "wcwidth==0.1.7", "enum34==1.1.10",
           "bokeh==1.3.4", "Jinja2==2.10.1", "MarkupSafe==1.1.1", "PyYAML==3.13",
           "python-dateutil==2.8.0", "tornado==5.1.1", "futures==3.3.0", "packaging==19.1",
           "pyparsing==2.4.2", "backports-abc==0.5", "singledispatch==3.4.0.3",
           "librosa==0.7.0", "audioread==2.1.8", "scikit-learn==0.20.4", "joblib==0.14.1",
           "resampy==0.2.2", "numba==0.45.1", "llvmlite==0.29.0", "SoundFile==0.10.2",
           "cffi==1.12.3", "pycparser==2.19", "funcsigs==1.0.2",
           "pretty-midi==0.2.8", "mido==1.2.6", "mir-eval==0.5", "future==0.17.1",
           "intervaltree==3.0.2", "sortedcontainers==2.1.0", "pygtrie==2.3.2",
           "sk-video==1.1.10", "sox==1.3.7", "backports.tempfile==1.0",
           "backports.weakref==1.0.post1", "pandas==0.24.2", "pytz==2019.2",
           "matplotlib==2.2.5", "cycler==0.10.0", "kiwisolver==1.1.0", "subprocess32==3.5.4",
           "backports.functools-lru-cache==1.5", "contextlib2==0.6.0.post1",
           "tensorflow-datasets==1.2.0", "tensorflow-metadata==0.14.0",
           "googleapis-common-protos==1.6.0", "promise==2.2.1", "psutil==5.6.3",
           "attrs==19.1.0", "termcolor==1.1.0", "tqdm==4.32.2", "wrapt==1.11.2",
           "requests==2.22.0", "urllib3==1.25.3", "idna==2.8", "chardet==3.0.4",
           "certifi==2019.6.16", "bz2file==0.98", "functools32==3.2.3.post2",
           "apache-beam==2.15.0", "crcmod==1.7", "dill==0.2.9", "fastavro==0.21.24",
           "hdfs==2.5.8", "docopt==0.6.2", "httplib2==0.12.0", "mock==2.0.0", "pbr==5.4.2",
           "pymongo==3.9.0", "oauth2client==3.0.0", "pyasn1==0.4.6", "pyasn1-modules==0.2.6",
           "rsa==4.0", "pydot==1.4.1", "avro==1.9.0", "pyvcf==0.6.8", "typing==3.6.6",
           "pyarrow==0.14.1")
# Installed without their requirements: tensor2tensor 1.14's (the last of magenta's time
# for TF 1.14) pull a web server and an RL stack (Flask, gunicorn, gevent, dopamine-rl,
# opencv-python, google-api-python-client) that no test of magenta's imports; these are
# what importing its models, layers and data generators needs.
MAGENTA_NO_DEPS = ("tensor2tensor==1.14.0", "mesh-tensorflow==0.0.5", "gin-config==0.1.4",
                   "kfac==0.1.4", "sympy==1.4", "mpmath==1.1.0", "gym==0.12.5",
                   "pyglet==1.3.2", "tensorflow-gan==1.0.0.dev0")
CHECK = "import tensorflow as tf, sys; assert tf.__version__ == '1.14.0'; print(sys.executable)"
# TensorFlow 1.15.5 (its last release, cp37 wheels) on Python 3.7, with tf-slim 1.1.0 (it
# runs on TF 1.15) and what research/slim's tests import, at versions of Python 3.7.
TENSORFLOW_1_15 = ("tensorflow==1.15.5", "tensorflow-estimator==1.15.1",
                   "tensorboard==1.15.0", "numpy==1.18.5", "protobuf==3.20.3",
                   "h5py==2.10.0", "absl-py==2.1.0", "tf-slim==1.1.0", "pytest==7.4.4",
                   "scipy==1.7.3", "pillow==9.5.0")
CHECK_1_15 = ("import tensorflow as tf, tf_slim, sys; assert tf.__version__ == '1.15.5'; "
              "print(sys.executable)")
# The shared libraries an environment's imports load that pip cannot install: (ctypes name,
# what imports it, the Debian package). SoundFile 0.10 (librosa's, Python 2's last) has no
# wheel that bundles libsndfile, unlike the Python 3 ones the port side installs.
SYSTEM_LIBRARIES = {
    None: (),
    "magenta": (("sndfile", "librosa's SoundFile", "libsndfile1"),),
    "research_slim": (),
}


@dataclasses.dataclass(frozen=True)
class Environment:
    """One era's virtualenv: its default folder, its Python version, its groups of pinned
    requirements (each one pip install) and the import check that says it is made."""

    dir: Path
    python: str
    groups: Tuple[Tuple[str, ...], ...]
    check: str


ENVIRONMENTS = {
    None: Environment(DEFAULT_DIR, "2.7", (TENSORFLOW, PEERS, BUILT), CHECK),
    "magenta": Environment(
        MAGENTA_DIR, "2.7", (TENSORFLOW, MAGENTA, ("--no-deps",) + MAGENTA_NO_DEPS),
        "import librosa, pretty_midi, tensorflow_probability, tensorflow_datasets, "
        "apache_beam, tensor2tensor.models.transformer; " + CHECK),
    "research_slim": Environment(TF115_DIR, "3.7", (TENSORFLOW_1_15,), CHECK_1_15),
}


def find_python(version: str = "2.7") -> Optional[str]:
    """A Python of ``version``: ``python<version>`` on PATH, else pyenv's (pyenv's shim is
    on PATH, and fails, where the version is installed but not selected)."""
    found = shutil.which(f"python{version}")
    if found and subprocess.run([found, "-c", "pass"], capture_output=True).returncode == 0:
        return found
    pyenv = sorted(glob.glob(str(Path.home() / ".pyenv" / "versions" / f"{version}.*" / "bin"
                                 / "python")))
    return pyenv[-1] if pyenv else None


def missing_libraries(peer: Optional[str],
                      find: Callable[[str], Optional[str]] = ctypes.util.find_library
                      ) -> List[str]:
    """What to install first for ``peer``'s environment: one line per shared library its
    imports need that ``find`` does not find (none: nothing is missing)."""
    return [f"{needed_by} needs the {name} library: install it first "
            f"(Debian/Ubuntu: apt-get install {package})"
            for name, needed_by, package in SYSTEM_LIBRARIES[peer] if find(name) is None]


def interpreter(env: Path) -> Path:
    return env / "bin" / "python"


def _run(command: Sequence[str], **kwargs) -> None:
    print("+", " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True, **kwargs)


def make(env: Path, base_python: str, peer: Optional[str] = None) -> Path:
    """The environment's interpreter, made from ``base_python`` first when it does not
    import its TensorFlow (and, for ``peer``, what its tests import).

    Raises:
      subprocess.CalledProcessError: a step failed.
    """
    environment = ENVIRONMENTS[peer]
    python = interpreter(env)
    if python.exists() and subprocess.run([str(python), "-c", environment.check],
                                          capture_output=True).returncode == 0:
        return python
    tool = env.with_name(env.name + "-virtualenv")
    _run([sys.executable, "-m", "pip", "install", "-q", "--target", tool, VIRTUALENV])
    _run([sys.executable, "-m", "virtualenv", "-p", base_python, env],
         env=dict(os.environ, PYTHONPATH=str(tool)))
    for group in environment.groups:
        _run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *group])
    _run([python, "-c", environment.check])
    return python


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", choices=[peer for peer in ENVIRONMENTS if peer],
                        help="a peer's own environment (default: object detection's, "
                        "tensorlayer's and tflearn's)")
    parser.add_argument("--dir", type=Path,
                        help=f"where the environment is (default: {DEFAULT_DIR}; "
                        f"{MAGENTA_DIR} for magenta, {TF115_DIR} for research_slim)")
    parser.add_argument("--python", default=None,
                        help="the Python to make it from (default: python2.7, or pyenv's; "
                        "Python 3.7 for research_slim)")
    args = parser.parse_args(argv)
    version = ENVIRONMENTS[args.peer].python
    base_python = args.python or find_python(version)
    if base_python is None:
        print(f"no Python {version} found: give --python", file=sys.stderr)
        return 2
    missing = missing_libraries(args.peer)
    if missing:
        print("\n".join(missing), file=sys.stderr)
        return 2
    try:
        print(make(args.dir or ENVIRONMENTS[args.peer].dir, base_python, args.peer))
    except subprocess.CalledProcessError as error:
        print(f"failed: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
