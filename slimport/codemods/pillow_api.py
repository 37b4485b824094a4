"""Pillow calls that Pillow 10-13 removed or changed, in TF1-era image code.

- ``font.getsize(text)`` (removed in Pillow 10) -> ``font.getbbox(text)[2:]``: getsize's
  (width, height) was the text's size plus its offset from the origin, which is the
  right and bottom of ``getbbox`` (for TrueType and bitmap fonts alike; with a
  ``stroke_width`` the two differ, and that call is reported). Ported where the font is
  certainly a Pillow font: made by ``ImageFont.truetype`` / ``load_default`` / ``load`` /
  ``load_path`` / ``FreeTypeFont``, or a name every binding of which in its scope is
  one of those (object detection's ``visualization_utils``); a ``getsize`` of another
  receiver in a file that imports ``ImageFont`` is reported.
- ``Image.fromarray(array, mode)`` with an array of a type that mode does not hold
  (``np.random.rand(256, 256, 3)``, float64, read as 'RGB'): Pillow up to 11 took the
  array's raw bytes as pixels of ``mode``; Pillow 13 refuses (``Cannot handle this data
  type``). TF1-era tests make dummy images so (object detection's dataset tools). Where
  the array is certainly float64 of a rank the mode takes -- a name every binding of
  which is ``np.random.rand`` / ``randn`` / ``random`` / ``random_sample`` or
  ``np.zeros`` / ``ones`` / ``empty`` of a written-out shape -- the call becomes what
  Pillow did with it: ``Image.frombuffer(mode, (a.shape[1], a.shape[0]), a, 'raw',
  mode, 0, 1)``. An array whose type fits the mode is left: fromarray still takes it.
- ``Image.ANTIALIAS`` / ``Image.LINEAR`` / ``Image.CUBIC`` (removed in Pillow 10) ->
  ``Image.LANCZOS`` / ``Image.BILINEAR`` / ``Image.BICUBIC``, the filters they were
  aliases of (the same numbers; tflearn 0.3.2's ``resize_mode=Image.ANTIALIAS``).

Only TF1-era code and plain Python are ported (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern

import libcst as cst

from slimport.analysis.binding_values import binding_scope, only_bound_to
from slimport.analysis.builtin_names import module_bound_names
from slimport.analysis.names import Bindings, is_under
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

IMAGE_FONT = "PIL.ImageFont"
FROMARRAY = "PIL.Image.fromarray"
GETSIZE = "getsize"
# ImageFont functions and classes that make a font.
FONT_MAKERS = frozenset({"truetype", "load_default", "load", "load_path", "FreeTypeFont"})
# getsize's keywords that getbbox takes with the same meaning.
SAME_KEYWORDS = frozenset({"direction", "features", "language"})
# NumPy functions whose result is float64: the shape is their positional arguments, or
# their first argument (a written-out tuple or list).
FLOAT64_BY_DIMENSIONS = frozenset({"numpy.random.rand", "numpy.random.randn"})
FLOAT64_BY_SHAPE = frozenset({"numpy.random.random", "numpy.random.random_sample",
                              "numpy.zeros", "numpy.ones", "numpy.empty"})
# fromarray's mode -> the ranks of the arrays Pillow read as it (two axes at least: a
# vector's size was (1, n)).
MODE_RANKS = {"RGB": (2, 3), "RGBA": (2, 3), "L": (2,)}
# Image's resampling filters Pillow 10 removed -> the filters they were aliases of.
RENAMED_FILTERS = {"ANTIALIAS": "LANCZOS", "LINEAR": "BILINEAR", "CUBIC": "BICUBIC"}
_TRIGGER_TEXT = re.compile(r"\.getsize\(|fromarray\(|\.(?:ANTIALIAS|LINEAR|CUBIC)\b")


class PillowApiCommand(LeftoverCodemod):
    """Ports ImageFont getsize and Image.fromarray of mismatched arrays as Pillow 9 ran them."""

    NAME: ClassVar[str] = "pillow_api"
    DESCRIPTION: ClassVar[str] = (
        "Pillow calls removed or changed by Pillow 10-13: font.getsize(s) -> "
        "font.getbbox(s)[2:]; Image.fromarray(float array, mode) -> the raw read it was; "
        "Image.ANTIALIAS -> Image.LANCZOS (LINEAR, CUBIC)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "PIL" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Each use, and every binding of a name one is called on or passes.
        names = {node.id for call in ast.walk(tree) if isinstance(call, ast.Call)
                 for node in [*([call.func.value] if isinstance(call.func, ast.Attribute)
                                else []), *call.args[:1]] if isinstance(node, ast.Name)}
        return lambda statement: any(
            (isinstance(node, ast.Attribute)
             and node.attr in (GETSIZE, "fromarray", *RENAMED_FILTERS))
            or (isinstance(node, ast.Name) and node.id in names
                and isinstance(node.ctx, ast.Store))
            for node in ast.walk(statement))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._module = tree
        self._module_bound = module_bound_names(tree, parsed)
        self._uses_fonts = any(is_under(target, IMAGE_FONT)
                               for target in self.module_names.names.values())
        # getsize calls -> getbbox; fromarray calls -> their mode's literal.
        self._getsize: Dict[cst.Call, None] = {}
        self._fromarray: Dict[cst.Call, cst.SimpleString] = {}
        # Image.ANTIALIAS and the other removed filter names -> the name each becomes.
        self._filters: Dict[cst.Attribute, str] = {}
        return True

    def visit_Attribute(self, node: cst.Attribute) -> None:
        old = node.attr.value
        if old in RENAMED_FILTERS and self.resolve_name(node) == f"PIL.Image.{old}":
            self._filters[node] = RENAMED_FILTERS[old]
            self.record_edit(node, f"{code_of(node)} -> ...{RENAMED_FILTERS[old]} (Pillow 10 "
                                   "removed the alias; the same filter)")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.Attribute:
        new = self._filters.pop(original_node, None)
        return updated_node if new is None else updated_node.with_changes(attr=cst.Name(new))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        func = updated_node.func
        if original_node in self._getsize:
            del self._getsize[original_node]
            bbox = updated_node.with_changes(
                func=func.with_changes(attr=cst.Name("getbbox")),  # type: ignore[attr-defined]
                lpar=[], rpar=[])
            return cst.Subscript(value=bbox, slice=[cst.SubscriptElement(cst.Slice(
                lower=cst.Integer("2"), upper=None))], lpar=updated_node.lpar,
                rpar=updated_node.rpar)
        mode = self._fromarray.pop(original_node, None)
        if mode is None:
            return updated_node
        array = updated_node.args[0].value
        return updated_node.with_changes(
            func=func.with_changes(attr=cst.Name("frombuffer")),  # type: ignore[attr-defined]
            args=_frombuffer_args(mode, array))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        if func.attr.value == GETSIZE and self.resolve_name(func) is None:
            self._port_getsize(node, func.value)
        elif func.attr.value == "fromarray" and self.resolve_name(func) == FROMARRAY:
            self._port_fromarray(node)

    # -- ImageFont getsize -------------------------------------------------------------

    def _port_getsize(self, node: cst.Call, font: cst.BaseExpression) -> None:
        args = node.args
        portable = len(args) >= 1 and args[0].keyword is None and not args[0].star and all(
            arg.keyword is not None and arg.keyword.value in SAME_KEYWORDS for arg in args[1:])
        if portable and self._certainly_font(font):
            self._getsize[node] = None
            self.record_edit(node, f"{code_of(node)} -> {code_of(font)}.getbbox(...)[2:] "
                                   "(getsize was removed in Pillow 10; its width and height "
                                   "are getbbox's right and bottom)")
        elif self._uses_fonts:
            self.needs_attention(
                node, f"{code_of(node)}: ImageFont's getsize was removed in Pillow 10; left "
                "unchanged because the receiver may not be a Pillow font (or the call passes "
                "what getbbox reads otherwise)",
                f"for a Pillow font: {code_of(font)}.getbbox(text)[2:] (with a stroke_width, "
                "getbbox's box is smaller by it)")

    def _certainly_font(self, font: cst.BaseExpression) -> bool:
        if isinstance(font, cst.Call):
            return self._makes_font(font)
        if isinstance(font, cst.Name):
            owner = binding_scope(self.scopes, self._module, self._module_bound, font.value)
            return owner is not None and only_bound_to(
                owner, font.value,
                lambda value: isinstance(value, cst.Call) and self._makes_font(value))
        return False

    def _makes_font(self, call: cst.Call) -> bool:
        qualified = self.resolve_name(call.func) or ""
        module, _, name = qualified.rpartition(".")
        return module == IMAGE_FONT and name in FONT_MAKERS

    # -- Image.fromarray of a float array ---------------------------------------------

    def _port_fromarray(self, node: cst.Call) -> None:
        args = node.args
        if len(args) != 2 or any(arg.star for arg in args) or args[0].keyword is not None \
                or (args[1].keyword is not None and args[1].keyword.value != "mode"):
            return
        array, mode = args[0].value, args[1].value
        if not (isinstance(mode, cst.SimpleString) and mode.evaluated_value in MODE_RANKS
                and isinstance(array, cst.Name)):
            return
        owner = binding_scope(self.scopes, self._module, self._module_bound, array.value)
        ranks = MODE_RANKS[str(mode.evaluated_value)]
        if owner is None or not only_bound_to(
                owner, array.value, lambda value: self._float64_rank(value) in ranks):
            return
        self._fromarray[node] = mode
        self.record_edit(node, f"{code_of(node)} -> Image.frombuffer(...) of its raw bytes "
                               "(Pillow up to 11 read a float64 array's bytes as pixels of "
                               "the mode; Pillow 13 refuses the array)")

    def _float64_rank(self, value: cst.BaseExpression) -> Optional[int]:
        """The rank of the float64 array ``value`` makes, or None if it is not one."""
        if not isinstance(value, cst.Call) or any(arg.star for arg in value.args):
            return None
        qualified = self.resolve_name(value.func)
        if qualified in FLOAT64_BY_DIMENSIONS:
            if all(arg.keyword is None for arg in value.args):
                return len(value.args)
            return None
        if qualified in FLOAT64_BY_SHAPE and len(value.args) == 1 \
                and value.args[0].keyword is None \
                and isinstance(value.args[0].value, (cst.Tuple, cst.List)):
            return len(value.args[0].value.elements)
        return None


def _frombuffer_args(mode: cst.SimpleString, array: cst.BaseExpression) -> list:
    """``mode, (a.shape[1], a.shape[0]), a, 'raw', mode, 0, 1``: fromarray's raw read."""
    def shape(index: int) -> cst.Subscript:
        return cst.Subscript(value=cst.Attribute(value=array, attr=cst.Name("shape")),
                             slice=[cst.SubscriptElement(cst.Index(cst.Integer(str(index))))])

    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    size = cst.Tuple([cst.Element(shape(1), comma=comma), cst.Element(shape(0))])
    raw = cst.SimpleString(f"{mode.quote}raw{mode.quote}")
    values = [mode, size, array, raw, mode, cst.Integer("0"), cst.Integer("1")]
    return [cst.Arg(value, comma=comma if index < len(values) - 1 else cst.MaybeSentinel.DEFAULT)
            for index, value in enumerate(values)]
