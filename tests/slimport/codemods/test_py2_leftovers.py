"""py2_leftovers: what the tree-wide facts it reads are read from (cases/py2_leftovers.py
has the before/after, no-op and reported cases)."""
from __future__ import annotations

import pytest

from slimport.codemods.tree_facts import methods_defined, modules_imported


def test_methods_defined_reads_every_file() -> None:
    texts = ["class A:\n    def iteritems(self):\n        pass\n", "def iterkeys (d): pass\n",
             "x.itervalues()\n# def items\nasync def next(self): pass\n"]
    assert methods_defined(texts) == {"iteritems", "iterkeys", "next"}


def test_modules_imported_reads_every_form() -> None:
    texts = ["import a.b, c as d\nfrom .x import y\n",
             "    from scipy.spatial.transform import Rotation\nimport pandas as pd\n"]
    assert modules_imported(texts) == {"a.b", "c", "scipy.spatial.transform", "pandas"}


@pytest.mark.parametrize("table, ported", [
    ("TABLE = {}\n", True),
    ("class Table:\n    def iteritems(self):\n        return iter(())\n", False),
])
def test_slimport_rewrite_reads_the_whole_tree_for_iteritems(tmp_path, slimport_cli, table,
                                                             ported) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "table.py").write_text(table)
    use = "def show(t):\n    for k, v in t.config.iteritems():\n        print(k)\n"
    (tmp_path / "src" / "use.py").write_text(use)
    ran = slimport_cli("rewrite", str(tmp_path / "src"))
    assert ran.returncode == 0, ran.stderr
    assert ("t.config.items()" in (tmp_path / "src" / "use.py").read_text()) == ported
