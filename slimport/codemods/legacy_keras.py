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
rather than ``tf.keras`` -> ``tf_keras`` in the code: measured on our three Estimator
examples, the switch trains 4 of 4 on TF 2.21 and 2.15, the rename 3 of 4 (TF 2.15's
``model_to_estimator`` clones only TensorFlow's own Keras 2 models). TF2 Keras code that
runs on Keras 3 gets nothing. ``tf.keras.mixed_precision.experimental``, which neither
Keras 2.15+ nor Keras 3 has, is reported with its TF 2.4+ names.
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Set, Tuple

import libcst as cst

from slimport.codemods._base import SlimportCodemod, StatementFilter, chain_filter, code_of
from slimport.codemods._names import Bindings, collect_bindings, dotted_parts, is_under
from slimport.codemods._statements import small_statement
from slimport.codemods._tf_code import tf1_before_porting, tf1_evidence
from slimport.codemods.keras_api import V1, V2, keras_2_only
from slimport.codemods.tf_api import COMPAT_V1, TF, TF1, tf_api

LEGACY_KERAS = "slim_ext.legacy_keras"
# Where TensorFlow's Keras is reached, and which of tf_keras' APIs each root is.
KERAS_ROOTS = {f"{TF}.keras": V2, f"{TF}.compat.v2.keras": V2, f"{COMPAT_V1}.keras": V1}
ESTIMATOR_ROOTS = (f"{TF}.estimator", f"{COMPAT_V1}.estimator", f"{TF}.compat.v2.estimator",
                   "tensorflow_estimator")
_MIXED_PRECISION_EXPERIMENTAL = "mixed_precision.experimental"
_IMPORT = small_statement(f"import {LEGACY_KERAS}")


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


def _imports_legacy_keras(tree: cst.Module) -> bool:
    return any(isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Import) and any(
            code_of(alias.name) == LEGACY_KERAS for alias in small.names)
        for small in statement.body) for statement in tree.body)


class LegacyKerasCommand(SlimportCodemod):
    """Routes tf.keras to Keras 2 (tf_keras) for files written for it."""

    NAME: ClassVar[str] = "legacy_keras"
    DESCRIPTION: ClassVar[str] = (
        "files that need Keras 2 (Keras in TF1 or Estimator code, model_to_estimator, a TF1 "
        "optimizer in compile, names Keras 3 lacks) import slim_ext.legacy_keras first"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("keras", "Optimizer")

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "keras" in source or ("Optimizer" in source and "compile" in source)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # A decision, not edits, is made from the bodies: keep what shows a sign, and
        # a TF1 witness (or its absence would read as TF2 code).
        witnesses = tf1_evidence(tree, bindings)[1]

        def shows_a_sign(parts: List[str]) -> bool:
            qualified = bindings.resolve_parts(parts)
            return (parts[-1] == "compile" or keras_name(qualified) is not None
                    or is_estimator(qualified) or tf1_optimizer(qualified))
        uses = chain_filter(shows_a_sign)
        return lambda statement: id(statement) in witnesses or uses(statement)

    def start_file(self, tree: cst.Module) -> bool:
        if _imports_legacy_keras(tree):
            return False
        self._sign: Optional[Tuple[cst.CSTNode, str]] = None
        self._keras_use: Optional[cst.CSTNode] = None
        self._estimator = False
        self._optimizer_names: Set[str] = set()
        self._compiled: List[Tuple[cst.CSTNode, cst.BaseExpression]] = []
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree.visit(self)  # reads only
        for call, argument in self._compiled:
            if self._is_tf1_optimizer(argument):
                self._note(call, f"it compiles a Keras model with a TF1 optimizer "
                                 f"({code_of(argument)}), which Keras 3 rejects")
        if self._sign is None and self._keras_use is not None:
            if self._estimator:
                self._note(self._keras_use, "it uses Keras in an Estimator program, whose "
                                            "graph-mode model_fn Keras 3 cannot build")
            elif self._is_tf1_code(tree):
                self._note(self._keras_use, "it uses Keras in TF1 (graph-mode) code, "
                                            "which Keras 3 does not run")
        if self._sign is None:
            return tree
        node, reason = self._sign
        index = next((index for index, statement in enumerate(tree.body)
                      if _imports_tensorflow(statement)), None)
        if index is None:
            self.needs_attention(node, f"this file needs Keras 2: {reason}; it has no "
                                 "module-level TensorFlow import to route tf.keras before",
                                 f"add `import {LEGACY_KERAS}` before TensorFlow is imported")
            return tree
        self.record_edit(node, f"import {LEGACY_KERAS} before TensorFlow: {reason} (tf.keras "
                               "is tf_keras, Keras 2, in this process)")
        first = tree.body[index]
        line = cst.SimpleStatementLine(body=[_IMPORT], leading_lines=first.leading_lines)
        body = [*tree.body[:index], line, first.with_changes(leading_lines=()),
                *tree.body[index + 1:]]
        return tree.with_changes(body=body)

    def _note(self, node: cst.CSTNode, reason: str) -> None:
        if self._sign is None:
            self._sign = (node, reason)

    def _is_tf1_code(self, tree: cst.Module) -> bool:
        parsed = self.file_ast(tree)
        return tf1_before_porting(self.context.scratch) or \
            tf1_evidence(parsed, collect_bindings(parsed))[0]

    def _is_tf1_optimizer(self, argument: cst.BaseExpression) -> bool:
        if isinstance(argument, cst.Call):
            return tf1_optimizer(self.resolve_name(argument.func))
        return isinstance(argument, cst.Name) and argument.value in self._optimizer_names

    # -- the visit gathers the signs -------------------------------------------------

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            self._see(alias, code_of(alias.name))
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return False
        module = code_of(node.module)
        for alias in node.names:
            self._see(alias, f"{module}.{alias.evaluated_name}")
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if dotted_parts(node) is None:
            return True  # ``f(x).y``: look inside
        self._see(node, self.resolve_name(node))
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self._see(node, self.resolve_name(node))

    def visit_Assign(self, node: cst.Assign) -> None:
        if isinstance(node.value, cst.Call) and tf1_optimizer(self.resolve_name(node.value.func)):
            self._optimizer_names.update(
                target.target.value for target in node.targets
                if isinstance(target.target, cst.Name))

    def visit_Call(self, node: cst.Call) -> None:
        if not (isinstance(node.func, cst.Attribute) and node.func.attr.value == "compile"):
            return
        positional = [arg for arg in node.args if arg.keyword is None and not arg.star]
        keyword = [arg for arg in node.args
                   if arg.keyword is not None and arg.keyword.value == "optimizer"]
        argument = (keyword or positional[:1] or [None])[0]
        if argument is not None:
            self._compiled.append((node, argument.value))

    def _see(self, node: cst.CSTNode, qualified: Optional[str]) -> None:
        if is_estimator(qualified):
            self._estimator = True
            return
        found = keras_name(qualified)
        if found is None:
            return
        api, relative = found
        if self._keras_use is None:
            self._keras_use = node
        if is_under(relative, _MIXED_PRECISION_EXPERIMENTAL):
            self.needs_attention(
                node, f"{code_of(node)}: tf.keras.mixed_precision.experimental is in neither "
                "Keras 3 nor tf_keras (Keras 2.4+ renamed it)",
                "use tf.keras.mixed_precision.set_global_policy / global_policy / Policy / "
                "LossScaleOptimizer (TF 2.4+ names; Policy has no loss_scale)")
            return
        only = keras_2_only(relative, api)
        if only is not None:
            self._note(node, f"it uses tf.keras.{only}, which only Keras 2 has")
