"""uai_flags: uflag.apply(FLAGS, MAPPING) becomes the first statement of main."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

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

# A TF1 train script with slim's flags, as flags_to_absl leaves it, whose main starts with
# MAPPING and whose helper does HELPER.
_SLIM_SCRIPT = """\
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
HELPER


def main(_):
MAPPING
  print(FLAGS.train_dir)


if __name__ == '__main__':
  app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
"""
SLIM_EXT_UFLAG_APPLIED = ("  slim_ext_uflag.apply(FLAGS, {\n"
                          "      'data_dir': 'dataset_dir',\n"
                          "      'output_dir': 'train_dir',\n"
                          "      'num_gpus': 'num_clones',\n"
                          "  })\n")


def _main_starting_with(lines: str, helper: str = "") -> str:
    return _SLIM_SCRIPT.replace("MAPPING\n", lines).replace("HELPER\n", helper or "  pass\n")


CASES = [
    # Dataset is required.
    # Dataset is required.
    Edit(
        "absl train script",
        before='''
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
        ''',
        after='''
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
        ''',
    ),
    Edit(
        "tf1 eval script keeps only defined targets",
        before="""
            import tensorflow as tf

            tf.app.flags.DEFINE_string("dataset_dir", None, "Data.")
            tf.app.flags.DEFINE_string("checkpoint_path", "/tmp/train", "Ckpt.")
            tf.app.flags.DEFINE_string("eval_dir", "/tmp/eval", "Eval.")
            FLAGS = tf.app.flags.FLAGS


            def main(_):
                tf.logging.info("eval")


            if __name__ == "__main__":
                tf.app.run()
        """,
        after="""
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
        """,
    ),
    Edit(
        "aliased flags module and named main",
        before="""
            import tensorflow.compat.v1 as tf
            flags = tf.app.flags
            flags.DEFINE_string('train_dir', '/tmp/t', 'Out.')
            F = flags.FLAGS

            def train(argv):
              del argv

            tf.app.run(main=train)
        """,
        after="""
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
        """,
    ),
    Edit(
        "map adds and overrides entries",
        before="""
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('train_dir', None, '')
            flags.DEFINE_string('dataset_dir', None, '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
        """,
        after="""
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
        """,
        options={'mapping': {"data_dir": "train_dir", "work_dir": "dataset_dir"}},
    ),
    Edit(
        "local uflag name moves import to alias",
        before="""
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('train_dir', None, '')
            FLAGS = flags.FLAGS
            def main(_):
              uflag = FLAGS.train_dir
            app.run(main)
        """,
        after="""
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
        """,
    ),

    Edit(
        "a second run changes nothing, and the edit names what was skipped",
        before=TRAIN_SCRIPT,
        after="""
            from tensorflow.compat.v1 import app
            from tensorflow.compat.v1 import flags
            from slim_ext import uflag

            flags.DEFINE_string('train_dir', None, 'Out.')
            flags.DEFINE_integer('num_clones', 1, 'Clones.')
            FLAGS = flags.FLAGS

            def main(_):
              uflag.apply(FLAGS, {
                  'output_dir': 'train_dir',
                  'num_gpus': 'num_clones',
              })
              print(FLAGS.train_dir)

            if __name__ == '__main__':
              app.run(main)
        """,
        # At the def main line.
        findings=[edit(7, "main starts with uflag.apply(FLAGS, {output_dir->train_dir, "
                          "num_gpus->num_clones}); skipped (flag not defined by this script): "
                          "data_dir->dataset_dir, max_step->max_number_of_steps")],
    ),
    Edit(
        "a bare DEFINE imported from the flags module",
        before="""
            from tensorflow.compat.v1.app import run
            from tensorflow.compat.v1.flags import DEFINE_string, FLAGS
            DEFINE_string('eval_dir', None, '')
            def main(_):
              pass
            run(main)
        """,
        after="""
            from tensorflow.compat.v1.app import run
            from tensorflow.compat.v1.flags import DEFINE_string, FLAGS
            from slim_ext import uflag

            DEFINE_string('eval_dir', None, '')
            def main(_):
              uflag.apply(FLAGS, {
                  'log_dir': 'eval_dir',
              })
              pass
            run(main)
        """,
        findings=[edit(4)],
    ),
    # An eval script whose --output_dir is where it writes its results: mapping the
    # platform's --output_dir onto --checkpoint_path would change what it means.
    Edit(
        "a platform flag the script defines itself is not mapped over",
        before="""
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('checkpoint_path', None, 'Checkpoint.')
            flags.DEFINE_string('output_dir', '/tmp/results', 'Where results go.')
            flags.DEFINE_string('dataset_dir', None, 'Data.')
            FLAGS = flags.FLAGS

            def main(_):
                pass

            if __name__ == '__main__':
                app.run(main)
        """,
        after="""
            from tensorflow.compat.v1 import app, flags
            from slim_ext import uflag

            flags.DEFINE_string('checkpoint_path', None, 'Checkpoint.')
            flags.DEFINE_string('output_dir', '/tmp/results', 'Where results go.')
            flags.DEFINE_string('dataset_dir', None, 'Data.')
            FLAGS = flags.FLAGS

            def main(_):
                uflag.apply(FLAGS, {
                    'data_dir': 'dataset_dir',
                })
                pass

            if __name__ == '__main__':
                app.run(main)
        """,
        findings=[attention(3, "defines --output_dir itself")],
    ),
    # Slim's flags set from something that is no platform flag, or a platform flag read but
    # not copied onto the slim flag it fills: uflag.apply as anywhere. The SDK's module is
    # `uflag` here: slim_ext's comes in under another name.
    *[Edit(
        title,
        before=_main_starting_with(lines),
        after=_main_starting_with(SLIM_EXT_UFLAG_APPLIED + lines).replace(
            "from slim_ext import tf1_flags as flags",
            "from slim_ext import uflag as slim_ext_uflag, tf1_flags as flags"),
        findings=[edit(17)],
    ) for title, lines in [
        ("a slim flag set from itself",
         "  FLAGS.train_dir = os.path.join(FLAGS.train_dir, 'run1')\n"),
        ("a slim flag given a default", "  FLAGS.dataset_dir = FLAGS.dataset_dir or '/tmp/data'\n"),
        ("a platform flag read", "  print(FLAGS.data_dir)\n"),
        ("a platform flag read into another", "  FLAGS.clone_on_cpu = FLAGS.num_gpus == 0\n"),
    ]],
    Reported(
        "a main that is not a module-level function",
        """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('train_dir', None, '')
            FLAGS = flags.FLAGS
            class Trainer:
              def main(self, argv):
                pass
            app.run(Trainer().main)
        """,
        [attention(7, fix="uflag.apply(FLAGS")],
    ),
    Reported(
        "a missing flags object",
        """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('train_dir', None, '')
            def main(_):
              print(flags.FLAGS.train_dir)
            app.run(main)
        """,
        [attention(3, fix="FLAGS = flags.FLAGS")],
    ),
    Reported(
        "a flags object bound only inside main",
        """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('train_dir', None, '')
            def main(_):
              FLAGS = flags.FLAGS
              print(FLAGS.train_dir)
            app.run(main)
        """,
        [attention(3, "no module-level FLAGS = flags.FLAGS")],
    ),
    # A script that maps the platform flags itself (the platform's own train script) is
    # left and reported, at its first hand-made copy.
    *[Reported(
        f"a script that maps by hand: {title}",
        _main_starting_with(lines, helper=helper),
        [attention(line, f"the script maps the platform flags onto slim's by hand ({mapped}); "
                         "uflag.apply was not added",
                   fix=fix)],
    ) for title, lines, helper, line, mapped, fix in [
        # Of the flags the script defines, it has no --max_number_of_steps for --max_step.
        ("plain", "  FLAGS.dataset_dir = FLAGS.data_dir\n  FLAGS.train_dir = FLAGS.output_dir\n",
         "", 18, "data_dir->dataset_dir, output_dir->train_dir",
         "nothing to do: the script's own mapping stays; it does not map --num_gpus: set the "
         "slim flag"),
        ("under an if and an else",
         "  FLAGS.dataset_dir = FLAGS.data_dir\n  FLAGS.train_dir = FLAGS.output_dir\n"
         "  if FLAGS.num_gpus > 0:\n    FLAGS.num_clones = FLAGS.num_gpus\n"
         "  else:\n    FLAGS.clone_on_cpu = True\n",
         "", 18, "data_dir->dataset_dir, output_dir->train_dir, num_gpus->num_clones",
         "nothing to do: the script's own mapping stays"),
        ("another flags name", "  F.train_dir = F.output_dir\n", "", 18,
         "output_dir->train_dir", "nothing to do: the script's own mapping stays"),
        ("the flags module spelled out", "  flags.FLAGS.dataset_dir = flags.FLAGS.data_dir\n", "",
         18, "data_dir->dataset_dir", "nothing to do: the script's own mapping stays"),
        ("from an expression",
         "  FLAGS.train_dir = os.path.join(FLAGS.output_dir, 'train')\n", "", 18,
         "output_dir->train_dir", "nothing to do: the script's own mapping stays"),
        ("in a helper", "  _map_platform_flags()\n", "  FLAGS.train_dir = FLAGS.output_dir\n", 14,
         "output_dir->train_dir", "nothing to do: the script's own mapping stays"),
    ]],
    Noop("defines flags but never runs",
         """
            from tensorflow.compat.v1 import flags
            flags.DEFINE_string('train_dir', None, 'Out.')
            FLAGS = flags.FLAGS
            def main(_):
              pass
         """),
    Noop("runs but defines no flags",
         """
            from tensorflow.compat.v1 import app
            def main(_):
              pass
            app.run(main)
         """),
    Noop("an entry script without slim flags",
         """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_integer('batch_size', 32, '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
         """),
    Noop("DEFINE on something that is not flags",
         """
            import argparse
            parser = argparse.ArgumentParser()
            parser.DEFINE_string('train_dir', None, '')
            def main(_):
              pass
            app.run(main)
         """),
    Noop("already ported",
         """
            from tensorflow.compat.v1 import app, flags
            from slim_ext import uflag
            flags.DEFINE_string('train_dir', None, 'Out.')
            FLAGS = flags.FLAGS
            def main(_):
              uflag.apply(FLAGS, {'work_dir': 'train_dir'})
            app.run(main)
         """),
    Noop("an absl script of tf2 code",
         """
            from absl import app, flags
            import tensorflow as tf
            flags.DEFINE_string('train_dir', None, 'Where to write.')
            FLAGS = flags.FLAGS

            def main(_):
              tf.keras.Sequential().save(FLAGS.train_dir)

            if __name__ == '__main__':
              app.run(main)
         """),
]
