"""fractions_gcd: fractions.gcd (removed in Python 3.9) -> Python 3.8's, in slim_ext.stdlib."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # magenta 1.1.7's music/melspec_input.py.
        "fractions.gcd calls",
        before="""
            import fractions
            import tensorflow as tf

            subframe_length = fractions.gcd(frame_length, frame_step)
            x = tf.placeholder(tf.float32)
        """,
        after="""
            import fractions
            import tensorflow as tf
            import slim_ext.stdlib

            subframe_length = slim_ext.stdlib.fractions_gcd(frame_length, frame_step)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "math.gcd, a gcd of another module, a method",
        """
            import fractions
            import math
            import numpy as np
            import tensorflow as tf

            a = math.gcd(4, 6)
            b = np.gcd(4, 6)
            c = fractions.Fraction(1, 2)
            d = ring.gcd(4, 6)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import fractions
            import tensorflow as tf

            @tf.function
            def f(a, b):
                return fractions.gcd(a, b)
        """,
    ),
    Reported(
        "from fractions import gcd fails at import",
        "from fractions import gcd\nimport tensorflow as tf\nx = tf.placeholder(tf.float32)\n",
        [attention(1, "from fractions import gcd", fix="fractions_gcd as gcd")],
    ),
]
