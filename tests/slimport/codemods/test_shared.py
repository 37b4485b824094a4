"""The pieces the codemods share: module-level bindings, variable names, the no-copy pass."""
from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest
import libcst as cst
from libcst.codemod import CodemodContext

from slimport import codemods
from slimport.codemods.base import SlimportCodemod
from slimport.analysis.names import collect_bindings, variable_names

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


# --- the codemod layer reads the same everywhere ------------------------------------

def _codemod_modules() -> list:
    package = Path(codemods.__file__).parent
    return [importlib.import_module(f"slimport.codemods.{path.stem}")
            for path in sorted(package.glob("*.py")) if path.stem != "__init__"] + [codemods]


@pytest.mark.parametrize("codemod", codemods.CODEMODS, ids=lambda c: c.NAME)
def test_every_codemod_declares_its_class_variables(codemod: type) -> None:
    annotations = vars(codemod).get("__annotations__", {})
    # Its text pre-check: the strings a file must contain, or (the leftover codemods) the
    # pattern it must match.
    trigger = "TRIGGER" if "TRIGGER" in vars(codemod) else "TRIGGERS"
    for name in ("NAME", "DESCRIPTION", trigger):
        assert name in vars(codemod), f"{codemod.__name__} does not set {name}"
        assert str(annotations.get(name, "")).startswith("ClassVar"), (
            f"{codemod.__name__}.{name} is not declared ClassVar[...]")


def _public_functions(module) -> list:
    """The module's public functions, and the public methods its public classes define
    that are no override of a base class's (the base documents those)."""
    found = []
    for name, value in vars(module).items():
        if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            found.append((name, value))
        elif inspect.isclass(value):
            for method_name, method in vars(value).items():
                if (method_name.startswith(("_", "visit_", "leave_", "on_"))
                        or isinstance(method, property)
                        or any(hasattr(base, method_name) for base in value.__mro__[1:])):
                    continue
                function = getattr(method, "__func__", method)
                if inspect.isfunction(function):
                    found.append((f"{name}.{method_name}", function))
    return found


def test_public_functions_of_the_codemod_layer_say_their_args_and_returns() -> None:
    undocumented = []
    for module in _codemod_modules():
        for name, function in _public_functions(module):
            doc = inspect.getdoc(function) or ""
            signature = inspect.signature(function)
            takes = [p for p in signature.parameters if p not in ("self", "cls")]
            returns = signature.return_annotation not in (inspect.Signature.empty, None, "None")
            if (takes and "Args:" not in doc) or (
                    returns and "Returns:" not in doc and "Yields:" not in doc):
                undocumented.append(f"{module.__name__}.{name}")
    assert undocumented == []
