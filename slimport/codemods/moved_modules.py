"""TF1 modules TensorFlow 2 no longer ships -> their slim_ext homes.

``tensorflow.examples.tutorials.mnist.input_data`` is gone from TensorFlow 2, and TF1
code everywhere starts with it. ``slim_ext.mnist_input_data`` is a faithful reader of
the same four idx .gz files with the same API (``read_data_sets(train_dir,
fake_data=False, one_hot=False, dtype=..., reshape=True, validation_size=5000,
seed=None)``, ``DataSet``), except that it downloads nothing. Every import spelling
keeps the name it bound:

- ``from tensorflow.examples.tutorials.mnist import input_data [as x]`` ->
  ``from slim_ext import mnist_input_data as input_data`` (or ``as x``);
- ``import tensorflow.examples.tutorials.mnist.input_data as x`` ->
  ``import slim_ext.mnist_input_data as x``;
- ``from tensorflow.examples.tutorials.mnist.input_data import read_data_sets`` ->
  ``from slim_ext.mnist_input_data import read_data_sets``;
- ``import tensorflow.examples.tutorials.mnist.input_data`` -> ``import
  slim_ext.mnist_input_data``, and its uses
  ``tensorflow.examples.tutorials.mnist.input_data.X`` -> ``slim_ext.mnist_input_data.X``.
The tutorial's other modules (its ``mnist`` model) have no home and are reported.
``tensorflow.tools.graph_transforms`` (the graph rewriting tool TF1's exporters called)
moves to ``slim_ext.graph_transforms`` the same way: a module that imports, whose
``TransformGraph`` raises with the alternative when called.
``pywrap_tensorflow.NewCheckpointReader`` (``from tensorflow.python import
pywrap_tensorflow``: TensorFlow 2 keeps the module, not the reader in it) becomes
``tf.compat.v1.train.NewCheckpointReader``, the same reader, through the file's own
``tf``, and ``graph_util.convert_variables_to_constants`` (``from
tensorflow.python.framework import graph_util``) ``tf.compat.v1.graph_util``'s
(``ops.register_tensor_conversion_function``, ``nest.is_sequence`` likewise); the import
goes when nothing else uses it.
(``tf.contrib.learn.datasets.mnist``, the module the tutorial reader re-exported, is in
contrib_table's MODULE_HOMES.)
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Tuple

import libcst as cst

from slimport.codemods.base import StatementFilter, chain_filter
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.analysis.names import Bindings, is_under, variable_names
from slimport.tables.tf_api import COMPAT_V1

TUTORIAL = "tensorflow.examples.tutorials.mnist"
READER = TUTORIAL + ".input_data"
HOME = "slim_ext.mnist_input_data"
# TF1 module -> the slim_ext module that stands in for it.
MOVED = {
    READER: HOME,
    "tensorflow.tools.graph_transforms": "slim_ext.graph_transforms",
}


# TF1 names of internal modules that TensorFlow 2 dropped there but exports under
# tf.compat.v1 -> their tf.compat.v1 name (the same function: pywrap_tensorflow's
# checkpoint reader is the one ``tf.compat.v1.train.NewCheckpointReader`` gives;
# graph_util's freezing function moved to tf.compat.v1.graph_util).
MOVED_NAMES = {
    "tensorflow.python.pywrap_tensorflow.NewCheckpointReader":
        f"{COMPAT_V1}.train.NewCheckpointReader",
    "tensorflow.python.framework.graph_util.convert_variables_to_constants":
        f"{COMPAT_V1}.graph_util.convert_variables_to_constants",
    # TF 1.15 exported its nest.is_sequence as tf.nest.is_nested; TF 2.14 dropped the
    # internal name (tflearn 0.3.2 imports it).
    "tensorflow.python.util.nest.is_sequence": f"{COMPAT_V1}.nest.is_nested",
    # TF 2 moved the registry out of ops (tensor_conversion_registry) and exports the
    # same function (mesh-tensorflow 0.0.5's tpu_variables registers its variable type).
    "tensorflow.python.framework.ops.register_tensor_conversion_function":
        f"{COMPAT_V1}.register_tensor_conversion_function",
}


def _moved(qualified: Optional[str]) -> bool:
    return qualified in MOVED_NAMES or any(
        is_under(qualified, old) for old in (TUTORIAL, *MOVED))


class MovedModulesCommand(ModuleMoveCodemod):
    """Points TF1 modules TensorFlow 2 dropped at their slim_ext homes."""

    NAME: ClassVar[str] = "moved_modules"
    DESCRIPTION: ClassVar[str] = (
        "TF1 modules TF2 dropped -> slim_ext: the MNIST tutorial's input_data "
        "(same reader, same API), graph_transforms (a stand-in); "
        "pywrap_tensorflow.NewCheckpointReader, graph_util.convert_variables_to_constants, "
        "nest.is_sequence, ops.register_tensor_conversion_function -> tf.compat.v1's"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("tutorials", "graph_transforms",
                                           "NewCheckpointReader",
                                           "convert_variables_to_constants", "is_sequence",
                                           "register_tensor_conversion_function")

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: _moved(bindings.resolve_parts(parts)))

    def start_file(self, tree: cst.Module) -> bool:
        super().start_file(tree)
        # ``import tensorflow.examples...input_data`` bound ``tensorflow`` too: whether
        # it must stay bound is known only once its uses are rewritten.
        self._bare_import = False
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = super().transform_module_impl(tree)
        if self._bare_import and "tensorflow" in variable_names(tree, include_bindings=False):
            self.add_needed_import("tensorflow")
        return tree

    def home_of(self, qualified: str) -> Optional[str]:
        """``...mnist.input_data[.X]`` -> ``slim_ext.mnist_input_data[.X]``; a moved name
        -> its tf.compat.v1 name; else None."""
        if qualified in MOVED_NAMES:
            return MOVED_NAMES[qualified]
        for old, new in MOVED.items():
            if is_under(qualified, old):
                return new + qualified[len(old):]
        return None

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        for alias in updated_node.names:
            name = alias.evaluated_name
            self._bare_import |= name in MOVED and alias.asname is None
            if is_under(name, TUTORIAL) and not is_under(name, READER):
                self._no_home(original_node, name)
        return super().leave_Import(original_node, updated_node)

    def stays(self, node: cst.ImportFrom, qualified: str, home: Optional[str]) -> bool:
        if home is None and is_under(qualified, TUTORIAL) and not is_under(qualified, READER):
            self._no_home(node, qualified)
        return super().stays(node, qualified, home)

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        """``tensorflow.examples.tutorials.mnist.input_data.X``, spelled out in full; a
        moved name, through whatever reaches tf.compat.v1 here."""
        spelled = ".".join(parts)
        if qualified in MOVED_NAMES:
            text = self.compat_v1_prefix() + home[len(COMPAT_V1):]
            self.replace_chain(node, text)
            self.record_edit(node, f"{spelled} -> {text}")
            self.rewritten_roots.add(parts[0])
            return False
        if home in MOVED.values() or not any(is_under(spelled, old) for old in MOVED):
            self.used_names.add(parts[0])
            return False
        self.replace_chain(node, home)
        self.record_edit(node, f"{spelled} -> {home}")
        return False

    def _no_home(self, node: cst.CSTNode, name: str) -> None:
        self.needs_attention(node, f"{name} is one of TF1's tutorial modules, gone from "
                             "TensorFlow 2, and has no slim_ext home; left unchanged",
                             "copy what the file uses from it into the tree")
