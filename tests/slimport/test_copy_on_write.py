"""slimport's copy-on-write walk (slimport.codemods.copy_on_write) calls a visitor as
libcst's own walk does, gives the same tree, and shares what did not change."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import libcst as cst
import pytest
from libcst._nodes.base import CSTNode

from slimport.codemods import copy_on_write

REPO_ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((REPO_ROOT / "examples").rglob("*.py"))[:40]


def test_the_children_table_is_libcsts() -> None:
    checked = subprocess.run([sys.executable, "tools/gen_libcst_children.py", "--check"],
                             cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


class _Recorder(cst.CSTTransformer):
    """Notes every hook call; removes ``del`` statements, flattens ``pass`` into two,
    renames ``tf`` and drops a call's first argument: each way a child can change."""

    def __init__(self) -> None:
        super().__init__()
        self.events: List[Tuple[str, str]] = []

    def on_visit(self, node: CSTNode) -> bool:
        self.events.append(("visit", type(node).__name__))
        return super().on_visit(node)

    def on_leave(self, original: CSTNode, updated: CSTNode):  # type: ignore[override]
        self.events.append(("leave", type(original).__name__))
        return super().on_leave(original, updated)

    def on_visit_attribute(self, node: CSTNode, attribute: str) -> None:
        self.events.append(("visit_attribute", f"{type(node).__name__}.{attribute}"))

    def on_leave_attribute(self, node: CSTNode, attribute: str) -> None:
        self.events.append(("leave_attribute", f"{type(node).__name__}.{attribute}"))

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value="tf2") if updated.value == "tf" else updated

    def leave_Del(self, original, updated):  # type: ignore[no-untyped-def]
        return cst.RemoveFromParent()

    def leave_Pass(self, original, updated):  # type: ignore[no-untyped-def]
        return cst.FlattenSentinel([cst.Pass(), cst.Pass()])

    def leave_Arg(self, original, updated):  # type: ignore[no-untyped-def]
        return cst.RemoveFromParent() if updated.keyword is None and isinstance(
            updated.value, cst.Integer) else updated


def _walked(source: str, walk) -> Tuple[str, List[Tuple[str, str]]]:  # type: ignore[no-untyped-def]
    recorder = _Recorder()
    module = cst.parse_module(source)
    return walk(module, recorder).code, recorder.events


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_the_walk_is_libcsts(path: Path) -> None:
    source = path.read_text(encoding="utf-8") + "del x\nif x:\n    pass\nf(1, y=2)\n"
    ours = _walked(source, copy_on_write.visit)
    libcsts = _walked(source, copy_on_write.LIBCST_VISIT)
    assert ours[0] == libcsts[0]
    assert ours[1] == libcsts[1]


def test_an_unchanged_tree_is_the_same_object_and_edits_share_the_rest() -> None:
    module = cst.parse_module("import os\n\n\ndef f(a):\n    return os.path.join(a, 'b')\n"
                              "\n\nx = f(1)\n")
    assert copy_on_write.visit(module, cst.CSTTransformer()) is module

    class Rename(cst.CSTTransformer):
        def leave_Name(self, original, updated):  # type: ignore[no-untyped-def]
            return updated.with_changes(value="g") if updated.value == "f" else updated

    renamed = copy_on_write.visit(module, Rename())
    assert renamed.code == module.code.replace("f(", "g(")
    assert renamed.body[0] is module.body[0]  # the import did not change


class _CallsOnly(cst.CSTTransformer):
    """Dispatches by node type (libcst's own hooks) and handles calls only: it drops each
    call's last argument and notes the calls it met."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: List[str] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(type(node.func).__name__)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        return updated.with_changes(args=updated.args[:-1])


class _NamesToo(_CallsOnly):
    def __init__(self) -> None:
        super().__init__()
        self.names: List[str] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node.value)


def test_a_dispatching_visitor_never_walks_into_names_or_literals_it_has_no_method_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # libcst's do-nothing handlers, made to tell when the walk calls them.
    called: List[str] = []
    for leaf in ("Name", "Integer", "SimpleString"):
        monkeypatch.setattr(cst.CSTTransformer, f"visit_{leaf}",
                            lambda self, node, leaf=leaf: called.append(leaf))
    module = cst.parse_module("f(x, 1, 'a')\ng.h(2)\n")
    calls_only = _CallsOnly()
    assert copy_on_write.visit(module, calls_only).code == "f(x, 1, )\ng.h()\n"
    assert calls_only.calls == ["Name", "Attribute"] and called == []
    names_too = _NamesToo()
    copy_on_write.visit(module, names_too)
    assert names_too.names == ["f", "x", "g", "h"] and called == []


class _ImportsOnly(cst.CSTTransformer):
    """Dispatches by node type and handles only what no expression holds: it renames
    ``os`` in imports and notes the imports and handlers it met."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: List[str] = []

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        self.calls.append(cst.Module(body=[]).code_for_node(node.name))

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self.calls.append("except")

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        return updated.with_changes(names=[
            alias.with_changes(name=cst.Name("os2")) if isinstance(alias.name, cst.Name)
            and alias.name.value == "os" else alias for alias in updated.names])


