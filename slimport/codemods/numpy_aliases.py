"""NumPy names that NumPy 1.24 / 2.0 removed -> what they stood for.

TF1-era code wrote ``np.float``, ``np.int``, ``np.bool``, ``np.object``, ``np.str``,
``np.long``, ``np.unicode`` and ``np.complex``: aliases of the Python builtins, removed
in NumPy 1.24 (TensorFlow 2.21 ships NumPy 2). They become the builtins they were
(``np.bool`` and ``np.long`` came back in NumPy 2 as NumPy scalar types, which are not
what the code meant). The other NumPy 2 removals become the NumPy names that always
meant the same (``np.float_`` -> ``np.float64``, ``np.NaN`` -> ``np.nan``,
``np.product`` -> ``np.prod``); those exist in NumPy 1.x too, so the result runs with
TF 2.15's NumPy as well. Any name numpy is imported as counts (``import numpy``,
``import numpy as onp``); a builtin is not used where the file binds that name itself.

Two removed functions of binary data have a successor with one difference each:

- ``x.tostring()`` -> ``x.tobytes()`` (NumPy 2.3 removed ``ndarray.tostring``; Python 3.9
  ``array.array.tostring``, Pillow 3 ``Image.tostring``: each the same bytes as its
  ``tobytes``), where ``x`` is no module (``etree.tostring(el)`` is a function) and the
  tree defines no ``tostring`` of its own (tree fact ``tree_methods``; a file ported on
  its own is reported).
- ``np.fromstring(data, dtype)`` in binary mode (no ``sep``; removed in NumPy 2.3) ->
  ``np.frombuffer(data, dtype).copy()``: the copy keeps the array writable, as
  fromstring's was. Only where ``data`` is certainly bytes (a bytes literal, a
  ``tobytes()`` / ``tostring()`` / ``tostring_rgb()`` / ``SerializeToString()`` result):
  NumPy 1.x also took a ``str`` (its UTF-8 bytes), which frombuffer refuses, so other
  arguments are reported. Text mode (``sep=' '``) still exists and stays.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Set, Tuple

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.codemods.base import StatementFilter, chain_filter, code_of
from slimport.analysis.builtin_names import bound_here, module_bound_names
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.tree_facts import TREE_METHODS, TreeFact
from slimport.analysis.names import (
    Bindings,
    bound_names,
    dotted_expression,
    dotted_parts,
    name_in,
)

NUMPY = "numpy"
# numpy.<alias> -> the builtin it was.
BUILTIN_ALIASES: Dict[str, str] = {
    "bool": "bool", "int": "int", "float": "float", "complex": "complex",
    "object": "object", "str": "str", "long": "int", "unicode": "str",
}
# numpy.<removed> -> the numpy name that means the same in NumPy 1.x and 2.x.
RENAMED: Dict[str, str] = {
    "float_": "float64", "complex_": "complex128", "string_": "bytes_",
    "unicode_": "str_", "bool8": "bool_", "int0": "intp", "uint0": "uintp",
    "object0": "object_", "NaN": "nan", "NAN": "nan", "Inf": "inf", "Infinity": "inf",
    "infty": "inf", "PINF": "inf", "round_": "round", "product": "prod",
    "cumproduct": "cumprod", "sometrue": "any", "alltrue": "all",
}
# Binary data: ``x.tostring()`` -> ``x.tobytes()``; ``numpy.fromstring`` (binary mode).
TOSTRING, TOBYTES, FROMSTRING = "tostring", "tobytes", "fromstring"
# Methods whose result is certainly bytes (NumPy, Python, Pillow, matplotlib, protobuf).
BYTES_METHODS = frozenset({"tobytes", "tostring", "tostring_rgb", "tostring_argb",
                           "SerializeToString"})
_TRIGGER_TEXT = re.compile(r"\.(?:%s)\b|\.tostring\(\)" % "|".join(
    sorted({*BUILTIN_ALIASES, *RENAMED, FROMSTRING})))


def _removed(qualified: Optional[str]) -> Optional[str]:
    """``numpy.float`` -> ``float``; None for names NumPy still has."""
    name = name_in(qualified, NUMPY)
    return name if name in BUILTIN_ALIASES or name in RENAMED else None


class NumpyAliasesCommand(LeftoverCodemod):
    """Replaces NumPy's removed aliases with the builtins / NumPy names they stood for."""

    NAME: ClassVar[str] = "numpy_aliases"
    DESCRIPTION: ClassVar[str] = (
        "NumPy names removed in 1.24 / 2.0 (np.float, np.int, np.bool, "
        "np.float_, np.NaN, ...) -> the builtins / NumPy names they meant"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    # Is ``x.tostring()`` NumPy's (or Python's, Pillow's), or the tree's own method?
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = LeftoverCodemod.TREE_FACTS + (TREE_METHODS,)

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return ("numpy" in source or ".tostring()" in source) and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Also what binds a builtin's name: whether ``int`` is the builtin depends on it.
        builtins = set(BUILTIN_ALIASES.values())
        uses = chain_filter(lambda parts: _removed(bindings.resolve_parts(parts)) is not None
                            or parts[-1] in (TOSTRING, FROMSTRING))
        return lambda statement: (uses(statement)
                                  or bool(builtins & set(bound_names(statement)))
                                  or any(node.attr == TOSTRING  # type: ignore[attr-defined]
                                         for node in nodes_of(statement, (ast.Attribute,))))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._module_bound = module_bound_names(tree, parsed)
        self._replacements: Dict[cst.CSTNode, cst.BaseExpression] = {}
        # Attributes written, not read: ``np.object = object`` (a compat shim) stays.
        self._written: Set[int] = set()
        # np.fromstring calls ported -> the index of the sep='' argument they drop.
        self._fromstring: Dict[cst.Call, Optional[int]] = {}
        self._defines_tostring = any(
            node.name == TOSTRING  # type: ignore[attr-defined]
            for node in nodes_of(parsed, (ast.FunctionDef, ast.AsyncFunctionDef)))
        return True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._written.add(id(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._written.add(id(node.target))

    def visit_Del(self, node: cst.Del) -> None:
        self._written.add(id(node.target))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        return self._replacements.pop(original_node, updated_node)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        if original_node not in self._fromstring:
            return updated_node
        dropped = self._fromstring.pop(original_node)
        args = [arg for index, arg in enumerate(updated_node.args) if index != dropped]
        if dropped is not None and args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        func = updated_node.func
        assert isinstance(func, cst.Attribute)
        buffer = updated_node.with_changes(func=func.with_changes(attr=cst.Name("frombuffer")),
                                           args=args, lpar=[], rpar=[])
        return cst.Call(func=cst.Attribute(value=buffer, attr=cst.Name("copy")),
                        lpar=updated_node.lpar, rpar=updated_node.rpar)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        if func.attr.value == TOSTRING:
            self._port_tostring(node, func)
        elif func.attr.value == FROMSTRING and \
                self.resolve_name(func) == f"{NUMPY}.{FROMSTRING}":
            self._port_fromstring(node, func)

    def _port_tostring(self, node: cst.Call, func: cst.Attribute) -> None:
        """``x.tostring()`` -> ``x.tobytes()``: the same bytes, wherever tostring is gone."""
        if self.resolve_name(func.value) is not None or self._defines_tostring \
                or (self.tree_methods is not None and TOSTRING in self.tree_methods):
            return  # a module's function (etree.tostring), or the tree's own method
        if self.tree_methods is None:
            self.needs_attention(node, f"{code_of(node)}: ndarray.tostring was removed in "
                                 "NumPy 2.3 (array.array's in Python 3.9); left unchanged "
                                 "because the receiver may be an object of the tree",
                                 f"if it is an array, use {code_of(func.value)}.tobytes()")
            return
        self._replacements[func] = func.with_changes(attr=cst.Name(TOBYTES))
        self.record_edit(node, f"{code_of(node)} -> {code_of(func.value)}.tobytes() "
                               "(tostring was removed in NumPy 2.3)")

    def _port_fromstring(self, node: cst.Call, func: cst.Attribute) -> None:
        """``np.fromstring(data, dtype)`` (binary) -> ``np.frombuffer(data, dtype).copy()``."""
        args = list(node.args)
        positional = [arg for arg in args if arg.keyword is None]
        sep = next((arg for arg in args if arg.keyword is not None
                    and arg.keyword.value == "sep"), positional[3] if len(positional) > 3
                   else None)
        if sep is not None and not (isinstance(sep.value, cst.SimpleString)
                                    and sep.value.evaluated_value == ""):
            return  # text mode, which NumPy still has
        data = args[0].value if args and args[0].keyword is None and not args[0].star \
            else None
        if data is None or not _certainly_bytes(data):
            self.needs_attention(node, f"{code_of(node)}: fromstring's binary mode was "
                                 "removed in NumPy 2.3; left unchanged because the data may "
                                 "be a str (NumPy 1.x read its UTF-8 bytes; frombuffer refuses "
                                 "it)", "if it is bytes, use np.frombuffer(data, dtype).copy()")
            return
        self._fromstring[node] = None if sep is None else args.index(sep)
        self.record_edit(node, f"{code_of(node)} -> {code_of(func.value)}.frombuffer(...).copy() "
                               "(fromstring's binary mode was removed in NumPy 2.3; the copy "
                               "keeps the array writable)")

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        parts = dotted_parts(node)
        if parts is None:
            return True
        name = _removed(self.resolve_name(node))
        if name is None or len(parts) < 2 or id(node) in self._written:
            return False
        head = ".".join(parts[:-1])
        if name in RENAMED:
            new: cst.BaseExpression = dotted_expression(f"{head}.{RENAMED[name]}")
        else:
            builtin = BUILTIN_ALIASES[name]
            if bound_here(self.scopes, self._module_bound, builtin):
                self.needs_attention(node, f"{code_of(node)} was removed from NumPy; it "
                                     f"meant the builtin {builtin}, which this file binds "
                                     "to something else here", f"use builtins.{builtin}")
                return False
            new = cst.Name(builtin)
        self._replacements[node] = new.with_changes(lpar=node.lpar, rpar=node.rpar)
        self.record_edit(node, f"{code_of(node)} -> {code_of(new)}")
        return False


def _certainly_bytes(node: cst.BaseExpression) -> bool:
    """A bytes literal, or the result of a method that returns bytes."""
    if isinstance(node, cst.SimpleString):
        return "b" in node.prefix.lower()
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
        and node.func.attr.value in BYTES_METHODS
