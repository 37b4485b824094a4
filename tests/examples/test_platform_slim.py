"""examples/platform_slim over examples/slim_tf1 is the platform's tree, and TF1 code.

The tree a training platform shipped: research/slim with the train script and
model_deploy edited, a dataset of its own, and the SDK's uaitrain/ folder
copied in (or not). Assembled both ways, it must stay TF1 code, as
examples/slim_tf1 is (test_slim_tf1_is_tf1.py), and have the shape the
port must handle: SDK imports, flags mapped by hand in main, its own cluster
code, model_deploy already placing each replica on its task.
"""

import ast
import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest

from tests._procs import run_side_by_side
from tests.examples import _platform_runs, _platform_tree
from tests.examples.test_slim_tf1_is_tf1 import PORTED_MODULES, _imported_modules

SDK = Path("uaitrain") / "arch" / "tensorflow"
TRAIN = "train_image_classifier.py"
_TF1_ERROR = re.compile(r"^AttributeError: module 'tensorflow' has no attribute 'contrib'$", re.M)
_LAST_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)')
# The platform's SDK defines these flags, with these defaults.
SDK_FLAGS = {
    "work_dir": "/data",
    "data_dir": "/data/data",
    "output_dir": "/data/output",
    "log_dir": "/data/output",
    "num_gpus": 0,
}


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    """The platform's tree, with and without the SDK folder."""
    root = tmp_path_factory.mktemp("platform_trees")
    return {
        with_sdk: _platform_tree.assemble(root / f"sdk_{with_sdk}", with_sdk)
        for with_sdk in (True, False)
    }


def _parse(path):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _function(tree, name):
    return next(
        node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == name
    )


def _source(node):
    return ast.unparse(node)


def test_overlay_holds_only_what_the_platform_changed():
    for relative in _platform_tree.overlay_files():
        if relative.suffix == _platform_tree.PATCH_SUFFIX:
            assert (_platform_tree.SLIM_TF1 / relative.with_suffix("")).is_file()
        else:
            assert not (_platform_tree.SLIM_TF1 / relative).exists(), relative


def test_tree_with_and_without_the_sdk(trees):
    assert (trees[True] / SDK / "uflag.py").is_file()
    assert (trees[True] / SDK / "uai_dist.py").is_file()
    assert not (trees[False] / "uaitrain").exists()
    for tree in trees.values():
        assert (tree / "datasets" / "uai_images.py").is_file()
        slim_tf1_files = {
            path.relative_to(_platform_tree.SLIM_TF1)
            for path in _platform_tree.SLIM_TF1.rglob("*.py")
        }
        assert slim_tf1_files <= {path.relative_to(tree) for path in tree.rglob("*.py")}


def _tf_attribute_chains(tree):
    """Dotted `tf.a.b` chains, outermost only, of a module that imports tf."""
    inner = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
            inner.add(id(node.value))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or id(node) in inner:
            continue
        parts, value = [node.attr], node.value
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id == "tf":
            yield node.lineno, parts[::-1]


@pytest.mark.parametrize("with_sdk", [True, False], ids=["sdk", "no_sdk"])
def test_every_file_is_python3_and_tf1_only(trees, with_sdk):
    for path in sorted(trees[with_sdk].rglob("*.py")):
        tree = _parse(path)
        ported = [module for module in _imported_modules(tree) if module.startswith(PORTED_MODULES)]
        assert not ported, f"{path.name} imports already-ported modules {ported}"


@pytest.mark.tf
def test_tf_names_are_tf1_api(trees):
    # TF 2.21's tf.compat.v1 is TF 1.15's API without tf.contrib; the tree
    # reaches these TF 1.15 contrib modules.
    import tensorflow.compat.v1 as tf1  # pylint: disable=g-import-not-at-top

    missing = []
    for path in sorted(trees[True].rglob("*.py")):
        for line, parts in _tf_attribute_chains(_parse(path)):
            if parts[0] == "contrib":
                assert parts[1] in ("slim", "framework", "layers", "quantize"), (path, parts)
                continue
            value = tf1
            for part in parts:
                if not hasattr(value, part):
                    missing.append(f"{path.name}:{line}: tf.{'.'.join(parts)}")
                    break
                value = getattr(value, part)
    assert not missing, missing


