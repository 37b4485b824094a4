"""numpy_stack_generators: a generator handed to np.stack & co. -> the list NumPy made."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        # magenta 1.1.7's music_vae/data_test.py.
        "generator expressions stacked by NumPy",
        before="""
            import numpy as np
            from numpy import vstack
            import tensorflow as tf

            labels = np.stack(np.argmax(s, axis=-1) for s in np.split(t, [90], axis=-1))
            rows = vstack((row * 2 for row in table), dtype=np.float32)
            x = tf.placeholder(tf.float32)
        """,
        after="""
            import numpy as np
            from numpy import vstack
            import tensorflow as tf

            labels = np.stack([np.argmax(s, axis=-1) for s in np.split(t, [90], axis=-1)])
            rows = vstack([row * 2 for row in table], dtype=np.float32)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "sequences, other iterables, other functions of the name",
        """
            import numpy as np
            import tensorflow as tf

            a = np.stack([s for s in parts])
            b = np.stack(parts)
            c = np.stack(map(f, parts))
            d = np.concatenate(s for s in parts)
            e = tf.stack(s for s in parts)
            f = np.stack(arrays=(s for s in parts))
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import numpy as np
            import tensorflow as tf

            @tf.function
            def f(parts):
                return np.stack(s for s in parts)
        """,
    ),
]
