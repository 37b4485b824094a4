"""Helpers for the verify tests: plant a tree, run `python -m slim_ext.verify` on it."""
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Sequence

REPO_ROOT = Path(__file__).resolve().parents[2]


def write_tree(root: Path, files: Dict[str, str]) -> Path:
  """Creates ``files`` (relative path -> text) under ``root``; returns root."""
  for relative, content in files.items():
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
  return root


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
  """``python -m slim_ext.verify TREE ARGUMENTS --report REPORT``, bounded in time."""
  child_env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **(env or {}))
  process = subprocess.run(
      [sys.executable, "-m", "slim_ext.verify", str(tree), *arguments, "--report",
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