def test_sdk_flag_module_defines_the_platform_flags_and_imports_nothing_else(trees):
    tree = _parse(trees[True] / SDK / "uflag.py")
    assert list(_imported_modules(tree)) == ["tensorflow"]
    defined = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("DEFINE_")
        ):
            name, default = (ast.literal_eval(arg) for arg in node.args[:2])
            defined[name] = default
    assert defined == SDK_FLAGS
    assert "flags = tf.app.flags" in ast.unparse(tree)


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("task", "index", "task_id", "chief", "ps"),
    [
        ("master", 0, 0, True, False),
        ("worker", 0, 1, False, False),
        ("worker", 1, 2, False, False),
        ("ps", 1, 1, False, True),
    ],
)
def test_sdk_parser_reads_the_platform_tf_config(
    trees, monkeypatch, task, index, task_id, chief, ps
):
    uai_dist = _load(trees[True] / SDK / "uai_dist.py", "example_uai_dist")
    monkeypatch.setenv(
        "TF_CONFIG",
        json.dumps(
            {
                "cluster": {"master": ["m:1"], "worker": ["w0:1", "w1:1"], "ps": ["p0:1", "p1:1"]},
                "task": {"type": task, "index": index},
                "environment": "cloud",
            }
        ),
    )
    parser = uai_dist.UAITensorFlowDistRunConfigParser()
    assert parser.is_dist()
    parser.load_cluster_config()
    assert (parser.get_task_id(), parser.is_chief(), parser.is_ps()) == (task_id, chief, ps)
    assert parser.get_worker_list() == ["m:1", "w0:1", "w1:1"]
    assert (parser.get_ps_list(), parser.num_ps(), parser.num_worker()) == (["p0:1", "p1:1"], 2, 3)


def test_train_script_has_the_platform_shape(trees):
    tree = _parse(trees[True] / TRAIN)
    imports = [
        (node.module, [alias.name for alias in node.names])
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    ]
    assert ("uaitrain.arch.tensorflow", ["uflag"]) in imports
    assert ("uaitrain.arch.tensorflow", ["uai_dist"]) in imports
    # main maps the platform's flags by hand, first thing.
    main = _function(tree, "main")
    assert [_source(node) for node in main.body[:3]] == [
        "FLAGS.dataset_dir = FLAGS.data_dir",
        "FLAGS.train_dir = FLAGS.output_dir",
        "if FLAGS.num_gpus > 0:\n    FLAGS.num_clones = FLAGS.num_gpus\n"
        "else:\n    FLAGS.clone_on_cpu = True",
    ]
    # Its own cluster: the ps joins a server it starts (then an unreachable
    # os.exit), a worker sets slim's replica flags from its own server.
    cluster = _source(_function(tree, "_start_uai_cluster_task"))
    assert re.search(
        r"tf\.train\.Server\(cluster_spec, job_name='ps'.*"
        r"config=tf\.ConfigProto\(device_count=\{'GPU': 0\}\)\)"
        r"\.join\(\)\n\s*os\.exit\(0\)",
        cluster,
        re.S,
    ), cluster
    for flag in ("master", "task", "num_ps_tasks", "worker_replicas"):
        assert f"FLAGS.{flag} = " in cluster


def test_model_deploy_places_each_replica_on_its_task_in_its_own_spelling(trees):
    config = next(
        node
        for node in ast.walk(_parse(trees[True] / "deployment" / "model_deploy.py"))
        if isinstance(node, ast.ClassDef) and node.name == "DeploymentConfig"
    )
    clone_device = next(
        node
        for node in config.body
        if isinstance(node, ast.FunctionDef) and node.name == "clone_device"
    )
    assert [_source(node) for node in clone_device.body[-2:]] == [
        "if self._num_ps_tasks > 0:\n    device = '%s/task:%d' % (device, self._replica_id)",
        "return device",
    ]
    assert "self._worker_device = '/job:' + worker_job_name if num_ps_tasks > 0 else ''" in _source(
        config
    )


@pytest.fixture(scope="module")
def help_runs(trees, tmp_path_factory):
    """`train_image_classifier.py --help` of each tree on TF 2, side by side."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    cwd = tmp_path_factory.mktemp("help")
    return run_side_by_side(
        {
            with_sdk: ([sys.executable, str(tree / TRAIN), "--help"], cwd)
            for with_sdk, tree in trees.items()
        },
        env,
        timeout=180,
    )


@pytest.mark.tf
@pytest.mark.parametrize("with_sdk", [True, False], ids=["sdk", "no_sdk"])
def test_train_script_fails_on_tf2_at_a_tf1_api(trees, help_runs, with_sdk):
    result = help_runs[with_sdk]
    assert result.returncode == 1, result.stderr[-3000:]
    assert "--data_dir" not in result.stdout, "flags parsed: it ran as TF1"
    assert _TF1_ERROR.search(result.stderr), result.stderr[-3000:]
    path, line = _LAST_FRAME.findall(result.stderr)[-1]
    failing_file = Path(path)
    assert failing_file.is_relative_to(trees[with_sdk]), path
    failing_line = failing_file.read_text().splitlines()[int(line) - 1]
    assert "tf.contrib" in failing_line, failing_line


def test_a_diverged_step_is_still_a_logged_step() -> None:
    # Two asynchronous workers sometimes diverge; slim.learning.train still logs each step.
    log = ("global step 8: loss = 7389596459466752.0000 (0.068 sec/step)\n"
           "global step 18: loss = nan (0.049 sec/step)\n"
           "global step 28: loss = inf (0.050 sec/step)\n"
           "global step 38: loss = 2.3010 (0.050 sec/step)\n")
    steps = _platform_runs.logged_steps(log)
    assert [step for step, _ in steps] == [8, 18, 28, 38]
    assert steps[3][1] == 2.301
