"""numpy_slice_lists: a list of slices used as an index -> the tuple NumPy < 1.23 read."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        # magenta 1.1.7's gansynth/lib/spectral_ops_test.py.
        "a list of slices for one axis of many",
        before="""
            import numpy as np
            import tensorflow as tf

            def first_frame(x, axis):
                s = [slice(None),] * x.ndim
                s[axis] = slice(0, 1)
                return x[s], tf.placeholder(tf.float32)

            def crop(x):
                window = [Ellipsis, slice(1, -1)] if False else [..., slice(1, -1)]
                edges = 2 * [slice(1, -1)]
                x[edges] = 0
                return x[edges]
        """,
        after="""
            import numpy as np
            import tensorflow as tf

            def first_frame(x, axis):
                s = [slice(None),] * x.ndim
                s[axis] = slice(0, 1)
                return x[tuple(s)], tf.placeholder(tf.float32)

            def crop(x):
                window = [Ellipsis, slice(1, -1)] if False else [..., slice(1, -1)]
                edges = 2 * [slice(1, -1)]
                x[tuple(edges)] = 0
                return x[tuple(edges)]
        """,
    ),
    Noop(
        "lists that may hold no slice when used, or are bound otherwise",
        """
            import numpy as np
            import tensorflow as tf

            def fancy(x, axis):
                s = [slice(None)] * 2
                s[0] = 0
                rows = [0, 1]
                t = [slice(None)]
                t.append(axis)
                u = [slice(None)]
                u = make()
                v = [slice(None)]
                w = v
                return x[s], x[rows], x[t], x[u], x[v], tf.placeholder(tf.float32)

            def already(x):
                s = [slice(None), slice(0, 1)]
                return x[tuple(s)]

            def one_tuple(x):
                s = [slice(None), slice(0, 1)]
                return x[s,]

            s = [slice(None)]
            top = np.zeros(3)[s]
        """,
    ),
    Noop(
        "slice is not the builtin",
        """
            import tensorflow as tf
            from mylib import slice

            def f(x):
                s = [slice(None)]
                return x[s], tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import tensorflow as tf

            @tf.function
            def f(x):
                s = [slice(None)]
                return x[s]
        """,
    ),
]
