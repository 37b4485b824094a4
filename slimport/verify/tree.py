"""The modules of a ported tree: their import names, sys.path roots and entry scripts.

A module's import name is read off the tree the way Python would find it: from a
sys.path root down through directories that hold an ``__init__.py``. The roots are
the ``--path`` directories (e.g. facenet's ``src``, which its scripts expect on
sys.path), then those the tree's own imports and setup.py show (roots.py: research/slim's
``from nets import nets_factory`` puts the slim directory itself on sys.path, root
``__init__.py`` or not), then the tree itself. A file is named from the deepest root
that reaches it, which is how the code imports it (``models.inception_resnet_v1``
under ``facenet/src``, not ``facenet.src.models.inception_resnet_v1``). A file no
root reaches through packages is named as ``python file.py`` would see it: from the
directory above its outermost package.
"""
import ast
import dataclasses
import fnmatch
import os
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set

from slimport.engine.plan import not_walked
from slimport.verify import roots as roots_lib, sources

_INIT = "__init__.py"
_IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
# How an entry script reads its command line. absl (and TF1's tf.app.flags, absl
# underneath) stops at --helpfull, argparse at --help; a script that uses neither
# is not run: it might start its work. ``app.run(`` alone is no sign of absl: a
# Flask app's ``app.run()`` starts a web server.
_ABSL_FLAGS = re.compile(
    rb"\babsl\b|\bDEFINE_\w+\(|\bflags\.FLAGS\b|\b(tf|tensorflow)\.app\.run\("
    rb"|from\s+tensorflow[\w.]*\s+import\s+[^\n]*\bapp\b")
_ARGPARSE = re.compile(rb"\bargparse\b|\boptparse\b")


@dataclasses.dataclass(frozen=True)
class Module:
    """One Python file of the tree and how to import it.

    Attributes:
      name: the dotted import name (``nets.lenet``); a file whose name is not an
        identifier (``my-script.py``) keeps its stem and is loaded from its path.
      root: the sys.path entry ``name`` is relative to (absolute).
      path: the file (absolute).
      relpath: the file relative to the tree, for messages.
      entry_script: it has a module-level ``if __name__ == "__main__":``.
      help_option: for an entry script, the option that makes it print its flags
        and exit (``--helpfull`` for absl / TF flags, ``--help`` for argparse);
        None when it reads its command line with neither.
    """
    name: str
    root: str
    path: str
    relpath: str
    entry_script: bool = False
    help_option: Optional[str] = None

    @property
    def importable_by_name(self) -> bool:
        return all(_IDENTIFIER.match(part) for part in self.name.split("."))


@dataclasses.dataclass(frozen=True)
class Tree:
    """A ported tree: where it is, its sys.path roots and its modules.

    Attributes:
      top: the tree's directory (absolute).
      roots: sys.path roots, most specific first: the ``--path`` directories in
        the order given, then the roots the tree's imports show, then the tree's
        own root.
      modules: every module under ``top`` that is not excluded, sorted by path.
      reasons: why each root was chosen (root -> reason).
      unported: tree-relative paths of the files ``slimport rewrite`` would still
        change (filled by the run once its dry run is done).
    """
    top: str
    roots: List[str]
    modules: List[Module]
    reasons: Dict[str, str] = dataclasses.field(default_factory=dict)
    unported: Set[str] = dataclasses.field(default_factory=set)

    def contains(self, path: str) -> bool:
        """True when ``path`` is a file of the tree or of one of its roots."""
        absolute = os.path.abspath(path)
        return any(_is_within(absolute, base) for base in [self.top] + self.roots)

    def relative(self, path: str) -> str:
        """``path`` relative to the tree (absolute when it is outside)."""
        absolute = os.path.abspath(path)
        if _is_within(absolute, self.top):
            return os.path.relpath(absolute, self.top)
        return absolute

    def top_level_names(self) -> List[str]:
        """The first component of every module name: what the tree defines on sys.path."""
        return sorted({module.name.split(".")[0] for module in self.modules})


