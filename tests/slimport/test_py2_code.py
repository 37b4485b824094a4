"""slimport.analysis.py2_code: whether a file is Python 2 code, and the evidence."""
from __future__ import annotations

import ast
import textwrap

import pytest

from slimport.analysis.py2_code import (
    PY2_BUILTINS,
    PY2_MODULE_NAMES,
    PY2_MODULES,
    SPECIAL_METHODS,
    describe,
    is_python2_code,
    is_python2_only,
    may_be_python2_only,
    python2_evidence,
    python3_only_syntax,
)


def _evidence(source: str):
    tree = ast.parse(textwrap.dedent(source))
    return [(e.line, e.what, e.only) for e in python2_evidence(tree)]


# source -> every piece of evidence: (line, what, Python 2 only).
EVIDENCE = [
    ("for i in xrange(3):\n    s = unicode(i)\n",
     [(1, "xrange", True), (2, "unicode", True)]),
    ("import sys\nBIG = sys.maxint\n", [(2, "sys.maxint", True)]),
    ("import cPickle\nimport urllib2\n",
     [(1, "import cPickle", True), (2, "import urllib2", True)]),
    ("from string import maketrans\n", [(1, "from string import maketrans", True)]),
    ("import string\nt = string.maketrans('a', 'b')\n", [(2, "string.maketrans", True)]),
    ("import itertools as it\npairs = it.izip(a, b)\n", [(2, "itertools.izip", True)]),
    ("names.sort(cmp=compare)\nother = sorted(xs, cmp=compare)\n",
     [(1, "sort(cmp=...)", True), (2, "sort(cmp=...)", True)]),
    ("class Box(object):\n    def __nonzero__(self):\n        return True\n",
     [(1, "Box.__nonzero__ without __bool__", True)]),
    ("import os\nhere = os.getcwdu()\n", [(2, "os.getcwdu", True)]),
    # Written for Python 2 (and perhaps 3 too): __future__ lines.
    ("from __future__ import absolute_import, division\nfrom __future__ import print_function\n",
     [(1, "from __future__ import absolute_import", False),
      (1, "from __future__ import division", False),
      (2, "from __future__ import print_function", False)]),
]

# Python 3 code: no evidence.
NO_EVIDENCE = [
    "from __future__ import annotations\nx: int = 1\n",
    "long = int\nx = long(3)\n",                               # the file binds the name
    "from functools import reduce\ny = reduce(f, xs)\n",
    "def f(unicode=None):\n    return unicode\n",
    "if (long := int):\n    x = long(3)\n",                  # bound by :=
    "def f():\n    return [(xrange := range) for _ in ()]\n",  # := in a nested scope
    "class C:\n    def m(self, *args, xrange=range, **kw):\n        return xrange(3)\n",
    "from six.moves import xrange\nfor i in xrange(3):\n    pass\n",
    "import six\nfor k, v in six.iteritems(d):\n    pass\n",  # six's function, not a method
    "from mod import *\nfor i in xrange(3):\n    pass\n",       # the * import may bind it
    "import mysys as sys\nx = sys.maxint\n",                   # not the sys module
    "class Box(object):\n    def __nonzero__(self):\n        return True\n"
    "    __bool__ = __nonzero__\n",                             # written for both
    "x = obj.long\ny = f(long=3)\nz = 'xrange(3)'\n",
    "names.sort(key=len)\n",
    # Code written for Python 3 too: guarded Python 2 names.
    "try:\n    import cPickle as pickle\nexcept ImportError:\n    import pickle\n",
    "import six\nif six.PY2:\n    text = unicode(s)\nelse:\n    text = str(s)\n",
    "import sys\nif sys.version_info[0] < 3:\n    MAX = sys.maxint\n",
    # Methods on receivers the file cannot show are Python 2's types (pandas < 2's
    # Series.iteritems; TF 2.21's op_hint.py calls .iteritems() in a __str__).
    "for k, v in series.iteritems():\n    pass\nf = method.im_func\nok = d.has_key('a')\n",
]


@pytest.mark.parametrize("source, expected", EVIDENCE)
def test_evidence(source, expected):
    assert _evidence(source) == expected


@pytest.mark.parametrize("source", NO_EVIDENCE)
def test_no_evidence(source):
    assert _evidence(source) == []
    assert not is_python2_code(ast.parse(source))


def test_only_and_written_for_python2():
    future = ast.parse("from __future__ import division\nx = 1 / 2\n")
    assert is_python2_code(future) and not is_python2_only(future)
    old = ast.parse("x = xrange(3)\n")
    assert is_python2_code(old) and is_python2_only(old)


