"""TestCase assertion names that Python 3 and absl dropped -> the names they stood for.

TF1-era tests were written for Python 2's unittest and Google's basetest: ``self.
assertItemsEqual`` (Python 3's ``assertCountEqual``), ``assertRaisesWithRegexpMatch``
(basetest's wrapper of ``assertRaisesRegexp``; absl's TestCase has none), and the
aliases Python 3.12 removed (``assertEquals``, ``assertRaisesRegexp``,
``assertRegexpMatches``, ``failUnless``, ``assert_``, ...). Each becomes the method it
was an alias of: the same arguments, the same check.

Ported on the instance (a method's first parameter) of a class that derives from a
TestCase: ``unittest``'s, absltest's or parameterized's, ``tf.test.TestCase`` (through
classes of the same file too), or a base of another module when ``slimport rewrite``
saw that nothing in the tree defines a method of that name (tree fact
``tree_methods``; ported on its own, such a call is reported). A class that defines
the name itself keeps it. Only TF1-era code and plain Python are ported
(``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, FrozenSet, Pattern, Tuple

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._classes import ClassesFollowed, method_statements
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods.tree_facts import TREE_METHODS, TreeFact

# Old assertion name -> the TestCase method it stood for.
RENAMED: Dict[str, str] = {
    "assertItemsEqual": "assertCountEqual",
    "assertRaisesWithRegexpMatch": "assertRaisesRegex",
    "assertRaisesRegexp": "assertRaisesRegex",
    "assertRegexpMatches": "assertRegex",
    "assertNotRegexpMatches": "assertNotRegex",
    "assertEquals": "assertEqual",
    "assertNotEquals": "assertNotEqual",
    "assertAlmostEquals": "assertAlmostEqual",
    "assertNotAlmostEquals": "assertNotAlmostEqual",
    "assert_": "assertTrue",
    "failUnless": "assertTrue",
    "failIf": "assertFalse",
    "failUnlessEqual": "assertEqual",
    "failIfEqual": "assertNotEqual",
    "failUnlessAlmostEqual": "assertAlmostEqual",
    "failIfAlmostEqual": "assertNotAlmostEqual",
    "failUnlessRaises": "assertRaises",
}
# The TestCase classes TF1 tests derived from.
TEST_CASES = frozenset({
    "unittest.TestCase", "unittest.case.TestCase", "absl.testing.absltest.TestCase",
    "absl.testing.parameterized.TestCase", "tensorflow.test.TestCase",
    "tensorflow.compat.v1.test.TestCase", "tensorflow.python.platform.test.TestCase",
    "tensorflow.python.framework.test_util.TensorFlowTestCase",
})
_TRIGGER_TEXT = re.compile(r"\.(?:%s)\(" % "|".join(RENAMED))


class TestCaseAssertsCommand(ClassesFollowed, LeftoverCodemod):
    """Renames TestCase assertions Python 3 / absl dropped to the methods they stood for."""

    NAME: ClassVar[str] = "test_case_asserts"
    DESCRIPTION: ClassVar[str] = (
        "TestCase assertions Python 3 and absl dropped: assertItemsEqual -> "
        "assertCountEqual, assertRaisesWithRegexpMatch -> assertRaisesRegex, "
        "assertEquals -> assertEqual, ..."
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    # Every edit and report is at an attribute of one of these names.
    NAME_TRIGGERS: ClassVar[FrozenSet[str]] = frozenset(RENAMED)
    # Is ``self.assertItemsEqual`` unittest's old name, or a method of the tree's own?
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = LeftoverCodemod.TREE_FACTS + (TREE_METHODS,)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return method_statements(RENAMED.keys())

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self.follow_classes(lambda qualified: True if qualified in TEST_CASES else None)
        self._renamed: Dict[cst.Attribute, cst.Attribute] = {}
        return True

    def visit_Attribute(self, node: cst.Attribute) -> None:
        old = node.attr.value
        if old not in RENAMED or not isinstance(node.value, cst.Name):
            return
        info = self.classes.instance_class(node.value.value)
        if info is None or old in info.defined or info.derives is False:
            return
        new = RENAMED[old]
        tree_free = self.tree_methods is not None and old not in self.tree_methods
        if info.derives or tree_free:
            self._renamed[node] = node.with_changes(attr=cst.Name(new))
            self.record_edit(node, f"{code_of(node)} -> {node.value.value}.{new}")
        elif self.tree_methods is None:
            self.needs_attention(
                node, f"{code_of(node)}: a TestCase assertion Python 3 / absl no longer "
                "has; left unchanged because the class's base, of another module, may "
                "define it", f"for unittest's or absl's TestCase: {node.value.value}.{new}")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        new = self._renamed.pop(original_node, None)
        return updated_node if new is None else updated_node.with_changes(attr=new.attr)
