"""Is a bare name Python's builtin where a codemod's visit is? (py2_leftovers, numpy_aliases)

Python looks a name up in the innermost scope, the functions around it (class bodies
other than the innermost one skipped), the module, then builtins. A name bound at any
of those, at any point of that scope, is not the builtin there: ``def g(xrange):``, a
module-level ``long = int``, a function's ``global unicode``.
"""
from __future__ import annotations

import ast
from typing import AbstractSet, Set

import libcst as cst

from slimport.analysis.ast_index import kinds_under, nodes_of
from slimport.analysis.names import bound_names
from slimport.analysis.scopes import CLASS, ScopeStack, names_bound_by


def module_bound_names(tree: cst.Module, parsed: ast.Module) -> Set[str]:
    """Names the module binds at module level, or through ``global`` in a function.

    Args:
      tree: the module.
      parsed: its stdlib ``ast``.

    Returns:
      The names; a builtin of one of these names is not the builtin there.
    """
    names: Set[str] = set()
    for statement in tree.body:
        names |= names_bound_by(statement)
    for node in nodes_of(parsed, (ast.Global,)):
        names.update(node.names)  # type: ignore[attr-defined]
    return names


def binds_anywhere(parsed: ast.Module, names: AbstractSet[str]) -> bool:
    """True if any statement or parameter of the file, at any depth, binds one of ``names``:
    a codemod that trusts a builtin only in files that never rebind it asks this.

    Args:
      parsed: the module's stdlib ``ast``.
      names: builtins' names.

    Returns:
      True when some binding of one of ``names`` is in the file.
    """
    return any(names & set(bound_names(node)) for kind, nodes in kinds_under(parsed)
               if issubclass(kind, ast.stmt) for node in nodes) or any(
        node.arg in names for node in nodes_of(parsed, (ast.arg,)))  # type: ignore[attr-defined]


def has_star_import(parsed: ast.Module) -> bool:
    """True if module-level ``from x import *`` could bind any name.

    Args:
      parsed: the module's stdlib ``ast``.

    Returns:
      True when a ``*`` import may shadow any builtin.
    """
    return any(isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
               for node in parsed.body)


def bound_here(scopes: ScopeStack, module_bound: Set[str], name: str) -> bool:
    """True if ``name`` is not the builtin where the visit is: a scope around it binds it.

    Args:
      scopes: the scopes the visit is in.
      module_bound: ``module_bound_names`` of the file.
      name: a builtin's name.

    Returns:
      True when ``name`` is not the builtin here.
    """
    stack = scopes.scopes
    for index in range(len(stack) - 1, -1, -1):
        scope = stack[index]
        if scope.kind == CLASS and index != len(stack) - 1:
            continue
        if name in scope.entries or name in scope.declared_global:
            return True
    return name in module_bound
