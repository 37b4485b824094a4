"""py2_lists: Python 2 lists (dict views, range, zip, map, filter) where a list is needed."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

# Results stored and used as lists, in a file whose first line shows it is Python 2 code
# (the same code without that line is Python 3 code, left as it is).
PYTHON_2_LISTS = """
from __future__ import print_function, division
import tensorflow as tf
from tensorflow.python.util import nest

def apply(fn, x):
    out = map(fn, nest.flatten(x))
    return nest.pack_sequence_as(x, out)

def transpose_dims(n, i, j):
    dim_list = range(n)
    dim_list[i], dim_list[j] = dim_list[j], dim_list[i]
    return tf.zeros(dim_list)
"""

CASES = [
    Edit(
        "indexed views",
        before="""
            first = features[features.keys()[0]]
            arguments = scope.values()[0]
            name = dtype.fields.keys()[0]
            head = zip(names, values)[:2]
        """,
        after="""
            first = features[list(features.keys())[0]]
            arguments = list(scope.values())[0]
            name = list(dtype.fields.keys())[0]
            head = list(zip(names, values))[:2]
        """,
    ),
    Edit(
        "operands of plus and times",
        before="""
            pixels = range(1, 3 * 2 + 1) * 6
            names = defaults.keys() + ['extra']
            steps = [0] + range(10, 100, 10)
        """,
        after="""
            pixels = list(range(1, 3 * 2 + 1)) * 6
            names = list(defaults.keys()) + ['extra']
            steps = [0] + list(range(10, 100, 10))
        """,
    ),
    Edit(
        "arguments of tensorflow and numpy",
        before="""
            import numpy as np
            import tensorflow as tf

            tensors = {'x': tf.placeholder(tf.float32)}
            stacked = tf.stack(tensors.values())
            mean = np.mean(precisions.values())
            image = tf.constant(range(1, 7) * 6, dtype=tf.float32)
        """,
        after="""
            import numpy as np
            import tensorflow as tf

            tensors = {'x': tf.placeholder(tf.float32)}
            stacked = tf.stack(list(tensors.values()))
            mean = np.mean(list(precisions.values()))
            image = tf.constant(list(range(1, 7)) * 6, dtype=tf.float32)
        """,
    ),
    Edit(
        "a range stored under a name the file concatenates",
        before="""
            import tensorflow as tf

            def manual_stepping(boundaries, rates):
                warmup_steps = range(boundaries[0])
                boundaries = warmup_steps + boundaries
                return tf.train.piecewise_constant(tf.train.get_global_step(), boundaries, rates)
        """,
        after="""
            import tensorflow as tf

            def manual_stepping(boundaries, rates):
                warmup_steps = list(range(boundaries[0]))
                boundaries = warmup_steps + boundaries
                return tf.train.piecewise_constant(tf.train.get_global_step(), boundaries, rates)
        """,
    ),
    Edit(
        "stored and returned iterators and views",
        before="""
            import tf_slim

            def strides(heights, widths):
                anchor_strides = zip(heights, widths)
                sizes = map(int, widths)
                return anchor_strides, sizes

            def extract_features(feature_maps):
                names = feature_maps.keys()
                return feature_maps.values()
        """,
        after="""
            import tf_slim

            def strides(heights, widths):
                anchor_strides = list(zip(heights, widths))
                sizes = list(map(int, widths))
                return anchor_strides, sizes

            def extract_features(feature_maps):
                names = list(feature_maps.keys())
                return list(feature_maps.values())
        """,
    ),
    # Issue 30: lazy map/filter/zip where a sequence is needed (a held-out project's
    # nest.pack_sequence_as(structure, map(f, xs)) failed 12 of its tests).
    Edit(
        "a map handed to nest, a zip measured",
        before="""
            import tensorflow as tf
            from tensorflow.python.util import nest

            def restore(structure, flat, names, values):
                flat = [tf.placeholder_with_default(x, None) for x in flat]
                state = nest.pack_sequence_as(structure, map(tf.convert_to_tensor, flat))
                return state, len(zip(names, values)), len(filter(None, names))
        """,
        after="""
            import tensorflow as tf
            from tensorflow.python.util import nest

            def restore(structure, flat, names, values):
                flat = [tf.placeholder_with_default(x, None) for x in flat]
                state = nest.pack_sequence_as(structure, list(map(tf.convert_to_tensor, flat)))
                return state, len(list(zip(names, values))), len(list(filter(None, names)))
        """,
    ),
    Edit(
        "iterators tested for truth and compared, in TF1 code",
        before="""
            import tensorflow as tf

            def trainable(variables, names):
                x = tf.placeholder(tf.float32)
                if not filter(lambda v: v.trainable, variables):
                    raise ValueError('nothing to train')
                chosen = filter(None, names) or ['default']
                same = zip(names, names) == [('a', 'a')]
                return x, chosen, same
        """,
        after="""
            import tensorflow as tf

            def trainable(variables, names):
                x = tf.placeholder(tf.float32)
                if not list(filter(lambda v: v.trainable, variables)):
                    raise ValueError('nothing to train')
                chosen = list(filter(None, names)) or ['default']
                same = list(zip(names, names)) == [('a', 'a')]
                return x, chosen, same
        """,
    ),
    # Issue 40: Python 2 code (a __future__ line, no TF1 sign) stores a map, a range, a
    # zip and uses each as a list later: Python 2 stored lists.
    Edit(
        "python 2 code: results stored and used as lists",
        before=PYTHON_2_LISTS + """
