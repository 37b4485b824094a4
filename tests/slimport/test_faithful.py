"""The whole rewrite keeps working code working: before/after and no-op tables over every
codemod at once, as ``slimport rewrite`` runs them (skeletons included)."""
from __future__ import annotations

import textwrap

import pytest

from slimport import engine
from slimport.codemods import CODEMODS


def port(source: str) -> str:
    ported = engine.port_source(textwrap.dedent(source).encode(), "sample.py", CODEMODS, {})
    assert ported.error is None, ported.error
    return ported.data.decode()


BEFORE_AFTER = {
    # An alias assigned on the line before ``slim = tf.contrib.slim`` cannot go through
    # ``slim``: the new import goes to the top, before any use.
    "use_before_the_alias_statement": (
        """\
        import tensorflow as tf
        arg_scope = tf.contrib.framework.arg_scope
        slim = tf.contrib.slim
        """,
        """\
        import tensorflow.compat.v1 as tf
        import tf_slim
        import slim_ext

        arg_scope = tf_slim.arg_scope
        import tf_slim as slim
        """,
    ),
    # Inside a function every module-level alias has been bound by the time it runs.
    "function_uses_the_alias_bound_later": (
        """\
        import tensorflow as tf

        def scope():
            return tf.contrib.framework.arg_scope

        slim = tf.contrib.slim
        """,
        """\
        import tensorflow.compat.v1 as tf

        def scope():
            return slim.arg_scope

        import tf_slim as slim
        import slim_ext
        """,
    ),
    # Flags read at import time parse sys.argv first, as TF1's FLAGS did: tf1_flags'
    # FLAGS does it on the read. ``flags`` is the FLAGS object here, so the module
    # comes in under its own name.
    "module_level_flag_read": (
        """\
        import tensorflow as tf
        tf.app.flags.DEFINE_string('data_url', '/tmp/mnist', 'Data.')
        flags = tf.app.flags.FLAGS
        data = load(flags.data_url)
        """,
        """\
        from slim_ext import tf1_flags

        tf1_flags.DEFINE_string('data_url', '/tmp/mnist', 'Data.')
        flags = tf1_flags.FLAGS
        data = load(flags.data_url)
        """,
    ),
    # tf.flags and MoXing are TF1 signs that flags_to_absl and moxing port away: the
    # file is still TF1 code (its dataset has TF1's make_one_shot_iterator), and so
    # are its Python 2 leftovers.
    "tf1_signs_ported_by_earlier_codemods": (
        """\
        import tensorflow as tf
        tf.flags.DEFINE_integer('batch_size', 100, 'Batch.')
        FLAGS = tf.flags.FLAGS
        import moxing.tensorflow as mox

        def input_fn(run_mode, **kwargs):
            ds = tf.data.Dataset.range(10).batch(FLAGS.batch_size)
            for _ in xrange(2):
                ds = ds.repeat()
            return ds.make_one_shot_iterator().get_next()
        """,
        """\
        import tensorflow.compat.v1 as tf
        from slim_ext import tf1_flags as flags

        flags.DEFINE_integer('batch_size', 100, 'Batch.')
        FLAGS = flags.FLAGS
        import slim_ext.mox as mox

        def input_fn(run_mode, **kwargs):
            ds = tf.data.Dataset.range(10).batch(FLAGS.batch_size)
            for _ in range(2):
                ds = ds.repeat()
            return ds.make_one_shot_iterator().get_next()
        """,
    ),
    # The only TF1 use sits in a comprehension (object detection's
    # tf_record_creation_util.py): the skeleton must still show it.
    "tf1_use_only_in_a_comprehension": (
        """\
        import tensorflow as tf


        def writers(names):
            return [tf.python_io.TFRecordWriter(n) for n in names]
        """,
        """\
        import tensorflow.compat.v1 as tf


        def writers(names):
            return [tf.python_io.TFRecordWriter(n) for n in names]
        """,
    ),
    # A test module that needs graph mode through names TF2 has too (object detection's
    # 56 such modules): TF1 code, switched when imported, Python 2 leftovers ported.
    "test_module_relying_on_graph_mode": (
        """\
        import tensorflow as tf


        class ScoreTest(tf.test.TestCase):

            def test_scores(self):
                scores = {'a': tf.constant(1.0)}
                with self.test_session() as sess:
                    for name, score in scores.iteritems():
                        self.assertEqual(sess.run(score), 1.0)


        if __name__ == '__main__':
            tf.test.main()
        """,
        """\
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()


        class ScoreTest(tf.test.TestCase):

            def test_scores(self):
                scores = {'a': tf.constant(1.0)}
                with self.test_session() as sess:
                    for name, score in scores.items():
                        self.assertEqual(sess.run(score), 1.0)


        if __name__ == '__main__':
            tf.test.main()
        """,
    ),
}


