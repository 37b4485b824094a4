"""Is this file's text something the codemods can be given? Decoding and CPython's check.

Every file is decoded with its own encoding (BOM, ``coding:`` line) and checked
with CPython's parser first, whether or not a codemod applies: a file that does not
parse does not run either, and the user hears about it, with the line and, for
Python 2 code, what to do. The messages for what cannot be ported (too deep for a
parser, too large) live here too.
"""
from __future__ import annotations

import ast
import re
import sys
import warnings
from typing import Optional, Tuple

# PEP 263's pattern for an encoding declaration.
_CODING_DECLARATION = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")

# CPython's messages for Python 2 syntax, and Python 2 forms on the line it
# rejects that it reports only as "invalid syntax" or "invalid decimal literal".
_PYTHON2_MESSAGES = (
    "Missing parentheses in call to 'print'",
    "Missing parentheses in call to 'exec'",
    "multiple exception types must be parenthesized",
    "leading zeros in decimal integer literals are not permitted",
)
_PYTHON2_LINE = re.compile(
    r"`|<>|\bur['\"]|^\s*raise\s+[\w.]+\s*,|\b\d+[lL]\b|^\s*exec\s+['\"\w]"
)
PYTHON2_FIX = ("this is Python 2 code: port it to Python 3 first (e.g. `2to3 -w FILE`, "
               "shipped with Python up to 3.12), then run slimport again")
TOO_DEEP = ("nested too deeply for {who} (RecursionError{where}; e.g. a very long "
            "`a + b + ...` expression, as generated code has); left untouched: split the "
            "expression or port this file by hand")


def _line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def python_parse(data: bytes, filename: str) -> Tuple[Optional[ast.Module],
                                                      Optional[Tuple[str, Optional[int]]]]:
    """The stdlib ``ast`` of ``data``, or the reason and line this Python rejects it.

    Every file is checked, not only those a codemod applies to: a file that does not
    parse does not run either, and the user should hear about it. libcst's grammar
    also accepts some Python 2 forms (``except E, e:``), and CPython's message is
    the clearer one (``Missing parentheses in call to 'print'``). The tree is what
    the skeletons are cut from.
    """
    try:
        with warnings.catch_warnings():
            # "'int' object is not callable" and the like: the user's business, not ours.
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = compile(data, filename, "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except SyntaxError as error:
        reason = f"does not parse: {error.msg}"
        if _looks_like_python2(data, error):
            reason += f" \u2014 {PYTHON2_FIX}"
        return None, (reason, error.lineno or _null_byte_line(data))
    except ValueError as error:  # null bytes, on some Python versions
        return None, (f"does not parse: {error}", _null_byte_line(data))
    except RecursionError as error:
        return None, (TOO_DEEP.format(who="CPython's parser", where=f": {error}"), None)
    if sys.version_info < (3, 11) and _deeper_than(tree, _DEEPEST_TREE):
        # 3.10's parser has no nesting limit: libcst then spends minutes on such a
        # tree and can crash the process. 3.10 cannot compile it either.
        return None, (TOO_DEEP.format(who="CPython's parser", where=(
            f": more than {_DEEPEST_TREE:,} levels, which Python 3.10 cannot compile "
            "and 3.11's parser refuses")), None)
    return tree, None


# About what CPython 3.11's parser refuses (a 3,000-term sum), and 3.10's compiler.
_DEEPEST_TREE = 3000


def _deeper_than(tree: ast.AST, limit: int) -> bool:
    """Whether ``tree`` nests more than ``limit`` nodes deep (no recursion: it may)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return False


def _looks_like_python2(data: bytes, error: SyntaxError) -> bool:
    if error.msg.startswith(_PYTHON2_MESSAGES):
        return True
    lines = data.splitlines()
    if not error.lineno or error.lineno > len(lines):
        return False
    return bool(_PYTHON2_LINE.search(lines[error.lineno - 1].decode("utf-8", "replace")))


def _null_byte_line(data: bytes) -> Optional[int]:
    offset = data.find(b"\0")
    return _line_of_offset(data, offset) if offset >= 0 else None


def libcst_error(parse_error: Exception) -> Tuple[str, Optional[int]]:
    """Reason and line for code CPython accepts but libcst cannot parse."""
    line = getattr(parse_error, "editor_line", None)
    message = getattr(parse_error, "message", str(parse_error))
    return f"libcst cannot parse it: {message}", line


def decode_failure(data: bytes, error: Exception) -> Tuple[str, Optional[int]]:
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


def size_text(size: int) -> str:
    """``5.0 MB``, ``1 MB``, ``12 KB``, ``100 bytes``."""
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"
