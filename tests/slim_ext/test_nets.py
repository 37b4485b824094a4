"""Every network of tf_slim.nets (one depth per ResNet version) and of the bundled TF1
tree builds and trains a step; so does a TF1 script that trains the tf.contrib.slim.nets
networks, once ported.

Graph mode, as ported scripts run: each net is built in its own tf.Graph on
two small random images (the smallest its fixed-size head accepts), then one
SGD step through ``slim.learning.create_train_op`` (which also runs batch
norm's update ops) must keep the loss finite, change the first and the last
layer's weights (the gradient went all the way through) and update every
batch norm's moving mean.
"""
import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.tf


# (module in tf_slim.nets, net function, arg scope function, image size, keyword
# arguments). Sizes: alexnet, overfeat, vgg and inception_v1 end in fixed-size
# VALID heads that need their default input; the others accept small images.
TF_SLIM_NETS = [
    ("alexnet", "alexnet_v2", "alexnet_v2_arg_scope", 224, {}),
    ("overfeat", "overfeat", "overfeat_arg_scope", 231, {}),
    ("vgg", "vgg_a", "vgg_arg_scope", 224, {}),
    ("vgg", "vgg_16", "vgg_arg_scope", 224, {}),
    ("vgg", "vgg_19", "vgg_arg_scope", 224, {}),
    ("inception_v1", "inception_v1", "inception_v1_arg_scope", 224, {}),
    ("inception_v2", "inception_v2", "inception_v2_arg_scope", 64, {"depth_multiplier": 0.25}),
    ("inception_v3", "inception_v3", "inception_v3_arg_scope", 128, {"depth_multiplier": 0.25}),
] + [
    # One depth per ResNet version: resnet_v1_101/152/200 (and v2's) are the same blocks
    # as the 50-layer net, repeated more often (tf_slim's resnet_v1_101 is resnet_v1 with
    # [3, 4, 23, 3] units), and cost 2-6x its training step each (153 s of CPU together).
    # The deep nets are checked against TF 1.15's numbers in test_tf1_slim_nets.py
    # (resnet_v1_101 at output stride 8, resnet_v2_152).
    (f"resnet_{version}", f"resnet_{version}_50", "resnet_arg_scope", 32, {})
    for version in ("v1", "v2")
]

NUM_CLASSES = 3


def _as_logits(tf, logits):
  """[batch, classes] logits from a head that may keep 1x1 (or larger) spatial dims."""
  if logits.shape.ndims == 4:
    return tf.reduce_mean(logits, axis=[1, 2])
  return logits


def _train_one_step(tf, slim, build, image_size):
  """Builds the net with ``build(images)`` and runs one step.

  Returns:
    (loss before, loss after, whether the first and the last trainable
    weights both changed, number of moving means updated, number of them).
  """
  with tf.Graph().as_default():
    tf.set_random_seed(0)
    # Two images: with one, a batch norm over a 1x1 map outputs a constant.
    images = tf.random_uniform([2, image_size, image_size, 3])
    labels = tf.constant([0, 2])
    logits = _as_logits(tf, build(images))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.01))
    # Only the ends are fetched: the heads of vgg and overfeat hold 100M+ weights.
    weights = tf.trainable_variables()
    ends = [weights[0], weights[-1]]
    moving_means = [v for v in tf.global_variables() if v.op.name.endswith("moving_mean")]
    # Grappler's rewrites of a 200-layer training graph take longer than the
    # step itself; they do not change what the step computes.
    config = tf.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    with tf.Session(config=config) as session:
      session.run(tf.global_variables_initializer())
      ends_before, means_before = session.run([ends, moving_means])
      loss_before = session.run(train_op)
      ends_after, means_after, loss_after = session.run([ends, moving_means, loss])
  both_changed = all(not np.array_equal(a, b) for a, b in zip(ends_before, ends_after))
  updated_means = sum(not np.array_equal(a, b) for a, b in zip(means_before, means_after))
  return loss_before, loss_after, both_changed, updated_means, len(moving_means)


@pytest.mark.parametrize("module_name, net_name, scope_name, image_size, kwargs", TF_SLIM_NETS,
                         ids=[net[1] for net in TF_SLIM_NETS])
def test_tf_slim_net_builds_and_trains(tf, slim, module_name, net_name, scope_name, image_size,
                                       kwargs):
  module = importlib.import_module(f"tf_slim.nets.{module_name}")
  resnet_utils = importlib.import_module("tf_slim.nets.resnet_utils")
  arg_scope = getattr(module, scope_name, None) or getattr(resnet_utils, scope_name)

  def build(images):
    with slim.arg_scope(arg_scope()):
      logits, end_points = getattr(module, net_name)(
          images, num_classes=NUM_CLASSES, is_training=True, **kwargs)
    assert end_points
    return logits

  loss_before, loss_after, both_changed, updated_means, num_means = _train_one_step(
      tf, slim, build, image_size)
  assert np.isfinite(loss_before) and np.isfinite(loss_after)
  assert both_changed, "the first or the last layer was not trained"
  assert updated_means == num_means, "a batch norm layer did not update its moving mean"


def test_every_ported_example_net_builds_and_trains(tf, slim, ported_nets):
  names = sorted(ported_nets.networks_map)
  assert names == ["cifarnet_bn", "lenet"]
  for name in names:
    network_fn = ported_nets.get_network_fn(name, NUM_CLASSES, weight_decay=0.0004,
                                            is_training=True)
    size = getattr(network_fn, "default_image_size", 28)
    loss_before, loss_after, both_changed, updated_means, num_means = _train_one_step(
        tf, slim, lambda images, fn=network_fn: fn(images)[0], size)
    assert np.isfinite(loss_before) and np.isfinite(loss_after), name
    assert both_changed, name
    assert updated_means == num_means, name


def test_tf1_script_training_contrib_slim_nets_runs_once_ported(tmp_path):
  """tf1_scripts/contrib_nets.py, ported by the CLI, run as its own program."""
  out = tmp_path / "ported"
  subprocess.run([sys.executable, "-m", "slimport", "rewrite",
                  str(Path(__file__).parent / "tf1_scripts"), "--out", str(out)],
                 check=True, capture_output=True, timeout=300)
  run = subprocess.run([sys.executable, str(out / "contrib_nets.py")], capture_output=True,
                       text=True, timeout=600, cwd=out, check=False)
  assert run.returncode == 0, run.stderr[-4000:]
  rows = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines()}
  assert sorted(rows) == ["alexnet_v2", "inception_v1", "inception_v2", "inception_v3",
                          "overfeat", "resnet_v1_50", "resnet_v2_50", "vgg_a"]
  for name, (loss_before, loss_after, changed, means) in rows.items():
    assert np.isfinite(float(loss_before)) and np.isfinite(float(loss_after)), name
    assert changed == "True", f"{name}: the first or the last layer was not trained"
    updated, total = means.split("/")
    assert updated == total, f"{name}: a batch norm did not update its moving mean"
