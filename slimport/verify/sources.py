"""The files of a tree, read and parsed once per verify run.

Both the choice of sys.path roots (roots.py) and the call-time name check
(names.py) read every module's imports; a real tree's 300 files take about a
second to parse, which neither should pay twice.
"""
import ast
import functools
from typing import Optional

from slimport.codemods._names import parse_source


@functools.lru_cache(maxsize=None)
def text_of(path: str) -> Optional[str]:
    """The file's text (undecodable bytes replaced), or None when it cannot be read."""
    try:
        with open(path, "rb") as source_file:
            return source_file.read().decode("utf-8", errors="replace")
    except OSError:
        return None


@functools.lru_cache(maxsize=None)
def parsed(path: str) -> Optional[ast.Module]:
    """The file's stdlib ``ast``, or None when it does not parse as Python 3."""
    text = text_of(path)
    if text is None:
        return None
    try:
        return parse_source(text)
    except (SyntaxError, ValueError):
        return None


def line_of(path: str, lineno: int) -> str:
    """Line ``lineno`` (1-based) of the file, stripped; "" when there is none."""
    lines = (text_of(path) or "").splitlines()
    return lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
