"""numpy1_ragged: np.size / shape / ndim of what may be a ragged list -> NumPy 1's."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # magenta 1.1.7's music_vae/data_hierarchical.py (controls of different lengths).
        "np.size / shape / ndim of a sequence written out, or tested for truth",
        before="""
            import numpy as np
            from numpy import ndim
            import tensorflow as tf

            def _hierarchical_pad(input_, output, control):
              if np.size(control):
                control = nest.flatten(control)
              rows = np.shape([[1, 2], [3]])[0]
              depth = ndim([c for c in control])
              if not np.size(control, axis=0) or empty:
                return None
              return control, rows, depth

            x = tf.placeholder(tf.float32)
        """,
        after="""
            import numpy as np
            from numpy import ndim
            import tensorflow as tf
            import slim_ext.numpy1

            def _hierarchical_pad(input_, output, control):
              if slim_ext.numpy1.size(control):
                control = nest.flatten(control)
              rows = slim_ext.numpy1.shape([[1, 2], [3]])[0]
              depth = slim_ext.numpy1.ndim([c for c in control])
              if not slim_ext.numpy1.size(control, axis=0) or empty:
                return None
              return control, rows, depth

            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        # tf_slim 1.1.0's metrics/metric_ops_test.py: an array parameter.
        "a count of what is not known to be a list",
        """
            import numpy as np
            import tensorflow as tf

            def _np_auc(predictions, labels, weights=None):
              if weights is None:
                weights = np.ones(np.size(predictions))
              return np.shape(labels)[0], np.ndim(weights)

            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "certain arrays tested, the methods and attributes, other libraries' size",
        """
            import numpy as np
            import tensorflow as tf

            labels = np.zeros((16, 1))
            if np.size(labels) and np.shape(np.ones(3)):
                pass
            d = labels.size + len(labels.shape)
            e = tf.size([1, 2])
            f = np.size(*arrays)
            if tf.size(controls):
                pass
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "a size of the file's own, and a local np",
        """
            import tensorflow as tf

            def size(x):
              return len(x)

            def f(np, controls):
              if np.size(controls) or size(controls):
                return controls

            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import numpy as np
            import tensorflow as tf

            @tf.function
            def f(x):
              return x

            n = 1 if np.size(controls) else 0
        """,
    ),
    Reported(
        "a file whose slim_ext is another name",
        "import numpy as np\nimport tensorflow as tf\nimport six as slim_ext\n"
        "n = np.size([a, b])\nx = tf.placeholder(tf.float32)\n",
        [attention(4, "np.size([a, b])", fix="slim_ext.numpy1.size(...)")],
    ),
]
