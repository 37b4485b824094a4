"""docs/architecture.md describes the house as it is: every path it names exists, every
room of the tool is described, every module of the shared facts is named, and the tool
keeps no module outside its rooms."""
from __future__ import annotations

import re

import pytest

from tests.slimport.conftest import REPO_ROOT

DOC = (REPO_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
_PATH = re.compile(r"\b(?:slimport|slim_ext|slim_facts|tools|tests|benchmarks|docs|examples)"
                   r"/[\w./-]*")


def _named_paths() -> list:
    return sorted({match.group(0).rstrip(".,;:)") for match in _PATH.finditer(DOC)})


def test_it_names_paths() -> None:
    assert len(_named_paths()) > 50


@pytest.mark.parametrize("path", _named_paths())
def test_every_path_it_names_exists(path: str) -> None:
    assert (REPO_ROOT / path).exists(), f"docs/architecture.md names {path}, which is gone"


def test_every_room_of_the_tool_is_described() -> None:
    rooms = sorted(path.name for path in (REPO_ROOT / "slimport").iterdir()
                   if (path / "__init__.py").is_file())
    assert rooms == ["analysis", "cli", "codemods", "engine", "output", "tables", "verify"]
    assert [room for room in rooms if f"**`slimport/{room}/`**" not in DOC] == []


def test_every_module_of_the_facts_is_named() -> None:
    modules = sorted(str(path.relative_to(REPO_ROOT))
                     for path in (REPO_ROOT / "slim_facts").rglob("*.py")
                     if path.name != "__init__.py")
    assert [module for module in modules if module not in DOC] == []


def test_the_tool_has_no_module_outside_its_rooms() -> None:
    loose = sorted(path.name for path in (REPO_ROOT / "slimport").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]
