"""contrib_slim: every spelling of tf.contrib.slim becomes tf_slim, keeping local names."""
from tests.slimport.codemods.cases import Edit, Noop, attention, edit

# Every spelling of contrib.slim has both words; tf_slim-only files have one.
TEXT_PRECHECK = {
    "import tensorflow as tf\nslim = None\n": False,
    "import tf_slim as slim\nx = slim.conv2d\n": False,
    "layers = tf.contrib.layers\n": False,
    "slim = tf.contrib.slim\n": True,
    "from tensorflow.contrib import layers, slim\n": True,
}

CASES = [
    # TF-Slim, the TF1 way.
    # TF-Slim, the TF1 way.
    Edit(
        "alias assignment becomes import in place",
        before="""
            import tensorflow as tf

            # TF-Slim, the TF1 way.
            slim = tf.contrib.slim  # the usual alias

            def net(x):
                return slim.conv2d(tf.identity(x), 8, [3, 3])
        """,
        after="""
            import tensorflow as tf

            # TF-Slim, the TF1 way.
            import tf_slim as slim  # the usual alias

            def net(x):
                return slim.conv2d(tf.identity(x), 8, [3, 3])
        """,
    ),
    Edit(
        "alias assignment drops tensorflow import left unused",
        before="""
            import tensorflow as tf

            slim = tf.contrib.slim
            net = slim.fully_connected
        """,
        after="""

            import tf_slim as slim
            net = slim.fully_connected
        """,
    ),
    Edit(
        "from contrib import slim",
        before="""
            from tensorflow.contrib import slim

            net = slim.conv2d
        """,
        after="""
            import tf_slim as slim

            net = slim.conv2d
        """,
    ),
    # contrib kept the library in python/slim/; tf_slim has no python package.
    Edit(
        "from the inner python package import slim",
        before="""
            from tensorflow.contrib.slim.python import slim

            net = slim.conv2d
        """,
        after="""
            import tf_slim as slim

            net = slim.conv2d
        """,
    ),
    Edit(
        "from contrib import slim as other name",
        before="""
            from tensorflow.contrib import slim as contrib_slim

            net = contrib_slim.conv2d
        """,
        after="""
            import tf_slim as contrib_slim

            net = contrib_slim.conv2d
        """,
    ),
    Edit(
        "import contrib.slim as",
        before="""
            import os
            import tensorflow.contrib.slim as slim
        """,
        after="""
            import os
            import tf_slim as slim
        """,
    ),
    Edit(
        "import contrib.slim without alias",
        before="""
            import tensorflow.contrib.slim

            net = tensorflow.contrib.slim.conv2d
        """,
        after="""
            import tf_slim

            net = tf_slim.conv2d
        """,
    ),
    Edit(
        "nets attribute through tf",
        before="""
            import tensorflow as tf

            slim = tf.contrib.slim

            def build(images):
                return tf.contrib.slim.nets.resnet_v1.resnet_v1_50(images)
        """,
        after="""

            import tf_slim as slim
            import tf_slim.nets

            def build(images):
                return slim.nets.resnet_v1.resnet_v1_50(images)
        """,
    ),
    Edit(
        "nets attribute through alias imports nets",
        before="""
            from tensorflow.contrib import slim

            vgg = slim.nets.vgg
        """,
        after="""
            import tf_slim as slim
            import tf_slim.nets

            vgg = slim.nets.vgg
        """,
    ),
    Edit(
        "from nets import",
        before="""
            from tensorflow.contrib.slim.nets import resnet_v1, vgg  # nets
        """,
        after="""
            from tf_slim.nets import resnet_v1, vgg  # nets
        """,
    ),
    Edit(
        "deep python slim path",
        before="""
            from tensorflow.contrib.slim.python.slim.data import dataset_data_provider
            from tensorflow.contrib.slim.python.slim import learning
            import tensorflow.contrib.slim.python.slim.nets.resnet_utils as resnet_utils
        """,
        after="""
            from tf_slim.data import dataset_data_provider
            from tf_slim import learning
            import tf_slim.nets.resnet_utils as resnet_utils
        """,
    ),
    Edit(
        "from contrib.slim import names",
        before="""
            from tensorflow.contrib.slim import arg_scope, nets
        """,
        after="""
            from tf_slim import arg_scope, nets
        """,
    ),
    Edit(
        "inline use without alias imports tf_slim",
        before="""
            import tensorflow as tf

            def net(x):
                with tf.contrib.slim.arg_scope([tf.contrib.slim.conv2d], padding='SAME'):
                    return tf.nn.relu(x)
        """,
        after="""
            import tensorflow as tf
            import tf_slim

            def net(x):
                with tf_slim.arg_scope([tf_slim.conv2d], padding='SAME'):
                    return tf.nn.relu(x)
        """,
    ),
    Edit(
        "inline use goes through existing alias",
        before="""
            import tensorflow as tf
            from tensorflow.contrib import slim

            def net(x):
                with tf.contrib.slim.arg_scope([slim.conv2d]):
                    return x
        """,
        after="""
            import tf_slim as slim

            def net(x):
                with slim.arg_scope([slim.conv2d]):
                    return x
        """,
    ),
    Edit(
        "alias defined in a function is not used elsewhere",
        before="""
            import tensorflow as tf

            def a():
                slim = tf.contrib.slim
                return slim.conv2d

            def b():
                return tf.contrib.slim.fully_connected
        """,
        after="""
            import tf_slim

            def a():
                import tf_slim as slim
                return slim.conv2d

            def b():
                return tf_slim.fully_connected
        """,
    ),
    Edit(
        "compat.v1 spelling",
        before="""
            import tensorflow.compat.v1 as tf

            slim = tf.contrib.slim
            x = tf.zeros([1])
        """,
        after="""
            import tensorflow.compat.v1 as tf

            import tf_slim as slim
            x = tf.zeros([1])
        """,
    ),
    Edit(
        "contrib module binding",
        before="""
            from tensorflow import contrib

            conv = contrib.slim.conv2d
            layers = contrib.layers
        """,
        after="""
            from tensorflow import contrib
            import tf_slim

            conv = tf_slim.conv2d
            layers = contrib.layers
        """,
    ),
    Edit(
        "mixed from import is split",
        before="""
            from tensorflow.contrib import layers, slim  # contrib
            x = 1
        """,
        after="""
            from tensorflow.contrib import layers  # contrib
            import tf_slim as slim
            x = 1
        """,
    ),
    Edit(
        "mixed from import on one line suite",
        before="""
            try: from tensorflow.contrib import layers, slim
            except ImportError: pass
        """,
        after="""
            try: from tensorflow.contrib import layers; import tf_slim as slim
            except ImportError: pass
        """,
    ),
    Edit(
        "star import",
        before="from tensorflow.contrib.slim import *\n",
        after="from tf_slim import *\n",
    ),
    Edit(
        "assignment of a member keeps the assignment",
        before="""
            import tensorflow as tf
            arg_scope = tf.contrib.slim.arg_scope
            nets = tf.contrib.slim.python.slim.nets
        """,
        after="""
            import tf_slim
            import tf_slim.nets

            arg_scope = tf_slim.arg_scope
            nets = tf_slim.nets
        """,
    ),
    Edit(
        "crlf line endings survive an edit",
        before='"""Doc."""\r\nimport tensorflow as tf\r\n\r\n'
               "slim = tf.contrib.slim\r\nx = tf.contrib.slim.nets.vgg\r\n",
        after='"""Doc."""\r\n\r\nimport tf_slim as slim\r\nimport tf_slim.nets\r\n\r\n'
              "x = slim.nets.vgg\r\n",
    ),
    Edit(
        "every edit is recorded with its line",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.slim.nets import vgg

            slim = tf.contrib.slim
            scope = tf.contrib.slim.arg_scope
        """,
        after="""
            from tf_slim.nets import vgg

            import tf_slim as slim
            scope = slim.arg_scope
        """,
        findings=[
            edit(2, "from tensorflow.contrib.slim.nets import vgg -> from tf_slim.nets import vgg"),
            edit(4, "slim = tf.contrib.slim -> import tf_slim as slim"),
            edit(5, "tf.contrib.slim.arg_scope -> slim.arg_scope"),
        ],
    ),
    # contrib.slim re-exported all of contrib.layers; tf_slim kept the slim part.
    Edit(
        "names tf_slim lacks are reported at their use",
        before="""
            import tensorflow as tf
            slim = tf.contrib.slim
            emb = slim.safe_embedding_lookup_sparse(weights, ids)
            seq = tf.contrib.slim.embed_sequence(ids, 10, 4)
            net = slim.conv2d(x, 8, 3)
        """,
        after="""
            import tf_slim as slim
            emb = slim.safe_embedding_lookup_sparse(weights, ids)
            seq = slim.embed_sequence(ids, 10, 4)
            net = slim.conv2d(x, 8, 3)
        """,
        findings=[
            attention(3, "tf.contrib.slim.safe_embedding_lookup_sparse is gone",
                      fix="use tensorflow.compat.v1.nn.safe_embedding_lookup_sparse"),
            attention(4, "tf.contrib.slim.embed_sequence is gone",
                      fix="find its TF2 / tf_slim equivalent and rewrite by hand, or drop the "
                          "feature"),
        ],
    ),
    Noop("absl flags",
         "import absl.flags\nabsl.flags.DEFINE_string('x', '', 'contrib')\n"),
    Noop("local variable named slim",
         "import tensorflow as tf\n\ndef f(slim):\n    return slim.contrib.slim.x  # contrib\n"),
    Noop("tf bound to something else",
         "import tensorflow as tf\ntf = load_plugin()\nnet = tf.contrib.slim.conv2d\n"),
    Noop("not tensorflow contrib",
         "from mylib import contrib\nnet = contrib.slim.conv2d\n"),
    Noop("already ported",
         "import tf_slim as slim\nfrom tf_slim.nets import vgg\n\n"
         "net = slim.conv2d  # was tf.contrib.slim\n"),
    Noop("other contrib module",
         "import tensorflow as tf\nfrom tensorflow.contrib import layers\n"
         "init = tf.contrib.layers.xavier_initializer()\n"),
    Noop("contrib in strings only",
         "HELP = 'tf.contrib.slim is gone'\n"),
    Noop("relative import",
         "from .contrib import slim\nnet = slim.conv2d\n"),
    Noop("crlf untouched",
         "import tensorflow as tf\r\nx = tf.contrib.layers.flatten\r\n"),
]
