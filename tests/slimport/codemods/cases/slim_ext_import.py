"""slim_ext_import: files importing tf_slim (or using tf.layers, the Estimator) import slim_ext."""
from tests.slimport.codemods.cases import Edit, Noop, edit

CASES = [
    Edit(
        "after the first tf_slim import",
        before="""
            import tensorflow.compat.v1 as tf
            import tf_slim as slim
            from tf_slim.nets import vgg

            net = slim.batch_norm(x)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            import tf_slim as slim
            import slim_ext
            from tf_slim.nets import vgg

            net = slim.batch_norm(x)
        """,
    ),
    # Inside the try, a missing slim_ext would be taken for a missing tf_slim.
    Edit(
        "after a try that imports tf_slim",
        before="""
            try:
                import tf_slim as slim
            except ImportError:
                slim = None
            HAS_SLIM = slim is not None
        """,
        after="""
            try:
                import tf_slim as slim
            except ImportError:
                slim = None
            import slim_ext
            HAS_SLIM = slim is not None
        """,
    ),
    Edit(
        "an import chosen by version",
        before="""
            import sys
            if sys.version_info < (3,):
                raise SystemExit('Python 3 only')
            elif USE_SLIM:
                from tf_slim import nets
            else:
                nets = None
        """,
        after="""
            import sys
            if sys.version_info < (3,):
                raise SystemExit('Python 3 only')
            elif USE_SLIM:
                from tf_slim import nets
                import slim_ext
            else:
                nets = None
        """,
    ),
    Edit(
        "a late import gets it where it is",
        before="""
            import os
            import tensorflow.compat.v1 as tf

            flags = tf.app.flags
            from tf_slim import arg_scope
        """,
        after="""
            import os
            import tensorflow.compat.v1 as tf

            flags = tf.app.flags
            from tf_slim import arg_scope
            import slim_ext
        """,
    ),
    Edit(
        "each function that imports tf_slim itself",
        before="""
            def build(x):
                import tf_slim as slim
                return slim.conv2d(x, 8, 3)


            def restore():
                from tf_slim import assign_from_checkpoint_fn
                return assign_from_checkpoint_fn
        """,
        after="""
            def build(x):
                import tf_slim as slim
                import slim_ext
                return slim.conv2d(x, 8, 3)


            def restore():
                from tf_slim import assign_from_checkpoint_fn
                import slim_ext
                return assign_from_checkpoint_fn
        """,
    ),
    Edit(
        "tf1 layers and rnn cells",
        before="""
            import numpy as np
            import tensorflow as tf

            def model(x):
                cell = tf.nn.rnn_cell.LSTMCell(64)
                return tf.layers.dense(x, 10)
        """,
        after="""
            import numpy as np
            import tensorflow as tf
            import slim_ext

            def model(x):
                cell = tf.nn.rnn_cell.LSTMCell(64)
                return tf.layers.dense(x, 10)
        """,
    ),
    Edit(
        "layers imported from compat.v1",
        before="""
            from tensorflow.compat.v1 import layers
            net = layers.conv2d(x, 8, 3)
        """,
        after="""
            from tensorflow.compat.v1 import layers
            import slim_ext
            net = layers.conv2d(x, 8, 3)
        """,
    ),
    # The same shims, named for the Estimator: no TF1 evidence for codemods that
    # port only TF1 code, in a TF2 file.
    Edit(
        "estimator code gets the estimator runtime",
        before="""
            import numpy as np
            import tensorflow as tf

            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=loss)
        """,
        after="""
            import numpy as np
            import tensorflow as tf
            import slim_ext.estimator

            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=loss)
        """,
    ),
    Edit(
        "model_to_estimator through compat.v1",
        before="""
            import tensorflow.compat.v1 as tf
            est = tf.keras.estimator.model_to_estimator(model)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            import slim_ext.estimator
            est = tf.keras.estimator.model_to_estimator(model)
        """,
    ),
    # tensorflow_estimator 2.15 does not import on TF 2.16+ without the shims.
    # Estimators.
    # Estimators.
    Edit(
        "before tensorflow_estimator imported first",
        before="""
            # Estimators.
            from tensorflow_estimator.python.estimator.canned import dnn
            import tensorflow as tf
            from slim_ext.estimator import train_and_evaluate
        """,
        after="""
            # Estimators.
            import slim_ext.estimator
            from tensorflow_estimator.python.estimator.canned import dnn
            import tensorflow as tf
            from slim_ext.estimator import train_and_evaluate
        """,
    ),
    # TF-GAN reads tf.estimator when imported (issue 30): the shims come first.
    Edit(
        "tf-gan imported after tensorflow",
        before="""
            import tensorflow as tf
            import tensorflow_gan as tfgan

            loss = tfgan.losses.wasserstein_generator_loss(model)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.estimator
            import tensorflow_gan as tfgan

            loss = tfgan.losses.wasserstein_generator_loss(model)
        """,
    ),
    Edit(
        # object detection 0.1.1's model_lib_test.py, where py2_str_equality had added
        # its runtime import after the file's imports: it came too late for the
        # tensorflow_estimator import above it.
        "a slim_ext import after tensorflow_estimator's covers nothing",
        before="""
            import tensorflow.compat.v1 as tf
            from tensorflow_estimator.python.estimator.tpu import tpu_config
            import slim_ext.test_util
        """,
        after="""
            import tensorflow.compat.v1 as tf
            import slim_ext.estimator
            from tensorflow_estimator.python.estimator.tpu import tpu_config
            import slim_ext.test_util
        """,
    ),
    Edit(
        # tensor2tensor 1.14's data_generators/problem.py, ported: contrib_symbols wrote
        # the tensorflow_estimator import (contrib's tpu_config) above the tf_slim import
        # it added; slim_ext after tf_slim came too late, and a second port added another.
        "tf_slim imported after tensorflow_estimator: slim_ext before the latter",
        before="""
            import tensorflow.compat.v1 as tf
            from tensorflow_estimator.python.estimator.tpu import tpu_config
            import tf_slim

            net = tf_slim.conv2d(images, 8, 3)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            import slim_ext
            from tensorflow_estimator.python.estimator.tpu import tpu_config
            import tf_slim

            net = tf_slim.conv2d(images, 8, 3)
        """,
    ),
    Edit(
        "tf-gan imported first",
        before="""
            import tensorflow_gan as tfgan
            import tensorflow as tf
        """,
        after="""
            import slim_ext.estimator
            import tensorflow_gan as tfgan
            import tensorflow as tf
        """,
    ),
    Edit(
        "estimator and tf1 layers get slim_ext",
        before="""
            import tensorflow as tf
            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=tf.layers.dense(features, 1))
        """,
        after="""
            import tensorflow as tf
            import slim_ext
            def model_fn(features, labels, mode):
                return tf.estimator.EstimatorSpec(mode, loss=tf.layers.dense(features, 1))
        """,
    ),
    Edit(
        "the edit names the import it follows",
        before="import os\n\nimport tf_slim as slim\n",
        after="import os\n\nimport tf_slim as slim\nimport slim_ext\n",
        findings=[edit(3, "import slim_ext after import tf_slim as slim")],
    ),
    # Already imported, before tf_slim or anywhere at module level for functions.
    Noop("slim_ext before tf_slim",
         "import slim_ext\nimport tf_slim as slim\n"),
    Noop("a slim_ext module before tf_slim",
         "from slim_ext import uflag\nimport tf_slim as slim\n"),
    Noop("slim_ext.contrib before tf_slim",
         "import slim_ext.contrib\nfrom tf_slim import nets\n"),
    Noop("slim_ext after tf_slim",
         "import tf_slim\nimport slim_ext\nx = 1\n"),
    Noop("module level slim_ext for a function's tf_slim",
         "import slim_ext\ndef f():\n    import tf_slim\n    return tf_slim\n"),
    # TF2 code and Keras layers: no TF1 layers, no tf_slim.
    Noop("tf2 keras layers",
         "import tensorflow as tf\nmodel = tf.keras.layers.Dense(3)\n"),
    Noop("tf2 code",
         "import tensorflow as tf\nx = tf.image.resize(img, [8, 8], antialias=True)\n"),
    # Names that only look like it.
    Noop("modules named like tf_slim",
         "import tf_slim_utils\nfrom my_tf_slim import layers\n"),
    Noop("tf_slim in a comment and a string",
         "# uses tf_slim later\ntext = 'import tf_slim'\n"),
    Noop("a variable named layers",
         "import tensorflow as tf\nlayers = [1, 2]\nprint(layers)\n"),
    Noop("a parameter named tf",
         "import tensorflow as tf\ndef f(tf):\n    return tf.layers.dense(x, 3)\n"),
    Noop("standalone keras",
         "import keras\nx = keras.layers.Dense(3)\n"),
    # Estimator code that has the shims already; a library's own lazy import (tf_keras'
    # model_to_estimator module); an estimator that is not TensorFlow's.
    Noop("estimator code with the shims already",
         "import slim_ext.legacy_keras\nimport tensorflow as tf\n"
         "est = tf.estimator.Estimator(f)\n"),
    Noop("a library's own lazy import",
         "import tensorflow as tf\ndef f():\n"
         "    from tensorflow_estimator.python.estimator import keras_lib\n"
         "    return keras_lib\n"),
    Noop("tf-gan after slim_ext",
         "import slim_ext\nimport tensorflow as tf\nimport tensorflow_gan as tfgan\n"),
    Noop("sklearn's estimator",
         "import sklearn\nestimator = sklearn.base.clone(estimator)\n"),
    Noop("a parameter named tf with an estimator",
         "import tensorflow as tf\ndef f(tf):\n    return tf.estimator.Estimator(fn)\n"),
]
