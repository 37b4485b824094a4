"""Top-level statements' texts cut from the source (slimport.engine.statement_texts): where a
cut is made, each text is libcst's code of its statement and the texts make up the file;
where a boundary is not certain, no cut is made."""
from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import List

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings

from slimport.analysis.lines import code_of_nodes
from slimport.engine import skeleton, statement_texts

REPO = Path(__file__).resolve().parents[2]
# (A module of comments alone has no statement to cut.)
EXAMPLE_FILES = sorted(path for path in (REPO / "examples").rglob("*.py")
                       if "__pycache__" not in path.parts and ast.parse(path.read_text()).body)
sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic_tree  # noqa: E402  (benchmarks/ is not a package)

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

SHAPES = [
    # Comments and blank lines before, between, inside and after blocks, the header
    # and the footer; decorators with comments between them; ``a; b``; a one-line block.
    "#!/usr/bin/env python\n# header\n\n\"\"\"Doc.\"\"\"\nimport os  # same line\n\n\n"
    "# leading\n@dec  # d\n# between\n@other(1,\n       2)\ndef f(x):\n  return x\n\n"
    "  # indented after\n\n# column 0 after\nclass C:\n  a = 1\n\n\n  # in\n\n"
    "x = 1; y = 2\nif x: y = 3\nz = (1 +\n     2)\ns = '''a\nb'''\n# footer\n\n",
    # A decorated definition whose decorator starts a line after the "@" is not cut.
    "x = 1\n@(\n    dec)\ndef f():\n  pass\n",
    # Nor "a; \" continued on the next line (two ast statements, one libcst line).
    "a = 1; \\\n  b = 2\nc = 3\n",
    # Nor a simple statement continued by a backslash onto a blank or a comment line.
    "x = (1 +\n     2) \\\n\ny = 2\n",
    "x = 1 \\\n# c\ny = 2\n",
]


def _checked(text: str) -> bool:
    """Cut ``text``'s statements; when cut, check them against libcst's code (the file
    round-trips) and the file. Returns whether a cut was made."""
    module = cst.parse_module(text)
    found = statement_texts.cut(module, text, ast.parse(text))
    if found is None:
        return False
    assert module.code == text
    header = code_of_nodes(module, module.header)[0]
    footer = code_of_nodes(module, module.footer)[0]
    assert header + "".join(found.texts) + footer == text
    assert found.texts == [code_of_nodes(module, [statement])[0] for statement in module.body]
    lines: List[int] = []
    line = 1 + len(skeleton.source_lines(header))
    for statement_text in found.texts:
        lines.append(line)
        line += len(skeleton.source_lines(statement_text))
    assert found.starts == lines
    return True


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_the_shapes_of_statements_are_cut_or_left(newline: str) -> None:
    made = [_checked(text.replace("\n", newline)) for text in SHAPES]
    # libcst drops the last blank line of a CR file's footer: that footer is not its own.
    assert made == [newline != "\r", False, False, False, False]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_every_example_is_cut_exactly(path: Path) -> None:
    assert _checked(path.read_text())


def test_the_generated_corpus_is_cut_exactly() -> None:
    assert all(_checked(source.text) for source in synthetic_tree.corpus_files(20, seed=5)
               if ast.parse(source.text).body)


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hypothesmith.from_grammar())
def test_any_program_is_cut_exactly_or_left(source: str) -> None:
    try:
        module = cst.parse_module(source)
        tree = ast.parse(source)
    except (cst.ParserSyntaxError, SyntaxError, ValueError, RecursionError):
        return  # (the grammar's programs, not every one CPython or libcst takes)
    if module.code != source:
        return  # libcst does not round-trip it: the engine checks what it loses
    found = statement_texts.cut(module, source, tree)
    if found is not None:
        assert found.texts == [code_of_nodes(module, [statement])[0]
                               for statement in module.body]


def test_no_cut_without_a_final_line_break_or_with_a_byte_order_mark() -> None:
    for text in ("x = 1\ny = 2", "\ufeffx = 1\n"):
        tree = ast.parse(text.lstrip("\ufeff"))
        assert statement_texts.cut(cst.parse_module(text), text, tree) is None
