"""slim_ext_import: files importing tf_slim (or using tf.layers) import slim_ext."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.slim_ext_import import SlimExtImportCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, SlimExtImportCommand)


class TestSlimExtImport(IdempotentCodemodTest):
    TRANSFORM = SlimExtImportCommand

    def test_after_the_first_tf_slim_import(self) -> None:
        before = """
            import tensorflow.compat.v1 as tf
            import tf_slim as slim
            from tf_slim.nets import vgg

            net = slim.batch_norm(x)
        """
        after = """
            import tensorflow.compat.v1 as tf
            import tf_slim as slim
            import slim_ext
            from tf_slim.nets import vgg

            net = slim.batch_norm(x)
        """
        self.assertCodemod(before, after)

    def test_after_a_try_that_imports_tf_slim(self) -> None:
        # Inside the try, a missing slim_ext would be taken for a missing tf_slim.
        before = """
            try:
                import tf_slim as slim
            except ImportError:
                slim = None
            HAS_SLIM = slim is not None
        """
        after = """
            try:
                import tf_slim as slim
            except ImportError:
                slim = None
            import slim_ext
            HAS_SLIM = slim is not None
        """
        self.assertCodemod(before, after)

    def test_an_import_chosen_by_version(self) -> None:
        before = """
            import sys
            if sys.version_info < (3,):
                raise SystemExit('Python 3 only')
            elif USE_SLIM:
                from tf_slim import nets
            else:
                nets = None
        """
        after = """
            import sys
            if sys.version_info < (3,):
                raise SystemExit('Python 3 only')
            elif USE_SLIM:
                from tf_slim import nets
                import slim_ext
            else:
                nets = None
        """
        self.assertCodemod(before, after)

    def test_a_late_import_gets_it_where_it_is(self) -> None:
        before = """
            import os
            import tensorflow.compat.v1 as tf

            flags = tf.app.flags
            from tf_slim import arg_scope
        """
        after = """
            import os
            import tensorflow.compat.v1 as tf

            flags = tf.app.flags
            from tf_slim import arg_scope
            import slim_ext
        """
        self.assertCodemod(before, after)

    def test_each_function_that_imports_tf_slim_itself(self) -> None:
        before = """
            def build(x):
                import tf_slim as slim
                return slim.conv2d(x, 8, 3)


            def restore():
                from tf_slim import assign_from_checkpoint_fn
                return assign_from_checkpoint_fn
        """
        after = """
            def build(x):
                import tf_slim as slim
                import slim_ext
                return slim.conv2d(x, 8, 3)


            def restore():
                from tf_slim import assign_from_checkpoint_fn
                import slim_ext
                return assign_from_checkpoint_fn
        """
        self.assertCodemod(before, after)

    def test_tf1_layers_and_rnn_cells(self) -> None:
        before = """
            import numpy as np
            import tensorflow as tf

            def model(x):
                cell = tf.nn.rnn_cell.LSTMCell(64)
                return tf.layers.dense(x, 10)
        """
        after = """
            import numpy as np
            import tensorflow as tf
            import slim_ext

            def model(x):
                cell = tf.nn.rnn_cell.LSTMCell(64)
                return tf.layers.dense(x, 10)
        """
        self.assertCodemod(before, after)

    def test_layers_imported_from_compat_v1(self) -> None:
        before = """
            from tensorflow.compat.v1 import layers
            net = layers.conv2d(x, 8, 3)
        """
        after = """
            from tensorflow.compat.v1 import layers
            import slim_ext
            net = layers.conv2d(x, 8, 3)
        """
        self.assertCodemod(before, after)

    def test_estimator_code_gets_the_estimator_runtime(self) -> None:
        # The same shims, named for the Estimator: no TF1 evidence for codemods that
        # port only TF1 code, in a TF2 file.
        before = """
            import numpy as np
            import tensorflow as tf

            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=loss)
        """
        after = """
            import numpy as np
            import tensorflow as tf
            import slim_ext.estimator

            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=loss)
        """
        self.assertCodemod(before, after)

    def test_model_to_estimator_through_compat_v1(self) -> None:
        before = """
            import tensorflow.compat.v1 as tf
            est = tf.keras.estimator.model_to_estimator(model)
        """
        after = """
            import tensorflow.compat.v1 as tf
            import slim_ext.estimator
            est = tf.keras.estimator.model_to_estimator(model)
        """
        self.assertCodemod(before, after)

    def test_before_tensorflow_estimator_imported_first(self) -> None:
        # tensorflow_estimator 2.15 does not import on TF 2.16+ without the shims.
        before = """
            # Estimators.
            from tensorflow_estimator.python.estimator.canned import dnn
            import tensorflow as tf
            from slim_ext.estimator import train_and_evaluate
        """
        after = """
            # Estimators.
            import slim_ext.estimator
            from tensorflow_estimator.python.estimator.canned import dnn
            import tensorflow as tf
            from slim_ext.estimator import train_and_evaluate
        """
        self.assertCodemod(before, after)

    def test_estimator_and_tf1_layers_get_slim_ext(self) -> None:
        before = """
            import tensorflow as tf
            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=tf.layers.dense(features, 1))
        """
        after = """
            import tensorflow as tf
            import slim_ext
            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=tf.layers.dense(features, 1))
        """
        self.assertCodemod(before, after)


NOOP = [
    # Already imported, before tf_slim or anywhere at module level for functions.
    "import slim_ext\nimport tf_slim as slim\n",
    "from slim_ext import uflag\nimport tf_slim as slim\n",
    "import slim_ext.contrib\nfrom tf_slim import nets\n",
    "import tf_slim\nimport slim_ext\nx = 1\n",
    "import slim_ext\ndef f():\n    import tf_slim\n    return tf_slim\n",
    # TF2 code and Keras layers: no TF1 layers, no tf_slim.
    "import tensorflow as tf\nmodel = tf.keras.layers.Dense(3)\n",
    "import tensorflow as tf\nx = tf.image.resize(img, [8, 8], antialias=True)\n",
    # Names that only look like it.
    "import tf_slim_utils\nfrom my_tf_slim import layers\n",
    "# uses tf_slim later\ntext = 'import tf_slim'\n",
    "import tensorflow as tf\nlayers = [1, 2]\nprint(layers)\n",
    "import tensorflow as tf\ndef f(tf):\n    return tf.layers.dense(x, 3)\n",
    "import keras\nx = keras.layers.Dense(3)\n",
    # Estimator code that has the shims already; a library's own lazy import (tf_keras'
    # model_to_estimator module); an estimator that is not TensorFlow's.
    "import slim_ext.legacy_keras\nimport tensorflow as tf\nest = tf.estimator.Estimator(f)\n",
    "import tensorflow as tf\ndef f():\n    from tensorflow_estimator.python.estimator import "
    "keras_lib\n    return keras_lib\n",
    "import sklearn\nestimator = sklearn.base.clone(estimator)\n",
    "import tensorflow as tf\ndef f(tf):\n    return tf.estimator.Estimator(fn)\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_the_edit_names_the_import_it_follows() -> None:
    _, findings = run("import os\n\nimport tf_slim as slim\n")
    assert [(f.line, f.message) for f in findings] == [
        (3, "import slim_ext after import tf_slim as slim")]
