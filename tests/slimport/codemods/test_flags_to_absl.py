"""flags_to_absl: TF1 flags, in every spelling, become slim_ext.tf1_flags; tf.app.run absl's."""
from __future__ import annotations

import functools
import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from slimport.codemods.flag_names import ported_name
from slimport.codemods.flags_to_absl import FlagsToAbslCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod
from tests.slimport.test_flag_semantics import OWNED_NAMES


run = functools.partial(run_codemod, FlagsToAbslCommand)


# How the port spells tf.app.run's flag parsing in absl.
TF1_PARSING = "flags_parser=lambda argv: flags.FLAGS(argv, known_only=True)"


class FlagsToAbslTest(IdempotentCodemodTest):
    TRANSFORM = FlagsToAbslCommand

    def test_tf_app_flags_define(self) -> None:
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_string('train_dir', '/tmp/train', 'Where to write.')
        """
        after = """
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('train_dir', '/tmp/train', 'Where to write.')
        """
        self.assertCodemod(before, after)

    def test_tf_flags_define_keeps_tensorflow_still_in_use(self) -> None:
        before = """
            import tensorflow as tf

            tf.flags.DEFINE_integer('batch_size', 32, 'Batch size.')
            x = tf.zeros([1])
        """
        after = """
            import tensorflow as tf
            from slim_ext import tf1_flags as flags

            flags.DEFINE_integer('batch_size', 32, 'Batch size.')
            x = tf.zeros([1])
        """
        self.assertCodemod(before, after)

    def test_compat_v1_flags_spellings(self) -> None:
        before = """
            import tensorflow as tf

            tf.compat.v1.flags.DEFINE_float('lr', 0.01, 'Learning rate.')
            tf.compat.v1.app.flags.DEFINE_bool('sync', False, 'Sync replicas.')
        """
        after = """
            from slim_ext import tf1_flags as flags

            flags.DEFINE_float('lr', 0.01, 'Learning rate.')
            flags.DEFINE_bool('sync', False, 'Sync replicas.')
        """
        self.assertCodemod(before, after)

    def test_import_tensorflow_compat_v1_as_tf(self) -> None:
        before = """
            import tensorflow.compat.v1 as tf

            tf.app.flags.DEFINE_string('master', '', 'Session target.')
            tf.logging.set_verbosity(tf.logging.INFO)
        """
        after = """
            import tensorflow.compat.v1 as tf
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('master', '', 'Session target.')
            tf.logging.set_verbosity(tf.logging.INFO)
        """
        self.assertCodemod(before, after)

    def test_flags_module_imported_from_the_app_module(self) -> None:
        # tensorflow.app.flags is the flags module, not a name of absl.app.
        before = """
            from tensorflow.app import flags
            from tensorflow.compat.v1.app import flags as tf_flags, run

            flags.DEFINE_string('data_dir', '', 'Data.')
        """
        after = """
            from slim_ext import tf1_flags as flags
            from slim_ext import tf1_flags as tf_flags
            from absl.app import run

            flags.DEFINE_string('data_dir', '', 'Data.')
        """
        self.assertCodemod(before, after)

    def test_flags_alias_assignment_becomes_import_in_place(self) -> None:
        before = """
            import tensorflow as tf

            # Flags.
            flags = tf.app.flags  # alias
            flags.DEFINE_integer('num_clones', 1, 'Clones.')
            FLAGS = flags.FLAGS
        """
        after = """
            # Flags.
            from slim_ext import tf1_flags as flags  # alias
            flags.DEFINE_integer('num_clones', 1, 'Clones.')
            FLAGS = flags.FLAGS
        """
        self.assertCodemod(before, after)

    def test_flags_object_assignment(self) -> None:
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = tf.app.flags.FLAGS
        """
        after = """
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = flags.FLAGS
        """
        self.assertCodemod(before, after)

    def test_every_define_function_and_mark_required(self) -> None:
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_bool('a', False, 'a')
            tf.app.flags.DEFINE_boolean('b', True, 'b')
            tf.app.flags.DEFINE_string('c', '', 'c')
            tf.app.flags.DEFINE_integer('d', 1, 'd')
            tf.app.flags.DEFINE_float('e', 1.0, 'e')
            tf.app.flags.DEFINE_enum('f', 'x', ['x', 'y'], 'f')
            tf.app.flags.DEFINE_list('g', [], 'g')
            tf.app.flags.DEFINE_multi_string('h', [], 'h')
            tf.app.flags.DEFINE_multi_integer('i', [], 'i')
            tf.app.flags.mark_flag_as_required('c')
        """
        after = """
            from slim_ext import tf1_flags as flags

            flags.DEFINE_bool('a', False, 'a')
            flags.DEFINE_boolean('b', True, 'b')
            flags.DEFINE_string('c', '', 'c')
            flags.DEFINE_integer('d', 1, 'd')
            flags.DEFINE_float('e', 1.0, 'e')
            flags.DEFINE_enum('f', 'x', ['x', 'y'], 'f')
            flags.DEFINE_list('g', [], 'g')
            flags.DEFINE_multi_string('h', [], 'h')
            flags.DEFINE_multi_integer('i', [], 'i')
            flags.mark_flag_as_required('c')
        """
        self.assertCodemod(before, after)

    def test_tf1_keyword_names_are_kept(self) -> None:
        # slim_ext.tf1_flags takes TF1's keyword names, as tf.app.flags did.
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_string(flag_name='x', default_value='', docstring='x')
        """
        after = """
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string(flag_name='x', default_value='', docstring='x')
        """
        self.assertCodemod(before, after)

    def test_run_without_arguments_finds_main(self) -> None:
        before = """
            import tensorflow as tf

            def main(_):
                pass

            if __name__ == '__main__':
                tf.app.run()
        """
        after = """
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(_):
                pass

            if __name__ == '__main__':
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """
        self.assertCodemod(before, after)

    def test_run_with_positional_main(self) -> None:
        before = """
            import tensorflow as tf

            def train(unused_argv):
                pass

            tf.app.run(train)
        """
        after = """
            from slim_ext import tf1_flags as flags
            from absl import app

            def train(unused_argv):
                pass

            app.run(train, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """
        self.assertCodemod(before, after)

    def test_run_with_main_keyword(self) -> None:
        before = """
            import tensorflow as tf

            def main(_):
                pass

            tf.app.run(main=main)
        """
        after = """
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(_):
                pass

            app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """
        self.assertCodemod(before, after)

    def test_compat_v1_app_run_with_argv(self) -> None:
        before = """
            import sys
            import tensorflow as tf

            def main(argv):
                pass

            tf.compat.v1.app.run(main=main, argv=sys.argv)
        """
        after = """
            import sys
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(argv):
                pass

            app.run(main, argv=sys.argv, PARSING)
        """.replace("PARSING", TF1_PARSING)
        self.assertCodemod(before, after)

    def test_run_with_argv_and_no_main_runs_main(self) -> None:
        before = """
            import tensorflow as tf

            def main(argv):
                print(argv)

            tf.app.run(argv=['prog', '--x'])
        """
        after = """
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(argv):
                print(argv)

            app.run(main, argv=['prog', '--x'], PARSING)
        """.replace("PARSING", TF1_PARSING)
        self.assertCodemod(before, after)

    def test_module_level_flag_read_is_left_to_tf1_flags(self) -> None:
        # slim_ext.tf1_flags.FLAGS parses sys.argv on the first read, as TF1's did
        # (tests/slimport/test_flag_semantics.py runs it): no parse is inserted.
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_integer('batch', 32, 'Batch size.')
            FLAGS = tf.app.flags.FLAGS
            # The batch size, read once.
            BATCH = FLAGS.batch
            STEPS = FLAGS.batch * 2
        """
        after = """
            from slim_ext import tf1_flags as flags

            flags.DEFINE_integer('batch', 32, 'Batch size.')
            FLAGS = flags.FLAGS
            # The batch size, read once.
            BATCH = FLAGS.batch
            STEPS = FLAGS.batch * 2
        """
        self.assertCodemod(before, after)

    def test_main_block_without_app_run_is_left_to_tf1_flags(self) -> None:
        before = """
            import sys
            import tensorflow as tf

            tf.flags.DEFINE_string('name', 'x', 'Name.')
            FLAGS = tf.flags.FLAGS

            def main():
                print(FLAGS.name)

            if __name__ == '__main__':
                main()
        """
        after = """
            import sys
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('name', 'x', 'Name.')
            FLAGS = flags.FLAGS

            def main():
                print(FLAGS.name)

            if __name__ == '__main__':
                main()
        """
        self.assertCodemod(before, after)

    def test_tf1_private_flag_internals(self) -> None:
        before = """
            import tensorflow as tf
            FLAGS = tf.app.flags.FLAGS

            def main(_):
                FLAGS._parse_flags()
                for name, value in FLAGS.__flags.items():
                    print(name, value)
                return FLAGS.__dict__['__flags'], tf.app.flags.FLAGS.__flags
        """
        after = """
            import sys
            from slim_ext import tf1_flags as flags

            FLAGS = flags.FLAGS

            def main(_):
                FLAGS(sys.argv, known_only=True)
                for name, value in FLAGS.flag_values_dict().items():
                    print(name, value)
                return FLAGS.__dict__['__flags'], flags.FLAGS.flag_values_dict()
        """
        self.assertCodemod(before, after)

    def test_flags_and_run_together(self) -> None:
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = tf.app.flags.FLAGS

            def main(_):
                tf.logging.info(FLAGS.train_dir)

            if __name__ == '__main__':
                tf.app.run()
        """
        after = """
            import tensorflow as tf
            from slim_ext import tf1_flags as flags
            from absl import app

            flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = flags.FLAGS

            def main(_):
                tf.logging.info(FLAGS.train_dir)

            if __name__ == '__main__':
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """
        self.assertCodemod(before, after)

    def test_absl_code_beside_tf1_flags_stays_absl(self) -> None:
        # y was absl's flag and stays one; x was TF1's and keeps TF1's meaning.
        before = """
            import tensorflow as tf
            from absl import flags

            tf.app.flags.DEFINE_string('x', '', 'x')
            flags.DEFINE_string('y', '', 'y')
        """
        after = """
            from absl import flags
            from slim_ext import tf1_flags

            tf1_flags.DEFINE_string('x', '', 'x')
            flags.DEFINE_string('y', '', 'y')
        """
        self.assertCodemod(before, after)

    def test_local_name_clash_uses_an_alias(self) -> None:
        before = """
            import tensorflow as tf
            from myproject import flags

            app = make_app()
            tf.app.flags.DEFINE_string('x', flags.DEFAULT, 'x')

            def main(_):
                pass

            tf.app.run(main)
        """
        after = """
            from myproject import flags
            from absl import app as absl_app
            from slim_ext import tf1_flags

            app = make_app()
            tf1_flags.DEFINE_string('x', flags.DEFAULT, 'x')

            def main(_):
                pass

            absl_app.run(main, flags_parser=lambda argv: tf1_flags.FLAGS(argv, known_only=True))
        """
        self.assertCodemod(before, after)

    def test_mixed_from_import_is_split(self) -> None:
        before = """
            from tensorflow import flags, logging

            flags.DEFINE_string('x', '', 'x')
            logging.info('x')
        """
        after = """
            from tensorflow import logging
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('x', '', 'x')
            logging.info('x')
        """
        self.assertCodemod(before, after)

    def test_from_flags_module_import_names(self) -> None:
        before = """
            from tensorflow.app.flags import FLAGS, DEFINE_string
        """
        after = """
            from slim_ext.tf1_flags import FLAGS, DEFINE_string
        """
        self.assertCodemod(before, after)

    def test_run_without_main_is_left_and_reported(self) -> None:
        source = """
            import tensorflow as tf

            def train(_):
                pass

            tf.app.run()
        """
        self.assertCodemod(source, source)


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


