"""The bad-input table of issue 6: one row per input, run through the real CLI.

Each row is a small tree with one bad (or unusual) input next to a file that does
need porting, run in place with ``--report``. Every row checks the exit code, the
message on stderr (path:line and what to do), that the bad input is byte-identical
when it was not ported, the report entry, and that the good file was still ported.

Rows already proven elsewhere are not repeated here (see the table in
tests/reliability/README.md): ``print "x"`` and undecodable bytes
(tests/slimport/test_cli.py::test_unparsable_files_exit_2_and_others_are_ported),
CRLF / BOM / coding line (::test_crlf_bom_and_coding_line_survive), symlinks out of
the tree (::test_symlink_outside_tree_is_skipped), non-Python files under --out
(::test_out_copies_tree_keeps_modes_and_never_touches_source).
"""
from __future__ import annotations

import ast
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Union

import pytest

from slimport import codemods as registry
from slimport import engine

NEEDS_PORT = "import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d\n"
GOOD = "good.py"


@dataclass(frozen=True)
class Row:
    """One bad input: the files to create and what the run must report about ``path``.

    ``message`` is the text stderr must contain, with ``{path}`` for the bad file's
    path as the CLI prints it; ``status`` its report status (None: not in the report,
    e.g. files in skipped directories); ``untouched`` whether its bytes must survive.
    """

    files: Dict[str, Union[str, bytes]]
    path: str
    exit_code: int
    status: Optional[str]
    message: str = ""
    error_line: Optional[int] = None
    untouched: bool = True
    mode: int = 0o644


TF_HEAD = b"import tensorflow as tf\nslim = tf.contrib.slim\n"


def _long_sum(terms: int) -> bytes:
    """Generated code: ``x = tf.a + tf.a + ...`` with ``terms`` terms."""
    return TF_HEAD + ("x = " + " + ".join(["tf.a"] * terms) + "\n").encode()


PYTHON2_FIX = ("this is Python 2 code: port it to Python 3 first (e.g. `2to3 -w FILE`, "
               "shipped with Python up to 3.12), then run slimport again")
TOO_DEEP = ("; e.g. a very long `a + b + ...` expression, as generated code has); left "
            "untouched: split the expression or port this file by hand")


