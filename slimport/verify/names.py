"""The call-time check's reading side: every TensorFlow name a tree uses, and where.

A module that imports fine can still hold ``tf.contrib.data.batch_and_drop_remainder``
inside a function: it fails only when that function runs. This module reads each
file (stdlib ``ast``, no TensorFlow) and lists every attribute chain that starts at
a name bound to TensorFlow (or tf_slim, Keras, slim_ext): through the file's own
imports and aliases (``import tensorflow.compat.v1 as tf``, ``from tensorflow.python
import pywrap_tensorflow``, ``slim = tf.contrib.slim``) and scope by scope, with the
codemods' own rules (``_names.collect_bindings`` for module-level code,
``_scopes.resolve_in`` inside functions, classes, lambdas and comprehensions: a
parameter ``tf`` is not TensorFlow). The worker then looks every distinct name up
once, in one forked child with slim_ext loaded (checks.py, ``names``).

A module that imports ``slim_ext.legacy_keras`` (the port's Keras route) runs with
``tf.keras`` as tf_keras: its ``tf.keras`` names are looked up there.

A use is left out where the code guards it: in a ``try`` whose handler catches
AttributeError, ImportError or Exception, and under an ``if`` that tests
``hasattr``/``getattr`` or a version.
"""
import ast
import dataclasses
from typing import Iterable, Iterator, List, Sequence

from slimport.analysis import scopes as _scopes
from slim_facts.keras_route import KERAS_2_V1
from slimport.codemods.legacy_keras import LEGACY_KERAS
from slimport.analysis.names import (Bindings, bound_names, collect_bindings, dotted_parts,
                                      nested_statements, target_names)
from slimport.verify import sources
from slimport.verify.tree import Tree

# What ported code imports for its shims: loaded before the names are looked up.
PORTED_RUNTIME = "slim_ext"
# The packages whose names are checked: TensorFlow and what ported code reaches it by.
CHECKED_PACKAGES = ("tensorflow", "tf_slim", "tf_keras", "keras", "slim_ext")
_GUARD_ERRORS = frozenset({"AttributeError", "ImportError", "ModuleNotFoundError",
                           "Exception", "BaseException"})
_GUARD_TESTS = frozenset({"hasattr", "getattr", "__version__", "VERSION", "version",
                          "LooseVersion", "parse_version"})
# Where a module on the Keras route finds TensorFlow's Keras names: tf_keras' APIs
# (its top level is the v2 API).
_KERAS_2_HOMES = (("tensorflow.compat.v1.keras", KERAS_2_V1),
                  ("tensorflow.compat.v2.keras", "tf_keras"), ("tensorflow.keras", "tf_keras"))
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclasses.dataclass(frozen=True)
class Use:
    """One use of a checked name: the module, the line, the qualified name and its spelling."""

    module: str
    relpath: str
    line: int
    name: str
    spelled: str

    @property
    def where(self) -> str:
        return f"{self.relpath}:{self.line}"


def _fill(reader: "_scopes.BindingReader", body: Sequence[ast.stmt]) -> None:
    """What the statements of one function or class body bind there (not nested bodies)."""
    for statement in nested_statements(body, into_definitions=False):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                local = alias.asname or alias.name.split(".")[0]
                reader.add(local, _scopes.ScopeEntry(
                    qualified=alias.name if alias.asname else local))
        elif isinstance(statement, ast.ImportFrom):
            for alias in statement.names:
                absolute = statement.module and not statement.level
                reader.add(alias.asname or alias.name, _scopes.ScopeEntry(
                    qualified=f"{statement.module}.{alias.name}") if absolute else None)
        elif isinstance(statement, ast.Global):
            reader.declared_global.update(statement.names)
        elif isinstance(statement, ast.Nonlocal):
            reader.declared_nonlocal.update(statement.names)
        elif (isinstance(statement, ast.Assign) and len(statement.targets) == 1
              and isinstance(statement.targets[0], ast.Name)
              and dotted_parts(statement.value) is not None):
            reader.add(statement.targets[0].id,
                        _scopes.ScopeEntry(chain=dotted_parts(statement.value)))
        else:
            for name in bound_names(statement):
                reader.add(name)


def _parameters(arguments: ast.arguments) -> Iterator[str]:
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                     arguments.vararg, arguments.kwarg]:
        if argument is not None:
            yield argument.arg


def _scope(node: ast.AST) -> "_scopes.Scope":
    """A codemod ``Scope`` for an ``ast`` node, its bindings read with ``ast``."""
    scope = _scopes.Scope(node, lambda: False,  # type: ignore[arg-type]
                          kind=_scopes.CLASS if isinstance(node, ast.ClassDef)
                          else _scopes.FUNCTION)
    reader = _scopes.BindingReader(lambda: False)
    if isinstance(node, (*_FUNCTIONS, ast.Lambda)):
        for name in _parameters(node.args):
            reader.add(name)
    if isinstance(node, _COMPREHENSIONS):
        for generator in node.generators:
            for name in target_names(generator.target):
                reader.add(name)
    elif not isinstance(node, ast.Lambda):
        _fill(reader, node.body)
    scope._reader = reader
    return scope


