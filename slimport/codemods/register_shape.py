"""TF1's ``RegisterShape`` decorator -> ``slim_ext.tf1_ops.RegisterShape``, which TF 2 lacks.

A custom op's Python module of the TF 0.x / 1.x era registers a Python shape function
for its op: ``@tf.RegisterShape("ZeroOut")`` (TF 0.x's public name) or
``@ops.RegisterShape("ZeroOut")`` (``tensorflow.python.framework.ops``, through TF 1.15).
TF 1.x never called those functions (shapes come from the op's C++ ``SetShapeFn``) but
kept the decorator; TensorFlow 2 removed it, so the module fails at import with an
AttributeError. Every use goes to ``slim_ext.tf1_ops.RegisterShape``, TF 1.x's decorator
(the same argument checks, one function an op type, never called):

    @tf.RegisterShape("ZeroOut")                  -> @slim_ext.tf1_ops.RegisterShape("ZeroOut")
    ops.RegisterShape("Foo")(None)                -> slim_ext.tf1_ops.RegisterShape("Foo")(None)
    from tensorflow.python.framework.ops import RegisterShape
                                                  -> from slim_ext.tf1_ops import RegisterShape

TensorFlow 2 has no ``RegisterShape`` of its own, so any use of it is TF1 code's.
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Tuple

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.codemods.base import StatementFilter, chain_filter

DECORATOR = "RegisterShape"
RUNTIME = "slim_ext.tf1_ops"
HOME = f"{RUNTIME}.{DECORATOR}"
# Where TF1 code reached it: TF 0.x's public name, TF 1.x's framework module.
TF1_NAMES = frozenset({f"tensorflow.{DECORATOR}",
                       f"tensorflow.python.framework.ops.{DECORATOR}"})


class RegisterShapeCommand(ModuleMoveCodemod):
    """Sends TF1's RegisterShape decorator to TF 1.x's, in slim_ext.tf1_ops."""

    NAME: ClassVar[str] = "register_shape"
    DESCRIPTION: ClassVar[str] = (
        "TF1's shape-function decorator tf.RegisterShape / ops.RegisterShape (gone in TF 2: "
        "AttributeError at import) -> slim_ext.tf1_ops.RegisterShape, TF 1.x's"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (DECORATOR,)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: bindings.resolve_parts(parts) in TF1_NAMES)

    def home_of(self, qualified: str) -> Optional[str]:
        """``tensorflow.RegisterShape`` -> ``slim_ext.tf1_ops.RegisterShape``; else None."""
        return HOME if qualified in TF1_NAMES else None

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        return self.move_to_runtime(
            node, parts, home, "TensorFlow 2 has no RegisterShape", "TF 1.x's decorator; "
            "TensorFlow never called the shape function: shapes come from the op's C++ "
            "shape function")
