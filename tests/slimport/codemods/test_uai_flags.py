"""uai_flags: uflag.apply(FLAGS, MAPPING) becomes the first statement of main."""
from __future__ import annotations

import argparse
import functools
import textwrap

import pytest
from libcst.codemod import CodemodContext, CodemodTest

from slimport.codemods.uai_flags import EVAL_MAPPING, TRAIN_MAPPING, UaiFlagsCommand
from tests.slimport.codemods._helpers import run_codemod


run = functools.partial(run_codemod, UaiFlagsCommand)


class TestUaiFlags(CodemodTest):
    TRANSFORM = UaiFlagsCommand

    def test_absl_train_script(self) -> None:
        before = '''
            """Trains a model."""
            from tensorflow.compat.v1 import app
            from tensorflow.compat.v1 import flags

            flags.DEFINE_string('dataset_dir', None, 'Where the data is.')
            flags.DEFINE_string('train_dir', '/tmp/train', 'Where to write.')
            flags.DEFINE_integer('num_clones', 1, 'Clones per replica.')
            flags.DEFINE_integer('max_number_of_steps', None, 'Steps.')

            FLAGS = flags.FLAGS


            def main(_):
              """Runs training."""
              # Dataset is required.
              if not FLAGS.dataset_dir:
                raise ValueError('--dataset_dir is required')


            if __name__ == '__main__':
              app.run(main)
        '''
        after = '''
            """Trains a model."""
            from tensorflow.compat.v1 import app
            from tensorflow.compat.v1 import flags
            from slim_ext import uflag

            flags.DEFINE_string('dataset_dir', None, 'Where the data is.')
            flags.DEFINE_string('train_dir', '/tmp/train', 'Where to write.')
            flags.DEFINE_integer('num_clones', 1, 'Clones per replica.')
            flags.DEFINE_integer('max_number_of_steps', None, 'Steps.')

            FLAGS = flags.FLAGS


            def main(_):
              """Runs training."""
              uflag.apply(FLAGS, {
                  'data_dir': 'dataset_dir',
                  'output_dir': 'train_dir',
                  'num_gpus': 'num_clones',
                  'max_step': 'max_number_of_steps',
              })
              # Dataset is required.
              if not FLAGS.dataset_dir:
                raise ValueError('--dataset_dir is required')


            if __name__ == '__main__':
              app.run(main)
        '''
        self.assertCodemod(before, after)

    def test_tf1_eval_script_keeps_only_defined_targets(self) -> None:
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_string("dataset_dir", None, "Data.")
            tf.app.flags.DEFINE_string("checkpoint_path", "/tmp/train", "Ckpt.")
            tf.app.flags.DEFINE_string("eval_dir", "/tmp/eval", "Eval.")
            FLAGS = tf.app.flags.FLAGS


            def main(_):
                tf.logging.info("eval")


            if __name__ == "__main__":
                tf.app.run()
        """
        after = """
            import tensorflow as tf
            from slim_ext import uflag

            tf.app.flags.DEFINE_string("dataset_dir", None, "Data.")
            tf.app.flags.DEFINE_string("checkpoint_path", "/tmp/train", "Ckpt.")
            tf.app.flags.DEFINE_string("eval_dir", "/tmp/eval", "Eval.")
            FLAGS = tf.app.flags.FLAGS


            def main(_):
                uflag.apply(FLAGS, {
                    "data_dir": "dataset_dir",
                    "output_dir": "checkpoint_path",
                    "log_dir": "eval_dir",
                })
                tf.logging.info("eval")


            if __name__ == "__main__":
                tf.app.run()
        """
        self.assertCodemod(before, after)

    def test_aliased_flags_module_and_named_main(self) -> None:
        before = """
            import tensorflow.compat.v1 as tf
            flags = tf.app.flags
            flags.DEFINE_string('train_dir', '/tmp/t', 'Out.')
            F = flags.FLAGS

            def train(argv):
              del argv

            tf.app.run(main=train)
        """
        after = """
            import tensorflow.compat.v1 as tf
            from slim_ext import uflag

            flags = tf.app.flags
            flags.DEFINE_string('train_dir', '/tmp/t', 'Out.')
            F = flags.FLAGS

            def train(argv):
              uflag.apply(F, {
                  'output_dir': 'train_dir',
              })
              del argv

            tf.app.run(main=train)
        """
        self.assertCodemod(before, after)

    def test_map_adds_and_overrides_entries(self) -> None:
        before = """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('train_dir', None, '')
            flags.DEFINE_string('dataset_dir', None, '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
        """
        after = """
            from tensorflow.compat.v1 import app, flags
            from slim_ext import uflag

            flags.DEFINE_string('train_dir', None, '')
            flags.DEFINE_string('dataset_dir', None, '')
            FLAGS = flags.FLAGS
            def main(_):
              uflag.apply(FLAGS, {
                  'data_dir': 'train_dir',
                  'output_dir': 'train_dir',
                  'work_dir': 'dataset_dir',
              })
              pass
            app.run(main)
        """
        self.assertCodemod(
            before, after, mapping={"data_dir": "train_dir", "work_dir": "dataset_dir"}
        )

    def test_local_uflag_name_moves_import_to_alias(self) -> None:
        before = """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('train_dir', None, '')
            FLAGS = flags.FLAGS
            def main(_):
              uflag = FLAGS.train_dir
            app.run(main)
        """
        after = """
            from tensorflow.compat.v1 import app, flags
            from slim_ext import uflag as slim_ext_uflag

            flags.DEFINE_string('train_dir', None, '')
            FLAGS = flags.FLAGS
            def main(_):
              slim_ext_uflag.apply(FLAGS, {
                  'output_dir': 'train_dir',
              })
              uflag = FLAGS.train_dir
            app.run(main)
        """
        self.assertCodemod(before, after)


TRAIN_SCRIPT = """
    from tensorflow.compat.v1 import app
    from tensorflow.compat.v1 import flags
    flags.DEFINE_string('train_dir', None, 'Out.')
    flags.DEFINE_integer('num_clones', 1, 'Clones.')
    FLAGS = flags.FLAGS

    def main(_):
      print(FLAGS.train_dir)

    if __name__ == '__main__':
      app.run(main)
"""


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """
            from tensorflow.compat.v1 import flags
            flags.DEFINE_string('train_dir', None, 'Out.')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            """,
            id="defines-flags-but-never-runs",
        ),
        pytest.param(
            """
            from tensorflow.compat.v1 import app
            def main(_):
              pass
            app.run(main)
            """,
            id="runs-but-defines-no-flags",
        ),
        pytest.param(
            """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_integer('batch_size', 32, '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
            """,
            id="entry-script-without-slim-flags",
        ),
        pytest.param(
            """
            import argparse
            parser = argparse.ArgumentParser()
            parser.DEFINE_string('train_dir', None, '')
            def main(_):
              pass
            app.run(main)
            """,
            id="DEFINE-on-something-that-is-not-flags",
        ),
        pytest.param(
            """
            from tensorflow.compat.v1 import app, flags
            from slim_ext import uflag
            flags.DEFINE_string('train_dir', None, 'Out.')
            FLAGS = flags.FLAGS
            def main(_):
              uflag.apply(FLAGS, {'work_dir': 'train_dir'})
            app.run(main)
            """,
            id="already-ported",
        ),
    ],
)
def test_noop(source: str) -> None:
    assert run(source) == (textwrap.dedent(source), [])


def test_second_run_changes_nothing() -> None:
    once, _ = run(TRAIN_SCRIPT)
    assert run(once) == (once, [])


def test_edit_is_reported_with_skipped_defaults() -> None:
    _, findings = run(TRAIN_SCRIPT)
    [finding] = findings
    assert finding.kind == "edit"
    assert finding.line == 8  # the def main line
    assert "output_dir->train_dir" in finding.message
    assert "num_gpus->num_clones" in finding.message
    assert "skipped" in finding.message
    assert "data_dir->dataset_dir" in finding.message.split("skipped")[1]
    assert "max_step->max_number_of_steps" in finding.message.split("skipped")[1]


def test_main_that_is_not_a_module_level_function_needs_attention() -> None:
    source = """
        from tensorflow.compat.v1 import app, flags
        flags.DEFINE_string('train_dir', None, '')
        FLAGS = flags.FLAGS
        class Trainer:
          def main(self, argv):
            pass
        app.run(Trainer().main)
    """
    code, findings = run(source)
    assert code == textwrap.dedent(source)
    [finding] = findings
    assert finding.kind == "attention"
    assert finding.line == 8
    assert "uflag.apply(FLAGS" in finding.fix


def test_missing_flags_object_needs_attention() -> None:
    source = """
        from tensorflow.compat.v1 import app, flags
        flags.DEFINE_string('train_dir', None, '')
        def main(_):
          print(flags.FLAGS.train_dir)
        app.run(main)
    """
    code, findings = run(source)
    assert code == textwrap.dedent(source)
    [finding] = findings
    assert finding.kind == "attention"
    assert "FLAGS = flags.FLAGS" in finding.fix


def test_bare_define_imported_from_flags_module() -> None:
    code, findings = run(
        """
        from tensorflow.compat.v1.app import run
        from tensorflow.compat.v1.flags import DEFINE_string, FLAGS
        DEFINE_string('eval_dir', None, '')
        def main(_):
          pass
        run(main)
        """
    )
    assert "uflag.apply(FLAGS, {\n      'log_dir': 'eval_dir',\n  })" in code
    assert [f.kind for f in findings] == ["edit"]


def test_map_option_parses_from_the_libcst_tool_command_line() -> None:
    parser = argparse.ArgumentParser()
    UaiFlagsCommand.add_args(parser)
    args = parser.parse_args(["--map", "data_dir=train_dir", "--map", "work_dir=dataset_dir"])
    command = UaiFlagsCommand(CodemodContext(), **vars(args))
    assert command.mapping == {"data_dir": "train_dir", "work_dir": "dataset_dir"}
    assert UaiFlagsCommand(CodemodContext(), **vars(parser.parse_args(
        ["--map", "data_dir=train_dir,log_dir=eval_dir"]))).mapping == {
            "data_dir": "train_dir", "log_dir": "eval_dir"}
    # Checked as `slimport rewrite --map` checks it: FROM=TO, FROM a platform flag.
    for bad in ("data_dir", "dataset_dir=data_dir", "data_dir=not-a-flag"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--map", bad])


def test_mapping_is_a_declared_option() -> None:
    assert UaiFlagsCommand.OPTIONS == ("mapping",)
    assert UaiFlagsCommand.NAME == "uai_flags"


def test_flags_object_bound_only_inside_main_needs_attention() -> None:
    source = """
        from tensorflow.compat.v1 import app, flags
        flags.DEFINE_string('train_dir', None, '')
        def main(_):
          FLAGS = flags.FLAGS
          print(FLAGS.train_dir)
        app.run(main)
    """
    code, findings = run(source)
    assert code == textwrap.dedent(source)
    assert [f.kind for f in findings] == ["attention"]


@pytest.mark.tf
def test_defaults_are_slim_ext_uflags_mappings() -> None:
    """The rewrite repeats uflag's defaults (it must not import TF); keep them equal."""
    from slim_ext import uflag

    assert TRAIN_MAPPING == dict(uflag.TRAIN_MAPPING)
    assert EVAL_MAPPING == dict(uflag.EVAL_MAPPING)


def test_a_platform_flag_the_script_defines_itself_is_not_mapped_over() -> None:
    # An eval script whose --output_dir is where it writes its results: mapping the
    # platform's --output_dir onto --checkpoint_path would change what it means.
    source = textwrap.dedent("""\
        from tensorflow.compat.v1 import app, flags
        flags.DEFINE_string('checkpoint_path', None, 'Checkpoint.')
        flags.DEFINE_string('output_dir', '/tmp/results', 'Where results go.')
        flags.DEFINE_string('dataset_dir', None, 'Data.')
        FLAGS = flags.FLAGS

        def main(_):
            pass

        if __name__ == '__main__':
            app.run(main)
    """)
    code, findings = run(source)
    assert "'output_dir'" not in code.split("def main")[1]
    assert "'data_dir': 'dataset_dir'" in code
    [attention] = [f for f in findings if f.kind == "attention"]
    assert (attention.line, "defines --output_dir itself" in attention.message) == (3, True)


def test_an_absl_script_of_tf2_code_gets_no_slim_ext() -> None:
    source = textwrap.dedent("""\
        from absl import app, flags
        import tensorflow as tf
        flags.DEFINE_string('train_dir', None, 'Where to write.')
        FLAGS = flags.FLAGS

        def main(_):
          tf.keras.Sequential().save(FLAGS.train_dir)

        if __name__ == '__main__':
          app.run(main)
    """)
    assert run(source) == (source, [])


# --- a script that maps the platform flags itself (the platform's own train script)

# A TF1 train script with slim's flags whose main starts with MAPPING (indented by
# four), after the flags flags_to_absl has ported.
HAND_MAPPED = """\
import os
from absl import app
from slim_ext import tf1_flags as flags
from uaitrain.arch.tensorflow import uflag
flags.DEFINE_string('dataset_dir', None, 'Data.')
flags.DEFINE_string('train_dir', None, 'Out.')
flags.DEFINE_integer('num_clones', 1, 'Clones.')
flags.DEFINE_bool('clone_on_cpu', False, 'CPU.')
FLAGS = flags.FLAGS
F = flags.FLAGS


def _map_platform_flags():
  pass


def main(_):
MAPPING
  print(FLAGS.train_dir)


if __name__ == '__main__':
  app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
"""

# How the platform's scripts map: (main's first lines, the mappings the report names).
HAND_MAPPINGS = {
    "plain": ("    FLAGS.dataset_dir = FLAGS.data_dir\n    FLAGS.train_dir = FLAGS.output_dir\n",
              "data_dir->dataset_dir, output_dir->train_dir"),
    "under_if_else": (
        "    FLAGS.dataset_dir = FLAGS.data_dir\n    FLAGS.train_dir = FLAGS.output_dir\n"
        "    if FLAGS.num_gpus > 0:\n      FLAGS.num_clones = FLAGS.num_gpus\n"
        "    else:\n      FLAGS.clone_on_cpu = True\n",
        "data_dir->dataset_dir, output_dir->train_dir, num_gpus->num_clones"),
    "another_flags_name": ("    F.train_dir = F.output_dir\n", "output_dir->train_dir"),
    "flags_module_spelled_out": ("    flags.FLAGS.dataset_dir = flags.FLAGS.data_dir\n",
                                 "data_dir->dataset_dir"),
    "from_an_expression": (
        "    FLAGS.train_dir = os.path.join(FLAGS.output_dir, 'train')\n",
        "output_dir->train_dir"),
    "in_a_helper": ("    _map_platform_flags()\n", "output_dir->train_dir"),
}


def _hand_mapped(name: str) -> str:
    lines, _ = HAND_MAPPINGS[name]
    source = HAND_MAPPED.replace("MAPPING\n", lines.replace("    ", "  "))
    if name == "in_a_helper":
        source = source.replace("def _map_platform_flags():\n  pass\n",
                                "def _map_platform_flags():\n  FLAGS.train_dir = "
                                "FLAGS.output_dir\n")
    return source


@pytest.mark.parametrize("name", HAND_MAPPINGS)
def test_a_script_that_maps_by_hand_is_left_and_reported(name: str) -> None:
    source = _hand_mapped(name)
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention"
    assert finding.message == (f"the script maps the platform flags onto slim's by hand "
                               f"({HAND_MAPPINGS[name][1]}); uflag.apply was not added")
    assert finding.fix.startswith("nothing to do: the script's own mapping stays")
    # The finding is at the first hand-made copy.
    assert "= " in source.splitlines()[finding.line - 1]


def test_the_report_names_the_platform_flags_left_unmapped() -> None:
    # Of the flags the script defines: it has no --max_number_of_steps for --max_step.
    _, [finding] = run(_hand_mapped("plain"))
    assert "; it does not map --num_gpus: set the slim flag" in finding.fix


@pytest.mark.parametrize("lines", [
    # Slim's flags set from something that is no platform flag: today's edit.
    "  FLAGS.train_dir = os.path.join(FLAGS.train_dir, 'run1')\n",
    "  FLAGS.dataset_dir = FLAGS.dataset_dir or '/tmp/data'\n",
    # A platform flag read, but not copied onto the slim flag it fills.
    "  print(FLAGS.data_dir)\n",
    "  FLAGS.clone_on_cpu = FLAGS.num_gpus == 0\n",
])
def test_a_script_that_does_not_map_by_hand_gets_uflag_apply(lines: str) -> None:
    code, findings = run(HAND_MAPPED.replace("MAPPING\n", lines))
    assert [f.kind for f in findings] == ["edit"]
    # The SDK's module is `uflag` here: slim_ext's comes in under another name.
    assert "def main(_):\n  slim_ext_uflag.apply(FLAGS, {\n" in code
