"""The rewrite's cache: each file's port, kept under the digest of what it depends on.

A file's port (``slimport.engine.port.port_source``) depends on its bytes and path; on
the tool (slimport's own code and data, libcst's version, Python's); on the settings
(the codemods selected, their options, ``--max-size``); on the tree facts the codemods
read (``slimport.engine.facts``); and on the neighbour modules a port looked at
(``slimport.analysis.file_reads``). The first five make the entry's key; the looks are
kept in the entry and checked again before it is used. So a file that did not change
costs a read and a hash, and a cached port is never different from a fresh one.

Where: ``.slimport_cache/`` in the current directory (``--cache-dir`` moves it,
``--no-cache`` turns it off), like ``.pytest_cache``; it holds a ``CACHEDIR.TAG`` and
a ``.gitignore`` of ``*``, and ``slimport rewrite`` never walks into a directory tagged
so. Inside, one directory per tool fingerprint (``v1/<fingerprint>/``): a new slimport,
libcst or Python starts afresh, and the directories of another fingerprint are removed
once they are a day old.

Writes are atomic (a temporary file in ``tmp/``, renamed into place): two runs at once,
or ``-j N`` workers, write the same entry with the same bytes, and ``kill -9`` mid-write
leaves a stray temporary file (removed after an hour), never half an entry. An entry
is its payload's SHA-256 on the first line, then the payload (JSON): one that does not
check out is ignored, and the fresh port overwrites it.

A run also keeps a run record under the digest of the run's request and tree (every
Python file's path and bytes): the codemods that request selects and the digest of
their settings and the tree's facts. With it a second run over an unchanged tree never
loads the codemods (nor libcst): every file is a cache hit.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
import time
import tokenize
import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from slimport import __version__
from slimport.analysis import file_reads
from slimport.analysis.findings import Finding
from slimport.engine.ported import Ported

CACHE_DIR = ".slimport_cache"
# The layout of the cache's entries; a new layout starts a new directory.
FORMAT = "v1"
# The Cache Directory Tagging Specification's signature (bford.info/cachedir).
CACHEDIR_TAG = "Signature: 8a477f597d28d172789f06886806bc55"
_TAG_TEXT = (CACHEDIR_TAG + "\n# This directory is slimport's cache (slimport rewrite "
             "--no-cache does without it); it can be removed at any time.\n")
# Another fingerprint's entries are removed once this old (a run of another slimport
# might still be using them); a temporary file once it cannot be a write in progress.
_STALE_FINGERPRINT_SECS = 24 * 3600
_STALE_TEMP_SECS = 3600
_PACKAGES = ("slimport", "slim_facts")

_fingerprint: Optional[str] = None


def _libcst_version() -> str:
    """libcst's version: the file its build wrote it in (found, not imported: a run that
    reads the cache alone may never import libcst), else its installed metadata."""
    # Importing importlib.metadata cost every run 25 ms.
    spec = importlib.util.find_spec("libcst")
    if spec is not None and spec.origin:
        try:
            return Path(spec.origin).with_name("_version.py").read_text("utf-8")
        except OSError:
            pass  # a build that wrote no such file
    from importlib import metadata
    return metadata.version("libcst")


def tool_fingerprint() -> str:
    """The digest of everything of the tool a port depends on: slimport's and
    slim_facts' files (code and tables), libcst's version, Python's.

    Returns:
      A SHA-256 in hex (worked out once per process).
    """
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256()
        digest.update(f"{__version__}\0{sys.version}\0{sys.implementation.cache_tag}\0"
                      f"{_libcst_version()}\0".encode())
        for package in _PACKAGES:
            root = Path(sys.modules[package].__file__ or "").parent
            for path in sorted(root.rglob("*")):
                if "__pycache__" in path.parts or not path.is_file():
                    continue
                digest.update(f"{path.relative_to(root.parent).as_posix()}\0".encode())
                digest.update(hashlib.sha256(path.read_bytes()).digest())
        _fingerprint = digest.hexdigest()
    return _fingerprint


class Unkeyable(TypeError):
    """A setting or tree fact whose value the cache cannot write down exactly."""


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data that is equal for equal values (sets sorted,
    dataclasses by their fields), for digests.

    Args:
      value: a setting or a tree fact's value.

    Returns:
      JSON-ready data.

    Raises:
      Unkeyable: a value of another type.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return {"set": sorted((canonical(item) for item in value), key=json.dumps)}
    if isinstance(value, dict):
        return {"dict": sorted(([canonical(key), canonical(item)] for key, item in value.items()),
                               key=json.dumps)}
    if isinstance(value, Path):
        return {"path": str(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {type(value).__qualname__: {field.name: canonical(getattr(value, field.name))
                                           for field in dataclasses.fields(value)}}
    raise Unkeyable(f"a {type(value).__name__}")


def digest_of(*parts: Any) -> str:
    """The SHA-256 (hex) of ``parts`` written down canonically.

    Raises:
      Unkeyable: a part the cache cannot write down.
    """
    return hashlib.sha256(json.dumps(canonical(list(parts)), sort_keys=True,
                                     separators=(",", ":")).encode()).hexdigest()


def port_context(codemods: Sequence[str], options: Mapping[str, Any], max_file_bytes: int,
                 tree_facts: Any) -> str:
    """The digest of what every file's port of a run shares: the tool, the codemods
    selected (in order), their options, ``--max-size`` and the tree facts of every
    scope (``slimport.engine.facts.TreeFacts``).

    Raises:
      Unkeyable: an option or fact the cache cannot write down (the message says which).
    """
    for scope in tree_facts.scopes:
        for name, value in scope.facts.items():
            try:
                canonical(value)
            except Unkeyable as error:
                raise Unkeyable(f"tree fact {name} is {error}, which the cache cannot key") \
                    from None
    return digest_of("port", tool_fingerprint(), list(codemods), dict(options),
                     max_file_bytes, tree_facts)


def _encoding(data: bytes) -> Optional[str]:
    try:
        return tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except (SyntaxError, LookupError):
        return None


def _decoded(data: bytes, encoding: Optional[str]) -> Optional[str]:
    if encoding is None:
        return None
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _payload(key: str, data: bytes, ported: Ported, reads: Sequence[file_reads.Read]
             ) -> Dict[str, Any]:
    """An entry's JSON payload for ``ported`` (the port of ``data``)."""
    same = ported.data is data or ported.data == data
    encoding = _encoding(data)
    texts: Dict[str, Any] = {}
    # The texts are the bytes decoded (the usual case, told by a flag), or kept.
    for name, text, source in (("before", ported.before, data),
                               ("after", ported.after, ported.data)):
        if text == "":
            texts[name] = None
        elif text == _decoded(source, encoding):
            texts[name] = True
        else:
            texts[name] = text
    return {
        "key": key,
        "reads": [list(read) for read in reads],
        "data": None if same else base64.b64encode(ported.data).decode("ascii"),
        "encoding": encoding,
        "texts": texts,
        "codemods": list(ported.codemods),
        "findings": [finding.as_dict() for finding in ported.findings],
        "output_lines": list(ported.output_lines),
        "error": ported.error,
        "error_line": ported.error_line,
        "skipped": ported.skipped,
        "would_apply": list(ported.would_apply),
    }