def _guards(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any((dotted_parts(kind) or [""])[-1] in _GUARD_ERRORS for kind in types)


def _tests_availability(test: ast.expr) -> bool:
    for node in ast.walk(test):
        name = node.id if isinstance(node, ast.Name) else (
            node.attr if isinstance(node, ast.Attribute) else None)
        if name in _GUARD_TESTS:
            return True
    return False


class _UseReader:
    """Walks one file and collects its uses of checked names."""

    def __init__(self, module: str, relpath: str, bindings: Bindings, keras_2: bool) -> None:
        self.module = module
        self.relpath = relpath
        self.bindings = bindings
        self.keras_2 = keras_2  # on the port's Keras route: tf.keras is tf_keras
        self.uses: List[Use] = []

    def walk(self, node: ast.AST, scopes: List["_scopes.Scope"], guarded: bool) -> None:
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef, ast.Lambda, *_COMPREHENSIONS)):
            self._definition(node, scopes, guarded)
            return
        if isinstance(node, ast.Try):
            caught = guarded or any(_guards(handler) for handler in node.handlers)
            self.walk_all(node.body, scopes, caught)
            self.walk_all([*node.handlers, *node.orelse, *node.finalbody], scopes, guarded)
            return
        if isinstance(node, (ast.If, ast.IfExp)) and _tests_availability(node.test):
            guarded = True
        if isinstance(node, (ast.Attribute, ast.Name)):
            parts = dotted_parts(node)
            if parts is not None:
                if len(parts) > 1 and isinstance(node.ctx, ast.Load) and not guarded:
                    self._record(node, parts, scopes)
                return
        self.walk_all(ast.iter_child_nodes(node), scopes, guarded)

    def walk_all(self, nodes: Iterable[ast.AST], scopes: List["_scopes.Scope"],
                 guarded: bool) -> None:
        for child in nodes:
            self.walk(child, scopes, guarded)

    def _definition(self, node: ast.AST, scopes: List["_scopes.Scope"], guarded: bool) -> None:
        """Decorators, defaults, bases and the first iterable belong to the enclosing scope."""
        inner = scopes + [_scope(node)]
        if isinstance(node, _COMPREHENSIONS):
            first, *rest = node.generators
            self.walk(first.iter, scopes, guarded)
            self.walk_all([first.target, *first.ifs], inner, guarded)
            for generator in rest:
                self.walk(generator, inner, guarded)
            elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            self.walk_all(elements, inner, guarded)
            return
        if isinstance(node, ast.ClassDef):
            self.walk_all([*node.decorator_list, *node.bases, *node.keywords], scopes, guarded)
        else:
            arguments = node.args
            self.walk_all([*getattr(node, "decorator_list", []), *arguments.defaults,
                           *[d for d in arguments.kw_defaults if d is not None]], scopes, guarded)
        body = node.body if isinstance(node.body, list) else [node.body]
        self.walk_all(body, inner, guarded)

    def _record(self, node: ast.AST, parts: List[str], scopes: List["_scopes.Scope"]) -> None:
        qualified = _scopes.resolve_in(scopes, self.bindings, parts)
        if qualified is not None and self.keras_2:
            qualified = _on_keras_2(qualified)
        if qualified is not None and qualified.split(".")[0] in CHECKED_PACKAGES:
            self.uses.append(Use(self.module, self.relpath, node.lineno, qualified,
                                 ".".join(parts)))


def _on_keras_2(qualified: str) -> str:
    """``tensorflow.keras.X`` as a module on the Keras route finds it (``tf_keras.X``)."""
    for tensorflow_keras, home in _KERAS_2_HOMES:
        if qualified == tensorflow_keras or qualified.startswith(tensorflow_keras + "."):
            return home + qualified[len(tensorflow_keras):]
    return qualified


def uses_in(tree: Tree) -> List[Use]:
    """Every use of a checked name in the tree's modules, in file and line order.

    Args:
      tree: the tree (its modules' files are read, never imported).

    Returns:
      The uses; files that do not parse (Python 2) have none.
    """
    found: List[Use] = []
    for module in tree.modules:
        parsed = sources.parsed(module.path)
        if parsed is None:
            continue
        keras_2 = any(alias.name == LEGACY_KERAS for node in parsed.body
                      if isinstance(node, ast.Import) for alias in node.names)
        reader = _UseReader(module.name, module.relpath,
                         collect_bindings(parsed, module_level_only=True), keras_2)
        reader.walk_all(parsed.body, [], False)
        found += reader.uses
    return found


def distinct_names(uses: Iterable[Use]) -> List[str]:
    """The names to look up, each once."""
    return sorted({use.name for use in uses})

