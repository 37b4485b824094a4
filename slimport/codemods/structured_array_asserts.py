"""A TF test's ``assertAllEqual`` on a NumPy structured array -> TF 1.15's comparison.

TF1-era evaluation code kept box and label tuples in NumPy structured (record) arrays
(object detection's ``vrd_evaluation.label_data_type``), and its tests compared them
with ``self.assertAllEqual(np.array([...], dtype=label_data_type), actual)``. TF 2's
``TensorFlowTestCase.assertAllEqual`` asks ``tf.as_dtype(a.dtype).is_floating`` to
decide whether NaNs compare equal, and TensorFlow has no dtype for a record: the call
raises ``TypeError`` after the shape check, whatever the values (TF 2.15 and 2.21 alike).
TF 1.15 asked ``a.dtype in (float16, float32, float64, bfloat16)`` and compared the
records element by element. The call becomes ``slim_ext.test_util.assert_all_equal(self,
a, b)``: TF 1.15's comparison for a dtype TensorFlow cannot name, the test case's own
``assertAllEqual`` for any other.

Ported where the expected value ``a`` is certainly such an array: ``np.array`` /
``asarray`` / ``zeros`` / ``ones`` / ``empty`` with ``dtype=`` a record spelled out
(``[('subject', 'i4'), ...]``, bare or in ``np.dtype``) or a module's name every
module-level binding of which in the tree is one (tree fact ``tree_structured_dtypes``;
ported on its own, only a spelled-out record counts), and the receiver is an instance of
a class deriving from ``tf.test.TestCase`` that does not define ``assertAllEqual``.
Such a call never passes on TF 2, so it is ported in TF2 code too (the test modules
that make these calls name no TF1 API).
"""
from __future__ import annotations

import ast
from typing import AbstractSet, Any, ClassVar, Optional, Sequence, Tuple

import libcst as cst

from slimport.codemods._classes import ClassesFollowed, method_statements
from slimport.codemods._runtime_calls import RuntimeCalls
from slimport.analysis.names import Bindings
from slimport.codemods.base import SlimportCodemod, StatementFilter, code_of
from slimport.codemods.test_case_asserts import TEST_CASES
from slimport.codemods.tree_facts import TREE_STRUCTURED_DTYPES, TreeFact, structured_dtype

METHOD = "assertAllEqual"
RUNTIME = "slim_ext.test_util"
HOME = f"{RUNTIME}.assert_all_equal"
# TensorFlow's test cases: the classes whose assertAllEqual TF 2 changed.
TF_TEST_CASES = frozenset(name for name in TEST_CASES if name.startswith("tensorflow."))
# NumPy constructors whose ``dtype=`` is the dtype of the array they return.
ARRAY_MAKERS = frozenset(f"numpy.{name}" for name in ("array", "asarray", "zeros", "ones",
                                                      "empty"))


class StructuredArrayAssertsCommand(RuntimeCalls, ClassesFollowed, SlimportCodemod):
    """Sends TF tests' assertAllEqual on NumPy record arrays to TF 1.15's comparison."""

    NAME: ClassVar[str] = "structured_array_asserts"
    DESCRIPTION: ClassVar[str] = (
        "a TF test's self.assertAllEqual(np.array(..., dtype=<record dtype>), b) (TF 2's "
        "raises TypeError) -> slim_ext.test_util.assert_all_equal(self, ...), TF 1.15's "
        "comparison"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (METHOD,)
    RUNTIME: ClassVar[str] = RUNTIME
    HOME: ClassVar[str] = HOME
    # Is ``module.label_data_type`` a record dtype?
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = (TREE_STRUCTURED_DTYPES,)

    def __init__(self, context: Any,
                 tree_structured_dtypes: Optional[AbstractSet[str]] = None,
                 **kwargs: Any) -> None:
        """
        Args:
          context: libcst's codemod context.
          tree_structured_dtypes: the names of record dtypes the tree's modules bind
            (``structured_dtype_names``), or None when the tree is not known.
          **kwargs: for the base class.
        """
        self.tree_structured_dtypes = tree_structured_dtypes or frozenset()
        super().__init__(context, **kwargs)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # The calls it ports and what its class tracking reads (the expected value is
        # judged in the call itself).
        return method_statements({METHOD})

    def start_file(self, tree: cst.Module) -> bool:
        self.follow_classes(lambda qualified: True if qualified in TF_TEST_CASES else None)
        self.start_runtime_calls()
        return True

    def _record_dtype(self, node: cst.BaseExpression) -> bool:
        """Whether the ``dtype=`` value ``node`` is certainly a record dtype."""
        if isinstance(node, cst.Call) and self.resolve_name(node.func) == "numpy.dtype" \
                and len(node.args) == 1 and node.args[0].keyword is None:
            node = node.args[0].value
        if isinstance(node, cst.List):
            return structured_dtype(ast.parse(code_of(node), mode="eval").body, frozenset())
        qualified = self.resolve_name(node)
        return qualified is not None and not qualified.startswith("numpy.") and \
            qualified.rpartition(".")[2] in self.tree_structured_dtypes

    def _record_array(self, node: cst.BaseExpression) -> bool:
        """Whether ``node`` certainly makes a NumPy array of a record dtype."""
        if not isinstance(node, cst.Call) or self.resolve_name(node.func) not in ARRAY_MAKERS:
            return False
        return any(arg.keyword is not None and arg.keyword.value == "dtype"
                   and self._record_dtype(arg.value) for arg in node.args)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != METHOD or \
                not isinstance(func.value, cst.Name):
            return
        info = self.classes.instance_class(func.value.value)
        if info is None or not info.derives or METHOD in info.defined:
            return
        expected = [arg.value for arg in node.args
                    if arg.keyword is None or arg.keyword.value == "a"][:1]
        if not expected or not self._record_array(expected[0]) or \
                any(arg.star for arg in node.args):
            return
        if not self.slim_ext_free(node, f"{code_of(func)} on a NumPy record array raises "
                                  "TypeError on TF 2", f"{HOME}({func.value.value}, a, b)"):
            return
        self.send_to_runtime(node)
        self.record_edit(node, f"{code_of(func)}(<record array>, ...) -> {HOME}"
                               f"({func.value.value}, ...) (TF 2's raises TypeError on a "
                               "dtype TensorFlow cannot name; TF 1.15 compared the records)")

    def runtime_args(self, call: cst.Call) -> Sequence[cst.Arg]:
        # The test case goes first: ``self.assertAllEqual(a, b)`` -> ``...(self, a, b)``.
        receiver = call.func.value  # type: ignore[attr-defined]
        return [cst.Arg(receiver, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                *call.args]
