"""slim_ext.legacy_keras: tf.keras is tf_keras (Keras 2) once it is imported, however late.

Each case is its own process (the switch is for the whole process): the module imported
before TensorFlow's Keras loaders were used, and after Keras 3 was used through
``tf.keras`` and ``from tensorflow.keras... import`` (pytest, another module first).
"""
import json
import pathlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.tf

TASK = pathlib.Path(__file__).with_name("_legacy_keras_task.py")


@pytest.mark.parametrize("case", ["fresh", "keras_3_used"])
def test_tensorflows_keras_names_are_tf_keras(case):
  result = subprocess.run([sys.executable, str(TASK), case], capture_output=True, text=True,
                          timeout=300)
  assert result.returncode == 0, result.stderr[-4000:]
  got = json.loads(result.stdout.splitlines()[-1])
  for name in ("keras", "keras_v1", "keras_v2", "from_tensorflow", "losses", "optimizers"):
    assert got[name] == "tf_keras", (name, got)
  assert got["dense"].startswith("tf_keras.src.")
  assert got["set_learning_phase"]
  # A TF1 optimizer compiled into the model trains (Keras 3 refuses it).
  assert len(got["losses_fit"]) == 2 and got["losses_fit"][1] < got["losses_fit"][0]
  # Set for what reads it later; a second call has nothing left to change.
  assert got["switch"] == "1" and got["again"] is False
  if case == "keras_3_used":
    assert got["before"] == {"dense": "keras.src.layers.core.dense", "switch": None}
