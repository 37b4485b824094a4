"""py2_division: Python 2 code's / without `from __future__ import division`."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

CASES = [
    Edit(
        # object detection 0.1.1's predictors/heads/mask_head.py: a shape from /.
        "python 2 code divides",
        before="""
            import tensorflow as tf

            def upsample(features, height, width, stride, scale):
                for i in xrange(2):
                    features = tf.image.resize_bilinear(features, [
                        height / stride, width / stride])
                half = len(scale) / 2
                ratio = scale[0] / 2.0
                mean = float(sum(scale)) / len(scale)
                stride /= 2
                return features, half, ratio, mean, stride
        """,
        after="""
            import tensorflow as tf
            import slim_ext.py2

            def upsample(features, height, width, stride, scale):
                for i in xrange(2):
                    features = tf.image.resize_bilinear(features, [
                        slim_ext.py2.div(height, stride), slim_ext.py2.div(width, stride)])
                half = len(scale) // 2
                ratio = scale[0] / 2.0
                mean = float(sum(scale)) / len(scale)
                stride = slim_ext.py2.idiv(stride, 2)
                return features, half, ratio, mean, stride
        """,
        findings=[edit(6, "height / stride -> slim_ext.py2.div(...) (Python 2 code (xrange "
                       "(line 4)) without `from __future__ import division`: / floored "
                       "integers)"),
                  edit(6, "width / stride"), edit(7, "len(scale) / 2 -> //"),
                  edit(10, "stride /= 2 -> x = slim_ext.py2.idiv(x, ...)")],
    ),
    Edit(
        "operator.div",
        before="import operator\nimport cPickle\ntotal = reduce(operator.div, [8, 2])\n",
        after="import operator\nimport cPickle\nimport slim_ext.py2\n\n"
              "total = reduce(slim_ext.py2.div, [8, 2])\n",
    ),
    Reported(
        "an augmented target read twice",
        "x = xrange(3)\nsizes[next(i)] /= 2\n",
        [attention(2, "not a plain name", fix="slim_ext.py2.idiv")],
    ),
    # from __future__ import division: / divided truly on Python 2 too.
    Noop("python 2 code with division",
         "from __future__ import division\nx = xrange(3)\nhalf = len(x) / 2\n"),
    # Python 3 code's / is Python 3's.
    Noop("python 3 code", "half = len(x) / 2\nratio = a / b\n"),
]
