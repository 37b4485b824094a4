"""Files that need Keras 2 import ``slim_ext.legacy_keras`` before TensorFlow: tf.keras is tf_keras.

TensorFlow 2.16+ serves ``tf.keras`` from Keras 3, which dropped what TF1 and TF 2.0-era
Keras code relies on. A file needs Keras 2 when it

- uses a ``tf.keras`` name only Keras 2 has (``keras_api.txt``, generated from tf_keras
  and Keras 3: ``backend.set_learning_phase``, ``estimator.model_to_estimator``,
  ``layers.experimental``, ...);
- compiles a model with a TF1 optimizer (``tf.compat.v1.train.AdamOptimizer(...)`` or
  ``tf.train.MomentumOptimizer(...)`` passed to ``compile``, directly or through a name
  it was assigned to): Keras 3 rejects it ("Could not interpret optimizer identifier");
- uses ``tf.keras`` in graph-mode code: in TF1 code (the file's own signs, before or
  after the earlier codemods: ``_tf_code``) or in an Estimator program (``tf.estimator``,
  ``tensorflow_estimator``), whose ``model_fn`` runs in a graph.

Such a file gets ``import slim_ext.legacy_keras`` on the line before its first
TensorFlow import: from there on ``tf.keras`` is tf_keras in the process, as
``TF_USE_LEGACY_KERAS=1`` set before TensorFlow's import makes it, also when TensorFlow
was imported first (pytest, another module); on TF 2.15 it changes nothing. The switch
holds for the whole process, so when ``slimport rewrite`` finds a file of the tree that
needs it (``tree_needs_keras_2``), every other file of the tree that uses TensorFlow's
Keras gets it too: object detection's Keras box heads have no TF1 sign of their own, yet
subclass ``tf.keras`` layers at import, beside TF1 modules that need Keras 2.

The switch rather than ``tf.keras`` -> ``tf_keras`` in the code: measured on our three
Estimator examples, the switch trains 4 of 4 on TF 2.21 and 2.15, the rename 3 of 4 (TF
2.15's ``model_to_estimator`` clones only TensorFlow's own Keras 2 models). TF2 Keras
code that runs on Keras 3 gets nothing. ``tf.keras.mixed_precision.experimental``,
which neither Keras 2.15+ nor Keras 3 has, is reported with its TF 2.4+ names.

The decision is read off the stdlib ``ast`` of the user's file (the same reading for a
file and for the tree scan), scope by scope: a parameter or local variable ``tf`` is
not TensorFlow.
"""
from __future__ import annotations

import ast
import re
from typing import (Any, AbstractSet, ClassVar, FrozenSet, Iterable, Iterator, List, Optional,
                    Set, Tuple)

import libcst as cst

from slimport.codemods.base import SlimportCodemod, StatementFilter, chain_filter, code_of
from slimport.analysis.names import (
    Bindings,
    collect_bindings,
    dotted_parts,
    is_under,
    parse_source,
    statement_blocks,
    statement_chains,
    uses_walrus,
)
from slimport.analysis.per_text import per_text
from slimport.codemods._statements import imports_module, small_statement
from slimport.codemods.tree_facts import PROCESS, TreeFact
from slimport.analysis.tf_code import _locally_bound, tf1_evidence
from slimport.tables.keras_api import V1, V2, keras_2_only
from slimport.tables.tf_api import COMPAT_V1, TF, TF1, tf_api

LEGACY_KERAS = "slim_ext.legacy_keras"
# Where TensorFlow's Keras is reached, and which of tf_keras' APIs each root is.
KERAS_ROOTS = {f"{TF}.keras": V2, f"{TF}.compat.v2.keras": V2, f"{COMPAT_V1}.keras": V1}
ESTIMATOR_ROOTS = (f"{TF}.estimator", f"{COMPAT_V1}.estimator", f"{TF}.compat.v2.estimator",
                   "tensorflow_estimator")
