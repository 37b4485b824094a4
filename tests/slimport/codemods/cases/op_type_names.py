"""op_type_names: op.type comparisons with TF 1.x names match the names TF 2 builds too."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # Object detection's feature extractor tests (test_has_fused_batchnorm).
        "comparisons of an op's type",
        before="""
            import tensorflow as tf

            def has_fused_batchnorm(graph):
                with tf.Session(graph=graph):
                    return any(op.type == 'FusedBatchNorm' for op in ops)

            adds = [op for op in ops if 'Add' != op.type]
            grouped = [node for node in graph_def.node if node.op in ('Add', 'Mul')]
            matmuls = [op for op in ops if op.type not in {"BatchMatMul"}]
        """,
        after="""
            import tensorflow as tf

            def has_fused_batchnorm(graph):
                with tf.Session(graph=graph):
                    return any(op.type in ('FusedBatchNorm', 'FusedBatchNormV3') for op in ops)

            adds = [op for op in ops if op.type not in ('Add', 'AddV2')]
            grouped = [node for node in graph_def.node if node.op in ('Add', 'AddV2', 'Mul')]
            matmuls = [op for op in ops if op.type not in {"BatchMatMul", "BatchMatMulV2"}]
        """,
    ),
    Edit(
        "a one-element tuple and a gradient",
        before="""
            grads = [op for op in ops if op.type in ('FusedBatchNormGrad',)]
        """,
        after="""
            grads = [op for op in ops if op.type in ('FusedBatchNormGrad', 'FusedBatchNormGradV3',)]
        """,
    ),
    # Uses that cannot be ported blindly: reported at the string.
    Reported(
        # The pruning project's grouping whitelist.
        "a whitelist kept in a variable",
        """
            _GROUPABLE = ['Add', 'Mul']

            def check(op):
                return op.type in _GROUPABLE
        """,
        [attention(1, "'Add'", fix="'AddV2'")],
    ),
    Edit(
        # Object detection's exporter.rewrite_nn_resize_op.
        "a graph matcher's patterns",
        before="""
            from tensorflow.contrib.quantize.python import graph_matcher

            add_pattern = graph_matcher.OpTypePattern(
                'Add', inputs=[reshape, 'FusedBatchNorm|Relu'])
        """,
        after="""
            from tensorflow.contrib.quantize.python import graph_matcher

            add_pattern = graph_matcher.OpTypePattern(
                'Add|AddV2', inputs=[reshape, 'FusedBatchNorm|FusedBatchNormV3|Relu'])
        """,
    ),
    Reported(
        "another library's pattern and a handler table",
        """
            pattern = mylib.OpTypePattern('FusedBatchNorm', inputs=['*'])
            handlers = {'BatchMatMul': fold_matmul}
        """,
        [attention(1, "'FusedBatchNorm'", fix="FusedBatchNorm|FusedBatchNormV3"),
         attention(2, "'BatchMatMul'", fix="BatchMatMulV2")],
    ),
    Reported(
        "a comparison of something that is no op's type",
        "kind = 'Add' if mode == 'Add' else 'Sub'\n",
        [attention(1, "'Add'", fix="AddV2")],
    ),
    # The file names the new type itself: it tells the two apart.
    Noop("the file matches both names already",
         "fused = [op for op in ops if op.type in ('FusedBatchNorm', 'FusedBatchNormV3')]\n"
         "old = [op for op in ops if op.type == 'FusedBatchNorm']\n"),
    Noop("a collection that has the new name",
         "x = [op for op in ops if op.type in ['AddV2', 'Add']]\n"),
    # Strings that are no op type, and names TF did not rename.
    Noop("an op's name, a scope, a docstring",
         '"""Add two tensors."""\nimport tensorflow as tf\nx = tf.placeholder(tf.float32)\n'
         "y = tf.add(a, b, name='Add')\nwith tf.name_scope('Add'):\n    pass\n"),
    Noop("op types TF did not rename",
         "convs = [op for op in ops if op.type == 'Conv2D']\n"),
    Noop("a longer name and a pattern with both",
         "x = op.type == 'AddN'\n"
         "p = graph_matcher.OpTypePattern('Add|AddV2')\n"),
    # Python 2 code is TF1-era code whatever TF API it uses (issue 40: a project whose
    # tests passed on TF 1.14 counts `a + b` ops by type, with no TF1 sign in the file).
    Edit(
        "python 2 code that reads as tf2 code",
        before="""
            from __future__ import division
            import tensorflow as tf
            x = tf.image.resize(y, (2, 2), antialias=True)
            adds = [op for op in ops if op.type == 'Add']
        """,
        after="""
            from __future__ import division
            import tensorflow as tf
            x = tf.image.resize(y, (2, 2), antialias=True)
            adds = [op for op in ops if op.type in ('Add', 'AddV2')]
        """,
    ),
    # TF2 code written for Python 3 is its authors'.
    Noop("tf2 code",
         "import tensorflow as tf\nx = tf.image.resize(y, (2, 2), antialias=True)\n"
         "adds = [op for op in ops if op.type == 'Add']\n"),
]
