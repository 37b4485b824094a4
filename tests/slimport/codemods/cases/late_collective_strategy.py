"""late_collective_strategy: a MultiWorkerMirroredStrategy created after TensorFlow work in a
TF2 Estimator program is reported (TensorFlow refuses it then): create it first."""
from tests.slimport.codemods.cases import Noop, Reported, attention

_LATE = "is created after TensorFlow work"
_FIRST = "create the strategy first"

CASES = [
    Reported(
        "the keras model built before the strategy",
        # The platform SDK's distributed Keras MNIST example, in short.
        """
            import tensorflow as tf

            def build_model():
                model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
                model.compile('adam', 'mse')
                return model

            def main():
                model = build_model()
                strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
                config = tf.estimator.RunConfig(train_distribute=strategy)
                return tf.keras.estimator.model_to_estimator(model, config=config)
        """,
        [attention(10, f"{_LATE} (line 9: build_model(...))", fix=_FIRST)],
    ),
    Reported(
        "tensorflow work at module level",
        "import tensorflow as tf\n"
        "x = tf.constant(1.0)\n"
        "strategy = tf.distribute.MultiWorkerMirroredStrategy()\n"
        "config = tf.compat.v1.estimator.RunConfig(train_distribute=strategy)\n",
        [attention(3, f"{_LATE} (line 2: tf.constant(...))")],
    ),
    # Created first: the examples/keras_estimator_tf2 order, which runs.
    Noop("the strategy created first",
         """
            import tensorflow as tf

            def main(build_model):
                strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
                config = tf.estimator.RunConfig(train_distribute=strategy)
                model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
                return tf.keras.estimator.model_to_estimator(model, config=config)
         """),
    # Set-up before it is no TensorFlow work.
    Noop("set-up before the strategy",
         "import os\nimport tensorflow as tf\n"
         "tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)\n"
         "tf.config.set_soft_device_placement(True)\n"
         "tf.random.set_seed(1)\n"
         "exists = tf.io.gfile.exists(os.environ['MODEL_DIR'])\n"
         "strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()\n"
         "config = tf.estimator.RunConfig(train_distribute=strategy)\n"),
    # Work that runs later: a function defined, not called, before the strategy.
    Noop("work in a function not yet called",
         "import tensorflow as tf\n"
         "def build():\n    return tf.keras.Sequential()\n"
         "input_fn = lambda: tf.data.Dataset.range(3)\n"
         "strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()\n"
         "config = tf.estimator.RunConfig(train_distribute=strategy)\n"),
    # No Estimator: a Keras or custom-loop program's own business (TF2 code is left alone).
    Noop("no estimator",
         "import tensorflow as tf\nmodel = tf.keras.Sequential()\n"
         "strategy = tf.distribute.MultiWorkerMirroredStrategy()\n"),
    # TF1 code: its entry point runs in graph mode, where the constructor configures nothing.
    Noop("tf1 code",
         "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
         "strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()\n"
         "config = tf.estimator.RunConfig(train_distribute=strategy)\n"),
]
