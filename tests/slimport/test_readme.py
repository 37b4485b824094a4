"""The README stays true: its first lines are the two commands, its codemod table is
the registry's."""
from __future__ import annotations

import re

from slimport.codemods import CODEMODS
from tests.slimport.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def test_first_lines_are_the_two_commands() -> None:
    block = re.search(r"```\n(.*?)```", README, re.DOTALL)
    assert block is not None and README.index(block.group(0)) < README.index("\n## ")
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["pip install tox && tox -e demo", "tox"]


def test_codemod_table_lists_every_codemod_in_order() -> None:
    table = README[README.index("| codemod | does |"):]
    table = table[:table.index("\n\n")]
    listed = re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE)
    assert listed == [codemod.NAME for codemod in CODEMODS]
