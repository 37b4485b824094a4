"""compat_v1: TF1 files run on tensorflow.compat.v1; TF2 files are left exactly as they are."""
from __future__ import annotations

import functools
import textwrap

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from slimport.tables.tf_api import TF1, TF2, tf_api
from slimport.codemods.compat_v1 import CompatV1Command, api_use, call_signal, name_signal
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod


run = functools.partial(run_codemod, CompatV1Command)


class TestCompatV1(IdempotentCodemodTest):
    TRANSFORM = CompatV1Command

    def test_tf1_file_moves_to_compat_v1(self) -> None:
        before = """
            import tensorflow as tf  # the TF1 API

            tf.logging.set_verbosity(tf.logging.INFO)
            features = {'image': tf.FixedLenFeature((), tf.string)}
            saver = tf.train.Saver()
        """
        after = """
            import tensorflow.compat.v1 as tf  # the TF1 API

            tf.logging.set_verbosity(tf.logging.INFO)
            features = {'image': tf.FixedLenFeature((), tf.string)}
            saver = tf.train.Saver()
        """
        self.assertCodemod(before, after)

    def test_a_tf1_keyword_makes_a_tf1_file(self) -> None:
        before = """
            import tensorflow as tf
            total = tf.reduce_sum(x, axis=1, keep_dims=True)
        """
        after = """
            import tensorflow.compat.v1 as tf
            total = tf.reduce_sum(x, axis=1, keep_dims=True)
        """
        self.assertCodemod(before, after)

    def test_a_positional_argument_named_for_tf1_makes_a_tf1_file(self) -> None:
        before = """
            import tensorflow as tf
            def net(x, keep_prob):
                return tf.nn.dropout(x, keep_prob)
        """
        after = """
            import tensorflow.compat.v1 as tf
            def net(x, keep_prob):
                return tf.nn.dropout(x, keep_prob)
        """
        self.assertCodemod(before, after)

    def test_tf_slim_makes_a_tf1_file(self) -> None:
        before = """
            import tensorflow as tf
            import tf_slim as slim
            net = slim.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3)
        """
        after = """
            import tensorflow.compat.v1 as tf
            import tf_slim as slim
            net = slim.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3)
        """
        self.assertCodemod(before, after)

    def test_from_tensorflow_import(self) -> None:
        before = """
            from tensorflow import logging, gfile

            logging.info(gfile.Exists('/tmp'))
        """
        after = """
            from tensorflow.compat.v1 import logging, gfile

            logging.info(gfile.Exists('/tmp'))
        """
        self.assertCodemod(before, after)

    def test_from_tensorflow_import_keeps_keras_on_its_own_line(self) -> None:
        before = """
            import tensorflow as tf
            from tensorflow import keras, logging
            saver = tf.train.Saver()
        """
        after = """
            import tensorflow.compat.v1 as tf
            from tensorflow import keras
            from tensorflow.compat.v1 import logging
            saver = tf.train.Saver()
        """
        self.assertCodemod(before, after)

    def test_plain_import_tensorflow_keeps_the_package(self) -> None:
        before = """
            import tensorflow
            from tensorflow.python.framework import ops

            saver = tensorflow.train.Saver()
            step = tensorflow.compat.v1.train.get_global_step()
            graph = ops.get_default_graph()
            model = tensorflow.keras.Sequential()
        """
        after = """
            import tensorflow
            from tensorflow.python.framework import ops

            saver = tensorflow.compat.v1.train.Saver()
            step = tensorflow.compat.v1.train.get_global_step()
            graph = ops.get_default_graph()
            model = tensorflow.keras.Sequential()
        """
        self.assertCodemod(before, after)

    def test_tf_compat_v1_prefix_collapses(self) -> None:
        before = """
            import tensorflow as tf

            saver = tf.train.Saver()
            step = tf.compat.v1.train.get_or_create_global_step()
            v1 = tf.compat.v1
        """
        after = """
            import tensorflow.compat.v1 as tf

            saver = tf.train.Saver()
            step = tf.train.get_or_create_global_step()
            v1 = tf
        """
        self.assertCodemod(before, after)

    def test_mixed_tf1_and_tf2_file_goes_through_compat_v1_per_use(self) -> None:
        before = """
            import tensorflow as tf

            def resize(images):
                images = tf.image.resize(images, (8, 8), antialias=True)
                return tf.image.resize_bilinear(images, (4, 4))
        """
        after = """
            import tensorflow as tf

            def resize(images):
                images = tf.image.resize(images, (8, 8), antialias=True)
                return tf.compat.v1.image.resize_bilinear(images, (4, 4))
        """
        self.assertCodemod(before, after)

    def test_main_block_gets_graph_mode(self) -> None:
        before = """
            \"\"\"Trains.\"\"\"
            import tensorflow as tf


            def main(_):
                tf.train.Saver()


            if __name__ == '__main__':
                main(None)
        """
        after = """
            \"\"\"Trains.\"\"\"
            import tensorflow.compat.v1 as tf


            def main(_):
                tf.train.Saver()


            if __name__ == '__main__':
                tf.disable_v2_behavior()
                main(None)
        """
        self.assertCodemod(before, after)

    def test_one_line_main_block_stays_one_line(self) -> None:
        before = """
            import tensorflow as tf
            def main():
                return tf.Session()
            if __name__ == "__main__": main()
        """
        after = """
            import tensorflow.compat.v1 as tf
            def main():
                return tf.Session()
            if __name__ == "__main__": tf.disable_v2_behavior(); main()
        """
        self.assertCodemod(before, after)

    def test_script_building_its_graph_at_module_level(self) -> None:
        before = """
            import numpy as np
            import tensorflow as tf
            import time

            x = tf.placeholder(tf.float32, [None, 2])
            with tf.Session() as sess:
                print(sess.run(x, {x: np.zeros((1, 2))}))
        """
        after = """
            import numpy as np
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()
            import time

            x = tf.placeholder(tf.float32, [None, 2])
            with tf.Session() as sess:
                print(sess.run(x, {x: np.zeros((1, 2))}))
        """
        self.assertCodemod(before, after)

    def test_main_block_of_a_file_with_only_from_imports(self) -> None:
        before = """
            from tensorflow import placeholder, float32

            def main():
                return placeholder(float32)

            if __name__ == '__main__':
                main()
        """
        after = """
            from tensorflow.compat.v1 import placeholder, float32

            def main():
                return placeholder(float32)

            if __name__ == '__main__':
                import tensorflow.compat.v1 as tf
                tf.disable_v2_behavior()
                main()
        """
        self.assertCodemod(before, after)

    def test_absl_run_with_tf1_flag_parsing_is_a_tf1_entry_point(self) -> None:
        before = """
            from absl import app, flags
            import tensorflow as tf

            def main(argv):
                return tf.zeros([1])

            if __name__ == '__main__':
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """
        after = """
            from absl import app, flags
            import tensorflow.compat.v1 as tf

            def main(argv):
                return tf.zeros([1])

            if __name__ == '__main__':
                tf.disable_v2_behavior()
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """
        self.assertCodemod(before, after)

    def test_a_test_module_gets_graph_mode_when_imported(self) -> None:
        # pytest imports the module and never runs its __main__ block: TF1's graph mode
        # must be on before its tests run, however it is started.
        before = """
            import tensorflow as tf


            class BoxTest(tf.test.TestCase):

                def test_area(self):
                    with self.test_session() as sess:
                        sess.run(tf.constant(1.0))


            if __name__ == '__main__':
                tf.test.main()
        """
        after = """
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()


            class BoxTest(tf.test.TestCase):

                def test_area(self):
                    with self.test_session() as sess:
                        sess.run(tf.constant(1.0))


            if __name__ == '__main__':
                tf.test.main()
        """
        self.assertCodemod(before, after)

    def test_a_test_base_module_on_a_tf1_name_gets_graph_mode(self) -> None:
        before = """
            import tensorflow as tf
            from object_detection.utils import test_case


            class ExtractorTest(test_case.TestCase):

                def graph(self):
                    return tf.placeholder(tf.float32, [None, 2])
        """
        after = """
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()
            from object_detection.utils import test_case


            class ExtractorTest(test_case.TestCase):

                def graph(self):
                    return tf.placeholder(tf.float32, [None, 2])
        """
        self.assertCodemod(before, after)

    def test_v1_shapes_make_a_tf1_library_with_no_mode_switch(self) -> None:
        # ``Dimension.value``: TF2's shapes hold ints. The library moves to compat.v1;
        # the mode stays its importers' (their entry point or test module sets it).
        before = """
            import tensorflow as tf

            def width(images):
                return images.get_shape()[2].value or tf.shape(images)[2]
        """
        after = """
            import tensorflow.compat.v1 as tf

            def width(images):
                return images.get_shape()[2].value or tf.shape(images)[2]
        """
        self.assertCodemod(before, after)

    def test_a_dimension_of_a_shape_named_so(self) -> None:
        # object detection's utils/static_shape.py: its tests fail on int dimensions.
        before = ("import tensorflow as tf\n\ndef get_batch_size(tensor_shape):\n"
                  "    tensor_shape.assert_has_rank(rank=4)\n    return tensor_shape[0].value\n")
        after = before.replace("import tensorflow as tf", "import tensorflow.compat.v1 as tf")
        self.assertCodemod(before, after)

    def test_shape_attribute_value(self) -> None:
        before = "import tensorflow as tf\nrows = tf.zeros([2, 3]).shape[0].value\n"
        after = "import tensorflow.compat.v1 as tf\nrows = tf.zeros([2, 3]).shape[0].value\n"
        self.assertCodemod(before, after)

    def test_crlf_and_nested_import(self) -> None:
        before = "def f():\r\n    import tensorflow as tf\r\n    return tf.train.Saver\r\n"
        after = "def f():\r\n    import tensorflow.compat.v1 as tf\r\n    return tf.train.Saver\r\n"
        code, _ = run(before)
        assert code == after
        assert run(after)[0] == after


