"""What a name stands for where it is used: the scopes of one libcst tree.

``collect_bindings(..., module_level_only=True)`` says what module-level code binds.
Inside a function, a lambda, a class body or a comprehension, Python looks the name
up there first: ``def build(tf): return tf.contrib.slim.conv2d`` does not use
TensorFlow. A ``Scope`` reads what its node binds on its own, with the same rules as
Python's compiler (parameters, assignment and loop targets, ``with ... as``,
``except ... as``, imports, ``del``, nested ``def``/``class`` names, ``case``
captures, ``:=``; ``global`` and ``nonlocal`` send the lookup outwards), and
``resolve_in`` walks the scopes a use sits in from the inside out, skipping class
bodies other than the innermost one, as Python does.

A local name keeps a meaning only when every binding of it in its scope gives the
same module (``import tensorflow as tf`` in a function, or ``slim = tf.contrib.slim``);
any other binding (``tf = {}``) makes it stand for nothing we know, and the codemods
leave its uses alone.

The walk reads statements and assignment targets, not expressions, except for
``:=`` in files that use it: cheap next to the codemod's own pass, and done only for
scopes some use is resolved in.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from slimport.analysis.names import Bindings, dotted_parts

FUNCTION = "function"
CLASS = "class"

ScopeNode = Union[cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.ListComp, cst.SetComp,
                  cst.DictComp, cst.GeneratorExp]
COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_COMPREHENSION_TYPES = frozenset(COMPREHENSIONS)
_DEFINITIONS = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})


def _target_names(target: cst.BaseExpression) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_names(target.value)


def _param_names(params: cst.Parameters) -> Iterator[str]:
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        yield param.name.value
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            yield star.name.value


class _Walrus(cst.CSTVisitor):
    """Names bound by ``:=`` in an expression (not inside a nested lambda)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: List[str] = []

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.names.extend(_target_names(node.target))

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _pattern_names(pattern: cst.CSTNode) -> Iterator[str]:
    if isinstance(pattern, cst.MatchAs) and pattern.name is not None:
        yield pattern.name.value
    elif isinstance(pattern, cst.MatchStar) and pattern.name is not None:
        yield pattern.name.value
    elif isinstance(pattern, cst.MatchMapping) and pattern.rest is not None:
        yield pattern.rest.value
    for child in pattern.children:
        if isinstance(child, (cst.MatchPattern, cst.MatchSequenceElement,
                              cst.MatchMappingElement, cst.MatchKeywordElement,
                              cst.MatchOrElement)):
            yield from _pattern_names(child)


@dataclass
class ScopeEntry:
    """One binding of a name: ``qualified`` for an import, ``chain`` for ``x = a.b``."""

    qualified: Optional[str] = None
    chain: Optional[List[str]] = None


