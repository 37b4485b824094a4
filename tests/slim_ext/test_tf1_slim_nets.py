"""Slim networks on TensorFlow 2 compute what TensorFlow 1.15 computed.

tests/slim_ext/data/tf1_slim_nets holds what TF 1.15 computed for the nets of
tests/slim_ext/tf1_slim_nets.py, built there with ``tf.contrib.slim`` and
examples/slim_tf1 as written (make_fixture.py in that directory says how it was
made), and TF 1.15's checkpoints of the small ones. Here the same nets are built
with tf_slim and the ported examples/slim_tf1 on this TensorFlow from the same
values: every TF1 variable name must exist with its shape (a model-zoo checkpoint
loads), the logits must be TF 1.15's, one training step must change every
variable as it did there, and TF 1.15's checkpoints must restore by name. The
last test shows that the comparison sees a changed batch norm epsilon.
"""
import json
from pathlib import Path

import pytest

from tests.slim_ext import tf1_slim_nets

pytestmark = pytest.mark.tf

FIXTURE = Path(__file__).parent / "data" / "tf1_slim_nets"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())
# Each number is compared within NOISE_FACTOR times TF 1.15's own float32 noise for
# it (the fixture measures it), and never tighter than these floors. Measured on TF
# 2.21: the logits are 1.6e-7 to 2.1e-6 from TF 1.15's (relative to the largest
# logit), the losses 7e-7 to 6e-6; the step's changes 2e-6 (cifarnet_bn) to 4%
# (resnet_v2_50_os16, whose own noise on TF 1.15 is 2.6%).
LOGITS_RTOL, LOSS_RTOL, CHANGE_RTOL = 1e-5, 1e-5, 1e-4
NOISE_FACTOR = 4


def measure(tf, slim, ported_nets, name, **kwargs):
  """tf1_slim_nets.measure with tf_slim's nets and the ported example nets."""
  from tf_slim import nets  # pylint: disable=g-import-not-at-top
  return tf1_slim_nets.measure(tf, slim, nets, ported_nets, name, **kwargs)


def mismatches(name, record):
  """How `record` (a tf1_slim_nets.measure result) differs from TF 1.15's; [] if not."""
  expected = EXPECTED[name]
  names, expected_names = set(record["variables"]), set(expected["variables"])
  found = [f"{len(part)} variables {what}: {sorted(part)[:5]}" for what, part in (
      ("missing", expected_names - names), ("not in TF 1.15's graph", names - expected_names),
      ("reshaped", {n for n in names & expected_names
                    if record["variables"][n] != expected["variables"][n]})) if part]
  if found:
    return found
  error = tf1_slim_nets.relative_error(record["logits"], expected["logits"])
  tolerance = max(LOGITS_RTOL, NOISE_FACTOR * expected["noise"])
  if error > tolerance:
    found.append(f"logits {error:.2g} from TF 1.15's (tolerance {tolerance:.2g})")
  if "step" in expected:
    errors = tf1_slim_nets.step_errors(record["step"], expected["step"])
    for what, error, floor, noise in zip(("loss", "variable changes"), errors,
                                         (LOSS_RTOL, CHANGE_RTOL), expected["step"]["noise"]):
      tolerance = max(floor, NOISE_FACTOR * noise)
      if error > tolerance:
        found.append(f"step {what} {error:.2g} from TF 1.15's (tolerance {tolerance:.2g})")
  return found


@pytest.mark.parametrize("name", list(tf1_slim_nets.NETS))
def test_net_computes_what_tf1_computed(tf, slim, ported_nets, name):
  assert mismatches(name, measure(tf, slim, ported_nets, name)) == []


@pytest.mark.parametrize("name", tf1_slim_nets.CHECKPOINTED)
def test_tf1_checkpoint_restores_by_name(tf, slim, ported_nets, name):
  checkpoint = str(FIXTURE / f"{name}.ckpt")
  reader = tf.train.load_checkpoint(checkpoint)
  assert reader.get_variable_to_shape_map() == EXPECTED[name]["variables"]
  record = measure(tf, slim, ported_nets, name, checkpoint=checkpoint)
  assert mismatches(name, record) == []


@pytest.mark.parametrize("name, epsilon", [("cifarnet_bn", 0.0011), ("inception_v3", 0.0011)])
def test_a_changed_batch_norm_epsilon_is_seen(tf, slim, ported_nets, name, epsilon):
  # 10% more than the nets' 0.001 moves their logits by
  # 3e-5 to 5e-5 of the largest: 15 to 25 times as far as TF 2 is from TF 1.15.
  found = mismatches(name, measure(tf, slim, ported_nets, name, batch_norm_epsilon=epsilon))
  assert found and found[0].startswith("logits "), found


def test_the_fixture_covers_slims_layer_kinds():
  every_variable = {n for net in EXPECTED.values() for n in net["variables"]}

  def has(*parts):
    return any(all(part in n for part in parts) for n in every_variable)

  assert has("depthwise_weights") and has("pointwise_weights")  # separable, depthwise
  assert has("atrous") and any(n.endswith("_os8") for n in EXPECTED)  # atrous
  assert has("BatchNorm/moving_variance") and has("BatchNorm/gamma")
  assert has("Mixed_5c") and has("Mixed_7c") and has("bottleneck_v1") and has("bottleneck_v2")