def test_a_visitor_of_statements_only_never_walks_into_an_expression(
        monkeypatch: pytest.MonkeyPatch) -> None:
    called: List[str] = []
    for kind in ("Call", "Lambda", "ListComp", "Attribute"):
        monkeypatch.setattr(cst.CSTTransformer, f"visit_{kind}",
                            lambda self, node, kind=kind: called.append(kind))
    module = cst.parse_module("import os\ntry:\n    f(lambda: [os.x for x in y])\n"
                              "except E:\n    import sys\n")
    imports_only = _ImportsOnly()
    assert copy_on_write.visit(module, imports_only).code == module.code.replace(
        "import os", "import os2")
    assert imports_only.calls == ["os", "except", "sys"] and called == []


def test_a_walk_reads_only_the_fields_that_may_hold_a_node_it_visits() -> None:
    # A call's parentheses and whitespace, an attribute's dot and name (a visitor with no
    # method for names): libcst's annotations admit nothing the walk would enter there.
    def read(visitor: type, node: type) -> List[str]:
        attributes, skipped = copy_on_write._visitor_facts(visitor)
        fields = copy_on_write._walked_fields(node, skipped)
        return [name for name, _ in fields or ()]

    assert read(_CallsOnly, cst.Call) == ["func", "args"]
    assert read(_CallsOnly, cst.Attribute) == ["value"]
    assert read(_NamesToo, cst.Attribute) == ["value", "attr"]
    assert read(_ImportsOnly, cst.Assign) == ["targets"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_a_dispatching_visitor_gets_libcsts_tree(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    for visitor in (_CallsOnly, _NamesToo, _ImportsOnly):
        ours, libcsts = visitor(), visitor()
        assert copy_on_write.visit(cst.parse_module(source), ours).code == \
            copy_on_write.LIBCST_VISIT(cst.parse_module(source), libcsts).code
        assert ours.calls == libcsts.calls


def _visitor_classes() -> List[type]:
    """The codemods, and libcst's own visitors (its codemod helpers, metadata providers)."""
    import libcst.codemod.visitors as helpers
    import libcst.metadata as metadata
    import libcst.metadata.scope_provider as scopes
    from slimport.codemods import CODEMODS

    found = [*CODEMODS]
    for module in (helpers, metadata, scopes):
        found += [member for member in vars(module).values() if isinstance(member, type)
                  and issubclass(member, (cst.CSTVisitor, cst.CSTTransformer))]
    return list(dict.fromkeys(found))


@pytest.mark.parametrize("kind", _visitor_classes(), ids=lambda kind: kind.__name__)
def test_what_a_visitor_class_defines_is_read_as_from_every_name_it_has(kind: type) -> None:
    # The facts look only at names defined past libcst's visitor bases; reading every
    # name dir() lists gives the same (libcst's ApplyTypeAnnotationsVisitor has matcher
    # decorators, its ScopeVisitor attribute handlers: both are in the table).
    every = dir(kind)
    decorated = any(hasattr(getattr(kind, name, None), marker)
                    for name in every for marker in copy_on_write._MATCHER_MARKERS)
    handlers = any(match[1] in copy_on_write.CHILDREN for name in every
                   for match in [copy_on_write._ATTRIBUTE_HANDLER.match(name)]
                   if match and copy_on_write.own_method(kind, name))
    assert copy_on_write._matcher_decorated(kind) == decorated
    assert copy_on_write._has_field_handlers(kind) == handlers