def _generated_module(size: int) -> bytes:
    """A generated-looking table module of at least ``size`` bytes that mentions TF."""
    row = b"    (%07d, 'label_%07d', 0.5),\n"  # fixed width: the size comes out exact
    rows = b"".join(row % (i, i) for i in range(size // len(row % (0, 0)) + 1))
    return TF_HEAD + b"TABLE = [\n" + rows + b"]\n"


ROWS = {
    "syntax_error": Row(
        {"broken.py": TF_HEAD + b"def f(:\n    pass\n"}, "broken.py", 2, "failed",
        "{path}:3: does not parse: invalid syntax", error_line=3),
    "python2_except_comma": Row(
        # libcst's grammar accepts this form; CPython's does not, so it must fail.
        {"py2.py": TF_HEAD + b"try:\n    pass\nexcept ValueError, e:\n    pass\n"},
        "py2.py", 2, "failed",
        "{path}:5: does not parse: multiple exception types must be parenthesized",
        error_line=5),
    "python2_print_and_except": Row(
        {"py2.py": TF_HEAD + b"print 'step'\ntry:\n    pass\nexcept ValueError, e:\n    pass\n"},
        "py2.py", 2, "failed", "{path}:3: does not parse: Missing parentheses", error_line=3),
    # Every file is checked by CPython's parser, whether or not it mentions TensorFlow.
    "python2_without_tensorflow": Row(
        {"py2.py": b"import os\nprint 'no TensorFlow here'\n"}, "py2.py", 2, "failed",
        "{path}:2: does not parse: Missing parentheses in call to 'print'. Did you mean "
        "print(...)? \u2014 " + PYTHON2_FIX, error_line=2),
    "syntax_error_without_tensorflow": Row(
        {"broken.py": b"def f(:\n    pass\n"}, "broken.py", 2, "failed",
        "{path}:1: does not parse: invalid syntax", error_line=1),
    "expression_too_deep_for_a_codemod": Row(
        {"deep.py": _long_sum(400)}, "deep.py", 2, "failed",
        "{path}: nested too deeply for libcst (RecursionError in codemod "),
    "expression_too_deep_for_libcst": Row(
        # Where libcst's recursion gives up (a codemod's walk, code generation) varies.
        {"deep.py": _long_sum(1000)}, "deep.py", 2, "failed",
        "{path}: nested too deeply for libcst (RecursionError"),
    "expression_too_deep_for_cpython": Row(
        {"deep.py": _long_sum(3000)}, "deep.py", 2, "failed",
        "{path}: nested too deeply for CPython's parser (RecursionError: maximum recursion "
        "depth exceeded during ast construction" + TOO_DEEP),
    "libcst_cannot_round_trip": Row(
        # libcst gives this back without "# a": nothing it produces may be written.
        {"lossy.py": TF_HEAD + b"def f(): g()\n    # a\n    # b\n"}, "lossy.py", 2, "failed",
        "{path}:4: libcst cannot round-trip it: it would change line 4", error_line=4),
    "latin1_without_coding_line": Row(
        {"latin.py": TF_HEAD + b"# caf\xe9\n"}, "latin.py", 2, "failed",
        "{path}:3: cannot be decoded as utf-8 (byte 0xe9); declare its encoding",
        error_line=3),
    "unknown_coding_line": Row(
        {"enc.py": b"# -*- coding: klingon -*-\n" + TF_HEAD}, "enc.py", 2, "failed",
        "{path}:1: bad encoding declaration: unknown encoding: klingon; name a Python codec",
        error_line=1),
    "null_byte": Row(
        {"nul.py": TF_HEAD + b"x = 1\x00\n"}, "nul.py", 2, "failed",
        "{path}:3: does not parse", error_line=3),
    "inconsistent_tabs": Row(
        {"tabs.py": TF_HEAD + b"if True:\n\tx = 1\n        y = 2\n"}, "tabs.py", 2, "failed",
        "{path}:5: does not parse: inconsistent use of tabs and spaces", error_line=5),
    "tabs_ported": Row(
        {"tabs.py": TF_HEAD + b"if True:\n\tnet = slim.conv2d\n\tnet = slim.fully_connected\n"},
        "tabs.py", 0, "changed", untouched=False),
    "empty_file": Row({"empty.py": b""}, "empty.py", 0, "unchanged"),
    "bom_only": Row({"bom.py": b"\xef\xbb\xbf"}, "bom.py", 0, "unchanged"),
    "five_megabyte_generated_file": Row(
        {"table.py": _generated_module(5 << 20)}, "table.py", 0, "skipped",
        "{path}: 5 MB is over the 1 MB limit for porting; probably generated. "
        "Port it anyway with --max-size 0"),
    "read_only_file": Row(
        {"locked.py": NEEDS_PORT}, "locked.py", 2, "failed",
        "{path}: file is read-only, not modified; make it writable (chmod u+w)", mode=0o444),
    "directory_named_x_py": Row(
        {"x.py/inner.py": NEEDS_PORT}, "x.py/inner.py", 0, "changed", untouched=False),
    "executable_with_shebang": Row(
        {"run.py": "#!/usr/bin/env python\n" + NEEDS_PORT}, "run.py", 0, "changed",
        untouched=False, mode=0o755),
    "git_dir_skipped": Row({".git/hooks/hook.py": NEEDS_PORT}, ".git/hooks/hook.py", 0, None),
    "pycache_skipped": Row({"__pycache__/m.py": NEEDS_PORT}, "__pycache__/m.py", 0, None),
    # A folder named venv is code; a virtualenv has a pyvenv.cfg (test_virtualenv_...).
    "folder_named_venv_is_ported": Row({"venv/lib/m.py": NEEDS_PORT}, "venv/lib/m.py", 0,
                                       "changed", untouched=False),
    "any_virtualenv_skipped": Row(
        {"env3/pyvenv.cfg": "home = /usr/bin\n", "env3/lib/m.py": NEEDS_PORT},
        "env3/lib/m.py", 0, None),
}


@pytest.mark.parametrize("row", ROWS.values(), ids=list(ROWS))
def test_bad_input(row: Row, slimport_cli, tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {**row.files, GOOD: NEEDS_PORT})
    bad = src / row.path
    bad.chmod(row.mode)
    before = bad.read_bytes()
    result = slimport_cli("rewrite", "src", "--report", "report.json")
    shown = os.path.join("src", row.path)

    assert result.returncode == row.exit_code, result.stderr
    if row.message:
        assert row.message.format(path=shown) in result.stderr, result.stderr
    if row.untouched:
        assert bad.read_bytes() == before
    else:
        after = bad.read_bytes()
        assert b"contrib" not in after
        ast.parse(after)
    assert stat.S_IMODE(bad.stat().st_mode) == row.mode
    assert "contrib" not in (src / GOOD).read_text(), "the other file must still be ported"
    assert not [p for p in src.rglob("*") if p.name.endswith(".slimport-tmp")]

    entries = {f["path"]: f for f in json.loads((tmp_path / "report.json").read_text())["files"]}
    if row.status is None:
        assert shown not in entries
    else:
        entry = entries[shown]
        assert entry["status"] == row.status, entry
        assert entry["error_line"] == row.error_line, entry
        if row.status in ("failed", "skipped"):
            assert entry["error"] and entry["error"] in result.stderr


def test_oversized_file_is_copied_as_is_with_out(slimport_cli, tmp_path: Path,
                                                 make_tree) -> None:
    big = TF_HEAD + b"X = 1\n" * 40
    make_tree(tmp_path / "src", {"table.py": big, GOOD: NEEDS_PORT})
    result = slimport_cli("rewrite", "src", "--out", "ported", "--max-size", "100")
    assert result.returncode == 0, result.stderr
    too_big = f"{os.path.join('src', 'table.py')}: 287 bytes is over the 100 bytes limit"
    assert too_big in result.stderr
    assert (tmp_path / "ported" / "table.py").read_bytes() == big
    assert "contrib" not in (tmp_path / "ported" / GOOD).read_text()


def test_max_size_zero_ports_a_large_file(tmp_path: Path) -> None:
    data = TF_HEAD + b"X = 1\n" * 40
    job = engine.Job(engine.PORT, tmp_path / "t.py", "t.py", None)
    job.source.write_bytes(data)
    codemods = tuple(registry.CODEMODS)
    limited = engine.port_file(job, engine.PortSettings(codemods, max_file_bytes=64,
                                                        write=False))
    unlimited = engine.port_file(job, engine.PortSettings(codemods, max_file_bytes=0,
                                                          write=False))
    # A dry run (--check / --diff) cannot pass a TF1 file it did not port.
    assert limited.status == "failed" and "probably needs porting" in limited.error
    assert unlimited.status == "changed"
    written = engine.port_file(job, engine.PortSettings(codemods, max_file_bytes=64))
    assert written.status == "skipped"


def test_virtualenv_is_not_walked_and_is_reported(slimport_cli, tmp_path: Path,
                                                  make_tree) -> None:
    make_tree(tmp_path / "src", {"env3/pyvenv.cfg": "home = /usr/bin\n",
                                 "env3/lib/m.py": NEEDS_PORT, GOOD: NEEDS_PORT})
    result = slimport_cli("rewrite", "src", "--out", "ported", "--report", "report.json")
    assert result.returncode == 0, result.stderr
    shown = os.path.join("src", "env3")
    message = "a virtualenv (has pyvenv.cfg); not walked or copied"
    assert f"Skipped (1):\n  {shown}: {message}\n" in result.stderr
    entries = {f["path"]: f for f in json.loads((tmp_path / "report.json").read_text())["files"]}
    assert (entries[shown]["status"], entries[shown]["error"]) == ("skipped", message)
    assert not (tmp_path / "ported" / "env3").exists()


@pytest.mark.parametrize("mode", [[], ["--out", "ported"], ["--check"], ["--diff"]],
                         ids=["in-place", "out", "check", "diff"])
def test_fifo_named_like_python_is_skipped_not_read(mode, slimport_cli, tmp_path: Path,
                                                    make_tree) -> None:
    src = make_tree(tmp_path / "src", {GOOD: NEEDS_PORT})
    os.mkfifo(src / "x.py")
    # Reading the FIFO would block this run forever: the timeout bounds the test.
    result = slimport_cli("rewrite", "src", *mode, timeout=60)
    assert result.returncode == (1 if mode in (["--check"], ["--diff"]) else 0), result.stderr
    assert f"{os.path.join('src', 'x.py')}: a FIFO, not a regular file; not read" \
        in result.stderr
    named_mode = ["--out", "ported_one"] if mode[:1] == ["--out"] else mode
    named = slimport_cli("rewrite", "src/x.py", *named_mode, timeout=60)
    assert named.returncode == 0, named.stderr
    assert "a FIFO, not a regular file; not read" in named.stderr
