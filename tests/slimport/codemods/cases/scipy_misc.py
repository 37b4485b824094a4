"""scipy_misc: scipy.misc's removed names -> scipy.special / slim_ext.scipy_misc."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

CASES = [
    Edit(
        # magenta's image_stylization image_utils and coconet lib_evaluation.
        "every spelling",
        before="""
            import scipy.misc
            from scipy import misc
            from scipy.misc import logsumexp, imresize

            def load(path):
                image = scipy.misc.imread(path)
                misc.imsave('/tmp/out.png', imresize(image, (64, 64)))
                return logsumexp(image)
        """,
        after="""
            from scipy.special import logsumexp
            from slim_ext.scipy_misc import imresize
            import slim_ext.scipy_misc

            def load(path):
                image = slim_ext.scipy_misc.imread(path)
                slim_ext.scipy_misc.imsave('/tmp/out.png', imresize(image, (64, 64)))
                return logsumexp(image)
        """,
    ),
    Edit(
        "through scipy alone",
        before="""
            import scipy

            def score(x):
                return scipy.misc.logsumexp(x) + scipy.misc.comb(5, 2)
        """,
        after="""
            import scipy.special

            def score(x):
                return scipy.special.logsumexp(x) + scipy.special.comb(5, 2)
        """,
    ),
    Edit(
        "scipy.misc kept for what stays in it",
        before="""
            import scipy.misc

            x = scipy.misc.comb(4, 2)
            y = scipy.misc.imrotate(image, 30)
        """,
        after="""
            import scipy.misc
            import scipy.special

            x = scipy.special.comb(4, 2)
            y = scipy.misc.imrotate(image, 30)
        """,
        findings=[edit(3, "scipy.special.comb"), attention(4, "imrotate", fix="rotate")],
    ),
    Reported(
        "names with no successor",
        "from scipy import misc\nrotated = misc.imrotate(image, 30)\nimg = misc.face()\n",
        [attention(2, "scipy.misc.imrotate", fix="rotate"),
         attention(3, "scipy.misc.face", fix="scipy.datasets.face()")],
    ),
    Reported(
        "an import of a name with no successor",
        "from scipy.misc import imfilter\n",
        [attention(1, "scipy.misc.imfilter", fix="ImageFilter")],
    ),
    Noop("scipy.special already", "from scipy.special import logsumexp\ny = logsumexp(x)\n"),
    Noop("another misc", "from mylib import misc\nimage = misc.imread(path)\n"),
    # tensorlayer's prepro.py: chains broken by a call or a subscript.
    Noop("scipy's other modules, and chains through calls",
         "import scipy\nimport scipy.ndimage as ndi\n\ndef f(x):\n"
         "    return ndi.zoom(x, 2), load().misc.imread(p), x[0].misc\n"),
    Noop("tf2 code",
         "import tensorflow as tf\nimport scipy.misc\n"
         "x = tf.image.resize(y, (2, 2), antialias=True)\nz = scipy.misc.imread(p)\n"),
]
