"""docs/dependencies.md's recipe, as it stands: a TF1-era library (tflearn 0.3.2, from
the package index) installed without its TensorFlow 1 requirement, ported into a folder
of its own, and a TF1 program using it, run with that folder first on the path, trains
on this TensorFlow.

The library's own suite, ported the same way, is tools/tflearn_suite.py's yardstick.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from tests.documented import documented

pytestmark = [pytest.mark.regression, pytest.mark.tf]

# A TF1 program of tflearn's README kind: OR-like data, two dense layers, a few epochs.
PROGRAM = '''\
import json
import tensorflow as tf
import tflearn


def main():
    tf.set_random_seed(0)
    X = [[0., 0.], [0., 1.], [1., 0.], [1., 1.]]
    Y = [[0.], [1.], [1.], [1.]]
    net = tflearn.input_data(shape=[None, 2])
    net = tflearn.fully_connected(net, 8, activation='relu')
    net = tflearn.fully_connected(net, 1, activation='sigmoid')
    net = tflearn.regression(net, optimizer='sgd', learning_rate=2.,
                             loss='binary_crossentropy')
    model = tflearn.DNN(net)
    model.fit(X, Y, n_epoch=200, snapshot_epoch=False, show_metric=False)
    print(json.dumps([float(p[0]) for p in model.predict(X)]))


if __name__ == '__main__':
    main()
'''
SWITCH = "tf.disable_v2_behavior()"
IMPORT = "import tensorflow.compat.v1 as tf\n"


def _run(words: List[str], cwd: Path, first: str = "") -> subprocess.CompletedProcess:
    """``words`` run with this Python's environment on PATH, ``first`` first on the path."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    executable = shutil.which(words[0], path=path)
    assert executable is not None, f"{words[0]} is not on PATH"
    python_path = os.pathsep.join(filter(None, [first, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([executable, *words[1:]], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False,
                          env=dict(os.environ, PATH=path, PYTHONPATH=python_path,
                                   TF_CPP_MIN_LOG_LEVEL="2"))


def test_a_ported_tf1_library_first_on_the_path_runs_its_user(tmp_path: Path) -> None:
    installed = _run(documented("pip install --no-deps --target tf1_deps tflearn==0.3.2"),
                     tmp_path)
    assert installed.returncode == 0, installed.stderr[-3000:]
    found = _run(documented(
        "python -c \"import importlib.util; print(importlib.util.find_spec('tflearn')"
        ".submodule_search_locations[0])\""), tmp_path, "tf1_deps")
    assert Path(found.stdout.strip()) == tmp_path / "tf1_deps" / "tflearn", found.stderr
    ported = _run(documented("slimport rewrite tf1_deps/tflearn --out ported_deps/tflearn"),
                  tmp_path)
    assert ported.returncode == 0, ported.stdout[-3000:] + ported.stderr[-3000:]
    program = tmp_path / "train.py"
    program.write_text(PROGRAM, encoding="utf-8")
    # The unported library fails at import on TensorFlow 2.
    before = _run(["python", "train.py"], tmp_path, "tf1_deps")
    assert before.returncode != 0 and "contrib" in before.stderr
    assert _run(documented("slimport rewrite train.py"), tmp_path).returncode == 0
    text = program.read_text(encoding="utf-8")
    assert IMPORT in text and f"    {SWITCH}\n    main()" in text
    # The step by hand: graph mode before the library is imported.
    program.write_text(text.replace(f"    {SWITCH}\n", "").replace(IMPORT, f"{IMPORT}{SWITCH}\n"),
                       encoding="utf-8")
    after = _run(["python", "train.py"], tmp_path, "ported_deps")
    assert after.returncode == 0, after.stderr[-4000:]
    # (tflearn prints its progress on stdout too, with terminal escapes.)
    predictions = json.loads(re.findall(r"\[[-+0-9.eE, ]+\]", after.stdout)[-1])
    assert predictions[0] < 0.5 < min(predictions[1:])
