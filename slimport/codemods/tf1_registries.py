"""TF1's Python-side registries TensorFlow 2 dropped -> TF 1.x's, in ``slim_ext.tf1_ops``.

A custom op's Python module of the TF 0.x / 1.x era registers a Python shape function
for its op: ``@tf.RegisterShape("ZeroOut")`` (TF 0.x's public name) or
``@ops.RegisterShape("ZeroOut")`` (``tensorflow.python.framework.ops``, through TF 1.15).
TF 1.x never called those functions (shapes come from the op's C++ ``SetShapeFn``) but
kept the decorator. A library with its own variable type registered it as tensor-like:
``ops.register_dense_tensor_like_type(ReplicatedVariable)`` (mesh-tensorflow 0.0.5), which
TF 1.x checked (``name`` and ``dtype`` properties) and recorded for its own
``is_dense_tensor_like``. TensorFlow 2 removed both, so such a module fails at import with
an AttributeError. Every use goes to TF 1.x's function in ``slim_ext.tf1_ops`` (the same
checks; TF 2 reads neither registry):

    @tf.RegisterShape("ZeroOut")                  -> @slim_ext.tf1_ops.RegisterShape("ZeroOut")
    ops.RegisterShape("Foo")(None)                -> slim_ext.tf1_ops.RegisterShape("Foo")(None)
    from tensorflow.python.framework.ops import RegisterShape
                                                  -> from slim_ext.tf1_ops import RegisterShape
    ops.register_dense_tensor_like_type(V)
                                  -> slim_ext.tf1_ops.register_dense_tensor_like_type(V)

TensorFlow 2 has neither name, so any use of them is TF1 code's.
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Tuple

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.codemods.base import StatementFilter, chain_filter

DECORATOR = "RegisterShape"
TENSOR_LIKE = "register_dense_tensor_like_type"
RUNTIME = "slim_ext.tf1_ops"
_FRAMEWORK_OPS = "tensorflow.python.framework.ops"
# Where TF1 code reached them (the decorator: TF 0.x's public name too) -> what the edit
# says of the home.
TF1_NAMES = {
    f"tensorflow.{DECORATOR}": DECORATOR,
    f"{_FRAMEWORK_OPS}.{DECORATOR}": DECORATOR,
    f"{_FRAMEWORK_OPS}.{TENSOR_LIKE}": TENSOR_LIKE,
}
_NOTES = {
    DECORATOR: ("TensorFlow 2 has no RegisterShape", "TF 1.x's decorator; TensorFlow never "
                "called the shape function: shapes come from the op's C++ shape function"),
    TENSOR_LIKE: (f"TensorFlow 2 has no {TENSOR_LIKE}", "TF 1.x's checks of the type; "
                  "TensorFlow 2's is_dense_tensor_like reads no registry (a tf.Tensor "
                  "subclass is tensor-like, nothing else)"),
}


class Tf1RegistriesCommand(ModuleMoveCodemod):
    """Sends TF1's RegisterShape and register_dense_tensor_like_type to TF 1.x's, in
    slim_ext.tf1_ops."""

    NAME: ClassVar[str] = "tf1_registries"
    DESCRIPTION: ClassVar[str] = (
        "TF1's registries TF 2 dropped (AttributeError at import): tf.RegisterShape / "
        "ops.RegisterShape, ops.register_dense_tensor_like_type -> slim_ext.tf1_ops's, TF 1.x's"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (DECORATOR, TENSOR_LIKE)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: bindings.resolve_parts(parts) in TF1_NAMES)

    def home_of(self, qualified: str) -> Optional[str]:
        """``tensorflow.RegisterShape`` -> ``slim_ext.tf1_ops.RegisterShape`` (and so on);
        else None."""
        name = TF1_NAMES.get(qualified)
        return f"{RUNTIME}.{name}" if name else None

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        why, note = _NOTES[TF1_NAMES[qualified]]
        return self.move_to_runtime(node, parts, home, why, note)
