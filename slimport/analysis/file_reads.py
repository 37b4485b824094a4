"""The files a port looks at besides its own, noted so that a cached result can be
checked against them.

A file's port mostly depends on its own bytes, the settings and the tree's facts; one
reading goes further: whether a module that names no TF1-only API imports a TF1 module
of its own package (``slimport.analysis.tf_code.imports_tf1_neighbour``) is read off the
neighbour's file. Every such look goes through here: the paths resolved, the files
asked for (there or not), the files read (by their content's hash). ``recorded``
notes them for one port, and ``unchanged`` says whether each still gives the same
answer, which is when the engine's cache (``slimport.engine.cache``) may hand back the
port it stored instead of porting again.

A run's own files are read as they were before the run wrote any (``keep_as_read``):
porting in place, a neighbour already written would otherwise answer for its port,
not for the user's code, and a file's port would depend on the order of the run.
"""
from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

# (kind, path, answer): what one look at the file system found.
Read = Tuple[str, str, str]
RESOLVE, IS_FILE, CONTENT = "resolve", "is_file", "content"
# The answer of a CONTENT look at a file that could not be read.
UNREADABLE = "-"

# The looks of the port being recorded (None: nobody records).
_looks: Optional[List[Read]] = None
# Absolute path -> the bytes of a file of the run as it was before the run wrote any.
_as_read: Dict[str, bytes] = {}


def read_as(files: Mapping[str, bytes]) -> Dict[str, bytes]:
    """From now on, read the files of ``files`` as those bytes, not off the disk.

    Args:
      files: absolute path -> the file's bytes as the run read them before writing any
        (empty: read every file off the disk again).

    Returns:
      What was read so before, for putting back.
    """
    global _as_read
    outer = _as_read
    _as_read = {os.path.realpath(name): data for name, data in files.items()}
    return outer


@contextmanager
def keep_as_read(files: Mapping[str, bytes]) -> Iterator[None]:
    """``read_as(files)`` until the end.

    Args:
      files: absolute path -> the file's bytes as the run read them before writing any.
    """
    outer = read_as(files)
    try:
        yield
    finally:
        global _as_read
        _as_read = outer


def _kept(path: Path) -> Optional[bytes]:
    return _as_read.get(os.path.realpath(path)) if _as_read else None


@contextmanager
def recorded() -> Iterator[List[Read]]:
    """Note every look at the file system made through this module until the end.

    Yields:
      The list the looks are added to, in the order they were made.
    """
    global _looks
    outer, _looks = _looks, []
    try:
        yield _looks
    finally:
        _looks = outer


def _note(kind: str, path: Path, answer: str) -> None:
    if _looks is not None:
        _looks.append((kind, str(path), answer))


def resolve(path: Path) -> Path:
    """``path.resolve()``, noted.

    Args:
      path: a path.

    Returns:
      The absolute path, symlinks followed.
    """
    resolved = path.resolve()
    _note(RESOLVE, path, str(resolved))
    return resolved


def is_file(path: Path) -> bool:
    """``path.is_file()``, noted.

    Args:
      path: a path.

    Returns:
      Whether a regular file (or a link to one) is there.
    """
    answer = path.is_file()
    _note(IS_FILE, path, "1" if answer else "0")
    return answer


def digest(data: bytes) -> str:
    """The hash a CONTENT look notes for ``data``.

    Args:
      data: a file's bytes.

    Returns:
      Its SHA-256, in hex.
    """
    return hashlib.sha256(data).hexdigest()


def read_bytes(path: Path) -> bytes:
    """``path.read_bytes()`` (as the run read it, for a file of the run: ``keep_as_read``),
    noted by the content's hash.

    Args:
      path: a file.

    Returns:
      Its bytes.

    Raises:
      OSError: it cannot be read (noted as UNREADABLE).
    """
    data = _kept(path)
    if data is None:
        try:
            data = path.read_bytes()
        except OSError:
            _note(CONTENT, path, UNREADABLE)
            raise
    _note(CONTENT, path, digest(data))
    return data


def _answer_now(kind: str, path: str) -> str:
    if kind == RESOLVE:
        return str(Path(path).resolve())
    if kind == IS_FILE:
        return "1" if os.path.isfile(path) else "0"
    kept = _kept(Path(path))
    if kept is not None:
        return digest(kept)
    try:
        with open(path, "rb") as handle:
            return digest(handle.read())
    except OSError:
        return UNREADABLE


def unchanged(reads: Sequence[Read]) -> bool:
    """Whether every look of ``reads`` gives the same answer now.

    Args:
      reads: what ``recorded`` noted for a port.

    Returns:
      True when the port would see the file system as it did.
    """
    return all(_answer_now(kind, path) == answer for kind, path, answer in reads)