def _ported(payload: Dict[str, Any], data: bytes) -> Ported:
    """The ``Ported`` an entry's payload keeps for ``data``."""
    out = data if payload["data"] is None else base64.b64decode(payload["data"])
    texts: List[str] = []
    for name, source in (("before", data), ("after", out)):
        kept = payload["texts"][name]
        if kept is None:
            texts.append("")
        elif kept is True:
            decoded = _decoded(source, payload["encoding"])
            if decoded is None:
                raise ValueError("the entry's text does not decode")
            texts.append(decoded)
        else:
            texts.append(str(kept))
    return Ported(out, texts[0], texts[1], tuple(payload["codemods"]),
                  tuple(Finding(**finding) for finding in payload["findings"]),
                  tuple(payload["output_lines"]), payload["error"], payload["error_line"],
                  payload["skipped"], tuple(payload["would_apply"]))


@dataclass(frozen=True)
class RunRecord:
    """What a run's request selected, for the same request over the same tree."""

    codemods: Tuple[str, ...]
    context: str
    warnings: Tuple[str, ...] = ()


@dataclass(frozen=True)
class FileCache:
    """The entries of one run's ports (picklable: pool workers store what they port).

    Attributes:
      root: the directory of this tool fingerprint's entries.
      context: ``port_context`` of the run.
    """

    root: Path
    context: str = ""

    def key(self, filename: str, data: bytes) -> str:
        """The key of the port of ``data`` found at ``filename``."""
        return digest_of("file", self.context, filename, hashlib.sha256(data).hexdigest())

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / key[2:]

    def get(self, filename: str, data: bytes) -> Optional[Ported]:
        """The cached port of ``data`` at ``filename``, when there is one that checks out
        and the neighbours it looked at still look the same; else None."""
        key = self.key(filename, data)
        payload = _read_entry(self._path(key))
        if payload is None or payload.get("key") != key:
            return None
        try:
            if not file_reads.unchanged([tuple(read) for read in payload["reads"]]):
                return None
            return _ported(payload, data)
        except (KeyError, TypeError, ValueError):
            return None  # not what this slimport writes: ported afresh, rewritten

    def put(self, filename: str, data: bytes, ported: Ported,
            reads: Sequence[file_reads.Read]) -> None:
        """Keep the port of ``data`` at ``filename`` (best effort: a write that fails is
        not an error of the run, the next run ports the file again)."""
        key = self.key(filename, data)
        _write_entry(self.root, self._path(key), _payload(key, data, ported, reads))

    def get_run(self, key: str) -> Optional[RunRecord]:
        """The run record kept under ``key``, if one checks out."""
        payload = _read_entry(self._path(key))
        try:
            if payload is None or payload.get("key") != key:
                return None
            return RunRecord(tuple(payload["codemods"]), str(payload["context"]),
                             tuple(payload["warnings"]))
        except (KeyError, TypeError):
            return None

    def put_run(self, key: str, record: RunRecord) -> None:
        """Keep ``record`` under ``key`` (best effort)."""
        _write_entry(self.root, self._path(key), {
            "key": key, "codemods": list(record.codemods), "context": record.context,
            "warnings": list(record.warnings)})

    def with_context(self, context: str) -> "FileCache":
        return replace(self, context=context)


