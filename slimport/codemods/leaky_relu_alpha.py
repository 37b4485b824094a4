"""TF1 code's ``tf.nn.leaky_relu`` -> ``slim_ext.tf1_nn.leaky_relu``, TF 1.12's function.

Up to TensorFlow 1.12 ``tf.nn.leaky_relu(features, alpha)`` computed ``maximum(alpha *
features, features)`` with ``alpha`` converted to a tensor, so TF1 code passed a Tensor
or a Variable as ``alpha``: a learned slope (tensorlayer 1.11.1's ``PReluLayer`` hands
``act=tf.nn.leaky_relu`` and ``alpha=sigmoid(alpha_var)``). TF 1.13 made it the fused
LeakyRelu op with a float ``alpha`` attribute: a Tensor alpha fails when the graph is
built, and a slope above 1 computes something else. Which ``alpha`` a use will get is
rarely on the line (the function is passed as a layer's activation and called
elsewhere), so every use in TF1 code goes to ``slim_ext.tf1_nn.leaky_relu``: the fused
op for a number up to 1 (the same values), TF 1.12's computation otherwise.

Every spelling is ported as scipy_misc ports its names: ``tf.nn.leaky_relu`` (called or
passed) -> ``slim_ext.tf1_nn.leaky_relu`` (``import slim_ext.tf1_nn`` added), ``from
tensorflow.python.ops.nn_ops import leaky_relu`` -> ``from slim_ext.tf1_nn import
leaky_relu``; an import whose every use moved is dropped. TF2 code (and TF 1.13-1.15
code written against ``tf.compat.v1``, for which the fused op was already the function)
is left alone.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, List, Optional, Pattern

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.codemods.base import StatementFilter

FUNCTION = "leaky_relu"
RUNTIME = "slim_ext.tf1_nn"
HOME = f"{RUNTIME}.{FUNCTION}"
# The TF1 spellings of the function: the public name and the modules that define it.
TF1_NAMES = frozenset(f"{module}.{FUNCTION}" for module in (
    "tensorflow.nn", "tensorflow.python.ops.nn", "tensorflow.python.ops.nn_ops"))


class LeakyReluAlphaCommand(LeftoverCodemod, ModuleMoveCodemod):
    """Sends TF1 code's tf.nn.leaky_relu to TF 1.12's function in slim_ext.tf1_nn."""

    NAME: ClassVar[str] = "leaky_relu_alpha"
    DESCRIPTION: ClassVar[str] = (
        "TF1 code's tf.nn.leaky_relu (a Tensor alpha up to TF 1.12; a float-only fused op "
        "since) -> slim_ext.tf1_nn.leaky_relu, TF 1.12's function"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\bleaky_relu\b")

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        def uses_function(statement: ast.AST) -> bool:
            return any(isinstance(node, (ast.Import, ast.ImportFrom))
                       or getattr(node, "attr", None) == FUNCTION
                       for node in nodes_of(statement, (ast.Attribute, ast.Import,
                                                        ast.ImportFrom)))

        return uses_function

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        return ModuleMoveCodemod.start_file(self, tree)

    def home_of(self, qualified: str) -> Optional[str]:
        """``tensorflow.nn.leaky_relu`` -> ``slim_ext.tf1_nn.leaky_relu``; else None."""
        return HOME if qualified in TF1_NAMES else None

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        return self.move_to_runtime(
            node, parts, home, "TF 1.12's leaky_relu took a Tensor alpha, TensorFlow's fused "
            "op takes a float only", "TF 1.12's function: a Tensor alpha; since TF 1.13 a "
            "fused op with a float alpha")
