"""Python 2's special methods and function attributes, which Python 3 renamed.

In Python 2 code (``py2_code``):

- a class that defines ``__nonzero__`` (truth), ``__div__`` / ``__rdiv__`` / ``__idiv__``
  (``/``) and not the Python 3 name gets ``__bool__ = __nonzero__`` (``__truediv__ =
  __div__``, ...) right after the method: Python 3 calls only the new names, so the class
  kept its truth and its ``/`` on Python 2 alone. A class that defines ``__cmp__`` and
  none of ``__eq__``/``__lt__`` is reported (Python 3 never calls ``__cmp__``; which
  rich comparisons it stands for is the class's business).
- a function's or method's Python 2 attributes -> Python 3's: ``f.func_name`` ->
  ``f.__name__``, ``func_code`` -> ``__code__``, ``func_defaults`` -> ``__defaults__``,
  ``func_globals`` -> ``__globals__``, ``func_doc`` -> ``__doc__``, ``func_closure`` ->
  ``__closure__``, ``m.im_func`` -> ``m.__func__``, ``im_self`` -> ``__self__`` (2to3's
  ``fix_funcattrs`` and ``fix_methodattrs``); ``im_class`` (gone) is reported. Left where
  the file itself sets an attribute of that name (then it is an attribute of its own).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, List, Pattern, Set

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings
from slimport.analysis.py2_code import is_python2_code
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

SPECIAL_METHODS: Dict[str, str] = {"__nonzero__": "__bool__", "__div__": "__truediv__",
                                   "__rdiv__": "__rtruediv__", "__idiv__": "__itruediv__"}
ATTRIBUTES: Dict[str, str] = {
    "func_name": "__name__", "func_code": "__code__", "func_defaults": "__defaults__",
    "func_globals": "__globals__", "func_doc": "__doc__", "func_closure": "__closure__",
    "im_func": "__func__", "im_self": "__self__",
}
REPORTED_ATTRIBUTES = frozenset({"im_class"})
_TRIGGER_TEXT = re.compile(r"\b(?:__nonzero__|__r?i?div__|__cmp__|func_\w+|im_\w+)\b")


class Py2MethodsCommand(LeftoverCodemod):
    """Gives Python 2 classes their Python 3 special methods; renames function attributes."""

    NAME: ClassVar[str] = "py2_methods"
    DESCRIPTION: ClassVar[str] = (
        "Python 2 code's __nonzero__/__div__ without __bool__/__truediv__ -> aliases of "
        "them; f.func_name -> f.__name__, m.im_func -> m.__func__ (and kin)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        names = set(ATTRIBUTES) | REPORTED_ATTRIBUTES
        return lambda statement: isinstance(statement, ast.ClassDef) or any(
            node.attr in names for node in nodes_of(statement, (ast.Attribute,)))  # type: ignore[attr-defined]

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        whole = self.original_ast or parsed
        if not is_python2_code(whole):
            return False
        # Attribute names the file sets itself (``self.func_name = ...``): its own.
        self._own: Set[str] = {node.attr for node in nodes_of(whole, (ast.Attribute,))  # type: ignore[attr-defined]
                               if isinstance(node.ctx, ast.Store)}  # type: ignore[attr-defined]
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> cst.ClassDef:
        body = updated_node.body
        if not isinstance(body, cst.IndentedBlock):
            return updated_node
        defined = {statement.name.value for statement in body.body
                   if isinstance(statement, cst.FunctionDef)}
        defined |= {target.target.value for statement in body.body
                    if isinstance(statement, cst.SimpleStatementLine)
                    for small in statement.body if isinstance(small, cst.Assign)
                    for target in small.targets if isinstance(target.target, cst.Name)}
        if "__cmp__" in defined and not defined & {"__eq__", "__lt__"}:
            self.needs_attention(original_node, f"class {updated_node.name.value} defines "
                                 "__cmp__, which Python 3 never calls",
                                 "define __eq__ and __lt__ (functools.total_ordering for "
                                 "the rest) from what __cmp__ returns")
        statements: List[cst.BaseStatement] = []
        for statement in body.body:
            statements.append(statement)
            if not isinstance(statement, cst.FunctionDef):
                continue
            new = SPECIAL_METHODS.get(statement.name.value)
            if new is None or new in defined:
                continue
            old = statement.name.value
            statements.append(cst.SimpleStatementLine([cst.Assign(
                [cst.AssignTarget(cst.Name(new))], cst.Name(old))]))
            self.record_edit(original_node, f"class {updated_node.name.value}: {new} = {old} "
                             f"(Python 3 calls {new}, never {old})")
        return updated_node.with_changes(body=body.with_changes(body=statements))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.Attribute:
        name = updated_node.attr.value
        if name in self._own:
            return updated_node
        if name in REPORTED_ATTRIBUTES:
            self.needs_attention(original_node, f"{code_of(original_node)}: Python 3's "
                                 "methods have no im_class", "type(m.__self__) for a bound "
                                 "method; an unbound method is a plain function on Python 3")
            return updated_node
        new = ATTRIBUTES.get(name)
        if new is None:
            return updated_node
        self.record_edit(original_node, f".{name} -> .{new} (Python 3's name)")
        return updated_node.with_changes(attr=cst.Name(new))
