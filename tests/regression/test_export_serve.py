"""Port examples/slim_tf1, train it, export it as the README says, and serve it.

The ported LeNet is trained briefly and evaluated by the ported eval script (graph
mode, queue runners, the validation split once); then the README's
``python -m slim_ext.export`` line turns the training directory into a SavedModel
that takes the split's uint8 images (the tree's own eval preprocessing inside), and
``tf.saved_model.load`` (eager), ``saved_model_cli run`` and the TFLite interpreter
must each score the eval script's top-1 accuracy, image for image the same count.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from tests.documented import documented, run_documented
from tests.regression.test_port_and_train import COMMON_TRAIN, run_script

pytestmark = [pytest.mark.regression, pytest.mark.tf]

STEPS = 100
# The README's lines (its continuation kept as the page shows it).
EXPORT = documented(
    "python -m slim_ext.export --tree ported --model_name lenet --num_classes 10\n"
    "    --checkpoint_path train --export_dir saved_model --preprocessing_name lenet"
    " --input_size 32")
SHOW = documented(
    "saved_model_cli show --dir saved_model --tag_set serve --signature_def serving_default")


def _validation_split(data: Path):
    """The synthetic set's validation images (uint8 [400, 32, 32, 3]) and labels."""
    import tensorflow as tf

    features = {"image/encoded": tf.io.FixedLenFeature([], tf.string),
                "image/class/label": tf.io.FixedLenFeature([], tf.int64)}
    images, labels = [], []
    for record in tf.data.TFRecordDataset(str(data / "synthetic_validation.tfrecord")):
        example = tf.io.parse_single_example(record, features)
        images.append(tf.io.decode_png(example["image/encoded"], channels=3).numpy())
        labels.append(int(example["image/class/label"]))
    return np.stack(images), np.array(labels)


def test_trained_port_exports_a_saved_model_that_serves_the_eval_top1(ported_tree, tmp_path):
    import tensorflow as tf

    # The README's paths: the ported tree and the training directory side by side.
    (tmp_path / "ported").symlink_to(ported_tree.ported, target_is_directory=True)
    run_script(ported_tree, tmp_path, "train_image_classifier.py", [
        "--train_dir", str(tmp_path / "train"), "--dataset_dir", str(ported_tree.data),
        "--max_number_of_steps", str(STEPS), "--clone_on_cpu", *COMMON_TRAIN])
    evaluated = run_script(ported_tree, tmp_path, "eval_image_classifier.py", [
        "--checkpoint_path", str(tmp_path / "train"), "--eval_dir", str(tmp_path / "eval"),
        "--dataset_dir", str(ported_tree.data), "--dataset_name", "synthetic",
        "--dataset_split_name", "validation", "--model_name", "lenet"])
    eval_accuracy = float(re.findall(r"eval/Accuracy = ([0-9.]+)", evaluated)[-1])
    assert eval_accuracy > 0.3, evaluated[-3000:]  # it learned: chance is 0.1

    export = run_documented(EXPORT, tmp_path)
    assert export.returncode == 0, export.stderr[-4000:]
    shown = run_documented(SHOW, tmp_path)
    assert shown.returncode == 0, shown.stderr[-4000:]
    assert "inputs['images']" in shown.stdout and "outputs['classes']" in shown.stdout, shown.stdout

    images, labels = _validation_split(ported_tree.data)
    assert len(labels) == 400
    served = tf.saved_model.load(str(tmp_path / "saved_model")).signatures["serving_default"]
    eager_classes = served(images=tf.constant(images))["classes"].numpy()

    np.save(tmp_path / "images.npy", images)
    cli = run_documented(
        ["saved_model_cli", "run", "--dir", "saved_model", "--tag_set", "serve",
         "--signature_def", "serving_default", "--inputs", "images=images.npy",
         "--outdir", "served"], tmp_path)
    assert cli.returncode == 0, cli.stderr[-4000:]
    cli_classes = np.load(tmp_path / "served" / "classes.npy")

    lite = tf.lite.TFLiteConverter.from_saved_model(str(tmp_path / "saved_model")).convert()
    lite_runner = tf.lite.Interpreter(model_content=lite).get_signature_runner("serving_default")
    lite_classes = lite_runner(images=images)["classes"]

    accuracies = {way: float(np.mean(classes == labels)) for way, classes in (
        ("eager", eager_classes), ("saved_model_cli", cli_classes), ("tflite", lite_classes))}
    assert accuracies == {way: eval_accuracy for way in accuracies}, (eval_accuracy, accuracies)


