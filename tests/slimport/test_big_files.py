"""A big file costs time in proportion to its size: no whole-file work per edit.

Timing a port on a shared machine is not a test; the work is counted instead. The
line diff between two versions of a text hands difflib only the short stretches
between lines that occur once in each (``line_map.line_opcodes``), and its opcodes
are difflib's own on real ported files; a codemod asking for the lines of many nodes
one at a time (``source_line_of``: a flag defined twice names the line of the first)
costs one codegen per pass. benchmarks/big_file.py measures the time per line.
"""
from __future__ import annotations

import difflib
import random
from typing import List

import libcst
import pytest
from hypothesis import given, settings, strategies as st

from slimport.engine import line_map
from slimport.codemods import CODEMODS
from slimport.analysis import lines
from slimport.engine import port_source
from tests.slimport.conftest import REPO_ROOT


def _difflib_opcodes(old: List[str], new: List[str]) -> list:
    return difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()


def _big_module(units: int, duplicates: bool = False) -> str:
    """A TF1 module of ``units`` repeated pieces (flags, a function), fresh names each."""
    parts = ["import tensorflow as tf\n\nslim = tf.contrib.slim\n"]
    for index in range(units):
        parts.append(f"\ntf.app.flags.DEFINE_integer('steps_{index}', 1, 'Steps {index}.')\n")
        if duplicates:
            parts.append(f"tf.app.flags.DEFINE_integer('steps_{index}', 2, 'Again.')\n")
        parts.append(f"\n\ndef net_{index}(net):\n"
                     f"  net = slim.conv2d(net, {index + 1}, [3, 3], scope='conv_{index}')\n"
                     f"  tf.logging.info('net %d', {index})\n\n"
                     f"  return tf.contrib.layers.flatten(net)\n")
    parts.append("\nFLAGS = tf.app.flags.FLAGS\n\n\ndef main(_):\n  pass\n\n\n"
                 "if __name__ == '__main__':\n  tf.app.run()\n")
    return "".join(parts)


def test_the_line_diff_of_a_big_file_gives_difflib_only_short_stretches(monkeypatch) -> None:
    handed: List[int] = []
    real = difflib.SequenceMatcher

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, isjunk=None, a="", b="", autojunk=True) -> None:
            handed.append(max(len(a), len(b)))
            super().__init__(isjunk, a, b, autojunk)

    monkeypatch.setattr(difflib, "SequenceMatcher", Recording)
    before = _big_module(1000)
    ported = port_source(before.encode(), "big.py", CODEMODS, {})
    assert ported.error is None and ported.data != before.encode()
    lines = before.count("\n")
    assert lines > 9000
    # Whole-file diffs (one per codemod that edits) were what made a big file quadratic.
    assert max(handed, default=0) <= line_map.DIFFLIB_LINES, sorted(handed)[-5:]


def test_opcodes_are_difflibs_on_real_ported_files() -> None:
    # Every file of the example trees, against its ported text.
    compared = 0
    for path in sorted((REPO_ROOT / "examples").rglob("*.py")):
        ported = port_source(path.read_bytes(), str(path), CODEMODS, {})
        if ported.error is not None or ported.after == ported.before:
            continue
        old, new = ported.before.splitlines(True), ported.after.splitlines(True)
        assert line_map.line_opcodes(old, new) == _difflib_opcodes(old, new), path
        compared += 1
    assert compared >= 15


def test_opcodes_are_difflibs_on_a_codemods_edits_of_a_big_file() -> None:
    # What codemods do: rewrite lines in place, insert an import or a statement.
    rng = random.Random(4)
    old = _big_module(300).splitlines(True)
    new = list(old)
    for index in sorted(rng.sample(range(len(new)), 300), reverse=True):
        if rng.random() < 0.7:
            new[index] = new[index].replace("tf.", "tf.compat.v1.")
        else:
            new.insert(index, "import slim_ext\n")
    assert len(old) > 2 * line_map.DIFFLIB_LINES
    assert line_map.line_opcodes(old, new) == _difflib_opcodes(old, new)


_LINES = st.lists(st.sampled_from(["\n", "a\n", "b\n", "  return x\n", "def f():\n"])
                  | st.text("xyz", min_size=1, max_size=3).map(lambda t: t + "\n"),
                  max_size=40)


@settings(max_examples=300, deadline=None)
@given(_LINES, _LINES)
def test_opcodes_of_long_texts_are_a_line_diff(old: List[str], new: List[str]) -> None:
    # Texts above DIFFLIB_LINES are split before difflib sees them; here 4 lines are
    # "long", so every example goes through the split.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_map, "DIFFLIB_LINES", 4)
        opcodes = line_map.line_opcodes(old, new)
    i = j = 0
    for tag, i1, i2, j1, j2 in opcodes:
        assert (i1, j1) == (i, j)
        assert tag in ("equal", "replace", "delete", "insert")
        if tag == "equal":
            assert old[i1:i2] == new[j1:j2] and i2 > i1
        assert (tag == "insert") == (i1 == i2 and j2 > j1)
        assert (tag == "delete") == (j1 == j2 and i2 > i1)
        i, j = i2, j2
    assert (i, j) == (len(old), len(new))
    # Up to DIFFLIB_LINES, difflib's own opcodes.
    assert line_map.line_opcodes(old, new) == _difflib_opcodes(old, new)


def test_lines_asked_one_at_a_time_cost_one_codegen_per_pass(monkeypatch) -> None:
    generated = []
    real_before = lines._LineFinder.before_codegen

    def counting_before(self, node) -> None:
        generated.append(node)
        real_before(self, node)

    monkeypatch.setattr(lines._LineFinder, "before_codegen", counting_before)
    source = _big_module(200, duplicates=True)
    ported = port_source(source.encode(), "dup.py", CODEMODS, {})
    twice = [f for f in ported.findings if "is defined twice" in f.message]
    assert len(twice) == 200
    # Each names the line of the first definition, the line just before its own.
    assert all(f"(first at line {f.line - 1})" in f.message for f in twice)
    # The line finders generate each statement at most once per codemod pass, not once
    # per question (200 questions would generate the module 200 times).
    generated.clear()
    lines.LineIndex(libcst.parse_module(source)).line_of(libcst.parse_module("x\n"))
    module_nodes = len(generated)
    generated.clear()
    port_source(source.encode(), "dup.py", CODEMODS, {})
    assert len(generated) <= 2 * len(CODEMODS) * module_nodes, (len(generated), module_nodes)