NOOP = {
    "import_absl_flags": (
        "import absl.flags\nimport absl.app\n\n"
        "absl.flags.DEFINE_string('x', '', 'x')\nabsl.app.run(lambda argv: None)\n"
    ),
    "already_ported": (
        "from absl import app\nfrom absl import flags\n\n"
        "flags.DEFINE_string('x', '', 'x')\nFLAGS = flags.FLAGS\n\n"
        "def main(_):\n    pass\n\nif __name__ == '__main__':\n    app.run(main)\n"
    ),
    "argparse_like_flags": (
        "import argparse\nflags = argparse.ArgumentParser()\n"
        "flags.add_argument('--x')\nFLAGS = flags.parse_args()\n"
    ),
    "other_module_named_flags": "from myproject import flags\nflags.DEFINE_string('x', '', 'x')\n",
    "tf_bound_to_something_else": (
        "import tensorflow as tf\ntf = load_plugin()\ntf.app.flags.DEFINE_string('x', '', 'x')\n"
    ),
    "local_variable_named_flags": (
        "def parse(flags):\n    return flags.app.run  # app.run\n"
    ),
    "flags_in_comments_and_strings": "# tf.app.flags\nHELP = 'tf.app.run(main)'\n",
    "crlf": "import tensorflow as tf\r\nx = tf.zeros([1])  # flags\r\n",
    # TensorFlow's own flags and app modules still exist and behave as they did.
    "tensorflow_python_platform_flags": (
        "from tensorflow.python.platform import flags  # old style\n\n"
        "flags.DEFINE_string('dataset_dir', None, 'Data.')\nFLAGS = flags.FLAGS\n"
    ),
    "tensorflow_python_platform_app": (
        "from tensorflow.python.platform import app\n\ndef main(_):\n    pass\n\napp.run()\n"
    ),
    # A parameter, a local variable or a loop variable named tf is not TensorFlow.
    "parameter_named_tf": (
        "import tensorflow as tf\n\ndef define(tf):\n    tf.app.flags.DEFINE_string('x', '', 'x')\n"
    ),
    "local_tf": (
        "import tensorflow as tf\n\ndef other():\n    tf = {'app': None}\n    return tf.app.flags\n"
    ),
    "comprehension_tf": (
        "import tensorflow as tf\nx = [tf.app.run for tf in plugins]\n"
    ),
}