def _read_entry(path: Path) -> Optional[Dict[str, Any]]:
    """An entry's payload; None when it is missing or does not check out."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    check, _, body = raw.partition(b"\n")
    if hashlib.sha256(body).hexdigest().encode() != check:
        return None
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def _write_entry(root: Path, path: Path, payload: Dict[str, Any]) -> None:
    body = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    raw = hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    temp: Optional[str] = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=root / "tmp", prefix=path.name[:16] + ".",
                                    suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        os.replace(temp, path)
        temp = None
    except OSError:
        pass  # a full disk or a read-only cache: the next run ports the file again
    finally:
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass


def open_cache(directory: Path) -> Tuple[Optional[FileCache], Optional[str]]:
    """The cache in ``directory``, made ready (tagged, ignored by git).

    Args:
      directory: the cache directory (``CACHE_DIR`` by default).

    Returns:
      (the cache, None), or (None, a warning saying why there is none).
    """
    root = directory / FORMAT / tool_fingerprint()[:16]
    try:
        (root / "tmp").mkdir(parents=True, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", _TAG_TEXT), (".gitignore", "*\n")):
            marker = directory / name
            if not marker.exists():
                marker.write_text(text)
    except OSError as error:
        return None, (f"no cache: cannot write {error.filename or directory}: "
                      f"{error.strerror or error}; give --cache-dir DIR or --no-cache")
    _sweep(directory / FORMAT, root)
    return FileCache(root), None


def _sweep(formats: Path, root: Path) -> None:
    """Remove other fingerprints' entries and temporary files no write can still own."""
    now = time.time()
    try:
        for temp in (root / "tmp").iterdir():
            if now - temp.stat().st_mtime > _STALE_TEMP_SECS:
                temp.unlink()
        for other in formats.iterdir():
            if other != root and other.is_dir() \
                    and now - other.stat().st_mtime > _STALE_FINGERPRINT_SECS:
                _remove_tree(other)
    except OSError:
        pass  # another run is sweeping too, or the directory is read-only


def _remove_tree(path: Path) -> None:
    for child in sorted(path.rglob("*"), key=lambda child: len(child.parts), reverse=True):
        if child.is_dir() and not child.is_symlink():
            child.rmdir()
        else:
            child.unlink()
    path.rmdir()


def is_cache_dir(path: Path) -> bool:
    """Whether ``path`` is a directory tagged as a cache (``CACHEDIR.TAG``), which a
    rewrite does not walk.

    Args:
      path: a directory.

    Returns:
      True when its CACHEDIR.TAG starts with the specification's signature.
    """
    try:
        with open(path / "CACHEDIR.TAG", "rb") as handle:
            return handle.read(len(CACHEDIR_TAG)) == CACHEDIR_TAG.encode()
    except OSError:
        return False
