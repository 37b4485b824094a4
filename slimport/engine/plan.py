"""Walk the PATHs the user gave and decide what to do with every entry.

``plan`` makes the decisions before anything is written: port a Python file, copy
another file into ``--out``, recreate a symlink or a directory there, remove a temp
file an interrupted in-place run left, or skip the path and say why. Everything a
run will write to is checked here too (``--out``, ``--report``), so a refusal
comes before the first file changes.

What is never walked: version control metadata, bytecode caches and directories
tagged as caches by a ``CACHEDIR.TAG`` (slimport's own among them; named only with
``-v``), installed packages (virtualenvs, found by their ``pyvenv.cfg`` or
``conda-meta``, ``.tox``, ``.nox``, ``node_modules``: reported as skipped), paths
matching ``--exclude``, and symlinks, which are recreated under ``--out`` when
they point inside the tree and reported when they point outside it. Only regular
files are read: a FIFO named ``x.py`` is reported, not opened.
"""
from __future__ import annotations

import fnmatch
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from slimport.engine.cache import is_cache_dir
from slimport.output.results import SKIPPED, FileResult
from slimport.analysis.source_tree import PYTHON_SUFFIX, SourceTree, tree_path

PORT = "port"
COPY = "copy"
SYMLINK = "symlink"
MKDIR = "mkdir"
REMOVE = "remove"

# atomic_write's temp files are ".<name>.<random>" + this suffix. One survives only
# when a run was killed between writing it and renaming it over <name>.
TEMP_SUFFIX = ".slimport-tmp"

# Directories that never hold code to port, by name.
_METADATA_DIRS = {".git": "version control metadata", ".hg": "version control metadata",
                  ".svn": "version control metadata", "__pycache__": "bytecode cache"}
# Directories of installed packages, by name (virtualenvs are found by their marker).
_PACKAGE_DIRS = {".tox": "tox environments", ".nox": "nox environments",
                 "node_modules": "npm packages"}


class UsageError(Exception):
    """The command line asks for something the engine must refuse (exit code 2)."""


@dataclass(frozen=True)
class Job:
    """One entry of the plan.

    ``dest`` is where the result goes: the source itself (or, for a symlink named
    on the command line, the file it points to) in place, a path under ``--out``
    otherwise, None when nothing is written (``--diff`` / ``--check``).
    """

    kind: str
    source: Path
    display: str
    dest: Optional[Path]
    link_target: str = ""
    in_place: bool = False


@dataclass
class Plan:
    """Everything ``run`` will do, and the paths it will not touch."""

    jobs: List[Job] = field(default_factory=list)
    skipped: List[FileResult] = field(default_factory=list)
    # (path, why) of directories left out that hold no code (``-v`` lists them).
    not_walked: List[Tuple[str, str]] = field(default_factory=list)
    # (path, the --exclude glob it matched).
    excluded: List[Tuple[str, str]] = field(default_factory=list)
    # Every directory, Python file and symlink walked (``source_tree.tree_path``).
    tree_paths: Set[str] = field(default_factory=set)

    @property
    def python_jobs(self) -> List[Job]:
        return [job for job in self.jobs if job.kind == PORT]

    @property
    def source_tree(self) -> SourceTree:
        """The tree's paths: what the engine's pre-pass gathers the tree facts from."""
        return SourceTree(frozenset(self.tree_paths))


