"""Carry out one job of the plan: read, port and write a Python file; copy, link,
make or remove anything else. Every problem becomes a FileResult, never an exception.

Writes are atomic (``atomic_write``): a temp file in the same directory, renamed
over the target, so a reader or a ``kill -9`` sees the old file or the new one,
never half of one; a write, or a copy into ``--out``, runs to its end even when
Ctrl-C comes (``slimport.engine.stopping``), and a port does not. A source is read only if
it is a regular file: a FIFO named ``x.py`` would block the read forever.
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Optional, Tuple

from slimport.analysis import file_reads
from slimport.engine import stopping
from slimport.engine.cache import FileCache
from slimport.engine.ported import Ported
from slimport.engine.scoped_facts import TreeFacts
from slimport.engine.plan import COPY, MKDIR, REMOVE, TEMP_SUFFIX, Job, file_kind
from slimport.output.diffs import review_hunks, unified_diff
from slimport.output.results import CHANGED, FAILED, SKIPPED, UNCHANGED, FileResult

# Files above this size are skipped (and copied as they are with --out) unless
# --max-size raises it: libcst takes minutes on a multi-megabyte file, and files
# that big are generated (tables, serialized protos), not slim training code.
DEFAULT_MAX_FILE_BYTES = 1 << 20


@dataclass(frozen=True)
class PortSettings:
    """How to port: which codemods, with which options, and whether to write or diff."""

    codemods: Tuple[type, ...]
    codemod_options: Mapping[str, Any] = field(default_factory=dict)
    write: bool = True
    diff: bool = False
    # Python files larger than this that a codemod would parse are skipped; 0: no limit.
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    # The facts of each scope of the tree being ported (``slimport.engine.facts``), for
    # the codemods that declared them; empty: each file on its own.
    tree_facts: TreeFacts = field(default_factory=TreeFacts)
    # Regenerate the tree's stale *_pb2.py after porting (``slimport.engine.protos``).
    regenerate_protos: bool = False
    # Leave the stale *_pb2.py to protoc (with ``regenerate_protos``, when protoc is
    # installed): protoc's code replaces whatever a port would write, so only a module
    # protoc fails on is ported (``protos.regenerate_in_run``).
    stale_protos_to_protoc: bool = False
    # Keep each file's review hunks (``FileResult.review``) for the HTML report.
    review: bool = False


class NotRegularFile(OSError):
    """The path is a FIFO, socket or device: reading it could block forever."""


def read_regular(path: Path) -> Tuple[bytes, int]:
    """The bytes and permission bits of the regular file at ``path``.

    Opened without blocking and checked on the open descriptor, so a path that
    turned into a FIFO after the plan was made is refused, not waited on.

    Raises:
      NotRegularFile: ``path`` is not a regular file.
      OSError: it cannot be read.
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotRegularFile(f"{file_kind(status.st_mode)}, not a regular file")
        with open(descriptor, "rb", closefd=False) as handle:
            return handle.read(), stat.S_IMODE(status.st_mode)
    finally:
        os.close(descriptor)


