"""Encoded text that a Python 2 file only formats into text: Python 2's ``str``, decoded.

Python 2 code made its native ``str`` from ``unicode`` with ``.encode``: object detection
0.1.1 names its per-category metrics with ``category_name = unicodedata.normalize('NFKD',
name).encode('ascii', 'ignore')`` and then ``'.../AP@{}IOU/{}'.format(iou,
category_name)``. On Python 2 the bytes went into the text as they were (``.../dog``);
on Python 3 ``format`` writes their ``repr`` (``.../b'dog'``), and every lookup of the
metric by name fails (6 of its tests that pass on Python 2.7 + TF 1.14). Where a name is
assigned ``<text>.encode(<encoding>, ...)`` and every read of it in the same function
formats it into text -- an argument of ``.format``, the right of ``'...' % ...``, beside a
string literal in ``+``, in an f-string -- the value gets ``.decode(<encoding>)``: the
same characters (those ``encode`` dropped or replaced stay so), as text, which is what
Python 2 formatted. A name read any other way (written to a file, compared with bytes,
returned) is left, and so is one in an ``if`` that tells Python 2 from 3 (``if six.PY2:``:
written for both). Only Python 2 code (``py2_code``, or a Python 2 project's module:
tree fact ``tree_python2``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Iterator, List, Optional, Pattern, Set, Tuple

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings, statement_blocks
from slimport.analysis.py2_code import is_python2_code, reads_version
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

_TRIGGER_TEXT = re.compile(r"\.encode\(")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _encoding(call: ast.Call) -> Optional[str]:
    """The codec of ``x.encode(...)`` when the call spells it as a literal or leaves it
    out (UTF-8 on Python 3), else None."""
    if any(isinstance(arg, ast.Starred) for arg in call.args) or \
            any(keyword.arg is None for keyword in call.keywords):
        return None
    given = call.args[:1] + [k.value for k in call.keywords if k.arg == "encoding"]
    if not given:
        return "utf-8"
    value = given[0]
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) \
        else None


def _encode_call(value: ast.AST) -> bool:
    """``<expression>.encode(...)``: the assignments this codemod numbers, the same ones
    on the stdlib ``ast`` (``formatted_encodings``) and in libcst (``visit_Assign``)."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
        value.func.attr == "encode"


def _encoded_value(value: ast.AST) -> Optional[str]:
    """The codec when ``value`` is ``<expression>.encode(...)`` with a codec it spells
    (``_encoding``), else None."""
    return _encoding(value) if _encode_call(value) else None  # type: ignore[arg-type]


def _scopes(tree: ast.Module) -> Iterator[Tuple[Tuple[str, ...], ast.AST]]:
    """Every function and class body with its path of names, the module's first."""
    pending: List[Tuple[Tuple[str, ...], ast.AST]] = [((), tree)]
    while pending:
        path, scope = pending.pop()
        yield path, scope
        pending += [(path + (node.name,), node) for node, _ in _own_nodes(scope)  # type: ignore[attr-defined]
                    if isinstance(node, _SCOPES)]


def _own_nodes(scope: ast.AST) -> Iterator[Tuple[ast.AST, ast.AST]]:
    """(node, parent) for the nodes of ``scope`` outside its nested functions and classes."""
    pending = [scope]
    while pending:
        parent = pending.pop()
        for child in ast.iter_child_nodes(parent):
            yield child, parent
            if not isinstance(child, _SCOPES):
                pending.append(child)


def _text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                              and isinstance(node.value, str))


def _formats_into_text(name: ast.Name, parent: ast.AST, grandparent: Optional[ast.AST]) -> bool:
    """Whether this read of a name puts its value into text."""
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and \
            parent.func.attr == "format" and name is not parent.func.value:
        return True
    if isinstance(parent, ast.keyword) and isinstance(grandparent, ast.Call) and \
            isinstance(grandparent.func, ast.Attribute) and grandparent.func.attr == "format":
        return True
    if isinstance(parent, ast.FormattedValue):
        return True
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod) and \
            parent.right is name and _text(parent.left):
        return True
    if isinstance(parent, ast.Tuple) and isinstance(grandparent, ast.BinOp) and \
            isinstance(grandparent.op, ast.Mod) and grandparent.right is parent and \
            _text(grandparent.left):
        return True
    return isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add) and \
        _text(parent.right if parent.left is name else parent.left)


