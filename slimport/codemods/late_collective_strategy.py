"""TF2 Estimator programs: a MultiWorkerMirroredStrategy created after TensorFlow work is
reported, with the fix (create it first).

In eager mode the strategy's constructor configures the process's collective ops and
starts this task's server in the eager context, which TensorFlow allows only before
anything has started that context: a TF 2.0 program that builds its Keras model first
and then creates ``tf.distribute.experimental.MultiWorkerMirroredStrategy()`` for
``RunConfig(train_distribute=...)`` fails in the constructor with ``RuntimeError:
Collective ops must be configured at program startup``, on TF 2.0 as on 2.21 (the
platform SDK's distributed Keras MNIST example does). The Estimator runs the strategy in
graph mode, but its distribute coordinator configures the same strategy again, the eager
way; putting off what the constructor does would change the strategy in every program
(Keras ``fit``, custom loops). So nothing is edited. Reported: a strategy created after
a statement of the same function (or of the module's own code) that does TensorFlow
work, that is, calls a TensorFlow or Keras API other than set-up (configuration,
logging, files, flags, seeds, distribution and Estimator set-up), or a function of the
module that does. TF1 code is not looked at: its entry points run in graph mode, where
the constructor configures nothing.
"""
from __future__ import annotations

from typing import ClassVar, Dict, List, Optional, Tuple, Union

import libcst as cst

from slimport.codemods.base import SlimportCodemod, code_of
from slimport.analysis.names import is_under
from slimport.analysis.tf_code import is_tf1_code
from slimport.codemods.legacy_keras import keras_name
from slimport.codemods.slim_ext_import import uses_estimator
from slimport.tables.tf_api import COMPAT_V1, TF

_STRATEGY = "MultiWorkerMirroredStrategy"
_COLLECTIVE = "CollectiveAllReduceStrategy"
STRATEGIES = frozenset(f"{api}.distribute{inside}.{name}"
                       for api in (TF, COMPAT_V1) for inside in ("", ".experimental")
                       for name in (_STRATEGY, _COLLECTIVE))
# TensorFlow calls that set the process up without starting the eager context.
SET_UP = tuple(f"{api}.{name}" for api in (TF, COMPAT_V1) for name in (
    "config", "distribute", "estimator", "logging", "get_logger", "autograph",
    "io.gfile", "gfile", "app", "flags", "random.set_seed", "set_random_seed", "version",
    "debugging.set_log_device_placement", "compat"))
_FIX = ("create the strategy first, before any TensorFlow work: its constructor must "
        "configure the collective ops before anything starts TensorFlow's eager context")
_WORK, _STRATEGY_CALL, _LOCAL = "work", "strategy", "local"

Region = Union[cst.Module, cst.FunctionDef, cst.Lambda]


def _is_work(qualified: Optional[str]) -> bool:
    """Whether a call of ``qualified`` is TensorFlow or Keras work (may start eager)."""
    if qualified is None or uses_estimator(qualified):
        return False
    if keras_name(qualified) is not None or is_under(qualified, "keras") \
            or is_under(qualified, "tf_keras"):
        return True
    return is_under(qualified, TF) and not any(is_under(qualified, name) for name in SET_UP)


class LateCollectiveStrategyCommand(SlimportCodemod):
    """Reports a MultiWorkerMirroredStrategy an Estimator program creates after TF work."""

    NAME: ClassVar[str] = "late_collective_strategy"
    DESCRIPTION: ClassVar[str] = (
        "TF2 Estimator programs: a MultiWorkerMirroredStrategy created after TensorFlow "
        "work (TensorFlow refuses it then) is reported with the fix, create it first"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (_STRATEGY, _COLLECTIVE)

    def start_file(self, tree: cst.Module) -> bool:
        self._regions: List[Region] = [tree]
        # Each function, lambda and the module's own code: its calls in order.
        # (kind, call, the name a call of a module function calls).
        self._calls: Dict[int, List[Tuple[str, cst.Call, str]]] = {}
        self._functions: Dict[str, cst.FunctionDef] = {}
        self._estimator = False
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree.visit(self)
        if not self._estimator or is_tf1_code(self.file_ast(tree), self.original_ast,
                                                self.context.filename):
            return tree
        working = {name for name, function in self._functions.items()
                   if any(kind == _WORK for kind, _, _ in self._calls.get(id(function), ()))}
        for calls in self._calls.values():
            first_work: Optional[cst.Call] = None
            for kind, call, name in calls:
                if kind == _STRATEGY_CALL and first_work is not None:
                    self._report(call, first_work)
                elif first_work is None and (kind == _WORK or name in working):
                    first_work = call
        return tree

    def _report(self, strategy: cst.Call, work: cst.Call) -> None:
        self.needs_attention(
            strategy,
            f"{code_of(strategy.func)}() is created after TensorFlow work (line "
            f"{self.source_line_of(work)}: {code_of(work.func)}(...)); TensorFlow refuses it "
            "then (RuntimeError: Collective ops must be configured at program startup), on "
            "TF 2.0 as on 2.21", _FIX)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if len(self._regions) == 1:
            self._functions[node.name.value] = node
        self._regions.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef,
                          updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self._regions.pop()
        return updated_node

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._regions.append(node)

    def leave_Lambda(self, original_node: cst.Lambda, updated_node: cst.Lambda) -> cst.Lambda:
        self._regions.pop()
        return updated_node

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._estimator |= uses_estimator(self.resolve_name(node))

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.resolve_name(node.func)
        calls = self._calls.setdefault(id(self._regions[-1]), [])
        if qualified in STRATEGIES:
            calls.append((_STRATEGY_CALL, node, ""))
        elif _is_work(qualified):
            calls.append((_WORK, node, ""))
        elif isinstance(node.func, cst.Name) and qualified is None:
            calls.append((_LOCAL, node, node.func.value))