def _is_within(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)


def _is_package(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, _INIT))


def _name_under(root: str, path: str) -> Optional[str]:
    """The import name of ``path`` with ``root`` on sys.path, or None if unreachable."""
    if not _is_within(path, root) or path == root:
        return None
    parts = os.path.relpath(path, root).split(os.sep)
    directory = root
    for part in parts[:-1]:
        directory = os.path.join(directory, part)
        if not _is_package(directory):
            return None
    stem = parts[-1][:-len(".py")]
    if stem == "__init__":
        return ".".join(parts[:-1]) or None
    return ".".join(parts[:-1] + [stem])


def _script_root(path: str) -> str:
    """The directory above the outermost package holding ``path``."""
    directory = os.path.dirname(path)
    while _is_package(directory) and os.path.dirname(directory) != directory:
        directory = os.path.dirname(directory)
    return directory


def _entry_script(path: str) -> bool:
    """True for a module-level ``if __name__ == "__main__":`` (either operand order)."""
    if "__main__" not in (sources.text_of(path) or ""):
        return False
    tree = sources.parsed(path)
    for statement in tree.body if tree is not None else ():
        if isinstance(statement, ast.If) and isinstance(statement.test, ast.Compare):
            operands = [statement.test.left] + list(statement.test.comparators)
            spelled = {(type(o).__name__, getattr(o, "id", getattr(o, "value", None)))
                       for o in operands}
            if {("Name", "__name__"), ("Constant", "__main__")} <= spelled:
                return True
    return False


def _help_option(path: str) -> Optional[str]:
    with open(path, "rb") as source_file:
        source = source_file.read()
    if _ABSL_FLAGS.search(source):
        return "--helpfull"
    return "--help" if _ARGPARSE.search(source) else None


def _python_files(top: str) -> Iterable[str]:
    for directory, subdirectories, files in os.walk(top):
        # What `slimport rewrite` leaves out (VCS metadata, virtualenvs, ...) is not
        # part of the ported tree either.
        subdirectories[:] = sorted(
            name for name in subdirectories
            if not_walked(Path(directory) / name) is None)
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(directory, name)


def discover(top: str, paths: Sequence[str] = (), excludes: Sequence[str] = ()) -> Tree:
    """Finds every module of a ported tree and the name to import it by.

    Args:
      top: the tree's directory.
      paths: extra sys.path roots (``--path``), relative to ``top`` or absolute.
      excludes: glob patterns of tree-relative file paths to leave out
        (``*_test.py``).

    Returns:
      The Tree.

    Raises:
      ValueError: ``top`` or a ``--path`` directory does not exist.
    """
    top = os.path.realpath(top)
    if not os.path.isdir(top):
        raise ValueError(f"{top}: not a directory")
    roots = []
    for path in paths:
        root = os.path.realpath(os.path.join(top, path))
        if not os.path.isdir(root):
            raise ValueError(f"--path {path}: {root} is not a directory")
        roots.append(root)
    files = list(_python_files(top))
    checked = [path for path in files if not any(
        fnmatch.fnmatch(os.path.relpath(path, top), pattern) for pattern in excludes)]
    chosen = roots_lib.infer(top, files, checked, roots)
    roots = [root.path for root in chosen]

    modules = []
    for path in checked:
        named = [(root, _name_under(root, path)) for root in roots]
        named = [(root, name) for root, name in named if name]
        if named:
            root, name = max(named, key=lambda pair: len(pair[0]))
        else:
            root = _script_root(path)
            name = _name_under(root, path)
        entry = _entry_script(path)
        modules.append(Module(
            name=name, root=root, path=path, relpath=os.path.relpath(path, top),
            entry_script=entry, help_option=_help_option(path) if entry else None))
    return Tree(top=top, roots=roots, modules=modules,
                reasons={root.path: root.reason for root in chosen})
