"""Pieces of the harnesses in tools/: the TF2-code test, junit reading, tables.

The harnesses themselves run in their own tox envs (corpus, noharm);
these are the decisions inside them that a wrong answer would silently skew.
"""
import sys
import textwrap

import pytest

from tests.slimport.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tools"))
import _harness  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import corpus  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import ported_tests  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import tf2_code  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


@pytest.mark.tf
@pytest.mark.parametrize("source, tf2", [
    ("import tensorflow as tf\nx = tf.image.resize(a, b, antialias=True)\n", True),
    ("import tensorflow as tf\nm = tf.keras.layers.Dense(3)\n", True),
    # Code written against the v1 API through compat.v1 is TF1-style code (tf_slim's
    # own modules): the port may edit it, as long as it keeps working.
    ("import tensorflow.compat.v1 as tf\nx = tf.placeholder(tf.float32)\n", False),
    ("import tensorflow as tf\nx = tf.compat.v1.train.Saver()\n", False),
    ("import os\nprint(os.getcwd())\n", True),
    # TensorFlow's private modules are not judged.
    ("from tensorflow.python.ops import array_ops\narray_ops.gone_private()\n", True),
    ("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n", False),
    ("import tensorflow as tf\nslim = tf.contrib.slim\n", False),
    ("from tensorflow.contrib import slim\n", False),
    ("import tensorflow as tf\nflags = tf.app.flags\n", False),
    ("from tensorflow import app\n", False),
    ("import tensorflow\nsaver = tensorflow.train.Saver()\n", False),
    ("print 'python 2'\n", False),
    # TF-Slim code is TF1 API whatever its TensorFlow spelling (tf_slim's own package).
    ("from tf_slim.layers import layers\n", False),
    ("import tf_slim as slim\nimport tensorflow as tf\nx = tf.nn.relu(1)\n", False),
])
def test_tf2_code(tmp_path, source, tf2):
    path = tmp_path / "module.py"
    path.write_text(source)
    assert tf2_code.is_tf2_code(path) is tf2


def test_junit_outcomes_are_keyed_by_file_class_and_test(tmp_path):
    junit = tmp_path / "junit.xml"
    junit.write_text(textwrap.dedent("""\
      <testsuites><testsuite>
        <testcase classname="tf_slim.ops.arg_scope_test.ArgScopeTest" name="test_a"/>
        <testcase classname="tf_slim.ops.arg_scope_test.ArgScopeTest" name="test_b">
          <failure message="x">boom</failure></testcase>
        <testcase classname="ops.arg_scope_test.ArgScopeTest" name="test_c">
          <skipped message="no GPU"/></testcase>
        <testcase classname="tf_slim.ops.arg_scope_test.ArgScopeTest" name="test_d">
          <error message="y">setup</error></testcase>
      </testsuite></testsuites>
      """))
    assert ported_tests._outcomes(junit, "ops/arg_scope_test.py") == {
        "ops/arg_scope_test.py::ArgScopeTest::test_a": "passed",
        "ops/arg_scope_test.py::ArgScopeTest::test_b": "failed",
        "ops/arg_scope_test.py::ArgScopeTest::test_c": "skipped",
        "ops/arg_scope_test.py::ArgScopeTest::test_d": "error",
    }


def test_a_pass_lost_is_a_difference_and_a_failure_fixed_is_counted():
    comparison = ported_tests.Comparison(outcomes={
        "unported": {"t::A::x": "passed", "t::A::y": "failed", "t::A::z": "failed"},
        "ported": {"t::A::x": "failed", "t::A::y": "passed", "t::A::z": "error"}})
    assert comparison.counts("unported") != comparison.counts("ported")
    # A fix (failed -> passed) is counted, not a difference; harm and other changes are.
    assert comparison.differences() == ["t::A::x: passed unported, failed ported",
                                        "t::A::z: failed unported, error ported"]
    assert comparison.fixed() == ["t::A::y"]


def test_table_aligns_columns():
    assert _harness.table(["name", "n"], [["tf_slim", 86], ["keras", 904]]) == (
        "name       n\n-------  ---\ntf_slim   86\nkeras    904")


