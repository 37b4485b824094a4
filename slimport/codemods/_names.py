"""Which local names stand for which modules in one file: a light alias pass.

libcst's ``QualifiedNameProvider`` answers the same question for every node, but on a
real 89-file slim tree it costs 16-28 s where the whole of ``tf_upgrade_v2`` takes
11.7 s (see DESIGN.md). TF1 code binds TensorFlow names in a few statement forms only:
``import tensorflow as tf``, ``from tensorflow.contrib import slim``,
``slim = tf.contrib.slim``, ``flags = tf.app.flags``. This module reads exactly those
statements on the stdlib ``ast`` of the file, walking statement bodies without
descending into expressions, and then resolves an expression like ``slim.arg_scope``
to ``tensorflow.contrib.slim.arg_scope``.

Bindings are positional: a later ``tf = something_else()`` at module level unbinds
``tf``, so code that reuses a name for something that is not TensorFlow is left alone.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Set, Union

import libcst as cst


def dotted_parts(node: Union[cst.CSTNode, ast.AST]) -> Optional[List[str]]:
    """``a.b.c`` -> ["a", "b", "c"]; None for anything that is not a plain name chain.

    ``node`` is a libcst node or a stdlib ``ast`` node: the codemods read the former,
    the statement filters the latter.
    """
    parts = []
    while isinstance(node, (cst.Attribute, ast.Attribute)):
        attr = node.attr
        parts.append(attr if isinstance(attr, str) else attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
    elif isinstance(node, ast.Name):
        parts.append(node.id)
    else:
        return None
    parts.reverse()
    return parts


def dotted_expression(name: str) -> Union[cst.Name, cst.Attribute]:
    """"a.b.c" -> the ``Name``/``Attribute`` chain that spells it (``dotted_parts`` reversed)."""
    parts = name.split(".")
    node: Union[cst.Name, cst.Attribute] = cst.Name(parts[0])
    for part in parts[1:]:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


def local_name(alias: cst.ImportAlias) -> str:
    """The name an imported alias goes by in the file: its ``as`` name, else its own."""
    return alias.evaluated_alias or alias.evaluated_name


class _VariableNames(cst.CSTVisitor):
    def __init__(self, include_bindings: bool) -> None:
        super().__init__()
        self.include_bindings = include_bindings
        self.names: Set[str] = set()

    def visit_Import(self, node: cst.Import) -> bool:
        return self.include_bindings

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return self.include_bindings

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return self.include_bindings

    # ``x.tf`` and ``f(tf=1)`` do not use a variable ``tf``: only the chain's head
    # and the argument's value are visited.

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


def variable_names(tree: cst.CSTNode, include_bindings: bool) -> Set[str]:
    """The names ``tree`` mentions as variables (not attribute tails or keywords).

    Args:
      tree: the module (or any node) to read.
      include_bindings: also count names bound by import statements and assignment
        targets (is the name taken?); without it, only names read (is it still used?).

    Returns:
      The set of names.
    """
    visitor = _VariableNames(include_bindings)
    tree.visit(visitor)
    return visitor.names


@dataclass
class Bindings:
    """Local name -> dotted qualified name, for names bound by imports or aliases."""

    names: Dict[str, str] = field(default_factory=dict)

    def resolve(self, node: cst.BaseExpression) -> Optional[str]:
        """Qualified dotted name of a ``Name``/``Attribute`` chain, or None if unbound."""
        parts = dotted_parts(node)
        return None if parts is None else self.resolve_parts(parts)

    def resolve_parts(self, parts: Sequence[str]) -> Optional[str]:
        """``resolve`` for a chain already split into parts (``["slim", "conv2d"]``)."""
        target = self.names.get(parts[0])
        if target is None:
            return None
        return ".".join([target, *parts[1:]])

    def local_names_for(self, qualified: str) -> list:
        """Every local name bound to exactly ``qualified``."""
        return [name for name, target in self.names.items() if target == qualified]

    def is_used_as(self, prefix: str) -> bool:
        """True if some local name is bound to ``prefix`` or to something under it."""
        return any(t == prefix or t.startswith(prefix + ".") for t in self.names.values())


_BLOCK_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")


def ast_chains(node: ast.AST) -> Iterator[List[str]]:
    """Every maximal ``a.b.c`` chain in ``node``, as parts, in source order.

    A chain broken by a call or subscript (``f(x).y``) is looked into, as the
    codemods' libcst visitors do.
    """
    parts = dotted_parts(node) if isinstance(node, (ast.Attribute, ast.Name)) else None
    if parts is not None:
        yield parts
        return
    for child in ast.iter_child_nodes(node):
        yield from ast_chains(child)


def statement_chains(statement: ast.stmt) -> Iterator[List[str]]:
    """``ast_chains`` of ``statement``'s own parts: not the statements nested in it.

    For a compound statement that is its header (``if`` test, ``with`` items,
    decorators, ``def`` defaults) and its clauses' headers (``except`` types, ``case``
    patterns and guards).
    """
    for name, value in ast.iter_fields(statement):
        if name in _BLOCK_FIELDS:
            for clause in value:
                if not isinstance(clause, ast.stmt):  # except handler, match case
                    for clause_field, part in ast.iter_fields(clause):
                        if clause_field != "body":
                            yield from _chains_in(part)
        else:
            yield from _chains_in(value)


def _chains_in(value: object) -> Iterator[List[str]]:
    for node in value if isinstance(value, list) else [value]:
        if isinstance(node, ast.AST):
            yield from ast_chains(node)


def _nested_statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement in ``body`` and in the blocks nested in it, in source order."""
    for statement in body:
        yield statement
        for block in statement_blocks(statement):
            yield from _nested_statements(block)


