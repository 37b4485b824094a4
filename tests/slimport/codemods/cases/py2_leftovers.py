"""py2_leftovers: Python 2-only builtins and dict methods, ported where the meaning is certain."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "builtins",
        before="""
            import sys

            LIMIT = sys.maxint
            for step in xrange(10):
                label = unicode(step) if isinstance(step, (int, long)) else basestring
            answer = raw_input('continue? ')
        """,
        after="""
            import sys

            LIMIT = sys.maxsize
            for step in range(10):
                label = str(step) if isinstance(step, (int, int)) else str
            answer = input('continue? ')
        """,
    ),
    Edit(
        "reduce gets its import",
        before="""
            import numpy as np

            size = reduce(lambda a, b: a * b, shape)
        """,
        after="""
            import numpy as np
            from functools import reduce

            size = reduce(lambda a, b: a * b, shape)
        """,
    ),
    Edit(
        "dict methods on certain dicts",
        before="""
            import os

            counts = {}
            for name, count in counts.iteritems():
                pass
            env = [k for k in os.environ.iterkeys()]

            def report(**kwargs):
                table = dict(kwargs)
                return list(kwargs.iteritems()) + list(table.itervalues())
        """,
        after="""
            import os

            counts = {}
            for name, count in counts.items():
                pass
            env = [k for k in os.environ.keys()]

            def report(**kwargs):
                table = dict(kwargs)
                return list(kwargs.items()) + list(table.values())
        """,
    ),
    Edit(
        "the builtin in one function and a parameter in another",
        before="""
            def steps(n):
                return list(xrange(n))

            def other(xrange):
                return xrange(3)
        """,
        after="""
            def steps(n):
                return list(range(n))

            def other(xrange):
                return xrange(3)
        """,
    ),
    Edit(
        "itertools python2 names",
        before="""
            import itertools
            import itertools as it

            for a, b in itertools.izip(xs, ys):
                pass
            squares = it.imap(square, xs)
            kept = list(itertools.ifilter(None, xs))
            pairs = itertools.izip_longest(xs, ys, fillvalue=0)
        """,
        after="""
            import itertools
            import itertools as it

            for a, b in zip(xs, ys):
                pass
            squares = map(square, xs)
            kept = list(filter(None, xs))
            pairs = itertools.zip_longest(xs, ys, fillvalue=0)
        """,
    ),
    # The result of a call (eval_metric_ops, a config's map): ported only when the
    # rewrite saw the whole tree and no ``def iteritems`` in it.
    Edit(
        "dict methods when no class of the tree defines them",
        before="""
            metric_ops = evaluator.get_estimator_eval_metric_ops(eval_dict)
            for key, (value_op, _) in metric_ops.iteritems():
                pass
            names = [n for n in load().iterkeys()]
        """,
        after="""
            metric_ops = evaluator.get_estimator_eval_metric_ops(eval_dict)
            for key, (value_op, _) in metric_ops.items():
                pass
            names = [n for n in load().keys()]
        """,
        options={"tree_methods": frozenset()},
    ),
    Edit(
        "it.next() on certain iterators",
        before="""
            import csv
            import itertools

            def batches(xs):
                for x in xs:
                    yield x

            header = csv.reader(open(path)).next()
            lines = iter(data)
            first = lines.next()
            pairs = enumerate(xs)
            index, value = pairs.next()
            counter = itertools.count()
            step = counter.next()
            batch = batches(xs).next()
            squares = (x * x for x in xs)
            smallest = squares.next()
        """,
        after="""
            import csv
            import itertools

            def batches(xs):
                for x in xs:
                    yield x

            header = next(csv.reader(open(path)))
            lines = iter(data)
            first = next(lines)
            pairs = enumerate(xs)
            index, value = next(pairs)
            counter = itertools.count()
            step = next(counter)
            batch = next(batches(xs))
            squares = (x * x for x in xs)
            smallest = next(squares)
        """,
    ),
    Edit(
        "it.next() in a function, its iterator bound in it",
        before="""
            import tensorflow as tf

            def first_record(path):
                records = tf.python_io.tf_record_iterator(path)
                return records.next()
        """,
        after="""
            import tensorflow as tf

            def first_record(path):
                records = tf.python_io.tf_record_iterator(path)
                return next(records)
        """,
    ),
    Reported("next() of an unknown receiver",
             "def first(reader):\n    return reader.next()\n",
             [attention(2, "reader.next()", fix="next(reader)")]),
    Reported("next() of a name bound to an iterator and to a list",
             "it = iter(xs)\nif flag:\n    it = [1, 2]\nx = it.next()\n",
             [attention(4, "it.next()", fix="next(it)")]),
    Reported("next() of a certain iterator with next rebound",
             "next = 3\nx = iter(xs).next()\n",
             [attention(2, "iter(xs).next()", fix="builtins.next(iter(xs))")]),
    # Uses whose meaning is uncertain are reported and left.
    Reported("iteritems of an unknown receiver", "for k, v in config.iteritems():\n    pass\n",
             [attention(1, "config.iteritems", fix="use .items()")]),
    Reported("iterkeys of a dict reassigned",
             "d = {}\nd = load()\nfor k in d.iterkeys():\n    pass\n",
             [attention(3, "d.iterkeys", fix="use .keys()")]),
    Reported("xrange under a star import",
             "from helpers import *\nfor i in xrange(3):\n    pass\n",
             [attention(2, "`xrange`", fix="use range")]),
    Reported("izip with zip rebound", "import itertools\nzip = 3\nz = itertools.izip(a, b)\n",
             [attention(3, "itertools.izip", fix="use builtins.zip")]),
    # An iteritems some class of the tree defines (or an unknown tree) is reported.
    Reported("iteritems a class of the tree defines",
             "for k, v in config.iteritems():\n    pass\n",
             [attention(1, "config.iteritems", fix="use .items()")],
             options={"tree_methods": frozenset({"iteritems"})}),
    # Python 3 code.
    Noop("python 3 code",
         "import sys\nfor i in range(sys.maxsize):\n    pass\nd = {}\nd.items()\n"),
    # The file binds the name: module level, a global, an import, a class attribute.
    Noop("xrange from six.moves",
         "from six.moves import xrange\nfor i in xrange(3):\n    pass\n"),
    # TF2 code's leftovers are its authors' business (TensorFlow's own autograph).
    # Python 2 code is TF1-era code, whatever TF API it uses (issue 40): sys.maxint is
    # Python 2 evidence of its own.
    Edit("python 2 code that uses no TF1 API",
         before="import sys\nimport tensorflow as tf\nMAX_SIZE = sys.maxint\nx = tf.constant(1)\n",
         after="import sys\nimport tensorflow as tf\nMAX_SIZE = sys.maxsize\nx = tf.constant(1)\n"),
    Edit("python 2 code among tensorflow's own modules",
         before="import sys\nfrom tensorflow.python.framework import ops\nMAX_SIZE = sys.maxint\n",
         after="import sys\nfrom tensorflow.python.framework import ops\nMAX_SIZE = sys.maxsize\n"),
    Edit("a __future__ line makes TF2-looking code python 2 code",
         before="""
            from __future__ import print_function
            import tensorflow as tf

            def pairs(d):
                return [(k, tf.constant(v)) for k, v in d.iteritems()]
        """,
         after="""
            from __future__ import print_function
            import tensorflow as tf

            def pairs(d):
                return [(k, tf.constant(v)) for k, v in d.items()]
        """,
         options={"tree_methods": frozenset({"pairs"})}),
    Edit("unichr and intern",
         before="c = unichr(65)\nkey = intern(name)\n",
         after="from sys import intern\n\nc = chr(65)\nkey = intern(name)\n"),
    Reported("builtins with no one python 3 spelling",
             "execfile('config.py')\ny = apply(f, args)\nview = buffer(data, 4)\n",
             [attention(1, "`execfile` is a Python 2 builtin", fix="exec(open(path)"),
              attention(2, "`apply`", fix="f(*args, **kwargs)"),
              attention(3, "`buffer`", fix="memoryview(x)")]),
    # TF2 code with no Python 2 evidence is its authors': a name it binds itself, a
    # Python 2 name in a branch for Python 2, a dict method on a receiver that may be
    # another library's (TF 2.21's own lite/python/op_hint.py).
    Noop("tf2 code that binds a python 2 name itself",
         """
            import tensorflow as tf
            try:
                unicode
            except NameError:
                unicode = str

            x = tf.constant(unicode('a'))
        """),
    Noop("tf2 code with a python 2 branch",
         "import sys\nimport tensorflow as tf\nif sys.version_info >= (3,):\n"
         "    MAX_SIZE = sys.maxsize\nelse:\n    MAX_SIZE = sys.maxint\n"),
    Noop("tf2 code calling iteritems",
         "import tensorflow as tf\nfor k, v in table.iteritems():\n    tf.constant(v)\n",
         options={"tree_methods": frozenset()}),
    # six's own iteritems works on Python 3 (met in tf_slim and TensorFlow).
    Noop("six.iteritems",
         "import six\nfor k, v in six.iteritems({'a': 1}):\n    pass\n"),
    Noop("long bound at module level",
         "long = int\nx = long(3)\n"),
    Noop("unicode bound by a global statement",
         "def setup():\n    global unicode\n    unicode = str\n\ndef use(x):\n"
         "    return unicode(x)\n"),
    Noop("reduce imported already",
         "from functools import reduce\ny = reduce(f, xs)\n"),
    # Names in other roles: attributes, keywords, parameters, strings.
    Noop("attributes, keywords and strings",
         "y = obj.long\nz = f(long=3)\nw = 'xrange(3)'\n"),
    Noop("a parameter named unicode",
         "def f(unicode=None):\n    return unicode\n"),
    Noop("numpy's unicode_",
         "import numpy as np\nx = np.unicode_\n"),
    # sys that is not the sys module.
    Noop("another module as sys",
         "import mysys as sys\nx = sys.maxint\n"),
    # An iteritems the tree defines itself.
    Noop("an iteritems the file defines",
         "class Table:\n    def iteritems(self):\n        return iter(())\n"
         "for k in Table().iteritems():\n    pass\n"),
    # izip of a module that is not itertools, or with zip rebound.
    Noop("izip of another module",
         "import myitertools as itertools\nz = itertools.izip(a, b)\n"),
    Noop("izip imported from itertools",
         "from itertools import izip\nz = izip(a, b)\n"),
    # A next method the file or the tree defines, or next() with arguments.
    Noop("a next method the file defines",
         "class Batches(object):\n    def next(self):\n        return 1\n"
         "def first(b):\n    return b.next()\n"),
    Noop("a next method the tree defines",
         "def first(b):\n    return b.next()\n",
         options={"tree_methods": frozenset({"next"})}),
    Noop("next of a module, and with arguments",
         "import six\nx = six.next(it)\ny = pager.next(3)\nz = iter(xs).next\n"),
    Noop("next() already", "x = next(iter(xs))\n"),
    # A dict reassigned to something else is not certainly a dict.
    Noop("a dict reassigned, and an iteritems defined",
         "d = {}\nd = load()\ndef iteritems(x):\n    pass\nfor k in d.iteritems():\n    pass\n"),
]