def test_same_output_compares_files_comments_and_folders(tmp_path):
    import same_output  # noqa: E402  pylint: disable=import-outside-toplevel
    reference, other = tmp_path / "a", tmp_path / "b"
    for root, text in ((reference, "# kept\nx = 1\n"), (other, "x = 1\n")):
        (root / "pkg" / "deep").mkdir(parents=True)
        (root / "pkg" / "m.py").write_text(text)
        (root / "pkg" / "same.py").write_text("y = 2\n")
        (root / "pkg" / "deep" / "d.py").write_text("")
    assert same_output._differing(reference, other, ["pkg/m.py", "pkg/same.py",
                                                     "pkg/gone.py"]) == ["pkg/m.py",
                                                                         "pkg/gone.py"]
    lost = same_output._comment_lines(reference / "pkg" / "m.py") - \
        same_output._comment_lines(other / "pkg" / "m.py")
    assert list(lost) == ["# kept"]
    assert same_output._sub_folders(reference, 12) == [reference / "pkg",
                                                        reference / "pkg" / "deep"]
    assert same_output._sub_folders(reference, 1) == [reference / "pkg"]


def test_same_output_finds_one_answer_on_bundled_examples(tmp_path, monkeypatch):
    """The harness end to end on the two smallest examples, checked at once: every check
    ran, each tree's outcome comes back in the order asked, nothing differs."""
    import same_output  # noqa: E402  pylint: disable=import-outside-toplevel
    monkeypatch.setenv("PYTHONPATH", str(REPO_ROOT))  # this checkout's slimport
    trees = {name: REPO_ROOT / "examples" / name
             for name in ("keras_estimator_tf2", "estimator_tf2")}
    outcomes = same_output.check_trees(trees, tmp_path, 2, 2, _harness.Deadline(300))
    assert [outcome.name for outcome in outcomes] == list(trees)
    for outcome in outcomes:
        assert set(outcome.compared) == set(same_output.CHECKS)
        assert outcome.compared["twice"] == outcome.compared["in place"] > 0
        assert set(outcome.seconds) == {"port", "twice", "in place", "diff", "stdin"}
        assert all(not names for names in outcome.differences.values()), outcome.differences


def test_same_output_lets_the_port_answer_for_a_large_tree_it_leaves_as_it_was(
        tmp_path, monkeypatch):
    """A large tree the reference port leaves byte for byte (an installed TF 2 package)
    needs no second port nor in-place port: they would read the reference's own input.
    A large tree the port edits still gets both runs."""
    import same_output  # noqa: E402  pylint: disable=import-outside-toplevel
    monkeypatch.setenv("PYTHONPATH", str(REPO_ROOT))  # this checkout's slimport
    monkeypatch.setattr(same_output, "LARGE_TREE", 1)
    trees = {}
    for name, first in (("tf2", "import tensorflow as tf\nx = tf.constant(1)\n"),
                        ("tf1", "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")):
        tree = trees[name] = tmp_path / "src" / name
        (tree / "sub").mkdir(parents=True)
        (tree / "first.py").write_text(first)
        (tree / "sub" / "second.py").write_text("y = 2\n")
    unedited, edited = same_output.check_trees(trees, tmp_path / "work", 2, 2,
                                               _harness.Deadline(300))
    assert unedited.by_reference and not edited.by_reference
    assert unedited.compared["twice"] == unedited.compared["in place"] == 2
    assert "twice" not in unedited.seconds and "in place" not in unedited.seconds
    assert edited.compared["twice"] == edited.compared["in place"] == 2
    assert {"twice", "in place"} <= set(edited.seconds)
    for outcome in (unedited, edited):
        assert all(not names for names in outcome.differences.values()), outcome.differences
    assert (tmp_path / "src" / "tf1" / "first.py").read_text().startswith("import tensorflow as")
    # A large tree's reference ran -j 2: its sub-folders alone run -j 1 against it.
    for name in trees:
        runs = (tmp_path / "work" / name / "slimport.log").read_text().splitlines()
        assert any(run.startswith("$ slimport rewrite tf") and " -j 2 " in run for run in runs)
        assert any(run.startswith(f"$ slimport rewrite {name}/sub --out") and " -j 1 " in run
                   for run in runs), runs

def test_a_download_reaches_the_cache_only_whole(tmp_path, monkeypatch):
    """tox -p 2 runs two envs that fetch the same peers: while pip writes, the cached
    name must not exist (another run would read half a file and fail its hash)."""
    small = corpus.Corpus("six", "six==1.16.0",
                          "1e61c37477a1626458e36f7b1d82aa5c9b094fa4802892072e49de9c60c4c926")
    cached = tmp_path / small.archive
    seen_after_pip = []
    real_run = _harness.run

    def run_then_look(command, deadline, *args, **kwargs):
        ran = real_run(command, deadline, *args, **kwargs)
        seen_after_pip.append(cached.exists())
        return ran

    monkeypatch.setattr(_harness, "run", run_then_look)
    assert corpus.fetch(small, tmp_path, _harness.Deadline(300)) == cached
    assert seen_after_pip == [False]
    assert [path.name for path in tmp_path.iterdir()] == [small.archive]
