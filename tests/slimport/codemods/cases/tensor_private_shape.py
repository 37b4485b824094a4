"""tensor_private_shape: TF1's deprecated Tensor._shape -> shape; others reported."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

TREE_FREE = {"tree_binds_private_shape": False}

CASES = [
    Edit(
        # tensorlayer 1.11.1's tests/test_layers_recurrent.py.
        "reads of a tensor's _shape, in a tree that sets none",
        before="""
            import tensorflow as tf

            x = tf.placeholder(tf.float32, [None, 5, 7])
            net = tf.reshape(x, shape=(-1, 5, int(x._shape[-1])))
            print(net._shape, x._shape.as_list())
        """,
        after="""
            import tensorflow as tf

            x = tf.placeholder(tf.float32, [None, 5, 7])
            net = tf.reshape(x, shape=(-1, 5, int(x.shape[-1])))
            print(net.shape, x.shape.as_list())
        """,
        options=TREE_FREE,
    ),
    Noop(
        "assignments, deletions and calls of _shape are not the alias",
        """
            import tensorflow as tf

            x = tf.placeholder(tf.float32, [None])
            box._shape = [3]
            box._shape += [1]
            a, box._shape = 1, [2]
            del box._shape
            size = box._shape()
        """,
        options=TREE_FREE,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import tensorflow as tf

            @tf.function
            def width(x):
                return x._shape
        """,
        options=TREE_FREE,
    ),
    Noop(
        "no _shape attribute: shape, get_shape(), a local named _shape",
        """
            import tensorflow as tf

            x = tf.placeholder(tf.float32, [None])
            _shape = x.shape
            print(x.get_shape(), _shape, x._shape_tuple())
        """,
        options=TREE_FREE,
    ),
    Reported(
        "the tree gives something a _shape of its own",
        "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nprint(x._shape)\n",
        [attention(3, "x._shape", fix="x.shape")],
        options={"tree_binds_private_shape": True},
    ),
    Reported(
        "ported on its own: the tree is not known",
        "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nprint(x._shape)\n",
        [attention(3, "x._shape", fix="x.shape")],
    ),
    Reported(
        "a class's own attribute, or its base's",
        """
            import tensorflow as tf

            class Box(object):
                def size(self):
                    return tf.placeholder(tf.float32, self._shape)
        """,
        [attention(5, "self._shape", fix="self.shape")],
        options=TREE_FREE,
    ),
]
