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
(``tf.contrib.learn.datasets.mnist``, the module the tutorial reader re-exported, is in
contrib_table's MODULE_HOMES.)
"""
from __future__ import annotations

import ast
from typing import List, Optional

import libcst as cst

from slimport.codemods._base import StatementFilter, chain_filter, code_of
from slimport.codemods._module_move import ModuleMoveCodemod, small_statement
from slimport.names import Bindings, dotted_expression, dotted_parts, variable_names

TUTORIAL = "tensorflow.examples.tutorials.mnist"
READER = TUTORIAL + ".input_data"
HOME = "slim_ext.mnist_input_data"
HOME_PACKAGE, _, HOME_MODULE = HOME.rpartition(".")
# TF1 module -> the slim_ext module that stands in for it.
MOVED = {
    READER: HOME,
    "tensorflow.tools.graph_transforms": "slim_ext.graph_transforms",
}


def _under(qualified: Optional[str], module: str) -> bool:
    return qualified is not None and (qualified == module or qualified.startswith(module + "."))


def _home_of(module: str) -> Optional[str]:
    """``...mnist.input_data[.X]`` -> ``slim_ext.mnist_input_data[.X]``; else None."""
    for old, new in MOVED.items():
        if _under(module, old):
            return new + module[len(old):]
    return None


def _moved(qualified: Optional[str]) -> bool:
    return any(_under(qualified, old) for old in (TUTORIAL, *MOVED))


class MovedModulesCommand(ModuleMoveCodemod):
    """Points TF1 modules TensorFlow 2 dropped at their slim_ext homes."""

    NAME = "moved_modules"
    DESCRIPTION = ("TF1 modules TF2 dropped -> slim_ext: the MNIST tutorial's input_data "
                   "(same reader, same API), graph_transforms (a stand-in)")
    TRIGGERS = ("tutorials", "graph_transforms")

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

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        for alias in updated_node.names:
            name = ".".join(dotted_parts(alias.name) or [])
            self._bare_import |= name in MOVED and alias.asname is None
            if _under(name, TUTORIAL) and not _under(name, READER):
                self._no_home(original_node, name)
        return self.move_import(original_node, updated_node,
                                lambda alias: _home_of(".".join(dotted_parts(alias.name) or [])))

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> cst.BaseSmallStatement:
        if updated_node.relative or updated_node.module is None:
            return updated_node
        module = ".".join(dotted_parts(updated_node.module) or [])
        home = _home_of(module)
        if home is not None:
            return self.move_import_from(original_node, updated_node, home)
        if module != TUTORIAL or isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        kept: List[cst.ImportAlias] = []
        moved: List[cst.BaseSmallStatement] = []
        for alias in updated_node.names:
            if alias.evaluated_name == "input_data":
                local = alias.evaluated_alias or alias.evaluated_name
                moved.append(small_statement(
                    f"from {HOME_PACKAGE} import {HOME_MODULE} as {local}"))
            else:
                self._no_home(original_node, f"{TUTORIAL}.{alias.evaluated_name}")
                kept.append(alias)
        if not moved:
            return updated_node
        self.record_edit(original_node,
                         f"{code_of(original_node)} -> {'; '.join(map(code_of, moved))}")
        return self.split_import(updated_node, kept, moved)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        """``tensorflow.examples.tutorials.mnist.input_data.X``, spelled out in full."""
        parts = dotted_parts(node)
        if parts is None:
            return True
        qualified = self.resolve_name(node)
        home = _home_of(qualified or "")
        spelled = ".".join(parts)
        if home is None or home in MOVED.values() or not any(
                _under(spelled, old) for old in MOVED):
            self.used_names.add(parts[0])
            return False
        self.replace(node, dotted_expression(home).with_changes(lpar=node.lpar, rpar=node.rpar))
        self.record_edit(node, f"{spelled} -> {home}")
        return False

    def _no_home(self, node: cst.CSTNode, name: str) -> None:
        self.needs_attention(node, f"{name} is one of TF1's tutorial modules, gone from "
                             "TensorFlow 2, and has no slim_ext home; left unchanged",
                             "copy what the file uses from it into the tree")
