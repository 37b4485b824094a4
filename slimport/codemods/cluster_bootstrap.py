"""Let slim's between-graph training scripts join a cluster described by the platform.

Slim's ``train_image_classifier.py`` expects someone to start a ``tf.train.Server``
and pass ``--master``, ``--task``, ``--worker_replicas`` and ``--num_ps_tasks``. A
platform describes the cluster in ``TF_CONFIG`` (or ``--ps_hosts/--worker_hosts/
--job_name/--task_index``) instead. ``cluster.bootstrap(FLAGS)`` at the top of
``main`` does that translation at run time and does nothing without a cluster, so
this codemod only has to find the scripts that carry slim's replica flags.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Optional, Tuple

import libcst as cst

from slimport.codemods import _entry_script
from slimport.codemods.base import StatementFilter, chain_filter
from slimport.analysis.names import Bindings, collect_bindings
from slimport.codemods.own_server import CLUSTER, SERVER_STARTS
from slim_facts.cluster_flags import MASTER_FLAG, PS_TASKS_FLAGS, TASK_FLAGS


_BOOTSTRAP = "slim_ext.cluster.bootstrap"
# A script that starts one of these runs its own cluster (own_server ports TensorFlow's
# to slim_ext's).
_OWN_SERVERS = SERVER_STARTS | {CLUSTER + ".Server"}


class _ServerStarts(cst.CSTVisitor):
    def __init__(self, script: _entry_script.EntryScript) -> None:
        super().__init__()
        self.script = script
        self.found: Optional[cst.Call] = None

    def visit_Call(self, node: cst.Call) -> None:
        if self.found is None and self.script.bindings.resolve(node.func) in _OWN_SERVERS:
            self.found = node


def _own_server_start(tree: cst.Module, script: _entry_script.EntryScript
                      ) -> Optional[cst.Call]:
    """The call with which the script starts a server of its own, if it does."""
    finder = _ServerStarts(script)
    tree.visit(finder)
    return finder.found


def missing_replica_flags(defined: "set[str]") -> list:
    """Which of master / a task flag / a ps-tasks flag ``defined`` lacks.

    Args:
      defined: the flags an entry script defines.

    Returns:
      What it lacks, in words (empty: it has them all).
    """
    missing = []
    if MASTER_FLAG not in defined:
        missing.append(MASTER_FLAG)
    if not defined.intersection(TASK_FLAGS):
        missing.append("|".join(TASK_FLAGS))
    if not defined.intersection(PS_TASKS_FLAGS):
        missing.append("|".join(PS_TASKS_FLAGS))
    return missing


class ClusterBootstrapCommand(_entry_script.MainTopCodemod):
    """Adds ``cluster.bootstrap(FLAGS)`` at the top of ``main`` in between-graph trainers."""

    NAME: ClassVar[str] = "cluster_bootstrap"
    DESCRIPTION: ClassVar[str] = (
        "Start this task's server from TF_CONFIG or --ps_hosts/--worker_hosts and set "
        "master/task/worker_replicas/num_ps_tasks at the top of main."
    )
    # The bootstrap reads the flags: the platform's must be mapped onto them first
    # (uai_flags' uflag.apply goes above it at the top of main).
    RUNS_AFTER: ClassVar[Tuple[str, ...]] = ("uai_flags",)
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("ps_tasks",)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Besides main: wherever the script starts a server of its own.
        in_main = super().statement_filter(tree, bindings)
        starts = chain_filter(lambda parts: bindings.resolve_parts(parts) in _OWN_SERVERS)
        return lambda statement: in_main(statement) or starts(statement)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        script = _entry_script.analyse(tree, collect_bindings(self.file_ast(tree)))
        if script is None:
            return tree
        defined = set(script.flags)
        missing = missing_replica_flags(defined)
        if missing:
            # Only a ps-tasks flag says "between-graph replication"; ``task`` or
            # ``master`` alone (an eval script) are no sign of it.
            ps_flags = [name for name in PS_TASKS_FLAGS if name in defined]
            if ps_flags:
                self.needs_attention(
                    script.flags[ps_flags[0]],
                    f"defines a ps-tasks flag but not {', '.join(missing)}; "
                    "cluster.bootstrap was not added",
                    "define the missing flags and pass them to model_deploy.DeploymentConfig "
                    "and slim.learning.train, then rerun",
                )
            return tree
        not_done = "cluster.bootstrap was not added"
        starter = _own_server_start(tree, script)
        if starter is not None:
            self.needs_attention(
                starter, "the script starts its own server; a second one from "
                "cluster.bootstrap could not bind the same address, so it was not added",
                "keep the script's own cluster set-up, or replace it with "
                "cluster.bootstrap(FLAGS) at the top of main")
            return tree
        main = self.main_to_edit(script, _BOOTSTRAP, "cluster.bootstrap(FLAGS)", not_done)
        if main is None:
            return tree
        cluster = _entry_script.local_name_for(script, "slim_ext", "cluster", "slim_ext_cluster")
        statement = cst.SimpleStatementLine(
            body=[
                cst.Expr(
                    cst.Call(
                        func=cst.Attribute(value=cst.Name(cluster), attr=cst.Name("bootstrap")),
                        args=[cst.Arg(cst.Name(script.flags_object))],
                    )
                )
            ]
        )

        def is_uflag_apply(line: cst.BaseStatement) -> bool:
            return isinstance(line, cst.SimpleStatementLine) and any(
                isinstance(small, cst.Expr)
                and isinstance(small.value, cst.Call)
                and script.bindings.resolve(small.value.func) == _entry_script.UFLAG_APPLY
                for small in line.body
            )

        new_tree = self.insert_in_main(
            tree, main, statement, not_done, "move the body onto its own lines, then rerun",
            skip=is_uflag_apply,
        )
        if new_tree is None:
            return tree
        asname = None if cluster == "cluster" else cluster
        self.add_needed_import("slim_ext", "cluster", asname=asname)
        self.record_edit(
            main,
            f"{main.name.value} calls {cluster}.bootstrap({script.flags_object}): TF_CONFIG or "
            "--ps_hosts/--worker_hosts/--job_name/--task_index now start this task's server",
        )
        return new_tree
