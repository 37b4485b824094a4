"""moxing: the MoXing name tables, and the example tree ported on skeletons (cases/moxing.py
has the before/after, no-op, reported and text pre-check cases)."""
from __future__ import annotations

from pathlib import Path

import pytest

from slimport import engine
from slimport.codemods import CODEMODS
from slimport.codemods.moxing import missing_name, mox_path

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "moxing_tf1"


@pytest.mark.parametrize(("qualified", "expected"), [
    ("moxing.tensorflow", "slim_ext.mox"),
    ("moxing.tensorflow.run", "slim_ext.mox.run"),
    ("moxing.tensorflow.file.copy", "slim_ext.mox.file.copy"),
    ("moxing.framework.file", "slim_ext.mox.file"),
    ("moxing.framework.file.exists", "slim_ext.mox.file.exists"),
    ("moxing.file", "slim_ext.mox.file"),
    ("moxing", "slim_ext.mox"),
    ("moxing_utils.run", None),
    ("tensorflow.moxing", None),
])
def test_mox_path(qualified: str, expected: str) -> None:
    assert mox_path(qualified) == expected


@pytest.mark.parametrize(("path", "expected"), [
    ("slim_ext.mox", None),
    ("slim_ext.mox.run", None),
    ("slim_ext.mox.ModeKeys.TRAIN", None),
    ("slim_ext.mox.file.copy_parallel", None),
    ("slim_ext.mox.file", None),
    ("slim_ext.mox.ExportSpec", None),
    ("slim_ext.mox.get_model_fn", "get_model_fn"),
    ("slim_ext.mox.file.stat", "file.stat"),
    ("slim_ext.mox.pytorch", "pytorch"),
])
def test_missing_name(path: str, expected: str) -> None:
    assert missing_name(path) == expected


@pytest.mark.parametrize("path", sorted(EXAMPLE.glob("*.py")), ids=lambda path: path.name)
def test_example_ports_the_same_on_skeletons_and_whole_files(path: Path) -> None:
    data = path.read_bytes()
    sparse = engine.port_source(data, str(path), CODEMODS, {})
    whole = engine.port_source(data, str(path), CODEMODS, {}, sparse=False)
    assert sparse.error is None, sparse.error
    assert (sparse.data, sparse.findings) == (whole.data, whole.findings)
    assert b"moxing" not in sparse.data.split(b'"""')[-1]  # docstrings may say MoXing