_MIXED_PRECISION_EXPERIMENTAL = "mixed_precision.experimental"
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IMPORT = small_statement(f"import {LEGACY_KERAS}")
# How a file spells TensorFlow's Keras (``tf.keras``, ``tensorflow.keras``,
# ``tf.compat.v1.keras``, ``from tensorflow import keras``): the text pre-check.
_TENSORFLOW_KERAS = re.compile(r"\b(?:tf\w*|tensorflow|v[12])\.keras\b"
                               r"|\bfrom\s+tensorflow(?:\.compat\.v[12])?\s+import\s[^\n]*\bkeras\b")


def keras_name(qualified: Optional[str]) -> Optional[Tuple[str, str]]:
    """(tf_keras API, name relative to ``tf.keras``) for a use of TensorFlow's Keras.

    Args:
      qualified: a resolved name (``tensorflow.keras.layers.Dense``).

    Returns:
      ``(V2, "layers.Dense")``; ``(V2, "")`` for the module itself; None otherwise.
    """
    for root, api in KERAS_ROOTS.items():
        if is_under(qualified, root):
            return api, qualified[len(root) + 1:]  # type: ignore[index]
    return None


def is_estimator(qualified: Optional[str]) -> bool:
    """True for a name of the Estimator API.

    Args:
      qualified: a resolved name.

    Returns:
      True under ``tf.estimator``, ``tf.compat.v1.estimator``, ``tensorflow_estimator``.
    """
    return any(is_under(qualified, root) for root in ESTIMATOR_ROOTS)


def tf1_optimizer(qualified: Optional[str]) -> bool:
    """True for a TF1 optimizer class.

    Args:
      qualified: a resolved name.

    Returns:
      True for ``tf.compat.v1.train.XOptimizer`` / ``tf.train.XOptimizer`` when only the
      TF1 API has it (``AdamOptimizer``, ``MomentumOptimizer``, ...).
    """
    for root in (COMPAT_V1, TF):
        if qualified is not None and qualified.startswith(f"{root}.train."):
            relative = qualified[len(root) + 1:]
            return (relative.count(".") == 1 and relative.endswith("Optimizer")
                    and tf_api().kind(relative) == TF1)
    return False


def _scoped_statements(body: List[ast.stmt], local: FrozenSet[str], walrus: bool
                       ) -> Iterator[Tuple[ast.stmt, FrozenSet[str]]]:
    """Every statement, with the names the functions and classes around it bind (a
    chain starting with one is not what the module's bindings say; an import inside a
    function is among them: a use there is missed, never misread)."""
    for statement in body:
        yield statement, local
        inner = local | _locally_bound(statement, walrus) \
            if isinstance(statement, _DEFINITIONS) else local
        for block in statement_blocks(statement):
            yield from _scoped_statements(block, inner, walrus)


def _calls(statement: ast.stmt) -> Iterator[ast.Call]:
    """The calls in a statement's own expressions (not in the statements nested in it)."""
    for name, value in ast.iter_fields(statement):
        if name not in _BLOCK_FIELDS:
            for node in value if isinstance(value, list) else [value]:
                if isinstance(node, ast.AST):
                    yield from (call for call in ast.walk(node) if isinstance(call, ast.Call))


def _imported_names(statement: ast.stmt) -> List[str]:
    if isinstance(statement, ast.Import):
        return [alias.name for alias in statement.names]
    if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
        return [f"{statement.module}.{alias.name}" for alias in statement.names]
    return []


