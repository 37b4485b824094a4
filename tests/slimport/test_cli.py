"""`python -m slimport` end to end, in a subprocess, over temp trees, real registry."""
from __future__ import annotations

import ast
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from slimport import codemods as registry

TF1_TRAIN = """\
import tensorflow as tf

slim = tf.contrib.slim

tf.app.flags.DEFINE_string('dataset_dir', None, 'Where the data is.')
tf.app.flags.DEFINE_integer('batch_size', 32, 'Images per batch.')
FLAGS = tf.app.flags.FLAGS


def main(_):
  # Build the model.
  with slim.arg_scope([slim.conv2d], padding='SAME'):
    net = slim.conv2d(tf.zeros([1, 8, 8, 3]), 4, [3, 3])
  tf.logging.info('batch size %d', FLAGS.batch_size)


if __name__ == '__main__':
  tf.app.run()
"""

# Needs porting (tf.contrib.slim), whatever else the registry does with it.
NEEDS_PORT = "import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d\n"
PLAIN = "import os\n\nprint(os.sep)\n"


def test_help_mentions_every_option(slimport_cli) -> None:
    result = slimport_cli("rewrite", "--help")
    assert result.returncode == 0
    for option in ["--out", "--diff", "--check", "-j", "--report", "--only", "--skip",
                   "--map", "--force", "PATH", "exit codes"]:
        assert option in result.stdout, option
    # Every option's help carries an example.
    assert result.stdout.count("e.g.") >= 10
    top = slimport_cli("--help")
    assert all(command in top.stdout for command in ["rewrite", "list", "doctor", "exit codes"])


def test_list_names_every_registered_codemod(slimport_cli) -> None:
    result = slimport_cli("list")
    assert result.returncode == 0
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == [codemod.NAME for codemod in registry.CODEMODS]


def test_in_place_rewrite_then_check_is_clean(slimport_cli, tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"train.py": NEEDS_PORT, "util.py": PLAIN})
    first = slimport_cli("rewrite", "src")
    assert first.returncode == 0, first.stderr
    ported = (src / "train.py").read_text()
    assert "contrib" not in ported
    assert (src / "util.py").read_text() == PLAIN
    again = slimport_cli("rewrite", "src", "--check")
    assert again.returncode == 0, again.stderr
    assert (src / "train.py").read_text() == ported
    # Atomic writes leave no temp files behind.
    assert sorted(os.listdir(src)) == ["train.py", "util.py"]


def test_check_exits_1_lists_files_and_writes_nothing(slimport_cli, tmp_path: Path, make_tree,
                                                      tree_snapshot) -> None:
    src = make_tree(tmp_path / "src", {"train.py": NEEDS_PORT, "util.py": PLAIN})
    before = tree_snapshot(src)
    result = slimport_cli("rewrite", "src", "--check")
    assert result.returncode == 1
    assert os.path.join("src", "train.py") in result.stderr
    assert "would change" in result.stderr.lower()
    assert tree_snapshot(src) == before


def test_diff_prints_patch_and_writes_nothing(slimport_cli, tmp_path: Path, make_tree,
                                              tree_snapshot) -> None:
    src = make_tree(tmp_path / "src", {"train.py": NEEDS_PORT, "util.py": PLAIN})
    before = tree_snapshot(src)
    result = slimport_cli("rewrite", "src", "--diff")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("--- a/src/train.py\n+++ b/src/train.py\n")
    assert "-slim = tf.contrib.slim\n" in result.stdout
    assert "util.py" not in result.stdout
    assert tree_snapshot(src) == before


