"""Python 2's ``/``: floor division of integers, in Python 2 code without ``division``.

In a Python 2 module without ``from __future__ import division``, ``a / b`` floored when
both were integers -- Python ints, NumPy integers (scalars and arrays), integer tensors
(TF 1.x's ``Tensor.__div__`` was ``tf.div``) -- and divided truly otherwise; Python 3's
``/`` always divides truly (``7 / 2`` was 3, is 3.5: a shape, an index, a loop count
becomes a float). In Python 2 code (``py2_code``) without the ``division`` import:

- ``a / b`` where both operands are certainly integers (int literals, ``len(...)``,
  ``int(...)``, and ``+ - * // %`` of those) -> ``a // b``;
- ``a / b`` where one operand is certainly a float (a float literal, ``float(...)``, an
  arithmetic expression with one) is left: it divided truly on Python 2 too;
- every other ``a / b`` -> ``slim_ext.py2.div(a, b)``, which floors where Python 2
  floored and divides truly elsewhere; ``x /= b`` -> ``x = slim_ext.py2.idiv(x, b)``
  (in place for an array, as ``/=`` was) where ``x`` is a name or a plain attribute or
  subscript of names (reading it twice changes nothing); other targets are reported.

Each edit is in the report. ``operator.div`` (gone in Python 3) -> ``slim_ext.py2.div``.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.builtin_names import bound_here, module_bound_names
from slimport.analysis.names import Bindings, dotted_parts
from slimport.analysis.py2_code import describe, future_features, python2_evidence
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

RUNTIME = "slim_ext.py2"
DIV = f"{RUNTIME}.div"
IDIV = f"{RUNTIME}.idiv"
OPERATOR_DIV = "operator.div"
INT_BUILTINS = frozenset({"len", "int"})
_INT_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)
_FLOAT_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)
_TRIGGER_TEXT = re.compile(r"/|\bdiv\b")


def _divides(statement: ast.stmt) -> bool:
    return any(isinstance(node.op, ast.Div)  # type: ignore[attr-defined]
               for node in nodes_of(statement, (ast.BinOp, ast.AugAssign))) or any(
        node.attr == "div" for node in nodes_of(statement, (ast.Attribute,)))  # type: ignore[attr-defined]


def _floored_division(whole: ast.Module) -> bool:
    """Whether ``whole`` (the user's file) is Python 2 code whose ``/`` floored integers."""
    return bool(python2_evidence(whole)) and "division" not in future_features(whole)


def _plain_target(node: cst.BaseExpression) -> bool:
    """A name, or an attribute or subscript of names and literals: safe to read twice."""
    if dotted_parts(node) is not None:
        return True
    if isinstance(node, cst.Subscript) and dotted_parts(node.value) is not None:
        return all(isinstance(element.slice, cst.Index) and (
            dotted_parts(element.slice.value) is not None
            or isinstance(element.slice.value, (cst.Integer, cst.SimpleString)))
            for element in node.slice)
    return False


class Py2DivisionCommand(LeftoverCodemod):
    """Gives Python 2 code's / on integers Python 2's floor division."""

    NAME: ClassVar[str] = "py2_division"
    DESCRIPTION: ClassVar[str] = (
        "Python 2 code's / without `from __future__ import division`: ints // ints, "
        "else slim_ext.py2.div(a, b) (floors integers, as Python 2 and tf.div did)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def applies_to_file(cls, original: ast.Module) -> bool:
        # Most files are Python 3 code, or import division: nothing to keep or walk.
        return _floored_division(original)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return _divides

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        whole = self.original_ast or parsed
        if not _floored_division(whole):
            return False
        self._why = f"Python 2 code ({describe(python2_evidence(whole))}) without " \
                    "`from __future__ import division`: / floored integers"
        self._module_bound = module_bound_names(tree, parsed)
        self._replaced: Dict[int, cst.CSTNode] = {}
        return True

    def _builtin(self, node: cst.BaseExpression) -> Optional[str]:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
                and not bound_here(self.scopes, self._module_bound, node.func.value):
            return node.func.value
        return None

    def _int(self, node: cst.BaseExpression) -> bool:
        """Certainly an integer (a Python int)."""
        if isinstance(node, cst.Integer):
            return True
        if isinstance(node, cst.UnaryOperation) \
                and isinstance(node.operator, (cst.Minus, cst.Plus)):
            return self._int(node.expression)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _INT_OPERATORS):
            return self._int(node.left) and self._int(node.right)
        return self._builtin(node) in INT_BUILTINS

    def _float(self, node: cst.BaseExpression) -> bool:
        """Certainly a float: Python 2's / divided it truly."""
        if isinstance(node, cst.Float):
            return True
        if isinstance(node, cst.UnaryOperation):
            return self._float(node.expression)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _FLOAT_OPERATORS):
            return self._float(node.left) or self._float(node.right)
        return self._builtin(node) == "float"

    def _runtime(self, node: cst.CSTNode, problem: str, fix: str) -> bool:
        if not self.slim_ext_free(node, problem, fix):
            return False
        self.add_needed_import(RUNTIME)
        return True

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if not isinstance(node.operator, cst.Divide) or self._float(node.left) \
                or self._float(node.right):
            return
        if self._int(node.left) and self._int(node.right):
            self._replaced[id(node)] = node.operator  # -> //
            self.record_edit(node, f"{code_of(node)} -> // ({self._why}; both are ints)")
        elif self._runtime(node, f"{code_of(node)}: {self._why}", f"{DIV}(a, b)"):
            self._replaced[id(node)] = node
            self.record_edit(node, f"{code_of(node)} -> {DIV}(...) ({self._why})")

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if not isinstance(node.operator, cst.DivideAssign) or self._float(node.value):
            return
        problem = f"{code_of(node)}: {self._why}"
        if not _plain_target(node.target):
            self.needs_attention(node, f"{problem}; the target is not a plain name",
                                 f"x = {IDIV}(x, b)")
        elif self._runtime(node, problem, f"x = {IDIV}(x, b)"):
            self._replaced[id(node)] = node
            self.record_edit(node, f"{code_of(node)} -> x = {IDIV}(x, ...) ({self._why})")

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "div" and self.resolve_name(node) == OPERATOR_DIV \
                and self._runtime(node, f"{code_of(node)}: Python 3's operator has no div",
                                  DIV):
            self._replaced[id(node)] = node
            self.record_edit(node, f"{OPERATOR_DIV} -> {DIV} (Python 2's /)")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        if self._replaced.pop(id(original_node), None) is None:
            return updated_node
        return cst.parse_expression(DIV).with_changes(lpar=updated_node.lpar,
                                                      rpar=updated_node.rpar)

    def leave_BinaryOperation(self, original_node: cst.BinaryOperation,
                              updated_node: cst.BinaryOperation) -> cst.BaseExpression:
        replaced = self._replaced.pop(id(original_node), None)
        if replaced is None:
            return updated_node
        operator = updated_node.operator
        if isinstance(replaced, cst.Divide):
            return updated_node.with_changes(operator=cst.FloorDivide(
                whitespace_before=operator.whitespace_before,  # type: ignore[attr-defined]
                whitespace_after=operator.whitespace_after))  # type: ignore[attr-defined]
        return cst.Call(cst.parse_expression(DIV), [
            cst.Arg(updated_node.left, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            cst.Arg(updated_node.right)], lpar=updated_node.lpar, rpar=updated_node.rpar)

    def leave_AugAssign(self, original_node: cst.AugAssign, updated_node: cst.AugAssign
                        ) -> cst.BaseSmallStatement:
        if self._replaced.pop(id(original_node), None) is None:
            return updated_node
        return cst.Assign([cst.AssignTarget(updated_node.target)], cst.Call(
            cst.parse_expression(IDIV), [
                cst.Arg(updated_node.target,
                        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                cst.Arg(updated_node.value)]), semicolon=updated_node.semicolon)
