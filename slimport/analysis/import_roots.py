"""Where Python can see a module from: a tree's import roots, and which reach which.

A fact about "the tree" (does it define a method ``iteritems``? does it use pandas?)
is only a fact about the code a module can meet. A module meets its own import root
and what that root imports. An import root is a top-level package (the directory
above which no ``__init__.py`` goes on: everything in it can import everything else
in it), or, outside packages, a folder's loose modules (scripts import the modules
beside them, since a script's folder is ``sys.path[0]``). A root reaches the roots its
modules import, and what those reach in turn: its *scope*. The roots connected to it by
imports either way are its *component*: what can run in one process with it (one Keras
for all of them). Two projects ported as one tree keep apart unless one imports the
other; a sub-folder ported alone sees what it
sees inside the whole tree, as long as the engine reads the rest of its root from disk
(``slimport.engine.facts``).

Imports are read off each line's text (``import a.b``, ``from a.b import c``): a
module name in a string or comment counts too, which only makes a scope larger and
the facts more careful. An absolute import is looked up where Python would find it:
under the importing root's own ``sys.path`` entry (a package's parent directory, a
folder of scripts itself), then, failing that, as a top-level package or module of
another root of the tree (a project that puts its neighbour's folder on ``sys.path``:
object detection's ``from nets import ...`` is research/slim's).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

from slimport.analysis.per_text import per_text

INIT = "__init__.py"
_SUFFIX = ".py"

# ``from <dots><module> import <names>`` or ``import <modules>``, at the start of a line.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*\(?[ \t]*([\w \t,]*)"
    r"|import[ \t]+([\w.][\w. \t,]*))", re.MULTILINE)


@dataclass(frozen=True, order=True)
class Root:
    """One import root: a top-level package's directory, or a folder of loose modules.

    Attributes:
      path: the directory, absolute.
      package: True for a top-level package, False for a folder's loose modules (its
        sub-folders are roots of their own).
    """

    path: str
    package: bool

    @property
    def base(self) -> str:
        """The ``sys.path`` entry its modules are imported from."""
        return os.path.dirname(self.path) if self.package else self.path

    def holds(self, filename: str) -> bool:
        """Whether ``filename`` (absolute) is one of this root's modules."""
        if self.package:
            return filename.startswith(self.path + os.sep)
        return os.path.dirname(filename) == self.path

    def __str__(self) -> str:
        return f"{self.path}{os.sep}" if self.package else \
            f"{os.path.join(self.path, '*.py')}"


def root_of(filename: str, is_file: Callable[[str], bool] = os.path.isfile) -> Root:
    """The import root a Python file belongs to.

    Args:
      filename: the file's absolute path.
      is_file: whether a path is a file (the engine's answers, or the file system's).

    Returns:
      The top-level package it is in: above the nearest directory with an
      ``__init__.py`` (a folder without one inside a package is a namespace package of
      it), the highest of the unbroken line of them; or its folder, when no directory
      above it is a package.
    """
    folder = os.path.dirname(filename)
    directory = folder
    while not is_file(os.path.join(directory, INIT)):
        parent = os.path.dirname(directory)
        if parent == directory:
            return Root(folder, package=False)
        directory = parent
    while True:
        parent = os.path.dirname(directory)
        if parent == directory or not is_file(os.path.join(parent, INIT)):
            return Root(directory, package=True)
        directory = parent


@per_text
def imports_in(text: str) -> Tuple[Tuple[int, str, Tuple[str, ...]], ...]:
    """The imports a module's text spells, one per module named.

    Args:
      text: the module's source.

    Returns:
      ``(level, module, names)``: the dots of a relative import, the dotted module
      (empty for ``from . import x``) and, for ``from ... import``, the names imported.
    """
    found: List[Tuple[int, str, Tuple[str, ...]]] = []
    for match in _IMPORT.finditer(text):
        if match[4] is not None:
            for alias in match[4].split(","):
                words = alias.split()
                if words:
                    found.append((0, words[0], ()))
            continue
        names = tuple(words[0] for words in (alias.split() for alias in match[3].split(","))
                      if words and words[0] != "*")
        found.append((len(match[1]), match[2], names))
    return tuple(found)