def _position(node: ast.AST) -> Tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _end(node: ast.AST) -> Tuple[int, int]:
    return node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]


def _assigned_names(statement: ast.AST) -> Set[str]:
    """The names a plain assignment statement binds."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return {node.id for target in targets for node in ast.walk(target)
                if isinstance(node, ast.Name)}
    return set()


class _Scope:
    """One function's (or class's, or the module's) own nodes, for one name's reads."""

    def __init__(self, scope: ast.AST) -> None:
        self.parents: Dict[int, ast.AST] = {}
        self.names: List[ast.Name] = []
        # Names a nested function or class also reads or binds (a closure: reads this
        # codemod does not follow), and those the scope declares global or nonlocal.
        self.declared: Set[str] = set()
        for node, parent in _own_nodes(scope):
            self.parents[id(node)] = parent
            if isinstance(node, ast.Name):
                self.names.append(node)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.declared.update(node.names)
            elif isinstance(node, _SCOPES):
                self.declared.update(inner.id for inner in ast.walk(node)
                                     if isinstance(inner, ast.Name))
        self.scope = scope

    def parent(self, node: ast.AST) -> Optional[ast.AST]:
        return self.parents.get(id(node))

    def version_guarded(self, node: ast.AST) -> bool:
        """Whether ``node`` is in an ``if`` that tells Python 2 from 3 (``if six.PY2:``):
        code written for both, whose Python 2 branch Python 3 never runs."""
        around = self.parent(node)
        while around is not None:
            if isinstance(around, ast.If) and reads_version(around.test):
                return True
            around = self.parent(around)
        return False

    def reads_reached(self, statement: ast.stmt, name: str) -> Optional[List[ast.Name]]:
        """The reads of ``name`` the assignment ``statement`` can reach, or None when a
        loop around it may carry its value back to an earlier read."""
        block = self.parent(statement)
        later = [s for s in _statements_around(block, statement)[1]
                 if name in _assigned_names(s)]
        stop = _end(later[0]) if later else (float("inf"), 0)
        loop = self.parent(statement)
        while loop is not None and loop is not self.scope:
            if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) and \
                    not self._redefined_first(loop, statement, name):
                return None
            loop = self.parent(loop)
        return [node for node in self.names if node.id == name
                and isinstance(node.ctx, ast.Load)
                and _end(statement) <= _position(node) and _position(node) < stop]

    def _redefined_first(self, loop: ast.AST, statement: ast.stmt, name: str) -> bool:
        """Whether no read of ``name`` in ``loop`` up to ``statement`` (which binds it) can
        see the value of the pass before: ``loop`` binds it as its target, or each such
        read comes after an assignment of it in the same pass (earlier in its own
        statement list or in one around it, inside the loop)."""
        if isinstance(loop, (ast.For, ast.AsyncFor)) and name in {
                node.id for node in ast.walk(loop.target) if isinstance(node, ast.Name)}:
            return True
        return all(self._assigned_before(node, loop, name) for node in self.names
                   if node.id == name and isinstance(node.ctx, ast.Load)
                   and _position(loop) < _position(node) < _end(statement))

    def _assigned_before(self, node: ast.AST, loop: ast.AST, name: str) -> bool:
        """Whether a plain assignment of ``name`` comes before ``node`` in the same pass
        of ``loop`` (earlier in a statement list that holds ``node``, inside the loop)."""
        child, parent = node, self.parent(node)
        while parent is not None:
            if any(name in _assigned_names(earlier)
                   for earlier in _statements_around(parent, child)[0]):
                return True
            if parent is loop:
                return False
            child, parent = parent, self.parent(parent)
        return False


def _statements_around(block: Optional[ast.AST], statement: ast.AST
                       ) -> Tuple[List[ast.stmt], List[ast.stmt]]:
    """The statements before and after ``statement`` in the list of ``block`` holding it."""
    for statements in statement_blocks(block) if block is not None else ():  # type: ignore[arg-type]
        for index, candidate in enumerate(statements):
            if candidate is statement:
                return statements[:index], statements[index + 1:]
    return [], []


# An assignment of encoded text: its scope's path of names, the name, and which of the
# scope's encoded assignments of that name it is (0 for the first, in source order).
Key = Tuple[Tuple[str, ...], str, int]


def formatted_encodings(tree: ast.Module) -> Dict[Key, str]:
    """The assignments of encoded text whose value is only formatted into text.

    Args:
      tree: the whole file's stdlib ``ast``.

    Returns:
      Each such assignment's Key -> the codec of its ``encode``. An assignment counts
      when every read it can reach (up to the next assignment of the name in the same
      statement list; none through a loop that may carry it back to an earlier read)
      formats the name into text, and there is one. Scopes whose path of names is not
      unique in the file are left out.
    """
    found: Dict[Key, str] = {}
    # Most files that call .encode( assign no name its result (the shared walk's index
    # says so without walking the scopes).
    if not any(len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)  # type: ignore[attr-defined]
               and _encoded_value(node.value) is not None  # type: ignore[attr-defined]
               for node in nodes_of(tree, (ast.Assign,))):
        return found
    scopes = list(_scopes(tree))
    paths = [path for path, _ in scopes]
    for path, scope in scopes:
        if paths.count(path) > 1:
            continue
        own = _Scope(scope)
        counts: Dict[str, int] = {}
        for node in sorted(own.names, key=_position):
            statement = own.parent(node)
            if not isinstance(node.ctx, ast.Store) or not isinstance(statement, ast.Assign) \
                    or len(statement.targets) != 1 or statement.targets[0] is not node \
                    or not _encode_call(statement.value):
                continue
            index = counts[node.id] = counts.get(node.id, -1) + 1
            codec = _encoded_value(statement.value)
            if codec is None or node.id in own.declared or own.version_guarded(statement):
                continue
            reads = own.reads_reached(statement, node.id)
            if reads and all(_formats_into_text(read, own.parent(read),  # type: ignore[arg-type]
                                                own.parent(own.parent(read)))  # type: ignore[arg-type]
                             for read in reads):
                found[path, node.id, index] = codec
    return found


class Py2NativeStrsCommand(LeftoverCodemod):
    """Decodes encoded text that a Python 2 file only formats into text."""

    NAME: ClassVar[str] = "py2_native_strs"
    DESCRIPTION: ClassVar[str] = (
        "Python 2 code's name = text.encode(codec) read only to format into text (format, "
        "%, +) -> text.encode(codec).decode(codec): the text Python 2 formatted, not b'...'"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return lambda statement: isinstance(statement, ast.Assign) and \
            _encode_call(statement.value)

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        whole = self.original_ast or parsed
        if self.tree_python2 is None and not is_python2_code(whole):
            return False
        self._formatted = formatted_encodings(whole)
        self._path: List[str] = []
        self._counts: Dict[Tuple[Tuple[str, ...], str], int] = {}
        self._decoded: Dict[int, str] = {}
        return bool(self._formatted)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._path.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> cst.ClassDef:
        self._path.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._path.append(node.name.value)

    def leave_FunctionDef(self, original_node: cst.FunctionDef,
                          updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self._path.pop()
        return updated_node

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return
        value = node.value
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == "encode"):
            return
        name, path = node.targets[0].target.value, tuple(self._path)
        index = self._counts[path, name] = self._counts.get((path, name), -1) + 1
        codec = self._formatted.get((path, name, index))
        if codec is None:
            return
        self._decoded[id(node.value)] = codec
        self.record_edit(node, f"{name} = {code_of(node.value)}: read only to be formatted "
                               f"into text, where Python 2 put the bytes as they were -> "
                               f".decode({codec!r}) (Python 3 would write b'...')")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        codec = self._decoded.pop(id(original_node), None)
        if codec is None:
            return updated_node
        return cst.Call(cst.Attribute(updated_node, cst.Name("decode")),
                        [cst.Arg(cst.SimpleString(repr(codec)))])
