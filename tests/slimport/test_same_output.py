"""One answer per file (issue 42): a port is the same however it is run, and a second
run changes nothing.

Each tree below is ported with ``--out`` (the reference), again over its own output
(``--check`` finds nothing), in place, with ``-j 2``, through ``--diff``, and, where it
has a sub-folder, that sub-folder alone; tools/same_output.py does the same on the
real corpora. The trees are the shapes issue 42 found on a held-out corpus.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slimport.cli import main
from tests.slimport.conftest import REPO_ROOT, snapshot, write_tree

# A TF 2 module that uses tf.compat.v1.layers: the port gives it ``import slim_ext``
# (tf_keras' legacy layers), which a second run took for TF1 evidence and moved the
# whole file to compat.v1 and graph mode.
TF2_WITH_V1_LAYERS = {
    "resnet_model.py": (
        "import tensorflow as tf\n\n\n"
        "def block(inputs, filters):\n"
        "  inputs = tf.compat.v1.layers.dense(inputs, filters)\n"
        "  return tf.nn.relu(inputs)\n"),
    "imagenet_main.py": (
        "import tensorflow as tf\n\nimport resnet_model\n\n\n"
        "def main():\n"
        "  return resnet_model.block(tf.ones([1, 2]), 3)\n\n\n"
        "if __name__ == '__main__':\n  main()\n"),
}

# A TF 2 test of a record array: the port gives it ``import slim_ext.test_util``.
TF2_RECORD_TEST = {
    "vrd_test.py": (
        "import numpy as np\nimport tensorflow as tf\n\n\n"
        "class VrdTest(tf.test.TestCase):\n\n"
        "  def test_labels(self):\n"
        "    self.assertAllEqual(np.array([(1, 2)], dtype=[('subject', 'i4'), ('object', 'i4')]),\n"
        "                        self.labels)\n\n\n"
        "if __name__ == '__main__':\n  tf.test.main()\n"),
}

# A compat.v1 script of TF 2 days whose tf.app.flags become slim_ext.tf1_flags, and its
# test: a second run took the script's new import for TF1 evidence (object detection
# 2.8's dataset_tools).
COMPAT_V1_SCRIPT = {
    "tools/__init__.py": "",
    "tools/create_record.py": (
        "import tensorflow.compat.v1 as tf\n\n"
        "tf.app.flags.DEFINE_string('data_dir', '', 'Where the data is.')\n"
        "FLAGS = tf.app.flags.FLAGS\n\n\n"
        "def main(_):\n  print(FLAGS.data_dir)\n\n\n"
        "if __name__ == '__main__':\n  tf.app.run()\n"),
    "tools/create_record_test.py": (
        "import PIL.Image\nimport tensorflow.compat.v1 as tf\n\n"
        "from tools import create_record\n\n\n"
        "class CreateRecordTest(tf.test.TestCase):\n\n"
        "  def test_image(self):\n"
        "    PIL.Image.fromarray(self.image, 'RGB')\n"),
}

# A TF1 module and a test of it that names no TF1-only API: TF1 code by its neighbour.
# In place, the neighbour was read after the run had rewritten it, and no longer counted.
TF1_NEIGHBOUR = {
    "detection/__init__.py": "",
    "detection/a_model.py": (
        "import tensorflow as tf\n\n\n"
        "def logits(images):\n"
        "  inputs = tf.placeholder(tf.float32, [None, 4])\n"
        "  return tf.nn.softmax(inputs + images)\n"),
    "detection/b_model_test.py": (
        "import tensorflow as tf\n\nfrom detection import a_model\n\n\n"
        "class ModelTest(tf.test.TestCase):\n\n"
        "  def test_softmax(self):\n"
        "    self.assertEqual(a_model.logits, a_model.logits)\n"
        "    self.assertIsNotNone(tf.nn.softmax)\n"),
}

# Two projects ported as one tree: one defines an ``iteritems`` method of its own, which
# stopped the other's ``.iteritems()`` -> ``.items()`` although it cannot import it.
TWO_PROJECTS = {
    "lua_project/lua/__init__.py": "",
    "lua_project/lua/table.py": (
        "class Table(object):\n\n  def iteritems(self):\n    return iter(())\n"),
    "stats_project/stats/__init__.py": "",
    "stats_project/stats/summary.py": (
        "import tensorflow as tf\n\n\n"
        "def write(counts):\n"
        "  x = tf.placeholder(tf.float32)\n"
        "  for name, count in counts.iteritems():\n"
        "    tf.summary.scalar(name, count)\n"
        "  return x\n"),
}

TREES = {"tf2 with v1 layers": TF2_WITH_V1_LAYERS, "tf2 record test": TF2_RECORD_TEST,
         "compat.v1 script": COMPAT_V1_SCRIPT, "tf1 neighbour": TF1_NEIGHBOUR,
         "two projects": TWO_PROJECTS}


def _rewrite(*arguments: object) -> int:
    return main(["rewrite", *map(str, arguments), "-q", "--no-cache"])


def _python(root: Path) -> Dict[str, bytes]:
    return {name: data for name, data in snapshot(root).items() if name.endswith(".py")}


def _differences(reference: Dict[str, bytes], other: Dict[str, bytes]) -> List[str]:
    return sorted(name for name in reference.keys() | other.keys()
                  if reference.get(name) != other.get(name))


def assert_same_output(tree: Dict[str, str], work: Path) -> Dict[str, bytes]:
    """Port ``tree`` every way; returns the reference port (``--out``, ``-j 1``)."""
    source = write_tree(work / "source" / "tree", tree)
    assert _rewrite(source, "--out", work / "once", "-j", "1") == 0
    once = _python(work / "once")
    assert _rewrite(work / "once", "--check", "-j", "1") == 0, "a second run changes something"
    shutil.copytree(source, work / "in_place")
    assert _rewrite(work / "in_place", "-j", "1") == 0
    assert _differences(once, _python(work / "in_place")) == [], "in place is not --out"
    assert _rewrite(source, "--out", work / "two", "-j", "2") == 0
    assert _differences(once, _python(work / "two")) == [], "-j 2 is not -j 1"
    diff = subprocess.run(["patch", "-p1", "-s", "-d", str(work / "source")], check=True,
                          input=_diff_of(source), text=True, capture_output=True, timeout=60)
    assert diff.returncode == 0
    assert _differences(once, _python(source)) == [], "--diff applied is not --out"
    return once


def _diff_of(source: Path) -> str:
    """``slimport rewrite SOURCE --diff`` (run from SOURCE's folder: paths as patch reads them)."""
    ran = subprocess.run([sys.executable, "-m", "slimport", "rewrite", source.name, "--diff",
                          "--no-cache", "--color", "never"], cwd=source.parent, text=True,
                         capture_output=True, timeout=120, check=False,
                         env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert ran.returncode in (0, 1), ran.stderr
    return ran.stdout


@pytest.mark.parametrize("name", sorted(TREES))
def test_every_way_of_running_gives_one_answer(name: str, tmp_path: Path) -> None:
    assert_same_output(TREES[name], tmp_path)


def test_what_the_port_writes_is_no_evidence_for_a_second_run(tmp_path: Path) -> None:
    once = assert_same_output(TF2_WITH_V1_LAYERS, tmp_path)
    model = once["resnet_model.py"].decode()
    assert "import slim_ext\n" in model and "import tensorflow as tf\n" in model
    assert "disable_v2_behavior" not in once["imagenet_main.py"].decode()
    test = assert_same_output(TF2_RECORD_TEST, tmp_path / "records")["vrd_test.py"]
    assert b"slim_ext.test_util" in test and b"import tensorflow as tf\n" in test
    script = assert_same_output(COMPAT_V1_SCRIPT, tmp_path / "script")
    assert b"fromarray(self.image, 'RGB')" in script["tools/create_record_test.py"]


def test_a_neighbour_counts_as_it_was_before_the_run_wrote_it(tmp_path: Path) -> None:
    once = assert_same_output(TF1_NEIGHBOUR, tmp_path)
    test = once["detection/b_model_test.py"].decode()
    assert test.startswith("import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n")


def test_a_project_ported_beside_another_is_ported_as_alone(tmp_path: Path) -> None:
    together = assert_same_output(TWO_PROJECTS, tmp_path / "together")
    summary = together["stats_project/stats/summary.py"]
    assert b"counts.items()" in summary
    alone = write_tree(tmp_path / "alone", {name: text for name, text in TWO_PROJECTS.items()
                                           if name.startswith("stats_project/")})
    assert _rewrite(alone / "stats_project", "--out", tmp_path / "alone_out") == 0
    assert (tmp_path / "alone_out" / "stats" / "summary.py").read_bytes() == summary
    # A sub-folder ported alone reads the rest of its package from disk: the same facts.
    stats = tmp_path / "together" / "source" / "tree" / "stats_project" / "stats"
    assert _rewrite(stats, "--out", tmp_path / "stats_out") == 0
    assert (tmp_path / "stats_out" / "summary.py").read_bytes() == summary


# Generated trees: modules that import each other, each TF1, TF 2, compat.v1 or plain
# Python, with Python 2 leftovers and the constructs the port adds imports for.
_BODIES = {
    "tf1": "x = tf.placeholder(tf.float32)\n",
    "tf2": "x = tf.image.resize(tf.ones([1, 2, 2, 1]), [4, 4], antialias=True)\n",
    "both": "x = tf.nn.softmax(tf.ones([2]))\n",
    "v1_layers": "x = tf.compat.v1.layers.dense(tf.ones([1, 2]), 3)\n",
    "flags": "tf.app.flags.DEFINE_string('name', '', 'A name.')\n",
    "plain": "x = 1\n",
}
_EXTRAS = ["", "for key, value in {}.iteritems():\n  pass\n",
           "def iteritems(self):\n  return iter(())\n",
           "class T(tf.test.TestCase):\n  def test_x(self):\n    self.assertTrue(True)\n",
           "if __name__ == '__main__':\n  print(x)\n"]


@st.composite
def generated_trees(draw) -> Dict[str, str]:
    count = draw(st.integers(min_value=2, max_value=5))
    names = [f"m{index}" for index in range(count)]
    files: Dict[str, str] = {"pkg/__init__.py": ""}
    for index, name in enumerate(names):
        header = draw(st.sampled_from(["import tensorflow as tf\n",
                                       "import tensorflow.compat.v1 as tf\n", ""]))
        imported = draw(st.lists(st.sampled_from(names[:index] or ["os"]), max_size=2,
                                 unique=True))
        lines = [header, *(f"from pkg import {other}\n" if other != "os" else "import os\n"
                           for other in imported)]
        body = draw(st.sampled_from(sorted(_BODIES)))
        lines.append(_BODIES[body] if header or body == "plain" else _BODIES["plain"])
        lines.append(draw(st.sampled_from(_EXTRAS)) if header else "")
        folder = draw(st.sampled_from(["pkg/", "scripts/"]))
        files[f"{folder}{name}.py"] = "".join(lines)
    return files


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=generated_trees())
def test_generated_trees_give_one_answer(tree: Dict[str, str], tmp_path_factory) -> None:
    assert_same_output(tree, tmp_path_factory.mktemp("generated"))