def names(d):
    keys = d.keys()
    keys.sort()
    pairs = zip(keys, keys)
    return pairs
""",
        after="""
            from __future__ import print_function, division
            import tensorflow as tf
            from tensorflow.python.util import nest

            def apply(fn, x):
                out = list(map(fn, nest.flatten(x)))
                return nest.pack_sequence_as(x, out)

            def transpose_dims(n, i, j):
                dim_list = list(range(n))
                dim_list[i], dim_list[j] = dim_list[j], dim_list[i]
                return tf.zeros(dim_list)

            def names(d):
                keys = list(d.keys())
                keys.sort()
                pairs = list(zip(keys, keys))
                return pairs
        """,
        findings=[edit(6, "stored in `out`, which the file hands to a function that needs a "
                       "sequence; Python 2 code (from __future__ import division (line 1)"),
                  edit(10, "stored in `dim_list`, which the file assigns items of"),
                  edit(15, "stored in `keys`, which the file sorts in place"),
                  edit(17, "stored in `pairs`, which the file returns")],
    ),
    # Python 2 only (xrange): every stored or returned iterator and view, as in TF1 code.
    Edit(
        "python 2 only code: stored and returned iterators",
        before="""
            import tensorflow as tf

            def steps(n):
                sizes = map(int, xrange(n))
                return zip(sizes, sizes)
        """,
        after="""
            import tensorflow as tf

            def steps(n):
                sizes = list(map(int, xrange(n)))
                return list(zip(sizes, sizes))
        """,
    ),
    # HParams.values() is a dict: what the file updates as a mapping was no list
    # (magenta's merge_hparams; wrapping it broke 40 of its tests).
    Noop("values() stored and used as a mapping",
         "import tensorflow as tf\n"
         "def merge_hparams(hparams_1, hparams_2):\n"
         "    x = tf.placeholder(tf.float32)\n"
         "    hparams_map = hparams_1.values()\n"
         "    hparams_map.update(hparams_2.values())\n"
         "    return tf.contrib.training.HParams(**hparams_map)\n"),
    Noop("a view measured, iterators in plain python tested",
         "n = len(d.keys())\nm = len(range(3))\nif filter(None, xs):\n    pass\n"
         "same = zip(a, b) == c\n"),
    Noop("len rebound",
         "def len(x):\n    return 0\nn = len(zip(a, b))\n"),
    Reported("list rebound", "list = []\nfirst = d.keys()[0]\n",
             [attention(2, "`list` is rebound", fix="builtins.list")]),
    # Iterating, measuring, membership: views and iterators do all of it.
    Noop("iterated, measured, tested for membership",
         "for k in d.keys():\n    pass\nn = len(d.values())\nok = 'a' in d.keys()\n"),
    Noop("comprehension and sum over iterators",
         "pairs = [a + b for a, b in zip(xs, ys)]\ntotal = sum(map(int, xs))\n"),
    Noop("sorted, an explicit list, a stored range",
         "ordered = sorted(d.items())\nfirst = list(d.keys())[0]\nsteps = range(10)\n"),
    Noop("set operations on views",
         "kept = set(d.keys()) - {'a'}\nboth = d.keys() & other.keys()\n"),
    # Builtins rebound, or list rebound, or a * import.
    Noop("range rebound",
         "def range(n):\n    return [n]\nx = range(3) * 2\n"),
    Noop("zip from six.moves",
         "from six.moves import zip\nhead = zip(a, b)[0]\n"),
    Noop("a star import may bind zip",
         "from helpers import *\nhead = zip(a, b)[0]\n"),
    # A star argument is iterated; a method call with arguments is no view.
    Noop("a star argument and a method call with arguments",
         "import tensorflow as tf\ngroup = tf.group(*updates.values())\nv = cfg.values('a')[0]\n"),
    # Calls of other libraries, and range stored or returned (a range indexes and
    # measures like a list); a view stored inside another expression.
    Noop("other libraries' calls and an indexed range",
         "import json\ntext = json.dumps(d.keys)\nr = range(5)\nlabel = r[0]\n"),
    Noop("a returned range and measured views",
         "def steps(n):\n    return range(n)\n\npairs = sorted(d.items())\nn = len(d.keys())\n"),
    # Plain Python (tf_keras' object_identity.py): a stored or returned view may be meant.
    Noop("plain python may mean the view",
         "def keys(self):\n    keys = self._storage.keys()\n    return self._storage.values()\n"),
    # The same constructs in code with no Python 2 evidence stay: a Python 3 program
    # may mean the iterator (and fails on its own where it indexes one).
    Noop("python 3 code: results stored and used",
         PYTHON_2_LISTS.split("\n", 2)[2]),
    # Python 2 code whose stored results are only iterated, or a range indexed and
    # measured (as a list is), or a view measured.
    Noop("python 2 code: stored results used as iterables",
         """
            from __future__ import division

            def total(xs, d):
                doubled = map(lambda x: 2 * x, xs)
                steps = range(len(xs))
                first = steps[0] + len(steps)
                keys = d.keys()
                return sum(doubled) + first + len(keys)
        """),
    # TF2 code's leftovers are its authors' business.
    Noop("tf2 code",
         "import tensorflow as tf\nx = tf.image.resize(y, (2, 2), antialias=True)\n"
         "first = d.keys()[0]\n"),
]
