"""A TF1 script's own ``tf.train.Server`` becomes ``slim_ext.cluster.Server``.

Scripts that build their cluster themselves (a platform's train script, read from its
SDK's TF_CONFIG parser) start one server per task: a ps task calls
``tf.train.Server(...).join()``, a worker passes ``server.target`` to slim as its
master. On TensorFlow's server a ps's ``join()`` never returns, so the ps outlives the
job, and a worker whose chief has finished may wait for it forever.
``slim_ext.cluster.Server`` is TensorFlow's server with the ending
``cluster.bootstrap`` gives its own tasks: a ps's ``join()`` serves until every worker
of its cluster has come and gone, then ends the process with status 0 (nothing after
``join()`` ran in the original either); a worker's ``slim.learning.train`` sessions
see only the ps tasks and itself. A server of a job layout slim_ext does not know
stays TensorFlow's. So ``tf.train.Server(`` / ``tf.distribute.Server(`` /
``tf.compat.v1.train.Server(`` calls become ``cluster.Server(`` (``from slim_ext import
cluster``, under another name when ``cluster`` is taken), ``.join()`` stays.

Left alone: TF2 code (``tf.distribute.Server`` is TF2 API too; a script on
``tensorflow.compat.v1`` is TF1's API, and ported), scripts that call
``cluster.bootstrap`` (slim_ext starts their servers), ``create_local_server``,
``ClusterSpec``, ``ServerDef`` and a ``Server`` that is not called
(``isinstance(s, tf.train.Server)``). An ``os.exit(...)`` (``os`` has no ``exit``) is
reported: after a ``join()`` it was never reached, and still is not.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, Optional, Sequence, Set, Tuple

import libcst as cst

from slimport.codemods.base import SlimportCodemod, StatementFilter, chain_filter, code_of
from slimport.analysis.names import Bindings, collect_bindings, dotted_parts, variable_names
from slimport.analysis.tf_code import tf1_api_code, tf1_before_porting

# Calls that start a TensorFlow server.
SERVER_STARTS = frozenset({
    "tensorflow.train.Server", "tensorflow.compat.v1.train.Server", "tensorflow.distribute.Server",
    "tensorflow.compat.v1.distribute.Server",
})
CLUSTER = "slim_ext.cluster"
_BOOTSTRAP = CLUSTER + ".bootstrap"
_OS_EXIT = "os.exit"


def _joins(statement: cst.BaseStatement) -> bool:
    """Whether ``statement`` is ``<something>.join()`` on its own."""
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.Call)
            and isinstance(statement.body[0].value.func, cst.Attribute)
            and statement.body[0].value.func.attr.value == "join")


class OwnServerCommand(SlimportCodemod):
    """Starts a TF1 script's own servers as slim_ext.cluster.Server."""

    NAME: ClassVar[str] = "own_server"
    DESCRIPTION: ClassVar[str] = (
        "A TF1 script's own tf.train.Server -> slim_ext.cluster.Server: a ps's join() ends "
        "once its workers are done"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("Server",)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # The servers, what decides (a bootstrap call, TF1 evidence), os.exit calls and
        # the statements before them (a join?).
        witnesses = tf1_api_code(tree, bindings)[1]
        wanted = SERVER_STARTS | {_BOOTSTRAP, _OS_EXIT}
        needed = chain_filter(lambda parts: bindings.resolve_parts(parts) in wanted)
        return lambda statement: id(statement) in witnesses or needed(statement)

    def start_file(self, tree: cst.Module) -> bool:
        parsed = self.file_ast(tree)
        self.bindings = collect_bindings(parsed)
        self._tree = tree
        self._calls: Dict[cst.Call, cst.Call] = {}
        self._local: Optional[str] = None
        self._bare_names: Set[str] = set()
        if not (tf1_api_code(parsed, self.bindings)[0]
                or tf1_before_porting(self.original_ast)):
            return False  # TF2 code: tf.distribute.Server is its own API
        return not any(self.bindings.resolve_parts(parts) == _BOOTSTRAP
                       for node in ast.walk(parsed) if isinstance(node, ast.Call)
                       for parts in [dotted_parts(node.func)] if parts)

    def _cluster_name(self) -> str:
        """The name ``slim_ext.cluster`` goes by here, imported once if need be."""
        if self._local is None:
            existing = self.bindings.local_names_for(CLUSTER)
            if existing:
                self._local = existing[0]
            else:
                taken = variable_names(self._tree, include_bindings=True)
                self._local = "slim_ext_cluster" if "cluster" in taken else "cluster"
                self.add_needed_import("slim_ext", "cluster",
                                       None if self._local == "cluster" else self._local)
        return self._local

    def visit_Call(self, node: cst.Call) -> bool:
        qualified = self.resolve_name(node.func)
        if qualified in SERVER_STARTS:
            func = cst.Attribute(value=cst.Name(self._cluster_name()), attr=cst.Name("Server"))
            self._calls[node] = node.with_changes(func=func)
            self.record_edit(node, f"{code_of(node.func)}( -> {code_of(func)}(: a ps task's "
                             "join() ends its process once every worker has come and gone")
            if isinstance(node.func, cst.Name):
                self._bare_names.add(node.func.value)
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        new = self._calls.pop(original_node, None)
        return updated_node if new is None else updated_node.with_changes(func=new.func)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._check_exits(node.body)

    def visit_Module(self, node: cst.Module) -> None:
        self._check_exits(node.body)

    def _check_exits(self, body: Sequence[cst.BaseStatement]) -> None:
        """Report each ``os.exit(...)`` statement of ``body``."""
        previous: Optional[cst.BaseStatement] = None
        for statement in body:
            if isinstance(statement, cst.SimpleStatementLine) and any(
                    isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                    and self.resolve_name(small.value.func) == _OS_EXIT
                    for small in statement.body):
                after_join = previous is not None and _joins(previous)
                self.needs_attention(
                    statement, "os.exit does not exist: reached, it raises AttributeError"
                    + ("; after join(), which never returns, it never was (nor is it with "
                       "slim_ext.cluster.Server, which ends a ps's process itself)"
                       if after_join else ""),
                    "delete it, or call sys.exit(...) if the process must end there")
            previous = statement

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = tree.visit(self)
        for name in sorted(self._bare_names):
            # ``from tensorflow.train import Server``: dropped if nothing else uses it.
            target = self.bindings.names.get(name)
            if target is not None:
                self.schedule_import_removal(name, target)
        return tree
