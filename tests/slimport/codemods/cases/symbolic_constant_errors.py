"""symbolic_constant_errors: TF1's except (TypeError, ValueError) around tf.constant also
catches the NotImplementedError TF >= 1.15 raises for a graph Tensor."""
from tests.slimport.codemods.cases import Edit, Noop

INTERNALS = """
            from tensorflow.python.framework.constant_op import constant
            from tensorflow.python.ops.gen_array_ops import fill

            def alphas(shape, alpha_value, alpha_dtype, name):
                try:
                    output = constant(alpha_value, shape=shape, dtype=alpha_dtype, name=name)
                except (TypeError, ValueError{}):
                    output = fill(shape, constant(alpha_value, dtype=alpha_dtype), name=name)
                return output
"""

CASES = [
    Edit(
        # tensorlayer 1.11.1's array_ops.alphas (TensorFlow 1.12's array_ops.ones's idiom).
        "the fallback to fill for a shape known only when the graph runs",
        before="""
            import tensorflow as tf
            from tensorflow.python.framework.constant_op import constant
            from tensorflow.python.ops.gen_array_ops import fill

            def alphas(shape, alpha_value, alpha_dtype, name):
                try:
                    output = constant(alpha_value, shape=shape, dtype=alpha_dtype, name=name)
                except (TypeError, ValueError):
                    output = fill(shape, constant(alpha_value, dtype=alpha_dtype), name=name)
                return output

            x = tf.placeholder(tf.float32)
        """,
        after="""
            import tensorflow as tf
            from tensorflow.python.framework.constant_op import constant
            from tensorflow.python.ops.gen_array_ops import fill

            def alphas(shape, alpha_value, alpha_dtype, name):
                try:
                    output = constant(alpha_value, shape=shape, dtype=alpha_dtype, name=name)
                except (TypeError, ValueError, NotImplementedError):
                    output = fill(shape, constant(alpha_value, dtype=alpha_dtype), name=name)
                return output

            x = tf.placeholder(tf.float32)
        """,
    ),
    Edit(
        "one error, through tf",
        before="""
            import tensorflow as tf

            x = tf.placeholder(tf.float32)
            try:
                ones = tf.constant(1.0, shape=shape)
            except ValueError as error:
                ones = tf.fill(shape, 1.0)
        """,
        after="""
            import tensorflow as tf

            x = tf.placeholder(tf.float32)
            try:
                ones = tf.constant(1.0, shape=shape)
            except (ValueError, NotImplementedError) as error:
                ones = tf.fill(shape, 1.0)
        """,
    ),
    Noop(
        "more in the try, a call in the arguments, other handlers, another constant",
        """
            import numpy as np
            import tensorflow as tf

            x = tf.placeholder(tf.float32)
            try:
                a = tf.constant(1.0, shape=shape)
                b = compute(a)
            except (TypeError, ValueError):
                pass
            try:
                a = tf.constant(make_value(), shape=shape)
            except ValueError:
                pass
            try:
                a = tf.constant(1.0, shape=shape)
            except (TypeError, NotImplementedError):
                pass
            try:
                a = tf.constant(1.0, shape=shape)
            except Exception:
                pass
            try:
                a = np.full(shape, 1.0)
            except ValueError:
                pass
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import tensorflow as tf

            @tf.function
            def ones(shape):
                try:
                    return tf.constant(1.0, shape=shape)
                except (TypeError, ValueError):
                    return tf.fill(shape, 1.0)
        """,
    ),
    Edit(
        # tensorlayer 1.11.1's array_ops.py itself: TensorFlow's private modules only, no
        # API use that dates it; a module of a package other than TensorFlow's.
        "a copy of TensorFlow's own code, outside TensorFlow",
        before=INTERNALS.format(""),
        after=INTERNALS.format(", NotImplementedError"),
        path="tensorlayer/array_ops.py",
    ),
    Noop(
        "a copy of TensorFlow's own code, where the file is not known",
        INTERNALS.format(""),
    ),
]
