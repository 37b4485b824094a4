"""compat_v1: TF1 files run on tensorflow.compat.v1; TF2 files are left exactly as they are."""
from tests.slimport.codemods.cases import Edit, Noop, attention, edit

CASES = [
    Edit(
        "main block gets graph mode",
        before="""
            \"\"\"Trains.\"\"\"
            import tensorflow as tf


            def main(_):
                tf.train.Saver()


            if __name__ == '__main__':
                main(None)
        """,
        after="""
            \"\"\"Trains.\"\"\"
            import tensorflow.compat.v1 as tf


            def main(_):
                tf.train.Saver()


            if __name__ == '__main__':
                tf.disable_v2_behavior()
                main(None)
        """,
    ),
    Edit(
        "tf1 file moves to compat.v1",
        before="""
            import tensorflow as tf  # the TF1 API

            tf.logging.set_verbosity(tf.logging.INFO)
            features = {'image': tf.FixedLenFeature((), tf.string)}
            saver = tf.train.Saver()
        """,
        after="""
            import tensorflow.compat.v1 as tf  # the TF1 API

            tf.logging.set_verbosity(tf.logging.INFO)
            features = {'image': tf.FixedLenFeature((), tf.string)}
            saver = tf.train.Saver()
        """,
    ),
    Edit(
        "a tf1 keyword makes a tf1 file",
        before="""
            import tensorflow as tf
            total = tf.reduce_sum(x, axis=1, keep_dims=True)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            total = tf.reduce_sum(x, axis=1, keep_dims=True)
        """,
    ),
    Edit(
        "a positional argument named for tf1 makes a tf1 file",
        before="""
            import tensorflow as tf
            def net(x, keep_prob):
                return tf.nn.dropout(x, keep_prob)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            def net(x, keep_prob):
                return tf.nn.dropout(x, keep_prob)
        """,
    ),
    Edit(
        "tf_slim makes a tf1 file",
        before="""
            import tensorflow as tf
            import tf_slim as slim
            net = slim.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            import tf_slim as slim
            net = slim.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3)
        """,
    ),
    Edit(
        "from tensorflow import",
        before="""
            from tensorflow import logging, gfile

            logging.info(gfile.Exists('/tmp'))
        """,
        after="""
            from tensorflow.compat.v1 import logging, gfile

            logging.info(gfile.Exists('/tmp'))
        """,
    ),
    Edit(
        "from tensorflow import keeps keras on its own line",
        before="""
            import tensorflow as tf
            from tensorflow import keras, logging
            saver = tf.train.Saver()
        """,
        after="""
            import tensorflow.compat.v1 as tf
            from tensorflow import keras
            from tensorflow.compat.v1 import logging
            saver = tf.train.Saver()
        """,
    ),
    Edit(
        "plain import tensorflow keeps the package",
        before="""
            import tensorflow
            from tensorflow.python.framework import ops

            saver = tensorflow.train.Saver()
            step = tensorflow.compat.v1.train.get_global_step()
            graph = ops.get_default_graph()
            model = tensorflow.keras.Sequential()
        """,
        after="""
            import tensorflow
            from tensorflow.python.framework import ops

            saver = tensorflow.compat.v1.train.Saver()
            step = tensorflow.compat.v1.train.get_global_step()
            graph = ops.get_default_graph()
            model = tensorflow.keras.Sequential()
        """,
    ),
    Edit(
        "tf.compat.v1 prefix collapses",
        before="""
            import tensorflow as tf

            saver = tf.train.Saver()
            step = tf.compat.v1.train.get_or_create_global_step()
            v1 = tf.compat.v1
        """,
        after="""
            import tensorflow.compat.v1 as tf

            saver = tf.train.Saver()
            step = tf.train.get_or_create_global_step()
            v1 = tf
        """,
    ),
    Edit(
        "mixed tf1 and tf2 file goes through compat.v1 per use",
        before="""
            import tensorflow as tf

            def resize(images):
                images = tf.image.resize(images, (8, 8), antialias=True)
                return tf.image.resize_bilinear(images, (4, 4))
        """,
        after="""
            import tensorflow as tf

            def resize(images):
                images = tf.image.resize(images, (8, 8), antialias=True)
                return tf.compat.v1.image.resize_bilinear(images, (4, 4))
        """,
    ),
    Edit(
        "one line main block stays one line",
        before="""
            import tensorflow as tf
            def main():
                return tf.Session()
            if __name__ == "__main__": main()
        """,
        after="""
            import tensorflow.compat.v1 as tf
            def main():
                return tf.Session()
            if __name__ == "__main__": tf.disable_v2_behavior(); main()
        """,
    ),
    Edit(
        "script building its graph at module level",
        before="""
            import numpy as np
            import tensorflow as tf
            import time

            x = tf.placeholder(tf.float32, [None, 2])
            with tf.Session() as sess:
                print(sess.run(x, {x: np.zeros((1, 2))}))
        """,
        after="""
            import numpy as np
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()
            import time

            x = tf.placeholder(tf.float32, [None, 2])
            with tf.Session() as sess:
                print(sess.run(x, {x: np.zeros((1, 2))}))
        """,
    ),
    Edit(
        "main block of a file with only from imports",
        before="""
            from tensorflow import placeholder, float32

            def main():
                return placeholder(float32)

            if __name__ == '__main__':
                main()
        """,
        after="""
            from tensorflow.compat.v1 import placeholder, float32

            def main():
                return placeholder(float32)

            if __name__ == '__main__':
                import tensorflow.compat.v1 as tf
                tf.disable_v2_behavior()
                main()
        """,
    ),
    Edit(
        "absl run with tf1 flag parsing is a tf1 entry point",
        before="""
            from absl import app, flags
            import tensorflow as tf

            def main(argv):
                return tf.zeros([1])

            if __name__ == '__main__':
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """,
        after="""
            from absl import app, flags
            import tensorflow.compat.v1 as tf

            def main(argv):
                return tf.zeros([1])

            if __name__ == '__main__':
                tf.disable_v2_behavior()
                app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
        """,
    ),
    # pytest imports the module and never runs its __main__ block: TF1's graph mode
    # must be on before its tests run, however it is started.
    Edit(
        "a test module gets graph mode when imported",
        before="""
            import tensorflow as tf


            class BoxTest(tf.test.TestCase):

                def test_area(self):
                    with self.test_session() as sess:
                        sess.run(tf.constant(1.0))


            if __name__ == '__main__':
                tf.test.main()
        """,
        after="""
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()


            class BoxTest(tf.test.TestCase):

                def test_area(self):
                    with self.test_session() as sess:
                        sess.run(tf.constant(1.0))


            if __name__ == '__main__':
                tf.test.main()
        """,
        # The switch is reported on the import it follows (issue 42: it had no line).
        findings=[edit(1, "-> import tensorflow.compat.v1 as"),
                  edit(1, "test module: tf.disable_v2_behavior() after TensorFlow")],
    ),
    # research/slim 2022's tests (TF 1.15 code: compat.v1 and tf_slim beside tf.contrib)
    # build into TF 1.x's default graph: on TF 2 they ran eagerly and failed.
    Edit(
        "a test module on compat.v1 that builds in the default graph gets graph mode",
        before="""
            import tensorflow.compat.v1 as tf
            import tf_slim as slim


            class MobilenetTest(tf.test.TestCase):

                def test_ops(self):
                    slim.conv2d(tf.placeholder(tf.float32, (10, 224, 224, 16)), 8, [3, 3])
                    ops = tf.get_default_graph().get_operations()
                    self.assertIn('Conv2D', [op.type for op in ops])

                def test_run(self):
                    with self.test_session() as sess:
                        self.assertEqual(sess.run(tf.constant(1)), 1)


            if __name__ == '__main__':
                tf.test.main()
        """,
        after="""
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()
            import tf_slim as slim


            class MobilenetTest(tf.test.TestCase):

                def test_ops(self):
                    slim.conv2d(tf.placeholder(tf.float32, (10, 224, 224, 16)), 8, [3, 3])
                    ops = tf.get_default_graph().get_operations()
                    self.assertIn('Conv2D', [op.type for op in ops])

                def test_run(self):
                    with self.test_session() as sess:
                        self.assertEqual(sess.run(tf.constant(1)), 1)


            if __name__ == '__main__':
                tf.test.main()
        """,
        findings=[edit(1, "test module: tf.disable_v2_behavior() after TensorFlow")],
    ),
    # TF 1.15's reference variables and v1 control flow were the default in a graph of
    # its own too (research/slim's model_deploy_test reads a variable's device).
    Edit(
        "a test module on compat.v1 in graphs of its own gets graph mode",
        before="""
            import tensorflow.compat.v1 as tf


            class DeployTest(tf.test.TestCase):

                def test_device(self):
                    with tf.Graph().as_default():
                        v = tf.get_variable('v', [1])
                        tf.global_variables_initializer()
                        self.assertDeviceEqual(v.value().device, 'CPU:0')
        """,
        after="""
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()


            class DeployTest(tf.test.TestCase):

                def test_device(self):
                    with tf.Graph().as_default():
                        v = tf.get_variable('v', [1])
                        tf.global_variables_initializer()
                        self.assertDeviceEqual(v.value().device, 'CPU:0')
        """,
    ),
    Edit(
        "a test base module on a tf1 name gets graph mode",
        before="""
            import tensorflow as tf
            from object_detection.utils import test_case


            class ExtractorTest(test_case.TestCase):

                def graph(self):
                    return tf.placeholder(tf.float32, [None, 2])
        """,
        after="""
            import tensorflow.compat.v1 as tf
            tf.disable_v2_behavior()
            from object_detection.utils import test_case


            class ExtractorTest(test_case.TestCase):

                def graph(self):
                    return tf.placeholder(tf.float32, [None, 2])
        """,
    ),
    # ``Dimension.value``: TF2's shapes hold ints. The library moves to compat.v1;
    # the mode stays its importers' (their entry point or test module sets it).
    Edit(
        "v1 shapes make a tf1 library with no mode switch",
        before="""
            import tensorflow as tf

            def width(images):
                return images.get_shape()[2].value or tf.shape(images)[2]
        """,
        after="""
            import tensorflow.compat.v1 as tf

            def width(images):
                return images.get_shape()[2].value or tf.shape(images)[2]
        """,
    ),
    # object detection's utils/static_shape.py: its tests fail on int dimensions.
    Edit(
        "a dimension of a shape named so",
        before="import tensorflow as tf\n\ndef get_batch_size(tensor_shape):\n"
               "    tensor_shape.assert_has_rank(rank=4)\n    return tensor_shape[0].value\n",
        after="import tensorflow.compat.v1 as tf\n\ndef get_batch_size(tensor_shape):\n"
              "    tensor_shape.assert_has_rank(rank=4)\n    return tensor_shape[0].value\n",
    ),
    Edit(
        "shape attribute value",
        before="import tensorflow as tf\nrows = tf.zeros([2, 3]).shape[0].value\n",
        after="import tensorflow.compat.v1 as tf\nrows = tf.zeros([2, 3]).shape[0].value\n",
    ),
    Edit(
        "crlf and a nested import",
        before="def f():\r\n    import tensorflow as tf\r\n    return tf.train.Saver\r\n",
        after="def f():\r\n    import tensorflow.compat.v1 as tf\r\n    return tf.train.Saver\r\n",
    ),
    # TensorFlow's own platform/app.py has this shape: app.run inside a function.
    Edit(
        "a tf1 library never switches its importers to graph mode",
        before="""
            import tensorflow as tf
            from absl import app

            def run(main, argv=None):
                app.run(main, argv, flags_parser=lambda argv: argv)

            def build():
                return tf.placeholder(tf.float32)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            from absl import app

            def run(main, argv=None):
                app.run(main, argv, flags_parser=lambda argv: argv)

            def build():
                return tf.placeholder(tf.float32)
        """,
    ),
    Edit(
        "missing names are reported with lines",
        before="""
            import tensorflow as tf

            saver = tf.train.Saver()
            est = tf.estimator.Estimator(model_fn)
            x = tf.contrib.slim.nets.resnet_v1
            y = tf.train.NoSuchThing().restore()
            # contrib_symbols (which runs first) reports this one; not reported twice.
            z = tf.contrib.layers.embed_sequence(ids)
        """,
        after="""
            import tensorflow.compat.v1 as tf

            saver = tf.train.Saver()
            est = tf.estimator.Estimator(model_fn)
            x = tf.contrib.slim.nets.resnet_v1
            y = tf.train.NoSuchThing().restore()
            # contrib_symbols (which runs first) reports this one; not reported twice.
            z = tf.contrib.layers.embed_sequence(ids)
        """,
        # tf.compat.v1.estimator is tensorflow-estimator 2.15's TF1 API, revived by slim_ext.
        findings=[attention(5, "tf.contrib.slim.nets.resnet_v1:", fix="tf.contrib"),
                  attention(6, "tf.train.NoSuchThing:")],
    ),
    Edit(
        "an estimator in a tf1 file goes through compat.v1",
        before="""
            import tensorflow as tf

            def model_fn(features, labels, mode, params):
                x = tf.placeholder(tf.float32)
                return tf.estimator.EstimatorSpec(mode, loss=tf.losses.mean_squared_error(x, x))

            est = tf.estimator.DNNClassifier([10], input_layer_partitioner=None)
        """,
        after="""
            import tensorflow.compat.v1 as tf

            def model_fn(features, labels, mode, params):
                x = tf.placeholder(tf.float32)
                return tf.estimator.EstimatorSpec(mode, loss=tf.losses.mean_squared_error(x, x))

            est = tf.estimator.DNNClassifier([10], input_layer_partitioner=None)
        """,
    ),
    Edit(
        "the entry point of a mixed file is reported, not switched",
        before="""
            import tensorflow as tf

            def main():
                x = tf.placeholder(tf.float32)
                return tf.image.resize(x, (2, 2), antialias=True)

            if __name__ == '__main__':
                main()
        """,
        after="""
            import tensorflow as tf

            def main():
                x = tf.compat.v1.placeholder(tf.float32)
                return tf.image.resize(x, (2, 2), antialias=True)

            if __name__ == '__main__':
                main()
        """,
        findings=[attention(7, "entry point")],
    ),
    Edit(
        "from tensorflow import of a removed name is reported and kept",
        before="import tensorflow as tf\nfrom tensorflow import contrib\n"
               "x = tf.placeholder(tf.float32)\n",
        after="import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"
              "from tensorflow import contrib\nx = tf.placeholder(tf.float32)\n",
        findings=[attention(2, "contrib")],
    ),
    # TF2 code: nothing TF1-only, or something TF2-only.
    Noop("tf2 code with no tf1-only name",
         "import tensorflow as tf\nx = tf.constant([1.0])\ny = tf.nn.relu(x)\n"),
    Noop("tf2's resize with antialias",
         "import tensorflow as tf\n\ndef resize(x):\n"
         "    return tf.image.resize(x, (2, 2), antialias=True)\n"),
    Noop("tf2's keepdims",
         "import tensorflow as tf\n\n@tf.function\ndef f(x):\n"
         "    return tf.reduce_sum(x, axis=1, keepdims=True)\n"),
    Noop("tf2 keras",
         "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n"),
    # TF2 code that reaches TF1 API explicitly is already ported.
    Noop("tf2 code reaching the tf1 api explicitly",
         "import tensorflow as tf\ntf.compat.v1.disable_eager_execution()\n"
         "x = tf.compat.v1.placeholder(tf.float32)\n"),
    Noop("a compat.v1 entry point in graph mode already",
         "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nfrom absl import app\n"
         "app.run(lambda argv: tf.train.Saver())\n"),
    # A library module that runs app.run inside a function is no entry point, and a
    # TF2 library stays TF2 (TensorFlow's own platform/app.py has this shape).
    Noop("a library that runs app.run in a function",
         "import tensorflow as tf\nfrom absl import app\n\ndef run(main, argv=None):\n"
         "    app.run(main, argv)\n"),
    # Libraries whose names start with "tensorflow" or "tf" but are not TensorFlow.
    Noop("tensorflow_datasets",
         "import tensorflow_datasets as tfds\nds = tfds.load('mnist')\n"),
    Noop("tfx as tf",
         "import tfx as tf\ntf.dsl.Pipeline()\n"),
    Noop("a plugin named tf",
         "tf = load_plugin('tf')\ntf.train.Saver()\n"),
    # A local variable, a parameter or a loop variable named tf is not TensorFlow.
    Noop("a parameter named tf",
         "import tensorflow as tf\n\ndef f(tf):\n    return tf.placeholder()\n"),
    Noop("a local tf",
         "import tensorflow as tf\n\ndef f():\n    tf = {}\n    return tf.train.Saver()\n"),
    Noop("a comprehension variable named tf",
         "import tensorflow as tf\n\ndef f(items):\n    return [tf.Session() for tf in items]\n"),
    Noop("a lambda parameter named tf",
         "import tensorflow as tf\nf = lambda tf: tf.placeholder\n"),
    # A script that calls app.run but has no TensorFlow at all.
    Noop("an absl script without tensorflow",
         "from absl import app\napp.run(lambda argv: None)\n"),
    # TensorFlow's own modules are not the public API: no report, no edit.
    Noop("tensorflow's own array_ops",
         "from tensorflow.python.ops import array_ops\narray_ops.stack([])\n"),
    Noop("tensorflow's own module imported whole",
         "import tensorflow.python.ops.array_ops\ntensorflow.compat.v1.train.Saver()\n"),
    Noop("tensorflow's own protos",
         "import tensorflow as tf\nfrom tensorflow.core.protobuf import saver_pb2\n"
         "version = saver_pb2.SaverDef.V1\nname = tf.__name__\n"),
    # Shapes met in the installed tf_slim and keras packages (do-no-harm runs): tf_slim's
    # tests on compat.v1 switch the mode in setUpModule, tests through TensorFlow's own
    # packages keep theirs; TF2 names under tf.experimental are TF2's.
    Noop("a tf_slim test on compat.v1",
         "import tensorflow.compat.v1 as tf\nimport tf_slim\n\n\ndef setUpModule():\n"
         "    tf.disable_eager_execution()\n\n\nclass T(tf.test.TestCase):\n"
         "    def test(self):\n        tf.placeholder(tf.float32)\n\n\n"
         "if __name__ == '__main__':\n    tf.test.main()\n"),
    Noop("a test through tensorflow's own packages",
         "import tf_slim\nfrom tensorflow.python.client import session\n"
         "from tensorflow.python.platform import test\n\nif __name__ == '__main__':\n"
         "    test.main()\n"),
    Noop("tf2 names under tf.experimental",
         "import tensorflow as tf\n\ndef f(i):\n"
         "    if isinstance(i, tf.experimental.Optional):\n"
         "        return tf.distribute.DistributedIterator\n"),
    # TF2 tests: eager tests of a TestCase, cached_session (TF2's own idiom), a
    # TestCase in a module without TensorFlow, ``.value`` that is no shape entry.
    Noop("an eager test of a TestCase",
         "import tensorflow as tf\n\n\nclass T(tf.test.TestCase):\n\n    def test(self):\n"
         "        self.assertAllEqual(self.evaluate(tf.constant(1)), 1)\n"),
    Noop("cached_session",
         "import tensorflow as tf\n\n\nclass T(tf.test.TestCase):\n\n    def test(self):\n"
         "        with self.cached_session():\n            self.evaluate(tf.ones([1]))\n"),
    Noop("a unittest TestCase",
         "import unittest\n\n\nclass T(unittest.TestCase):\n\n    def test(self):\n"
         "        with self.test_session() as sess:\n            sess.run(1)\n"),
    Noop("a value that is no shape entry",
         "import tensorflow as tf\nx = tf.constant(1)\nv = counts[0].value\ny = x.shape.rank\n"),
    # TensorFlow's test_util defines test_session and calls it: TF2 code.
    Noop("tensorflow's test_util",
         "import tensorflow as tf\n\n\nclass TensorFlowTestCase(tf.test.TestCase):\n\n"
         "    def test_session(self):\n        return self.session()\n\n    def cached(self):\n"
         "        return self.test_session()\n"),
    # A name's dimension where the module asks whether it has one (tf_keras' backend).
    Noop("a dimension's value the module asks about",
         "import tensorflow as tf\n\ndef unknown(shape, i):\n"
         "    return hasattr(shape[i], 'value') and shape[i].value is None\n"),
    Noop("a variable's value",
         "import tensorflow as tf\nx = tf.Variable(1)\nv = x.value()\n"),
    # TF 2-era code on compat.v1 picks its mode per test (TensorFlow's test_util), or
    # switches it itself.
    Noop("a test module on compat.v1 that picks its mode per test",
         "import tensorflow.compat.v1 as tf\nfrom tensorflow.python.framework import "
         "test_util\n\n\nclass T(tf.test.TestCase):\n\n    @test_util.run_deprecated_v1\n"
         "    def test(self):\n        with self.test_session() as sess:\n"
         "            sess.run(tf.constant(1))\n"),
    Noop("a test module on compat.v1 that asks which TensorFlow it runs on",
         "import unittest\nimport tensorflow.compat.v1 as tf\nfrom object_detection.utils "
         "import tf_version\n\n\n@unittest.skipIf(tf_version.is_tf2(), 'TF1.X only')\n"
         "class T(tf.test.TestCase):\n\n    def test(self):\n"
         "        tf.placeholder(tf.float32, [2])\n"),
    Noop("a script on compat.v1 that switches the mode itself",
         "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n"
         "x = tf.placeholder(tf.float32)\n"),
    # TF1 eager code sets its own mode: it gets no graph mode on top.
    Noop("tf1 eager code",
         "import tensorflow.compat.v1 as tf\ntf.enable_eager_execution()\n"
         "if __name__ == '__main__':\n    print(tf.constant(1))\n"),
    Noop("tf2 files get no findings even for names gone in 2.21",
         "import tensorflow as tf\nest = tf.estimator.Estimator(fn)\n"),
]
