"""numpy_float_counts: np.linspace's count where it may be a float -> int(count)."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        # magenta 1.1.7's onsets_frames_transcription/audio_label_data_utils_test.py.
        "counts that may be floats",
        before="""
            import numpy as np
            from numpy import geomspace
            import tensorflow as tf

            samples = np.linspace(0, 1, sample_rate * sequence.total_time)
            ramp = np.logspace(0, 2, num=n / 2, base=10.0)
            steps = geomspace(1, 8, steps_per_octave * 3)
            x = tf.placeholder(tf.float32)
        """,
        after="""
            import numpy as np
            from numpy import geomspace
            import tensorflow as tf

            samples = np.linspace(0, 1, int(sample_rate * sequence.total_time))
            ramp = np.logspace(0, 2, num=int(n / 2), base=10.0)
            steps = geomspace(1, 8, int(steps_per_octave * 3))
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "counts that are certainly integers, the default count, other functions",
        """
            import numpy as np
            import tensorflow as tf

            a = np.linspace(0, 1, 10)
            b = np.linspace(0, 1, num=len(xs))
            c = np.linspace(0, 1, int(rate * seconds))
            d = np.linspace(0, 1)
            e = np.linspace(0, 1, *shape)
            f = tf.linspace(0.0, 1.0, n / 2)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "int is not the builtin",
        """
            import numpy as np
            import tensorflow as tf

            def int(value):
                return value

            a = np.linspace(0, 1, n / 2)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import numpy as np
            import tensorflow as tf

            @tf.function
            def f(n):
                return np.linspace(0, 1, n / 2)
        """,
    ),
]
