"""Which local names stand for which modules in one file: a light alias pass.

libcst's ``QualifiedNameProvider`` answers the same question for every node, but on a
real 89-file slim tree it costs 16-28 s where the whole of ``tf_upgrade_v2`` takes
11.7 s (docs/architecture.md, "The speed path"). TF1 code binds TensorFlow names in a
few statement forms only: ``import tensorflow as tf``, ``from tensorflow.contrib import slim``,
``slim = tf.contrib.slim``, ``flags = tf.app.flags``. This module reads exactly those
statements on the stdlib ``ast`` of the file, walking statement bodies without
descending into expressions, and then resolves an expression like ``slim.arg_scope``
to ``tensorflow.contrib.slim.arg_scope``.

A name means what its scope makes it mean: ``collect_bindings(tree, module_level_only=True)``
gives what module-level code binds (a name the module also binds to anything else,
``tf = None`` or ``for tf in ...``, stands for nothing certain and is dropped), and
``slimport.analysis.scopes`` adds what each function, lambda, class body and
comprehension binds on its own (a parameter ``tf`` is not TensorFlow).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from slimport.analysis.ast_index import child_nodes, kinds_under, nodes_of


def dotted_parts(node: Union[cst.CSTNode, ast.AST]) -> Optional[List[str]]:
    """``a.b.c`` -> ["a", "b", "c"]; None for anything that is not a plain name chain.

    ``node`` is a libcst node or a stdlib ``ast`` node: the codemods read the former,
    the statement filters the latter.

    Args:
      node: a libcst or stdlib ``ast`` node.

    Returns:
      The names of the chain, first to last, or None.
    """
    # Exact type checks: libcst's node classes are ABCs, whose isinstance is slow, and
    # this runs for every chain of every pass.
    parts = []
    kind = type(node)
    while kind is cst.Attribute or kind is ast.Attribute:
        attr = node.attr  # type: ignore[union-attr]
        parts.append(attr if type(attr) is str else attr.value)
        node = node.value  # type: ignore[union-attr]
        kind = type(node)
    if kind is cst.Name:
        parts.append(node.value)  # type: ignore[union-attr]
    elif kind is ast.Name:
        parts.append(node.id)  # type: ignore[union-attr]
    else:
        return None
    parts.reverse()
    return parts


def is_under(name: Optional[str], module: str) -> bool:
    """True when the dotted ``name`` is ``module`` or something inside it.

    Args:
      name: a qualified name (None: not a name; False).
      module: a dotted module name, e.g. ``tensorflow.contrib``.

    Returns:
      ``tensorflow.contrib.slim`` is under ``tensorflow.contrib``;
      ``tensorflow.contribution`` is not.
    """
    return name is not None and (name == module or name.startswith(module + "."))


def name_in(qualified: Optional[str], module: str) -> Optional[str]:
    """What ``qualified`` names inside ``module``: ``numpy.linspace`` -> ``linspace``.

    Args:
      qualified: a qualified name (None: not a name).
      module: a dotted module name, e.g. ``numpy``.

    Returns:
      The dotted rest after ``module.``; None when ``qualified`` is not inside it.
    """
    if qualified is None or not qualified.startswith(module + "."):
        return None
    return qualified[len(module) + 1:]


def dotted_expression(name: str) -> Union[cst.Name, cst.Attribute]:
    """"a.b.c" -> the ``Name``/``Attribute`` chain that spells it (``dotted_parts`` reversed).

    Args:
      name: a dotted name.

    Returns:
      A ``Name`` (no dot) or an ``Attribute`` chain.
    """
    parts = name.split(".")
    node: Union[cst.Name, cst.Attribute] = cst.Name(parts[0])
    for part in parts[1:]:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


def local_name(alias: cst.ImportAlias) -> str:
    """The name an imported alias goes by in the file: its ``as`` name, else its own.

    Args:
      alias: one name of an import statement.

    Returns:
      The local name.
    """
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
        """Qualified dotted name of a ``Name``/``Attribute`` chain, or None if unbound.

        Args:
          node: an expression.

        Returns:
          The qualified name, or None.
        """
        parts = dotted_parts(node)
        return None if parts is None else self.resolve_parts(parts)

    def resolve_parts(self, parts: Sequence[str]) -> Optional[str]:
        """``resolve`` for a chain already split into parts (``["slim", "conv2d"]``).

        Args:
          parts: the chain, split.

        Returns:
          The qualified name, or None when the first part is not bound.
        """
        target = self.names.get(parts[0])
        if target is None:
            return None
        return ".".join([target, *parts[1:]])

    def local_names_for(self, qualified: str) -> list:
        """Every local name bound to exactly ``qualified``.

        Args:
          qualified: a qualified name.

        Returns:
          The local names, in binding order.
        """
        return [name for name, target in self.names.items() if target == qualified]


_BLOCK_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")
_AST_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def ast_chains(node: ast.AST) -> Iterator[List[str]]:
    """Every maximal ``a.b.c`` chain in ``node``, as parts, in source order.

    A chain broken by a call or subscript (``f(x).y``) is looked into, as the
    codemods' libcst visitors do.

    Args:
      node: a stdlib ``ast`` node.

    Yields:
      The parts of each chain.
    """
    parts = dotted_parts(node) if isinstance(node, (ast.Attribute, ast.Name)) else None
    if parts is not None:
        yield parts
        return
    for child in child_nodes(node):
        yield from ast_chains(child)


def statement_chains(statement: ast.stmt) -> List[List[str]]:
    """``ast_chains`` of ``statement``'s own parts: not the statements nested in it.

    For a compound statement that is its header (``if`` test, ``with`` items,
    decorators, ``def`` defaults) and its clauses' headers (``except`` types, ``case``
    patterns and guards). Kept on the statement: every codemod's filter asks.

    Args:
      statement: a stdlib ``ast`` statement.

    Returns:
      The parts of each chain.
    """
    chains = getattr(statement, "_slimport_chains", None)
    if chains is None:
        chains = list(_statement_chains(statement))
        statement._slimport_chains = chains  # type: ignore[attr-defined]
    return chains


def _statement_chains(statement: ast.stmt) -> Iterator[List[str]]:
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


def nested_statements(body: Sequence[ast.stmt], into_definitions: bool = True
                       ) -> Iterator[ast.stmt]:
    """Every statement in ``body`` and in the blocks nested in it, in source order
    (without the bodies of functions and classes unless ``into_definitions``).

    Args:
      body: a statement list.
      into_definitions: also walk function and class bodies.

    Yields:
      Each statement.
    """
    for statement in body:
        yield statement
        if into_definitions or not isinstance(statement, _AST_DEFINITIONS):
            for block in statement_blocks(statement):
                yield from nested_statements(block, into_definitions)


def statement_blocks(statement: ast.stmt) -> Iterator[List[ast.stmt]]:
    """The statement lists nested directly in ``statement`` (bodies, else, handlers).

    Args:
      statement: a stdlib ``ast`` statement.

    Yields:
      Each statement list.
    """
    for field_name in _BLOCK_FIELDS:
        value = getattr(statement, field_name, None)
        if not value:
            continue
        if isinstance(value[0], ast.stmt):
            yield value
        else:  # except handlers and match cases hold their own bodies
            for clause in value:
                yield clause.body


def target_names(target: ast.AST) -> Iterator[str]:
    """The names an assignment target binds: ``a``, ``a, (b, *c)``; not ``x.a`` or ``x[0]``.

    Args:
      target: an assignment, ``for`` or ``with`` target.

    Yields:
      Each name it binds.
    """
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from target_names(element)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)


def _pattern_names(pattern: ast.AST) -> Iterator[str]:
    for node in ast.walk(pattern):
        name = getattr(node, "name", None) if isinstance(node, (ast.MatchAs, ast.MatchStar)) \
            else getattr(node, "rest", None) if isinstance(node, ast.MatchMapping) else None
        if name:
            yield name


def _walrus_names(node: ast.AST) -> Iterator[str]:
    """Names bound by ``:=`` in an expression (a lambda's are its own)."""
    if isinstance(node, ast.NamedExpr):
        yield node.target.id
    if isinstance(node, ast.Lambda):
        return
    for child in child_nodes(node):
        yield from _walrus_names(child)


_WALRUS = "slimport_uses_walrus"


def parse_source(text: str) -> ast.Module:
    """``ast.parse(text)``, knowing (from the text, cheaply) whether it uses ``:=``.

    Args:
      text: Python source.

    Returns:
      The stdlib ``ast`` (``uses_walrus`` knows the answer).
    """
    return with_source_facts(ast.parse(text), text)


def with_source_facts(tree: ast.Module, text: str) -> ast.Module:
    """``tree`` (parsed from ``text``) told what is cheaper to learn from the text.

    Args:
      tree: the stdlib ``ast`` of ``text``.
      text: the source it was parsed from.

    Returns:
      ``tree``.
    """
    setattr(tree, _WALRUS, ":=" in text)
    return tree


_IDENTIFIERS = "_slimport_identifiers"


def identifiers(tree: ast.AST) -> FrozenSet[str]:
    """Every identifier the code spells: names, attribute names, keyword arguments,
    parameters, the names ``def`` / ``class`` / ``global`` / ``except ... as`` / a match
    pattern bind, and every part of an imported or importing module's dotted name.

    Args:
      tree: a stdlib ``ast`` (kept on it: several codemods' pre-checks ask).

    Returns:
      The identifiers.
    """
    known = getattr(tree, _IDENTIFIERS, None)
    if known is not None:
        return known
    found: Set[str] = set()
    add = found.add
    for kind, nodes in kinds_under(tree):
        if kind is ast.Name:
            found.update(node.id for node in nodes)  # type: ignore[attr-defined]
        elif kind is ast.Attribute:
            found.update(node.attr for node in nodes)  # type: ignore[attr-defined]
        elif kind in (ast.keyword, ast.arg):
            found.update(node.arg for node in nodes if node.arg)  # type: ignore[attr-defined]
        elif kind is ast.alias:
            for node in nodes:
                found.update(node.name.split("."))  # type: ignore[attr-defined]
                if node.asname:  # type: ignore[attr-defined]
                    add(node.asname)  # type: ignore[attr-defined]
        elif kind is ast.ImportFrom:
            for node in nodes:
                found.update((node.module or "").split("."))  # type: ignore[attr-defined]
        elif kind in (ast.Global, ast.Nonlocal):
            for node in nodes:
                found.update(node.names)  # type: ignore[attr-defined]
        elif kind is ast.MatchMapping:
            found.update(node.rest for node in nodes if node.rest)  # type: ignore[attr-defined]
        elif kind is ast.MatchClass:
            for node in nodes:
                found.update(node.kwd_attrs)  # type: ignore[attr-defined]
        else:
            for node in nodes:
                name = getattr(node, "name", None)  # definitions, handlers, match patterns
                if isinstance(name, str):
                    add(name)
    known = frozenset(found)
    setattr(tree, _IDENTIFIERS, known)
    return known


def uses_walrus(tree: ast.Module) -> bool:
    """Whether ``tree`` may have an ``:=`` (a tree from ``parse_source`` knows already).

    Args:
      tree: a stdlib ``ast`` module.

    Returns:
      False when it has no ``:=`` for certain.
    """
    known = getattr(tree, _WALRUS, None)
    if known is None:
        known = next(iter(nodes_of(tree, (ast.NamedExpr,))), None) is not None
        setattr(tree, _WALRUS, known)
    return known


def bound_names(statement: ast.stmt, walrus: bool = True) -> Iterator[str]:
    """Every name ``statement``'s own parts bind in the scope the statement stands in.

    That is assignment, ``for`` and ``with ... as`` targets, ``except ... as`` names,
    ``del``, ``def``/``class`` names, imports, ``case`` captures and ``:=`` (looked for
    only when ``walrus``: ``uses_walrus`` of the file); not the statements nested in its
    blocks (they are statements of their own), and not ``global``/``nonlocal`` (they say
    where a name lives, see ``Scope``).

    Args:
      statement: a stdlib ``ast`` statement.
      walrus: also look for ``:=`` in its expressions.

    Yields:
      Each name, possibly more than once.
    """
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        for alias in statement.names:
            if alias.name != "*":
                yield alias.asname or alias.name.split(".")[0]
        return
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield statement.name
    elif isinstance(statement, ast.Assign):
        for target in statement.targets:
            yield from target_names(target)
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        yield from target_names(statement.target)
    elif isinstance(statement, ast.Delete):
        for target in statement.targets:
            yield from target_names(target)
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        for item in statement.items:
            if item.optional_vars is not None:
                yield from target_names(item.optional_vars)
    elif isinstance(statement, getattr(ast, "Match", ())):
        for case in statement.cases:
            yield from _pattern_names(case.pattern)
    for handler in getattr(statement, "handlers", ()):
        if handler.name:
            yield handler.name
    if not walrus:
        return
    for name, value in ast.iter_fields(statement):
        if name not in _BLOCK_FIELDS:
            for node in value if isinstance(value, list) else [value]:
                if isinstance(node, ast.AST) and not isinstance(node, ast.stmt):
                    yield from _walrus_names(node)


def _bind_import(bindings: Bindings, node: ast.Import) -> None:
    for alias in node.names:
        if alias.asname is not None:
            bindings.names[alias.asname] = alias.name
        else:
            head = alias.name.split(".")[0]
            bindings.names[head] = head


def _bind_import_from(bindings: Bindings, node: ast.ImportFrom) -> None:
    for alias in node.names:
        if alias.name == "*":
            return
        local = alias.asname or alias.name
        if node.level or node.module is None:
            # A relative import binds something of this tree's own, never a module
            # of ours: it hides what the name stood for.
            bindings.names.pop(local, None)
        else:
            bindings.names[local] = f"{node.module}.{alias.name}"


def _alias_value(bindings: Bindings, node: ast.Assign) -> Optional[str]:
    """What ``x = a.b.c`` binds ``x`` to, when ``a`` is bound; else None."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return None
    parts = dotted_parts(node.value)
    return bindings.resolve_parts(parts) if parts is not None else None


def is_binding_statement(statement: ast.stmt, bindings: Bindings, walrus: bool = True) -> bool:
    """True if ``statement`` binds a name ``bindings`` knows, or is an import.

    Such statements decide what names stand for, in the module and in each function,
    so a skeleton always keeps them.

    Args:
      statement: a stdlib ``ast`` statement.
      bindings: the file's bindings.
      walrus: ``uses_walrus`` of the file.

    Returns:
      True when a skeleton must keep it.
    """
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return True
    return any(name in bindings.names for name in bound_names(statement, walrus))


def _globals_rebound_in_functions(tree: ast.Module) -> Set[str]:
    """Names a function declares ``global`` and binds: the module cannot tell what they
    stand for when its other code runs."""
    rebound: Set[str] = set()
    walrus = uses_walrus(tree)
    for function in nested_statements(tree.body):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        declared: Set[str] = set()
        bound: Set[str] = set()
        for statement in nested_statements(function.body, into_definitions=False):
            if isinstance(statement, ast.Global):
                declared.update(statement.names)
            else:
                bound.update(bound_names(statement, walrus))
        rebound |= declared & bound
    return rebound


_BINDINGS_CACHE: Dict[Tuple[int, bool], Tuple[ast.Module, Bindings]] = {}
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _catches_import_errors(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any((dotted_parts(kind) or [""])[-1] in _IMPORT_ERRORS for kind in types)


def _bind_module_block(bindings: Bindings, body: Sequence[ast.stmt],
                       fallbacks: FrozenSet[str], walrus: bool) -> None:
    """Module-level ``collect_bindings`` of one block.

    ``fallbacks``: names an enclosing ``try`` imported, whose ``except ImportError``
    handler this block is: ``slim = None`` there is what the module does where the
    import fails, not another meaning of ``slim`` where it works.
    """
    for statement in body:
        if isinstance(statement, _AST_DEFINITIONS):
            if statement.name not in fallbacks:
                bindings.names.pop(statement.name, None)
            continue
        if isinstance(statement, ast.Import):
            _bind_import(bindings, statement)
        elif isinstance(statement, ast.ImportFrom):
            _bind_import_from(bindings, statement)
        else:
            value = _alias_value(bindings, statement) \
                if isinstance(statement, ast.Assign) else None
            for name in bound_names(statement, walrus):
                if value is not None:
                    bindings.names[name] = value
                elif name not in fallbacks:
                    bindings.names.pop(name, None)
        if isinstance(statement, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            _bind_module_block(bindings, statement.body, fallbacks, walrus)
            imported = {name for inner in statement.body
                        if isinstance(inner, (ast.Import, ast.ImportFrom))
                        for name in bound_names(inner, walrus=False)}
            for handler in statement.handlers:
                caught = fallbacks | imported if _catches_import_errors(handler) else fallbacks
                _bind_module_block(bindings, handler.body, frozenset(caught), walrus)
            _bind_module_block(bindings, statement.orelse, fallbacks, walrus)
            _bind_module_block(bindings, statement.finalbody, fallbacks, walrus)
        else:
            for block in statement_blocks(statement):
                _bind_module_block(bindings, block, fallbacks, walrus)


def collect_bindings(tree: ast.Module, module_level_only: bool = False) -> Bindings:
    """Read the import and alias statements of ``tree``.

    Args:
      tree: the file as the stdlib ``ast`` parses it (codemods get it from
        ``SlimportCodemod.file_ast``: the engine has one already, and it is far
        cheaper to walk than libcst's tree).
      module_level_only: what every scope of the file sees unless it binds the name
        itself (``SlimportCodemod.resolve`` adds the scopes): function and class bodies
        are skipped, ``if``/``try`` blocks at module level are read, and a name that
        module-level code also binds to anything else (``tf = None``, ``for tf in``,
        ``del tf``, a relative import) or that a function rebinds through ``global``
        stands for nothing certain and is dropped; the fallback of a failed import
        (``except ImportError: slim = None``) is not another meaning. Without it:
        every import and alias at any level, the candidates statement filters look for.

    Returns:
      The bindings.
    """
    key = (id(tree), module_level_only)
    cached = _BINDINGS_CACHE.get(key)
    if cached is not None and cached[0] is tree:
        return Bindings(dict(cached[1].names))
    bindings = Bindings()
    if module_level_only:
        _bind_module_block(bindings, tree.body, frozenset(), uses_walrus(tree))
        for name in _globals_rebound_in_functions(tree):
            bindings.names.pop(name, None)
    else:
        _bind_all(bindings, tree)
    if len(_BINDINGS_CACHE) > 16:
        _BINDINGS_CACHE.clear()
    # Each codemod of a file's run asks again about the same tree.
    _BINDINGS_CACHE[key] = (tree, bindings)
    return Bindings(dict(bindings.names))


def _bind_all(bindings: Bindings, tree: ast.Module) -> None:
    for statement in nested_statements(tree.body):
        if isinstance(statement, ast.Import):
            _bind_import(bindings, statement)
        elif isinstance(statement, ast.ImportFrom):
            _bind_import_from(bindings, statement)
        elif isinstance(statement, ast.Assign):
            value = _alias_value(bindings, statement)
            if value is not None:
                bindings.names[statement.targets[0].id] = value  # type: ignore[attr-defined]
