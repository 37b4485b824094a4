"""leaky_relu_alpha: TF1 code's tf.nn.leaky_relu -> TF 1.12's, in slim_ext.tf1_nn."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # tensorlayer 1.11.1's layers/activation.py (PReluLayer: a learned alpha).
        "called, and passed as an activation",
        before="""
            import tensorflow as tf

            def prelu(x, name):
                with tf.variable_scope(name):
                    alpha = tf.get_variable('alpha', shape=(), initializer=tf.zeros_initializer())
                return tf.nn.leaky_relu(x, alpha=tf.nn.sigmoid(alpha))

            net = Layer(act=tf.nn.leaky_relu)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.tf1_nn

            def prelu(x, name):
                with tf.variable_scope(name):
                    alpha = tf.get_variable('alpha', shape=(), initializer=tf.zeros_initializer())
                return slim_ext.tf1_nn.leaky_relu(x, alpha=tf.nn.sigmoid(alpha))

            net = Layer(act=slim_ext.tf1_nn.leaky_relu)
        """,
    ),
    Edit(
        "imported from TensorFlow's own module; tensorflow's only use",
        before="""
            import tensorflow as tf
            from tensorflow.python.ops.nn_ops import leaky_relu

            x = tf.placeholder(tf.float32)
            y = leaky_relu(x, 0.1)
        """,
        after="""
            import tensorflow as tf
            from slim_ext.tf1_nn import leaky_relu

            x = tf.placeholder(tf.float32)
            y = leaky_relu(x, 0.1)
        """,
    ),
    Noop(
        "other leaky_relus, and the other activations",
        """
            import tensorflow as tf
            import tensorlayer as tl

            x = tf.placeholder(tf.float32)
            a = tl.act.leaky_relu(x, 0.2)
            b = tf.nn.relu(x) + tf.nn.leaky_relu6(x)
            c = tf.keras.layers.LeakyReLU(0.2)

            def f(tf):
                return tf.nn.leaky_relu(x)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import tensorflow as tf

            @tf.function
            def f(x):
                return tf.nn.leaky_relu(x, alpha=0.1)
        """,
    ),
    Noop(
        "code written against tf.compat.v1 (TF 1.13+) had the fused op already",
        """
            import tensorflow.compat.v1 as tf

            x = tf.placeholder(tf.float32)
            y = tf.nn.leaky_relu(x, alpha=0.1)
        """,
    ),
    Reported(
        "the file's slim_ext is something else",
        """
            import tensorflow as tf
            import tensorlayer as slim_ext

            x = tf.placeholder(tf.float32)
            y = tf.nn.leaky_relu(x)
        """,
        [attention(5, "tf.nn.leaky_relu", fix="slim_ext.tf1_nn.leaky_relu")],
    ),
]
