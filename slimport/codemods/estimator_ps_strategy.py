"""TF 2.0's ``ParameterServerStrategy`` in an Estimator program -> ``tf.compat.v1``'s.

In TF 2.0-2.3 ``tf.distribute.experimental.ParameterServerStrategy()`` was the strategy
``RunConfig(train_distribute=...)`` takes: it reads the cluster from TF_CONFIG. TF 2.4
gave the name to the Keras / ClusterCoordinator strategy, which needs a
``cluster_resolver`` argument and which Estimator never ran; TF 2.0's class lives on as
``tf.compat.v1.distribute.experimental.ParameterServerStrategy``. So in a file that uses
the Estimator (``tf.estimator``, ``tensorflow_estimator``, ``model_to_estimator``)

    tf.distribute.experimental.ParameterServerStrategy()
    -> tf.compat.v1.distribute.experimental.ParameterServerStrategy()

(a TF1 file that compat_v1 switches to ``tensorflow.compat.v1`` then reads
``tf.distribute.experimental.ParameterServerStrategy()`` again, the same class). Elsewhere
the name is left alone; a call without arguments, which TF 2.4+ refuses, is reported.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, List, Optional, Tuple

import libcst as cst

from slimport.codemods.base import SlimportCodemod, StatementFilter, chain_filter, code_of
from slimport.analysis.names import Bindings, dotted_expression, dotted_parts, is_under
from slimport.analysis.tf_code import tf1_before_porting, tf1_evidence
from slimport.codemods.legacy_keras import is_estimator, keras_name
from slimport.tables.tf_api import TF

STRATEGY = "distribute.experimental.ParameterServerStrategy"
TF2_STRATEGY = f"{TF}.{STRATEGY}"
_FIX = (f"for Estimator (RunConfig(train_distribute=...)) use tf.compat.v1.{STRATEGY}(), "
        "TF 2.0's; for Keras pass a cluster resolver "
        "(tf.distribute.cluster_resolver.TFConfigClusterResolver()) and train through "
        "tf.distribute.experimental.coordinator.ClusterCoordinator")


def _uses_estimator(qualified: Optional[str]) -> bool:
    keras = keras_name(qualified)
    return (is_estimator(qualified) or is_under(qualified, "slim_ext.estimator")
            or (keras is not None and keras[1].startswith("estimator")))


class EstimatorPsStrategyCommand(SlimportCodemod):
    """Gives Estimator programs TF 2.0's ParameterServerStrategy (tf.compat.v1's)."""

    NAME: ClassVar[str] = "estimator_ps_strategy"
    DESCRIPTION: ClassVar[str] = (
        "Estimator programs: tf.distribute.experimental.ParameterServerStrategy -> "
        "tf.compat.v1's (TF 2.0's class; TF 2.4+ gave the name to the Keras one)"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("ParameterServerStrategy",)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        def needed(parts: List[str]) -> bool:
            qualified = bindings.resolve_parts(parts)
            return qualified == TF2_STRATEGY or _uses_estimator(qualified)
        witnesses = tf1_evidence(tree, bindings)[1]
        uses = chain_filter(needed)
        return lambda statement: id(statement) in witnesses or uses(statement)

    def start_file(self, tree: cst.Module) -> bool:
        self._estimator = False
        # Each use, and whether it is spelled through the tensorflow package itself.
        self._uses: List[Tuple[cst.Attribute, List[str], bool]] = []
        self._calls: List[cst.Call] = []
        self._replacements: Dict[cst.CSTNode, cst.CSTNode] = {}
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree.visit(self)  # reads first: whether the file is an Estimator program
        if not self._estimator:
            if self._calls and not self._is_tf1_code(tree):
                for call in self._calls:
                    self.needs_attention(
                        call, f"{code_of(call.func)}() without a cluster resolver was TF 2.0's "
                        "strategy; TF 2.4+ requires one", _FIX)
            return tree
        for node, parts, through_package in self._uses:
            if not through_package:
                self.needs_attention(node, f"{'.'.join(parts)} in an Estimator program is TF "
                                     "2.4+'s strategy, which Estimator does not run; not spelled "
                                     "through the tensorflow package, it is left unchanged", _FIX)
                continue
            new = f"{parts[0]}.compat.v1.{STRATEGY}"
            self._replacements[node] = dotted_expression(new).with_changes(
                lpar=node.lpar, rpar=node.rpar)
            self.record_edit(node, f"{'.'.join(parts)} -> {new} (TF 2.0's strategy, which "
                                   "Estimator runs)")
        return tree.visit(_Replace(self._replacements)) if self._replacements else tree

    def _is_tf1_code(self, tree: cst.Module) -> bool:
        parsed = self.file_ast(tree)
        return tf1_before_porting(self.original_ast) or \
            tf1_evidence(parsed, self.module_names)[0]

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        parts = dotted_parts(node)
        if parts is None:
            return True
        qualified = self.resolve_name(node)
        if qualified == TF2_STRATEGY:
            self._uses.append((node, parts, self.target_of(parts[0]) == TF and len(parts) == 4))
        elif _uses_estimator(qualified):
            self._estimator = True
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self._estimator |= _uses_estimator(self.resolve_name(node))

    def visit_Call(self, node: cst.Call) -> None:
        if not node.args and self.resolve_name(node.func) == TF2_STRATEGY:
            self._calls.append(node)


class _Replace(cst.CSTTransformer):
    """Puts each replacement in place of its original chain."""

    def __init__(self, replacements: Dict[cst.CSTNode, cst.CSTNode]) -> None:
        super().__init__()
        self.replacements = replacements

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        return self.replacements.get(original_node, updated_node)
