"""README.md and docs/ hold together: every relative link leads to a file (and a heading
of it) that exists, every page is reachable from the README, the README stays short, and
every command the pages tell a user to run is run by a test (tests/documented.py)."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterator, Set, Tuple

import pytest

from tests.documented import ROOT, pages, shell_lines

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# What CI itself runs: the README's two first commands (tests/slimport/test_readme.py
# keeps them the README's first lines; the demo env's command is examples/demo.py).
RUN_BY_CI = {"tox -p 2", "pip install tox && tox -e demo"}
README_MAX_LINES = 250


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> Set[str]:
    return {_slug(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


def _links() -> Iterator[Tuple[Path, str]]:
    for page in pages():
        in_code = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                in_code = not in_code
            if not in_code:
                for target in _LINK.findall(line):
                    if not re.match(r"[a-z]+:", target):
                        yield page, target


LINKS = sorted(set(_links()))


def test_the_pages_link_somewhere() -> None:
    assert len(LINKS) > 20


@pytest.mark.parametrize(("page", "target"), LINKS,
                         ids=[f"{page.name}->{target}" for page, target in LINKS])
def test_every_relative_link_resolves(page: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    linked = (page.parent / path).resolve() if path else page
    assert linked.exists(), f"{page.relative_to(ROOT)} links {target}, which is not there"
    if anchor and linked.suffix == ".md":
        assert anchor in _anchors(linked), f"{page.relative_to(ROOT)}: no heading #{anchor}"


def test_every_page_is_reachable_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    unlinked = [page.name for page in pages()[1:] if f"(docs/{page.name})" not in readme]
    assert unlinked == []


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move a section to docs/"


def _documented_in_tests() -> Set[str]:
    """Every string literal a test hands ``documented(...)``."""
    taken: Set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "documented":
                taken |= {arg.value for arg in node.args if isinstance(arg, ast.Constant)}
            elif isinstance(node, ast.Assign) and any(
                    getattr(target, "id", "") == "INSTALL_LINES" for target in node.targets):
                taken |= {item.value for item in getattr(node.value, "elts", ())
                          if isinstance(item, ast.Constant)}
    return taken


def test_every_command_the_pages_show_is_run_by_a_test() -> None:
    shown = shell_lines()
    assert len(shown) > 10
    run_by_tests = _documented_in_tests()  # once: it parses every test module
    untested = {line: places for line, places in shown.items()
                if line not in run_by_tests and line not in RUN_BY_CI}
    assert untested == {}, "commands the pages show that no test runs (take them with " \
                           "tests.documented.documented in the test that runs them)"


def test_ci_runs_what_the_readme_says() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # The README's `tox -p 2`: every env, two at a time.
    assert re.search(r"^python3 -m tox --parallel 2 --parallel-live\b", ci, re.MULTILINE)
    tox = (ROOT / "tox.ini").read_text(encoding="utf-8")
    demo = tox[tox.index("[testenv:demo]"):]
    assert "python examples/demo.py" in demo[:demo.index("\n[")]
