"""``python -m slim_ext.export``: a ported net + a TF 1.15 checkpoint -> a TF 2 SavedModel.

The checkpoints are the ones TensorFlow 1.15 wrote in tests/slim_ext/data/tf1_slim_nets
(cifarnet_bn of examples/slim_tf1, and a MobileNet-style net); what the SavedModel
computes, loaded eagerly, run by ``saved_model_cli run`` and converted by TF's TFLite
converter, must be what TF 1.15 computed from them.
"""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf  # TF 2's API: its SavedModel loader and TFLite converter

from slim_ext import export
from tests.slim_ext import tf1_slim_nets

pytestmark = pytest.mark.tf

FIXTURE = Path(__file__).parent / "data" / "tf1_slim_nets"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())
# What TF 2 computes is 1e-6 from TF 1.15's (tests/slim_ext/test_tf1_slim_nets.py);
# TFLite's kernels (XNNPACK) sum in another order.
RTOL = 1e-5


@pytest.fixture(scope="module")
def exported(ported_nets, tmp_path_factory):
  """The ported cifarnet_bn with TF 1.15's checkpoint, exported by the command line's main
  (tests/regression/test_export_serve.py runs it as its own process)."""
  export_dir = tmp_path_factory.mktemp("export") / "cifarnet_bn"
  code = export.main(["--tree", str(Path(ported_nets.__file__).parents[1]),
                      "--model_name", "cifarnet_bn",
                      "--num_classes", str(tf1_slim_nets.NUM_CLASSES),
                      "--checkpoint_path", str(FIXTURE / "cifarnet_bn.ckpt"),
                      "--export_dir", str(export_dir)])
  assert code == 0
  return export_dir


def _assert_tf1s(logits, classes, name="cifarnet_bn"):
  expected = np.array(EXPECTED[name]["logits"])
  assert tf1_slim_nets.relative_error(logits, expected) <= RTOL
  np.testing.assert_array_equal(classes, np.argmax(expected, axis=1))


def test_eager_load_computes_tf1s_logits(exported):
  serving = tf.saved_model.load(str(exported)).signatures["serving_default"]
  assert list(serving.structured_input_signature[1]) == ["images"]
  assert sorted(serving.structured_outputs) == ["classes", "logits", "probabilities"]
  outputs = serving(images=tf.constant(tf1_slim_nets.images("cifarnet_bn")))
  _assert_tf1s(outputs["logits"].numpy(), outputs["classes"].numpy())
  np.testing.assert_allclose(np.sum(outputs["probabilities"].numpy(), axis=1), 1, rtol=1e-6)


def test_saved_model_cli_runs_it(exported, tmp_path):
  np.save(tmp_path / "images.npy", tf1_slim_nets.images("cifarnet_bn"))
  cli = Path(sys.executable).parent / "saved_model_cli"
  run = subprocess.run(
      [str(cli), "run", "--dir", str(exported), "--tag_set", "serve", "--signature_def",
       "serving_default", "--inputs", f"images={tmp_path / 'images.npy'}",
       "--outdir", str(tmp_path / "out")],
      capture_output=True, text=True, timeout=300, check=False)
  assert run.returncode == 0, run.stderr[-3000:]
  _assert_tf1s(np.load(tmp_path / "out" / "logits.npy"),
               np.load(tmp_path / "out" / "classes.npy"))


def test_tflite_converts_it(exported):
  model = tf.lite.TFLiteConverter.from_saved_model(str(exported)).convert()
  serving = tf.lite.Interpreter(model_content=model).get_signature_runner("serving_default")
  outputs = serving(images=tf1_slim_nets.images("cifarnet_bn"))
  _assert_tf1s(outputs["logits"], outputs["classes"])


def separable_network(images):
  """A network_fn that no factory names: the fixture's MobileNet-style net, its logits
  [batch, 1, 1, classes] with end points, as tf_slim's ResNets return theirs."""
  import tensorflow.compat.v1 as tf1  # pylint: disable=g-import-not-at-top
  import tf_slim  # pylint: disable=g-import-not-at-top
  logits = tf1_slim_nets.separable_net(tf1, tf_slim, images, tf1_slim_nets.NUM_CLASSES,
                                       is_training=False)
  return logits[:, None, None, :], {"Logits": logits}


def test_a_network_fn_exports_too(tmp_path):
  code = export.main(["--network_fn", f"{__name__}:separable_network", "--image_size", "32",
                      "--checkpoint_path", str(FIXTURE / "separable_net.ckpt"),
                      "--export_dir", str(tmp_path / "separable")])
  assert code == 0
  serving = tf.saved_model.load(str(tmp_path / "separable")).signatures["serving_default"]
  outputs = serving(images=tf.constant(tf1_slim_nets.images("separable_net")))
  _assert_tf1s(outputs["logits"].numpy(), outputs["classes"].numpy(), "separable_net")


def test_a_checkpoint_of_another_network_is_refused_naming_what_lacks(ported_nets, tmp_path,
                                                                      capsys):
  code = export.main(["--tree", str(Path(ported_nets.__file__).parents[1]),
                      "--model_name", "lenet", "--num_classes", "5",
                      "--checkpoint_path", str(FIXTURE / "cifarnet_bn.ckpt"),
                      "--export_dir", str(tmp_path / "lenet")])
  assert code == 1 and not (tmp_path / "lenet").exists()
  assert "8 variables missing: LeNet/conv1/biases, LeNet/conv1/weights" in capsys.readouterr().err


def test_help_explains_itself(capsys):
  with pytest.raises(SystemExit) as exited:
    export.main(["--help"])
  assert exited.value.code == 0
  shown = capsys.readouterr().out
  for words in ("TensorFlow 2\nSavedModel", "'serving_default'", "TF1 name",
                "--checkpoint_path", "--preprocessing_name", "saved_model_cli",
                "python -m slim_ext.export --tree ported --model_name lenet"):
    assert words in shown, words
