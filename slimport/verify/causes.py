"""Failures whose cause is the tree's build, data or environment, not the port.

Each was once counted as "fails" on a real tree: an extension the tree compiles
when imported (EAST's lanms runs ``make``), one built against NumPy 1.x, a
module that globs its data set at import and indexes what it found, a script
that starts a web server. Each verdict here rests on evidence: the error's
text, and the failing file's own code.
"""
import ast
import os
import re
from typing import Dict, Optional, Sequence, Tuple

from slimport.analysis.names import bound_names, nested_statements
from slimport.verify import sources
from slimport.verify.kinds import BLOCKED, IMPORT_WORK, Verdict
from slimport.verify.tree import Tree

Frame = Tuple[str, int, str]

# What NumPy says when an extension compiled against NumPy 1.x is loaded by NumPy 2.
_NUMPY_ABI = re.compile(
    r"compiled using NumPy 1\.x|numpy\.core\.multiarray failed to import|_ARRAY_API not "
    r"found|numpy\.dtype size changed|binary incompatibility")
# A build command run from Python: subprocess or os.system calling make and friends.
_BUILD_COMMAND = re.compile(
    r"(subprocess\.\w+|os\.system|os\.popen|check_call|check_output|call)\s*\(\s*"
    r"(\[\s*)?['\"](make|cmake|g\+\+|gcc|nvcc|python[\d.]*\s+setup\.py|bash\s+make)\b")
_SERVER_OUTPUT = re.compile(r"Running on http|Serving Flask app|Address already in use|"
                            r"Uvicorn running|Starting server on")
# Calls that read the file system: what a module that "globs its data at import" does.
_READS_FILES = frozenset({
    "glob", "iglob", "listdir", "scandir", "walk", "Glob", "ListDirectory", "read_csv",
    "loadtxt", "loadmat", "imread", "load", "open", "GFile", "FastGFile", "exists",
})
_DATA_ERRORS = frozenset({"IndexError", "StopIteration", "KeyError", "ValueError",
                          "ZeroDivisionError", "TypeError"})
_BUILD_ERRORS = frozenset({"RuntimeError", "CalledProcessError", "FileNotFoundError",
                           "OSError", "SystemExit"})
_EXTENSION_SOURCES = (".pyx", ".pxd", ".c", ".cc", ".cpp", ".cu", ".so")


def _numpy_abi(error: Dict[str, object], frame: Optional[Frame]) -> Optional[Verdict]:
    if not _NUMPY_ABI.search(str(error.get("message", ""))):
        return None
    statement = f" (`{frame[2].strip()}`)" if frame and frame[2] else ""
    return Verdict(BLOCKED, f"a compiled extension{statement} was built against NumPy 1.x and "
                   "this is NumPy 2: a version mismatch, not the port",
                   "rebuild the extension against this NumPy (its own build step), or run "
                   "where numpy<2 is installed (TensorFlow 2.15's environment)")


def _compiles_at_import(error: Dict[str, object], frames: Sequence[Frame],
                        tree: Tree) -> Optional[Verdict]:
    """The failing tree file (or one it came through) runs a compiler when imported."""
    if error["type"] not in _BUILD_ERRORS:
        return None
    for path, _, _ in reversed(frames):
        if not tree.contains(path):
            continue
        text = sources.text_of(path) or ""
        command = _BUILD_COMMAND.search(text)
        if command:
            summary = f"{error['type']}: {str(error.get('message', '')).strip()[:200]}"
            return Verdict(BLOCKED, f"{tree.relative(path)} builds a C/C++ extension when "
                           f"imported (`{command.group(3)}`) and the build failed here: {summary}",
                           "build it by hand with a compiler and this Python's headers (the "
                           "tree's own Makefile / setup.py); the tree or the toolchain, not "
                           "the port")
    return None


def _callee(node: ast.Call) -> str:
    return node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
        node.func, "id", "")


