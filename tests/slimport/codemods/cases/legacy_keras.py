"""legacy_keras: files that need Keras 2 import slim_ext.legacy_keras before TensorFlow."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

# Object detection's Keras box head: TF2-looking code that subclasses tf.keras layers at
# import, in a tree whose TF1 modules need Keras 2 (and run in the same process).
KERAS_HEAD = "import tensorflow as tf\n\nclass Head(tf.keras.layers.Layer):\n    pass\n"

CASES = [
    Edit(
        "model_to_estimator",
        before="""
            import numpy as np
            import tensorflow as tf

            def make(model, config):
                return tf.keras.estimator.model_to_estimator(model, config=config)
        """,
        after="""
            import numpy as np
            import slim_ext.legacy_keras
            import tensorflow as tf

            def make(model, config):
                return tf.keras.estimator.model_to_estimator(model, config=config)
        """,
    ),
    Edit(
        "a tf1 optimizer passed to compile",
        before="""
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
            model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(0.001), loss='mse')
        """,
        after="""
            import slim_ext.legacy_keras
            import tensorflow as tf
            model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
            model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(0.001), loss='mse')
        """,
    ),
    # The model.
    # The model.
    Edit(
        "a tf1 optimizer passed through a name and by position",
        before="""
            # The model.
            import tensorflow as tf

            def build(lr):
                opt = tf.train.MomentumOptimizer(lr, 0.9)
                model = make_model()
                model.compile(opt, 'sparse_categorical_crossentropy')
                return model
        """,
        after="""
            # The model.
            import slim_ext.legacy_keras
            import tensorflow as tf

            def build(lr):
                opt = tf.train.MomentumOptimizer(lr, 0.9)
                model = make_model()
                model.compile(opt, 'sparse_categorical_crossentropy')
                return model
        """,
    ),
    Edit(
        "set_learning_phase imported by name",
        before="""
            from __future__ import print_function
            from tensorflow.keras.backend import set_learning_phase
            set_learning_phase(0)
        """,
        after="""
            from __future__ import print_function
            import slim_ext.legacy_keras
            from tensorflow.keras.backend import set_learning_phase
            set_learning_phase(0)
        """,
    ),
    # object detection's TF1 feature extractors build tf.keras layers in graph mode.
    Edit(
        "keras in tf1 code",
        before="""
            import tensorflow as tf

            def extract(images):
                x = tf.placeholder(tf.float32, [None, 8])
                return tf.keras.layers.DepthwiseConv2D(3, kernel_regularizer=r)(images)
        """,
        after="""
            import slim_ext.legacy_keras
            import tensorflow as tf

            def extract(images):
                x = tf.placeholder(tf.float32, [None, 8])
                return tf.keras.layers.DepthwiseConv2D(3, kernel_regularizer=r)(images)
        """,
    ),
    Edit(
        "keras in an estimator model_fn",
        before="""
            import tensorflow as tf

            def model_fn(features, labels, mode):
                logits = tf.keras.layers.Dense(10)(features['x'])
                return tf.estimator.EstimatorSpec(mode, loss=loss(logits, labels))
        """,
        after="""
            import slim_ext.legacy_keras
            import tensorflow as tf

            def model_fn(features, labels, mode):
                logits = tf.keras.layers.Dense(10)(features['x'])
                return tf.estimator.EstimatorSpec(mode, loss=loss(logits, labels))
        """,
    ),
    Edit(
        "before the try that imports tensorflow",
        before="""
            import os
            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                tf = None
            est = tf.keras.estimator.model_to_estimator(m)
        """,
        after="""
            import os
            import slim_ext.legacy_keras
            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                tf = None
            est = tf.keras.estimator.model_to_estimator(m)
        """,
    ),
    Edit(
        "the edit says why",
        before="import tensorflow as tf\ntf.keras.backend.set_learning_phase(0)\n",
        after="import slim_ext.legacy_keras\nimport tensorflow as tf\n"
              "tf.keras.backend.set_learning_phase(0)\n",
        # At the line where the import goes.
        findings=[edit(1, "tf.keras.backend.set_learning_phase, which only Keras 2 has")],
    ),
    Edit(
        "a keras module of a tree that needs keras 2",
        before=KERAS_HEAD,
        after="import slim_ext.legacy_keras\n" + KERAS_HEAD,
        findings=[edit(1, "a tree whose other modules need Keras 2")],
        options={"tree_keras_2": True},
    ),
    Reported(
        "mixed_precision.experimental is reported, not routed",
        "import tensorflow as tf\n"
        "tf.keras.mixed_precision.experimental.set_policy('mixed_float16')\n",
        [attention(2, "in neither Keras 3 nor tf_keras", fix="set_global_policy")],
    ),
    # TF2 Keras code that runs on Keras 3.
    Noop("tf2 keras compiled with a string",
         "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(3)])\n"
         "model.compile(optimizer='adam', loss='mse')\n"),
    Noop("a keras optimizer",
         "import tensorflow as tf\n"
         "m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss='mse')\n"),
    Noop("tf2's mixed precision",
         "import tensorflow as tf\ntf.keras.mixed_precision.set_global_policy('mixed_float16')\n"),
    Noop("keras' load_model",
         "from tensorflow import keras\nmodel = keras.models.load_model(path)\n"),
    Noop("clear_session",
         "import tensorflow as tf\nx = tf.keras.backend.clear_session()\n"),
    # A TF1 optimizer that is not compiled into a Keras model; another compile.
    Noop("a tf1 optimizer not compiled",
         "import tensorflow as tf\n"
         "train_op = tf.compat.v1.train.AdamOptimizer(0.1).minimize(loss)\n"),
    Noop("another compile",
         "import re\nimport tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n"
         "pattern = re.compile('a+')\n"),
    # Names that are not TensorFlow's Keras: a local tf, standalone keras, tf_keras.
    Noop("a parameter named tf",
         "import tensorflow as tf\ndef f(tf):\n"
         "    return tf.keras.backend.set_learning_phase(1)\n"),
    Noop("standalone keras",
         "import keras\nkeras.backend.set_learning_phase(1)\n"),
    Noop("tf_keras",
         "import tf_keras\ntf_keras.backend.set_learning_phase(1)\n"),
    # TF1 code without Keras; an Estimator without Keras.
    Noop("tf1 code without keras",
         "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"),
    Noop("an estimator without keras",
         "import tensorflow as tf\nest = tf.estimator.Estimator(model_fn)\n"),
    # Ported already.
    Noop("ported already",
         "import slim_ext.legacy_keras\nimport tensorflow as tf\n"
         "e = tf.keras.estimator.model_to_estimator(m)\n"),
    # A tree that needs Keras 2: a module without Keras gets nothing; alone, the Keras
    # module gets nothing either.
    Noop("a module without keras of a tree that needs keras 2",
         "import tensorflow as tf\nx = tf.nn.relu(y)\n", options={"tree_keras_2": True}),
    Noop("a keras module on its own",
         KERAS_HEAD),
    # Its own import binds tf there (a local name): a use missed, never misread.
    Noop("a function that imports tensorflow itself",
         "def f():\n    import tensorflow as tf\n    tf.keras.backend.set_learning_phase(0)\n"),
]
