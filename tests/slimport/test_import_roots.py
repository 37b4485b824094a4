"""Where Python can see a module from: import roots, the imports read off a text, and
the roots an import reaches (slimport/analysis/import_roots.py)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from slimport.analysis.import_roots import ImportRoots, Root, imports_in, root_of
from tests.slimport.conftest import write_tree

TREE = {
    "proj/pkg/__init__.py": "",
    "proj/pkg/core/__init__.py": "",
    "proj/pkg/core/model.py": "from pkg.util import helpers\n",
    # A folder without __init__.py inside a package: a namespace package of it.
    "proj/pkg/util/helpers.py": "import numpy\n",
    "proj/train.py": "import pkg.core.model\nfrom tools import ns_module\n",
    "proj/tools/ns_module.py": "",
    "other/lib/__init__.py": "",
    "other/lib/api.py": "from nets import resnet\n",
    "slim/nets/__init__.py": "",
    "slim/nets/resnet.py": "",
}


@pytest.mark.parametrize("text, expected", [
    ("import a.b, c as d\n", [(0, "a.b", ()), (0, "c", ())]),
    ("from a.b import (c,\n    d)\n", [(0, "a.b", ("c",))]),
    ("from . import x as y, z\n", [(1, "", ("x", "z"))]),
    ("from ..m import *\n", [(2, "m", ())]),
    ("    import os  # in a function\n", [(0, "os", ())]),
    ("x = 'import'\n", []),
])
def test_imports_are_read_off_each_line(text: str, expected: list) -> None:
    assert imports_in(text) == tuple(expected)


def test_roots_and_what_each_import_reaches(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    texts = {str(path): path.read_text() for path in tmp_path.rglob("*.py")}
    roots = ImportRoots(texts)
    pkg = Root(str(tmp_path / "proj" / "pkg"), package=True)
    scripts = Root(str(tmp_path / "proj"), package=False)
    lib, nets = (Root(str(tmp_path / "other" / "lib"), True),
                 Root(str(tmp_path / "slim" / "nets"), True))
    namespace = Root(str(tmp_path / "proj" / "tools"), package=False)
    assert root_of(str(tmp_path / "proj" / "pkg" / "util" / "helpers.py")) == pkg
    assert roots.root_of(str(tmp_path / "proj" / "train.py")) == scripts
    assert roots.scope(scripts) == {scripts, pkg, namespace}
    assert roots.scope(pkg) == {pkg}
    # Another project's package, found by its top-level name elsewhere in the tree.
    assert roots.scope(lib) == {lib, nets}
    assert roots.component(nets) == {nets, lib}
    assert roots.component(pkg) == {pkg, scripts, namespace}
    assert str(pkg) == str(tmp_path / "proj" / "pkg") + os.sep