@pytest.mark.parametrize("source", list(NOOP.values()), ids=list(NOOP))
def test_noop_is_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_crlf_line_endings_survive_an_edit() -> None:
    source = (
        '"""Doc."""\r\nimport tensorflow as tf\r\n\r\n'
        "tf.app.flags.DEFINE_string('x', '', 'x')\r\nFLAGS = tf.app.flags.FLAGS\r\n"
    )
    output, _ = run(source)
    assert output == (
        '"""Doc."""\r\nfrom slim_ext import tf1_flags as flags\r\n\r\n'
        "flags.DEFINE_string('x', '', 'x')\r\nFLAGS = flags.FLAGS\r\n"
    )


def test_run_without_main_is_reported_at_its_line() -> None:
    source = "import tensorflow as tf\n\n\ndef train(_):\n    pass\n\n\ntf.app.run()\n"
    output, findings = run(source)
    assert output == source
    [finding] = findings
    assert (finding.line, finding.kind, finding.codemod) == (8, "attention", "flags_to_absl")
    assert "no module-level main" in finding.message
    assert "app.run(" in finding.fix


def test_what_cannot_be_kept_of_tf1_flag_internals_is_reported() -> None:
    source = (
        "import tensorflow as tf\n"
        "FLAGS = tf.app.flags.FLAGS\n"
        "\n"
        "def main(argv):\n"
        "    FLAGS._parse_flags(argv[1:])\n"
        "    FLAGS.__flags['steps'] = 3\n"
    )
    output, findings = run(source)
    attention = [(f.line, f.fix.split(":")[0]) for f in findings if f.kind == "attention"]
    assert attention == [(5, "parse with FLAGS(argv, known_only=True), argv starting with the "
                             "program name"), (6, "set the flag itself")]
    assert "FLAGS._parse_flags(argv[1:])" in output
    assert "FLAGS.__flags['steps'] = 3" in output