@dataclass
class BindingReader:
    """Collects what statements bind in the scope they stand in."""

    walrus: Callable[[], bool]
    entries: Dict[str, List[ScopeEntry]] = field(default_factory=dict)
    declared_global: Set[str] = field(default_factory=set)
    declared_nonlocal: Set[str] = field(default_factory=set)

    def add(self, name: str, entry: Optional[ScopeEntry] = None) -> None:
        """Record that this scope binds ``name`` (to ``entry`` when it is known)."""
        self.entries.setdefault(name, []).append(entry or ScopeEntry())

    def read(self, node: ScopeNode) -> None:
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            for name in _param_names(node.params):
                self.add(name)
        if isinstance(node, cst.Lambda):
            self._expressions([node.body])
        elif isinstance(node, COMPREHENSIONS):
            comp_for: Optional[cst.CompFor] = node.for_in
            while comp_for is not None:
                for name in _target_names(comp_for.target):
                    self.add(name)
                comp_for = comp_for.inner_for_in
        else:
            self._block(node.body)

    def _expressions(self, nodes: Sequence[Optional[cst.CSTNode]]) -> None:
        if not self.walrus():
            return
        for node in nodes:
            if node is not None:
                finder = _Walrus()
                node.visit(finder)
                for name in finder.names:
                    self.add(name)

    def _block(self, block: cst.BaseSuite) -> None:
        if isinstance(block, cst.SimpleStatementSuite):
            for small in block.body:
                self._small(small)
            return
        for statement in block.body:
            self._statement(statement)

    def _small(self, small: cst.BaseSmallStatement) -> None:
        if isinstance(small, cst.Assign):
            chain = dotted_parts(small.value)
            single = len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
            for target in small.targets:
                for name in _target_names(target.target):
                    self.add(name, ScopeEntry(chain=chain) if single and chain else None)
            self._expressions([small.value])
        elif isinstance(small, (cst.AugAssign, cst.AnnAssign)):
            for name in _target_names(small.target):
                self.add(name)
            self._expressions([small.value])
        elif isinstance(small, cst.Del):
            for name in _target_names(small.target):
                self.add(name)
        elif isinstance(small, cst.Import):
            for alias in small.names:
                module = ".".join(dotted_parts(alias.name) or [])
                if alias.asname is not None:
                    self.add(alias.evaluated_alias or "", ScopeEntry(qualified=module))
                else:
                    head = module.split(".")[0]
                    self.add(head, ScopeEntry(qualified=head))
        elif isinstance(small, cst.ImportFrom):
            if isinstance(small.names, cst.ImportStar):
                return
            module = ".".join(dotted_parts(small.module) or []) if small.module else ""
            for alias in small.names:
                local = alias.evaluated_alias or alias.evaluated_name
                absolute = module and not small.relative
                self.add(local, ScopeEntry(qualified=f"{module}.{alias.evaluated_name}")
                          if absolute else None)
        elif isinstance(small, cst.Global):
            self.declared_global.update(item.name.value for item in small.names)
        elif isinstance(small, cst.Nonlocal):
            self.declared_nonlocal.update(item.name.value for item in small.names)
        elif isinstance(small, (cst.Expr, cst.Return, cst.Raise, cst.Assert)):
            self._expressions(small.children)

    def _statement(self, statement: cst.BaseStatement) -> None:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self._small(small)
            return
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            self.add(statement.name.value)
            return
        if isinstance(statement, cst.For):
            for name in _target_names(statement.target):
                self.add(name)
            self._expressions([statement.iter])
        elif isinstance(statement, cst.With):
            for item in statement.items:
                if item.asname is not None:
                    for name in _target_names(item.asname.name):
                        self.add(name)
                self._expressions([item.item])
        elif isinstance(statement, (cst.If, cst.While)):
            self._expressions([statement.test])
        elif isinstance(statement, (cst.Try, cst.TryStar)):
            for handler in statement.handlers:
                if handler.name is not None:
                    for name in _target_names(handler.name.name):
                        self.add(name)
                self._block(handler.body)
            if statement.finalbody is not None:
                self._block(statement.finalbody.body)
        elif isinstance(statement, cst.Match):
            for case in statement.cases:
                for name in _pattern_names(case.pattern):
                    self.add(name)
                self._block(case.body)
            return
        self._block(statement.body)
        orelse = getattr(statement, "orelse", None)
        while orelse is not None:
            self._block(orelse.body)
            orelse = getattr(orelse, "orelse", None) if isinstance(orelse, cst.If) else None


def names_bound_by(statement: cst.BaseStatement) -> Set[str]:
    """The names a statement binds where it stands (``:=`` aside).

    Args:
      statement: a libcst statement.

    Returns:
      The names.
    """
    reader = BindingReader(lambda: False)
    reader._statement(statement)
    return set(reader.entries)


@dataclass
class Scope:
    """One function, lambda, class body or comprehension, and what it binds."""

    node: ScopeNode
    # Whether the file uses ``:=`` (only then are expressions read for bindings).
    walrus: Callable[[], bool]
    kind: str = FUNCTION
    _reader: Optional[BindingReader] = None

    def __post_init__(self) -> None:
        if isinstance(self.node, cst.ClassDef):
            self.kind = CLASS

    @property
    def reader(self) -> BindingReader:
        if self._reader is None:
            self._reader = BindingReader(self.walrus)
            self._reader.read(self.node)
        return self._reader

    @property
    def entries(self) -> Dict[str, List[ScopeEntry]]:
        return self.reader.entries

    @property
    def declared_global(self) -> Set[str]:
        return self.reader.declared_global

    @property
    def declared_nonlocal(self) -> Set[str]:
        return self.reader.declared_nonlocal


def resolve_in(scopes: Sequence[Scope], module: Bindings, parts: Sequence[str],
               _seen: Optional[Set[int]] = None) -> Optional[str]:
    """The qualified name of the chain ``parts`` used inside ``scopes`` (outermost
    first), or None when its first name stands for nothing we know there.

    Args:
      scopes: the scopes the use is in, outermost first.
      module: what module-level code binds.
      parts: the chain, split.

    Returns:
      The qualified name, or None.
    """
    head = parts[0]
    innermost = len(scopes) - 1
    for index in range(innermost, -1, -1):
        scope = scopes[index]
        if scope.kind == CLASS and index != innermost:
            continue
        entries = scope.entries
        if head in scope.declared_global:
            break
        if head in scope.declared_nonlocal or head not in entries:
            continue
        target = _meaning(scope, scopes[:index + 1], module, head, _seen or set())
        if target is None:
            return None
        return ".".join([target, *parts[1:]])
    return module.resolve_parts(parts)


