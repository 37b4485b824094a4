"""py2_leftovers: what the tree-wide iteritems fact is read from (cases/py2_leftovers.py has
the before/after, no-op and reported cases)."""
from __future__ import annotations

import pytest

from slimport.codemods.py2_leftovers import iter_methods_defined


def test_iter_methods_defined_reads_every_file() -> None:
    texts = ["class A:\n    def iteritems(self):\n        pass\n", "def iterkeys (d): pass\n",
             "x.itervalues()\n# def items\n"]
    assert iter_methods_defined(texts) == {"iteritems", "iterkeys"}


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