def test_out_copies_tree_keeps_modes_and_never_touches_source(slimport_cli, tmp_path: Path,
                                                              make_tree, tree_snapshot) -> None:
    src = make_tree(tmp_path / "src", {
        "train.py": NEEDS_PORT, "nets/util.py": PLAIN, "data/labels.txt": "0:cat\n",
        "scripts/run.sh": "#!/bin/sh\npython train.py\n", ".git/config": "[core]\n",
    })
    (src / "scripts/run.sh").chmod(0o755)
    (src / "train.py").chmod(0o750)
    before = tree_snapshot(src)
    result = slimport_cli("rewrite", "src", "--out", "ported")
    assert result.returncode == 0, result.stderr
    out = tmp_path / "ported"
    assert tree_snapshot(src) == before
    assert sorted(tree_snapshot(out)) == ["data/labels.txt", "nets/util.py", "scripts/run.sh",
                                          "train.py"]
    assert "contrib" not in (out / "train.py").read_text()
    assert (out / "nets/util.py").read_text() == PLAIN
    assert stat.S_IMODE((out / "scripts/run.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "train.py").stat().st_mode) == 0o750


def test_out_refusals(slimport_cli, tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path / "src", {"train.py": NEEDS_PORT})
    make_tree(tmp_path / "full", {"keep.txt": "x"})
    inside = slimport_cli("rewrite", "src", "--out", "src/ported")
    assert inside.returncode == 2
    assert "inside the source tree" in inside.stderr
    assert not (tmp_path / "src/ported").exists()
    non_empty = slimport_cli("rewrite", "src", "--out", "full")
    assert non_empty.returncode == 2 and "--force" in non_empty.stderr
    forced = slimport_cli("rewrite", "src", "--out", "full", "--force")
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "full/train.py").exists() and (tmp_path / "full/keep.txt").exists()
    with_diff = slimport_cli("rewrite", "src", "--out", "elsewhere", "--diff")
    assert with_diff.returncode == 2 and not (tmp_path / "elsewhere").exists()


def test_unparsable_files_exit_2_and_others_are_ported(slimport_cli, tmp_path: Path,
                                                       make_tree) -> None:
    py2 = "import tensorflow as tf\nslim = tf.contrib.slim\nprint 'step', 1\n"
    undecodable = b"import tensorflow as tf\nslim = tf.contrib.slim\ns = '\xff'\n"
    src = make_tree(tmp_path / "src", {"py2.py": py2, "latin.py": undecodable,
                                       "good.py": NEEDS_PORT})
    result = slimport_cli("rewrite", "src")
    assert result.returncode == 2
    assert f"{os.path.join('src', 'py2.py')}:3: does not parse" in result.stderr
    assert f"{os.path.join('src', 'latin.py')}:3: cannot be decoded" in result.stderr
    assert (src / "py2.py").read_text() == py2
    assert (src / "latin.py").read_bytes() == undecodable
    assert "contrib" not in (src / "good.py").read_text()


def test_crlf_bom_and_coding_line_survive(slimport_cli, tmp_path: Path, make_tree) -> None:
    crlf = NEEDS_PORT.replace("\n", "\r\n").encode()
    bom = b"\xef\xbb\xbf" + NEEDS_PORT.encode()
    coding = b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + NEEDS_PORT.encode()
    src = make_tree(tmp_path / "src", {"crlf.py": crlf, "bom.py": bom, "coding.py": coding})
    result = slimport_cli("rewrite", "src")
    assert result.returncode == 0, result.stderr
    ported_crlf = (src / "crlf.py").read_bytes()
    assert b"contrib" not in ported_crlf
    assert ported_crlf.count(b"\n") == ported_crlf.count(b"\r\n")
    ported_bom = (src / "bom.py").read_bytes()
    assert ported_bom.startswith(b"\xef\xbb\xbf") and b"contrib" not in ported_bom
    ported_coding = (src / "coding.py").read_bytes()
    assert ported_coding.startswith(b"# -*- coding: latin-1 -*-\n# caf\xe9\n")
    assert b"contrib" not in ported_coding
    assert slimport_cli("rewrite", "src", "--check").returncode == 0


def test_symlink_outside_tree_is_skipped(slimport_cli, tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"train.py": PLAIN})
    outside = make_tree(tmp_path / "elsewhere", {"lib.py": NEEDS_PORT})
    os.symlink(outside / "lib.py", src / "lib.py")
    result = slimport_cli("rewrite", "src", "--report", "r.json")
    assert result.returncode == 0, result.stderr
    assert (outside / "lib.py").read_text() == NEEDS_PORT
    assert "outside the tree" in result.stderr
    files = json.loads((tmp_path / "r.json").read_text())["files"]
    assert {f["path"]: f["status"] for f in files} == {
        os.path.join("src", "lib.py"): "skipped", os.path.join("src", "train.py"): "unchanged"}


def test_read_only_file_fails_alone(slimport_cli, tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"locked.py": NEEDS_PORT, "open.py": NEEDS_PORT})
    (src / "locked.py").chmod(0o444)
    result = slimport_cli("rewrite", "src")
    assert result.returncode == 2
    assert "locked.py: file is read-only" in result.stderr
    assert (src / "locked.py").read_text() == NEEDS_PORT
    assert "contrib" not in (src / "open.py").read_text()


@pytest.mark.parametrize("option", ["--only", "--skip"])
def test_unknown_codemod_name_is_a_usage_error(slimport_cli, tmp_path: Path, option: str) -> None:
    (tmp_path / "a.py").write_text(PLAIN)
    result = slimport_cli("rewrite", "a.py", option, "contrib_slim,no_such_codemod")
    assert result.returncode == 2
    assert "unknown codemod no_such_codemod" in result.stderr
    assert "contrib_slim" in result.stderr.split("known:")[1]


def test_only_runs_just_the_named_codemods(slimport_cli, tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"train.py": NEEDS_PORT})
    first = registry.CODEMODS[-1].NAME  # not contrib_slim: tf.contrib.slim stays
    assert first != "contrib_slim"
    result = slimport_cli("rewrite", "src", "--only", first, "--report", "r.json")
    assert result.returncode == 0, result.stderr
    assert "tf.contrib.slim" in (src / "train.py").read_text()
    codemods = json.loads((tmp_path / "r.json").read_text())["files"][0]["codemods"]
    assert set(codemods) <= {first}


