"""``json.dump`` / ``json.dumps`` in Python 2 code: Python 2's ``str``, written as text.

Python 2's ``str`` was bytes, and its json wrote it as text (decoded with the call's
``encoding``, UTF-8 by default), as a value or as a key. Python 3's json refuses bytes
(``Object of type bytes is not JSON serializable``) and the ``encoding`` argument. TF1-era
Python 2 code handed json what its libraries gave as ``str``: object detection 0.1.1's
COCO export writes the run-length encodings pycocotools' ``mask.encode`` returns, whose
``counts`` are bytes on Python 3 (``coco_tools_test``'s ``testExportSegmentsToCOCO``, which
passes on Python 2.7 + TF 1.14). In code that ran on Python 2 only (``py2_code``'s
Python 2-only evidence, or a Python 2 project's module: tree fact ``tree_python2``; not a
file whose ``from __future__`` lines alone show it ran on Python 3 too, where json refused
bytes as it does now) such a call becomes ``slim_ext.py2_json.dump`` / ``dumps`` with the
same arguments: json's own, given the object with its bytes decoded as Python 2 decoded
them: the text Python 2 wrote, wherever it wrote one (without bytes, json gets the same
object). A call in Python 3 code stays.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Pattern

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod, reads_function
from slimport.codemods._runtime_calls import RuntimeCalls
from slimport.codemods.base import StatementFilter, code_of

RUNTIME = "slim_ext.py2_json"
_NAMES = ("dump", "dumps")
# json's function -> Python 2's, in slim_ext.
HOMES: Dict[str, str] = {f"json.{name}": f"{RUNTIME}.{name}" for name in _NAMES}


class Py2JsonBytesCommand(RuntimeCalls, LeftoverCodemod):
    """json.dump/dumps in Python 2 code -> slim_ext.py2_json's, which write str as text."""

    NAME: ClassVar[str] = "py2_json_bytes"
    DESCRIPTION: ClassVar[str] = (
        "json.dump / json.dumps in Python 2 code -> slim_ext.py2_json.dump / dumps, which "
        "write bytes (Python 2's str) as text as Python 2's json did"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\bdumps?\(")
    RUNTIME: ClassVar[str] = RUNTIME

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "json" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return reads_function(frozenset(_NAMES))

    def leftovers_are_ours(self, parsed: ast.Module) -> bool:
        return self.ran_on_python2_only(parsed) is not None

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._python2 = self.ran_on_python2_only(parsed)
        self.start_runtime_calls()
        return True

    def visit_Call(self, node: cst.Call) -> None:
        home = HOMES.get(self.resolve_name(node.func) or "")
        if home is None:
            return
        problem = (f"{code_of(node.func)}(...) in Python 2 code ({self._python2}); Python 2's "
                   "json wrote str, which was bytes, as text; Python 3's raises TypeError on "
                   "bytes")
        if not self.slim_ext_free(node, problem, f"{home}(...)"):
            return
        self.send_to_runtime(node, home)
        self.record_edit(node, f"{problem}: {code_of(node.func)} -> {home}")
