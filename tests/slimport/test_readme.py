"""The README stays true: its first lines are the two commands, and it points to the
codemod reference generated from the registry (tests/tools/test_codemod_docs.py keeps
that page current)."""
from __future__ import annotations

import re

from tests.slimport.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def test_first_lines_are_the_two_commands() -> None:
    block = re.search(r"```\n(.*?)```", README, re.DOTALL)
    assert block is not None and README.index(block.group(0)) < README.index("\n## ")
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["pip install tox && tox -e demo", "tox -p 2"]


def test_it_links_the_codemod_reference() -> None:
    assert "(docs/codemods.md)" in README
    assert (REPO_ROOT / "docs" / "codemods.md").is_file()