def atomic_write(path: Path, data: bytes, mode: int, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` so readers see the old or the new file, never half.

    Args:
      path: the file to write (its directory must exist).
      data: the new content.
      mode: permission bits to give the new file.
      durable: flush the new file to the disk before it replaces the old one, so that
        a crash of the machine (not only of the process) leaves one or the other. A
        port in place needs it: it replaces the user's only copy. A copy into ``--out``
        does not (the originals stay; the files it copies unchanged are not flushed
        either). A flush is a journal commit per file: about 1% of object detection
        0.1.1's port on a quiet machine, but it waits on every other writer's (0.96 s
        of a profiled port of its 274 files while another job wrote).

    Raises:
      OSError: the directory is not writable, the disk is full, ...; no temp file is
        left behind.
    """
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                     suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


def _failed(path: str, reason: str, line: Optional[int] = None) -> FileResult:
    return FileResult(path=path, status=FAILED, error=reason, error_line=line)


# A file read before its job ran: (bytes, permission bits, its port found in the cache).
Known = Tuple[bytes, int, Ported]


def port_file(job: Job, settings: PortSettings, cache: Optional[FileCache] = None,
              known: Optional[Known] = None) -> FileResult:
    """Port one Python file as ``job`` says; every problem becomes a FileResult.

    A bug (ours or libcst's) fails this file only: the run goes on.

    Args:
      job: a PORT job of the plan.
      settings: how to port.
      cache: where ports are looked up and kept (None: no cache).
      known: the file as read already and its cached port (then it is not read again).
    """
    try:
        return _port_file(job, settings, cache, known)
    except Exception as error:
        return _failed(job.display, f"internal error: {type(error).__name__}: {error}; the "
                                    f"file is left as it was; please report this with the file")


def ported_bytes(data: bytes, filename: str, settings: PortSettings,
                 cache: Optional[FileCache] = None) -> Ported:
    """The port of ``data`` (the file at ``filename``): the cache's, or made and kept.

    Args:
      data: the file's bytes.
      filename: its path, for the codemods.
      settings: how to port.
      cache: where ports are looked up and kept (None: no cache).

    Returns:
      The Ported.
    """
    if cache is not None:
        cached = cache.get(filename, data)
        if cached is not None:
            return cached
    # Here, not at the top: a run whose every file is a cache hit never loads the
    # codemods (nor libcst).
    from slimport.engine import port
    with file_reads.recorded() as reads:
        ported = port.port_source(data, filename, settings.codemods, settings.codemod_options,
                                  settings.max_file_bytes,
                                  tree_facts=settings.tree_facts.for_file(filename))
    if cache is not None:
        cache.put(filename, data, ported, reads)
    return ported


def port_to_result(data: bytes, filename: str, display: str, settings: PortSettings,
                   written: bool, cache: Optional[FileCache] = None,
                   ported: Optional[Ported] = None) -> Tuple[FileResult, Ported]:
    """Port one file's bytes in memory, as ``port_file`` would.

    Args:
      data: the file's bytes.
      filename: its path, for the codemods.
      display: its name in the result.
      settings: how to port.
      written: whether the ported text is what the user goes on to edit (then the
        findings name its lines; else the input's).
      cache: where ports are looked up and kept (None: no cache).
      ported: the port of ``data``, when it is known already.

    Returns:
      The FileResult (with no ``output``), and the Ported (``data``: what to write).
    """
    if ported is None:
        ported = ported_bytes(data, filename, settings, cache)
    if ported.error is not None or ported.skipped is not None:
        return _not_ported(display, ported, settings.write), ported
    changed = ported.data != data
    findings = list(ported.findings)
    if written:
        # Name each finding's line in the file the user goes on to edit.
        findings = [replace(finding, line=line)
                    for finding, line in zip(ported.findings, ported.output_lines)]
    result = FileResult(
        path=display,
        status=CHANGED if changed else UNCHANGED,
        codemods=list(ported.codemods),
        findings=findings,
        source_lines=[finding.line for finding in ported.findings],
        facts_from=list(settings.tree_facts.sources_of(filename)),
    )
    if settings.diff and changed:
        result.diff = unified_diff(ported.before, ported.after, display)
    if settings.review:
        result.review = review_hunks(ported.before, ported.after, set(result.source_lines))
    return result, ported


def _port_file(job: Job, settings: PortSettings, cache: Optional[FileCache],
               known: Optional[Known]) -> FileResult:
    ported: Optional[Ported] = None
    if known is not None:
        data, mode, ported = known
    else:
        try:
            data, mode = read_regular(job.source)
        except NotRegularFile as error:
            return FileResult(path=job.display, status=SKIPPED, error=f"{error}; not read")
        except OSError as error:
            return _failed(job.display, f"cannot read: {error.strerror or error}")
    result, ported = port_to_result(data, str(job.source), job.display, settings,
                                    written=job.dest is not None, cache=cache, ported=ported)
    if result.status in (FAILED, SKIPPED):
        if job.dest is not None and not job.in_place:
            # The ported tree must be runnable as a whole: carry the file over as is.
            with stopping.writing():
                result.output = _copy_or_none(job.source, job.dest)
        return result
    changed = result.status == CHANGED
    if job.dest is None:
        return result
    if changed and job.in_place and not mode & stat.S_IWUSR:
        return _failed(job.display, "file is read-only, not modified; make it writable "
                                    "(chmod u+w) or write a ported copy with --out DIR")
    try:
        with stopping.writing():
            if changed:
                atomic_write(job.dest, ported.data, mode, durable=job.in_place)
            elif not job.in_place:
                shutil.copy2(job.source, job.dest)
    except OSError as error:
        return _failed(job.display, f"cannot write {error.filename or job.dest}: "
                                    f"{error.strerror or error}")
    if changed or not job.in_place:
        result.output = str(job.dest)
    return result


def _not_ported(path: str, ported: Ported, write: bool) -> FileResult:
    """The result of a file left as it was: a failure (with its line) or a skip.

    ``--check`` and ``--diff`` (``write`` False) answer "is the tree ported?": a file
    left as it was fails them when some codemod's text pre-check matches it (it
    probably needs porting, and nothing could check it), however it was left; one no
    pre-check matches cannot need porting, and is listed as skipped.
    """
    reason = ported.error if ported.error is not None else ported.skipped
    if write:
        if ported.error is not None:
            return _failed(path, reason, ported.error_line)
        return FileResult(path=path, status=SKIPPED, error=reason)
    if ported.would_apply:
        return _failed(path, f"{reason}; it probably needs porting (the text checks of "
                             f"{', '.join(ported.would_apply)} match it), so it fails the "
                             f"check", ported.error_line)
    return FileResult(path=path, status=SKIPPED, error_line=ported.error_line,
                      error=f"{reason}; no codemod's text check matches it, so it cannot "
                            f"need porting and does not fail the check")


def _copy_or_none(source: Path, dest: Path) -> Optional[str]:
    try:
        shutil.copy2(source, dest)
    except OSError:
        return None
    return str(dest)


def place(job: Job) -> Optional[FileResult]:
    """Do a mkdir/remove/copy/symlink job; a FileResult only when it failed."""
    with stopping.writing():
        return _place(job)


def _place(job: Job) -> Optional[FileResult]:
    assert job.dest is not None
    try:
        if job.kind == MKDIR:
            job.dest.mkdir(parents=True, exist_ok=True)
        elif job.kind == REMOVE:
            job.dest.unlink()
        elif job.kind == COPY:
            shutil.copy2(job.source, job.dest)
        else:
            if job.dest.is_symlink() or job.dest.exists():
                job.dest.unlink()
            os.symlink(job.link_target, job.dest)
    except OSError as error:
        action = f"remove {job.dest} (left by an interrupted run)" if job.kind == REMOVE \
            else f"{job.kind} to {job.dest}"
        return _failed(job.display, f"cannot {action}: {error.strerror or error}")
    return None
