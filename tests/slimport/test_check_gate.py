"""``rewrite --check`` / ``--diff`` as a CI gate: a file left unported fails it when it
may need porting (a codemod's text check matches it), with its own line saying why;
one that cannot need porting does not."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

NEEDS_PORT = "import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d\n"
# Over the --max-size given below, with and without a TF1 sign.
BIG_TF1 = NEEDS_PORT + "X = 1\n" * 100
BIG_PLAIN = "import os\n" + "X = 1\n" * 100
PY2_TF1 = "import tensorflow as tf\nprint 'batch', tf.contrib.slim\n"
PY2_PLAIN = "import os\nprint 'separator', os.sep\n"
PORTED = "import os\n\nprint(os.sep)\n"


@pytest.fixture(params=["--check", "--diff"])
def gate(request) -> str:
    return request.param


def _gate(slimport_cli, make_tree, tmp_path: Path, gate: str, files: dict, *extra: str):
    make_tree(tmp_path / "src", {"ok.py": PORTED, **files})
    result = slimport_cli("rewrite", "src", gate, "--report", "report.json", *extra)
    entries = {os.path.basename(entry["path"]): entry
               for entry in json.loads((tmp_path / "report.json").read_text())["files"]}
    return result, entries


def test_tf1_file_over_max_size_fails_the_gate(gate, slimport_cli, make_tree,
                                               tmp_path: Path) -> None:
    result, entries = _gate(slimport_cli, make_tree, tmp_path, gate, {"big.py": BIG_TF1},
                            "--max-size", "300")
    assert result.returncode == 2, result.stderr
    line = next(line for line in result.stderr.splitlines() if "big.py" in line)
    assert "is over the 300 bytes limit for porting" in line
    assert "it probably needs porting (the text checks of contrib_slim" in line
    assert "fails the check" in line
    assert entries["big.py"]["status"] == "failed"
    assert result.stdout == "", "--diff shows no diff of a file it did not port"


def test_file_over_max_size_without_tf1_signs_passes(gate, slimport_cli, make_tree,
                                                     tmp_path: Path) -> None:
    result, entries = _gate(slimport_cli, make_tree, tmp_path, gate,
                            {"table.py": BIG_PLAIN}, "--max-size", "300")
    assert result.returncode == 0, result.stderr
    assert entries["table.py"]["status"] == "unchanged"


def test_unparsable_tf1_file_fails_the_gate(gate, slimport_cli, make_tree,
                                            tmp_path: Path) -> None:
    result, entries = _gate(slimport_cli, make_tree, tmp_path, gate, {"py2.py": PY2_TF1})
    assert result.returncode == 2, result.stderr
    line = next(line for line in result.stderr.splitlines() if "py2.py" in line)
    assert line.strip().startswith(f"{os.path.join('src', 'py2.py')}:2: ")
    assert "Python 2" in line and "it probably needs porting" in line
    assert entries["py2.py"]["status"] == "failed"


def test_unparsable_file_without_tf1_signs_is_listed_but_passes(gate, slimport_cli, make_tree,
                                                                tmp_path: Path) -> None:
    result, entries = _gate(slimport_cli, make_tree, tmp_path, gate, {"py2.py": PY2_PLAIN})
    assert result.returncode == 0, result.stderr
    assert "Skipped (1):" in result.stderr
    line = next(line for line in result.stderr.splitlines() if "py2.py" in line)
    assert line.strip().startswith(f"{os.path.join('src', 'py2.py')}:2: ")
    assert "cannot need porting and does not fail the check" in line
    assert entries["py2.py"]["status"] == "skipped"


def test_in_place_run_still_reports_an_oversized_file_as_skipped(slimport_cli, make_tree,
                                                                 tmp_path: Path) -> None:
    make_tree(tmp_path / "src", {"big.py": BIG_TF1})
    result = slimport_cli("rewrite", "src", "--max-size", "300")
    assert result.returncode == 0, result.stderr
    assert "Skipped (1):" in result.stderr
    assert (tmp_path / "src" / "big.py").read_text() == BIG_TF1