def _reads_files(node: ast.AST) -> bool:
    return any(isinstance(call, ast.Call) and _callee(call) in _READS_FILES
               for call in ast.walk(node))


def _fails_on_data_read(path: str, line: int) -> Optional[int]:
    """The line of module-level code that read the file system and whose result the
    module-level statement at ``line`` uses (or that statement itself); else None."""
    tree = sources.parsed(path)
    if tree is None:
        return None
    from_reads: Dict[str, int] = {}
    for statement in nested_statements(tree.body, into_definitions=False):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        inside = statement.lineno <= line <= (statement.end_lineno or statement.lineno)
        if inside and not any(isinstance(child, ast.stmt)
                              for child in ast.iter_child_nodes(statement)):
            if _reads_files(statement):
                return statement.lineno
            used = {node.id for node in ast.walk(statement) if isinstance(node, ast.Name)}
            return next((from_reads[name] for name in used if name in from_reads), None)
        if statement.lineno < line and _reads_files(statement):
            for name in bound_names(statement, walrus=False):
                from_reads[name] = statement.lineno
    return None


def _data_at_import(check: str, error: Dict[str, object],
                    frame: Optional[Frame]) -> Optional[Verdict]:
    """Module-level code read the file system, then failed on what it found."""
    if check not in ("import", "script") or error["type"] not in _DATA_ERRORS or frame is None:
        return None
    # The failing statement must be module-level code of its file, not a function's.
    here = [f for f in error.get("frames", []) if f[0] == frame[0] and f[1] == frame[1]]
    if not here or here[-1][2] != "<module>":
        return None
    read_at = _fails_on_data_read(frame[0], frame[1])
    if read_at is None:
        return None
    message = str(error.get("message", "")).strip().splitlines()
    return Verdict(IMPORT_WORK, f"reads its data when imported (line {read_at}) and fails on "
                   f"what it found here: {error['type']}: {message[0] if message else ''}")


def environment(check: str, error: Dict[str, object], frame: Optional[Frame],
                frames: Sequence[Frame], tree: Tree) -> Optional[Verdict]:
    """The verdict for a failure the tree's build, data or environment causes, else None.

    Args:
      check: "import", "script" or "build".
      error: the failure as checks.describe gives it.
      frame: the failing statement (file, line, source).
      frames: the traceback's frames (file, line, source), outermost first.
      tree: the tree.

    Returns:
      The verdict, or None when the evidence does not show such a cause.
    """
    return (_numpy_abi(error, frame) or _compiles_at_import(error, frames, tree)
            or _data_at_import(check, error, frame))


def server(check: str, output: str) -> Optional[Verdict]:
    """A script that started a web server when run: not a port failure.

    Args:
      check: the check that ran.
      output: what it printed.

    Returns:
      The verdict, or None.
    """
    if check == "script" and _SERVER_OUTPUT.search(output or ""):
        return Verdict(IMPORT_WORK, "starts a server when run (it reads no flags to print): "
                       "not run further")
    return None


def extension_not_built(name: str, tree: Tree) -> Optional[Verdict]:
    """``No module named a.b.c`` where the tree holds the sources of a compiled ``a.b.c``.

    Args:
      name: the missing module's dotted name (``utils.cython_bbox``).
      tree: the tree.

    Returns:
      The verdict, or None when no directory of the tree holds extension sources for it.
    """
    *package, stem = name.split(".")
    for root in [tree.top] + tree.roots:
        directory = os.path.join(root, *package)
        if not package or not os.path.isdir(directory):
            continue
        built_from = sorted(entry for entry in os.listdir(directory)
                            if entry.endswith(_EXTENSION_SOURCES))
        if built_from:
            mine = [entry for entry in built_from if entry.startswith(stem)] or built_from
            return Verdict(BLOCKED, f"{name} is a compiled extension of the tree, not built here "
                           f"({tree.relative(directory)}/ holds {', '.join(mine[:3])})",
                           "build it with the tree's own build step (its setup.py build_ext "
                           "or Makefile); the tree's build, not the port")
    return None
