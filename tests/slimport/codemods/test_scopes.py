"""Names mean what Python's scopes make them mean, in every codemod (issue: faithful rewrite)."""
from __future__ import annotations

import ast
import textwrap
from typing import Dict, List, Optional

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from slimport.codemods import CODEMODS
from slimport.codemods.base import SlimportCodemod
from slimport.analysis.names import collect_bindings
from tests.slimport.codemods._helpers import run_codemod


class _Resolver(SlimportCodemod):
    """Records what every ``probe.<name>`` argument resolves to where it stands."""

    NAME = "resolver"
    TRIGGERS = ("probe",)

    def start_file(self, tree: cst.Module) -> bool:
        self.seen: List[Optional[str]] = []
        return True

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "probe":
            self.seen.append(self.resolve_name(node.args[0].value))


def resolved(source: str) -> List[Optional[str]]:
    command = _Resolver(CodemodContext())
    command.transform_module(cst.parse_module(textwrap.dedent(source)))
    return command.seen


@pytest.mark.parametrize("source, expected", [
    # Module level, a function that does not rebind, a method (class bodies are not
    # visible from inside their methods).
    ("import tensorflow as tf\nprobe(tf.train)\ndef f():\n    probe(tf.train)\n"
     "class C:\n    tf = None\n    probe(tf.x)\n    def m(self):\n        probe(tf.train)\n",
     ["tensorflow.train", "tensorflow.train", None, "tensorflow.train"]),
    # Every kind of local binding hides the module's tf.
    ("import tensorflow as tf\ndef f(tf):\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f(*tf):\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f(**tf):\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f(*, tf=1):\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    tf = {}\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    tf, x = 1, 2\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    tf += 1\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    tf: int = 1\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    for tf in []:\n        probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    with open('x') as tf:\n        probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    try:\n        pass\n    except E as tf:\n"
     "        probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    del tf\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    def tf():\n        pass\n    probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f():\n    import numpy as tf\n    probe(tf.a)\n", ["numpy.a"]),
    ("import tensorflow as tf\ndef f():\n    if (tf := 3):\n        probe(tf.a)\n", [None]),
    ("import tensorflow as tf\ndef f(x):\n    match x:\n        case [tf]:\n"
     "            probe(tf.a)\n", [None]),
    ("import tensorflow as tf\nprobe([tf.a for tf in x][0])\nprobe(tf.b)\n",
     [None, "tensorflow.b"]),
    ("import tensorflow as tf\nf = lambda tf: probe(tf.a)\nf(1)\n", [None]),
    # A closure sees its enclosing function's binding.
    ("import tensorflow as tf\ndef f():\n    tf = 1\n    def g():\n        probe(tf.a)\n", [None]),
    # global sends the lookup to the module; nonlocal to the enclosing function.
    ("import tensorflow as tf\ndef f():\n    global tf\n    probe(tf.a)\n", ["tensorflow.a"]),
    ("import tensorflow as tf\ndef f():\n    tf = 1\n    def g():\n        nonlocal tf\n"
     "        probe(tf.a)\n", [None]),
    # Local imports and aliases are TensorFlow where they say so.
    ("def f():\n    import tensorflow as tf\n    slim = tf.contrib.slim\n"
     "    probe(slim.conv2d)\n", ["tensorflow.contrib.slim.conv2d"]),
    ("def f():\n    import tensorflow as tf\n    probe(tf.a)\nprobe(tf.a)\n",
     ["tensorflow.a", None]),
    # A name bound two ways in one scope stands for nothing certain.
    ("import tensorflow as tf\ndef f(c):\n    if c:\n        import numpy as tf\n"
     "    else:\n        tf = None\n    probe(tf.a)\n", [None]),
    # Decorators and defaults belong to the scope around the function.
    ("import tensorflow as tf\n@probe(tf.a)\ndef tf_user(tf=probe(tf.b)):\n    pass\n",
     ["tensorflow.a", "tensorflow.b"]),
])
def test_resolution_follows_python_scopes(source: str, expected: List[Optional[str]]) -> None:
    assert resolved(source) == expected


@pytest.mark.parametrize("source, expected", [
    ("import tensorflow as tf\n", {"tf": "tensorflow"}),
    # Rebinding at module level in any form: the name stands for nothing certain.
    ("import tensorflow as tf\ntf = None\n", {}),
    ("import tensorflow as tf\nfor tf in []:\n    pass\n", {}),
    ("import tensorflow as tf\ndel tf\n", {}),
    ("import tensorflow as tf\ndef tf():\n    pass\n", {}),
    ("import tensorflow as tf\nwith x as tf:\n    pass\n", {}),
    ("import tensorflow as tf\nfrom . import tf\n", {}),
    ("import tensorflow as tf\ndef f():\n    global tf\n    tf = 1\n", {}),
    # ... except the fallback of a failed import.
    ("try:\n    import tensorflow.contrib.slim as slim\nexcept ImportError:\n    slim = None\n",
     {"slim": "tensorflow.contrib.slim"}),
    ("try:\n    import tensorflow.contrib.slim as slim\nexcept ValueError:\n    slim = None\n",
     {}),
    # Aliases follow the names they are made of.
    ("import tensorflow as tf\nslim = tf.contrib.slim\n", {"tf": "tensorflow",
                                                           "slim": "tensorflow.contrib.slim"}),
])
def test_module_level_bindings(source: str, expected: Dict[str, str]) -> None:
    assert collect_bindings(ast.parse(source), module_level_only=True).names == expected


# Every codemod leaves alone what a local name hides.
SHADOWED = [
    "import tensorflow as tf\n\ndef build(tf):\n    return tf.contrib.slim.conv2d\n",
    "import tensorflow as tf\n\ndef other():\n    tf = {'a': 1}\n    return tf.app.flags\n",
    "import tensorflow as tf\n\ndef f(items):\n"
    "    return [tf.contrib.layers.flatten for tf in items]\n",
    "import tensorflow as tf\n\nclass Model:\n    def __init__(self, tf):\n"
    "        self.net = tf.contrib.framework.arg_scope\n",
    "import tensorflow as tf\nuse = lambda tf: tf.app.run()\n",
]


@pytest.mark.parametrize("codemod", CODEMODS, ids=lambda codemod: codemod.NAME)
@pytest.mark.parametrize("source", SHADOWED)
def test_no_codemod_touches_shadowed_names(codemod, source: str) -> None:  # type: ignore[no-untyped-def]
    code, findings = run_codemod(codemod, source)
    assert code == source
    assert [f for f in findings if f.kind == "attention"] == []


def test_a_local_named_mox_is_not_moxing() -> None:
    from slimport.codemods.moxing import MoxingCommand

    source = ("import moxing.tensorflow as mox\n\ndef f(mox):\n    return mox.run\n")
    code, _ = run_codemod(MoxingCommand, source)
    assert code == "import slim_ext.mox as mox\n\ndef f(mox):\n    return mox.run\n"
