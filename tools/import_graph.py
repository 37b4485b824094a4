"""Which of the distribution's packages imports which: the arrows of the house, and
of the rooms of the tool.

Usage: python tools/import_graph.py [--root DIR]

Every import of every module is read with the stdlib ``ast``, wherever it stands
(module level or inside a function, ``import x``, ``from x import y``, relative
imports, and ``importlib.import_module("x")`` / ``__import__("x")`` with a string),
and each is reduced to the top-level package it reaches. The output lists, for
each package of the distribution, the others it imports, and then whether any
arrow points up: the tool (``slimport``) may import the shared facts
(``slim_facts``); the runtime (``slim_ext``) may import the facts and never the
tool; the facts import nothing but the standard library. Then the same for the
tool's sub-packages, which follow a port's flow: the command line (``cli``) drives
the engine, the engine runs the codemods, the codemods read the analysis and the
tables; no room imports one above it, and no module outside ``codemods`` imports a
private ``codemods._x`` module. Exit status 1 when an arrow points up.
docs/architecture.md shows this output; tests/tools/test_import_graph.py checks the
same rules import by import.
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
# The tool's rooms, top to bottom; each may import the rooms ROOM_ALLOWED names.
ROOMS = (
    ("cli", "the command line: arguments, settings, the subcommands"),
    ("verify", "slimport verify: import, build and look up a ported tree"),
    ("engine", "plan, pre-pass, run, one file's port, codemod passes, writes"),
    ("output", "results, summary, diffs, progress, the JSON and HTML reports"),
    ("codemods", "the registry, one codemod a file, their shared bases"),
    ("analysis", "names, scopes, findings, lines, TF-code reading"),
    ("tables", "TensorFlow, Keras and contrib API tables and their readers"),
)
ROOM_ALLOWED = {
    "cli": {"verify", "engine", "output", "codemods", "analysis", "tables"},
    "verify": {"engine", "output", "codemods", "analysis", "tables"},
    "engine": {"output", "codemods", "analysis", "tables"},
    "output": {"analysis"},
    "codemods": {"analysis", "tables"},
    "analysis": {"tables"},
    "tables": set(),
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


def room_of(module: str) -> Optional[str]:
    """The tool's room a dotted module name is in (``slimport.engine.plan`` -> engine);
    None for the tool's top module (its version) and for anything else."""
    parts = module.split(".")
    if parts[0] != "slimport" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in ROOM_ALLOWED else None


def room_graph(root: Path = ROOT) -> Dict[str, Set[str]]:
    """The tool's room -> the other rooms it imports."""
    edges: Dict[str, Set[str]] = {name: set() for name, _ in ROOMS}
    for name, _ in ROOMS:
        for found in package_imports(f"slimport/{name}", root):
            target = room_of(found.module)
            if target is not None and target != name:
                edges[name].add(target)
    return edges


def private_codemod_imports(root: Path = ROOT) -> List[Import]:
    """Imports of a private ``slimport.codemods._x`` module from outside ``codemods``."""
    return [found for found in package_imports("slimport", root)
            if room_of(found.module) == "codemods"
            and any(part.startswith("_") and not part.startswith("__")
                    for part in found.module.split(".")[2:3])
            and "codemods" not in found.path.relative_to(root).parts[:2]]


def module_cycles(package: str, root: Path = ROOT) -> List[List[str]]:
    """Import circles among the modules of ``package``, each as module names in import
    order (a module importing its own package's ``__init__`` is no circle).

    Args:
      package: a package directory under ``root``.
      root: the directory the packages are in.

    Returns:
      Each circle once, starting at its smallest name.
    """
    modules = {_module_name(path, root): path for path in python_files(package, root)}
    edges: Dict[str, Set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for found in imports_of(path, root):
            target = found.module
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                edges[name].add(target)
    circles: Set[tuple] = set()

    def walk(path: List[str]) -> None:
        for target in sorted(edges[path[-1]]):
            if target in path:
                circle = path[path.index(target):]
                start = circle.index(min(circle))
                circles.add(tuple(circle[start:] + circle[:start]))
            else:
                walk(path + [target])

    done: Set[str] = set()
    for name in sorted(modules):
        if name not in done:
            walk([name])
            done.add(name)
    return [list(circle) for circle in sorted(circles)]


def upward(edges: Dict[str, Set[str]], allowed: Dict[str, Set[str]] = ALLOWED) -> List[str]:
    """The arrows ``allowed`` forbids, as ``a -> b``."""
    return [f"{source} -> {target}" for source, targets in edges.items()
            for target in sorted(targets - allowed[source])]


def _table(edges: Dict[str, Set[str]], layers: Sequence[tuple], prefix: str = "") -> List[str]:
    width = max(len(prefix + name) for name, _ in layers)
    targets = {name: ", ".join(sorted(edges[name])) or "nothing of ours" for name, _ in layers}
    target_width = max(len(text) for text in targets.values())
    return [f"{prefix + name:<{width}}  imports {targets[name]:<{target_width}}  ({role})"
            for name, role in layers]


def render(edges: Dict[str, Set[str]], rooms: Optional[Dict[str, Set[str]]] = None,
           private: Sequence[Import] = ()) -> str:
    """The graphs as text, top layer first: the packages, then the tool's rooms."""
    lines = _table(edges, LAYERS)
    wrong = upward(edges)
    lines.append("arrows pointing up: " + (", ".join(wrong) if wrong else "none"))
    if rooms is not None:
        lines.append("")
        lines += _table(rooms, ROOMS, prefix="slimport/")
        wrong = upward(rooms, ROOM_ALLOWED)
        wrong += [f"{found.path.name} -> {found.module}" for found in private]
        lines.append("arrows pointing up: " + (", ".join(wrong) if wrong else "none"))
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the directory holding the packages (default: this checkout)")
    args = parser.parse_args(argv)
    edges = graph(args.root)
    rooms = room_graph(args.root) if (args.root / "slimport" / "engine").is_dir() else None
    private = private_codemod_imports(args.root) if rooms is not None else []
    print(render(edges, rooms, private))
    wrong = upward(edges) or (rooms is not None and upward(rooms, ROOM_ALLOWED)) or private
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
