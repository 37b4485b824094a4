"""What a name is bound to, binding by binding, in the scope a use of it reads.

A codemod that ports a method call by the kind of its receiver (``d.iteritems()`` on a
dict, ``it.next()`` on an iterator, ``font.getsize(s)`` on a Pillow font) can prove the
kind of a bare name only when every binding of that name in the scope the use reads
makes that kind: ``d = {}``, ``it = iter(xs)``, ``font = ImageFont.truetype(...)``. A
parameter, a ``for`` target, a ``with ... as``, an import, a ``def`` or a binding to
anything else makes the name uncertain. ``only_bound_to`` reads that off the scope's
node; ``binding_scope`` finds the scope a use reads, as Python would.
"""
from __future__ import annotations

from typing import Callable, Optional, Set

import libcst as cst

from slimport.analysis.scopes import CLASS, ScopeStack, names_bound_by

# Whether a bound value makes the kind of object a codemod needs.
ValueTest = Callable[[cst.BaseExpression], bool]


def binding_scope(scopes: ScopeStack, module: cst.Module, module_bound: Set[str],
                  name: str) -> Optional[cst.CSTNode]:
    """The function, class or module whose bindings of ``name`` a use here reads.

    Args:
      scopes: the scopes the visit is in.
      module: the module being visited.
      module_bound: the names the module binds at its top level.
      name: a bare name used where the visit is.

    Returns:
      The scope's node, or None when nothing here binds ``name`` (a builtin, or unknown).
    """
    stack = scopes.scopes
    for index in range(len(stack) - 1, -1, -1):
        scope = stack[index]
        if scope.kind == CLASS and index != len(stack) - 1:
            continue  # a class body's names are not seen from its methods
        if name in scope.entries:
            return scope.node
    return module if name in module_bound else None


def only_bound_to(owner: cst.CSTNode, name: str, makes: ValueTest,
                  star_kwargs: bool = False) -> bool:
    """Whether every binding of ``name`` in ``owner``'s own scope is ``name = value``
    with ``makes(value)`` true (and there is at least one).

    Args:
      owner: a function, lambda, class or module node.
      name: the name.
      makes: the test a bound value must pass.
      star_kwargs: a ``**name`` parameter counts as a good binding (it is a dict).

    Returns:
      True when the name certainly holds what ``makes`` accepts, wherever the scope
      reads it.
    """
    found = _Bindings(name, makes)
    params = getattr(owner, "params", None)
    if isinstance(params, cst.Parameters):
        for param in [*params.posonly_params, *params.params, *params.kwonly_params,
                      params.star_arg]:
            if isinstance(param, cst.Param) and param.name.value == name:
                found.other += 1
        if isinstance(params.star_kwarg, cst.Param) and params.star_kwarg.name.value == name:
            if star_kwargs:
                found.good += 1
            else:
                found.other += 1
    body = owner if isinstance(owner, cst.Module) else getattr(owner, "body", None)
    if isinstance(body, cst.CSTNode) and not isinstance(owner, cst.Lambda):
        for child in body.children:
            child.visit(found)
    return found.good > 0 and found.other == 0


class _Bindings(cst.CSTVisitor):
    """Counts the bindings of one name in one scope: to a value ``makes`` accepts, and to
    anything else."""

    def __init__(self, name: str, makes: ValueTest) -> None:
        super().__init__()
        self.name = name
        self.makes = makes
        self.good = 0
        self.other = 0

    def _definition(self, node: cst.CSTNode) -> bool:
        self.other += getattr(node, "name", None) is not None and \
            getattr(node.name, "value", None) == self.name  # type: ignore[attr-defined]
        return False  # a nested scope's bindings are its own

    visit_FunctionDef = _definition
    visit_ClassDef = _definition

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            bound = names_bound_by(cst.SimpleStatementLine([cst.Assign(
                targets=[target], value=node.value)]))
            if self.name in bound:
                single = isinstance(target.target, cst.Name) and len(node.targets) == 1
                if single and self.makes(node.value):
                    self.good += 1
                else:
                    self.other += 1

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        for small in node.body:
            if not isinstance(small, cst.Assign) and self.name in names_bound_by(
                    cst.SimpleStatementLine([small])):
                self.other += 1

    def _compound(self, node: cst.CSTNode) -> None:
        # for/with/except targets: what the statement itself binds, not its body.
        header = node.with_changes(body=cst.IndentedBlock([]))  # type: ignore[attr-defined]
        if hasattr(header, "orelse"):
            header = header.with_changes(orelse=None)
        if hasattr(header, "handlers"):
            header = header.with_changes(handlers=[handler.with_changes(
                body=cst.IndentedBlock([])) for handler in header.handlers],
                finalbody=None)
        self.other += self.name in names_bound_by(header)

    visit_For = _compound
    visit_With = _compound
    visit_Try = _compound
