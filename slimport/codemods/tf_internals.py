"""TensorFlow internals that subclasses call, where they live now.

A TF1-era layer that subclasses a Keras convolution (a weight-standardised ``Conv2D``,
say) convolves through the private ``self._convolution_op(inputs, kernel)`` that the
Keras of TF <= 2.5 set in ``build``. The Keras a port runs on -- tf_keras for TF1 code,
Keras 3 for TF2 code -- has the same operation as the public method
``convolution_op(inputs, kernel)``, and no ``_convolution_op``: the call becomes
``self.convolution_op(inputs, kernel)``.

Ported where the class certainly derives from a Keras ``Conv1D`` / ``Conv2D`` /
``Conv3D`` of ``tf.keras`` or ``tf.layers`` (through classes of the same file too) and
neither it nor a class of the file between sets ``_convolution_op`` itself.
``tensorflow.python.keras``' own ``Conv`` still has the private attribute, so a class
of it is left. Where the base is not known here (a class of another module), the call
is reported with the fix. In TF2 code too: a call of ``_convolution_op`` never runs on
Keras >= 2.6.
"""
from __future__ import annotations

from typing import ClassVar, Dict, Set, Tuple

import libcst as cst

from slimport.codemods._classes import ClassesFollowed
from slimport.codemods.base import SlimportCodemod, code_of

PRIVATE, PUBLIC = "_convolution_op", "convolution_op"
# The Keras convolutions whose build set ``_convolution_op`` in TF 1.x - 2.5, by every
# public path TF1 code reached them through.
CONV_LAYERS = frozenset({"Conv1D", "Conv2D", "Conv3D", "Convolution1D", "Convolution2D",
                         "Convolution3D"})
# (tf_keras never had the private name: a tf_keras base is tf.keras the port has routed.)
LAYER_MODULES = ("tensorflow.keras.layers", "tensorflow.compat.v1.keras.layers",
                 "tensorflow.compat.v2.keras.layers", "tensorflow.layers",
                 "tensorflow.compat.v1.layers", "tf_keras.layers")


def _keras_conv(qualified: str) -> bool:
    """A Keras convolution TF1 code subclassed, or another base (False)."""
    module, _, name = qualified.rpartition(".")
    return name in CONV_LAYERS and module in LAYER_MODULES


class TfInternalsCommand(ClassesFollowed, SlimportCodemod):
    """Ports private TF/Keras internals that moved: Keras Conv's _convolution_op."""

    NAME: ClassVar[str] = "tf_internals"
    DESCRIPTION: ClassVar[str] = (
        "TF internals that moved: a Keras Conv subclass's self._convolution_op(x, k) -> "
        "self.convolution_op(x, k)"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (PRIVATE,)

    def start_file(self, tree: cst.Module) -> bool:
        self.follow_classes(_keras_conv)
        self._renamed: Dict[cst.Attribute, cst.Attribute] = {}
        self._calls: Set[int] = set()
        return True

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == PRIVATE:
            self._calls.add(id(func))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value != PRIVATE or not isinstance(node.value, cst.Name):
            return
        info = self.classes.instance_class(node.value.value)
        if info is None or PRIVATE in info.defined or info.derives is False:
            return
        called = id(node) in self._calls
        if info.derives and called:
            self._renamed[node] = node.with_changes(attr=cst.Name(PUBLIC))
            self.record_edit(node, f"{code_of(node)}(...) -> {node.value.value}.{PUBLIC}(...) "
                                   "(Keras >= 2.6 convolves through the public method)")
            return
        why = ("the class's base is not known here" if info.derives is None else
               "it is read, not called")
        self.needs_attention(
            node, f"{code_of(node)}: the private convolution of TF <= 2.5's Keras Conv "
            f"layers, which newer Keras does not set; left unchanged because {why}",
            f"for a Keras Conv layer: {node.value.value}.{PUBLIC}(inputs, kernel)")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        new = self._renamed.pop(original_node, None)
        return updated_node if new is None else updated_node.with_changes(attr=new.attr)
