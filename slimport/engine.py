"""Find the files, run the codemods over each, write the results atomically.

One run has two phases. ``plan`` walks the PATHs the user gave and decides, for every
entry, what to do with it (port a Python file, copy another file into ``--out``,
recreate a symlink there, remove a temp file an interrupted in-place run left, or
skip it). ``run`` then does it, in this process or in a
process pool, and returns one ``FileResult`` per Python file plus one per skipped path
or failed copy.

Porting one file (``port_source``) is built to stay well under ``tf_upgrade_v2``'s
time on a whole tree (DESIGN.md, performance notes): each codemod's ``applies_to`` text
check runs first, and a file no codemod applies to is never parsed. Otherwise the
file is parsed once, from bytes, so libcst keeps its encoding, BOM and line endings,
and each applicable codemod transforms the previous one's output in registry order.

Nothing here imports TensorFlow or names a particular codemod; the codemods come in
as classes with ``NAME``, ``applies_to``, ``findings`` and, optionally, ``OPTIONS``
(the keyword arguments the class accepts, e.g. ``("mapping",)``).
"""
from __future__ import annotations

import ast
import concurrent.futures
import difflib
import io
import os
import re
import shutil
import stat
import tempfile
import tokenize
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import libcst as cst
from libcst.codemod import CodemodContext, SkipFile

from slimport import skeleton
from slimport.codemods._base import AST_KEY, SOURCE_LINE_KEY
from slimport.codemods._names import (
    Bindings,
    collect_bindings,
    parse_source,
    with_source_facts,
)
from slimport.report import (
    ATTENTION,
    CHANGED,
    EDIT,
    FAILED,
    SKIPPED,
    UNCHANGED,
    WARNING,
    FileResult,
    Finding,
    unified_diff,
)

# Directories that are never part of the code to port.
SKIPPED_DIR_NAMES = frozenset({".git", ".hg", ".svn", "__pycache__", ".tox", "venv", ".venv",
                               "node_modules"})
PYTHON_SUFFIX = ".py"
# PEP 263's pattern for an encoding declaration.
_CODING_DECLARATION = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
# Files above this size are skipped (and copied as they are with --out) unless
# --max-size raises it: libcst takes minutes on a multi-megabyte file, and files
# that big are generated (tables, serialized protos), not slim training code.
DEFAULT_MAX_FILE_BYTES = 1 << 20

PORT = "port"
COPY = "copy"
SYMLINK = "symlink"
MKDIR = "mkdir"
REMOVE = "remove"

# atomic_write's temp files are ".<name>.<random>" + this suffix. One survives only
# when a run was killed between writing it and renaming it over <name>.
TEMP_SUFFIX = ".slimport-tmp"


class UsageError(Exception):
    """The command line asks for something the engine must refuse (exit code 2)."""


@dataclass(frozen=True)
class Job:
    """One entry of the plan.

    ``dest`` is where the result goes: the source itself in place, a path under
    ``--out`` otherwise, None when nothing is written (``--diff`` / ``--check``).
    """

    kind: str
    source: Path
    display: str
    dest: Optional[Path]
    link_target: str = ""


@dataclass
class Plan:
    """Everything ``run`` will do, and the paths it will not touch."""

    jobs: List[Job] = field(default_factory=list)
    skipped: List[FileResult] = field(default_factory=list)

    @property
    def python_jobs(self) -> List[Job]:
        return [job for job in self.jobs if job.kind == PORT]


@dataclass(frozen=True)
class Settings:
    """How to port: which codemods, with which options, and whether to write or diff."""

    codemods: Tuple[type, ...]
    codemod_options: Mapping[str, Any] = field(default_factory=dict)
    write: bool = True
    diff: bool = False
    # Python files larger than this that a codemod would parse are skipped; 0: no limit.
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES


@dataclass
class RunResult:
    """Per-path results (sorted by path) and how many other files --out copied."""

    results: List[FileResult]
    copied: int = 0


@dataclass(frozen=True)
class Ported:
    """The outcome of porting one source text in memory."""

    data: bytes
    before: str = ""
    after: str = ""
    codemods: Tuple[str, ...] = ()
    findings: Tuple[Finding, ...] = ()
    error: Optional[str] = None
    error_line: Optional[int] = None
    # Why the file was not ported although a codemod applies (too large).
    skipped: Optional[str] = None


