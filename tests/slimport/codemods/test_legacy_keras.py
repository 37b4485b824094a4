"""legacy_keras: files that need Keras 2 import slim_ext.legacy_keras before TensorFlow."""
from __future__ import annotations

import functools

import pytest

from slimport.tables.keras_api import V1, V2, keras_2_only
from slimport.codemods.legacy_keras import LegacyKerasCommand, tree_needs_keras_2
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, LegacyKerasCommand)


class TestLegacyKeras(IdempotentCodemodTest):
    TRANSFORM = LegacyKerasCommand

    def test_model_to_estimator(self) -> None:
        before = """
            import numpy as np
            import tensorflow as tf

            def make(model, config):
                return tf.keras.estimator.model_to_estimator(model, config=config)
        """
        after = """
            import numpy as np
            import slim_ext.legacy_keras
            import tensorflow as tf

            def make(model, config):
                return tf.keras.estimator.model_to_estimator(model, config=config)
        """
        self.assertCodemod(before, after)

    def test_a_tf1_optimizer_passed_to_compile(self) -> None:
        before = """
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
            model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(0.001), loss='mse')
        """
        after = """
            import slim_ext.legacy_keras
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
            model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(0.001), loss='mse')
        """
        self.assertCodemod(before, after)

    def test_a_tf1_optimizer_passed_through_a_name_and_by_position(self) -> None:
        before = """
            # The model.
            import tensorflow as tf

            def build(lr):
                opt = tf.train.MomentumOptimizer(lr, 0.9)
                model = make_model()
                model.compile(opt, 'sparse_categorical_crossentropy')
                return model
        """
        after = """
            # The model.
            import slim_ext.legacy_keras
            import tensorflow as tf

            def build(lr):
                opt = tf.train.MomentumOptimizer(lr, 0.9)
                model = make_model()
                model.compile(opt, 'sparse_categorical_crossentropy')
                return model
        """
        self.assertCodemod(before, after)

    def test_set_learning_phase_imported_by_name(self) -> None:
        before = """
            from __future__ import print_function
            from tensorflow.keras.backend import set_learning_phase
            set_learning_phase(0)
        """
        after = """
            from __future__ import print_function
            import slim_ext.legacy_keras
            from tensorflow.keras.backend import set_learning_phase
            set_learning_phase(0)
        """
        self.assertCodemod(before, after)

    def test_keras_in_tf1_code(self) -> None:
        # object detection's TF1 feature extractors build tf.keras layers in graph mode.
        before = """
            import tensorflow as tf

            def extract(images):
                x = tf.placeholder(tf.float32, [None, 8])
                return tf.keras.layers.DepthwiseConv2D(3, kernel_regularizer=r)(images)
        """
        after = """
            import slim_ext.legacy_keras
            import tensorflow as tf

            def extract(images):
                x = tf.placeholder(tf.float32, [None, 8])
                return tf.keras.layers.DepthwiseConv2D(3, kernel_regularizer=r)(images)
        """
        self.assertCodemod(before, after)

    def test_keras_in_an_estimator_model_fn(self) -> None:
        before = """
            import tensorflow as tf

            def model_fn(features, labels, mode):
                logits = tf.keras.layers.Dense(10)(features['x'])
                return tf.estimator.EstimatorSpec(mode, loss=loss(logits, labels))
        """
        after = """
            import slim_ext.legacy_keras
            import tensorflow as tf

            def model_fn(features, labels, mode):
                logits = tf.keras.layers.Dense(10)(features['x'])
                return tf.estimator.EstimatorSpec(mode, loss=loss(logits, labels))
        """
        self.assertCodemod(before, after)

    def test_before_the_try_that_imports_tensorflow(self) -> None:
        before = """
            import os
            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                tf = None
            est = tf.keras.estimator.model_to_estimator(m)
        """
        after = """
            import os
            import slim_ext.legacy_keras
            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                tf = None
            est = tf.keras.estimator.model_to_estimator(m)
        """
        self.assertCodemod(before, after)


