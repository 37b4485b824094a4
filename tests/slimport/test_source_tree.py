"""The tree the engine hands the codemods (``Plan.source_tree``, sdk_imports' tree fact)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from slimport import engine
from slimport.analysis.source_tree import SourceTree, tree_path

SDK_SCRIPT = "from uaitrain.arch.tensorflow import uflag\n"
MOVED = "from slim_ext.uai import uflag\n"


def test_the_plan_records_directories_modules_and_symlinks(tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path, {"train.py": "", "README.md": "", "nets/lenet.py": "",
                         "uaitrain/arch/tensorflow/uflag.py": ""})
    (tmp_path / "link").symlink_to(tmp_path / "nets")
    paths = engine.make_plan([tmp_path]).source_tree.paths
    root = os.path.abspath(tmp_path)
    assert {root, f"{root}/train", f"{root}/uaitrain", f"{root}/uaitrain/arch/tensorflow",
            f"{root}/uaitrain/arch/tensorflow/uflag", f"{root}/nets/lenet",
            f"{root}/link"} <= paths
    assert f"{root}/README.md" not in paths and f"{root}/train.py" not in paths


def test_a_named_file_is_a_tree_of_one(tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path, {"train.py": "", "uaitrain/arch/tensorflow/uflag.py": ""})
    tree = engine.make_plan([tmp_path / "train.py"]).source_tree
    assert tree.paths == {tree_path(tmp_path / "train.py")}
    assert not tree.has_near(str(tmp_path / "train.py"), "uaitrain")


@pytest.mark.parametrize(("filename", "found"), [
    ("/src/tree/train.py", True),
    ("/src/tree/nets/deep/lenet.py", True),   # in a directory above
    ("/src/other/train.py", False),           # beside the tree
])
def test_has_near_looks_where_python_would(filename: str, found: bool) -> None:
    tree = SourceTree(frozenset({"/src/tree", "/src/tree/uaitrain", "/src/tree/train"}))
    assert tree.has_near(filename, "uaitrain") is found


@pytest.mark.parametrize(("files", "expected"), [
    ({"train.py": SDK_SCRIPT}, MOVED),
    ({"train.py": SDK_SCRIPT, "uaitrain/arch/tensorflow/uflag.py": "X = 1\n"}, SDK_SCRIPT),
], ids=["without_the_sdk", "with_the_sdk"])
def test_rewrite_moves_sdk_imports_only_without_the_sdk(slimport_cli, tmp_path: Path,
                                                        make_tree, files: dict,
                                                        expected: str) -> None:
    make_tree(tmp_path / "tree", files)
    result = slimport_cli("rewrite", "tree", "--out", "out")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "train.py").read_text() == expected