class ImportRoots:
    """The roots of a set of Python files, what each imports, and each root's scope.

    Args:
      texts: absolute path -> text of every Python file whose facts count (the
        run's files and the rest of the roots they are in).
      is_file: whether a path is a file, for looking imports up outside ``texts``.
      is_dir: whether a path is a directory (namespace packages).
    """

    def __init__(self, texts: Mapping[str, str],
                 is_file: Callable[[str], bool] = os.path.isfile,
                 is_dir: Callable[[str], bool] = os.path.isdir) -> None:
        self._files = set(texts)
        self._is_file_on_disk = is_file
        self._is_dir = is_dir
        self.files_of: Dict[Root, List[str]] = {}
        for filename in sorted(texts):
            self.files_of.setdefault(root_of(filename, self._is_file), []).append(filename)
        # Top-level module names -> the roots that provide one of that name.
        self._by_name: Dict[str, Set[Root]] = {}
        for root, files in self.files_of.items():
            names = [os.path.basename(root.path)] if root.package else \
                [os.path.basename(name)[:-len(_SUFFIX)] for name in files]
            for name in names:
                self._by_name.setdefault(name, set()).add(root)
        self.imported: Dict[Root, FrozenSet[Root]] = {
            root: frozenset(self._imported_roots(root, files, texts))
            for root, files in self.files_of.items()}
        self._scopes: Dict[Root, FrozenSet[Root]] = {}
        # The roots that import each root.
        self._importers: Dict[Root, Set[Root]] = {}
        for root, imported in self.imported.items():
            for other in imported:
                self._importers.setdefault(other, set()).add(root)
        self._components: Dict[Root, FrozenSet[Root]] = {}

    def _is_file(self, path: str) -> bool:
        return path in self._files or self._is_file_on_disk(path)

    def root_of(self, filename: str) -> Root:
        """The root of a file (of ``texts`` or not).

        Args:
          filename: an absolute path.

        Returns:
          Its Root.
        """
        return root_of(filename, self._is_file)

    def scope(self, root: Root) -> FrozenSet[Root]:
        """The roots whose code a module of ``root`` can meet: itself and what it
        imports, transitively.

        Args:
          root: a root of the files given.

        Returns:
          The roots, ``root`` among them.
        """
        known = self._scopes.get(root)
        if known is None:
            known = self._scopes[root] = _reached(
                root, lambda current: self.imported.get(current, ()))
        return known

    def component(self, root: Root) -> FrozenSet[Root]:
        """The roots that can run in one process with ``root``: those it imports and
        those that import it, transitively, in either direction.

        Args:
          root: a root of the files given.

        Returns:
          The roots, ``root`` among them.
        """
        known = self._components.get(root)
        if known is None:
            known = _reached(root, lambda current: (*self.imported.get(current, ()),
                                                    *self._importers.get(current, ())))
            for member in known:
                self._components[member] = known
        return known

    def _imported_roots(self, root: Root, files: Iterable[str],
                        texts: Mapping[str, str]) -> Set[Root]:
        """The other roots the modules of ``root`` import."""
        found: Set[Root] = set()
        for filename in files:
            for level, module, names in imports_in(texts[filename]):
                if level or not module:
                    continue  # relative: inside the file's own package, its own root
                found |= self._roots_providing(root, module, names)
        found.discard(root)
        return found

    def _roots_providing(self, root: Root, module: str, names: Tuple[str, ...]) -> Set[Root]:
        """Where ``import module`` (``from module import names``) in ``root`` finds it."""
        parts = module.split(".")
        here = self._resolve(root.base, parts, names)
        if here is not None:
            return {here}
        return set(self._by_name.get(parts[0], ()))

    def _resolve(self, base: str, parts: List[str], names: Tuple[str, ...]) -> Optional[Root]:
        """The root of the module ``parts`` under the ``sys.path`` entry ``base``, if it
        is there: a package, a module of a folder, or a module of a namespace package."""
        directory = base
        for part in [*parts, *names[:1]]:
            if self._is_file(os.path.join(directory, part, INIT)):
                return Root(os.path.join(directory, part), package=True)
            if self._is_file(os.path.join(directory, part + _SUFFIX)):
                return Root(directory, package=False)
            if not self._is_dir(os.path.join(directory, part)):
                return None
            directory = os.path.join(directory, part)  # a namespace package
        return None


def _reached(start: Root, neighbours: Callable[[Root], Iterable[Root]]) -> FrozenSet[Root]:
    """``start`` and every root its ``neighbours`` lead to, transitively."""
    reached = {start}
    pending = [start]
    while pending:
        for other in neighbours(pending.pop()):
            if other not in reached:
                reached.add(other)
                pending.append(other)
    return frozenset(reached)