def test_describe_names_python2_only_evidence_first():
    tree = ast.parse("from __future__ import division\nimport a\nimport b\nx = xrange(3)\n"
                     "y = unicode(x)\nz = long(y)\n")
    assert describe(python2_evidence(tree)) == \
        "xrange (line 4), unicode (line 5), long (line 6) and 1 more"


def _every_python2_only_spelling():
    for name in sorted(PY2_BUILTINS):
        yield f"x = {name}(1)\n"
        yield f"types = (int, {name})\n"
    for module in sorted(PY2_MODULES):
        yield f"import {module}\n"
        yield f"from {module} import thing\n"
    for module, names in sorted(PY2_MODULE_NAMES.items()):
        for name in sorted(names):
            yield f"import {module}\nx = {module}.{name}\n"
            yield f"from {module} import {name}\n"
            yield f"from {module} import (a,\n    {name})\n"
    for method in sorted(SPECIAL_METHODS):
        yield f"class Box(object):\n    def {method}(self, other=None):\n        return 1\n"
    yield "xs.sort(cmp = compare)\n"
    yield "if 1:\n\timport cPickle\n"


@pytest.mark.parametrize("source", list(_every_python2_only_spelling()))
def test_the_text_check_passes_every_file_with_python2_only_evidence(source):
    # The check rules files out of the tree_python2 fact unparsed: it must never rule
    # out one that has such evidence.
    assert is_python2_only(ast.parse(source)), source
    assert may_be_python2_only(source)


# No Python 2-only word where the text check reads one: ruled out unparsed.
RULED_OUT = [
    "y = tf.reduce_mean(x)\nopt.apply_gradients(g)\n",
    "self._apply(x)\nmy_long(3)\nbuffered = 1\n",
    "dataset = dataset.apply(fn)\ntotal = functools.reduce(add, xs)\n",
    "longest = max(xs)  # long ago\n",
    "import cPickles\nfrom sys import maxints\n",
    "x = 'unicode_literals'\nsorted(xs, key=cmpkey)\n",
    "def __divide__(self): pass\n",
]


@pytest.mark.parametrize("source", RULED_OUT)
def test_the_text_check_rules_out_words_inside_other_words(source):
    assert not may_be_python2_only(source)


# source -> the first construct Python 2 could not parse: (line, what); None for none.
# (Each was compiled with Python 2.7 when this table was written: SyntaxError exactly
# where a construct is named.)
PYTHON3_SYNTAX = [
    ("x = 1\nname = f'{x}'\n", (2, "an f-string")),
    ("if (n := 3):\n    pass\n", (1, "`:=`")),
    ("def f():\n    x = 1\n    def g():\n        nonlocal x\n", (4, "`nonlocal`")),
    ("def f():\n    yield from range(3)\n", (2, "`yield from`")),
    ("x: int = 1\n", (1, "a variable annotation")),
    ("async def f():\n    await g()\n", (1, "`async def`")),
    ("def f(a: int):\n    pass\n", (1, "an annotation or a keyword-only parameter")),
    ("def f(a) -> int:\n    pass\n", (1, "an annotation or a keyword-only parameter")),
    ("def f(*, a):\n    pass\n", (1, "an annotation or a keyword-only parameter")),
    ("def f(a, /):\n    pass\n", (1, "an annotation or a keyword-only parameter")),
    ("g = lambda *, a: a\n", (1, "an annotation or a keyword-only parameter")),
    ("try:\n    pass\nexcept KeyError as e:\n    raise ValueError() from e\n",
     (4, "`raise ... from`")),
    ("import numpy as np\nc = np.ones(2) @ np.ones(2)\n", (2, "the `@` operator")),
    ("print('a', end='')\n", (1, "`print(...)` with keywords")),
    ("x = f'{1}'\nprint('a', end='')\n", (1, "an f-string")),
    # Python 2 parsed these.
    ("from __future__ import print_function\nprint('a', end='')\n", None),
    ("print('a')\nx = {1, 2}\ny = {k: v for k, v in z}\n", None),
    ("def f(a, b=1, *args, **kwargs):\n    raise ValueError('x')\n", None),
    ("try:\n    pass\nexcept (KeyError, ValueError) as e:\n    raise\n", None),
    ("def g():\n    yield 1\nh = lambda a, *b: a\n", None),
]


@pytest.mark.parametrize("source, expected", PYTHON3_SYNTAX)
def test_python3_only_syntax(source, expected):
    assert python3_only_syntax(ast.parse(source)) == expected