def _meaning(scope: Scope, scopes: Sequence[Scope], module: Bindings, name: str,
             seen: Set[int]) -> Optional[str]:
    """The one module every binding of ``name`` in ``scope`` gives it, or None."""
    key = id(scope.entries[name])
    if key in seen:  # ``a = b.x`` and ``b = a.y``: no module at all
        return None
    seen = seen | {key}
    meanings: Set[Optional[str]] = set()
    for entry in scope.entries[name]:
        if entry.qualified is not None:
            meanings.add(entry.qualified)
        elif entry.chain is not None:
            # ``slim = tf.contrib.slim``: ``tf`` as this scope sees it.
            meanings.add(resolve_in(scopes, module, entry.chain, seen))
        else:
            return None
    if len(meanings) != 1:
        return None
    return meanings.pop()


class ScopeStack:
    """The scopes the visit is inside, kept by a transformer's ``on_visit``/``on_leave``.

    A function's decorators, defaults and annotations, and a class's bases, belong to
    the scope around it; so the scope is entered at its body, not at the ``def``.
    """

    def __init__(self, walrus: Callable[[], bool]) -> None:
        self._walrus_check = walrus
        self._walrus: Optional[bool] = None
        self.scopes: List[Scope] = []
        # Per scope in ``scopes``: (the node whose leave ends it, whether it defers code).
        self._exits: List[Tuple[cst.CSTNode, bool]] = []
        self._bodies: Dict[int, ScopeNode] = {}
        # How many of the entered scopes are function or lambda bodies: code in them
        # runs when they are called, after the whole module has run.
        self.deferred = 0
        # Names bound by the module-level statements the visit has left so far.
        self.module_bound: Set[str] = set()
        self._top: Set[int] = set()
        # The module-level statement the visit is in.
        self.top_statement: Optional[cst.CSTNode] = None
        # id(node) -> the module-level statement the visit found it in (for the lines of
        # findings: ``slimport.analysis.lines.lines_of``).
        self.top_of: Dict[int, Optional[cst.CSTNode]] = {}

    def walrus(self) -> bool:
        """Whether the file uses ``:=`` (asked once, when a scope is first read).

        Returns:
          True when it may.
        """
        if self._walrus is None:
            self._walrus = self._walrus_check()
        return self._walrus

    # Called for every node of every pass: type lookups, not isinstance (libcst's node
    # classes are ABCs, and their isinstance checks were a tenth of a pass).
    def visit(self, node: cst.CSTNode) -> None:
        """Enter ``node``'s scope, if it opens one (the visit calls this for every node).

        Args:
          node: the node the visit enters.
        """
        key = id(node)
        kind = type(node)
        if kind is cst.Module:
            self._top = {id(statement) for statement in node.body}  # type: ignore[attr-defined]
        elif key in self._top:
            self.top_statement = node
        self.top_of[key] = self.top_statement
        if self._bodies:
            owner = self._bodies.pop(key, None)
            if owner is not None:
                self._enter(owner)
        if kind in _DEFINITIONS:
            self._bodies[id(node.body)] = node  # type: ignore[attr-defined]
        elif kind in _COMPREHENSION_TYPES:
            self._enter(node)  # type: ignore[arg-type]

    def leave(self, node: cst.CSTNode) -> None:
        """Leave ``node``'s scope, if it opened one.

        Args:
          node: the node the visit leaves.
        """
        if id(node) in self._top:
            self.module_bound |= names_bound_by(node)  # type: ignore[arg-type]
        # Called for every node: one identity test against the node that ends the scope.
        if self._exits and self._exits[-1][0] is node:
            _, deferring = self._exits.pop()
            self.scopes.pop()
            if deferring:
                self.deferred -= 1

    def _enter(self, owner: ScopeNode) -> None:
        scope = Scope(owner, self.walrus)
        self.scopes.append(scope)
        comprehension = isinstance(owner, COMPREHENSIONS)
        deferring = scope.kind == FUNCTION and not comprehension
        # A comprehension's scope ends with the comprehension, a definition's with its body.
        self._exits.append((owner if comprehension else owner.body, deferring))
        if deferring:
            self.deferred += 1

