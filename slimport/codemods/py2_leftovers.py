"""Python 2 runtime leftovers that parse on Python 3 but fail when they run.

TF1-era trees ran on Python 2 and 3 both, and many still have a few spots that only
ever ran on 2: ``sys.maxint``, ``xrange``, ``unicode``, ``basestring``, ``long``,
``raw_input``, ``reduce``, ``d.iteritems()`` and ``it.next()``. Each is ported only
where the meaning is certain:

- the builtins (``xrange`` -> ``range``, ``unicode``/``basestring`` -> ``str``, ``long``
  -> ``int``, ``raw_input`` -> ``input``, ``unichr`` -> ``chr``; ``reduce`` gets ``from
  functools import reduce``, ``intern`` ``from sys import intern``) where the name is
  Python's builtin there: not bound by the scope the use is in, any function around it,
  or the module (``from six.moves import xrange`` stays); a module with ``from x import
  *`` could bind any of them, so there they are reported; ``execfile``, ``apply`` and
  ``buffer``, which have no one Python 3 spelling, are reported with what to write;
- ``sys.maxint`` -> ``sys.maxsize`` (the same number on 64-bit CPython) where ``sys``
  is the ``sys`` module;
- ``itertools.izip`` / ``imap`` / ``ifilter`` -> the builtins ``zip`` / ``map`` /
  ``filter`` (lazy in Python 3, as the itertools ones were), where ``itertools`` is the
  module and the builtin is not rebound; ``izip_longest`` / ``ifilterfalse`` -> their
  Python 3 names in itertools;
- ``.iteritems()`` / ``.itervalues()`` / ``.iterkeys()`` -> ``.items()`` / ``.values()``
  / ``.keys()`` where the receiver is certainly a dict: a dict display or
  comprehension, ``dict(...)``, ``os.environ``, a ``**kwargs`` parameter, or a name
  every binding of which in its scope is one of those. Python 3's dict has no
  ``iteritems``, but a class of the tree may define one: other receivers are ported
  when ``slimport rewrite`` found no such method defined anywhere in the tree (tree
  fact ``tree_methods``, the names the tree's ``def`` statements define), and reported
  otherwise (and when run alone, without the tree);
- ``it.next()`` -> ``next(it)`` where ``it`` is certainly an iterator on Python 2 and 3
  alike: a generator expression, a call of ``iter``, ``enumerate``, ``reversed``,
  ``open``, an ``itertools`` function, ``csv.reader``, ``os.walk``, ``re.finditer``,
  TF's ``tf_record_iterator`` or a generator function of the module, or a name every
  binding of which in its scope is one of those. Another receiver may be an object
  with a ``next`` method of its own (TF 2's dataset iterators have one): it is
  reported with the fix, unless the tree defines a ``next`` method (then it is that).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, FrozenSet, Iterator, List, Pattern, Set, Tuple

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.codemods.base import StatementFilter, code_of
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.tree_facts import TREE_METHODS, TreeFact
from slimport.analysis.names import (
    Bindings,
    bound_names,
    dotted_parts,
    statement_blocks,
)
from slimport.analysis.binding_values import binding_scope, only_bound_to
from slimport.analysis.builtin_names import bound_here, has_star_import, module_bound_names

# Builtin -> its Python 3 spelling.
BUILTINS: Dict[str, str] = {
    "xrange": "range",
    "unicode": "str",
    "basestring": "str",
    "long": "int",
    "raw_input": "input",
    "unichr": "chr",
}
# Builtins Python 3 moved into a module: the use stays, an import binds it.
MOVED = {"reduce": "functools", "intern": "sys"}
# Builtins Python 3 removed with no one spelling: reported, with what to write.
REMOVED: Dict[str, str] = {
    "execfile": "exec(open(path).read(), globals)",
    "apply": "f(*args, **kwargs)",
    "buffer": "memoryview(x) (or x[start:start + size] for a slice)",
}
ITER_METHODS: Dict[str, str] = {"iteritems": "items", "itervalues": "values",
                                "iterkeys": "keys"}
# itertools' Python 2 names -> a builtin (a bare name) or their Python 3 itertools name.
ITERTOOLS: Dict[str, str] = {"izip": "zip", "imap": "map", "ifilter": "filter",
                             "izip_longest": "itertools.zip_longest",
                             "ifilterfalse": "itertools.filterfalse"}
# ``it.next()``: Python 2's iterator method (``next(it)`` on both).
NEXT_METHOD = "next"
# Functions whose result is an iterator on Python 2 and 3 alike (a ``.next()`` on it
# was Python 2's iteration): builtins (when not rebound), and qualified names.
ITERATOR_BUILTINS = frozenset({"iter", "enumerate", "reversed", "open"})
ITERATOR_FUNCTIONS = frozenset({
    "csv.reader", "csv.DictReader", "os.walk", "re.finditer", "glob.iglob", "io.open",
    "six.iteritems", "six.itervalues", "six.iterkeys",
    "tensorflow.python_io.tf_record_iterator", "tensorflow.io.tf_record_iterator",
    "tensorflow.compat.v1.python_io.tf_record_iterator",
    "tensorflow.compat.v1.io.tf_record_iterator"})
# Every itertools function returns an iterator but these.
NOT_ITERATORS = frozenset({"tee"})
_TRIGGER_TEXT = re.compile(r"\b(?:xrange|unicode|basestring|long|raw_input|unichr|reduce"
                           r"|intern|execfile|apply|buffer|maxint"
                           r"|iteritems|itervalues|iterkeys|izip|imap|ifilter)|\.next\(\)")
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _iter_receivers(statement: ast.stmt) -> Iterator[str]:
    """Names that ``statement`` (or a statement in it) calls ``.iteritems()`` (or kin, or
    ``.next()``) on."""
    for node in nodes_of(statement, (ast.Attribute,)):
        if (node.attr in ITER_METHODS or node.attr == NEXT_METHOD) \
                and isinstance(node.value, ast.Name):  # type: ignore[attr-defined]
            yield node.value.id  # type: ignore[attr-defined]


def _statements(body: List[ast.stmt]) -> Iterator[ast.stmt]:
    """``body`` and the blocks nested in it, not the bodies of definitions."""
    for statement in body:
        yield statement
        if not isinstance(statement, _DEFINITIONS):
            for block in statement_blocks(statement):
                yield from _statements(block)


def _receiver_bindings(tree: ast.Module) -> Set[int]:
    """The assignments that bind, in the same scope, a name that scope calls
    ``.iteritems()`` or ``.next()`` on: whether the name is certainly a dict or an
    iterator is read off them."""
    keep: Set[int] = set()
    scopes: List[List[ast.stmt]] = [tree.body]
    scopes += [node.body for node in nodes_of(  # type: ignore[attr-defined]
        tree, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    for body in scopes:
        statements = list(_statements(body))
        receivers = {name for statement in statements for name in _iter_receivers(statement)}
        if receivers:
            keep |= {id(statement) for statement in statements
                     if receivers & set(bound_names(statement))}
    return keep


class Py2LeftoversCommand(LeftoverCodemod):
    """Ports Python 2-only builtins and dict methods where their meaning is certain."""

    NAME: ClassVar[str] = "py2_leftovers"
    DESCRIPTION: ClassVar[str] = (
        "Python 2 leftovers that fail on Python 3 (xrange, unicode, long, "
        "sys.maxint, d.iteritems(), ...) -> their Python 3 spelling"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    NAME_TRIGGERS: ClassVar[FrozenSet[str]] = frozenset(
        {*BUILTINS, *MOVED, *REMOVED, *ITER_METHODS, *ITERTOOLS, "maxint", NEXT_METHOD})
    # Is ``d.itervalues()`` Python 2's, or a method the tree itself defines?
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = LeftoverCodemod.TREE_FACTS + (TREE_METHODS,)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        names = set(BUILTINS) | set(MOVED) | set(REMOVED)
        receiver_bindings = _receiver_bindings(tree)

        def needed(statement: ast.stmt) -> bool:
            if id(statement) in receiver_bindings or names & set(bound_names(statement)):
                return True
            return any(
                (isinstance(node, ast.Name) and node.id in names)
                or (isinstance(node, ast.Attribute) and (
                    node.attr in ITER_METHODS or node.attr in ITERTOOLS
                    or node.attr in ("maxint", NEXT_METHOD)))
                or (isinstance(node, ast.Global) and names & set(node.names))
                # (A compound statement's nested statements count too: that keeps only
                # its header more, the nested ones are asked on their own.)
                for node in nodes_of(statement, (ast.Name, ast.Attribute, ast.Global)))
        return needed

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._module = tree
        self._module_bound = module_bound_names(tree, parsed)
        self._star_import = has_star_import(parsed)
        defined = {node.name for node in  # type: ignore[attr-defined]
                   nodes_of(parsed, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self._defines_iter_method = bool(defined & set(ITER_METHODS))
        self._defines_next = NEXT_METHOD in defined
        # (Read off the whole file: a skeleton elides the bodies that yield.)
        self._generators = _module_generators(self.original_ast or parsed)
        self._calls: Dict[cst.Call, cst.Call] = {}
        self._needs_moved: Set[str] = set()
        self._renamed: Dict[cst.CSTNode, cst.CSTNode] = {}
        self._replaced: Dict[cst.CSTNode, cst.BaseExpression] = {}
        # Names that are attribute names, keywords or parameters, not variables.
        self._not_variables: Set[int] = set()
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = tree.visit(self)
        for name in sorted(self._needs_moved):
            self.add_needed_import(MOVED[name], name)
        return tree

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self._renamed.pop(original_node, updated_node)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        whole = self._replaced.pop(original_node, None)
        if whole is not None:
            return whole.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        replacement = self._renamed.pop(original_node, None)
        if replacement is None:
            return updated_node
        return updated_node.with_changes(attr=replacement)

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_variables.add(id(node.keyword))

    def visit_Param(self, node: cst.Param) -> None:
        self._not_variables.add(id(node.name))

    def visit_Name(self, node: cst.Name) -> None:
        name = node.value
        if (name not in BUILTINS and name not in MOVED and name not in REMOVED) \
                or id(node) in self._not_variables:
            return
        if self._bound_here(name):
            return
        if name in REMOVED:
            self.needs_attention(node, f"`{name}` is a Python 2 builtin Python 3 removed"
                                 + (", unless this file's `from ... import *` binds it"
                                    if self._star_import else ""), f"use {REMOVED[name]}")
            return
        if self._star_import:
            self.needs_attention(node, f"`{name}` is a Python 2 builtin, unless this file's "
                                 "`from ... import *` binds it", self._fix(name))
            return
        if name in MOVED:
            self._needs_moved.add(name)
            self.record_edit(node, f"{name} -> from {MOVED[name]} import {name}")
            return
        self._renamed[node] = node.with_changes(value=BUILTINS[name])
        self.record_edit(node, f"{name} -> {BUILTINS[name]}")

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        self._not_variables.add(id(node.attr))
        attr = node.attr.value
        if attr == "maxint" and self.resolve_name(node) == "sys.maxint":
            self._renamed[node] = cst.Name("maxsize")
            self.record_edit(node, "sys.maxint -> sys.maxsize")
            return False
        if attr in ITER_METHODS:
            self._port_iter_method(node, attr)
        if attr in ITERTOOLS and self.resolve_name(node) == f"itertools.{attr}":
            self._port_itertools(node, attr)
            return False
        return True

    # -- helpers --------------------------------------------------------------------

    def _fix(self, name: str) -> str:
        if name in MOVED:
            return f"from {MOVED[name]} import {name}"
        return f"use {BUILTINS[name]}"

    def _bound_here(self, name: str) -> bool:
        return bound_here(self.scopes, self._module_bound, name)

    def _port_iter_method(self, node: cst.Attribute, attr: str) -> None:
        receiver = node.value
        if self._certainly_dict(receiver):
            self._renamed[node] = cst.Name(ITER_METHODS[attr])
            self.record_edit(node, f"{code_of(node)}() -> {code_of(receiver)}."
                             f"{ITER_METHODS[attr]}()")
        elif self.resolve_name(receiver) is not None:
            # Something an import binds (``six.iteritems(d)``): a function of its own.
            return
        elif self.tree_methods is not None and attr not in self.tree_methods \
                and not self._defines_iter_method:
            # No class of the tree defines it: Python 3's dicts (and pandas') have .items().
            self._renamed[node] = cst.Name(ITER_METHODS[attr])
            self.record_edit(node, f"{code_of(node)}() -> {code_of(receiver)}."
                             f"{ITER_METHODS[attr]}() (no class of the tree defines {attr})")
        elif not self._defines_iter_method:
            self.needs_attention(
                node, f"{code_of(node)}(): Python 3's dict has no `{attr}`; left unchanged "
                "because the receiver may be an object that defines it",
                f"if it is a dict, use .{ITER_METHODS[attr]}()")

    def _port_itertools(self, node: cst.Attribute, attr: str) -> None:
        new = ITERTOOLS[attr]
        if "." not in new and self._bound_here(new):
            self.needs_attention(node, f"itertools.{attr} is gone in Python 3 and `{new}`, "
                                 "its builtin replacement, is rebound here", f"use builtins.{new}")
            return
        if "." in new:
            self._renamed[node] = cst.Name(new.split(".")[1])
        else:
            self._replaced[node] = cst.Name(new)
        shown = f"{code_of(node.value)}.{new.split('.')[1]}" if "." in new else new
        self.record_edit(node, f"{code_of(node)} -> {shown}")

    def _certainly_dict(self, receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, (cst.Dict, cst.DictComp)):
            return True
        if isinstance(receiver, cst.Call):
            return isinstance(receiver.func, cst.Name) and receiver.func.value == "dict" \
                and not self._bound_here("dict")
        if dotted_parts(receiver) == ["os", "environ"]:
            return self.resolve_name(receiver) == "os.environ"
        if isinstance(receiver, cst.Name):
            return self._dict_name(receiver.value)
        return False

    def _dict_name(self, name: str) -> bool:
        """True if every binding of ``name`` in the scope the use resolves to makes a
        dict: ``**name`` parameters, ``name = {...}`` / ``dict(...)`` assignments."""
        owner = binding_scope(self.scopes, self._module, self._module_bound, name)
        return owner is not None and only_bound_to(owner, name, _is_dict_display,
                                                   star_kwargs=True)

    # -- it.next() ------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == NEXT_METHOD
                and not node.args):
            return
        receiver = func.value
        if self._certainly_iterator(receiver):
            if self._bound_here("next"):
                self.needs_attention(node, f"{code_of(node)}: Python 3's iterators have no "
                                     "`next` method, and the builtin `next` is rebound here",
                                     f"builtins.next({code_of(receiver)})")
                return
            new = cst.Call(func=cst.Name("next"), args=[cst.Arg(receiver)],
                           lpar=node.lpar, rpar=node.rpar)
            self._calls[node] = new
            self.record_edit(node, f"{code_of(node)} -> {code_of(new)}")
        elif self.resolve_name(receiver) is None and not self._defines_next and (
                self.tree_methods is None or NEXT_METHOD not in self.tree_methods):
            self.needs_attention(
                node, f"{code_of(node)}: Python 2's iterator method; Python 3's iterators "
                "have none. Left unchanged because the receiver may be an object with a "
                "`next` method of its own",
                f"if it is an iterator, use next({code_of(receiver)})")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        new = self._calls.pop(original_node, None)
        if new is None:
            return updated_node
        receiver = updated_node.func.value  # type: ignore[attr-defined]
        return new.with_changes(args=[cst.Arg(receiver)])

    def _certainly_iterator(self, receiver: cst.BaseExpression) -> bool:
        """An iterator on Python 2 and 3 alike: a generator expression, a call of a
        function that returns one, or a name every binding of which is one of those."""
        if isinstance(receiver, cst.GeneratorExp):
            return True
        if isinstance(receiver, cst.Call):
            return self._makes_iterator(receiver)
        if isinstance(receiver, cst.Name):
            owner = binding_scope(self.scopes, self._module, self._module_bound,
                                  receiver.value)
            return owner is not None and only_bound_to(
                owner, receiver.value,
                lambda value: isinstance(value, cst.GeneratorExp) or (
                    isinstance(value, cst.Call) and self._makes_iterator(value)))
        return False

    def _makes_iterator(self, call: cst.Call) -> bool:
        func = call.func
        if isinstance(func, cst.Name):
            name = func.value
            if name in ITERATOR_BUILTINS:
                return not self._bound_here(name)
            return name in self._generators and binding_scope(
                self.scopes, self._module, self._module_bound, name) is self._module
        qualified = self.resolve_name(func) or ""
        module, _, function = qualified.rpartition(".")
        return qualified in ITERATOR_FUNCTIONS or (module == "itertools"
                                                  and function not in NOT_ITERATORS)


def _is_dict_display(value: cst.BaseExpression) -> bool:
    return isinstance(value, (cst.Dict, cst.DictComp)) or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
        and value.func.value == "dict")


def _module_generators(tree: ast.Module) -> Set[str]:
    """The functions the module defines at its top level, once, whose body yields."""
    definitions: Dict[str, int] = {}
    generators = set()
    for statement in tree.body:
        for name in bound_names(statement):
            definitions[name] = definitions.get(name, 0) + 1
        if isinstance(statement, ast.FunctionDef) and any(
                isinstance(node, (ast.Yield, ast.YieldFrom))
                for node in _own_nodes(statement)):
            generators.add(statement.name)
    return {name for name in generators if definitions.get(name) == 1}


def _own_nodes(function: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of ``function``'s body, not those of functions or lambdas inside it."""
    stack: List[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _DEFINITIONS):
            stack.extend(ast.iter_child_nodes(node))
