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

from dataclasses import dataclass, field
from typing import ClassVar, Dict, List, Optional, Set, Tuple

import libcst as cst

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


def _is_keras_conv(qualified: Optional[str]) -> bool:
    if qualified is None:
        return False
    module, _, name = qualified.rpartition(".")
    return name in CONV_LAYERS and module in LAYER_MODULES


@dataclass
class _Class:
    """What the codemod knows of a class of the file."""

    # Derives from a Keras convolution (True), from something else (False), or from a
    # class not known here (None).
    keras_conv: Optional[bool]
    # The class sets or defines _convolution_op itself.
    own_op: bool = False
    # How deep in functions the class statement is: its methods are one deeper.
    depth: int = 0
    self_names: Set[str] = field(default_factory=set)


def _sets_private_op(node: cst.ClassDef) -> bool:
    """Whether the class body defines ``_convolution_op`` or assigns ``x._convolution_op``."""
    found = _PrivateOpWrites()
    node.body.visit(found)
    return found.writes


class _PrivateOpWrites(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.writes = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.writes |= node.name.value == PRIVATE

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        target = node.target
        self.writes |= isinstance(target, cst.Attribute) and target.attr.value == PRIVATE


class TfInternalsCommand(SlimportCodemod):
    """Ports private TF/Keras internals that moved: Keras Conv's _convolution_op."""

    NAME: ClassVar[str] = "tf_internals"
    DESCRIPTION: ClassVar[str] = (
        "TF internals that moved: a Keras Conv subclass's self._convolution_op(x, k) -> "
        "self.convolution_op(x, k)"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (PRIVATE,)

    def start_file(self, tree: cst.Module) -> bool:
        self._classes: Dict[str, _Class] = {}
        self._stack: List[_Class] = []
        self._depth = 0
        self._renamed: Dict[cst.Attribute, cst.Attribute] = {}
        self._calls: Set[int] = set()
        return True

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        kinds = []
        inherited_op = False
        for base in node.bases:
            if base.keyword is not None:
                continue
            name = base.value.value if isinstance(base.value, cst.Name) else None
            known = self._classes.get(name) if name is not None else None
            if known is not None and self.target_of(name) is None:
                kinds.append(known.keras_conv)
                inherited_op |= known.own_op
            elif _is_keras_conv(self.resolve_name(base.value)):
                kinds.append(True)
            elif self.resolve_name(base.value) is not None or (
                    isinstance(base.value, cst.Name) and base.value.value == "object"):
                kinds.append(False)
            else:
                kinds.append(None)
        keras_conv = True if True in kinds else None if None in kinds else False
        info = _Class(keras_conv, own_op=inherited_op or _sets_private_op(node),
                      depth=self._depth)
        self._stack.append(info)
        if not self.in_deferred_code:
            self._classes[node.name.value] = info

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> cst.ClassDef:
        self._stack.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        # A method's first parameter is the instance.
        params = node.params.posonly_params or node.params.params
        if self._stack and self._stack[-1].depth == self._depth and params and not any(
                isinstance(d.decorator, cst.Name) and d.decorator.value in
                ("staticmethod", "classmethod") for d in node.decorators):
            self._stack[-1].self_names.add(params[0].name.value)
        self._depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef,
                          updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self._depth -= 1
        return updated_node

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == PRIVATE:
            self._calls.add(id(func))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value != PRIVATE or not isinstance(node.value, cst.Name) \
                or not self._stack or node.value.value not in self._stack[-1].self_names:
            return
        info = self._stack[-1]
        if info.own_op or info.keras_conv is False:
            return
        called = id(node) in self._calls
        if info.keras_conv and called:
            self._renamed[node] = node.with_changes(attr=cst.Name(PUBLIC))
            self.record_edit(node, f"{code_of(node)}(...) -> {node.value.value}.{PUBLIC}(...) "
                                   "(Keras >= 2.6 convolves through the public method)")
            return
        why = ("the class's base is not known here" if info.keras_conv is None else
               "it is read, not called")
        self.needs_attention(
            node, f"{code_of(node)}: the private convolution of TF <= 2.5's Keras Conv "
            f"layers, which newer Keras does not set; left unchanged because {why}",
            f"for a Keras Conv layer: {node.value.value}.{PUBLIC}(inputs, kernel)")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        new = self._renamed.pop(original_node, None)
        return updated_node if new is None else updated_node.with_changes(attr=new.attr)
