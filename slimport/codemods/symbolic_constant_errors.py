"""TF1's fallback around ``tf.constant`` catches the error TF >= 1.15 raises for a Tensor.

Up to TensorFlow 1.14, ``constant(value, shape=shape)`` given a graph Tensor as the
shape (one known only when the graph runs) failed in NumPy with a ValueError ("setting
an array element with a sequence"), and TF1 code relied on it: TensorFlow 1.12's own
``ones`` / ``zeros`` tried a constant and fell back to ``fill(shape, ...)`` on
``(TypeError, ValueError)``, and libraries copied the idiom (tensorlayer 1.11.1's
``alphas``). TensorFlow 1.15 gave graph Tensors an ``__array__`` that raises
NotImplementedError ("Cannot convert a symbolic Tensor"), which that handler lets
through: the fallback never runs. (A graph Tensor as the value raises the same
TypeError on 1.12, 1.15 and 2.21.)

Where a ``try`` body is a single statement whose value is TensorFlow's ``constant``
called on names, attributes and literals only (so nothing else in it can raise), an
``except`` of ``TypeError`` and/or ``ValueError`` also catches ``NotImplementedError``:
``except (TypeError, ValueError):`` -> ``except (TypeError, ValueError,
NotImplementedError):``. A handler that catches more (``Exception``), a ``try`` with more
in it, and TF2 code are left alone. Only TF1-era code (``leftovers_are_ours``), and
a module that copied TensorFlow's private code (``copies_tf_internals``: the idiom is
from TensorFlow's own modules of that time; TensorFlow's own package is left alone).
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, Optional, Sequence

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings
from slimport.analysis.tf_code import copies_tf_internals
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

# TensorFlow's constant, as TF1 code reached it (1.13 and 1.14 under compat.v1 too).
CONSTANTS = frozenset({
    "tensorflow.constant",
    "tensorflow.compat.v1.constant",
    "tensorflow.python.framework.constant_op.constant",
})
# What such a call raised for a graph Tensor up to TF 1.14, and what it raises since.
TF1_ERRORS = frozenset({"TypeError", "ValueError"})
NEW_ERROR = "NotImplementedError"
# The arguments that cannot raise anything themselves.
_PLAIN = (cst.Name, cst.Attribute, cst.BaseNumber, cst.BaseString)


def _caught(handler_type: Optional[cst.BaseExpression]) -> Optional[Sequence[str]]:
    """The exception names an ``except`` clause lists, or None for anything else."""
    if isinstance(handler_type, cst.Name):
        return [handler_type.value]
    if isinstance(handler_type, cst.Tuple) and all(
            isinstance(element.value, cst.Name) for element in handler_type.elements):
        return [element.value.value for element in handler_type.elements]  # type: ignore
    return None


class SymbolicConstantErrorsCommand(LeftoverCodemod):
    """Makes TF1's except (TypeError, ValueError) around tf.constant catch TF 1.15+'s error."""

    NAME: ClassVar[str] = "symbolic_constant_errors"
    DESCRIPTION: ClassVar[str] = (
        "try: constant(...) / except (TypeError, ValueError): a fallback TF1 code took for a "
        "Tensor shape; TF >= 1.15 raises NotImplementedError there -> caught too"
    )
    TRIGGERS: ClassVar[Sequence[str]] = ("constant",)

    @classmethod
    def applies_to(cls, source: str) -> bool:
        # Both words, found by substring search: a pattern for "constant, later except"
        # (``\bconstant\b[\s\S]*\bexcept\b``) scanned to the file's end from every
        # "constant" and back: 4.3 s over the 1,570 files of the corpora.
        return "except" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # The try and the one statement of its body the codemod reads (a skeleton that
        # elided the body would hide the constant call).
        bodies = {id(statement) for node in nodes_of(tree, (ast.Try,))
                  for statement in node.body}  # type: ignore[attr-defined]
        return lambda statement: id(statement) in bodies or any(nodes_of(statement, (ast.Try,)))

    def leftovers_are_ours(self, parsed: ast.Module) -> bool:
        return super().leftovers_are_ours(parsed) or \
            copies_tf_internals(parsed, self.context.filename)

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._widened: Dict[cst.ExceptHandler, cst.ExceptHandler] = {}
        return True

    def _single_constant_call(self, node: cst.Try) -> Optional[cst.Call]:
        """The try body's only statement's ``constant(...)`` call, if it is one."""
        body = node.body.body
        if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or \
                len(body[0].body) != 1:
            return None
        statement = body[0].body[0]
        if not isinstance(statement, (cst.Assign, cst.Expr, cst.Return)):
            return None
        if isinstance(statement, cst.Assign) and not all(
                isinstance(target.target, cst.Name) for target in statement.targets):
            return None
        call = statement.value
        if not isinstance(call, cst.Call) or self.resolve_name(call.func) not in CONSTANTS:
            return None
        if not all(isinstance(argument.value, _PLAIN) and argument.star == ""
                   for argument in call.args):
            return None
        return call

    def visit_Try(self, node: cst.Try) -> None:
        call = self._single_constant_call(node)
        if call is None:
            return
        for handler in node.handlers:
            names = _caught(handler.type)
            if names is None or not set(names) <= TF1_ERRORS or \
                    self.target_of(NEW_ERROR) is not None or \
                    any(self.target_of(name) is not None for name in names):
                continue
            elements = [cst.Element(cst.Name(name)) for name in [*names, NEW_ERROR]]
            widened = handler.with_changes(type=cst.Tuple(elements))
            self._widened[handler] = widened
            self.record_edit(handler, f"except {code_of(handler.type)} -> except "
                             f"{code_of(widened.type)} around {code_of(call.func)}(...): up to "
                             "TF 1.14 a graph Tensor shape raised "
                             f"{' or '.join(sorted(TF1_ERRORS))}, since TF 1.15 {NEW_ERROR}")

    def leave_ExceptHandler(self, original_node: cst.ExceptHandler,
                            updated_node: cst.ExceptHandler) -> cst.ExceptHandler:
        widened = self._widened.pop(original_node, None)
        return updated_node if widened is None else updated_node.with_changes(
            type=widened.type)