def file_kind(mode: int) -> str:
    """``a FIFO``, ``a socket``, ``a device``, ... for an ``st_mode``."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "a regular file" if stat.S_ISREG(mode) else "a special file"


def _is_within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def not_walked(path: Path) -> Optional[Tuple[str, bool]]:
    """Why directory ``path`` is left out, and whether to report it; None: walk it."""
    name = path.name
    if name in _METADATA_DIRS:
        return _METADATA_DIRS[name], False
    if name.endswith(".egg-info"):
        return "package metadata", False
    if name in _PACKAGE_DIRS:
        return _PACKAGE_DIRS[name], True
    if (path / "pyvenv.cfg").is_file():
        return "a virtualenv (has pyvenv.cfg)", True
    if (path / "conda-meta").is_dir():
        return "a conda environment (has conda-meta/)", True
    if is_cache_dir(path):
        return "a cache (has CACHEDIR.TAG)", False
    return None


def _matching_glob(relative: Path, shown: Path, globs: Sequence[str]) -> Optional[str]:
    """The first ``--exclude`` glob matching a path: a glob with a '/' is matched
    against the path (from the PATH given, or as shown), one without against the name."""
    for glob in globs:
        pattern = glob.rstrip("/")
        if "/" in pattern:
            if fnmatch.fnmatchcase(relative.as_posix(), pattern) \
                    or fnmatch.fnmatchcase(shown.as_posix(), pattern):
                return glob
        elif fnmatch.fnmatchcase(shown.name, pattern):
            return glob
    return None


def _skip(plan: Plan, path: Path, reason: str) -> None:
    plan.skipped.append(FileResult(path=str(path), status=SKIPPED, error=reason))


def _walk(root: Path, dest_root: Optional[Path], out_mode: bool, exclude: Sequence[str],
          plan: Plan) -> None:
    """Add every entry under directory ``root`` to ``plan``.

    ``dest_root`` is where ``root``'s files go (``root`` itself in place, None when
    nothing is written); ``out_mode`` means it is an --out copy, so every other file,
    directory and in-tree symlink is recreated there too.
    """
    real_root = Path(os.path.realpath(root))
    not_copied = " or copied" if out_mode else ""
    pending = [Path()]
    while pending:
        relative = pending.pop()
        here = root / relative
        plan.tree_paths.add(tree_path(here))
        if out_mode:
            # Before the entries: a symlink is made in a directory that exists.
            plan.jobs.append(Job(MKDIR, here, str(here), dest_root / relative))
        try:
            with os.scandir(here) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as error:
            _skip(plan, here, f"cannot list it: {error.strerror or error}; not walked")
            continue
        subdirs = []
        for entry in entries:
            full, inner = here / entry.name, relative / entry.name
            dest = dest_root / inner if dest_root is not None else None
            glob = _matching_glob(inner, full, exclude)
            if glob is not None:
                plan.excluded.append((str(full), glob))
            elif entry.is_symlink():
                # A linked SDK folder is the tree's, whether or not --out recreates it.
                plan.tree_paths.add(tree_path(full))
                _plan_symlink(full, real_root, inner, dest_root, out_mode, plan)
            elif entry.is_dir(follow_symlinks=False):
                left_out = not_walked(full)
                if left_out is None:
                    subdirs.append(inner)
                elif left_out[1]:
                    _skip(plan, full, f"{left_out[0]}; not walked{not_copied}")
                else:
                    plan.not_walked.append((str(full), left_out[0]))
            elif entry.is_file(follow_symlinks=False):
                _plan_regular_file(entry.name, full, dest, out_mode, plan)
            elif entry.name.endswith(PYTHON_SUFFIX) or out_mode:
                kind = file_kind(entry.stat(follow_symlinks=False).st_mode)
                _skip(plan, full, f"{kind}, not a regular file; not read{not_copied}")
        pending.extend(reversed(subdirs))


def _plan_regular_file(name: str, full: Path, dest: Optional[Path], out_mode: bool,
                       plan: Plan) -> None:
    if name.startswith(".") and name.endswith(TEMP_SUFFIX):
        # Left by an interrupted in-place run: never ported or copied; an in-place
        # run removes it (the file it was to replace is ported again).
        if dest is not None and not out_mode:
            plan.jobs.append(Job(REMOVE, full, str(full), full))
    elif name.endswith(PYTHON_SUFFIX):
        plan.tree_paths.add(tree_path(full))
        in_place = dest is not None and not out_mode
        plan.jobs.append(Job(PORT, full, str(full), dest, in_place=in_place))
    elif out_mode:
        plan.jobs.append(Job(COPY, full, str(full), dest))


def _target_in_tree(link: Path, real_root: Path, relative: Path) -> Optional[Path]:
    """Where symlink ``link`` (at ``relative`` under the tree) points, under
    ``real_root``; None when that is outside the tree.

    Read from the link's text first, so a link to a link, or a loop, is recreated
    as it is; then from the file system (an absolute path through a symlinked
    directory).
    """
    spelled = Path(os.path.normpath(real_root / relative.parent / os.readlink(link)))
    if _is_within(spelled, real_root):
        return spelled
    try:
        resolved = link.resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, or a loop (RuntimeError before 3.13)
        return None
    return resolved if _is_within(resolved, real_root) else None


def _plan_symlink(link: Path, real_root: Path, relative: Path, dest_root: Optional[Path],
                  out_mode: bool, plan: Plan) -> None:
    """Symlinks are never followed: one pointing outside the tree is reported skipped;
    one inside it is recreated under --out (as a relative link) and left alone in place."""
    target = _target_in_tree(link, real_root, relative)
    if target is None:
        _skip(plan, link, f"symlink to {os.readlink(link)} points outside the tree; "
                          f"not followed")
    elif out_mode:
        link_target = os.path.relpath(target, real_root / relative.parent)
        plan.jobs.append(Job(SYMLINK, link, str(link), dest_root / relative, link_target))


def _plan_named_file(path: Path, dest: Optional[Path], out: Optional[Path],
                     plan: Plan) -> None:
    """A file named on the command line: ported whatever its suffix (scripts without
    .py); a symlink is followed (in place, the file it points to is rewritten)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        mode = stat.S_IFREG  # port_file reports why it cannot be read
    if not stat.S_ISREG(mode):
        _skip(plan, path, f"{file_kind(mode)}, not a regular file; not read")
        return
    plan.tree_paths.add(tree_path(path))
    if out is not None:
        plan.jobs.append(Job(MKDIR, path, str(path), out))
    elif dest is not None and path.is_symlink():
        dest = Path(os.path.realpath(path))
    plan.jobs.append(Job(PORT, path, str(path), dest, in_place=dest is not None and out is None))


