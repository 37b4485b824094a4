"""TF1's mutable ``DeviceSpec`` in TF1 code -> ``tf.compat.v1.DeviceSpec``, however reached.

TF1's ``DeviceSpec`` could be changed in place: ``spec.merge_from(other)``,
``spec.job = "ps"``. TensorFlow 2's is immutable (``DeviceSpecV2``: no ``merge_from``,
read-only fields), and it is what ``tf.DeviceSpec`` and the internal
``tensorflow.python.framework.device.DeviceSpec`` are on TensorFlow 2. TF1's class is
still there as ``tf.compat.v1.DeviceSpec`` (``DeviceSpecV1``, a subclass of TF2's:
everything TF2's does, and the changes in place). The device functions copied from
tensorflow/models' ``cifar10_estimator`` (``local_device_setter``) need it::

    from tensorflow.python.framework import device as pydev
    spec = pydev.DeviceSpec.from_string('/cpu:0'); spec.merge_from(current)

So in TF1 code (``is_tf1_code``, or a file that calls ``.merge_from(...)``, which only
TF1's DeviceSpec has) every ``DeviceSpec`` of TensorFlow's becomes TF1's, through the
file's own TensorFlow name:

    pydev.DeviceSpec                                -> tf.compat.v1.DeviceSpec
    tf.DeviceSpec (a file with TF1 and TF2 uses)    -> tf.compat.v1.DeviceSpec
    from tensorflow.python.framework.device import DeviceSpec
                                                    -> from tensorflow.compat.v1 import DeviceSpec

An import left unused goes; in a file compat_v1 switches to ``tensorflow.compat.v1``,
``tf.compat.v1.DeviceSpec`` reads ``tf.DeviceSpec`` again (the same class). TF2 code is
left alone: there ``DeviceSpec`` is TF2's, as its authors meant.
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Tuple

import libcst as cst

from slimport.codemods.base import StatementFilter, chain_filter
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.analysis.names import Bindings, is_under
from slimport.analysis.tf_code import is_tf1_code, tf1_evidence
from slimport.tables.tf_api import COMPAT_V1, TF

SPEC = "DeviceSpec"
# Where TF1 code reached DeviceSpec: TF2's class, on TensorFlow 2.
TF2_HOMES = (f"{TF}.{SPEC}", f"{TF}.python.framework.device.{SPEC}")
V1_HOME = f"{COMPAT_V1}.{SPEC}"
# Only TF1's DeviceSpec has it.
_MERGE = "merge_from"


def _tf2_home(qualified: Optional[str]) -> Optional[str]:
    """The TF2 DeviceSpec name ``qualified`` is, or is an attribute of; None otherwise."""
    return next((home for home in TF2_HOMES if is_under(qualified, home)), None)


def _merges_in_place(tree: ast.Module) -> bool:
    """Whether the file calls ``.merge_from(...)`` on anything."""
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr == _MERGE for node in ast.walk(tree))


class DeviceSpecCommand(ModuleMoveCodemod):
    """Gives TF1 code TF1's mutable DeviceSpec (tf.compat.v1's)."""

    NAME: ClassVar[str] = "device_spec"
    DESCRIPTION: ClassVar[str] = (
        "TF1 code: DeviceSpec (tf., tensorflow.python.framework.device.) -> "
        "tf.compat.v1.DeviceSpec, TF1's mutable one (merge_from, field assignment); TF2 "
        "code untouched"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (SPEC,)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        witnesses = tf1_evidence(tree, bindings)[1]
        uses = chain_filter(lambda parts: _tf2_home(bindings.resolve_parts(parts)) is not None)
        return lambda statement: id(statement) in witnesses or uses(statement)

    def start_file(self, tree: cst.Module) -> bool:
        super().start_file(tree)
        parsed = self.file_ast(tree)
        return is_tf1_code(parsed, self.original_ast, self.context.filename) \
            or _merges_in_place(self.original_ast or parsed)

    def home_of(self, qualified: str) -> Optional[str]:
        """TF2's ``DeviceSpec[.X]`` -> ``tensorflow.compat.v1.DeviceSpec[.X]``; else None."""
        home = _tf2_home(qualified)
        return None if home is None else V1_HOME + qualified[len(home):]

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        """The chain through the name that reaches tf.compat.v1 here."""
        text = self.compat_v1_prefix() + home[len(COMPAT_V1):]
        self.replace_chain(node, text)
        self.record_edit(node, f"{'.'.join(parts)} -> {text} (TF1's mutable DeviceSpec)")
        self.rewritten_roots.add(parts[0])
        return False
