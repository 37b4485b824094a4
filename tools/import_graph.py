"""Which of the distribution's packages imports which: the arrows of the house.

Usage: python tools/import_graph.py [--root DIR]

Every import of every module is read with the stdlib ``ast``, wherever it stands
(module level or inside a function, ``import x``, ``from x import y``, relative
imports, and ``importlib.import_module("x")`` / ``__import__("x")`` with a string),
and each is reduced to the top-level package it reaches. The output lists, for
each package of the distribution, the others it imports, and then whether any
arrow points up: the tool (``slimport``) may import the shared facts
(``slim_facts``); the runtime (``slim_ext``) may import the facts and never the
tool; the facts import nothing but the standard library. Exit status 1 when an
arrow points up. docs/architecture.md shows this output;
tests/test_import_graph.py checks the same rules import by import.
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Set

ROOT = Path(__file__).resolve().parents[1]
# Top to bottom: each package may import only packages below it.
LAYERS = (
    ("slimport", "the tool: rewrite, verify"),
    ("slim_ext", "the runtime ported code imports"),
    ("slim_facts", "facts both read: plain data, standard library only"),
)
ALLOWED = {
    "slimport": {"slim_facts"},
    "slim_ext": {"slim_facts"},
    "slim_facts": set(),
}
_IMPORTING_CALLS = {"import_module", "__import__"}


@dataclass(frozen=True)
class Import:
    """One import found in a file: where it stands and the module it names."""

    path: Path
    line: int
    module: str

    @property
    def package(self) -> str:
        return self.module.split(".")[0]


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve_relative(node: ast.ImportFrom, path: Path, root: Path) -> str:
    """The absolute module a ``from .x import y`` in ``path`` names."""
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package.pop()
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _called_name(call: ast.Call) -> Optional[str]:
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    if isinstance(function, ast.Name):
        return function.id
    return None


def imports_of(path: Path, root: Path = ROOT) -> Iterator[Import]:
    """Every module ``path`` imports, in source order of the statements.

    Args:
      path: a Python file under ``root``.
      root: the directory the packages are in (relative imports resolve from it).

    Returns:
      An Import for each ``import`` name, each ``from ... import`` (the module, and
      the module plus name when that may be a submodule) and each importing call
      with a literal string.
    """
    tree = ast.parse(path.read_bytes(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(path, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            module = _resolve_relative(node, path, root) if node.level else node.module or ""
            yield Import(path, node.lineno, module)
            for alias in node.names:
                if alias.name != "*":
                    yield Import(path, node.lineno, f"{module}.{alias.name}")
        elif isinstance(node, ast.Call) and _called_name(node) in _IMPORTING_CALLS:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield Import(path, node.lineno, first.value)


def python_files(package: str, root: Path = ROOT) -> List[Path]:
    """The ``.py`` files of ``package`` (a directory under ``root``), sorted."""
    return sorted((root / package).rglob("*.py"))


def package_imports(package: str, root: Path = ROOT) -> List[Import]:
    """Every import in every module of ``package``."""
    return [found for path in python_files(package, root) for found in imports_of(path, root)]


def graph(root: Path = ROOT) -> Dict[str, Set[str]]:
    """Package -> the distribution's other packages it imports."""
    ours = {name for name, _ in LAYERS}
    return {name: {found.package for found in package_imports(name, root)
                   if found.package in ours and found.package != name}
            for name, _ in LAYERS}


def upward(edges: Dict[str, Set[str]]) -> List[str]:
    """The arrows ``ALLOWED`` forbids, as ``a -> b``."""
    return [f"{source} -> {target}" for source, targets in edges.items()
            for target in sorted(targets - ALLOWED[source])]


def render(edges: Dict[str, Set[str]]) -> str:
    """The graph as text, top layer first."""
    width = max(len(name) for name, _ in LAYERS)
    targets = {name: ", ".join(sorted(edges[name])) or "nothing of ours" for name, _ in LAYERS}
    target_width = max(len(text) for text in targets.values())
    lines = [f"{name:<{width}}  imports {targets[name]:<{target_width}}  ({role})"
             for name, role in LAYERS]
    wrong = upward(edges)
    lines.append("arrows pointing up: " + (", ".join(wrong) if wrong else "none"))
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the directory holding the packages (default: this checkout)")
    args = parser.parse_args(argv)
    edges = graph(args.root)
    print(render(edges))
    return 1 if upward(edges) else 0


if __name__ == "__main__":
    sys.exit(main())