def make_plan(paths: Sequence[Path], out: Optional[Path] = None, write: bool = True,
         force: bool = False, exclude: Sequence[str] = ()) -> Plan:
    """Decide what to do with every entry under ``paths``.

    Args:
      paths: files and directories as the user gave them.
      out: the --out directory, or None to port in place.
      write: False for --diff / --check (nothing is written; ``out`` must be None).
      force: allow --out to be a non-empty directory.
      exclude: globs of files and directories to leave out (see ``_matching_glob``).

    Returns:
      The Plan. With one directory PATH, --out mirrors it (OUT/<relative path>);
      otherwise each PATH lands at OUT/<its name>.

    Raises:
      UsageError: --out with ``write`` False, a PATH does not exist, --out lies inside
        a source directory or would overwrite a source file, --out is a non-empty
        directory without ``force`` or cannot be created, or two PATHs would land at
        the same place.
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
        glob = _matching_glob(path, path, exclude)
        if glob is not None:
            result.excluded.append((str(path), glob))
        elif path.is_dir():
            _walk(path, dest_root, out is not None, exclude, result)
        else:
            _plan_named_file(path, dest_root, out, result)
    return result


def _nearest_existing(path: Path) -> Path:
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _writable_directory(directory: Path) -> Optional[str]:
    """None if a file can be created in ``directory``, else why not."""
    try:
        descriptor, probe = tempfile.mkstemp(dir=directory, prefix=".slimport-probe-")
    except OSError as error:
        return error.strerror or str(error)
    os.close(descriptor)
    os.unlink(probe)
    return None


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
    existing = _nearest_existing(out)
    problem = "not a directory" if not existing.is_dir() else _writable_directory(existing)
    if problem is not None:
        raise UsageError(f"--out {out}: cannot create files in {existing}: {problem}")


def check_report_path(report: Path, plan: Plan, out: Optional[Path]) -> None:
    """Refuse a ``--report`` path that cannot be written, before anything is.

    Raises:
      UsageError: it is a directory or a file being ported, or its directory does
        not exist (and is not inside ``out``, which the run creates) or is not
        writable.
    """
    if report.is_dir():
        raise UsageError(f"--report {report} is a directory; name a file, e.g. "
                         f"--report {report / 'port.json'}")
    real = os.path.realpath(report)
    if any(os.path.realpath(job.source) == real for job in plan.python_jobs):
        raise UsageError(f"--report {report} is a file being ported; name a new file, "
                         f"e.g. --report port.json")
    directory = Path(os.path.abspath(report)).parent
    if out is not None and _is_within(directory, Path(os.path.abspath(out))):
        return
    if not directory.is_dir():
        raise UsageError(f"--report {report}: directory {directory} does not exist; "
                         f"create it first or choose another path")
    problem = _writable_directory(directory)
    if problem is not None:
        raise UsageError(f"--report {report}: cannot write in {directory}: {problem}")