class KerasSigns:
    """What one file's code says about its Keras, read off its stdlib ``ast``.

    Attributes:
      keras_2: the construct that only Keras 2 runs, and why (None: none).
      keras: the first use of TensorFlow's Keras (None: none).
      estimator: whether the file uses the Estimator.
    """

    def __init__(self, tree: ast.Module, bindings: Bindings) -> None:
        self.keras_2: Optional[str] = None
        self.keras: Optional[str] = None
        self.estimator = False
        self._bindings = bindings
        # The names a TensorFlow chain can start with: nothing else is resolved.
        heads = {local for local, target in bindings.names.items()
                 if is_under(target, TF) or is_under(target, "tensorflow_estimator")}
        optimizer_names: Set[str] = set()
        compiled: List[ast.expr] = []
        for statement, local in _scoped_statements(tree.body, frozenset(), uses_walrus(tree)):
            for name in _imported_names(statement):
                self._see(name, name)
            compiles = False
            for parts in statement_chains(statement):  # cached: the filters read them too
                if parts[0] in heads and parts[0] not in local:
                    self._see(bindings.resolve_parts(parts), ".".join(parts))
                compiles |= parts[-1] == "compile"
            if compiles:
                for call in _calls(statement):
                    compiled += self._optimizer_argument(call)
            if isinstance(statement, ast.Assign) and self._is_tf1_optimizer(statement.value,
                                                                            local=local):
                optimizer_names.update(target.id for target in statement.targets
                                       if isinstance(target, ast.Name))
        for argument in compiled:
            if self._is_tf1_optimizer(argument, optimizer_names):
                self._note(f"it compiles a Keras model with a TF1 optimizer "
                           f"({ast.unparse(argument)}), which Keras 3 rejects")

    def _see(self, qualified: Optional[str], spelled: str) -> None:
        if is_estimator(qualified):
            self.estimator = True
            return
        found = keras_name(qualified)
        if found is None:
            return
        if self.keras is None:
            self.keras = spelled
        only = keras_2_only(found[1], found[0])
        if only is not None:
            self._note(f"it uses tf.keras.{only}, which only Keras 2 has")

    def _note(self, reason: str) -> None:
        if self.keras_2 is None:
            self.keras_2 = reason

    @staticmethod
    def _optimizer_argument(call: ast.Call) -> List[ast.expr]:
        """The optimizer a ``x.compile(...)`` call passes, if it is one."""
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "compile"):
            return []
        keyword = [kw.value for kw in call.keywords if kw.arg == "optimizer"]
        positional = [arg for arg in call.args if not isinstance(arg, ast.Starred)][:1]
        return (keyword or positional)[:1]

    def _is_tf1_optimizer(self, argument: ast.expr, names: AbstractSet[str] = frozenset(),
                          local: AbstractSet[str] = frozenset()) -> bool:
        """A TF1 optimizer made there (not through a local name), or a name bound to one."""
        if isinstance(argument, ast.Call):
            parts = dotted_parts(argument.func)
            return (parts is not None and parts[0] not in local
                    and tf1_optimizer(self._bindings.resolve_parts(parts)))
        return isinstance(argument, ast.Name) and argument.id in names

    def reason(self, tf1_code: bool) -> Optional[str]:
        """Why the file needs Keras 2, or None.

        Args:
          tf1_code: whether the file is TF1 code.

        Returns:
          The reason, for the edit's message.
        """
        if self.keras_2 is not None or self.keras is None:
            return self.keras_2
        if self.estimator:
            return "it uses Keras in an Estimator program, whose graph-mode model_fn Keras 3 " \
                   "cannot build"
        if tf1_code:
            return "it uses Keras in TF1 (graph-mode) code, which Keras 3 does not run"
        return None


def _signs_of(tree: ast.Module) -> Tuple[KerasSigns, Bindings]:
    bindings = collect_bindings(tree)
    return KerasSigns(tree, bindings), bindings


def tree_needs_keras_2(texts: Iterable[str]) -> bool:
    """Whether some file of a tree needs Keras 2 (then the tree runs on it, every module).

    Args:
      texts: the text of every Python file of the tree.

    Returns:
      True when one of them needs Keras 2.
    """
    return any(LegacyKerasCommand.applies_to(text) and _needs_keras_2(text) for text in texts)


@per_text
def _needs_keras_2(text: str) -> bool:
    """Whether one file needs Keras 2 (asked once per text: a file is in several scopes)."""
    try:
        tree = parse_source(text)
    except (SyntaxError, ValueError, RecursionError):
        return False  # the rewrite reports such a file and leaves it
    signs, bindings = _signs_of(tree)
    if signs.keras is None and signs.keras_2 is None:
        return False
    return signs.reason(tf1_evidence(tree, bindings)[0]) is not None