@pytest.mark.parametrize("name", BEFORE_AFTER)
def test_before_after(name: str) -> None:
    before, after = BEFORE_AFTER[name]
    assert port(before) == textwrap.dedent(after)
    assert port(after) == textwrap.dedent(after)


NOOP = {
    # libcst drops the first of these comment lines when a skeleton's one-line
    # placeholder stands before them at the end of a file; they must survive.
    "trailing_comments_of_a_block": "# tensorflow\ndef f():\n    g()\n    # a\n    # b\n",
    "trailing_comments_after_a_class": (
        "# tensorflow\nclass A:\n    def f(self):\n        pass\n        # a\n\n    # b\n"
    ),
    # TF2 code beside TF1 code is left alone.
    "tf2_module": (
        "import tensorflow as tf\n\n\ndef resize(x):\n"
        "    return tf.image.resize(x, (2, 2), antialias=True)\n"
    ),
    "tf2_keras_training": (
        "import tensorflow as tf\nfrom absl import app\n\n\ndef main(argv):\n"
        "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "    model.compile('sgd', 'mse')\n\n\nif __name__ == '__main__':\n    app.run(main)\n"
    ),
    # TensorFlow's own modules, used by TF's own code, are not TF1 API.
    "tensorflow_internals": (
        "from tensorflow.python.platform import app\nfrom tensorflow.python.platform import "
        "flags\n\nFLAGS = flags.FLAGS\n\n\ndef main(argv=None):\n    app.run(main=main, "
        "argv=argv)\n"
    ),
    # absl flags and a dataset in TF2 code: no TF1 sign before the port either.
    "tf2_absl_flags_and_dataset": (
        "import tensorflow as tf\nfrom absl import flags\n\nflags.DEFINE_integer('n', 1, 'N.')"
        "\n\n\ndef data():\n    return iter(tf.data.Dataset.range(flags.FLAGS.n))\n"
    ),
    # A TF2 test module: eager tests stay eager.
    "tf2_test_module": (
        "import tensorflow as tf\n\n\nclass T(tf.test.TestCase):\n\n    def test(self):\n"
        "        self.assertAllEqual(self.evaluate(tf.ones([2])), [1, 1])\n\n\n"
        "if __name__ == '__main__':\n    tf.test.main()\n"
    ),
    "dunders_and_protos": (
        "import tensorflow as tf\nfrom tensorflow.core.protobuf import saver_pb2\n\n"
        "print(tf.__version__, saver_pb2.SaverDef.V1)\n"
    ),
}


@pytest.mark.parametrize("name", NOOP)
def test_noop(name: str) -> None:
    source = NOOP[name]
    ported = engine.port_source(source.encode(), "sample.py", CODEMODS, {})
    assert ported.error is None
    assert ported.data == source.encode()
    assert [f for f in ported.findings if f.kind != "edit"] == []


@pytest.mark.parametrize("source, expected", [
    # libcst drops a CR-only file's last line ending; the port keeps every CR.
    (b"import tensorflow as tf\rx = tf.placeholder(tf.float32)\r",
     b"import tensorflow.compat.v1 as tf\rtf.disable_v2_behavior()\r"
     b"x = tf.placeholder(tf.float32)\r"),
    (b"# tensorflow\rdef f():\r    g()\r    # a\r", b"# tensorflow\rdef f():\r    g()\r    # a\r"),
])
def test_cr_only_files(source: bytes, expected: bytes) -> None:
    ported = engine.port_source(source, "sample.py", CODEMODS, {})
    assert ported.error is None
    assert ported.data == expected
    assert engine.port_source(expected, "sample.py", CODEMODS, {}).data == expected