def options_for(codemod: type, options: Mapping[str, Any]) -> Dict[str, Any]:
    """The keyword arguments ``codemod`` declares in ``OPTIONS`` and the user gave."""
    accepted = getattr(codemod, "OPTIONS", ())
    return {name: value for name, value in options.items() if name in accepted}


def _is_within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _is_skipped_dir(path: Path) -> bool:
    name = path.name
    return (
        name in SKIPPED_DIR_NAMES
        or name.endswith(".egg-info")
        or (path / "pyvenv.cfg").exists()
    )


def _walk(root: Path, dest_root: Optional[Path], out_mode: bool, plan: Plan) -> None:
    """Add every entry under directory ``root`` to ``plan``.

    ``dest_root`` is where ``root``'s files go (``root`` itself in place, None when
    nothing is written); ``out_mode`` means it is an --out copy, so every other file,
    directory and in-tree symlink is recreated there too.
    """
    real_root = Path(os.path.realpath(root))
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        relative_dir = here.relative_to(root)
        kept = []
        for name in sorted(dirnames):
            full = here / name
            if full.is_symlink():
                _plan_symlink(full, real_root, dest_root, relative_dir / name, out_mode, plan)
            elif not _is_skipped_dir(full):
                kept.append(name)
        dirnames[:] = kept
        if out_mode:
            plan.jobs.append(Job(MKDIR, here, str(here), dest_root / relative_dir))
        for name in sorted(filenames):
            full = here / name
            dest = dest_root / relative_dir / name if dest_root is not None else None
            if full.is_symlink():
                _plan_symlink(full, real_root, dest_root, relative_dir / name, out_mode, plan)
            elif name.startswith(".") and name.endswith(TEMP_SUFFIX):
                # Left by an interrupted in-place run: never ported or copied; an
                # in-place run removes it (the file it was to replace is ported again).
                if dest_root is not None and not out_mode:
                    plan.jobs.append(Job(REMOVE, full, str(full), full))
            elif name.endswith(PYTHON_SUFFIX):
                plan.jobs.append(Job(PORT, full, str(full), dest))
            elif out_mode:
                plan.jobs.append(Job(COPY, full, str(full), dest))


def _plan_symlink(link: Path, real_root: Path, dest_root: Optional[Path], relative: Path,
                  out_mode: bool, plan: Plan) -> None:
    """Symlinks are never followed: one pointing outside the tree is reported skipped;
    one inside it is recreated under --out (as a relative link) and left alone in place."""
    target = Path(os.path.realpath(link))
    if not _is_within(target, real_root):
        reason = f"symlink to {os.readlink(link)} points outside the tree; not followed"
        plan.skipped.append(FileResult(path=str(link), status=SKIPPED, error=reason))
        return
    if out_mode:
        link_target = os.path.relpath(target, os.path.realpath(link.parent))
        plan.jobs.append(Job(SYMLINK, link, str(link), dest_root / relative, link_target))


def plan(paths: Sequence[Path], out: Optional[Path] = None, write: bool = True,
         force: bool = False) -> Plan:
    """Decide what to do with every entry under ``paths``.

    Args:
      paths: files and directories as the user gave them.
      out: the --out directory, or None to port in place.
      write: False for --diff / --check (nothing is written; ``out`` must be None).
      force: allow --out to be a non-empty directory.

    Returns:
      The Plan. With one directory PATH, --out mirrors it (OUT/<relative path>);
      otherwise each PATH lands at OUT/<its name>.

    Raises:
      UsageError: --out with ``write`` False, a PATH does not exist, --out lies inside
        a source directory or would overwrite a source file, --out is a non-empty
        directory without ``force``, or two PATHs would land at the same place.
    """
    if out is not None and not write:
        raise UsageError(
            "--out writes files; --diff and --check write nothing: use one or the other"
        )
    missing = [str(p) for p in paths if not p.exists() and not p.is_symlink()]
    if missing:
        raise UsageError(f"no such file or directory: {', '.join(missing)}")
    if out is not None:
        _check_out(paths, out, force)
    result = Plan()
    dest_roots: Dict[Path, str] = {}
    for path in paths:
        if out is None:
            dest_root = path if write else None
        elif len(paths) == 1 and path.is_dir():
            dest_root = out
        else:
            dest_root = out / Path(os.path.abspath(path)).name
        if dest_root is not None and out is not None:
            if os.path.realpath(dest_root) == os.path.realpath(path):
                raise UsageError(
                    f"--out {out} would write {path} over itself; choose a directory that "
                    f"does not contain the sources"
                )
            if dest_root in dest_roots:
                raise UsageError(
                    f"{path} and {dest_roots[dest_root]} would both be written to "
                    f"{dest_root}; port them in separate runs or give their parent directory"
                )
            dest_roots[dest_root] = str(path)
        if path.is_dir():
            _walk(path, dest_root, out is not None, result)
        else:
            # A file named explicitly is ported whatever its suffix (scripts without .py).
            result.jobs.append(Job(PORT, path, str(path), dest_root))
    return result


