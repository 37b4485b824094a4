"""tf_internals: a Keras Conv subclass's self._convolution_op -> self.convolution_op."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # A segmentation project's weight-standardised convolution.
        "a weight-standardised Conv2D",
        before="""
            import tensorflow as tf

            class Conv2D(tf.keras.layers.Conv2D):

                def call(self, inputs):
                    mean, var = tf.nn.moments(self.kernel, [0, 1, 2], keep_dims=True)
                    kernel = (self.kernel - mean) / tf.sqrt(var + 1e-5)
                    outputs = self._convolution_op(inputs, kernel)
                    return tf.nn.bias_add(outputs, self.bias)
        """,
        after="""
            import tensorflow as tf

            class Conv2D(tf.keras.layers.Conv2D):

                def call(self, inputs):
                    mean, var = tf.nn.moments(self.kernel, [0, 1, 2], keep_dims=True)
                    kernel = (self.kernel - mean) / tf.sqrt(var + 1e-5)
                    outputs = self.convolution_op(inputs, kernel)
                    return tf.nn.bias_add(outputs, self.bias)
        """,
    ),
    Edit(
        "through a class of the file, tf.layers, an inner function",
        before="""
            import tensorflow as tf
            from tensorflow.keras import layers

            class Base(layers.Conv1D):
                pass

            class Scaled(Base):
                def call(me, inputs):
                    def convolve(x):
                        return me._convolution_op(x, me.kernel * 2.0)
                    return convolve(inputs)

            class Legacy(tf.layers.Conv3D):
                def call(self, inputs):
                    return self._convolution_op(inputs, self.kernel)
        """,
        after="""
            import tensorflow as tf
            from tensorflow.keras import layers

            class Base(layers.Conv1D):
                pass

            class Scaled(Base):
                def call(me, inputs):
                    def convolve(x):
                        return me.convolution_op(x, me.kernel * 2.0)
                    return convolve(inputs)

            class Legacy(tf.layers.Conv3D):
                def call(self, inputs):
                    return self.convolution_op(inputs, self.kernel)
        """,
    ),
    Reported(
        "a base from another module",
        "from .layers import MyConv\nclass C(MyConv):\n"
        "    def call(self, x):\n        return self._convolution_op(x, self.kernel)\n",
        [attention(4, "self._convolution_op", fix="self.convolution_op(inputs, kernel)")],
    ),
    Reported(
        "the private op read, not called",
        "import tensorflow as tf\nclass C(tf.keras.layers.Conv2D):\n"
        "    def op(self):\n        return self._convolution_op.padding\n",
        [attention(4, "self._convolution_op", fix="convolution_op")],
    ),
    # The class's own _convolution_op, or TF's internal Keras that still has one.
    Noop("a class that sets its own op",
         "import tensorflow as tf\nclass C(tf.keras.layers.Conv2D):\n"
         "    def build(self, shape):\n        self._convolution_op = make_op()\n"
         "    def call(self, x):\n        return self._convolution_op(x, self.kernel)\n"),
    Noop("a subclass of a class that sets its own op",
         "import tensorflow as tf\nclass A(tf.keras.layers.Conv2D):\n"
         "    def _convolution_op(self, x, k):\n        return x\n"
         "class B(A):\n    def call(self, x):\n        return self._convolution_op(x, 1)\n"),
    Noop("tensorflow's internal Keras",
         "from tensorflow.python.keras.layers import convolutional\n"
         "class C(convolutional.Conv2D):\n"
         "    def call(self, x):\n        return self._convolution_op(x, self.kernel)\n"),
    Noop("not a conv layer, or not the instance",
         "import tensorflow as tf\nclass D(tf.keras.layers.Dense):\n"
         "    def call(self, x):\n        return self._convolution_op(x)\n"
         "class E(tf.keras.layers.Conv2D):\n"
         "    def call(self, x):\n        return other._convolution_op(x, self.kernel)\n"),
]
