"""``tf.estimator.train_and_evaluate`` -> ``slim_ext.estimator.train_and_evaluate``: its ps ends.

On a cluster Estimator's ``train_and_evaluate`` joins a ps task's server forever (TF1
and TF2 alike), so a platform must kill the ps and the job never reports success.
``slim_ext.estimator.train_and_evaluate`` is tensorflow-estimator's own function (the
roles from TF_CONFIG, the distribute coordinator, the servers) except that a ps task's
join returns once its workers have come and gone, and the process exits 0. Off a
cluster, and on every task but a ps, it is the same call (it hands its arguments
on unchanged), so every use is rewritten, whether the file runs on a cluster or not:
one rule, the same behaviour alone, a ps that ends on a cluster.

Every spelling: ``tf.estimator.``, ``tf.compat.v1.estimator.``, ``tf.compat.v2.estimator.``
and tensorflow_estimator's public and deep paths; a ``from ... import
train_and_evaluate`` imports it from ``slim_ext.estimator`` instead.
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Tuple

import libcst as cst

from slimport.codemods.base import StatementFilter, chain_filter
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.analysis.names import Bindings

FUNCTION = "train_and_evaluate"
HOME = f"slim_ext.estimator.{FUNCTION}"
# Every module tensorflow-estimator 2.15 (and TF's estimator API) exports it from.
ESTIMATOR_MODULES = (
    "tensorflow.estimator", "tensorflow.compat.v1.estimator", "tensorflow.compat.v2.estimator",
    "tensorflow_estimator.estimator", "tensorflow_estimator._api.v1.estimator",
    "tensorflow_estimator._api.v2.estimator",
    "tensorflow_estimator.python.estimator.api._v1.estimator",
    "tensorflow_estimator.python.estimator.api._v2.estimator",
    "tensorflow_estimator.python.estimator.training",
    "tensorflow_estimator.python.estimator.estimator_lib",
)
MOVED = frozenset(f"{module}.{FUNCTION}" for module in ESTIMATOR_MODULES)


class TrainAndEvaluateCommand(ModuleMoveCodemod):
    """Points Estimator's train_and_evaluate at slim_ext's, whose ps task ends."""

    NAME: ClassVar[str] = "train_and_evaluate"
    DESCRIPTION: ClassVar[str] = (
        "tf.estimator.train_and_evaluate -> slim_ext.estimator.train_and_evaluate (the "
        "same call; on a cluster its ps task ends with its workers)"
    )
    # estimator_ps_strategy looks for the Estimator use this rewrites.
    RUNS_AFTER: ClassVar[Tuple[str, ...]] = ("estimator_ps_strategy",)
    TRIGGERS: ClassVar[Tuple[str, ...]] = (FUNCTION,)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: bindings.resolve_parts(parts) in MOVED)

    def home_of(self, qualified: str) -> Optional[str]:
        """Any exported ``train_and_evaluate`` -> slim_ext's; None for everything else."""
        return HOME if qualified in MOVED else None

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        """``tf.estimator.train_and_evaluate`` -> ``slim_ext.estimator.train_and_evaluate``."""
        self.replace_chain(node, home)
        self.add_needed_import(home.rpartition(".")[0])
        self.rewritten_roots.add(parts[0])
        self.record_edit(node, f"{'.'.join(parts)} -> {home} (its ps task ends)")
        return False
