"""The Estimator examples as written: their data scripts work, and the README's 'before' is true.

Each unported trainer runs as its README says, on one node: the TF1 ones die on
``tensorflow.contrib`` on every TF 2.x (and cifar10_estimator_tf1's data script on
``tf.app``); the TF 2.0 ones die on the missing
``tf.estimator`` on TF >= 2.16 and train on TF 2.15, where the Estimator still
exists (which makes them real TF 2.0 programs, not strawmen). Porting and running
them is phase 2 of issue #19 (tests that port with ``slimport rewrite``).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.regression, pytest.mark.tf]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TF1_DATA = ("estimator_tf1/make_data.py", ("train.npz", "eval.npz"))
KERAS_DATA = ("keras_estimator_tf2/make_data.py", ("mnist.npz",))


def _tf_minor() -> tuple[int, int]:
    import importlib.metadata  # pylint: disable=import-outside-toplevel
    major, minor = importlib.metadata.version("tensorflow").split(".")[:2]
    return int(major), int(minor)


def _run(args, timeout=300):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("estimator_data")
    for script, files in (TF1_DATA, KERAS_DATA):
        result = _run([EXAMPLES / script, "--data_dir", root])
        assert result.returncode == 0, result.stderr
        assert all((root / name).exists() for name in files)
    return root


def test_unported_cifar10_estimator_data_script_needs_tf1(tmp_path):
    # Its records are written with TF1's tf.app.flags and tf.python_io: ported first.
    result = _run([EXAMPLES / "cifar10_estimator_tf1/generate_data.py", "--data_dir", tmp_path])
    assert result.returncode != 0
    assert "module 'tensorflow' has no attribute 'app'" in result.stderr.splitlines()[-1]


@pytest.mark.parametrize("script, arguments, error_on_2_16", [
    ("estimator_tf1/cifar10_main.py", ["--num_gpus", "0"],
     "No module named 'tensorflow.contrib'"),
    ("cifar10_estimator_tf1/cifar10_main.py", ["--num_gpus", "0"],
     "No module named 'tensorflow.contrib'"),
    ("estimator_tf2/trainer.py", ["--max_steps", "6"],
     "module 'tensorflow' has no attribute 'estimator'"),
    ("keras_estimator_tf2/mnist_keras.py", ["--max_steps", "6"],
     "module 'tensorflow' has no attribute 'estimator'"),
])
def test_unported_trainer(data, tmp_path, script, arguments, error_on_2_16):
    result = _run([EXAMPLES / script, "--data_dir", data, "--output_dir", tmp_path / "out",
                   *arguments])
    if _tf_minor() >= (2, 16) or "_tf1/" in script:
        assert result.returncode != 0
        assert error_on_2_16 in result.stderr.splitlines()[-1], result.stderr[-3000:]
    else:
        assert result.returncode == 0, result.stderr[-3000:]
        assert any((tmp_path / "out").glob("model.ckpt-6.index"))
