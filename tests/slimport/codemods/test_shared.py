"""The pieces the codemods share: module-level bindings, variable names, the no-copy pass."""
from __future__ import annotations

import ast

import pytest
import libcst as cst
from libcst.codemod import CodemodContext

from slimport.codemods._base import SlimportCodemod
from slimport.codemods._names import collect_bindings, variable_names

SOURCE = """\
import tensorflow as tf
try:
    from tensorflow.contrib import slim
except ImportError:
    slim = None

def train():
    from absl import flags
    tf = load_plugin()
    return flags, f(tf=1), x.tf
"""


def test_module_level_bindings_skip_function_bodies_but_read_try_blocks() -> None:
    tree = ast.parse(SOURCE)
    assert collect_bindings(tree, module_level_only=True).names == {
        "tf": "tensorflow",
        "slim": "tensorflow.contrib.slim",
    }
    assert collect_bindings(tree).names["flags"] == "absl.flags"


def test_variable_names_with_and_without_bindings() -> None:
    tree = cst.parse_module(SOURCE)
    read = variable_names(tree, include_bindings=False)
    # ``f(tf=1)`` and ``x.tf`` do not read ``tf``; ``tf = ...`` binds it.
    assert "tf" not in read
    assert {"flags", "f", "x", "load_plugin"} <= read
    assert {"tf", "slim", "flags"} <= variable_names(tree, include_bindings=True)


class _SeesItsInput(SlimportCodemod):
    NAME = "sees_its_input"
    TRIGGERS = ("import",)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        self.given = tree
        self.record_edit(tree.body[1], "looked")
        return tree


def test_the_pass_works_on_the_tree_it_is_handed_not_a_copy() -> None:
    tree = cst.parse_module(SOURCE)
    command = _SeesItsInput(CodemodContext())
    assert command.transform_module(tree) is tree
    assert command.given is tree
    # Positions are still computed for the uncopied tree.
    assert [f.line for f in command.findings] == [2]


def test_a_codemod_without_triggers_is_refused_at_import() -> None:
    with pytest.raises(TypeError, match="no TRIGGERS"):
        class _NoTriggers(SlimportCodemod):  # noqa: F841
            NAME = "no_triggers"


def test_a_codemod_with_matcher_decorators_is_refused_at_import() -> None:
    from libcst import matchers as m

    with pytest.raises(TypeError, match="matcher decorators on visit_name_call"):
        class _Decorated(SlimportCodemod):  # noqa: F841
            NAME = "decorated"
            TRIGGERS = ("x",)

            @m.visit(m.Call())
            def visit_name_call(self, node: cst.Call) -> None:
                pass