def test_flag_defined_twice_is_reported_with_both_lines() -> None:
    source = (
        "import tensorflow as tf\n"
        "tf.app.flags.DEFINE_string('train_dir', '', 'x')\n"
        "tf.app.flags.DEFINE_integer('steps', 1, 'x')\n"
        "tf.app.flags.DEFINE_string(flag_name='train_dir', default_value='', docstring='y')\n"
    )
    _, findings = run(source)
    [attention] = [f for f in findings if f.kind == "attention"]
    assert attention.line == 4
    assert attention.message == "flag 'train_dir' is defined twice (first at line 2)"


@pytest.mark.parametrize("source", [
    # One definition in each branch of an if, or of a try and its except.
    "import tensorflow as tf\nif tf.__version__ > '1':\n"
    "    tf.app.flags.DEFINE_string('x', '', 'x')\n"
    "else:\n    tf.app.flags.DEFINE_string('x', 'a', 'x')\n",
    "import tensorflow as tf\ntry:\n    tf.app.flags.DEFINE_string('x', '', 'x')\n"
    "except Exception:\n    tf.app.flags.DEFINE_string('x', 'a', 'x')\n",
    # A guarded second definition may never run.
    "import tensorflow as tf\ntf.app.flags.DEFINE_string('x', '', 'x')\n"
    "if 'x' not in tf.app.flags.FLAGS:\n    tf.app.flags.DEFINE_string('x', '', 'x')\n",
])
def test_alternative_definitions_are_not_duplicates(source: str) -> None:
    assert [f for f in run(source)[1] if f.kind == "attention"] == []