def test_bad_map_is_a_usage_error(slimport_cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(PLAIN)
    result = slimport_cli("rewrite", "a.py", "--map", "data_dir")
    assert result.returncode == 2
    assert "'data_dir' is not FROM=TO" in result.stderr


def test_json_report_schema(slimport_cli, tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path / "src", {"train.py": NEEDS_PORT, "util.py": PLAIN,
                                 "bad.py": "slim = tf.contrib.slim\nx = (\n", "README": "text"})
    result = slimport_cli("rewrite", "src", "--out", "ported", "--report", "report.json")
    assert result.returncode == 2
    document = json.loads((tmp_path / "report.json").read_text())
    assert document["version"] == 1 and document["mode"] == "out"
    summary = document["summary"]
    assert {k: summary[k] for k in ["files", "changed", "unchanged", "failed", "skipped",
                                    "copied"]} == {
        "files": 3, "changed": 1, "unchanged": 1, "failed": 1, "skipped": 0, "copied": 1}
    by_path = {Path(f["path"]).name: f for f in document["files"]}
    train = by_path["train.py"]
    assert set(train) == {"path", "output", "status", "codemods", "edits", "findings", "error",
                          "error_line"}
    assert train["output"] == os.path.join("ported", "train.py")
    assert "contrib_slim" in train["codemods"]
    assert train["edits"] == sum(1 for f in train["findings"] if f["kind"] == "edit") >= 1
    for finding in train["findings"]:
        assert set(finding) == {"codemod", "line", "message", "fix", "kind"}
        assert finding["line"] >= 1
    assert by_path["bad.py"]["error_line"] == 2
    assert summary["edits"] == sum(f["edits"] for f in document["files"])


def test_parallel_jobs_match_serial(slimport_cli, tmp_path: Path, make_tree,
                                    tree_snapshot) -> None:
    files = {f"pkg{i}/m{j}.py": NEEDS_PORT if j % 2 else PLAIN for i in range(3) for j in range(4)}
    make_tree(tmp_path / "serial", files)
    make_tree(tmp_path / "parallel", files)
    assert slimport_cli("rewrite", "serial").returncode == 0
    parallel = slimport_cli("rewrite", "parallel", "-j", "2")
    assert parallel.returncode == 0, parallel.stderr
    assert tree_snapshot(tmp_path / "serial") == tree_snapshot(tmp_path / "parallel")


def test_progress_is_quiet_when_piped(slimport_cli, tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path / "src", {f"m{i}.py": PLAIN for i in range(10)})
    result = slimport_cli("rewrite", "src")
    assert "\r" not in result.stderr and "[1/10]" not in result.stderr


def test_end_to_end_tf1_script(slimport_cli, tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"train.py": TF1_TRAIN})
    result = slimport_cli("rewrite", "src", "--report", "r.json")
    assert result.returncode == 0, result.stderr
    ported = (src / "train.py").read_text()
    ast.parse(ported)
    assert "tf.contrib" not in ported and "tf.app" not in ported
    assert "import tf_slim as slim" in ported
    assert "import tensorflow.compat.v1 as tf" in ported
    assert "flags.DEFINE_string('dataset_dir', None, 'Where the data is.')" in ported
    assert "app.run(main, flags_parser=" in ported
    # Untouched parts stay byte-identical: comments, quoting, two-space indents.
    assert "  # Build the model.\n" in ported
    assert "  with slim.arg_scope([slim.conv2d], padding='SAME'):\n" in ported
    assert "  tf.logging.info('batch size %d', FLAGS.batch_size)\n" in ported
    codemods = json.loads((tmp_path / "r.json").read_text())["files"][0]["codemods"]
    assert {"contrib_slim", "flags_to_absl", "compat_v1"} <= set(codemods)
    assert slimport_cli("rewrite", "src", "--check").returncode == 0


def test_map_without_a_codemod_taking_it_warns(slimport_cli, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(PLAIN)
    result = slimport_cli("rewrite", "a.py", "--map", "data_dir=dataset_dir,log_dir=eval_dir")
    assert result.returncode == 0, result.stderr
    takes_mapping = any("mapping" in getattr(c, "OPTIONS", ()) for c in registry.CODEMODS)
    assert ("--map has no effect" in result.stderr) == (not takes_mapping)


def test_doctor_without_tensorflow_says_how_to_install(monkeypatch, capsys) -> None:
    from slimport import cli

    real_find_spec = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name, *a: None if name == "tensorflow" else real_find_spec(name, *a))
    assert cli.main(["doctor"]) == 1
    message = capsys.readouterr().err
    assert "TensorFlow is not installed" in message and "pip install 'slimport[tf]'" in message


@pytest.mark.tf
def test_doctor_runs_slim_ext_with_the_same_interpreter(slimport_cli, tmp_path: Path) -> None:
    repo_root = Path(__file__).resolve().parents[2]
    direct = subprocess.run([sys.executable, "-m", "slim_ext"], cwd=repo_root, capture_output=True,
                            text=True, timeout=180, check=False,
                            env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"})
    doctor = slimport_cli("doctor", cwd=repo_root, timeout=180)
    assert doctor.returncode == direct.returncode == 0, doctor.stderr
    assert doctor.stdout == direct.stdout