NOOP = [
    # TF2 Keras code that runs on Keras 3.
    "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(3)])\n"
    "model.compile(optimizer='adam', loss='mse')\n",
    "import tensorflow as tf\nm.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='mse')\n",
    "import tensorflow as tf\ntf.keras.mixed_precision.set_global_policy('mixed_float16')\n",
    "from tensorflow import keras\nmodel = keras.models.load_model(path)\n",
    "import tensorflow as tf\nx = tf.keras.backend.clear_session()\n",
    # A TF1 optimizer that is not compiled into a Keras model; another compile.
    "import tensorflow as tf\ntrain_op = tf.compat.v1.train.AdamOptimizer(0.1).minimize(loss)\n",
    "import re\nimport tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n"
    "pattern = re.compile('a+')\n",
    # Names that are not TensorFlow's Keras: a local tf, standalone keras, tf_keras.
    "import tensorflow as tf\ndef f(tf):\n    return tf.keras.backend.set_learning_phase(1)\n",
    "import keras\nkeras.backend.set_learning_phase(1)\n",
    "import tf_keras\ntf_keras.backend.set_learning_phase(1)\n",
    # TF1 code without Keras; an Estimator without Keras.
    "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n",
    "import tensorflow as tf\nest = tf.estimator.Estimator(model_fn)\n",
    # Ported already.
    "import slim_ext.legacy_keras\nimport tensorflow as tf\n"
    "e = tf.keras.estimator.model_to_estimator(m)\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_the_edit_says_why() -> None:
    _, [finding] = run("import tensorflow as tf\ntf.keras.backend.set_learning_phase(0)\n")
    assert finding.line == 1  # where the import goes
    assert "tf.keras.backend.set_learning_phase, which only Keras 2 has" in finding.message


def test_mixed_precision_experimental_is_reported_not_routed() -> None:
    source = ("import tensorflow as tf\n"
              "tf.keras.mixed_precision.experimental.set_policy('mixed_float16')\n")
    code, [finding] = run(source)
    assert code == source
    assert finding.kind == "attention" and "set_global_policy" in finding.fix


def test_a_function_that_imports_tensorflow_itself_is_left_alone() -> None:
    # Its own import binds tf there (a local name): a use missed, never misread.
    source = "def f():\n    import tensorflow as tf\n    tf.keras.backend.set_learning_phase(0)\n"
    assert run(source) == (source, [])


@pytest.mark.parametrize("relative, api, prefix", [
    ("backend.set_learning_phase", V2, "backend.set_learning_phase"),
    ("estimator.model_to_estimator", V1, "estimator"),
    ("layers.experimental.preprocessing.Normalization", V2, "layers.experimental"),
    # Only TF1's Keras API had it: in TF2 code it failed on Keras 2 too.
    ("backend.get_session", V2, None),
    ("backend.get_session", V1, "backend.get_session"),
    ("layers.Dense", V2, None),
    ("optimizers.Adam", V2, None),
])
def test_keras_2_only_names(relative: str, api: str, prefix: str) -> None:
    assert keras_2_only(relative, api) == prefix


# object detection's Keras box head: TF2-looking code that subclasses tf.keras layers at
# import, in a tree whose TF1 modules need Keras 2 (and run in the same process).
KERAS_HEAD = "import tensorflow as tf\n\nclass Head(tf.keras.layers.Layer):\n    pass\n"
TF1_KERAS = ("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
             "y = tf.keras.layers.Dense(3)(x)\n")


def test_a_tree_that_needs_keras_2_gets_it_in_every_keras_module() -> None:
    code, [finding] = run(KERAS_HEAD, tree_keras_2=True)
    assert code == "import slim_ext.legacy_keras\n" + KERAS_HEAD
    assert "a tree whose other modules need Keras 2" in finding.message
    # Without Keras, or alone, nothing.
    assert run("import tensorflow as tf\nx = tf.nn.relu(y)\n", tree_keras_2=True)[1] == []
    assert run(KERAS_HEAD) == (KERAS_HEAD, [])


@pytest.mark.parametrize("texts, needs", [
    ([KERAS_HEAD, TF1_KERAS], True),
    ([KERAS_HEAD, "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"], False),
    ([KERAS_HEAD, "def broken(:\n"], False),
    (["import tensorflow as tf\nm.compile(optimizer=tf.train.AdamOptimizer(1.0))\n"], True),
])
def test_tree_needs_keras_2(texts, needs) -> None:
    assert tree_needs_keras_2(texts) is needs
