"""Standard-library names Python 3 removed that TF1-era code still reaches for.

- ``inspect.getargspec(f)`` (removed in Python 3.11) -> ``inspect.getfullargspec(f)``
  where only what both give is read: ``.args``, ``.varargs``, ``.defaults``, or an index
  0-3 (the first four fields are the same, in the same order); ``.keywords`` is
  ``.varkw`` there. Other uses (unpacking four names from a seven-field result,
  ``len()``, storing it) are reported.
- ``json.encoder.FLOAT_REPR``: Python 2's json wrote floats through this hook (code set
  it to round its output); Python 3 removed it, so a read fails and a write has no
  effect. A file that reads or sets it gets ``import slim_ext.py2_json``, which gives
  the name back and has json honour it where Python 2.7 did; the code stays as written.
- ``import StringIO`` / ``import cStringIO`` (``as`` any name), ``from StringIO import
  StringIO`` / ``from cStringIO import StringIO``: Python 2's buffer held ``str``, which
  was bytes, and ``unicode``; Python 3 splits it into ``io.StringIO`` (text) and
  ``io.BytesIO`` (bytes), and which one a line needs depends on what it writes at run
  time (PIL's PNG bytes, a CSV's lines), so neither is chosen here: the import becomes
  ``slim_ext.py2_stringio``'s (``import slim_ext.py2_stringio as StringIO``, the name it
  bound kept), whose ``StringIO`` holds bytes or text as written, as Python 2's did. A
  ``from`` import of another name (``cStringIO.InputType``) is reported.

Only TF1-era code and plain Python are ported (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Set

import libcst as cst
from libcst.helpers import get_full_name_for_node

from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods._leftovers import LeftoverCodemod, reads_attribute
from slimport.codemods._statements import imports_module
from slimport.analysis.names import Bindings, dotted_parts

GETARGSPEC = "inspect.getargspec"
FLOAT_REPR = "json.encoder.FLOAT_REPR"
# Gives json.encoder.FLOAT_REPR back, honoured as Python 2.7 honoured it.
PY2_JSON = "slim_ext.py2_json"
# getargspec's fields that getfullargspec has under the same or another name.
SHARED_FIELDS: Dict[str, str] = {"args": "args", "varargs": "varargs",
                                 "defaults": "defaults", "keywords": "varkw"}
PY2_BUFFERS = ("StringIO", "cStringIO")
# Python 2's buffer of bytes or text, as written (both modules' StringIO).
PY2_STRINGIO = "slim_ext.py2_stringio"
_TRIGGER_TEXT = re.compile(r"getargspec|FLOAT_REPR|\bc?StringIO\b")
_PY2_BUFFER = "Python 2's buffer: it holds bytes or text, as written"


class RemovedStdlibCommand(LeftoverCodemod):
    """Ports inspect.getargspec, json.encoder.FLOAT_REPR and the StringIO modules."""

    NAME: ClassVar[str] = "removed_stdlib"
    DESCRIPTION: ClassVar[str] = (
        "standard-library names Python 3 removed: inspect.getargspec -> getfullargspec, "
        "json.encoder.FLOAT_REPR given back (import slim_ext.py2_json), StringIO / "
        "cStringIO -> slim_ext.py2_stringio (bytes or text, as written)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return reads_attribute({"getargspec", "FLOAT_REPR"})

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._replacements: Dict[int, cst.BaseExpression] = {}
        self._ported_calls: Set[int] = set()
        self._json_hooked = imports_module(tree, PY2_JSON)
        return True

    def visit_Import(self, node: cst.Import) -> bool:
        names = list(node.names)
        for number, alias in enumerate(names):
            module = get_full_name_for_node(alias.name)
            if module in PY2_BUFFERS:
                bound = alias.asname.name.value if alias.asname is not None else module  # type: ignore[attr-defined]
                names[number] = alias.with_changes(
                    name=cst.parse_expression(PY2_STRINGIO), asname=cst.AsName(cst.Name(bound)))
                self.record_edit(node, f"`import {module}`: Python 3 has no such module -> "
                                       f"import {PY2_STRINGIO} as {bound} ({_PY2_BUFFER})")
        if names != list(node.names):
            self._replacements[id(node)] = node.with_changes(names=names)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        module = get_full_name_for_node(node.module) if node.module is not None else None
        if not node.relative and module in PY2_BUFFERS:
            if isinstance(node.names, cst.ImportStar) or any(
                    alias.evaluated_name != "StringIO" for alias in node.names):
                self.needs_attention(node, f"`from {module} import ...` of another name than "
                                     "StringIO: Python 3 has no such module",
                                     f"import StringIO from {PY2_STRINGIO} (bytes or text, "
                                     "as written), the rest by hand")
            else:
                self._replacements[id(node)] = node.with_changes(
                    module=cst.parse_expression(PY2_STRINGIO))
                self.record_edit(node, f"`from {module} import StringIO`: Python 3 has no "
                                       f"such module -> from {PY2_STRINGIO} ({_PY2_BUFFER})")
        elif not node.relative and module == "inspect" and not isinstance(
                node.names, cst.ImportStar) and any(
                alias.evaluated_name == "getargspec" for alias in node.names):
            self.needs_attention(node, "`from inspect import getargspec`: removed in Python "
                                 "3.11", "use getfullargspec (its first four fields are "
                                 "getargspec's; `keywords` is `varkw`)")
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        field = node.attr.value
        value = node.value
        if field in SHARED_FIELDS and self._getargspec_call(value):
            self._port_getargspec(value, field, node)
        elif field == "FLOAT_REPR" and self.resolve_name(node) == FLOAT_REPR:
            self._float_repr(node)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not self._getargspec_call(node.value):
            return
        index = node.slice[0].slice if len(node.slice) == 1 else None
        if isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) \
                and int(index.value.value) < 4:
            self._port_getargspec(node.value)

    def visit_Call(self, node: cst.Call) -> None:
        if self._getargspec_call(node) and id(node) not in self._ported_calls:
            # Reached after the attribute or subscript around it had its chance.
            self.needs_attention(node, f"{code_of(node.func)}: removed in Python 3.11; "
                                 "getfullargspec's result has seven fields, not four",
                                 "use inspect.getfullargspec and read .args / .varargs / "
                                 ".varkw / .defaults by name")

    def _getargspec_call(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and dotted_parts(node.func) is not None \
            and self.resolve_name(node.func) == GETARGSPEC

    def _port_getargspec(self, call: cst.Call, field: Optional[str] = None,
                         read: Optional[cst.Attribute] = None) -> None:
        self._ported_calls.add(id(call))
        func = call.func
        assert isinstance(func, cst.Attribute)
        self._replacements[id(func)] = func.with_changes(attr=cst.Name("getfullargspec"))
        if read is not None and field is not None and SHARED_FIELDS[field] != field:
            self._replacements[id(read)] = read.with_changes(attr=cst.Name(SHARED_FIELDS[field]))
        self.record_edit(call, f"{code_of(func)} -> getfullargspec"
                               + (f" (.{field} is .{SHARED_FIELDS[field]})"
                                  if field and SHARED_FIELDS[field] != field else ""))

    def _float_repr(self, node: cst.Attribute) -> None:
        if self._json_hooked or not self.slim_ext_free(
                node, f"{code_of(node)}: Python 3's json has no FLOAT_REPR hook",
                f"give the file's own slim_ext another name, then import {PY2_JSON}"):
            return
        self.add_needed_import(PY2_JSON)
        self.record_edit(node, f"{code_of(node)}: Python 3's json has no FLOAT_REPR hook -> "
                               f"import {PY2_JSON}, which gives it back (floats written "
                               "through it where Python 2.7 wrote them)")

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode
                 ) -> cst.CSTNode:
        replacement = self._replacements.pop(id(original_node), None)
        if replacement is None:
            return super().on_leave(original_node, updated_node)
        if isinstance(replacement, cst.Attribute) and isinstance(updated_node, cst.Attribute):
            return updated_node.with_changes(attr=replacement.attr)
        return replacement
