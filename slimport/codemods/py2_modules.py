"""Python 2's standard-library modules and module names that Python 3 renamed or removed.

A Python 2 module imported as it is fails at import on Python 3 (``No module named
'cPickle'``), whatever the rest of the file does. Where Python 3 has the same module
under another name (2to3's ``fix_imports``), the import is renamed and binds the name
the code uses: ``import cPickle`` -> ``import pickle as cPickle``, ``import Queue as q``
-> ``import queue as q``, ``from urlparse import urljoin`` -> ``from urllib.parse import
urljoin`` (``RENAMED``). Where Python 3 split or changed the module (``urllib2``,
``ConfigParser``, ``commands``, ...) the import is reported with the modules to use.
An import inside a ``try`` whose handler catches ``ImportError`` is the file's own
fallback and is left.

Names of modules Python 3 kept: ``string.letters``/``lowercase``/``uppercase`` ->
``string.ascii_letters``/... (Python 2's were these in the C locale TF1 programs ran
in), ``os.getcwdu()`` -> ``os.getcwd()`` (``str`` is Python 2's ``unicode``),
``urllib.urlretrieve``/``urlopen`` -> ``urllib.request.``..., ``urllib.urlencode``/
``quote``/``unquote``/``quote_plus``/``unquote_plus`` -> ``urllib.parse.``... (2to3's
``fix_urllib``); ``string.maketrans`` (``str.maketrans`` or ``bytes.maketrans``, by what
it translates) and ``sys.setdefaultencoding`` are reported. Only where the module name
is the module. Only TF1-era code (``leftovers_are_ours``): Python 2 code, TF1 code,
plain Python.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, FrozenSet, Pattern

import libcst as cst
from libcst.helpers import get_full_name_for_node

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings, dotted_expression, dotted_parts
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

# Python 2 module -> the Python 3 module with its API.
RENAMED: Dict[str, str] = {
    "cPickle": "pickle", "Queue": "queue", "urlparse": "urllib.parse",
    "__builtin__": "builtins", "copy_reg": "copyreg", "htmlentitydefs": "html.entities",
    "HTMLParser": "html.parser", "cookielib": "http.cookiejar", "httplib": "http.client",
    "robotparser": "urllib.robotparser", "SocketServer": "socketserver",
    "Tkinter": "tkinter", "anydbm": "dbm",
}
# Python 2 module -> what to use instead (reported).
SPLIT: Dict[str, str] = {
    "urllib2": "urllib.request (urlopen, Request, build_opener) and urllib.error "
               "(URLError, HTTPError)",
    "ConfigParser": "configparser (its ConfigParser is Python 2's SafeConfigParser; "
                    "RawConfigParser for no interpolation)",
    "commands": "subprocess.getoutput / subprocess.getstatusoutput",
    "dummy_thread": "_dummy_thread (or threading)",
}
# module -> {Python 2 name: its Python 3 name in the module named}.
MOVED_NAMES: Dict[str, Dict[str, str]] = {
    "string": {"letters": "string.ascii_letters", "lowercase": "string.ascii_lowercase",
               "uppercase": "string.ascii_uppercase"},
    "os": {"getcwdu": "os.getcwd"},
    "urllib": {"urlretrieve": "urllib.request.urlretrieve", "urlopen": "urllib.request.urlopen",
               "urlencode": "urllib.parse.urlencode", "quote": "urllib.parse.quote",
               "unquote": "urllib.parse.unquote", "quote_plus": "urllib.parse.quote_plus",
               "unquote_plus": "urllib.parse.unquote_plus"},
}
REPORTED_NAMES: Dict[str, str] = {
    "string.maketrans": "str.maketrans(a, b) for text, bytes.maketrans(a, b) for bytes",
    "sys.setdefaultencoding": "remove it: Python 3's str is text, its default encoding UTF-8",
}
# Every edit and report is at an import of, or an attribute named, one of these.
_NAMES = frozenset({*RENAMED, *SPLIT, "maketrans", "setdefaultencoding",
                    *(name for names in MOVED_NAMES.values() for name in names)})
_TRIGGER_TEXT = re.compile(r"\b(?:%s)\b" % "|".join(sorted(_NAMES)))


class Py2ModulesCommand(LeftoverCodemod):
    """Renames Python 2 standard-library modules and names; reports the split ones."""

    NAME: ClassVar[str] = "py2_modules"
    DESCRIPTION: ClassVar[str] = (
        "Python 2 standard-library modules and names: import cPickle -> import pickle as "
        "cPickle (Queue, urlparse, ...), string.letters -> string.ascii_letters, "
        "urllib.urlretrieve -> urllib.request.urlretrieve; urllib2, ConfigParser reported"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    NAME_TRIGGERS: ClassVar[FrozenSet[str]] = _NAMES

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        names = {name for moved in MOVED_NAMES.values() for name in moved} | {
            name.rpartition(".")[2] for name in REPORTED_NAMES}
        return lambda statement: isinstance(statement, (ast.Import, ast.ImportFrom)) or any(
            node.attr in names for node in nodes_of(statement, (ast.Attribute,)))  # type: ignore[attr-defined]

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._in_try = 0
        self._replaced: Dict[int, cst.BaseExpression] = {}
        return True

    def visit_Try(self, node: cst.Try) -> None:
        if any(_catches_import_error(handler) for handler in node.handlers):
            self._in_try += 1

    def leave_Try(self, original_node: cst.Try, updated_node: cst.Try) -> cst.Try:
        if any(_catches_import_error(handler) for handler in original_node.handlers):
            self._in_try -= 1
        return updated_node

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import
                     ) -> cst.Import:
        if self._in_try:
            return updated_node
        aliases = []
        for alias in updated_node.names:
            name = get_full_name_for_node(alias.name) or ""
            if name in SPLIT:
                self._report_split(original_node, name)
            elif name in RENAMED:
                local = alias.asname.name if alias.asname else cst.Name(name)
                self.record_edit(original_node, f"import {name} -> import {RENAMED[name]} as "
                                 f"{code_of(local)} (Python 3's name for the module)")
                alias = alias.with_changes(name=dotted_expression(RENAMED[name]),
                                           asname=cst.AsName(local))  # type: ignore[arg-type]
            aliases.append(alias)
        return updated_node.with_changes(names=aliases)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> cst.ImportFrom:
        if self._in_try or updated_node.relative or updated_node.module is None:
            return updated_node
        module = get_full_name_for_node(updated_node.module) or ""
        if module in SPLIT:
            self._report_split(original_node, module)
        elif module in RENAMED:
            self.record_edit(original_node, f"from {module} import ... -> from "
                             f"{RENAMED[module]} import ... (Python 3's name for the module)")
            return updated_node.with_changes(module=dotted_expression(RENAMED[module]))
        elif module in MOVED_NAMES and not isinstance(updated_node.names, cst.ImportStar):
            return self._moved_from(original_node, updated_node, module)
        return updated_node

    def _moved_from(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom,
                    module: str) -> cst.ImportFrom:
        aliases = []
        for alias in updated_node.names:  # type: ignore[union-attr]
            name = alias.evaluated_name
            new = MOVED_NAMES[module].get(name)
            reported = REPORTED_NAMES.get(f"{module}.{name}")
            if reported:
                self.needs_attention(original_node, f"`from {module} import {name}`: Python 3 "
                                     "has no such name", reported)
            elif new is not None and new.rpartition(".")[0] == module:
                local = alias.asname.name if alias.asname else cst.Name(name)
                self.record_edit(original_node, f"from {module} import {name} -> "
                                 f"{new.rpartition('.')[2]} as {code_of(local)}")
                alias = alias.with_changes(name=cst.Name(new.rpartition(".")[2]),
                                           asname=cst.AsName(local))  # type: ignore[arg-type]
            elif new is not None:
                self.needs_attention(original_node, f"`from {module} import {name}`: Python 3 "
                                     f"has it as {new}", f"from {new.rpartition('.')[0]} import "
                                     f"{new.rpartition('.')[2]}")
            aliases.append(alias)
        return updated_node.with_changes(names=aliases)

    def _report_split(self, node: cst.CSTNode, module: str) -> None:
        self.needs_attention(node, f"`{module}` is Python 2's; Python 3 has no such module",
                             f"use {SPLIT[module]}")

    def visit_Attribute(self, node: cst.Attribute) -> None:
        parts = dotted_parts(node)
        if parts is None or len(parts) != 2:
            return
        qualified = self.resolve_name(node) or ""
        module, _, name = qualified.rpartition(".")
        if qualified in REPORTED_NAMES:
            self.needs_attention(node, f"{code_of(node)}: Python 3 has no {qualified}",
                                 REPORTED_NAMES[qualified])
            return
        new = MOVED_NAMES.get(module, {}).get(name)
        if new is None:
            return
        rest = new[len(module) + 1:]
        self._replaced[id(node)] = cst.Attribute(node.value, dotted_expression(rest)) \
            if "." not in rest else dotted_expression(f"{code_of(node.value)}.{rest}")
        if new.count(".") > 1:
            self.add_needed_import(new.rpartition(".")[0])
        self.record_edit(node, f"{code_of(node)} -> {new} (Python 3's name)")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        replaced = self._replaced.pop(id(original_node), None)
        if replaced is None:
            return updated_node
        return replaced.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def _catches_import_error(handler: cst.ExceptHandler) -> bool:
    """Whether an ``except`` clause catches a failed import (the file's own fallback)."""
    if handler.type is None:
        return True
    types = [element.value for element in handler.type.elements] \
        if isinstance(handler.type, cst.Tuple) else [handler.type]
    return any(code_of(kind) in ("ImportError", "ModuleNotFoundError", "Exception")
               for kind in types)