def test_every_edit_is_recorded_with_its_line() -> None:
    source = (
        "import tensorflow as tf\n"
        "flags = tf.app.flags\n"
        "flags.DEFINE_string('x', '', 'x')\n"
        "FLAGS = tf.flags.FLAGS\n"
    )
    _, findings = run(source)
    assert [(f.line, f.kind) for f in findings] == [(2, "edit"), (4, "edit")]
    assert findings[0].message == "flags = tf.app.flags -> from slim_ext import tf1_flags as flags"
    assert findings[1].message == "tf.flags.FLAGS -> flags.FLAGS"


def test_skipped_by_the_cheap_precheck_without_flags_text() -> None:
    assert not FlagsToAbslCommand.applies_to("import tensorflow as tf\nx = tf.zeros([1])\n")
    assert not FlagsToAbslCommand.applies_to("from absl import flags\nFLAGS = flags.FLAGS\n")
    assert FlagsToAbslCommand.applies_to("import tensorflow as tf\ntf.app.run()\n")
    assert FlagsToAbslCommand.applies_to("import tensorflow as tf\nFLAGS = tf.app.flags.FLAGS\n")


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


# --- flags named like absl's own (TF 1.4 had none of them): the definition goes through
# slim_ext.tf1_flags, which gives the name to the script (test_flag_semantics.py runs it).

OWNED_NAME_ROWS = {
    "tf.app.flags": (
        "import tensorflow as tf\n\ntf.app.flags.DEFINE_string(NAME, '/data/output', 'Mine.')\n",
        "from slim_ext import tf1_flags as flags\n\n"
        "flags.DEFINE_string(NAME, '/data/output', 'Mine.')\n"),
    # The platform SDK's flag module.
    "flags_alias": (
        "import tensorflow as tf\n\nflags = tf.app.flags\n\n"
        "flags.DEFINE_string(NAME, '/data/output', 'Summary directory.')\n",
        "\nfrom slim_ext import tf1_flags as flags\n\n"
        "flags.DEFINE_string(NAME, '/data/output', 'Summary directory.')\n"),
    "from_tensorflow": (
        "from tensorflow import flags\nflags.DEFINE_integer(NAME, 0, 'Mine.')\n",
        "from slim_ext import tf1_flags as flags\nflags.DEFINE_integer(NAME, 0, 'Mine.')\n"),
}


# Every owned name in the first spelling; the others with the platform's --log_dir.
@pytest.mark.parametrize(("name", "row"), [(name, "tf.app.flags") for name in OWNED_NAMES]
                         + [("log_dir", "flags_alias"), ("log_dir", "from_tensorflow")])
def test_a_flag_named_like_absls_goes_through_tf1_flags(name: str, row: str) -> None:
    before, after = OWNED_NAME_ROWS[row]
    before, after = (text.replace("NAME", repr(name)) for text in (before, after))
    code, findings = run(before)
    assert code == after
    assert all(finding.kind == "edit" for finding in findings)
    assert run(after) == (after, [])


@pytest.mark.parametrize("name", OWNED_NAMES)
def test_absl_code_defining_absls_names_stays_absl(name: str) -> None:
    # absl code raised DuplicateFlagError before the port too: it is absl's business.
    source = (f"import tensorflow as tf\nfrom absl import flags\n"
              f"flags.DEFINE_string({name!r}, '', 'Mine.')\nx = tf.zeros([1])\n")
    assert run(source) == (source, [])
