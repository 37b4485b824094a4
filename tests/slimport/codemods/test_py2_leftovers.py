"""py2_leftovers: Python 2-only builtins and dict methods, ported where the meaning is certain."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.py2_leftovers import Py2LeftoversCommand, iter_methods_defined
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

    def test_itertools_python2_names(self) -> None:
        before = """
            import itertools
            import itertools as it

            for a, b in itertools.izip(xs, ys):
                pass
            squares = it.imap(square, xs)
            kept = list(itertools.ifilter(None, xs))
            pairs = itertools.izip_longest(xs, ys, fillvalue=0)
        """
        after = """
            import itertools
            import itertools as it

            for a, b in zip(xs, ys):
                pass
            squares = map(square, xs)
            kept = list(filter(None, xs))
            pairs = itertools.zip_longest(xs, ys, fillvalue=0)
        """
        self.assertCodemod(before, after)

    def test_dict_methods_when_no_class_of_the_tree_defines_them(self) -> None:
        # The result of a call (eval_metric_ops, a config's map): ported only when the
        # rewrite saw the whole tree and no ``def iteritems`` in it.
        before = """
            metric_ops = evaluator.get_estimator_eval_metric_ops(eval_dict)
            for key, (value_op, _) in metric_ops.iteritems():
                pass
            names = [n for n in load().iterkeys()]
        """
        after = """
            metric_ops = evaluator.get_estimator_eval_metric_ops(eval_dict)
            for key, (value_op, _) in metric_ops.items():
                pass
            names = [n for n in load().keys()]
        """
        self.assertCodemod(before, after, tree_iter_methods=frozenset())



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
    # izip of a module that is not itertools, or with zip rebound.
    "import myitertools as itertools\nz = itertools.izip(a, b)\n",
    "from itertools import izip\nz = izip(a, b)\n",
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
    ("import itertools\nzip = 3\nz = itertools.izip(a, b)\n", "itertools.izip"),
])
def test_uncertain_uses_are_reported_and_left(source: str, word: str) -> None:
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention" and word in finding.message and finding.fix


@pytest.mark.parametrize("defined", [frozenset({"iteritems"}), None])
def test_an_iteritems_some_class_of_the_tree_defines_is_reported(defined) -> None:
    source = "for k, v in config.iteritems():\n    pass\n"
    code, findings = run(source, tree_iter_methods=defined)
    assert code == source
    assert [f.kind for f in findings] == ["attention"]


def test_iter_methods_defined_reads_every_file() -> None:
    texts = ["class A:\n    def iteritems(self):\n        pass\n", "def iterkeys (d): pass\n",
             "x.itervalues()\n# def items\n"]
    assert iter_methods_defined(texts) == {"iteritems", "iterkeys"}


@pytest.mark.parametrize("table, ported", [
    ("TABLE = {}\n", True),
    ("class Table:\n    def iteritems(self):\n        return iter(())\n", False),
])
def test_slimport_rewrite_reads_the_whole_tree_for_iteritems(tmp_path, slimport_cli, table,
                                                             ported) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "table.py").write_text(table)
    use = "def show(t):\n    for k, v in t.config.iteritems():\n        print(k)\n"
    (tmp_path / "src" / "use.py").write_text(use)
    ran = slimport_cli("rewrite", str(tmp_path / "src"))
    assert ran.returncode == 0, ran.stderr
    assert ("t.config.items()" in (tmp_path / "src" / "use.py").read_text()) == ported
