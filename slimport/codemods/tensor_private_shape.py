"""TF1's private ``Tensor._shape`` -> the public ``shape`` it stood for.

TensorFlow 1.x kept ``Tensor._shape`` as a deprecated alias: a property that logged
"Tensor._shape is private, use Tensor.shape instead" and returned ``self.shape`` (a
TensorShape). TF1-era code read it (tensorlayer 1.11.1's tests:
``int(net.outputs._shape[-1])``). On TensorFlow 2 the name belongs to the C++ tensor
and is a ``(dims, unknown_rank)`` tuple: ``x._shape[-1]`` is the flag ``False``, and
the reshape built from it is wrong (``[?, 5, 0]``). The variables' ``_shape`` (a
TensorShape) and ``TensorSpec._shape`` are their ``shape`` too, so ``x._shape`` ->
``x.shape`` reads the same value for each TensorFlow object that had the attribute.

A read is ported only where ``slimport rewrite`` saw that nothing in the tree gives
anything a ``_shape`` of its own (an assignment ``x._shape = ...``, a ``def _shape``, a
class attribute, the string ``'_shape'``: tree fact ``tree_binds_private_shape``);
otherwise, on ``self`` / ``cls`` (a class's own attribute, or its base's), and in a file
ported on its own, it is reported with the fix. Assignments and calls (``x._shape()``)
are left: neither was the alias. Only TF1-era code and plain Python are ported
(``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import Any, ClassVar, Dict, Optional, Pattern, Set, Tuple

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.analysis.per_text import per_text
from slimport.analysis.regex_words import may_match, required_words
from slimport.codemods._leftovers import LeftoverCodemod, reads_attribute
from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods.tree_facts import TreeFact

PRIVATE, PUBLIC = "_shape", "shape"
# Code that gives an object a ``_shape`` of its own: an attribute assignment (plain or
# augmented), a method, a class attribute or a name in ``setattr`` / ``__slots__``.
_BINDS_PRIVATE = re.compile(r"\._shape[ \t]*(?:[-+*/%&|^@]|//|\*\*|>>|<<)?=(?!=)"
                            r"|\bdef[ \t]+_shape\b|^[ \t]*_shape[ \t]*[:=](?!=)"
                            r"|['\"]_shape['\"]", re.MULTILINE)
# The receivers whose ``_shape`` is their class's (or its base's) own.
_OWN = frozenset({"self", "cls"})


def binds_private_shape(texts) -> bool:
    """Whether any text of the tree gives something a ``_shape`` of its own.

    Args:
      texts: the text of every Python file of the tree.

    Returns:
      True when one does (read off the text: one in a string counts too, which only
      makes the codemod report more).
    """
    return any(map(_binds_private_shape, texts))


@per_text
def _binds_private_shape(text: str) -> bool:
    # Every branch spells "_shape": a text without it is ruled out by a substring search
    # (the pattern's own search tries every position of the text).
    return may_match(_BINDS_PRIVATE, required_words(_BINDS_PRIVATE), text)


# Is ``x._shape`` TensorFlow's deprecated alias, or an attribute the tree sets itself?
TREE_BINDS_PRIVATE_SHAPE = TreeFact("tree_binds_private_shape",
                                    lambda tree: binds_private_shape(tree.texts),
                                    per_text=(_binds_private_shape,))


class TensorPrivateShapeCommand(LeftoverCodemod):
    """Ports reads of TF1's deprecated ``Tensor._shape`` to ``shape``."""

    NAME: ClassVar[str] = "tensor_private_shape"
    DESCRIPTION: ClassVar[str] = (
        "TF1's deprecated Tensor._shape (an alias of shape; on TF 2 a private tuple) -> "
        "shape, where the tree sets no _shape of its own; others reported"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\._shape\b")
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = \
        LeftoverCodemod.TREE_FACTS + (TREE_BINDS_PRIVATE_SHAPE,)

    def __init__(self, context: Any, tree_binds_private_shape: Optional[bool] = None,
                 tree_python2: Optional[str] = None, **kwargs: Any) -> None:
        """
        Args:
          context: libcst's codemod context.
          tree_binds_private_shape: whether the tree gives anything a ``_shape`` of its
            own; None when the tree is not known (every read is then reported).
          tree_python2: what shows that the file's project is Python 2 code, or None
            (passed on to LeftoverCodemod).
          **kwargs: for the base class.
        """
        self.tree_binds_private_shape = tree_binds_private_shape
        super().__init__(context, tree_python2=tree_python2, **kwargs)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return reads_attribute({PRIVATE})

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._renamed: Dict[cst.Attribute, cst.Attribute] = {}
        # The ``_shape`` attributes that are assigned, deleted or called: not reads of
        # the alias.
        self._not_reads: Set[int] = set()
        return True

    def _leave_alone(self, *targets: cst.CSTNode) -> None:
        for target in targets:
            if isinstance(target, (cst.Tuple, cst.List)):
                self._leave_alone(*(element.value for element in target.elements))
            elif isinstance(target, cst.StarredElement):
                self._leave_alone(target.value)
            else:
                self._not_reads.add(id(target))

    def visit_Assign(self, node: cst.Assign) -> None:
        self._leave_alone(*(target.target for target in node.targets))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._leave_alone(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._leave_alone(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._leave_alone(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._leave_alone(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        self._leave_alone(node.func)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value != PRIVATE or id(node) in self._not_reads:
            return
        fix = f"if it is a TensorFlow tensor's or variable's: {code_of(node.value)}.{PUBLIC}"
        if isinstance(node.value, cst.Name) and node.value.value in _OWN:
            self.needs_attention(node, f"{code_of(node)}: TF1's deprecated Tensor._shape, "
                                 "or the class's own attribute; left unchanged", fix)
        elif self.tree_binds_private_shape is None:
            self.needs_attention(node, f"{code_of(node)}: TF1's deprecated Tensor._shape (a "
                                 "private tuple on TF 2); left unchanged because only the "
                                 "whole tree can tell whether it sets a _shape itself", fix)
        elif self.tree_binds_private_shape:
            self.needs_attention(node, f"{code_of(node)}: TF1's deprecated Tensor._shape (a "
                                 "private tuple on TF 2); left unchanged because the tree "
                                 "gives something a _shape of its own", fix)
        else:
            self._renamed[node] = node.with_changes(attr=cst.Name(PUBLIC))
            self.record_edit(node, f"{code_of(node)} -> {code_of(node.value)}.{PUBLIC} "
                                   "(TF1's Tensor._shape was an alias of shape; on TF 2 it "
                                   "is a private tuple)")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        new = self._renamed.pop(original_node, None)
        return updated_node if new is None else updated_node.with_changes(attr=new.attr)
