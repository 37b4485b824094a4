"""py2_leftovers: Python 2-only builtins and dict methods, ported where the meaning is certain."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.py2_leftovers import Py2LeftoversCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, Py2LeftoversCommand)


class TestPy2Leftovers(IdempotentCodemodTest):
    TRANSFORM = Py2LeftoversCommand

    def test_builtins(self) -> None:
        before = """
            import sys

            LIMIT = sys.maxint
            for step in xrange(10):
                label = unicode(step) if isinstance(step, (int, long)) else basestring
            answer = raw_input('continue? ')
        """
        after = """
            import sys

            LIMIT = sys.maxsize
            for step in range(10):
                label = str(step) if isinstance(step, (int, int)) else str
            answer = input('continue? ')
        """
        self.assertCodemod(before, after)

    def test_reduce_gets_its_import(self) -> None:
        before = """
            import numpy as np

            size = reduce(lambda a, b: a * b, shape)
        """
        after = """
            import numpy as np
            from functools import reduce

            size = reduce(lambda a, b: a * b, shape)
        """
        self.assertCodemod(before, after)

    def test_dict_methods_on_certain_dicts(self) -> None:
        before = """
            import os

            counts = {}
            for name, count in counts.iteritems():
                pass
            env = [k for k in os.environ.iterkeys()]

            def report(**kwargs):
                table = dict(kwargs)
                return list(kwargs.iteritems()) + list(table.itervalues())
        """
        after = """
            import os

            counts = {}
            for name, count in counts.items():
                pass
            env = [k for k in os.environ.keys()]

            def report(**kwargs):
                table = dict(kwargs)
                return list(kwargs.items()) + list(table.values())
        """
        self.assertCodemod(before, after)

    def test_the_builtin_in_one_function_and_a_parameter_in_another(self) -> None:
        before = """
            def steps(n):
                return list(xrange(n))

            def other(xrange):
                return xrange(3)
        """
        after = """
            def steps(n):
                return list(range(n))

            def other(xrange):
                return xrange(3)
        """
        self.assertCodemod(before, after)


NOOP = [
    # Python 3 code.
    "import sys\nfor i in range(sys.maxsize):\n    pass\nd = {}\nd.items()\n",
    # The file binds the name: module level, a global, an import, a class attribute.
    "from six.moves import xrange\nfor i in xrange(3):\n    pass\n",
    # TF2 code's leftovers are its authors' business (TensorFlow's own autograph).
    "import sys\nimport tensorflow as tf\nMAX_SIZE = sys.maxint\nx = tf.constant(1)\n",
    "import sys\nfrom tensorflow.python.framework import ops\nMAX_SIZE = sys.maxint\n",
    # six's own iteritems works on Python 3 (met in tf_slim and TensorFlow).
    "import six\nfor k, v in six.iteritems({'a': 1}):\n    pass\n",
    "long = int\nx = long(3)\n",
    "def setup():\n    global unicode\n    unicode = str\n\ndef use(x):\n    return unicode(x)\n",
    "from functools import reduce\ny = reduce(f, xs)\n",
    # Names in other roles: attributes, keywords, parameters, strings.
    "y = obj.long\nz = f(long=3)\nw = 'xrange(3)'\n",
    "def f(unicode=None):\n    return unicode\n",
    "import numpy as np\nx = np.unicode_\n",
    # sys that is not the sys module.
    "import mysys as sys\nx = sys.maxint\n",
    # An iteritems the tree defines itself.
    ("class Table:\n    def iteritems(self):\n        return iter(())\n"
     "for k in Table().iteritems():\n    pass\n"),
    # A dict reassigned to something else is not certainly a dict.
    "d = {}\nd = load()\ndef iteritems(x):\n    pass\nfor k in d.iteritems():\n    pass\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


@pytest.mark.parametrize("source, word", [
    ("for k, v in config.iteritems():\n    pass\n", "config.iteritems"),
    ("d = {}\nd = load()\nfor k in d.iterkeys():\n    pass\n", "d.iterkeys"),
    ("from helpers import *\nfor i in xrange(3):\n    pass\n", "`xrange`"),
])
def test_uncertain_uses_are_reported_and_left(source: str, word: str) -> None:
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention" and word in finding.message and finding.fix
