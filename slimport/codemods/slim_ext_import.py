"""Ported code that needs slim_ext's shims imports slim_ext, where the need starts.

``import slim_ext`` applies the shims that make tf_slim 1.1.0 build graphs on TF 2.16+
(``ops.Tensor``, the ``tf_keras.legacy_tf_layers`` module behind ``slim.batch_norm``)
and send ``tf.compat.v1.layers`` / ``tf.compat.v1.nn.rnn_cell`` to tf_keras' legacy
layers where TensorFlow would send them to Keras 3, which has none. Without it, a
ported file imports fine and fails when it builds its model. So a file that imports
tf_slim gets ``import slim_ext`` on the line after its first tf_slim import (after the
``try`` statement, when the import is in one), and a file that uses
``tf.layers`` or ``tf.nn.rnn_cell`` gets it after its first TensorFlow import; once,
and only when the file (or, inside a function, that function) imports no slim_ext
module yet. With no module-level import to follow, each function that imports tf_slim
gets it after its own first tf_slim import.

A file that uses the Estimator (``tf.estimator``, ``tf.compat.v1.estimator``,
``tf.keras.estimator``, a module-level ``tensorflow_estimator`` import) needs the shims
that revive tensorflow-estimator 2.15 on TF 2.16+: with no tf_slim or TF1 layers it
gets ``import slim_ext.estimator`` (the same shims, named for what they are for, and
no TF1 evidence for the codemods that port only TF1 code) after its first TensorFlow
import, or before its first ``tensorflow_estimator`` import when that comes first
(``tensorflow_estimator`` does not import on TF 2.16+ without them). A module-level
``tensorflow_gan`` import counts the same: TF-GAN reads ``tf.estimator`` when it is
imported, and on Python 3.11+ calls the ``inspect.getargspec`` slim_ext gives it back.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.codemods.base import SlimportCodemod, StatementFilter, chain_filter, code_of
from slimport.codemods._statements import small_statement
from slimport.analysis.names import Bindings, dotted_parts, is_under, statement_blocks

SLIM_EXT = "slim_ext"
TF_SLIM = "tf_slim"
# TF1 API modules TensorFlow 2.16+ serves from Keras 3, where slim_ext routes them to
# tf_keras (slim_ext/compat.py); ``tensorflow.layers`` is the same before compat_v1
# switches ``import tensorflow as tf`` to compat.v1.
_LEGACY_KERAS_MODULES = ("tensorflow.compat.v1.layers", "tensorflow.compat.v1.nn.rnn_cell",
                         "tensorflow.layers", "tensorflow.nn.rnn_cell")
_IMPORT = small_statement(f"import {SLIM_EXT}")
_LEGACY_KERAS_ATTRIBUTES = frozenset({"layers", "rnn_cell"})
# Attribute names that can reach what slim_ext's shims revive.
_NEEDS_SHIMS = _LEGACY_KERAS_ATTRIBUTES | {"estimator"}
ESTIMATOR_RUNTIME = f"{SLIM_EXT}.estimator"
_ESTIMATOR_IMPORT = small_statement(f"import {ESTIMATOR_RUNTIME}")
TENSORFLOW_ESTIMATOR = "tensorflow_estimator"
# Packages that read tf.estimator when they are imported: the shims must come first.
_NEED_ESTIMATOR_AT_IMPORT = (TENSORFLOW_ESTIMATOR, "tensorflow_gan")
# Where TensorFlow reaches the Estimator API (Keras' model_to_estimator included).
_ESTIMATOR_APIS = tuple(f"{root}.{name}" for root in (
    "tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2", "tensorflow.keras",
    "tensorflow.compat.v1.keras", "tensorflow.compat.v2.keras") for name in ["estimator"])


def _ast_imported_modules(node: ast.AST) -> List[str]:
    """What an ``ast`` import reads (``from a import b``: ``a`` and ``a.b``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return []


def _module_level_imports(tree: ast.Module) -> List[Tuple[int, str]]:
    """(line, module) for the modules imports at module level read (in ``if``/``try``
    blocks too)."""
    found: List[Tuple[int, str]] = []
    blocks = [tree.body]
    while blocks:
        for statement in blocks.pop():
            found += [(statement.lineno, module) for module in _ast_imported_modules(statement)]
            if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                blocks += [block for block in statement_blocks(statement)]
    return found


def _first_line(imports: List[Tuple[int, str]], *packages: str) -> Optional[int]:
    return min((line for line, module in imports
                if any(is_under(module, package) for package in packages)), default=None)


def _shims_come_first(tree: ast.Module) -> bool:
    """True when a module-level slim_ext import comes before any module-level
    tensorflow_estimator or tensorflow_gan import (which do not import on TF 2.16+ without
    its shims)."""
    imports = _module_level_imports(tree)
    shims = _first_line(imports, SLIM_EXT)
    estimator = _first_line(imports, *_NEED_ESTIMATOR_AT_IMPORT)
    return shims is not None and (estimator is None or shims < estimator)


def _clauses(statement: cst.BaseCompoundStatement
             ) -> Iterator[Tuple[cst.BaseSuite, bool]]:
    """The suites of a compound statement, each with whether it is a ``try``'s own body."""
    yield statement.body, isinstance(statement, cst.Try)
    for handler in getattr(statement, "handlers", ()):
        yield handler.body, False
    orelse = getattr(statement, "orelse", None)
    if isinstance(orelse, cst.If):  # elif
        yield from _clauses(orelse)
    elif orelse is not None:
        yield orelse.body, False
    final = getattr(statement, "finalbody", None)
    if final is not None:
        yield final.body, False


def _module_level_imports_cst(tree: cst.Module
                              ) -> List[Tuple[cst.CSTNode, Union[cst.Import, cst.ImportFrom]]]:
    """(statement to insert after, import) for each module-level import, in order: the
    ``try`` the import stands in directly, else its line."""
    found: List[Tuple[cst.CSTNode, Union[cst.Import, cst.ImportFrom]]] = []

    def walk(statements: Sequence[cst.CSTNode], in_try: Optional[cst.Try]) -> None:
        for statement in statements:
            if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                found.extend((in_try or statement, small) for small in statement.body
                             if isinstance(small, (cst.Import, cst.ImportFrom)))
            elif isinstance(statement, cst.BaseCompoundStatement) and \
                    not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                for suite, try_body in _clauses(statement):
                    walk(suite.body if isinstance(suite, cst.IndentedBlock) else [suite],
                         statement if try_body else None)  # type: ignore[arg-type]
    walk(tree.body, None)
    return found


def _imported_modules(statement: Union[cst.Import, cst.ImportFrom]) -> List[str]:
    """The modules an import statement reads (``from a import b``: ``a`` and ``a.b``)."""
    if isinstance(statement, cst.Import):
        return [".".join(dotted_parts(alias.name) or []) for alias in statement.names]
    if statement.relative or statement.module is None:
        return []
    module = ".".join(dotted_parts(statement.module) or [])
    names = [] if isinstance(statement.names, cst.ImportStar) else \
        [f"{module}.{alias.evaluated_name}" for alias in statement.names]
    return [module, *names]


def _uses_legacy_keras(qualified: Optional[str]) -> bool:
    return qualified is not None and any(is_under(qualified, module)
                                         for module in _LEGACY_KERAS_MODULES)


def uses_estimator(qualified: Optional[str]) -> bool:
    """True for a name of TensorFlow's Estimator API or of a package that reads it when
    imported (tensorflow_estimator, tensorflow_gan).

    Args:
      qualified: a resolved dotted name.

    Returns:
      True for ``tensorflow.estimator.Estimator``, ``tensorflow.keras.estimator...``,
      ``tensorflow_estimator...``, ``tensorflow_gan...``.
    """
    return any(is_under(qualified, module)
               for module in (*_ESTIMATOR_APIS, *_NEED_ESTIMATOR_AT_IMPORT))


class _InsertAfter(cst.CSTTransformer):
    """Puts an import right after each of the given statement lines (or right before
    each of the ``before`` ones)."""

    def __init__(self, lines: Sequence[cst.CSTNode], statement: cst.BaseSmallStatement = _IMPORT,
                 before: Sequence[cst.CSTNode] = ()) -> None:
        super().__init__()
        self.lines = {id(line) for line in lines}
        self.before = {id(line) for line in before}
        self.statement = statement

    def _body(self, body: Sequence[cst.BaseStatement],
              original: Sequence[cst.BaseStatement]) -> List[cst.BaseStatement]:
        out: List[cst.BaseStatement] = []
        for new, old in zip(body, original):
            if id(old) in self.before:
                out.append(cst.SimpleStatementLine(body=[self.statement],
                                                   leading_lines=new.leading_lines))
                new = new.with_changes(leading_lines=())
            out.append(new)
            if id(old) in self.lines:
                out.append(cst.SimpleStatementLine(body=[self.statement]))
        return out

    def insert(self, body: Sequence[cst.BaseStatement]) -> List[cst.BaseStatement]:
        """``body`` with the import after each of the lines in it."""
        return self._body(body, body)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return updated_node.with_changes(body=self._body(updated_node.body, original_node.body))

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock,
                            updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated_node.with_changes(body=self._body(updated_node.body, original_node.body))

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite,
                                   updated_node: cst.SimpleStatementSuite
                                   ) -> cst.SimpleStatementSuite:
        # ``try: import tf_slim as slim``: the import joins the same line.
        if id(original_node) not in self.lines:
            return updated_node
        body = list(updated_node.body)
        body[-1] = body[-1].with_changes(
            semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated_node.with_changes(body=[*body, self.statement])


class SlimExtImportCommand(SlimportCodemod):
    """Adds ``import slim_ext`` where ported code first imports tf_slim (or TF1 layers)."""

    NAME: ClassVar[str] = "slim_ext_import"
    DESCRIPTION: ClassVar[str] = (
        "files that import tf_slim, use tf.layers / tf.nn.rnn_cell or the Estimator "
        "import slim_ext (its shims) right there"
    )
    # Each of these may add a tf_slim or slim_ext import: ``import slim_ext`` is added
    # only where none came before.
    RUNS_AFTER: ClassVar[Tuple[str, ...]] = (
        "contrib_slim", "contrib_symbols", "moxing", "moved_modules", "sdk_imports",
        "uai_flags", "cluster_bootstrap", "own_server", "legacy_keras", "train_and_evaluate")
    # "contrib": contrib_slim and contrib_symbols turn tf.contrib uses into tf_slim
    # imports; applying from the start keeps this codemod in their run over one skeleton
    # (otherwise the engine cuts and parses a second one after them).
    TRIGGERS: ClassVar[Tuple[str, ...]] = (TF_SLIM, "layers", "rnn_cell", "contrib",
                                           "estimator", "tensorflow_gan")

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return TF_SLIM in source or ("tensorflow" in source and (
            "layers" in source or "rnn_cell" in source or "contrib" in source
            or "estimator" in source or "tensorflow_gan" in source))

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Imports are always in the skeleton; of the rest, the TF1 layer and Estimator uses.
        def needed(parts: List[str]) -> bool:
            qualified = bindings.resolve_parts(parts)
            return _uses_legacy_keras(qualified) or uses_estimator(qualified)
        return chain_filter(needed)

    def start_file(self, tree: cst.Module) -> bool:
        parsed = self.file_ast(tree)
        imported = [module for node in nodes_of(parsed, (ast.Import, ast.ImportFrom))
                    for module in _ast_imported_modules(node)]
        if _shims_come_first(parsed):
            return False  # the shims are applied before any function runs
        if not any(is_under(module, TF_SLIM) for module in imported) and not any(
                node.attr in _NEEDS_SHIMS  # type: ignore[attr-defined]
                for node in nodes_of(parsed, (ast.Attribute,))) and not any(
                _uses_legacy_keras(module) or uses_estimator(module) for module in imported):
            return False
        # The statement line holding each scope's first tf_slim import, its first
        # TensorFlow import, and whether a slim_ext import came before it.
        self._tf_slim_lines: Dict[int, cst.CSTNode] = {}
        self._tf_lines: Dict[int, cst.CSTNode] = {}
        self._covered: Set[int] = set()
        self._line: Optional[cst.CSTNode] = None
        self._tries: List[cst.Try] = []
        self._uses_legacy_keras = False
        self._uses_estimator = False
        # Whether a module-level tensorflow_estimator / tensorflow_gan import was seen.
        self._estimator_imported = False
        # The module-level tensorflow_estimator import that comes before any TensorFlow
        # import: slim_ext goes before it.
        self._estimator_first: Optional[cst.CSTNode] = None
        # The first module-level tensorflow_estimator / tensorflow_gan import wherever it
        # stands (a tf_slim import after it needs slim_ext before it), and each
        # module-level import line's place among them.
        self._estimator_line: Optional[cst.CSTNode] = None
        self._order: Dict[int, int] = {}
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        # Usually the module imports tf_slim itself: its statements say where.
        for line, statement in _module_level_imports_cst(tree):
            self._line = line
            self._order.setdefault(id(line), len(self._order))
            self._see_import(statement)
        if 0 not in self._tf_slim_lines:
            # Imports inside functions, or TF1 layers used: the whole tree says.
            self._tf_slim_lines, self._tf_lines = {}, {}
            tree.visit(self)  # reads only: the lines found are lines of ``tree``
        if self._uses_estimator and not self._uses_legacy_keras and not self._tf_slim_lines:
            return self._insert_for_estimator(tree)
        targets = self._targets()
        first = self._estimator_line
        if len(targets) == 1 and first is not None and \
                self._order.get(id(targets[0]), -1) > self._order[id(first)]:
            # tensorflow_estimator (tensorflow_gan) fails to import without the shims
            # (contrib_symbols writes it for contrib's TPU and Estimator modules).
            self.record_edit(first, f"import {SLIM_EXT} before {code_of(first).strip()} "
                                    "(its shims revive tf.estimator, which that import reads)")
            return self._insert(tree, _InsertAfter((), _IMPORT, [first]), [first])
        for target in targets:
            self.record_edit(target, f"import {SLIM_EXT} after {code_of(target).strip()}")
        if not targets:
            return tree
        return self._insert(tree, _InsertAfter(targets), targets)

    def _insert_for_estimator(self, tree: cst.Module) -> cst.Module:
        """``import slim_ext.estimator`` before the first tensorflow_estimator import, or
        after the first TensorFlow import."""
        module_level = 0
        if self._estimator_first is not None:
            first = self._estimator_first
            self.record_edit(first, f"import {ESTIMATOR_RUNTIME} before "
                                    f"{code_of(first).strip()} (revives tf.estimator)")
            return self._insert(tree, _InsertAfter((), _ESTIMATOR_IMPORT, [first]), [first])
        if module_level in self._covered:
            return tree
        line = self._tf_lines.get(module_level)
        if line is None:
            return tree
        self.record_edit(line, f"import {ESTIMATOR_RUNTIME} after {code_of(line).strip()} "
                               "(revives tf.estimator)")
        return self._insert(tree, _InsertAfter([line], _ESTIMATOR_IMPORT), [line])

    def _insert(self, tree: cst.Module, inserter: _InsertAfter,
                targets: Sequence[cst.CSTNode]) -> cst.Module:
        if all(any(target is statement for statement in tree.body) for target in targets):
            # A statement of the module itself: no walk through the functions needed.
            return tree.with_changes(body=inserter.insert(tree.body))
        return tree.visit(inserter)

    def _targets(self) -> List[cst.CSTNode]:
        module_level = 0
        if module_level in self._tf_slim_lines:
            return [] if module_level in self._covered else [self._tf_slim_lines[module_level]]
        if self._uses_legacy_keras and module_level in self._tf_lines:
            return [] if module_level in self._covered else [self._tf_lines[module_level]]
        if module_level in self._covered:
            return []
        return [line for scope, line in self._tf_slim_lines.items()
                if scope not in self._covered]

    # The statement an import stands in: its line, or the ``try`` around it, after
    # which ``import slim_ext`` goes so that the ``except ImportError`` still only
    # catches what it caught (a missing tf_slim).

    def visit_Try(self, node: cst.Try) -> None:
        self._tries.append(node)

    def leave_Try(self, original_node: cst.Try, updated_node: cst.Try) -> cst.Try:
        self._tries.pop()
        return updated_node

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line = self._statement_of(node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._line = self._statement_of(node)

    def _statement_of(self, line: cst.CSTNode) -> cst.CSTNode:
        try_node = self._tries[-1] if self._tries else None
        if try_node is not None and (try_node.body is line or (
                isinstance(try_node.body, cst.IndentedBlock) and line in try_node.body.body)):
            return try_node
        return line

    def _scope(self) -> int:
        """0 at module level (``if``/``try`` blocks included), else the function's id."""
        scopes = self.scopes.scopes
        return id(scopes[-1].node) if scopes else 0

    def _see_import(self, node: Union[cst.Import, cst.ImportFrom]) -> bool:
        scope = self._scope()
        modules = _imported_modules(node)
        if any(is_under(module, SLIM_EXT) for module in modules):
            # Shims apply once, for the whole process; functions run after the module.
            # At module level they must come before a tensorflow_estimator or
            # tensorflow_gan import, which fails without them: one after it (another
            # codemod's runtime import, added after the file's imports) covers nothing.
            if not (scope == 0 and self._estimator_imported):
                self._covered.add(scope)
        elif any(is_under(module, TF_SLIM) for module in modules):
            self._tf_slim_lines.setdefault(scope, self._line)  # type: ignore[arg-type]
        elif any(is_under(module, package) for module in modules
                 for package in _NEED_ESTIMATOR_AT_IMPORT):
            if scope == 0:
                self._uses_estimator = self._estimator_imported = True
                if self._estimator_line is None:
                    self._estimator_line = self._line
                if scope not in self._covered and scope not in self._tf_lines \
                        and self._estimator_first is None:
                    self._estimator_first = self._line
        elif any(is_under(module, "tensorflow") for module in modules):
            self._tf_lines.setdefault(scope, self._line)  # type: ignore[arg-type]
            self._uses_estimator |= scope == 0 and any(uses_estimator(m) for m in modules)
        return False

    def visit_Import(self, node: cst.Import) -> bool:
        return self._see_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return self._see_import(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if self._uses_legacy_keras:
            return False
        parts = dotted_parts(node)
        if parts is None:
            return True
        if _LEGACY_KERAS_ATTRIBUTES & set(parts):
            self._uses_legacy_keras = _uses_legacy_keras(self.resolve_name(node))
        elif "estimator" in parts and not self._uses_estimator:
            self._uses_estimator = uses_estimator(self.resolve_name(node))
        return False