def _check_out(paths: Sequence[Path], out: Path, force: bool) -> None:
    real_out = Path(os.path.realpath(out))
    for path in paths:
        real_source = Path(os.path.realpath(path))
        source_dir = real_source if path.is_dir() else real_source.parent
        if _is_within(real_out, source_dir) and (path.is_dir() or real_out == source_dir):
            raise UsageError(
                f"--out {out} is inside the source tree {path}; slimport never writes into "
                f"the source with --out. Choose a directory outside it, e.g. --out "
                f"{Path(os.path.abspath(path)).parent.name or '..'}_ported"
            )
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise UsageError(
            f"--out {out} is not empty; choose an empty or new directory, or add --force "
            f"to write over the files there"
        )


def _line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _python_parse(data: bytes, filename: str) -> Tuple[Optional[ast.Module],
                                                     Optional[Tuple[str, Optional[int]]]]:
    """The stdlib ``ast`` of ``data``, or the reason and line this Python rejects it.

    Checked before libcst parses: libcst's grammar also accepts some Python 2 forms
    (``except E, e:``), and porting around them would hand back a file that still
    does not run. CPython's message is also the clearer one (``Missing parentheses
    in call to 'print'``). The tree is what the skeletons are cut from.
    """
    try:
        with warnings.catch_warnings():
            # "'int' object is not callable" and the like: the user's business, not ours.
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = compile(data, filename, "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except SyntaxError as error:
        return None, (f"does not parse: {error.msg}", error.lineno or _null_byte_line(data))
    except ValueError as error:  # null bytes, on some Python versions
        return None, (f"does not parse: {error}", _null_byte_line(data))
    return tree, None


def _null_byte_line(data: bytes) -> Optional[int]:
    offset = data.find(b"\0")
    return _line_of_offset(data, offset) if offset >= 0 else None


def _libcst_error(parse_error: Exception) -> Tuple[str, Optional[int]]:
    """Reason and line for code CPython accepts but libcst cannot parse."""
    line = getattr(parse_error, "editor_line", None)
    message = getattr(parse_error, "message", str(parse_error))
    return f"libcst cannot parse it: {message}", line


def _decode_failure(data: bytes, error: Exception) -> Tuple[str, Optional[int]]:
    if isinstance(error, UnicodeDecodeError):
        line = _line_of_offset(data, error.start)
        return (f"cannot be decoded as {error.encoding} (byte {data[error.start]:#04x}); "
                f"declare its encoding with a '# -*- coding: ... -*-' line"), line
    if isinstance(error, SyntaxError):  # from tokenize.detect_encoding
        return (f"bad encoding declaration: {error.msg}; name a Python codec, e.g. "
                f"'# -*- coding: latin-1 -*-'"), error.lineno or _coding_line(data)
    return f"unknown encoding: {error}", _coding_line(data)


def _coding_line(data: bytes) -> Optional[int]:
    """The line (1 or 2, as PEP 263 allows) holding the ``coding:`` declaration."""
    for number, line in enumerate(data.splitlines()[:2], start=1):
        if _CODING_DECLARATION.match(line):
            return number
    return None


def _size_text(size: int) -> str:
    """``5.0 MB``, ``1 MB``, ``12 KB``, ``100 bytes``."""
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"


def _reported(codemod_name: str, command: Any, context: CodemodContext) -> List[Finding]:
    """The command's findings, plus any libcst warning that is not one of them."""
    findings = list(command.findings)
    # SlimportCodemod.needs_attention also warns, in this form; do not list those twice.
    echoed = {f.as_warning() for f in findings if f.kind == ATTENTION}
    findings += [
        Finding(codemod_name, 0, warning, "", WARNING)
        for warning in context.warnings if warning not in echoed
    ]
    return findings


class _LibcstCannotParse(Exception):
    def __init__(self, reason: str, line: Optional[int]) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


class _CodemodCrashed(Exception):
    def __init__(self, name: str, error: Exception) -> None:
        super().__init__(f"codemod {name} crashed: {type(error).__name__}: {error}")


class _ReachedIntoElidedCode(Exception):
    """A codemod rewrote a placeholder line: its edits reach into elided statements."""


@dataclass
class _GroupRun:
    """What a run of codemods over one skeleton did."""

    text: str
    # Lines of the text the run started from.
    findings: List[Finding]
    applied: List[str]
    # Index of the codemod the next run starts at (len(codemods) when all ran).
    next_index: int


def _group_filter(group: Sequence[type], tree: ast.Module,
                  bindings: Bindings) -> Optional[skeleton.StatementFilter]:
    """A statement is needed if any codemod of ``group`` needs it; None: the whole file.

    Each codemod's filter sees the bindings as the codemods before it will leave them
    (``rebound``): after contrib_slim, a ``slim`` alias is tf_slim, not TensorFlow.
    """
    filters = []
    for codemod in group:
        needed = codemod.statement_filter(tree, bindings)
        if needed is None:
            return None
        filters.append(needed)
        bindings = codemod.rebound(bindings)
    return lambda statement: any(needed(statement) for needed in filters)


def _run_group(codemods: Sequence[type], start: int, text: str, tree: ast.Module,
               filename: str, options: Mapping[str, Any], sparse: bool,
               to_source: Callable[[int], int]) -> _GroupRun:
    """Run ``codemods[start:]`` in order over one libcst tree of ``text``'s skeleton.

    The skeleton keeps what any codemod that applies to ``text`` needs. The run
    stops before a codemod that did not apply to ``text`` but applies after the
    edits before it: the next run cuts a skeleton that serves it too. ``to_source``
    maps lines of ``text`` to lines of the user's file.

    Raises:
      _LibcstCannotParse: libcst rejects code CPython accepts.
      _CodemodCrashed: a codemod raised.
      _ReachedIntoElidedCode: a codemod rewrote a placeholder line.
    """
    group = [codemod for codemod in codemods[start:] if codemod.applies_to(text)]
    cut = skeleton.Skeleton(text, [])
    if sparse and skeleton.PLACEHOLDER_PREFIX not in text:
        bindings = collect_bindings(tree)
        needed = _group_filter(group, tree, bindings)
        if needed is not None:
            cut = skeleton.build(text, tree, bindings, needed)
    try:
        module = cst.parse_module(cut.text)
    except Exception as error:  # ParserSyntaxError, and anything else libcst raises
        reason, line = _libcst_error(error)
        raise _LibcstCannotParse(reason, cut.source_line(line or 0) or line) from error
    module_ast = tree if cut.is_whole else parse_source(cut.text)
    code, full = cut.text, text
    # Lines of ``code`` -> lines of the skeleton before this run's edits.
    origin: Optional[List[int]] = None
    findings: List[Finding] = []
    applied: List[str] = []
    index = start
    while index < len(codemods):
        codemod = codemods[index]
        if not codemod.applies_to(full):
            index += 1
            continue
        if codemod not in group:
            break
        index += 1

        def to_text(line: int, edits: Optional[List[int]] = origin) -> int:
            """A line of the tree this codemod gets -> a line of ``text``."""
            return cut.source_line(_original_line(edits, line))

        context = CodemodContext(filename=filename, scratch={
            AST_KEY: (module, module_ast),
            SOURCE_LINE_KEY: lambda line, to_text=to_text: to_source(to_text(line))})
        command = codemod(context, **options_for(codemod, options))
        try:
            new_module = command.transform_module(module)
        except SkipFile:
            continue
        except Exception as error:
            raise _CodemodCrashed(codemod.NAME, error) from error
        reported = [replace(finding, line=to_text(finding.line))
                    for finding in _reported(codemod.NAME, command, context)]
        findings += reported
        if any(finding.kind == EDIT for finding in reported):
            applied.append(codemod.NAME)
        new_code = new_module.code
        if new_code != code:
            expanded = cut.expand(new_code)
            if expanded is None:
                raise _ReachedIntoElidedCode
            origin = _compose_origins(origin, _line_origins(code, new_code))
            code, full, module_ast = new_code, expanded, parse_source(new_code)
        module = new_module
    return _GroupRun(full, findings, applied, index)


def port_source(data: bytes, filename: str, codemods: Sequence[type],
                options: Mapping[str, Any], max_bytes: int = 0, sparse: bool = True) -> Ported:
    """Run ``codemods`` over one file's bytes, in memory.

    Args:
      data: the file's bytes.
      filename: its path, given to the codemods' CodemodContext and used in messages.
      codemods: codemod classes in registry order.
      options: the user's codemod options; each class gets those in its ``OPTIONS``.
      max_bytes: when > 0, a file longer than this that some codemod applies to is
        not parsed: ``skipped`` says why.
      sparse: run the codemods on a skeleton of the file (``slimport.skeleton``)
        when their ``statement_filter`` allows; False runs them over the whole file,
        as ``python -m libcst.tool codemod`` does (the tests compare the two).

    Returns:
      Ported with the new bytes (``data`` itself when nothing changed), the codemods
      that recorded an edit, their findings, or ``error`` (and ``error_line``) when
      the file cannot be decoded or parsed or a codemod crashed, or ``skipped``. On
      error or skip ``data`` is the input, unchanged.
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (UnicodeDecodeError, SyntaxError, LookupError) as error:
        reason, line = _decode_failure(data, error)
        return Ported(data, error=reason, error_line=line)

    if not any(codemod.applies_to(text) for codemod in codemods):
        return Ported(data, before=text, after=text)
    if 0 < max_bytes < len(data):
        return Ported(data, before=text, after=text, skipped=(
            f"{_size_text(len(data))} is over the {_size_text(max_bytes)} limit for porting; "
            f"probably generated. Port it anyway with --max-size 0, or regenerate it from "
            f"ported code"))
    tree, syntax_error = _python_parse(data, filename)
    if syntax_error is not None:
        return Ported(data, error=syntax_error[0], error_line=syntax_error[1])
    with_source_facts(tree, text)

    applied: List[str] = []
    findings: List[Finding] = []
    # A run after the first sees line numbers of the text earlier runs produced;
    # ``origin`` maps those back to the user's file.
    current = text
    origin: Optional[List[int]] = None
    index = 0
    while index < len(codemods):
        if tree is None:
            tree = parse_source(current)
        try:
            run = _run_group(codemods, index, current, tree, filename, options, sparse,
                             to_source=lambda line, done=origin: _original_line(done, line))
        except _LibcstCannotParse as error:
            return Ported(data, error=error.reason,
                          error_line=_original_line(origin, error.line or 0) or None)
        except _CodemodCrashed as error:
            return Ported(data, error=str(error))
        except _ReachedIntoElidedCode:
            return port_source(data, filename, codemods, options, max_bytes, sparse=False)
        findings += [replace(finding, line=_original_line(origin, finding.line))
                     for finding in run.findings]
        applied += run.applied
        if run.text != current:
            origin = _compose_origins(origin, _line_origins(current, run.text))
            current, tree = run.text, None
        index = run.next_index
    if current == text:
        return Ported(data, text, text, tuple(applied), tuple(findings))
    return Ported(current.encode(encoding), text, current, tuple(applied), tuple(findings))


def _line_origins(before: str, after: str) -> List[int]:
    """For each line of ``after``, the 1-based line of ``before`` it comes from.

    An inserted or rewritten line maps to the start of the stretch it replaced, which
    is where a reader of the original file should look.
    """
    old, new = before.splitlines(), after.splitlines()
    origins: List[int] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            origins += range(i1 + 1, i2 + 1)
        else:
            origins += [min(i1 + 1, max(len(old), 1))] * (j2 - j1)
    return origins


def _compose_origins(first: Optional[List[int]], second: List[int]) -> List[int]:
    if first is None:
        return second
    return [_original_line(first, line) for line in second]


def _original_line(origin: Optional[List[int]], line: int) -> int:
    if origin is None or line <= 0:
        return line
    return origin[min(line, len(origin)) - 1] if origin else line


def atomic_write(path: Path, data: bytes, mode: int) -> None:
    """Replace ``path`` with ``data`` so readers see the old or the new file, never half.

    Args:
      path: the file to write (its directory must exist).
      data: the new content.
      mode: permission bits to give the new file.

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
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


def _failed(job: Job, reason: str, line: Optional[int] = None) -> FileResult:
    return FileResult(path=job.display, status=FAILED, error=reason, error_line=line)


def port_file(job: Job, settings: Settings) -> FileResult:
    """Port one Python file as ``job`` says; every problem becomes a failed FileResult."""
    try:
        data = job.source.read_bytes()
        mode = stat.S_IMODE(job.source.stat().st_mode)
    except OSError as error:
        return _failed(job, f"cannot read: {error.strerror or error}")
    ported = port_source(data, str(job.source), settings.codemods, settings.codemod_options,
                         settings.max_file_bytes)
    in_place = job.dest is not None and job.dest == job.source
    if ported.error is not None or ported.skipped is not None:
        if ported.error is not None:
            result = _failed(job, ported.error, ported.error_line)
        else:
            result = FileResult(path=job.display, status=SKIPPED, error=ported.skipped)
        if job.dest is not None and not in_place:
            # The ported tree must be runnable as a whole: carry the file over as is.
            result.output = _copy_or_none(job.source, job.dest)
        return result

    changed = ported.data != data
    result = FileResult(
        path=job.display,
        status=CHANGED if changed else UNCHANGED,
        codemods=list(ported.codemods),
        findings=list(ported.findings),
    )
    if settings.diff and changed:
        result.diff = unified_diff(ported.before, ported.after, job.display)
    if job.dest is None:
        return result
    try:
        if in_place:
            if changed:
                if not mode & stat.S_IWUSR:
                    return _failed(job, "file is read-only, not modified; make it writable "
                                        "(chmod u+w) or write a ported copy with --out DIR")
                atomic_write(job.dest, ported.data, mode)
                result.output = str(job.dest)
        elif changed:
            atomic_write(job.dest, ported.data, mode)
            result.output = str(job.dest)
        else:
            shutil.copy2(job.source, job.dest)
            result.output = str(job.dest)
    except OSError as error:
        return _failed(job, f"cannot write {error.filename or job.dest}: "
                            f"{error.strerror or error}")
    return result


def _copy_or_none(source: Path, dest: Path) -> Optional[str]:
    try:
        shutil.copy2(source, dest)
    except OSError:
        return None
    return str(dest)


def _size_or_zero(job: Job) -> int:
    try:
        return job.source.stat().st_size
    except OSError:
        return 0  # port_file reports why it cannot be read


def _place(job: Job) -> Optional[FileResult]:
    """Do a mkdir/remove/copy/symlink job; a FileResult only when it failed."""
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
        return _failed(job, f"cannot {action}: {error.strerror or error}")
    return None


def run(the_plan: Plan, settings: Settings, jobs: int = 1,
        on_done: Callable[[FileResult], None] = lambda result: None) -> RunResult:
    """Carry out ``the_plan``.

    Args:
      the_plan: from ``plan``.
      settings: codemods, their options, write/diff.
      jobs: worker processes for the Python files; 1 ports them in this process.
        Never more processes than files.
      on_done: called with each Python file's result as it completes (progress).

    Returns:
      RunResult with results sorted by path.
    """
    results: List[FileResult] = list(the_plan.skipped)
    copied = 0
    for job in the_plan.jobs:
        if job.kind == PORT:
            continue
        failure = _place(job)
        if failure is not None:
            results.append(failure)
        elif job.kind == COPY:
            copied += 1

    python_jobs = the_plan.python_jobs
    if jobs <= 1 or len(python_jobs) <= 1:
        for job in python_jobs:
            result = port_file(job, settings)
            on_done(result)
            results.append(result)
    else:
        workers = min(jobs, len(python_jobs))
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            # Largest first, so that no big file is left running alone at the end.
            futures = {pool.submit(port_file, job, settings): job
                       for job in sorted(python_jobs, key=_size_or_zero, reverse=True)}
            for future in concurrent.futures.as_completed(futures):
                try:
                    result = future.result()
                except concurrent.futures.process.BrokenProcessPool:
                    # A worker was killed (out of memory, a signal): every file it
                    # and the pool still held is reported, none is half-written.
                    result = _failed(futures[future], "the worker process porting it died "
                                     "(killed, or out of memory); the file is whole, as it "
                                     "was or ported if its write had finished; run again, "
                                     "with -j 1 to use one process")
                on_done(result)
                results.append(result)
    results.sort(key=lambda result: result.path)
    return RunResult(results, copied)
