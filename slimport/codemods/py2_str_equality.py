"""A Python 2 project's test cases: ``str`` and ``bytes`` compare as Python 2 compared them.

In Python 2 a string literal was bytes, the type a TF1 session returns for a string
tensor and protobuf for a bytes field: ``self.assertEqual('image_id',
decoded[fields.source_id])`` passed. On Python 3 the literal is text, TensorFlow still
returns bytes, and the same test fails on ``'image_id' != b'image_id'`` (object
detection 0.1.1 loses 14 tests that pass on Python 2.7 + TF 1.14 so). Which values were
literals only the run knows, so the test case gets the comparison:
``slim_ext.test_util.Python2StrEquality`` goes first among the bases of a class that
derives from unittest's, absl's or TensorFlow's TestCase and from nothing else (a
project's own test base is ported in its own module; a second copy in the bases would
make the class order impossible). Its ``assertEqual``, ``assertIn``,
``assertCountEqual``, ``assertAllEqual``, ... are the TestCase's own, and only where one
fails it is tried again with every ``str`` encoded as UTF-8 (the bytes the Python 2
literal was); a passing assertion, and one that fails both ways, is unchanged.

Only in Python 2 code: a file of a Python 2 project (tree fact ``tree_python2``: a module
of its scope fails on Python 3 as written) or one that shows it itself
(``is_python2_only``). A Python 3 project's tests, TF1 ones included (tf_slim's), are
left: there a ``str`` never equalled ``bytes``.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Pattern, Set

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods.test_case_asserts import TEST_CASES

RUNTIME = "slim_ext.test_util"
MIXIN = f"{RUNTIME}.Python2StrEquality"
_TRIGGER_TEXT = re.compile(r"TestCase\b")


class Py2StrEqualityCommand(LeftoverCodemod):
    """Puts slim_ext.test_util.Python2StrEquality first among a Python 2 test case's bases."""

    NAME: ClassVar[str] = "py2_str_equality"
    DESCRIPTION: ClassVar[str] = (
        "a Python 2 project's class T(tf.test.TestCase) -> class T(slim_ext.test_util."
        "Python2StrEquality, tf.test.TestCase): assertions compare str and bytes as Python 2 "
        "did (a literal was bytes)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return lambda statement: isinstance(statement, ast.ClassDef)

    def leftovers_are_ours(self, parsed: ast.Module) -> bool:
        return self.ran_on_python2_only(parsed) is not None

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._test_cases: Set[int] = set()
        self._why = self.ran_on_python2_only(parsed)
        return True

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if not node.bases or any(arg.star for arg in node.bases):
            return
        if not all(self.resolve_name(arg.value) in TEST_CASES for arg in node.bases):
            return
        self._test_cases.add(id(node))
        bases = ", ".join(code_of(arg.value) for arg in node.bases)
        self.record_edit(node, f"class {node.name.value}({bases}) -> class {node.name.value}"
                               f"({MIXIN}, {bases}): Python 2 code ({self._why}), where a "
                               "string literal was bytes and equalled TensorFlow's")

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> cst.ClassDef:
        if id(original_node) not in self._test_cases:
            return updated_node
        self.add_needed_import(RUNTIME)
        mixin = cst.Arg(cst.parse_expression(MIXIN),
                        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated_node.with_changes(bases=[mixin, *updated_node.bases])
