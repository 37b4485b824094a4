"""matplotlib calls that newer matplotlib removed, in TF1-era summary and plotting code.

TF1 code drew its plots into image summaries through a figure's canvas
(``tf.py_func(plot, ...)``): object detection's CDF and histogram summaries, for one.
Two of its calls are gone, each with a successor that gives the same result:

- ``fig.add_subplot('111')``: a three-digit *string* was taken as the number 111 up to
  matplotlib 3.x; now it is refused (``Bbox.from_bounds() missing 1 required positional
  argument``). It becomes ``fig.add_subplot(111)``.
- ``canvas.tostring_rgb()`` (removed in matplotlib 3.10): the Agg canvas's RGBA buffer
  with the alpha byte of each pixel dropped. It becomes
  ``np.asarray(canvas.buffer_rgba())[..., :3].tobytes()``, the same bytes (numpy is
  imported if the file has no name for it).

Both method names are matplotlib's own; they are ported in files of a tree that uses
matplotlib (the file imports it, or ``slimport rewrite`` saw the tree import it: tree
fact ``tree_imports``). Only TF1-era code and plain Python are ported
(``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Tuple

import libcst as cst

from slimport.analysis.names import Bindings, dotted_expression, is_under
from slimport.codemods._leftovers import LeftoverCodemod, reads_attribute
from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods.tree_facts import TREE_IMPORTS, TreeFact

MATPLOTLIB = "matplotlib"
NUMPY = "numpy"
ADD_SUBPLOT, TOSTRING_RGB = "add_subplot", "tostring_rgb"
_THREE_DIGITS = re.compile(r"[1-9]{3}")
_TRIGGER_TEXT = re.compile(r"\.add_subplot\(\s*['\"]\d{3}['\"]\s*\)|\.tostring_rgb\(\)")


class MatplotlibApiCommand(LeftoverCodemod):
    """Ports add_subplot('111') and canvas.tostring_rgb() to what newer matplotlib has."""

    NAME: ClassVar[str] = "matplotlib_api"
    DESCRIPTION: ClassVar[str] = (
        "matplotlib calls removed in 3.x: add_subplot('111') -> add_subplot(111), "
        "canvas.tostring_rgb() -> the RGB bytes of buffer_rgba()"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    # A figure may come from another module of the tree: does the tree use matplotlib?
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = LeftoverCodemod.TREE_FACTS + (TREE_IMPORTS,)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return reads_attribute({ADD_SUBPLOT, TOSTRING_RGB})

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        imported = [target for target in self.module_names.names.values()]
        if self.tree_imports is not None:
            imported += self.tree_imports
        if not any(is_under(name, MATPLOTLIB) for name in imported):
            return False
        # add_subplot calls -> their new argument; tostring_rgb calls -> numpy's name.
        self._subplots: Dict[cst.Call, cst.Arg] = {}
        self._rgb_calls: Dict[cst.Call, str] = {}
        self._numpy: Optional[str] = None
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        if original_node in self._subplots:
            return updated_node.with_changes(args=[self._subplots.pop(original_node)])
        numpy = self._rgb_calls.pop(original_node, None)
        if numpy is None:
            return updated_node
        canvas = updated_node.func.value  # type: ignore[attr-defined]
        return _rgb_bytes(numpy, canvas).with_changes(lpar=updated_node.lpar,
                                                      rpar=updated_node.rpar)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or self.resolve_name(func) is not None:
            return
        method = func.attr.value
        if method == ADD_SUBPLOT and len(node.args) == 1 and node.args[0].keyword is None:
            self._port_add_subplot(node, node.args[0])
        elif method == TOSTRING_RGB and not node.args:
            self._port_tostring_rgb(node, func.value)

    def _port_add_subplot(self, node: cst.Call, arg: cst.Arg) -> None:
        value = arg.value
        if not (isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str)
                and _THREE_DIGITS.fullmatch(value.evaluated_value)):
            return
        self._subplots[node] = arg.with_changes(value=cst.Integer(value.evaluated_value))
        self.record_edit(node, f"{code_of(node)} -> add_subplot({value.evaluated_value}) "
                               "(matplotlib 3 refuses a subplot's number as a string)")

    def _port_tostring_rgb(self, node: cst.Call, canvas: cst.BaseExpression) -> None:
        numpy = self._numpy_name()
        if numpy is None:
            self.needs_attention(node, f"{code_of(node)}: tostring_rgb was removed in "
                                 "matplotlib 3.10, and this file uses the name numpy for "
                                 "something else", "np.asarray(canvas.buffer_rgba())"
                                 "[..., :3].tobytes() with NumPy imported as np")
            return
        self._rgb_calls[node] = numpy
        self.record_edit(node, f"{code_of(node)} -> {code_of(_rgb_bytes(numpy, canvas))} "
                               "(tostring_rgb was removed in matplotlib 3.10; the same RGB "
                               "bytes)")

    def _numpy_name(self) -> Optional[str]:
        """A name for numpy here: the file's own, else ``numpy``, imported by this pass."""
        if self._numpy is not None:
            return self._numpy
        existing = self.alias_here(lambda target: target == NUMPY, prefer="np")
        if existing is not None:
            return existing
        if self.target_of(NUMPY) is not None or NUMPY in self.scopes.module_bound:
            return None
        self.add_needed_import(NUMPY)
        self._numpy = NUMPY
        return NUMPY



def _rgb_bytes(numpy: str, canvas: cst.BaseExpression) -> cst.Call:
    """``<numpy>.asarray(<canvas>.buffer_rgba())[..., :3].tobytes()``."""
    rgba = cst.Call(func=dotted_expression(f"{numpy}.asarray"), args=[cst.Arg(cst.Call(
        func=cst.Attribute(value=canvas, attr=cst.Name("buffer_rgba"))))])
    rgb = cst.Subscript(value=rgba, slice=[
        cst.SubscriptElement(cst.Index(cst.Ellipsis()),
                             comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
        cst.SubscriptElement(cst.Slice(lower=None, upper=cst.Integer("3")))])
    return cst.Call(func=cst.Attribute(value=rgb, attr=cst.Name("tobytes")))
