"""The revived Estimator's export_saved_model, on a ported example, serves predict's numbers.

examples/keras_estimator_tf2 (TF 2.0 Keras ``model_to_estimator``) is ported with
``python -m slimport rewrite``, trained briefly as a platform starts it, and exported by
``Estimator.export_saved_model`` in its own process (tests/regression/_estimator_export_task.py)
three ways: a hand-written ``tf.estimator.export.ServingInputReceiver``,
``build_raw_serving_input_receiver_fn`` and ``build_parsing_serving_input_receiver_fn``.
Each SavedModel (a TF1 one: a MetaGraph with a ``serving_default`` SignatureDef) must give
``Estimator.predict``'s probabilities, image for image, through ``tf.saved_model.load``
(eager), ``saved_model_cli run`` and the TFLite converter + interpreter (the parsing one
converts with TF Select ops, ``ParseExampleV2`` being no TFLite builtin; the interpreter
of TensorFlow's wheel has no Flex delegate to run it).
Runs in regression-tf221 and regression-tf215.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = [pytest.mark.regression, pytest.mark.tf]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "keras_estimator_tf2"
TASK = Path(__file__).resolve().parent / "_estimator_export_task.py"
STEPS = 30
# float32 arithmetic of one graph run three ways (predict, a SavedModel, TFLite's kernels).
TOLERANCE = 1e-5
# saved_model_cli's --input_examples is one argument (at most 128 KiB on Linux).
CLI_EXAMPLES = 3


def _run(args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*map(str, args)], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("estimator_export")
    ported = root / "ported"
    rewrite = _run([sys.executable, "-m", "slimport", "rewrite", EXAMPLE, "--out", ported])
    assert rewrite.returncode == 0, rewrite.stdout + rewrite.stderr
    data = _run([sys.executable, ported / "make_data.py", "--data_dir", root / "data"])
    assert data.returncode == 0, data.stderr[-3000:]
    train = _run([sys.executable, ported / "mnist_keras.py", "--data_dir", root / "data",
                  "--output_dir", root / "model", "--max_steps", STEPS])
    assert train.returncode == 0, train.stderr[-3000:]
    task = _run([sys.executable, TASK, ported, root / "model", root / "data", root / "out"])
    assert task.returncode == 0, task.stderr[-5000:]
    return root / "out"


def _feed(way: str, images: np.ndarray):
    """The signature's keyword arguments for `images`: tensors or serialized tf.Examples."""
    import tensorflow as tf

    if way == "receiver":
        return {"image": images}  # the receiver's own name for its placeholder
    if way == "raw":
        return {"image_input": images}  # build_raw_…'s inputs are named by the features
    examples = [tf.train.Example(features=tf.train.Features(feature={
        "image_input": tf.train.Feature(float_list=tf.train.FloatList(value=image.ravel()))}))
        for image in images]
    return {"examples": np.array([e.SerializeToString() for e in examples], dtype=object)}


@pytest.mark.parametrize("way", ["receiver", "raw", "parsing"])
def test_exported_estimator_serves_its_predictions(exported, way, tmp_path):
    import tensorflow as tf

    images = np.load(exported / "images.npy")
    predicted = np.load(exported / "predicted.npy")
    assert predicted.shape == (len(images), 10)
    saved_model = json.loads((exported / "exports.json").read_text())[way]
    feed = _feed(way, images)

    signature = tf.saved_model.load(saved_model).signatures["serving_default"]
    eager = signature(**{k: tf.constant(v) for k, v in feed.items()})["dense_1"].numpy()

    cli_images = images
    if way == "parsing":  # tf.Examples written out on the command line: a few of them
        cli_images = images[:CLI_EXAMPLES]
        cli_input = ["--input_examples", "examples=[" + ",".join(
            "{'image_input': %s}" % image.ravel().tolist() for image in cli_images) + "]"]
    else:
        np.save(tmp_path / "images.npy", images)
        cli_input = ["--inputs", f"{next(iter(feed))}={tmp_path / 'images.npy'}"]
    cli = _run([Path(sys.executable).with_name("saved_model_cli"), "run", "--dir", saved_model,
                "--tag_set", "serve", "--signature_def", "serving_default", *cli_input,
                "--outdir", tmp_path / "served"])
    assert cli.returncode == 0, cli.stderr[-4000:]
    served = np.load(tmp_path / "served" / "dense_1.npy")

    converter = tf.lite.TFLiteConverter.from_saved_model(saved_model)
    ways = [("eager", eager), ("saved_model_cli", served)]
    if way == "parsing":
        # ParseExampleV2 is no TFLite builtin: it converts as a TF Select op, which the
        # interpreter of TensorFlow's wheel cannot run (no Flex delegate linked).
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS,
                                               tf.lite.OpsSet.SELECT_TF_OPS]
        assert converter.convert()
    else:
        runner = tf.lite.Interpreter(model_content=converter.convert()).get_signature_runner(
            "serving_default")
        ways.append(("tflite", runner(**feed)["dense_1"]))

    for name, got in ways:
        expected = predicted[:len(got)]
        np.testing.assert_allclose(got, expected, atol=TOLERANCE, err_msg=name)
        assert (got.argmax(1) == expected.argmax(1)).all(), name
    assert len(served) == len(cli_images)
