"""flags_to_absl: where each TF1 flags name goes, and a realistic train script through
contrib_slim and flags_to_absl (cases/flags_to_absl.py has the before/after, no-op, reported
and text pre-check cases)."""
from __future__ import annotations

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from slimport.codemods.flag_names import ported_name
from slimport.codemods.flags_to_absl import FlagsToAbslCommand


@pytest.mark.parametrize(
    ("qualified", "expected"),
    [
        ("tensorflow.app.flags.DEFINE_string", "slim_ext.tf1_flags.DEFINE_string"),
        ("tensorflow.flags.FLAGS", "slim_ext.tf1_flags.FLAGS"),
        ("tensorflow.compat.v1.app.flags", "slim_ext.tf1_flags"),
        # TensorFlow's own modules still work as they are.
        ("tensorflow.python.platform.flags.DEFINE_enum", None),
        ("tensorflow.app.run", "absl.app.run"),
        ("tensorflow.compat.v1.app.run", "absl.app.run"),
        # Names already where the port sends them stay.
        ("absl.flags.FLAGS", "absl.flags.FLAGS"),
        ("slim_ext.tf1_flags.DEFINE_string", "slim_ext.tf1_flags.DEFINE_string"),
        ("tensorflow.logging.info", None),
        ("tensorflow.flagsx", None),
        ("myproject.flags.DEFINE_string", None),
    ],
)
def test_ported_name(qualified: str, expected: str) -> None:
    assert ported_name(qualified) == expected


# A training entry script in the style of research/slim's train_image_classifier.py.
TF1_TRAIN_SCRIPT = '''\
# Copyright 2017 Example Authors. All Rights Reserved.
"""Trains a small classifier with TF-Slim (TF1 style)."""
from __future__ import absolute_import

import tensorflow as tf
from tensorflow.contrib.slim.nets import resnet_v1

from datasets import dataset_factory
from deployment import model_deploy

slim = tf.contrib.slim

tf.app.flags.DEFINE_string(
    'master', '', 'The address of the TensorFlow master to use.')

tf.app.flags.DEFINE_string(
    'train_dir', '/tmp/tfmodel/',
    'Directory where checkpoints and event logs are written to.')

tf.app.flags.DEFINE_integer('num_clones', 1,
                            'Number of model clones to deploy.')

tf.app.flags.DEFINE_boolean('clone_on_cpu', False,
                            'Use CPUs to deploy clones.')

tf.app.flags.DEFINE_integer('task', 0, 'Task id of the replica running the training.')

tf.app.flags.DEFINE_float('learning_rate', 0.01, 'Initial learning rate.')

tf.app.flags.DEFINE_enum('optimizer', 'sgd', ['sgd', 'adam'], 'Which optimizer.')

tf.app.flags.DEFINE_string('dataset_dir', None, 'Where the dataset files are stored.')

FLAGS = tf.app.flags.FLAGS


def _configure_optimizer(learning_rate):
  if FLAGS.optimizer == 'adam':
    return tf.train.AdamOptimizer(learning_rate)
  return tf.train.GradientDescentOptimizer(learning_rate)


def main(_):
  if not FLAGS.dataset_dir:
    raise ValueError('You must supply the dataset directory with --dataset_dir')

  tf.logging.set_verbosity(tf.logging.INFO)
  with tf.Graph().as_default():
    deploy_config = model_deploy.DeploymentConfig(
        num_clones=FLAGS.num_clones,
        clone_on_cpu=FLAGS.clone_on_cpu,
        replica_id=FLAGS.task)
    with tf.device(deploy_config.variables_device()):
      global_step = slim.create_global_step()

    dataset = dataset_factory.get_dataset('synthetic', 'train', FLAGS.dataset_dir)
    provider = slim.dataset_data_provider.DatasetDataProvider(dataset)
    [image, label] = provider.get(['image', 'label'])

    with tf.contrib.slim.arg_scope(resnet_v1.resnet_arg_scope()):
      logits, _ = resnet_v1.resnet_v1_50(tf.expand_dims(image, 0), num_classes=10)
    tf.losses.softmax_cross_entropy(tf.one_hot([label], 10), logits)
    train_op = slim.learning.create_train_op(
        tf.losses.get_total_loss(), _configure_optimizer(FLAGS.learning_rate))
    slim.learning.train(train_op, logdir=FLAGS.train_dir, master=FLAGS.master,
                        global_step=global_step)


if __name__ == '__main__':
  tf.app.run()
'''


def test_realistic_train_script_through_both_codemods() -> None:
    from slimport.codemods.contrib_slim import ContribSlimCommand

    tree = cst.parse_module(TF1_TRAIN_SCRIPT)
    findings = []
    for command_class in (ContribSlimCommand, FlagsToAbslCommand):
        command = command_class(CodemodContext())
        tree = command.transform_module(tree)
        findings.extend(command.findings)
    ported = tree.code

    compile(ported, "train_image_classifier.py", "exec")
    assert ported.startswith("# Copyright 2017 Example Authors.")
    imports = [line for line in ported.splitlines() if line.startswith(("import ", "from "))]
    assert imports == [
        "from __future__ import absolute_import",
        "import tensorflow as tf",
        "from tf_slim.nets import resnet_v1",
        "from datasets import dataset_factory",
        "from deployment import model_deploy",
        # The alias assignment became an import where it stood, so the top import
        # block now ends there and the flag modules' imports are added after it.
        "import tf_slim as slim",
        "from slim_ext import tf1_flags as flags",
        "from absl import app",
    ]
    assert "tf.app" not in ported and "tf.contrib" not in ported
    assert ported.count("flags.DEFINE_") == 8
    assert "FLAGS = flags.FLAGS\n" in ported
    assert "    with slim.arg_scope(resnet_v1.resnet_arg_scope()):\n" in ported
    assert ported.endswith("if __name__ == '__main__':\n  app.run(main, flags_parser=lambda argv: "
                           "flags.FLAGS(argv, known_only=True))\n")
    assert all(f.kind == "edit" for f in findings)
    # Lines outside the edited statements are byte-identical.
    untouched = [line for line in TF1_TRAIN_SCRIPT.splitlines() if "tf.app" not in line
                 and "contrib" not in line]
    assert all(line in ported.splitlines() for line in untouched)
