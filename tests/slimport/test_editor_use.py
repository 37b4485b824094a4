"""What ruff, black and isort users expect: ``[tool.slimport]`` settings, ``slimport
rewrite -`` (standard input to standard output), FORCE_COLOR next to NO_COLOR, and
TensorFlow's native start-up lines kept out of ``doctor`` and ``verify`` unless -v."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, Optional

import pytest

from tests.slimport.conftest import REPO_ROOT

NEEDS_PORT = "import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d\n"
PORTED = "import tf_slim as slim\nimport slim_ext\nnet = slim.conv2d\n"
TRAIN = ("import tensorflow as tf\n\n"
         "tf.app.flags.DEFINE_string('dataset_dir', None, 'Where the data is.')\n"
         "FLAGS = tf.app.flags.FLAGS\n\n\ndef main(_):\n  tf.placeholder(tf.float32)\n\n\n"
         "if __name__ == '__main__':\n  tf.app.run()\n")
NATIVE_LOG = re.compile(r"^[IWE]\d{4} |InitializeLog", re.MULTILINE)


def _slimport(*args: str, cwd: Path, stdin: Optional[bytes] = None,
              env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("NO_COLOR", "FORCE_COLOR", "TF_CPP_MIN_LOG_LEVEL")}
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), *filter(None, [environment.get("PYTHONPATH")])])
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "slimport", *args], cwd=cwd, input=stdin,
                          env=environment, capture_output=True, timeout=300, check=False)


def _report(path: Path) -> Dict[str, dict]:
    return {Path(entry["path"]).name: entry
            for entry in json.loads(path.read_text())["files"]}


# --- [tool.slimport] ---------------------------------------------------------------

SETTINGS = """\
[project]
name = "user-project"

