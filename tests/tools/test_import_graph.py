"""The house's arrows point one way: slimport -> slim_facts <- slim_ext; and inside the
tool, down the flow of a port: cli -> engine -> codemods -> analysis -> tables.

Every import statement of the runtime (``slim_ext``), of the shared facts
(``slim_facts``) and of the tool's rooms, at module level or inside a function,
relative or absolute, and every ``importlib.import_module`` / ``__import__`` call with
a string, is read with the stdlib ``ast`` (tools/import_graph.py): the runtime never
imports the tool, the facts import only the standard library, no room of the tool
imports one above it, and only ``codemods`` imports its private modules.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.slimport.conftest import REPO_ROOT
from tools import import_graph


def _offending(package: str, allowed) -> list:
    return [f"{found.path.relative_to(REPO_ROOT)}:{found.line}: {found.module}"
            for found in import_graph.package_imports(package) if not allowed(found)]


def test_the_runtime_never_imports_the_tool() -> None:
    assert import_graph.python_files("slim_ext")
    assert _offending("slim_ext", lambda found: found.package != "slimport") == []


def test_the_facts_import_only_the_standard_library() -> None:
    assert import_graph.python_files("slim_facts")
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    assert _offending("slim_facts", lambda found: found.package in stdlib) == []


def test_the_tools_rooms_import_only_the_rooms_below() -> None:
    rooms = import_graph.room_graph()
    assert rooms["cli"] and rooms["engine"] >= {"codemods", "output"}
    assert import_graph.upward(rooms, import_graph.ROOM_ALLOWED) == []
    assert rooms["tables"] == set() and rooms["analysis"] <= {"tables"}


def test_only_the_codemods_import_their_private_modules() -> None:
    assert import_graph.private_codemod_imports() == []


def test_a_planted_upward_room_import_is_caught(tmp_path: Path) -> None:
    for room, _ in import_graph.ROOMS:
        (tmp_path / "slimport" / room).mkdir(parents=True)
    (tmp_path / "slimport" / "analysis" / "names.py").write_text(
        "from slimport.codemods import base\n")
    (tmp_path / "slimport" / "engine" / "port.py").write_text(
        "from slimport.codemods._leftovers import LeftoverCodemod\n")
    rooms = import_graph.room_graph(tmp_path)
    assert import_graph.upward(rooms, import_graph.ROOM_ALLOWED) == ["analysis -> codemods"]
    assert [found.module for found in import_graph.private_codemod_imports(tmp_path)] == [
        "slimport.codemods._leftovers", "slimport.codemods._leftovers.LeftoverCodemod"]


def test_the_runtime_has_no_import_circle() -> None:
    assert import_graph.module_cycles("slim_ext") == []


def test_a_planted_import_circle_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("def f():\n    from pkg import leaf\n")
    (package / "leaf.py").write_text("from pkg.sub import f\n")
    (package / "own.py").write_text("import pkg\n")  # its own package: no circle
    assert import_graph.module_cycles("pkg", tmp_path) == [["pkg.leaf", "pkg.sub"]]


def test_every_import_form_is_seen(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text(textwrap.dedent("""\
        import a.b
        from c import d
        from . import sibling
        from .inner import name
        def later():
            import e
            from f.g import h
            importlib.import_module("i.j")
            __import__("k")
        """))
    found = [(item.line, item.module) for item in
             import_graph.imports_of(package / "mod.py", root=tmp_path)]
    assert sorted(set(found)) == sorted({
        (1, "a.b"), (2, "c"), (2, "c.d"), (3, "pkg"), (3, "pkg.sibling"),
        (4, "pkg.inner"), (4, "pkg.inner.name"), (6, "e"), (7, "f.g"), (7, "f.g.h"),
        (8, "i.j"), (9, "k")})


def test_a_planted_upward_import_is_caught(tmp_path: Path) -> None:
    for package in ("slimport", "slim_ext", "slim_facts"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("import slim_facts\n"
                                                        if package != "slim_facts" else "")
    (tmp_path / "slim_ext" / "late.py").write_text("def f():\n    from slimport import cli\n")
    edges = import_graph.graph(tmp_path)
    assert import_graph.upward(edges) == ["slim_ext -> slimport"]


@pytest.mark.parametrize("root, code", [(None, 0), ("planted", 1)])
def test_the_tool_prints_the_graph(tmp_path: Path, root, code) -> None:
    args = []
    if root:
        for package in ("slimport", "slim_ext", "slim_facts"):
            (tmp_path / package).mkdir()
        (tmp_path / "slim_facts" / "x.py").write_text("import slim_ext\n")
        args = ["--root", str(tmp_path)]
    done = subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "import_graph.py"), *args],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == code, done.stderr
    if code == 0:
        assert done.stdout == import_graph.render(import_graph.graph(),
                                                  import_graph.room_graph()) + "\n"
        assert "slim_ext    imports slim_facts" in done.stdout
        assert done.stdout.rstrip().endswith("arrows pointing up: none")
        # docs/architecture.md shows this very output.
        assert done.stdout in (REPO_ROOT / "docs" / "architecture.md").read_text()
    else:
        assert "arrows pointing up: slim_facts -> slim_ext" in done.stdout
