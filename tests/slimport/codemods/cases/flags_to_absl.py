"""flags_to_absl: TF1 flags, in every spelling, become slim_ext.tf1_flags; tf.app.run absl's."""
from tests.slimport.test_flag_semantics import OWNED_NAMES
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

# How the port spells tf.app.run's flag parsing in absl.
TF1_PARSING = "flags_parser=lambda argv: flags.FLAGS(argv, known_only=True)"

# TF's flags are reached through an import naming tensorflow; absl-only files (already
# ported) are skipped.
TEXT_PRECHECK = {
    "import tensorflow as tf\nx = tf.zeros([1])\n": False,
    "from absl import flags\nFLAGS = flags.FLAGS\n": False,
    "import tensorflow as tf\ntf.app.run()\n": True,
    "import tensorflow as tf\nFLAGS = tf.app.flags.FLAGS\n": True,
}

CASES = [
    Edit(
        "flags and run together",
        before="""
            import tensorflow as tf

            tf.app.flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = tf.app.flags.FLAGS

            def main(_):
                tf.logging.info(FLAGS.train_dir)

            if __name__ == '__main__':
                tf.app.run()
        """,
        after="""
            import tensorflow as tf
            from slim_ext import tf1_flags as flags
            from absl import app

            flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = flags.FLAGS

            def main(_):
                tf.logging.info(FLAGS.train_dir)

            if __name__ == '__main__':
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """,
    ),
    Edit(
        "tf.app.flags define",
        before="""
            import tensorflow as tf

            tf.app.flags.DEFINE_string('train_dir', '/tmp/train', 'Where to write.')
        """,
        after="""
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('train_dir', '/tmp/train', 'Where to write.')
        """,
    ),
    Edit(
        "tf.flags define keeps tensorflow still in use",
        before="""
            import tensorflow as tf

            tf.flags.DEFINE_integer('batch_size', 32, 'Batch size.')
            x = tf.zeros([1])
        """,
        after="""
            import tensorflow as tf
            from slim_ext import tf1_flags as flags

            flags.DEFINE_integer('batch_size', 32, 'Batch size.')
            x = tf.zeros([1])
        """,
    ),
    Edit(
        "compat.v1 flags spellings",
        before="""
            import tensorflow as tf

            tf.compat.v1.flags.DEFINE_float('lr', 0.01, 'Learning rate.')
            tf.compat.v1.app.flags.DEFINE_bool('sync', False, 'Sync replicas.')
        """,
        after="""
            from slim_ext import tf1_flags as flags

            flags.DEFINE_float('lr', 0.01, 'Learning rate.')
            flags.DEFINE_bool('sync', False, 'Sync replicas.')
        """,
    ),
    Edit(
        "import tensorflow compat.v1 as tf",
        before="""
            import tensorflow.compat.v1 as tf

            tf.app.flags.DEFINE_string('master', '', 'Session target.')
            tf.logging.set_verbosity(tf.logging.INFO)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('master', '', 'Session target.')
            tf.logging.set_verbosity(tf.logging.INFO)
        """,
    ),
    # tensorflow.app.flags is the flags module, not a name of absl.app.
    Edit(
        "flags module imported from the app module",
        before="""
            from tensorflow.app import flags
            from tensorflow.compat.v1.app import flags as tf_flags, run

            flags.DEFINE_string('data_dir', '', 'Data.')
        """,
        after="""
            from slim_ext import tf1_flags as flags
            from slim_ext import tf1_flags as tf_flags
            from absl.app import run

            flags.DEFINE_string('data_dir', '', 'Data.')
        """,
    ),
    # Flags.
    # Flags.
    Edit(
        "flags alias assignment becomes import in place",
        before="""
            import tensorflow as tf

            # Flags.
            flags = tf.app.flags  # alias
            flags.DEFINE_integer('num_clones', 1, 'Clones.')
            FLAGS = flags.FLAGS
        """,
        after="""

            # Flags.
            from slim_ext import tf1_flags as flags  # alias
            flags.DEFINE_integer('num_clones', 1, 'Clones.')
            FLAGS = flags.FLAGS
        """,
    ),
    Edit(
        "flags object assignment",
        before="""
            import tensorflow as tf

            tf.app.flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = tf.app.flags.FLAGS
        """,
        after="""
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('train_dir', '', 'Dir.')
            FLAGS = flags.FLAGS
        """,
    ),
    Edit(
        "every define function and mark required",
        before="""
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
        """,
        after="""
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
        """,
    ),
    # slim_ext.tf1_flags takes TF1's keyword names, as tf.app.flags did.
    Edit(
        "tf1's keyword names are kept",
        before="""
            import tensorflow as tf

            tf.app.flags.DEFINE_string(flag_name='x', default_value='', docstring='x')
        """,
        after="""
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string(flag_name='x', default_value='', docstring='x')
        """,
    ),
    Edit(
        "run without arguments finds main",
        before="""
            import tensorflow as tf

            def main(_):
                pass

            if __name__ == '__main__':
                tf.app.run()
        """,
        after="""
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(_):
                pass

            if __name__ == '__main__':
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """,
    ),
    Edit(
        "run with positional main",
        before="""
            import tensorflow as tf

            def train(unused_argv):
                pass

            tf.app.run(train)
        """,
        after="""
            from slim_ext import tf1_flags as flags
            from absl import app

            def train(unused_argv):
                pass

            app.run(train, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """,
    ),
    Edit(
        "run with main keyword",
        before="""
            import tensorflow as tf

            def main(_):
                pass

            tf.app.run(main=main)
        """,
        after="""
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(_):
                pass

            app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """,
    ),
    Edit(
        "compat.v1 app run with argv",
        before="""
            import sys
            import tensorflow as tf

            def main(argv):
                pass

            tf.compat.v1.app.run(main=main, argv=sys.argv)
        """,
        after="""
            import sys
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(argv):
                pass

            app.run(main, argv=sys.argv, PARSING)
        """.replace("PARSING", TF1_PARSING),
    ),
    Edit(
        "run with argv and no main runs main",
        before="""
            import tensorflow as tf

            def main(argv):
                print(argv)

            tf.app.run(argv=['prog', '--x'])
        """,
        after="""
            from slim_ext import tf1_flags as flags
            from absl import app

            def main(argv):
                print(argv)

            app.run(main, argv=['prog', '--x'], PARSING)
        """.replace("PARSING", TF1_PARSING),
    ),
    # slim_ext.tf1_flags.FLAGS parses sys.argv on the first read, as TF1's did
    # (tests/slimport/test_flag_semantics.py runs it): no parse is inserted.
    # The batch size, read once.
    # The batch size, read once.
    Edit(
        "module level flag read is left to tf1_flags",
        before="""
            import tensorflow as tf

            tf.app.flags.DEFINE_integer('batch', 32, 'Batch size.')
            FLAGS = tf.app.flags.FLAGS
            # The batch size, read once.
            BATCH = FLAGS.batch
            STEPS = FLAGS.batch * 2
        """,
        after="""
            from slim_ext import tf1_flags as flags

            flags.DEFINE_integer('batch', 32, 'Batch size.')
            FLAGS = flags.FLAGS
            # The batch size, read once.
            BATCH = FLAGS.batch
            STEPS = FLAGS.batch * 2
        """,
    ),
    Edit(
        "main block without app run is left to tf1_flags",
        before="""
            import sys
            import tensorflow as tf

            tf.flags.DEFINE_string('name', 'x', 'Name.')
            FLAGS = tf.flags.FLAGS

            def main():
                print(FLAGS.name)

            if __name__ == '__main__':
                main()
        """,
        after="""
            import sys
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('name', 'x', 'Name.')
            FLAGS = flags.FLAGS

            def main():
                print(FLAGS.name)

            if __name__ == '__main__':
                main()
        """,
    ),
    Edit(
        "tf1's private flag internals",
        before="""
            import tensorflow as tf
            FLAGS = tf.app.flags.FLAGS

            def main(_):
                FLAGS._parse_flags()
                for name, value in FLAGS.__flags.items():
                    print(name, value)
                return FLAGS.__dict__['__flags'], tf.app.flags.FLAGS.__flags
        """,
        after="""
            import sys
            from slim_ext import tf1_flags as flags

            FLAGS = flags.FLAGS

            def main(_):
                FLAGS(sys.argv, known_only=True)
                for name, value in FLAGS.flag_values_dict().items():
                    print(name, value)
                return FLAGS.__dict__['__flags'], flags.FLAGS.flag_values_dict()
        """,
    ),
    # y was absl's flag and stays one; x was TF1's and keeps TF1's meaning.
    Edit(
        "absl code beside tf1_flags stays absl",
        before="""
            import tensorflow as tf
            from absl import flags

            tf.app.flags.DEFINE_string('x', '', 'x')
            flags.DEFINE_string('y', '', 'y')
        """,
        after="""
            from absl import flags
            from slim_ext import tf1_flags

            tf1_flags.DEFINE_string('x', '', 'x')
            flags.DEFINE_string('y', '', 'y')
        """,
    ),
    Edit(
        "local name clash uses an alias",
        before="""
            import tensorflow as tf
            from myproject import flags

            app = make_app()
            tf.app.flags.DEFINE_string('x', flags.DEFAULT, 'x')

            def main(_):
                pass

            tf.app.run(main)
        """,
        after="""
            from myproject import flags
            from absl import app as absl_app
            from slim_ext import tf1_flags

            app = make_app()
            tf1_flags.DEFINE_string('x', flags.DEFAULT, 'x')

            def main(_):
                pass

            absl_app.run(main, flags_parser=lambda argv: tf1_flags.FLAGS(argv, known_only=True))
        """,
    ),
    Edit(
        "mixed from import is split",
        before="""
            from tensorflow import flags, logging

            flags.DEFINE_string('x', '', 'x')
            logging.info('x')
        """,
        after="""
            from tensorflow import logging
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('x', '', 'x')
            logging.info('x')
        """,
    ),
    Edit(
        "from flags module import names",
        before="""
            from tensorflow.app.flags import FLAGS, DEFINE_string
        """,
        after="""
            from slim_ext.tf1_flags import FLAGS, DEFINE_string
        """,
    ),
    Edit(
        "crlf line endings survive an edit",
        before='"""Doc."""\r\nimport tensorflow as tf\r\n\r\n'
               "tf.app.flags.DEFINE_string('x', '', 'x')\r\nFLAGS = tf.app.flags.FLAGS\r\n",
        after='"""Doc."""\r\nfrom slim_ext import tf1_flags as flags\r\n\r\n'
              "flags.DEFINE_string('x', '', 'x')\r\nFLAGS = flags.FLAGS\r\n",
    ),
    Reported(
        "run without main is left and reported",
        """
            import tensorflow as tf

            def train(_):
                pass

            tf.app.run()
        """,
        [attention(6, "no module-level main", fix="app.run(")],
    ),
    Reported(
        "run without main is reported at its line",
        "import tensorflow as tf\n\n\ndef train(_):\n    pass\n\n\ntf.app.run()\n",
        [attention(8, "no module-level main", fix="app.run(")],
    ),
    Edit(
        "what cannot be kept of tf1 flag internals is reported",
        before="""
            import tensorflow as tf
            FLAGS = tf.app.flags.FLAGS

            def main(argv):
                FLAGS._parse_flags(argv[1:])
                FLAGS.__flags['steps'] = 3
        """,
        after="""
            from slim_ext import tf1_flags as flags

            FLAGS = flags.FLAGS

            def main(argv):
                FLAGS._parse_flags(argv[1:])
                FLAGS.__flags['steps'] = 3
        """,
        findings=[
            attention(5, fix="parse with FLAGS(argv, known_only=True), argv starting with the "
                             "program name"),
            attention(6, fix="set the flag itself"),
        ],
    ),
    Edit(
        "flag defined twice is reported with both lines",
        before="""
            import tensorflow as tf
            tf.app.flags.DEFINE_string('train_dir', '', 'x')
            tf.app.flags.DEFINE_integer('steps', 1, 'x')
            tf.app.flags.DEFINE_string(flag_name='train_dir', default_value='', docstring='y')
        """,
        after="""
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('train_dir', '', 'x')
            flags.DEFINE_integer('steps', 1, 'x')
            flags.DEFINE_string(flag_name='train_dir', default_value='', docstring='y')
        """,
        findings=[attention(4, "flag 'train_dir' is defined twice (first at line 2)")],
    ),
    # Alternative definitions are no duplicates: one in each branch of an if, or of a try
    # and its except; a guarded second definition may never run.
    Edit(
        "one definition in each branch of an if",
        before="""
            import tensorflow as tf
            if tf.__version__ > '1':
                tf.app.flags.DEFINE_string('x', '', 'x')
            else:
                tf.app.flags.DEFINE_string('x', 'a', 'x')
        """,
        after="""
            import tensorflow as tf
            from slim_ext import tf1_flags as flags

            if tf.__version__ > '1':
                flags.DEFINE_string('x', '', 'x')
            else:
                flags.DEFINE_string('x', 'a', 'x')
        """,
    ),
    Edit(
        "one definition in a try and one in its except",
        before="""
            import tensorflow as tf
            try:
                tf.app.flags.DEFINE_string('x', '', 'x')
            except Exception:
                tf.app.flags.DEFINE_string('x', 'a', 'x')
        """,
        after="""
            from slim_ext import tf1_flags as flags

            try:
                flags.DEFINE_string('x', '', 'x')
            except Exception:
                flags.DEFINE_string('x', 'a', 'x')
        """,
    ),
    Edit(
        "a guarded second definition",
        before="""
            import tensorflow as tf
            tf.app.flags.DEFINE_string('x', '', 'x')
            if 'x' not in tf.app.flags.FLAGS:
                tf.app.flags.DEFINE_string('x', '', 'x')
        """,
        after="""
            from slim_ext import tf1_flags as flags

            flags.DEFINE_string('x', '', 'x')
            if 'x' not in flags.FLAGS:
                flags.DEFINE_string('x', '', 'x')
        """,
    ),
    Edit(
        "every edit is recorded with its line",
        before="""
            import tensorflow as tf
            flags = tf.app.flags
            flags.DEFINE_string('x', '', 'x')
            FLAGS = tf.flags.FLAGS
        """,
        after="""
            from slim_ext import tf1_flags as flags
            flags.DEFINE_string('x', '', 'x')
            FLAGS = flags.FLAGS
        """,
        findings=[
            edit(2, "flags = tf.app.flags -> from slim_ext import tf1_flags as flags"),
            edit(4, "tf.flags.FLAGS -> flags.FLAGS"),
        ],
    ),
    # Flags named like absl's own (TF 1.4 had none of them): the definition goes through
    # slim_ext.tf1_flags, which gives the name to the script (test_flag_semantics.py runs
    # it). Every owned name in the first spelling; the others with the platform's
    # --log_dir.
    *[Edit(
        f"a flag named {name} like absl's own",
        before=f"import tensorflow as tf\n\ntf.app.flags.DEFINE_string({name!r}, '/data/output', "
               "'Mine.')\n",
        after=f"from slim_ext import tf1_flags as flags\n\n"
              f"flags.DEFINE_string({name!r}, '/data/output', 'Mine.')\n",
    ) for name in OWNED_NAMES],
    # The platform SDK's flag module.
    Edit(
        "a flag named like absl's own through a flags alias",
        before="import tensorflow as tf\n\nflags = tf.app.flags\n\n"
               "flags.DEFINE_string('log_dir', '/data/output', 'Summary directory.')\n",
        after="\n\nfrom slim_ext import tf1_flags as flags\n\n"
              "flags.DEFINE_string('log_dir', '/data/output', 'Summary directory.')\n",
    ),
    Edit(
        "a flag named like absl's own from tensorflow's flags",
        before="from tensorflow import flags\nflags.DEFINE_integer('log_dir', 0, 'Mine.')\n",
        after="from slim_ext import tf1_flags as flags\n"
              "flags.DEFINE_integer('log_dir', 0, 'Mine.')\n",
    ),
    Noop("absl.flags and absl.app",
         "import absl.flags\nimport absl.app\n\nabsl.flags.DEFINE_string('x', '', 'x')\n"
         "absl.app.run(lambda argv: None)\n"),
    Noop("already ported",
         "from absl import app\nfrom absl import flags\n\nflags.DEFINE_string('x', '', 'x')\n"
         "FLAGS = flags.FLAGS\n\ndef main(_):\n    pass\n\nif __name__ == '__main__':\n"
         "    app.run(main)\n"),
    Noop("argparse like flags",
         "import argparse\nflags = argparse.ArgumentParser()\nflags.add_argument('--x')\n"
         "FLAGS = flags.parse_args()\n"),
    Noop("other module named flags",
         "from myproject import flags\nflags.DEFINE_string('x', '', 'x')\n"),
    Noop("tf bound to something else",
         "import tensorflow as tf\ntf = load_plugin()\n"
         "tf.app.flags.DEFINE_string('x', '', 'x')\n"),
    Noop("local variable named flags",
         "def parse(flags):\n    return flags.app.run  # app.run\n"),
    Noop("flags in comments and strings",
         "# tf.app.flags\nHELP = 'tf.app.run(main)'\n"),
    Noop("crlf",
         "import tensorflow as tf\r\nx = tf.zeros([1])  # flags\r\n"),
    Edit(
        # A pruning project's tests: FLAGS.test_tmpdir under pytest, whose -q TF's own
        # module parses as a flag of its own.
        "tensorflow.python.platform's flags in TF1 code",
        before="""
            import tensorflow as tf
            from tensorflow.python.platform import flags

            FLAGS = flags.FLAGS

            class PruningTest(tf.test.TestCase):

                def testCheckpoint(self):
                    with self.test_session():
                        path = FLAGS.test_tmpdir
        """,
        after="""
            import tensorflow as tf
            from slim_ext import tf1_flags as flags

            FLAGS = flags.FLAGS

            class PruningTest(tf.test.TestCase):

                def testCheckpoint(self):
                    with self.test_session():
                        path = FLAGS.test_tmpdir
        """,
    ),
    Edit(
        "tensorflow.python.platform's app in TF1 code",
        before="""
            import tensorflow as tf
            from tensorflow.python.platform import app

            def main(_):
                tf.Session().run(tf.placeholder(tf.float32))

            if __name__ == '__main__':
                app.run()
        """,
        after=f"""
            import tensorflow as tf
            from absl import app
            from slim_ext import tf1_flags as flags

            def main(_):
                tf.Session().run(tf.placeholder(tf.float32))

            if __name__ == '__main__':
                app.run(main, {TF1_PARSING})
        """,
    ),
    # TensorFlow's own flags and app modules still exist: code that shows no TF1 sign
    # (TensorFlow's own) keeps them.
    Noop("tensorflow.python.platform's flags",
         "from tensorflow.python.platform import flags  # old style\n\n"
         "flags.DEFINE_string('dataset_dir', None, 'Data.')\nFLAGS = flags.FLAGS\n"),
    Noop("tensorflow.python.platform's app",
         "from tensorflow.python.platform import app\n\ndef main(_):\n    pass\n\napp.run()\n"),
    # A parameter, a local variable or a loop variable named tf is not TensorFlow.
    Noop("parameter named tf",
         "import tensorflow as tf\n\ndef define(tf):\n"
         "    tf.app.flags.DEFINE_string('x', '', 'x')\n"),
    Noop("local tf",
         "import tensorflow as tf\n\ndef other():\n    tf = {'app': None}\n"
         "    return tf.app.flags\n"),
    Noop("comprehension tf",
         "import tensorflow as tf\nx = [tf.app.run for tf in plugins]\n"),
    # absl code raised DuplicateFlagError before the port too: it is absl's business.
    *[Noop(f"absl code defining absl's own {name}",
           f"import tensorflow as tf\nfrom absl import flags\n"
           f"flags.DEFINE_string({name!r}, '', 'Mine.')\nx = tf.zeros([1])\n")
      for name in OWNED_NAMES],
]
