"""examples/slim_tf1 is the TF1 tree slimport ports: it must stay TF1 code.

It has to be valid Python 3 (the rewrite parses it), written against the TF1 API
only (nothing already ported), and fail on the installed TensorFlow 2 the way
real TF1 code does: at the first `tf.contrib` or `tf.app` it touches.
"""
import ast
import os
import re
import sys
from pathlib import Path

import pytest

from tests._procs import run_side_by_side

TREE = Path(__file__).resolve().parents[2] / "examples" / "slim_tf1"
PY_FILES = sorted(TREE.rglob("*.py"))
ENTRY_SCRIPTS = [
    "train_image_classifier.py",
    "eval_image_classifier.py",
    "make_synthetic_data.py",
]
# Imports that would mean the fixture has been (partly) ported already.
PORTED_MODULES = ("tf_slim", "absl", "slim_ext", "tensorflow.compat")

_LAST_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)')
_TF1_ERROR = re.compile(
    r"^(AttributeError: module 'tensorflow' has no attribute '(contrib|app)'"
    r"|ModuleNotFoundError: No module named 'tensorflow\.(contrib|app)')$",
    re.MULTILINE,
)


def _rel(path):
    return str(path.relative_to(TREE))


def _imported_modules(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_tree_has_the_upstream_layout():
    expected = {
        "train_image_classifier.py", "eval_image_classifier.py",
        "make_synthetic_data.py", "README.md",
        "deployment/__init__.py", "deployment/model_deploy.py",
        "nets/__init__.py", "nets/nets_factory.py", "nets/lenet.py",
        "nets/cifarnet_bn.py",
        "datasets/__init__.py", "datasets/dataset_factory.py",
        "datasets/dataset_utils.py", "datasets/synthetic.py",
        "preprocessing/__init__.py", "preprocessing/preprocessing_factory.py",
        "preprocessing/lenet_preprocessing.py",
        "preprocessing/cifarnet_preprocessing.py",
    }
    present = {_rel(p) for p in TREE.rglob("*") if p.is_file()}
    assert expected <= present, sorted(expected - present)


@pytest.mark.parametrize("path", PY_FILES, ids=_rel)
def test_file_is_python3_and_tf1_only(path):
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    ported = [m for m in _imported_modules(tree) if m.startswith(PORTED_MODULES)]
    assert not ported, f"{_rel(path)} imports already-ported modules {ported}"
    uses_slim = any(isinstance(node, ast.Name) and node.id == "slim"
                    for node in ast.walk(tree))
    if uses_slim:
        assert "\nslim = tf.contrib.slim\n" in source, (
            f"{_rel(path)} uses slim without binding it as tf.contrib.slim")


def test_model_deploy_places_replicas_without_their_task():
    # The per-replica fix is what the replica_device codemod adds; the fixture
    # must carry the upstream device string, '/job:worker' with no task.
    path = TREE / "deployment" / "model_deploy.py"
    source = path.read_text(encoding="utf-8")
    config = next(node for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.ClassDef)
                  and node.name == "DeploymentConfig")
    assignments = [
        ast.get_source_segment(source, node) for node in ast.walk(config)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == "_worker_device"
                for t in node.targets)
    ]
    assert assignments == [
        "self._worker_device = '/job:' + worker_job_name if num_ps_tasks > 0 else ''"
    ]


@pytest.fixture(scope="module")
def help_runs(tmp_path_factory):
    """`<script> --help` for every entry script, run side by side (each pays the
    ~4 s TensorFlow import on its own)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    cwd = tmp_path_factory.mktemp("tf1_help")
    results = run_side_by_side(
        {script: ([sys.executable, str(TREE / script), "--help"], cwd)
         for script in ENTRY_SCRIPTS}, env, timeout=180)
    return {script: (result.returncode, result.stdout, result.stderr)
            for script, result in results.items()}


@pytest.mark.tf
@pytest.mark.parametrize("script", ENTRY_SCRIPTS)
def test_entry_script_fails_on_tf2_at_a_tf1_api(script, help_runs):
    returncode, stdout, stderr = help_runs[script]
    assert returncode == 1, stderr[-3000:]
    assert "--dataset_dir" not in stdout, "flags parsed: it ran as TF1"
    assert _TF1_ERROR.search(stderr), stderr[-3000:]

    # The failing line is one of the tree's own TF1 calls, not some import
    # problem elsewhere.
    path, line = _LAST_FRAME.findall(stderr)[-1]
    failing_file = Path(path)
    assert failing_file.is_relative_to(TREE), path
    failing_line = failing_file.read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert re.search(r"tf\.(contrib|app)\b", failing_line), failing_line
