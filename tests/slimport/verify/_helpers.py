"""Helpers for the verify tests: run `python -m slimport.verify` on a planted tree."""
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Sequence

from tests.slimport.conftest import REPO_ROOT


class Verified:
    """A finished verify run: its exit code, output and JSON report."""

    def __init__(self, process: subprocess.CompletedProcess, report_path: Path):
        self.returncode = process.returncode
        self.stdout = process.stdout
        self.stderr = process.stderr
        self.report = json.loads(report_path.read_text()) if report_path.exists() else None

    def rows(self, check: str = "import") -> Dict[str, dict]:
        return {row["target"]: row for row in self.report["rows"] if row["check"] == check}


def run_verify(tree: Path, arguments: Sequence[str], report: Path, timeout: float = 600,
               env: Dict[str, str] = None) -> Verified:
    """``python -m slimport.verify TREE ARGUMENTS --report REPORT``, bounded in time."""
    child_env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **(env or {}))
    process = subprocess.run(
        [sys.executable, "-m", "slimport.verify", str(tree), *arguments, "--report",
         str(report)], capture_output=True, text=True, timeout=timeout, env=child_env,
        cwd=REPO_ROOT, check=False)
    return Verified(process, report)


def alive(pid: int) -> bool:
    """True while a process with this id exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def pids_in(path: Path) -> List[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []
