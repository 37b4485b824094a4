"""Which directories a tree's code expects on sys.path, read from how it imports itself.

An ``__init__.py`` says little: research/slim has one at its root, yet every one of
its scripts does ``from nets import nets_factory``, which works only with the
slim directory itself on sys.path. So the roots are read from the evidence:

- every absolute import in the tree that names a file of the tree
  (``from nets import nets_factory`` -> ``nets/nets_factory.py``) says the
  directory above that path is a root, and that the directories on the path
  (``nets/``) are packages; an import of a standard-library name is not read (the
  root it would show would shadow the standard library's module);
- a relative import says the importing file's directory is a package;
- ``setup.py``'s ``package_dir={'': 'src'}`` / ``find_packages('src')`` names a root.

A directory used as a package is never a root (``import good`` inside package
``pkg`` is a Python 2 implicit relative import, not a sign that ``pkg`` is on
sys.path). Of the rest, as few roots as explain every import are chosen, the one
explaining most first. The tree's own directory comes last (its parent when the
evidence says the tree is itself a package), so a file no import names is still
found the way ``python file.py`` from the tree would find it.
"""
import ast
import dataclasses
import os
import re
import sys
from typing import Dict, Iterable, Iterator, List, Sequence, Set, Tuple

from slimport.verify import sources

_INIT = "__init__.py"
_DOTTED = re.compile(r"^[A-Za-z_][\w.]*$|^\*$")
# An import statement at the start of a line: ``from .a.b import (c,\n d)`` or
# ``import a.b as c, d``.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
    r"|import[ \t]+([^\n#;]*))", re.MULTILINE)


@dataclasses.dataclass
class _Evidence:
    """One import of the tree's own code: where it is and the roots it resolves from."""

    path: str
    offset: int
    roots: Set[str]

    def shown(self, top: str) -> str:
        """``file:line `statement``` for a reason."""
        line = (sources.text_of(self.path) or "").count("\n", 0, self.offset) + 1
        return (f"{os.path.relpath(self.path, top)}:{line} "
                f"`{sources.line_of(self.path, line)}`")


@dataclasses.dataclass(frozen=True)
class Root:
    """A sys.path root and why it was chosen."""

    path: str
    reason: str


def _suffix_index(top: str, files: Iterable[str]) -> Dict[str, Set[str]]:
    """``a/b.py`` -> the directories D (the tree's and its parent) with D/a/b.py a file."""
    parent = os.path.dirname(top)
    index: Dict[str, Set[str]] = {}
    for path in files:
        parts = os.path.relpath(path, parent).split(os.sep)
        for start in range(len(parts)):
            root = os.path.join(parent, *parts[:start])
            index.setdefault("/".join(parts[start:]), set()).add(root)
    return index


def _module_paths(dotted: str) -> Tuple[str, str]:
    relative = dotted.replace(".", "/")
    return f"{relative}.py", f"{relative}/{_INIT}"


def _names_of(clause: str) -> List[str]:
    """``a.b as x, c`` (or ``(a, b)``) -> ["a.b", "c"]."""
    names = []
    for item in clause.strip().strip("()").replace("\\\n", " ").split(","):
        words = item.split()
        if words and _DOTTED.match(words[0]):
            names.append(words[0])
    return names


def _imports(text: str) -> Iterator[Tuple[int, int, List[str]]]:
    """(offset, relative level, dotted names each may load) of every import in ``text``.

    Read off the text, not a parse: this runs before the fork server may start, on
    every file, and a line-anchored match costs a tenth of a parse. ``from a import
    b`` may load ``a`` and ``a.b``; a relative import has no names (its level says the
    file's directory is a package).
    """
    for match in _IMPORT.finditer(text):
        dots, module, names, plain = match.groups()
        if plain is not None:
            yield match.start(), 0, _names_of(plain)
        elif dots:
            yield match.start(), len(dots), []
        elif module:
            yield match.start(), 0, [module] + [f"{module}.{name}" for name in _names_of(names)
                                                if name != "*"]


def _package_of(path: str, level: int) -> str:
    directory = os.path.dirname(path)
    for _ in range(level - 1):
        directory = os.path.dirname(directory)
    return directory


