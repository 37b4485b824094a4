"""Shared fixtures for slim_ext tests: TensorFlow is imported once per session."""
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Set before TensorFlow is first imported, or its C++ logging floods the output.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


@pytest.fixture(scope="session")
def tf():
  """``tensorflow.compat.v1``, imported after slim_ext has applied its shims.

  Eager execution stays on (TF2 default); TF1-style tests build inside
  ``with tf.Graph().as_default():`` and run a ``tf.Session``.
  """
  import slim_ext  # noqa: F401  (imported for its shims)
  import tensorflow.compat.v1 as tf1  # pylint: disable=g-import-not-at-top
  return tf1


@pytest.fixture(scope="session")
def slim(tf):  # pylint: disable=redefined-outer-name,unused-argument
  """The tf_slim package, imported after slim_ext's shims."""
  import tf_slim  # pylint: disable=g-import-not-at-top
  return tf_slim


@pytest.fixture(scope="module")
def ported_nets(tmp_path_factory):
  """examples/slim_tf1 ported by slimport (a subprocess: the CLI is the product):
  its ``nets.nets_factory`` module, importable while the test module runs."""
  out = tmp_path_factory.mktemp("ported") / "slim_tf1"
  subprocess.run([sys.executable, "-m", "slimport", "rewrite",
                  str(Path(__file__).resolve().parents[2] / "examples" / "slim_tf1"),
                  "--out", str(out)],
                 check=True, capture_output=True, timeout=300)
  sys.path.insert(0, str(out))
  try:
    yield importlib.import_module("nets.nets_factory")
  finally:
    sys.path.remove(str(out))
    for name in [n for n in sys.modules if n == "nets" or n.startswith("nets.")]:
      del sys.modules[name]
