"""docs/architecture.md describes the house as it is: every path it names exists, and
every module of the tool and of the shared facts is named in it."""
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


@pytest.mark.parametrize("package", ["slimport", "slim_facts"])
def test_every_module_of_the_tool_and_the_facts_is_named(package: str) -> None:
    modules = sorted(str(path.relative_to(REPO_ROOT))
                     for path in (REPO_ROOT / package).rglob("*.py")
                     if path.name not in ("__init__.py", "__main__.py"))
    assert [module for module in modules if module not in DOC] == []


def test_the_codemods_are_listed_in_registry_order() -> None:
    from slimport.codemods import CODEMODS

    listed = re.findall(r"`slimport/codemods/([a-z]\w*)\.py`", DOC)
    ours = [name for name in listed if name in {codemod.NAME for codemod in CODEMODS}]
    assert ours == [codemod.NAME for codemod in CODEMODS]
