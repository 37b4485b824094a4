"""Helpers for the slimport tests: build a source tree, run the real CLI on it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, List, Union

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

Content = Union[str, bytes]


def write_tree(root: Path, files: Dict[str, Content]) -> Path:
    """Create ``files`` (relative path -> text or bytes) under ``root``; returns root."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_bytes(content.encode("utf-8"))
        else:
            path.write_bytes(content)
    return root


def snapshot(root: Path) -> Dict[str, bytes]:
    """Every regular file under ``root`` (relative path -> bytes), symlinks excluded."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


@pytest.fixture
def slimport_cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess]:
    """Run ``python -m slimport ARGS`` in ``tmp_path`` (or ``cwd=``), bounded in time."""

    def run(*args: str, cwd: Path = tmp_path, timeout: float = 120) -> subprocess.CompletedProcess:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])]
        )
        env["TF_CPP_MIN_LOG_LEVEL"] = "2"
        return subprocess.run(
            [sys.executable, "-m", "slimport", *args],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False,
        )

    return run


@pytest.fixture
def make_tree() -> Callable[[Path, Dict[str, Content]], Path]:
    """``write_tree`` as a fixture, so test modules need not import this conftest."""
    return write_tree


@pytest.fixture
def tree_snapshot() -> Callable[[Path], Dict[str, bytes]]:
    """``snapshot`` as a fixture."""
    return snapshot


@pytest.fixture
def ports_made(monkeypatch) -> List[str]:
    """The names of the files ported (not taken from the cache, nor left to protoc) by
    the runs of a test in this process."""
    from slimport.engine import port  # pylint: disable=import-outside-toplevel
    made: List[str] = []
    fresh = port.port_source

    def counted(data, filename, *args, **kwargs):
        made.append(Path(filename).name)
        return fresh(data, filename, *args, **kwargs)

    monkeypatch.setattr(port, "port_source", counted)
    return made
