"""tf1_registries: TF1's RegisterShape and register_dense_tensor_like_type -> slim_ext.tf1_ops's."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

CASES = [
    Edit(
        # mesh-tensorflow 0.0.5's tpu_variables.py.
        "a variable type registered as tensor-like",
        before="""
            from tensorflow.python.framework import ops

            ops.register_dense_tensor_like_type(ReplicatedVariable)
            graph = ops.get_default_graph()
        """,
        after="""
            from tensorflow.python.framework import ops
            import slim_ext.tf1_ops

            slim_ext.tf1_ops.register_dense_tensor_like_type(ReplicatedVariable)
            graph = ops.get_default_graph()
        """,
        findings=[edit(3, "ops.register_dense_tensor_like_type -> slim_ext.tf1_ops."
                          "register_dense_tensor_like_type (TF 1.x's checks of the type")],
    ),
    Edit(
        # A custom op's module of the TF 1.x era (tensorflow/models' syntaxnet, ...).
        "the decorator from TensorFlow's framework module; the op library stays",
        before="""
            import tensorflow as tf
            from tensorflow.python.framework import ops

            _zero_out = tf.load_op_library('zero_out.so')

            @ops.RegisterShape("ZeroOut")
            def _zero_out_shape(op):
                return [op.inputs[0].get_shape()]
        """,
        after="""
            import tensorflow as tf
            import slim_ext.tf1_ops

            _zero_out = tf.load_op_library('zero_out.so')

            @slim_ext.tf1_ops.RegisterShape("ZeroOut")
            def _zero_out_shape(op):
                return [op.inputs[0].get_shape()]
        """,
        findings=[edit(6, "ops.RegisterShape -> slim_ext.tf1_ops.RegisterShape (TF 1.x's "
                          "decorator; TensorFlow never called the shape function")],
    ),
    Edit(
        "TF 0.x's public name, called, and the name imported",
        before="""
            import tensorflow as tf
            from tensorflow.python.framework.ops import RegisterShape

            tf.RegisterShape("Gather")(None)
            RegisterShape("Unique")(None)
            y = tf.gather(x, i)
        """,
        after="""
            import tensorflow as tf
            from slim_ext.tf1_ops import RegisterShape
            import slim_ext.tf1_ops

            slim_ext.tf1_ops.RegisterShape("Gather")(None)
            RegisterShape("Unique")(None)
            y = tf.gather(x, i)
        """,
    ),
    Noop(
        "another library's RegisterShape, and a local tf",
        """
            import tensorflow as tf
            from mylib.shapes import RegisterShape

            RegisterShape("Foo")(None)
            tf.RegisterGradient("Foo")(grad)

            def f(tf):
                return tf.RegisterShape("Bar")
        """,
    ),
    Reported(
        "the file's slim_ext is something else",
        """
            import tensorflow as tf
            import mylib as slim_ext

            tf.RegisterShape("Foo")(None)
        """,
        [attention(4, "tf.RegisterShape", fix="slim_ext.tf1_ops.RegisterShape")],
    ),
]