def _read_imports(path: str, index: Dict[str, Set[str]],
                  packages: Set[str]) -> List[_Evidence]:
    found = []
    for offset, level, dotted_names in _imports(sources.text_of(path) or ""):
        if level:
            packages.add(_package_of(path, level))
            continue
        roots: Set[str] = set()
        for dotted in dotted_names:
            parts = dotted.split(".")
            if parts[0] in sys.stdlib_module_names:
                # ``import random`` is the standard library's, even in a tree that has
                # a package of that name somewhere (TensorFlow's _api/v2/random).
                continue
            for candidate in _module_paths(dotted):
                for root in index.get(candidate, ()):
                    roots.add(root)
                    # Every directory between the root and the module is a package.
                    packages.update(os.path.join(root, *parts[:depth])
                                    for depth in range(1, len(parts) + (
                                        candidate.endswith(_INIT))))
        if roots:
            found.append(_Evidence(path, offset, roots))
    return found


def _setup_roots(top: str) -> List[Root]:
    """Roots ``setup.py`` names: ``package_dir={'': DIR}`` or ``find_packages(DIR)``."""
    tree = sources.parsed(os.path.join(top, "setup.py"))
    if tree is None:
        return []
    named = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        callee = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(
            call.func, "id", "")
        for keyword in call.keywords:
            if keyword.arg == "package_dir" and isinstance(keyword.value, ast.Dict):
                for key, value in zip(keyword.value.keys, keyword.value.values):
                    if (isinstance(key, ast.Constant) and key.value == ""
                            and isinstance(value, ast.Constant)):
                        named.append((value.value, f"setup.py: package_dir={{'': "
                                                   f"{value.value!r}}}"))
        if callee in ("find_packages", "find_namespace_packages"):
            where = [k.value for k in call.keywords if k.arg == "where"] + call.args[:1]
            if where and isinstance(where[0], ast.Constant) and where[0].value not in (".", ""):
                named.append((where[0].value, f"setup.py: {callee}({where[0].value!r})"))
    roots = []
    for relative, reason in named:
        path = os.path.realpath(os.path.join(top, str(relative)))
        if os.path.isdir(path) and path.startswith(top):
            roots.append(Root(path, reason))
    return roots


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _from(root: str, top: str) -> str:
    if root == top:
        return "here"
    if root == os.path.dirname(top):
        return "the tree's parent directory (the tree is a package)"
    return os.path.relpath(root, top)


def _chosen_from_imports(evidence: List[_Evidence], packages: Set[str],
                         top: str) -> List[Root]:
    usable = [item for item in evidence if item.roots - packages]
    chosen: List[Root] = []
    while usable:
        counts: Dict[str, List[_Evidence]] = {}
        for item in usable:
            for root in item.roots - packages:
                counts.setdefault(root, []).append(item)
        # The root that explains most imports; on a tie, the one nearest the top.
        root, explained = max(counts.items(),
                              key=lambda pair: (len(pair[1]), -pair[0].count(os.sep)))
        example = explained[0]
        chosen.append(Root(root, (
            f"{_plural(len(explained), 'import')} of the tree's own modules name them from "
            f"{_from(root, top)}, e.g. {example.shown(top)}")))
        usable = [item for item in usable if root not in item.roots]
    return chosen


def infer(top: str, files: Sequence[str], read: Sequence[str],
          given: Sequence[str] = ()) -> List[Root]:
    """The sys.path roots of a tree, most specific first, each with the reason.

    Args:
      top: the tree's directory (absolute, real).
      files: every Python file of the tree (what an import may find).
      read: the files whose imports count (the ones verify checks).
      given: the ``--path`` roots (absolute), which come first.

    Returns:
      The roots: ``--path`` ones, then those setup.py names, then those the
      imports need (deepest first), then the tree's own directory (or its parent
      when the tree is a package by its imports).
    """
    index = _suffix_index(top, files)
    packages: Set[str] = set()
    evidence = [item for path in read for item in _read_imports(path, index, packages)]
    roots = [Root(path, "given with --path") for path in given]
    roots += _setup_roots(top)
    inferred = _chosen_from_imports(evidence, packages, top)
    roots += sorted(inferred, key=lambda root: (-root.path.count(os.sep), root.path))
    if top in packages:
        own = Root(os.path.dirname(top), "the tree's parent directory (the tree is a package: "
                   "its modules import each other relatively)")
    else:
        own = Root(top, "the tree's own directory")
    roots.append(own)
    unique: Dict[str, Root] = {}
    for root in roots:
        unique.setdefault(root.path, root)
    return list(unique.values())