# research/slim's export_inference_graph.py workflow: the GraphDef of the network with an
# `input` placeholder, then TF's freeze_graph folding a checkpoint in. The script is
# research/slim's own, from the sdist that ships its slim/ folder whole (tools/corpus.py's
# RESEARCH_SLIM_WHOLE, downloaded from PyPI and cached), ported with its tree.
LENET_LOGITS = "LeNet/fc4/BiasAdd"


def _ported_research_slim(work: Path) -> Path:
    """research/slim 2.8.0's slim/ folder, ported with `slimport rewrite --out`."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    try:
        import _harness
        import corpus
    finally:
        sys.path.pop(0)
    ported, ran = corpus.port_sdist(corpus.RESEARCH_SLIM_WHOLE, "slim", work,
                                    _harness.Deadline(600), corpus.default_cache())
    log = (work / "rewrite.log").read_text()
    assert ran.returncode == 0, log
    assert "0 need attention" in log, log
    return ported


def _saved_lenet_logits(ported: Path, checkpoint: Path, images: np.ndarray) -> np.ndarray:
    """The ported tree's LeNet in graph mode, seeded: its logits, its variables saved."""
    import importlib
    import sys

    import tensorflow as tf

    def forget_tree_modules():  # another test's tree has its own `nets` and `datasets`
        for name in [n for n in sys.modules if n.split(".")[0] in ("nets", "datasets")]:
            del sys.modules[name]

    forget_tree_modules()
    sys.path.insert(0, str(ported))
    try:
        nets_factory = importlib.import_module("nets.nets_factory")
        with tf.Graph().as_default():
            tf.compat.v1.set_random_seed(0)
            inputs = tf.compat.v1.placeholder(tf.float32, [None, 28, 28, 3])
            logits, _ = nets_factory.get_network_fn("lenet", 10, is_training=False)(inputs)
            with tf.compat.v1.Session() as session:
                session.run(tf.compat.v1.global_variables_initializer())
                tf.compat.v1.train.Saver().save(session, str(checkpoint))
                return session.run(logits, {inputs: images})
    finally:
        sys.path.remove(str(ported))
        forget_tree_modules()


def test_research_slims_export_inference_graph_and_freeze_graph_give_the_networks_logits(
        tmp_path):
    import subprocess
    import sys

    import tensorflow as tf

    ported = _ported_research_slim(tmp_path)
    images = np.random.RandomState(0).uniform(-1, 1, (8, 28, 28, 3)).astype(np.float32)
    checkpoint = tmp_path / "lenet.ckpt"
    expected = _saved_lenet_logits(ported, checkpoint, images)

    # cifar10's split reads label names only when its folder has them: an empty folder.
    (tmp_path / "cifar10").mkdir()
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(ported),
                                                       os.environ.get("PYTHONPATH")]))}
    exported = subprocess.run(
        [sys.executable, str(ported / "export_inference_graph.py"), "--model_name", "lenet",
         "--dataset_name", "cifar10", "--dataset_dir", str(tmp_path / "cifar10"),
         "--output_file", str(tmp_path / "graph.pb")],
        capture_output=True, text=True, timeout=300, env={**os.environ, **env})
    assert exported.returncode == 0, exported.stderr[-4000:]
    frozen = subprocess.run(
        [sys.executable, "-m", "tensorflow.python.tools.freeze_graph",
         "--input_graph", str(tmp_path / "graph.pb"), "--input_binary=true",
         "--input_checkpoint", str(checkpoint), "--output_node_names", LENET_LOGITS,
         "--output_graph", str(tmp_path / "frozen.pb")],
        capture_output=True, text=True, timeout=300)
    assert frozen.returncode == 0, frozen.stderr[-4000:]

    graph_def = tf.compat.v1.GraphDef.FromString((tmp_path / "frozen.pb").read_bytes())
    assert not [n.name for n in graph_def.node if n.op in ("VariableV2", "VarHandleOp")]
    with tf.Graph().as_default() as graph:
        tf.compat.v1.import_graph_def(graph_def, name="")
        with tf.compat.v1.Session(graph=graph) as session:
            served = session.run(f"{LENET_LOGITS}:0", {"input:0": images})
    np.testing.assert_allclose(served, expected, rtol=0, atol=1e-6 * np.abs(expected).max())
    assert (served.argmax(1) == expected.argmax(1)).all()
