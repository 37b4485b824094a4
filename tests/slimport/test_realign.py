"""Continuation lines follow their bracket after an edit: a table of edits and their
re-aligned result, and a table of edits after which nothing else may move."""
from __future__ import annotations

import pytest

from slimport.engine.realign import realign

# (source, the codemods' output, expected after re-alignment)
MOVES = {
    "shorter_call": (
        "tf.app.flags.DEFINE_integer('batch_size', 32,\n"
        "                            'Images per batch.')\n",
        "flags.DEFINE_integer('batch_size', 32,\n"
        "                            'Images per batch.')\n",
        "flags.DEFINE_integer('batch_size', 32,\n"
        "                     'Images per batch.')\n",
    ),
    "longer_call": (
        "x = f(a,\n      b)\n",
        "x = slim_ext.f(a,\n      b)\n",
        "x = slim_ext.f(a,\n               b)\n",
    ),
    "nested_brackets_move_together": (
        "y = tf.contrib.slim.foo(a, bar(1,\n"
        "                               2),\n"
        "                        c)  # kept\n",
        "y = slim.foo(a, bar(1,\n"
        "                               2),\n"
        "                        c)  # kept\n",
        "y = slim.foo(a, bar(1,\n"
        "                    2),\n"
        "             c)  # kept\n",
    ),
    "bracket_opened_on_a_moved_line": (
        "v = tf.contrib.f(a,\n"
        "                 g(1,\n"
        "                   2))\n",
        "v = f(a,\n"
        "                 g(1,\n"
        "                   2))\n",
        "v = f(a,\n"
        "      g(1,\n"
        "        2))\n",
    ),
    "aligned_comment_line": (
        "def f():\n    return tf.contrib.slim.foo(a,\n"
        "                               # why b\n"
        "                               b)\n",
        "def f():\n    return slim.foo(a,\n"
        "                               # why b\n"
        "                               b)\n",
        "def f():\n    return slim.foo(a,\n"
        "                    # why b\n"
        "                    b)\n",
    ),
    "string_continuation_inside_kept": (
        "y = tf.contrib.slim.foo(a, '''x\n"
        "                        y''',\n"
        "                        c)\n",
        "y = slim.foo(a, '''x\n"
        "                        y''',\n"
        "                        c)\n",
        "y = slim.foo(a, '''x\n"
        "                        y''',\n"
        "             c)\n",
    ),
    "crlf": (
        "tf.app.flags.DEFINE_bool('a', 1,\r\n                         'h')\r\n",
        "flags.DEFINE_bool('a', 1,\r\n                         'h')\r\n",
        "flags.DEFINE_bool('a', 1,\r\n                  'h')\r\n",
    ),
    "two_edits_in_one_file": (
        "import tensorflow as tf\n"
        "tf.app.flags.DEFINE_string('a', '',\n                           'x')\n"
        "z = 1\n"
        "tf.app.flags.DEFINE_string('b', '',\n                           'y')\n",
        "from absl import flags\n"
        "flags.DEFINE_string('a', '',\n                           'x')\n"
        "z = 1\n"
        "flags.DEFINE_string('b', '',\n                           'y')\n",
        "from absl import flags\n"
        "flags.DEFINE_string('a', '',\n                    'x')\n"
        "z = 1\n"
        "flags.DEFINE_string('b', '',\n                    'y')\n",
    ),
    # tf0_names moves TF 0.x's leading axis to the end: the bracket moves left on the
    # first line, and the continuation, rewritten too, stays at its old column (issue 42).
    "arguments_reordered_across_lines": (
        "def f(x, y):\n  return tf.concat(3, [x,\n"
        "                       y])\n",
        "def f(x, y):\n  return tf.concat([x,\n"
        "                       y], 3)\n",
        "def f(x, y):\n  return tf.concat([x,\n"
        "                    y], 3)\n",
    ),
    "edited_line_inside_an_outer_bracket": (
        "x = g(1,\n      tf.contrib.f(a,\n                   b))\n",
        "x = g(1,\n      f(a,\n                   b))\n",
        "x = g(1,\n      f(a,\n        b))\n",
    ),
}

# (source, the codemods' output): nothing beyond the edit may change.
NOOPS = {
    "hanging_indent": (
        "tf.app.flags.DEFINE_integer(\n    'a', 1,\n    'help')\n",
        "flags.DEFINE_integer(\n    'a', 1,\n    'help')\n",
    ),
    "bracket_after_a_comment": (
        "tf.app.run(  # start\n           main)\n",
        "app.run(  # start\n           main)\n",
    ),
    "not_aligned_to_the_bracket": (
        "x = tf.contrib.f(a,\n        b)\n",
        "x = f(a,\n        b)\n",
    ),
    "edit_after_the_bracket": (
        "x = foo(tf.contrib.slim.a,\n        b)\n",
        "x = foo(slim.a,\n        b)\n",
    ),
    "tab_indented_continuation": (
        "x = tf.contrib.f(a,\n\t\t\t\t b)\n",
        "x = f(a,\n\t\t\t\t b)\n",
    ),
    "line_inside_a_string": (
        "s = tf.contrib.f('''a\n                 b''')\n",
        "s = f('''a\n                 b''')\n",
    ),
    "codemod_rewrote_the_continuation_too": (
        "tf.app.flags.DEFINE_integer('a', 1,\n                            tf.x)\n",
        "flags.DEFINE_integer('a', 1,\n                     tf.compat.v1.x)\n",
    ),
    "next_statement_at_the_old_column": (
        "if x:\n    tf.contrib.f(a)\n    y = 1\n",
        "if x:\n    f(a)\n    y = 1\n",
    ),
    "reordered_continuation_in_a_hanging_indent": (
        "return tf.concat(\n    3, [x,\n        y])\n",
        "return tf.concat(\n    [x,\n        y], 3)\n",
    ),
    "bracket_opened_before_the_edit": (  # its lines depend on it, not on the edit
        "x = g(1,\n      tf.contrib.f(a),\n      b)\n",
        "x = g(1,\n      f(a),\n      b)\n",
    ),
}


@pytest.mark.parametrize("source, edited, expected", MOVES.values(), ids=list(MOVES))
def test_moves(source: str, edited: str, expected: str) -> None:
    assert realign(source, edited) == expected
    assert realign(source, expected) == expected


@pytest.mark.parametrize("source, edited", NOOPS.values(), ids=list(NOOPS))
def test_noops(source: str, edited: str) -> None:
    assert realign(source, edited) == edited