def _imports_tensorflow(statement: cst.CSTNode) -> bool:
    """True when a module-level statement (or a block in it) imports TensorFlow."""
    if isinstance(statement, cst.SimpleStatementLine):
        for small in statement.body:
            if isinstance(small, cst.Import):
                names = [code_of(alias.name) for alias in small.names]
            elif isinstance(small, cst.ImportFrom) and not small.relative \
                    and small.module is not None:
                names = [code_of(small.module)]
            else:
                continue
            if any(is_under(name, TF) or is_under(name, "tensorflow_estimator")
                   for name in names):
                return True
        return False
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) or \
            not isinstance(statement, cst.BaseCompoundStatement):
        return False
    return any(_imports_tensorflow(inner) for inner in statement.body.body) or any(
        _imports_tensorflow(inner) for clause in [*getattr(statement, "handlers", ()),
                                                  getattr(statement, "orelse", None),
                                                  getattr(statement, "finalbody", None)]
        if clause is not None for inner in getattr(clause.body, "body", ()))


def _is_mixed_precision_experimental(qualified: Optional[str]) -> bool:
    found = keras_name(qualified)
    return found is not None and is_under(found[1], _MIXED_PRECISION_EXPERIMENTAL)


class LegacyKerasCommand(SlimportCodemod):
    """Routes tf.keras to Keras 2 (tf_keras) for files written for it."""

    NAME: ClassVar[str] = "legacy_keras"
    DESCRIPTION: ClassVar[str] = (
        "files that need Keras 2 (Keras in TF1 or Estimator code, model_to_estimator, a TF1 "
        "optimizer in compile, names Keras 3 lacks) import slim_ext.legacy_keras first"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("keras", "Optimizer")
    # One process runs the modules that import each other: one Keras for all of them.
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = (
        TreeFact("tree_keras_2", lambda tree: tree_needs_keras_2(tree.texts), alone=False,
                 reach=PROCESS),)

    def __init__(self, context: Any, tree_keras_2: bool = False, **kwargs: Any) -> None:
        """
        Args:
          context: libcst's codemod context.
          tree_keras_2: ``tree_needs_keras_2`` of the whole tree being ported (False when
            the file is ported on its own).
          **kwargs: for the base class.
        """
        self.tree_keras_2 = tree_keras_2  # start_file reads it, from the base's __init__ on
        super().__init__(context, **kwargs)

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return ("keras" in source and _TENSORFLOW_KERAS.search(source) is not None) or (
            "Optimizer" in source and "compile" in source)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # The decision is read off the whole file's ast; the import goes at module level.
        # Only the uses to report are needed here.
        return chain_filter(
            lambda parts: _is_mixed_precision_experimental(bindings.resolve_parts(parts)))

    def start_file(self, tree: cst.Module) -> bool:
        if imports_module(tree, LEGACY_KERAS):
            return False
        # The user's file as it was (what earlier codemods rewrote, tf.contrib say, is no
        # Keras); the file itself under python -m libcst.tool.
        original = self.original_ast or self.file_ast(tree)
        signs, bindings = _signs_of(original)
        self._reason = signs.reason(signs.keras is not None
                                    and tf1_evidence(original, bindings)[0])
        if self._reason is None and self.tree_keras_2 and signs.keras is not None:
            self._reason = (f"it uses Keras ({signs.keras}) in a tree whose other modules "
                            "need Keras 2, and they share one process")
        return True

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if dotted_parts(node) is None:
            return True
        if _is_mixed_precision_experimental(self.resolve_name(node)):
            self.needs_attention(
                node, f"{code_of(node)}: tf.keras.mixed_precision.experimental is in neither "
                "Keras 3 nor tf_keras (Keras 2.4+ renamed it)",
                "use tf.keras.mixed_precision.set_global_policy / global_policy / Policy / "
                "LossScaleOptimizer (TF 2.4+ names; Policy has no loss_scale)")
        return False

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree.visit(self)  # reads only: the reports
        if self._reason is None:
            return tree
        # A reason comes from a use through a module-level TensorFlow binding: its import.
        index = next(index for index, statement in enumerate(tree.body)
                     if _imports_tensorflow(statement))
        first = tree.body[index]
        self.record_edit(first, f"import {LEGACY_KERAS} before TensorFlow: {self._reason} "
                                "(tf.keras is tf_keras, Keras 2, in this process)")
        line = cst.SimpleStatementLine(body=[_IMPORT], leading_lines=first.leading_lines)
        body = [*tree.body[:index], line, first.with_changes(leading_lines=()),
                *tree.body[index + 1:]]
        return tree.with_changes(body=body)
