"""benchmarks/libcst_floor.py in two processes, the bench's ceiling for ``-j 2``: every file
is done once, by one of the processes, the shares are about equal in bytes, and the output
is the one-process floor's."""
import subprocess
import sys
from pathlib import Path

from tests.slimport.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
import libcst_floor  # noqa: E402  pylint: disable=wrong-import-position

FLOOR = REPO_ROOT / "benchmarks" / "libcst_floor.py"
TREE = REPO_ROOT / "examples" / "slim_tf1"


def _files(root: Path) -> dict:
    return {path.relative_to(root): path.read_bytes() for path in root.rglob("*.py")}


def test_the_shares_hold_every_file_once_in_about_equal_bytes(tmp_path):
    sizes = [9000, 5000, 4000, 3000, 2000, 1000, 1000]
    files = []
    for index, size in enumerate(sizes):
        files.append(tmp_path / f"m{index}.py")
        files[-1].write_bytes(b"#" * size)
    shares = libcst_floor.dealt(files, 2)
    assert sorted(path for share in shares for path in share) == sorted(files)
    totals = sorted(sum(path.stat().st_size for path in share) for share in shares)
    assert totals == [12000, 13000]  # largest first, each to the lighter share


def test_two_processes_write_what_one_does(tmp_path):
    for processes in ("1", "2"):
        ran = subprocess.run([sys.executable, str(FLOOR), str(TREE), str(tmp_path / processes),
                              "--processes", processes], capture_output=True, text=True,
                             timeout=120)
        assert ran.returncode == 0, ran.stderr
    assert _files(tmp_path / "2") == _files(tmp_path / "1") == _files(TREE)