NOOP = [
    # TF2 code: nothing TF1-only, or something TF2-only.
    "import tensorflow as tf\nx = tf.constant([1.0])\ny = tf.nn.relu(x)\n",
    "import tensorflow as tf\n\ndef resize(x):\n"
    "    return tf.image.resize(x, (2, 2), antialias=True)\n",
    "import tensorflow as tf\n\n@tf.function\ndef f(x):\n"
    "    return tf.reduce_sum(x, axis=1, keepdims=True)\n",
    "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n",
    # TF2 code that reaches TF1 API explicitly is already ported.
    "import tensorflow as tf\ntf.compat.v1.disable_eager_execution()\n"
    "x = tf.compat.v1.placeholder(tf.float32)\n",
    ("import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nfrom absl import app\n"
     "app.run(lambda argv: tf.train.Saver())\n"),
    # A library module that runs app.run inside a function is no entry point, and a
    # TF2 library stays TF2 (TensorFlow's own platform/app.py has this shape).
    "import tensorflow as tf\nfrom absl import app\n\ndef run(main, argv=None):\n"
    "    app.run(main, argv)\n",
    # Libraries whose names start with "tensorflow" or "tf" but are not TensorFlow.
    "import tensorflow_datasets as tfds\nds = tfds.load('mnist')\n",
    "import tfx as tf\ntf.dsl.Pipeline()\n",
    "tf = load_plugin('tf')\ntf.train.Saver()\n",
    # A local variable, a parameter or a loop variable named tf is not TensorFlow.
    "import tensorflow as tf\n\ndef f(tf):\n    return tf.placeholder()\n",
    "import tensorflow as tf\n\ndef f():\n    tf = {}\n    return tf.train.Saver()\n",
    "import tensorflow as tf\n\ndef f(items):\n    return [tf.Session() for tf in items]\n",
    "import tensorflow as tf\nf = lambda tf: tf.placeholder\n",
    # A script that calls app.run but has no TensorFlow at all.
    "from absl import app\napp.run(lambda argv: None)\n",
    # TensorFlow's own modules are not the public API: no report, no edit.
    "from tensorflow.python.ops import array_ops\narray_ops.stack([])\n",
    "import tensorflow.python.ops.array_ops\ntensorflow.compat.v1.train.Saver()\n",
    "import tensorflow as tf\nfrom tensorflow.core.protobuf import saver_pb2\n"
    "version = saver_pb2.SaverDef.V1\nname = tf.__name__\n",
    # Shapes met in the installed tf_slim and keras packages (do-no-harm runs):
    # already-ported tests that reach TF through compat.v1 or its own packages keep
    # their mode; TF2 names under tf.experimental are TF2's.
    "import tensorflow.compat.v1 as tf\nimport tf_slim\n\n\nclass T(tf.test.TestCase):\n"
    "    def test(self):\n        tf.placeholder(tf.float32)\n\n\n"
    "if __name__ == '__main__':\n    tf.test.main()\n",
    "import tf_slim\nfrom tensorflow.python.client import session\nfrom tensorflow.python.platform "
    "import test\n\nif __name__ == '__main__':\n    test.main()\n",
    "import tensorflow as tf\n\ndef f(i):\n    if isinstance(i, tf.experimental.Optional):\n"
    "        return tf.distribute.DistributedIterator\n",
    # TF2 tests: eager tests of a TestCase, cached_session (TF2's own idiom), a
    # TestCase in a module without TensorFlow, ``.value`` that is no shape entry.
    "import tensorflow as tf\n\n\nclass T(tf.test.TestCase):\n\n    def test(self):\n"
    "        self.assertAllEqual(self.evaluate(tf.constant(1)), 1)\n",
    "import tensorflow as tf\n\n\nclass T(tf.test.TestCase):\n\n    def test(self):\n"
    "        with self.cached_session():\n            self.evaluate(tf.ones([1]))\n",
    "import unittest\n\n\nclass T(unittest.TestCase):\n\n    def test(self):\n"
    "        with self.test_session() as sess:\n            sess.run(1)\n",
    "import tensorflow as tf\nx = tf.constant(1)\nv = counts[0].value\ny = x.shape.rank\n",
    # TensorFlow's test_util defines test_session and calls it: TF2 code.
    "import tensorflow as tf\n\n\nclass TensorFlowTestCase(tf.test.TestCase):\n\n"
    "    def test_session(self):\n        return self.session()\n\n"
    "    def cached(self):\n        return self.test_session()\n",
    # A name's dimension where the module asks whether it has one (tf_keras' backend).
    "import tensorflow as tf\n\ndef unknown(shape, i):\n"
    "    return hasattr(shape[i], 'value') and shape[i].value is None\n",
    "import tensorflow as tf\nx = tf.Variable(1)\nv = x.value()\n",
    # A TF1 test module already on compat.v1 keeps its own mode.
    "import tensorflow.compat.v1 as tf\n\n\nclass T(tf.test.TestCase):\n\n    def test(self):\n"
    "        with self.test_session() as sess:\n            sess.run(tf.constant(1))\n",
    # TF1 eager code sets its own mode: it gets no graph mode on top.
    "import tensorflow.compat.v1 as tf\ntf.enable_eager_execution()\n"
    "if __name__ == '__main__':\n    print(tf.constant(1))\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_a_tf1_library_never_switches_its_importers_to_graph_mode() -> None:
    source = textwrap.dedent('''\
        import tensorflow as tf
        from absl import app

        def run(main, argv=None):
            app.run(main, argv, flags_parser=lambda argv: argv)

        def build():
            return tf.placeholder(tf.float32)
    ''')
    code, _ = run(source)
    assert "import tensorflow.compat.v1 as tf" in code
    assert "disable_v2_behavior" not in code


def test_missing_names_are_reported_with_lines() -> None:
    _, findings = run('''\
        import tensorflow as tf

        saver = tf.train.Saver()
        est = tf.estimator.Estimator(model_fn)
        x = tf.contrib.slim.nets.resnet_v1
        y = tf.train.NoSuchThing().restore()
        # contrib_symbols (which runs first) reports this one; not reported twice.
        z = tf.contrib.layers.embed_sequence(ids)
    ''')
    attention = [(f.line, f.message.split(":")[0]) for f in findings if f.kind == "attention"]
    # tf.compat.v1.estimator is tensorflow-estimator 2.15's TF1 API, revived by slim_ext.
    assert attention == [
        (5, "tf.contrib.slim.nets.resnet_v1"),
        (6, "tf.train.NoSuchThing"),
    ]
    fixes = {f.line: f.fix for f in findings if f.kind == "attention"}
    assert "tf.contrib" in fixes[5]


def test_estimator_in_a_tf1_file_goes_through_compat_v1() -> None:
    code, findings = run('''\
        import tensorflow as tf

        def model_fn(features, labels, mode, params):
            x = tf.placeholder(tf.float32)
            return tf.estimator.EstimatorSpec(mode, loss=tf.losses.mean_squared_error(x, x))

        est = tf.estimator.DNNClassifier([10], input_layer_partitioner=None)
    ''')
    assert "import tensorflow.compat.v1 as tf\n" in code
    assert "tf.estimator.EstimatorSpec" in code and "tf.estimator.DNNClassifier" in code
    assert [f for f in findings if f.kind == "attention"] == []


def test_tf2_files_get_no_findings_even_for_names_gone_in_2_21() -> None:
    assert run("import tensorflow as tf\nest = tf.estimator.Estimator(fn)\n")[1] == []


def test_mixed_file_entry_point_is_reported_not_switched() -> None:
    code, findings = run('''\
        import tensorflow as tf

        def main():
            x = tf.placeholder(tf.float32)
            return tf.image.resize(x, (2, 2), antialias=True)

        if __name__ == '__main__':
            main()
    ''')
    assert "disable_v2_behavior()" not in code
    assert [(f.line, f.kind) for f in findings if "entry point" in f.message] == [
        (7, "attention")]


def test_from_tensorflow_import_of_a_removed_name_is_reported_and_kept() -> None:
    code, findings = run("import tensorflow as tf\nfrom tensorflow import contrib\n"
                         "x = tf.placeholder(tf.float32)\n")
    assert "from tensorflow import contrib\n" in code
    assert [(f.line, f.kind) for f in findings if "contrib" in f.message] == [
        (2, "attention")]


@pytest.mark.parametrize("relative, missing", [
    ("train.Saver", None),
    ("train.Saver.restore", None),  # class members are not listed: not judged
    ("logging.info", None),
    ("FixedLenFeature", None),
    ("keras.layers.Dense", None),  # keras is listed by name only
    ("compat.v2.function", None),
    ("contrib.layers.conv2d", "contrib"),
    ("train.NoSuchThing", "train.NoSuchThing"),
    ("estimator.Estimator", None),  # tensorflow-estimator 2.15's, revived by slim_ext
    ("estimator.inputs.numpy_input_fn", None),
    ("estimator.experimental.RNNClassifier", "estimator.experimental.RNNClassifier"),
])
def test_missing_from_v1(relative: str, missing: str) -> None:
    assert tf_api().missing_from_v1(relative) == missing


@pytest.mark.parametrize("relative, signal", [
    ("placeholder", TF1), ("train.Saver", TF1), ("layers.dense", TF1), ("app.run", TF1),
    ("contrib.layers.conv2d", TF1), ("nn.relu", None), ("keras.layers.Dense", None),
    ("train.Checkpoint", None), ("autodiff.ForwardAccumulator", TF2), ("estimator", None),
    ("estimator.Estimator", None), ("estimator.inputs.numpy_input_fn", TF1),
    ("estimator.tpu.TPUEstimator", TF1), ("estimator.experimental.RNNClassifier", TF2),
])
def test_name_signal(relative: str, signal: str) -> None:
    assert name_signal(tf_api(), relative) == signal


@pytest.mark.parametrize("relative, keywords, positional, signal", [
    ("reduce_sum", ["keep_dims"], [None], TF1),
    ("reduce_sum", ["keepdims"], [None], None),
    ("image.resize", ["antialias"], [None, None], TF2),
    ("nn.dropout", [], ["x", "keep_prob"], TF1),
    ("nn.dropout", [], ["x", "rate"], None),
    ("nn.dropout", [], ["x", None], None),
    ("nn.relu", ["name"], [None], None),
    # TF1's name_scope(name, default_name, values): more than TF2's one positional.
    ("name_scope", [], ["scope", None, "values"], TF1),
    ("name_scope", [], ["scope"], None),
])
def test_call_signal(relative, keywords, positional, signal) -> None:  # type: ignore[no-untyped-def]
    assert call_signal(tf_api(), relative, keywords, positional) == signal


@pytest.mark.parametrize("qualified, head, expected", [
    ("tensorflow.train.Saver", "tensorflow", ("tensorflow", "train.Saver")),
    ("tensorflow.compat.v1.train.Saver", "tensorflow.compat.v1",
     ("tensorflow.compat.v1", "train.Saver")),
    ("tensorflow.logging.info", "tensorflow.logging", ("tensorflow", "logging.info")),
    ("tensorflow.core.protobuf.saver_pb2.SaverDef", "tensorflow.core.protobuf.saver_pb2", None),
    ("tensorflow.__version__", "tensorflow", None),
    ("tensorflow.compat.v1.X", "tensorflow", None),
    ("numpy.zeros", "numpy", None),
])
def test_api_use(qualified, head, expected) -> None:  # type: ignore[no-untyped-def]
    assert api_use(qualified, head) == expected


@pytest.mark.parametrize("source, expected", [
    # The file is TF1 (tf.train.Saver): compat_v1 shortens the detour contrib_symbols wrote.
    ("import tensorflow as tf\nsaver = tf.train.Saver()\n"
     "step = tf.contrib.framework.get_global_step()\n",
     "import tensorflow.compat.v1 as tf\nsaver = tf.train.Saver()\n"
     "step = tf.train.get_global_step()\n"),
    # Nothing else is TF1: the explicit tf.compat.v1 use already runs on TF2.
    ("import tensorflow as tf\nstep = tf.contrib.framework.get_global_step()\n",
     "import tensorflow as tf\nstep = tf.compat.v1.train.get_global_step()\n"),
])
def test_after_contrib_symbols(source: str, expected: str) -> None:
    from slimport.codemods.contrib_symbols import ContribSymbolsCommand

    tree = cst.parse_module(source)
    for command in (ContribSymbolsCommand, CompatV1Command):
        tree = command(CodemodContext()).transform_module(tree)
    assert tree.code == expected


# -- modules built on TF1 neighbours ------------------------------------------------

NEIGHBOURS = {
    "pkg/__init__.py": "",
    "pkg/core.py": "import tensorflow as tf\n\ndef scores(x):\n"
                   "    return tf.placeholder_with_default(x, [None])\n",
    "pkg/plain.py": "import tensorflow as tf\n\ndef relu(x):\n    return tf.nn.relu(x)\n",
    "other/__init__.py": "",
    "other/legacy.py": "import tensorflow as tf\nSESSION = tf.Session\n",
}


def _port_file(tmp_path, relative: str, source: str) -> str:
    from slimport import engine  # pylint: disable=import-outside-toplevel
    from slimport.codemods import CODEMODS  # pylint: disable=import-outside-toplevel
    for name, text in {**NEIGHBOURS, relative: source}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    ported = engine.port_source(source.encode(), str(tmp_path / relative), CODEMODS, {})
    assert ported.error is None
    return ported.data.decode()


@pytest.mark.parametrize("relative, source, expected", [
    # A library that hands TF objects to a TF1 module of its package: TF1 code (no switch).
    ("pkg/builder.py",
     "import tensorflow as tf\nfrom pkg import core\n\ndef build():\n"
     "    return core.scores, tf.nn.softmax\n",
     "import tensorflow.compat.v1 as tf\nfrom pkg import core\n\ndef build():\n"
     "    return core.scores, tf.nn.softmax\n"),
    # Relative imports count too; a test module of such a package is switched when imported.
    ("pkg/builder_test.py",
     "import tensorflow as tf\nfrom . import core\n\n\nclass T(tf.test.TestCase):\n"
     "    def test(self):\n        self.assertEqual(tf.image.ResizeMethod.BICUBIC, 2)\n",
     "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nfrom . import core\n\n\n"
     "class T(tf.test.TestCase):\n"
     "    def test(self):\n        self.assertEqual(tf.image.ResizeMethod.BICUBIC, 2)\n"),
    # A script outside any package, beside the TF1 package it imports.
    ("run.py", "import tensorflow as tf\nimport pkg.core\nprint(tf.nn.relu)\n",
     "import tensorflow.compat.v1 as tf\nimport pkg.core\nprint(tf.nn.relu)\n"),
    # Its Python 2 leftovers are ported too (a Keras extractor returning a dict's values).
    ("pkg/extractor.py",
     "import tensorflow as tf\nfrom pkg import core\n\ndef extract(maps):\n"
     "    return maps.values()\n",
     "import tensorflow.compat.v1 as tf\nfrom pkg import core\n\ndef extract(maps):\n"
     "    return list(maps.values())\n"),
])
def test_a_module_built_on_tf1_neighbours_is_tf1_code(tmp_path, relative, source,
                                                     expected) -> None:
    assert _port_file(tmp_path, relative, source) == expected


@pytest.mark.parametrize("relative, source", [
    # Its neighbour is TF2-valid too; another package's TF1 module is not its tree.
    ("pkg/builder.py", "import tensorflow as tf\nfrom pkg import plain\nx = tf.nn.softmax\n"),
    ("pkg/builder.py", "import tensorflow as tf\nfrom other import legacy\nx = tf.nn.softmax\n"),
    # A TF2 name decides for itself; a module without TensorFlow stays plain Python.
    ("pkg/builder.py", "import tensorflow as tf\nfrom pkg import core\n"
                       "y = tf.image.resize(x, (2, 2), antialias=True)\n"),
])
def test_neighbours_of_other_kinds_decide_nothing(tmp_path, relative, source) -> None:
    assert _port_file(tmp_path, relative, source) == source
