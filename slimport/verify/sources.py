"""The files of a tree, read once per verify run, and parsed where a reader needs it.

The entry-script test (tree.py), the sys.path roots (roots.py), the call-time name
check (names.py) and the failure causes (causes.py) all read the same files.
"""
import ast
import functools
from typing import Optional

from slimport.analysis.names import parse_source


@functools.lru_cache(maxsize=None)
def text_of(path: str) -> Optional[str]:
    """The file's text (undecodable bytes replaced), or None when it cannot be read."""
    try:
        with open(path, "rb") as source_file:
            return source_file.read().decode("utf-8", errors="replace")
    except OSError:
        return None


def parsed(path: str) -> Optional[ast.Module]:
    """The file's stdlib ``ast``, or None when it does not parse as Python 3.

    Not kept: a 300-file tree's trees take hundreds of MB, and the collector would
    walk every node kept on each full collection; each reader parses what it reads.
    """
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