[tool.slimport]
exclude = ["*_pb2.py"]
max-size = "300"
skip = "compat_v1"
map = { data_dir = "dataset_dir" }
jobs = 1
"""


@pytest.fixture
def project(tmp_path: Path, make_tree) -> Path:
    """A project whose pyproject.toml has settings, a PATH two directories below it,
    and a pyproject.toml without [tool.slimport] between them (looked past)."""
    return make_tree(tmp_path / "project", {
        "pyproject.toml": SETTINGS,
        "src/pyproject.toml": "[project]\nname = 'inner'\n",
        "src/nets/net.py": NEEDS_PORT,
        "src/nets/table_pb2.py": NEEDS_PORT,
        "src/nets/big.py": NEEDS_PORT + "X = 1\n" * 60,
        "src/train.py": TRAIN,
    })


def test_settings_come_from_the_nearest_pyproject_with_the_table(project: Path,
                                                                 tmp_path: Path) -> None:
    # Run from elsewhere: the settings are looked for from the PATH.
    done = _slimport("rewrite", str(project / "src"), "--check", "-v", "--report",
                     str(tmp_path / "r.json"), cwd=tmp_path)
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr  # big.py fails the check
    assert (f"slimport: settings from {project / 'pyproject.toml'} [tool.slimport]: "
            f"exclude, max-size, skip, map, jobs") in stderr
    report = _report(tmp_path / "r.json")
    assert "table_pb2.py" not in report, "exclude"
    assert report["big.py"]["status"] == "failed" and "300 bytes limit" in \
        report["big.py"]["error"], "max-size"
    assert "compat_v1" not in report["train.py"]["codemods"], "skip"
    # uai_flags edits only with a mapping onto a flag the script defines.
    assert any("{data_dir->dataset_dir}" in finding["message"]
               for finding in report["train.py"]["findings"]), "map"


def test_the_command_line_wins(project: Path, tmp_path: Path) -> None:
    done = _slimport("rewrite", "src", "--check", "--exclude", "big.py", "--max-size", "0",
                     "--skip", "numpy_aliases", "--report", str(tmp_path / "r.json"),
                     cwd=project)
    assert done.returncode == 1, done.stderr.decode()
    report = _report(tmp_path / "r.json")
    # --exclude replaces the setting's list; --max-size and --skip replace theirs.
    assert "big.py" not in report and report["table_pb2.py"]["status"] == "changed"
    assert "compat_v1" in report["train.py"]["codemods"]


def test_the_documented_settings_example_is_accepted(tmp_path: Path, make_tree) -> None:
    readme = (REPO_ROOT / "docs" / "rewrite.md").read_text(encoding="utf-8")
    example = textwrap.dedent(re.search(r"```toml\n(.*?)\n *```", readme, re.DOTALL).group(1))
    make_tree(tmp_path, {"pyproject.toml": example, "third_party/x.py": NEEDS_PORT,
                         "a.py": NEEDS_PORT})
    done = _slimport("rewrite", ".", "--check", "-v", cwd=tmp_path)
    stderr = done.stderr.decode()
    assert done.returncode == 1, stderr
    assert "[tool.slimport]: exclude, max-size, skip, map, jobs" in stderr
    assert "third_party/x.py: matches --exclude third_party/*" in stderr


def test_config_file_and_no_config(project: Path, tmp_path: Path, make_tree) -> None:
    other = make_tree(tmp_path / "ci", {"slimport.toml": "[tool.slimport]\nonly = ['moxing']\n"})
    named = _slimport("rewrite", "src", "--check", "--config", str(other / "slimport.toml"),
                      cwd=project)
    assert named.returncode == 0, named.stderr.decode()  # no file uses moxing
    none = _slimport("rewrite", "src", "--check", "--no-config", "--report",
                     str(tmp_path / "r.json"), cwd=project)
    assert none.returncode == 1 and "table_pb2.py" in _report(tmp_path / "r.json")


@pytest.mark.parametrize("table, message", [
    ("exclud = ['x']", "[tool.slimport] has an unknown key 'exclud' (did you mean "
                       "'exclude'?); the keys are cache-dir, color, exclude, jobs, map, "
                       "max-size, no-cache, only, quiet, skip, verbose"),
    ("check = true", "[tool.slimport] check: --check belongs to one run; give it on the "
                     "command line"),
    ("max-size = '2X'", "[tool.slimport] max-size: '2X' is not a size in bytes"),
    ("jobs = 'many'", "[tool.slimport] jobs: 'many' is not a number of processes"),
    ("color = 'rainbow'", "[tool.slimport] color: 'rainbow' is not one of auto, always, never"),
    ("map = ['data_dir']", "[tool.slimport] map: 'data_dir' is not FROM=TO"),
    ("only = ['no_such_codemod']", "no_such_codemod"),
    ("verbose = 'yes'", "[tool.slimport] verbose: 'yes' is not true or false"),
    ("exclude = [", "cannot read"),
])
def test_bad_settings_are_usage_errors_naming_the_file(table: str, message: str,
                                                       tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path, {"pyproject.toml": f"[tool.slimport]\n{table}\n", "a.py": NEEDS_PORT})
    done = _slimport("rewrite", "a.py", "--check", cwd=tmp_path)
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert message in stderr and (message == "no_such_codemod" or
                                  str(tmp_path / "pyproject.toml") in stderr), stderr
    assert (tmp_path / "a.py").read_text() == NEEDS_PORT


# --- slimport rewrite - ------------------------------------------------------------------

def test_standard_input_is_ported_to_standard_output(tmp_path: Path) -> None:
    source = ("\ufeff" + NEEDS_PORT).replace("\n", "\r\n").encode("utf-8")
    done = _slimport("rewrite", "-", cwd=tmp_path, stdin=source)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == ("\ufeff" + PORTED).replace("\n", "\r\n").encode("utf-8")
    assert "Changed (1):\n  <stdin>  (2 edits: contrib_slim, slim_ext_import)" \
        in done.stderr.decode()
    assert list(tmp_path.iterdir()) == []


def test_standard_input_check_and_diff(tmp_path: Path) -> None:
    check = _slimport("rewrite", "-", "--check", cwd=tmp_path, stdin=NEEDS_PORT.encode())
    assert (check.returncode, check.stdout) == (1, b"")
    clean = _slimport("rewrite", "-", "--check", cwd=tmp_path, stdin=PORTED.encode())
    assert (clean.returncode, clean.stdout) == (0, b"")
    diff = _slimport("rewrite", "-", "--diff", "--stdin-filename", "nets/net.py", cwd=tmp_path,
                     stdin=NEEDS_PORT.encode())
    assert diff.returncode == 1
    assert diff.stdout.decode().startswith("--- a/nets/net.py\n+++ b/nets/net.py\n")
    assert "-slim = tf.contrib.slim\n" in diff.stdout.decode()


def test_standard_input_that_cannot_be_ported_comes_out_unchanged(tmp_path: Path) -> None:
    python2 = b"import tensorflow as tf\nprint 'x'\n"
    done = _slimport("rewrite", "-", "--stdin-filename", "old.py", cwd=tmp_path, stdin=python2)
    assert done.returncode == 2
    assert done.stdout == python2
    assert "old.py:2: " in done.stderr.decode()


def test_standard_input_settings_are_the_named_files(project: Path, tmp_path: Path) -> None:
    # big.py is over the project's max-size: only the project's settings say so.
    data = (project / "src" / "nets" / "big.py").read_bytes()
    done = _slimport("rewrite", "-", "--stdin-filename", str(project / "src/nets/big.py"),
                     cwd=tmp_path, stdin=data)
    assert done.returncode == 0 and done.stdout == data
    assert "is over the 300 bytes limit" in done.stderr.decode()


@pytest.mark.parametrize("args, message", [
    (["-", "a.py"], "- (standard input) cannot be given with other PATHs"),
    (["-", "--out", "ported"], "with - the ported file goes to standard output"),
    (["a.py", "--stdin-filename", "b.py"], "--stdin-filename names the file read from -"),
])
def test_standard_input_usage_errors(args: list, message: str, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(NEEDS_PORT)
    done = _slimport("rewrite", *args, cwd=tmp_path, stdin=b"")
    assert done.returncode == 2 and message in done.stderr.decode()
    assert (tmp_path / "a.py").read_text() == NEEDS_PORT


# --- colour ----------------------------------------------------------------------------

@pytest.mark.parametrize("env, args, coloured", [
    ({"FORCE_COLOR": "1"}, [], True),
    ({"FORCE_COLOR": "1", "TERM": "dumb"}, [], True),
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, [], False),
    ({"FORCE_COLOR": "1"}, ["--color", "never"], False),
    ({"FORCE_COLOR": ""}, [], False),
    ({"NO_COLOR": "1"}, ["--color", "always"], True),
    ({}, [], False),
], ids=["force", "force-over-dumb-term", "no-color-over-force", "command-line-over-force",
        "empty-force", "command-line-over-no-color", "piped"])
def test_force_color_colours_a_piped_diff(env: dict, args: list, coloured: bool,
                                          tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(NEEDS_PORT)
    done = _slimport("rewrite", "a.py", "--diff", *args, cwd=tmp_path, env=env)
    assert done.returncode == 1
    assert ("\x1b[31m-slim = tf.contrib.slim\x1b[0m" in done.stdout.decode()) == coloured
    assert ("\x1b[" in done.stdout.decode()) == coloured


# --- TensorFlow's native start-up lines --------------------------------------------------

@pytest.mark.tf
def test_doctor_shows_native_start_up_lines_only_with_v(tmp_path: Path) -> None:
    quiet = _slimport("doctor", cwd=tmp_path)
    verbose = _slimport("doctor", "-v", cwd=tmp_path)
    assert quiet.returncode == verbose.returncode == 0, verbose.stderr.decode()
    assert not NATIVE_LOG.search(quiet.stderr.decode())
    assert NATIVE_LOG.search(verbose.stderr.decode())
    assert quiet.stdout == verbose.stdout


@pytest.mark.tf
def test_verify_keeps_native_lines_out_of_a_worker_failure_unless_v(tmp_path: Path,
                                                                     make_tree) -> None:
    # A preload that loads TensorFlow, then ends the worker while it starts.
    tree = make_tree(tmp_path / "tree", {"die.py": "import os\nimport tensorflow\nos._exit(3)\n"})
    quiet = _slimport("verify", str(tree), "--preload", "tensorflow,die", cwd=tmp_path)
    verbose = _slimport("verify", str(tree), "--preload", "tensorflow,die", "-v", cwd=tmp_path)
    for done in (quiet, verbose):
        assert done.returncode == 2
        assert "the verify worker exited while starting" in done.stderr.decode()
    assert not NATIVE_LOG.search(quiet.stderr.decode())
    assert NATIVE_LOG.search(verbose.stderr.decode())