def statement_blocks(statement: ast.stmt) -> Iterator[List[ast.stmt]]:
    """The statement lists nested directly in ``statement`` (bodies, else, handlers)."""
    for field_name in _BLOCK_FIELDS:
        value = getattr(statement, field_name, None)
        if not value:
            continue
        if isinstance(value[0], ast.stmt):
            yield value
        else:  # except handlers and match cases hold their own bodies
            for clause in value:
                yield clause.body


def _bind_import(bindings: Bindings, node: ast.Import) -> None:
    for alias in node.names:
        if alias.asname is not None:
            bindings.names[alias.asname] = alias.name
        else:
            head = alias.name.split(".")[0]
            bindings.names[head] = head


def _bind_import_from(bindings: Bindings, node: ast.ImportFrom) -> None:
    if node.level or node.module is None:
        return
    for alias in node.names:
        if alias.name == "*":
            return
        bindings.names[alias.asname or alias.name] = f"{node.module}.{alias.name}"


def _bind_assign(bindings: Bindings, node: ast.Assign, top_level: bool) -> None:
    parts = dotted_parts(node.value)
    value = bindings.resolve_parts(parts) if parts is not None else None
    for target in node.targets:
        if not isinstance(target, ast.Name):
            continue
        if value is not None:
            bindings.names[target.id] = value
        elif top_level:
            # Only a module-level rebinding hides the import everywhere; a local
            # variable of the same name inside a function does not.
            bindings.names.pop(target.id, None)


def is_binding_statement(statement: ast.stmt, bindings: Bindings) -> bool:
    """True if ``statement`` is one ``collect_bindings`` reads (given the bindings so far)."""
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return True
    if not isinstance(statement, ast.Assign):
        return False
    parts = dotted_parts(statement.value)
    return parts is not None and parts[0] in bindings.names


def collect_bindings(tree: ast.Module, module_level_only: bool = False) -> Bindings:
    """Read the import and alias statements of ``tree``.

    Args:
      tree: the file as the stdlib ``ast`` parses it (codemods get it from
        ``SlimportCodemod.file_ast``: the engine has one already, and it is far
        cheaper to walk than libcst's tree).
      module_level_only: skip function and class bodies, keeping only what every
        scope of the file can see (the right place for a rewrite to route uses
        through); ``if``/``try`` blocks at module level are still read.

    Returns:
      The bindings, at all nesting levels unless ``module_level_only``.
    """
    bindings = Bindings()
    body = tree.body
    if module_level_only:
        body = [s for s in body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.ClassDef))]
    top_level = {id(statement) for statement in tree.body}
    for statement in _nested_statements(body):
        if isinstance(statement, ast.Import):
            _bind_import(bindings, statement)
        elif isinstance(statement, ast.ImportFrom):
            _bind_import_from(bindings, statement)
        elif isinstance(statement, ast.Assign):
            _bind_assign(bindings, statement, id(statement) in top_level)
    return bindings
