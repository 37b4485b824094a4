"""Engine mechanics, in process, with tiny codemods defined here (not in the package)."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Dict, Optional

import libcst as cst
import pytest
from libcst.codemod import CodemodContext, SkipFile

from slimport import engine
from slimport.engine import jobs
from slimport.codemods.base import SlimportCodemod
from slimport.output.results import CHANGED, FAILED, SKIPPED, UNCHANGED
from slimport.analysis.findings import ATTENTION, EDIT, WARNING


class RenameOldApi(SlimportCodemod):
    NAME = "rename_old_api"
    DESCRIPTION = "old_api -> new_api"
    TRIGGERS = ("old_api",)
    NEW_NAME = "new_api"

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if updated_node.value != "old_api":
            return updated_node
        self.record_edit(original_node, f"old_api -> {self.NEW_NAME}")
        return updated_node.with_changes(value=self.NEW_NAME)


class ShortenOldApi(RenameOldApi):
    """old_api -> api: moves whatever follows the name on its line."""

    NAME = "shorten_old_api"
    DESCRIPTION = "old_api -> api"
    NEW_NAME = "api"


class SparseRename(RenameOldApi):
    """RenameOldApi on skeletons: needs no statement inside a function or class."""

    NAME = "sparse_rename"

    @classmethod
    def statement_filter(cls, tree, bindings):  # type: ignore[no-untyped-def]
        return lambda statement: False


class FlagNewApi(SlimportCodemod):
    """Only triggered by text RenameOldApi writes: proves later codemods see edits."""

    NAME = "flag_new_api"
    DESCRIPTION = "report new_api uses"
    TRIGGERS = ("new_api",)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == "new_api":
            self.needs_attention(node, "new_api is experimental", "pin its version")


class Crashing(SlimportCodemod):
    NAME = "crashing"
    DESCRIPTION = "always raises"
    TRIGGERS = ("boom",)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        raise RuntimeError("kaboom")


class Skipping(SlimportCodemod):
    NAME = "skipping"
    DESCRIPTION = "skips generated files after an edit it must not keep"
    TRIGGERS = ("GENERATED",)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        self.record_edit(None, "should not be reported")
        raise SkipFile("generated file")


class Warning_(SlimportCodemod):
    NAME = "warns"
    DESCRIPTION = "uses libcst's warn directly"
    TRIGGERS = ("old_api",)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        self.warn("plain libcst warning")
        self.needs_attention(None, "an attention item", "do something")
        return tree


class RenameByMapping(SlimportCodemod):
    NAME = "rename_by_mapping"
    DESCRIPTION = "renames names from a user mapping"
    TRIGGERS = ("=",)
    OPTIONS = ("mapping",)

    def __init__(self, context: CodemodContext, mapping: Optional[Dict[str, str]] = None,
                 **kwargs: Any) -> None:
        super().__init__(context, **kwargs)
        self.mapping = mapping or {}

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if updated_node.value in self.mapping:
            self.record_edit(original_node, f"renamed {updated_node.value}")
            return updated_node.with_changes(value=self.mapping[updated_node.value])
        return updated_node


def port(data: bytes, *codemods: type, **options: Any) -> engine.Ported:
    return engine.port_source(data, "example.py", codemods, options)


# --- port_source -----------------------------------------------------------------

def test_no_trigger_is_not_handed_to_libcst() -> None:
    # libcst cannot give this text back (test_libcst_round_trip_loss_is_reported): an
    # unchanged result without an error proves libcst never parsed it.
    data = b"def f(): g()\n    # a\n    # b\n"
    ported = port(data, RenameOldApi)
    assert (ported.data, ported.error, ported.codemods) == (data, None, ())


PYTHON2 = {
    "print": (b'print "no trigger here"\n', 1, "Missing parentheses in call to 'print'"),
    "except_comma": (b"try:\n    pass\nexcept ValueError, e:\n    pass\n", 3,
                     "multiple exception types must be parenthesized"),
    "octal": (b"mode = 0777\n", 1, "leading zeros"),
    "long": (b"big = 10L\n", 1, ""),
    "backticks": (b"s = `1`\n", 1, ""),
    "not_equal": (b"if 1 <> 2:\n    pass\n", 1, ""),
    "raise_comma": (b"raise ValueError, 'bad'\n", 1, ""),
    "exec": (b"exec 'x = 1'\n", 1, ""),
    "ur_string": (b"s = ur'x'\n", 1, ""),
}


@pytest.mark.parametrize("data, line, message", PYTHON2.values(), ids=list(PYTHON2))
def test_every_file_is_checked_and_python2_says_what_to_do(data: bytes, line: int,
                                                          message: str) -> None:
    # No trigger word in any of them: CPython's parser checks every file.
    ported = port(data, RenameOldApi)
    assert ported.data is data
    assert ported.error_line == line
    assert ported.error.startswith(f"does not parse: {message}"), ported.error
    assert ported.error.endswith("this is Python 2 code: port it to Python 3 first (e.g. "
                                 "`2to3 -w FILE`, shipped with Python up to 3.12), then "
                                 "run slimport again")


@pytest.mark.parametrize("data", [b"def f(:\n    pass\n", b"x = (\n", b"f(**)\n"])
def test_other_syntax_errors_get_no_python2_advice(data: bytes) -> None:
    ported = port(data, RenameOldApi)
    assert ported.error.startswith("does not parse") and "Python 2" not in ported.error


def _long_sum(terms: int) -> bytes:
    return ("x = " + " + ".join(["old_api"] * terms) + "\n").encode()


@pytest.mark.parametrize("terms, parser", [(1000, "libcst"), (10000, "CPython's parser")])
def test_deeply_nested_code_is_reported_not_raised(terms: int, parser: str) -> None:
    # Generated code does this; CPython parses 1,000 terms but libcst's recursion
    # does not, and at 10,000 CPython's own parser gives up (3.11 and 3.12 already at
    # 3,000; 3.13 parses 3,000). 3.10's parser has no limit: the port refuses such a
    # tree itself (libcst took minutes over it there and crashed the test's worker).
    data = _long_sum(terms)
    ported = port(data, ShortenOldApi)
    assert ported.data is data
    assert ported.error.startswith(f"nested too deeply for {parser} (RecursionError"), \
        ported.error
    assert "split the expression or port this file by hand" in ported.error


def test_libcst_round_trip_loss_is_reported() -> None:
    # libcst.parse_module(data).code drops "# a" of the statement the edit changes:
    # nothing is written from such a tree.
    data = b"x = 1\n\n\ndef f(): old_api()\n    # a\n    # b\n"
    assert cst.parse_module(data).code != data.decode()
    ported = port(data, RenameOldApi)
    assert ported.data is data
    assert ported.error_line == 5
    assert ported.error.startswith("libcst cannot round-trip it: it would change line 5")


def test_a_statement_no_edit_changes_keeps_the_text_libcst_would_lose() -> None:
    # The statements an edit leaves are the source's text (statement_texts), not
    # libcst's code of them: this file was left unported while its round trip was
    # checked whole.
    data = b"x = old_api\n\n\ndef f(): g()\n    # a\n    # b\n"
    assert cst.parse_module(data).code != data.decode()
    ported = port(data, RenameOldApi)
    assert (ported.data, ported.error) == (data.replace(b"old_api", b"new_api"), None)


def test_comments_after_an_elided_definition_survive() -> None:
    # On the skeleton the definition becomes a one-line placeholder; the comments
    # after it at the end of the file are the shape libcst drops a comment from.
    data = b"y = old_api\n\n\ndef f():\n    x = 1\n    # a\n    # b\n"
    assert port(data, SparseRename).data == data.replace(b"old_api", b"new_api")


@pytest.mark.parametrize(
    "before, after",
    [
        (b"x = old_api(1,\n            2)\n", b"x = api(1,\n        2)\n"),
        (b"x = old_api(\n    1, 2)\n", b"x = api(\n    1, 2)\n"),
        (b"x = old_api(1,\r\n            2)  # c\r\n", b"x = api(1,\r\n        2)  # c\r\n"),
        (b"x = f(old_api, g(1,\n                 2))\n", b"x = f(api, g(1,\n             2))\n"),
    ],
    ids=["visual", "hanging", "crlf-comment", "inner-bracket"],
)
def test_continuation_lines_follow_their_bracket(before: bytes, after: bytes) -> None:
    ported = port(before, ShortenOldApi)
    assert ported.data == after
    assert port(ported.data, ShortenOldApi).data == after  # idempotent


def test_edit_is_recorded_with_line_and_codemod() -> None:
    data = b"import os\n\nx = old_api(1)  # keep this comment\n"
    ported = port(data, RenameOldApi)
    assert ported.data == b"import os\n\nx = new_api(1)  # keep this comment\n"
    assert ported.codemods == ("rename_old_api",)
    assert [(f.codemod, f.line, f.kind) for f in ported.findings] == [("rename_old_api", 3, EDIT)]


def test_later_codemod_sees_earlier_edits_in_registry_order() -> None:
    data = b"y = old_api\n"
    ported = port(data, RenameOldApi, FlagNewApi)
    assert [(f.codemod, f.kind) for f in ported.findings] == [
        ("rename_old_api", EDIT), ("flag_new_api", ATTENTION)]
    # Reversed order: the flagging codemod runs before new_api exists.
    reversed_order = port(data, FlagNewApi, RenameOldApi)
    assert [f.codemod for f in reversed_order.findings] == ["rename_old_api"]


@pytest.mark.parametrize(
    "before, after",
    [
        (b"x = old_api\r\ny = 2\r\n", b"x = new_api\r\ny = 2\r\n"),
        (b"\xef\xbb\xbfx = old_api\n", b"\xef\xbb\xbfx = new_api\n"),
        (b"# -*- coding: latin-1 -*-\ns = '\xe9'\nx = old_api\n",
         b"# -*- coding: latin-1 -*-\ns = '\xe9'\nx = new_api\n"),
        (b"x = old_api", b"x = new_api"),
        (b"if True:\n\tx = old_api  \n\n\n# end\n", b"if True:\n\tx = new_api  \n\n\n# end\n"),
        # libcst alone gives "x = new_api\n " back: it drops blank lines at the end.
        (b"x = old_api\n\n \n ", b"x = new_api\n\n \n "),
    ],
    ids=["crlf", "bom", "latin1-coding", "no-final-newline", "tabs-trailing-space",
         "blank-lines-at-the-end"],
)
def test_bytes_survive_outside_the_edit(before: bytes, after: bytes) -> None:
    assert port(before, RenameOldApi).data == after


def test_output_is_idempotent() -> None:
    once = port(b"a = old_api\nb = old_api.x\n", RenameOldApi).data
    twice = port(once, RenameOldApi)
    assert twice.data == once
    assert twice.findings == ()


def test_python2_file_is_reported_with_line_and_reason() -> None:
    data = b"x = old_api\nprint 'hello'\n"
    ported = port(data, RenameOldApi)
    assert ported.data is data
    assert ported.error_line == 2
    assert "print" in ported.error


def test_undecodable_bytes_are_reported_with_line() -> None:
    data = b"x = old_api\ns = '\xff\xfe'\n"
    ported = port(data, RenameOldApi)
    assert ported.data is data
    assert ported.error_line == 2
    assert "utf-8" in ported.error and "coding" in ported.error


def test_codemod_crash_names_codemod_and_exception() -> None:
    data = b"boom = old_api\n"
    ported = port(data, RenameOldApi, Crashing)
    assert ported.data is data
    assert ported.error == "codemod crashing crashed: RuntimeError: kaboom"


def test_skip_file_leaves_that_codemod_out() -> None:
    data = b"# GENERATED\nx = old_api\n"
    ported = port(data, Skipping, RenameOldApi)
    assert ported.data == b"# GENERATED\nx = new_api\n"
    assert [f.codemod for f in ported.findings] == ["rename_old_api"]


def test_libcst_warnings_are_reported_once() -> None:
    ported = port(b"x = old_api\n", Warning_)
    assert [(f.kind, f.message) for f in ported.findings] == [
        (ATTENTION, "an attention item"), (WARNING, "plain libcst warning")]


def test_options_go_only_to_codemods_that_declare_them() -> None:
    assert engine.options_for(RenameByMapping, {"mapping": {"a": "b"}, "other": 1}, {}) == {
        "mapping": {"a": "b"}}
    assert engine.options_for(RenameOldApi, {"mapping": {"a": "b"}}, {}) == {}
    # RenameOldApi would raise TypeError on an unexpected keyword if it got one.
    ported = port(b"data_dir = old_api\n", RenameOldApi, RenameByMapping,
                  mapping={"data_dir": "dataset_dir"})
    assert ported.data == b"dataset_dir = new_api\n"


# --- plan ------------------------------------------------------------------------

def test_plan_skips_tool_directories_and_foreign_symlinks(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {
        "train.py": "x = 1\n",
        "nets/net.py": "y = 1\n",
        ".git/hooks/hook.py": "", "__pycache__/m.py": "", ".tox/py/x.py": "",
        "venv/lib/x.py": "", "env2/pyvenv.cfg": "", "env2/lib/x.py": "",
        "conda/conda-meta/history": "", "conda/lib/x.py": "",
        "pkg.egg-info/x.py": "", "node_modules/x.py": "",
    })
    (tmp_path / "outside.py").write_text("z = 1\n")
    os.symlink(tmp_path / "outside.py", src / "link_out.py")
    os.symlink("train.py", src / "link_in.py")
    os.symlink(tmp_path, src / "dir_out")
    plan = engine.make_plan([src])
    # A folder named venv is code; a virtualenv is found by its pyvenv.cfg.
    assert sorted(job.display for job in plan.python_jobs) == [
        str(src / "nets/net.py"), str(src / "train.py"), str(src / "venv/lib/x.py")]
    assert {r.path: (r.status, r.error) for r in plan.skipped} == {
        str(src / ".tox"): (SKIPPED, "tox environments; not walked"),
        str(src / "conda"): (SKIPPED, "a conda environment (has conda-meta/); not walked"),
        str(src / "dir_out"): (SKIPPED, f"symlink to {tmp_path} points outside the tree; "
                                        f"not followed"),
        str(src / "env2"): (SKIPPED, "a virtualenv (has pyvenv.cfg); not walked"),
        str(src / "link_out.py"): (SKIPPED, f"symlink to {tmp_path / 'outside.py'} points "
                                            f"outside the tree; not followed"),
        str(src / "node_modules"): (SKIPPED, "npm packages; not walked"),
    }
    assert sorted(plan.not_walked) == [
        (str(src / ".git"), "version control metadata"),
        (str(src / "__pycache__"), "bytecode cache"),
        (str(src / "pkg.egg-info"), "package metadata")]


def test_plan_never_reads_a_fifo(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n"})
    os.mkfifo(src / "x.py")
    os.mkfifo(src / "pipe")
    in_place = engine.make_plan([src])
    assert [job.display for job in in_place.python_jobs] == [str(src / "a.py")]
    assert [(r.path, r.error) for r in in_place.skipped] == [
        (str(src / "x.py"), "a FIFO, not a regular file; not read")]
    out = engine.make_plan([src], out=tmp_path / "out")
    assert sorted((r.path, r.error) for r in out.skipped) == [
        (str(src / "pipe"), "a FIFO, not a regular file; not read or copied"),
        (str(src / "x.py"), "a FIFO, not a regular file; not read or copied")]
    named = engine.make_plan([src / "x.py"])
    assert (named.python_jobs, [r.error for r in named.skipped]) == (
        [], ["a FIFO, not a regular file; not read"])


def test_a_file_that_turned_into_a_fifo_is_refused_not_read(tmp_path: Path) -> None:
    path = tmp_path / "x.py"
    os.mkfifo(path)
    with pytest.raises(OSError, match="a FIFO, not a regular file"):
        jobs.read_regular(path)  # would block forever if it waited for a writer


def test_plan_leaves_out_excluded_paths(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {
        "train.py": "", "proto/a_pb2.py": "", "third_party/lib/x.py": "", "nets/third_party.py": "",
        "data.txt": "",
    })
    plan = engine.make_plan([src], out=tmp_path / "out",
                           exclude=["*_pb2.py", "third_party/*", "data.txt"])
    assert sorted(job.display for job in plan.python_jobs) == [
        str(src / "nets/third_party.py"), str(src / "train.py")]
    assert not [job for job in plan.jobs if job.kind == "copy"]
    assert sorted(plan.excluded) == [
        (str(src / "data.txt"), "data.txt"), (str(src / "proto/a_pb2.py"), "*_pb2.py"),
        (str(src / "third_party/lib"), "third_party/*")]
    assert engine.make_plan([src / "train.py"], exclude=["train.py"]).python_jobs == []


def test_plan_refuses_out_inside_source(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = 1\n"})
    with pytest.raises(engine.UsageError, match="inside the source tree"):
        engine.make_plan([src], out=src / "ported")
    with pytest.raises(engine.UsageError, match="inside the source tree"):
        engine.make_plan([src / "a.py"], out=src)


def test_plan_refuses_non_empty_out_unless_forced(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = 1\n"})
    out = make_tree(tmp_path / "out", {"old.txt": "x"})
    with pytest.raises(engine.UsageError, match="--force"):
        engine.make_plan([src], out=out)
    assert engine.make_plan([src], out=out, force=True).python_jobs[0].dest == out / "a.py"


def test_plan_refuses_writing_a_path_over_itself(tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path, {"a/x.py": "", "b/y.py": ""})
    with pytest.raises(engine.UsageError, match="over itself"):
        engine.make_plan([tmp_path / "a", tmp_path / "b"], out=tmp_path, force=True)


def test_plan_refuses_missing_path(tmp_path: Path) -> None:
    with pytest.raises(engine.UsageError, match="no such file"):
        engine.make_plan([tmp_path / "nope"])


def test_report_path_is_checked_before_the_run(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n"})
    plan = engine.make_plan([src])
    refusals = {
        tmp_path / "missing/dir/port.json": "directory .* does not exist",
        tmp_path: "is a directory",
        src / "a.py": "is a file being ported",
    }
    for path, message in refusals.items():
        with pytest.raises(engine.UsageError, match=message):
            engine.check_report_path(path, plan, None)
    engine.check_report_path(tmp_path / "port.json", plan, None)
    out = tmp_path / "new"
    # Inside --out, which the run creates.
    engine.check_report_path(out / "port.json", engine.make_plan([src], out=out), out)


# --- writing ---------------------------------------------------------------------

def test_atomic_write_keeps_mode_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "script.py"
    target.write_bytes(b"old")
    engine.atomic_write(target, b"new", 0o751)
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    assert os.listdir(tmp_path) == ["script.py"]


def test_atomic_write_failure_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "a_directory"
    target.mkdir()
    with pytest.raises(OSError):
        engine.atomic_write(target, b"new", 0o644)
    assert os.listdir(tmp_path) == ["a_directory"]


def _settings(*codemods: type, write: bool = True, diff: bool = False) -> engine.PortSettings:
    return engine.PortSettings(codemods, {}, write=write, diff=diff)


def test_only_a_port_in_place_flushes_each_file_to_disk(tmp_path: Path, make_tree,
                                                        monkeypatch) -> None:
    """In place replaces the user's only copy: each file is flushed before the rename. A
    copy into --out leaves the originals: no flush, which waits on every other writer."""
    flushed = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (flushed.append(fd), real_fsync(fd)))
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n", "b.py": "y = old_api\n"})
    out = tmp_path / "out"
    engine.run_plan(engine.make_plan([src], out=out), _settings(RenameOldApi))
    assert (out / "a.py").read_text() == "x = new_api\n" and not flushed
    engine.run_plan(engine.make_plan([src]), _settings(RenameOldApi))
    assert (src / "b.py").read_text() == "y = new_api\n" and len(flushed) == 2


def test_run_in_place_reports_each_file(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {
        "a.py": "x = old_api\n", "b.py": "y = 1\n", "c.py": "old_api = (\n", "d.txt": "old_api",
    })
    outcome = engine.run_plan(engine.make_plan([src]), _settings(RenameOldApi))
    by_name = {Path(r.path).name: r for r in outcome.results}
    assert {name: r.status for name, r in by_name.items()} == {
        "a.py": CHANGED, "b.py": UNCHANGED, "c.py": FAILED}
    assert (src / "a.py").read_text() == "x = new_api\n"
    assert (src / "c.py").read_text() == "old_api = (\n"
    assert (src / "d.txt").read_text() == "old_api"
    assert by_name["a.py"].output == str(src / "a.py")
    assert by_name["c.py"].error_line == 1


def test_run_goes_on_after_a_file_too_deep_to_port(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n", "deep.py": _long_sum(3000),
                                       "z.py": "z = old_api\n"})
    outcome = engine.run_plan(engine.make_plan([src]), _settings(ShortenOldApi))
    assert {Path(r.path).name: r.status for r in outcome.results} == {
        "a.py": CHANGED, "deep.py": FAILED, "z.py": CHANGED}
    assert (src / "z.py").read_text() == "z = api\n"
    assert (src / "deep.py").read_bytes() == _long_sum(3000)


def test_run_read_only_file_fails_alone(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n", "b.py": "y = old_api\n"})
    (src / "a.py").chmod(0o444)
    outcome = engine.run_plan(engine.make_plan([src]), _settings(RenameOldApi))
    statuses = {Path(r.path).name: r.status for r in outcome.results}
    assert statuses == {"a.py": FAILED, "b.py": CHANGED}
    assert "read-only" in outcome.results[0].error
    assert (src / "a.py").read_text() == "x = old_api\n"


def test_run_with_out_copies_the_whole_tree(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {
        "train.py": "x = old_api\n", "bad.py": "print 'x'\nold_api\n", "data/labels.txt": "a\n",
        "run.sh": "#!/bin/sh\n", "empty/.keep": "",
    })
    (src / "run.sh").chmod(0o755)
    (src / "train.py").chmod(0o700)
    os.symlink("data/labels.txt", src / "labels.txt")
    before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    out = tmp_path / "out"
    outcome = engine.run_plan(engine.make_plan([src], out=out), _settings(RenameOldApi))

    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == before
    assert (out / "train.py").read_text() == "x = new_api\n"
    assert (out / "bad.py").read_bytes() == (src / "bad.py").read_bytes()
    assert (out / "data/labels.txt").read_text() == "a\n"
    assert stat.S_IMODE((out / "run.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "train.py").stat().st_mode) == 0o700
    assert os.readlink(out / "labels.txt") == "data/labels.txt"
    assert (out / "empty").is_dir()
    assert outcome.copied == 3  # labels.txt, run.sh, .keep
    assert {Path(r.path).name: r.status for r in outcome.results} == {
        "bad.py": FAILED, "train.py": CHANGED}


def test_out_recreates_directory_symlinks_and_loops(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"data/labels.txt": "a\n", "pkg/m.py": "x = old_api\n"})
    links = {"datalink": "data", "pkg/up": "..", "a": "b", "b": "a", "self": "self",
             "pkg/detour": "../../src/data/labels.txt", "pkg/dangling": "../nowhere.txt"}
    for name, target in links.items():
        os.symlink(target, src / name)
    out = tmp_path / "out"
    outcome = engine.run_plan(engine.make_plan([src], out=out), _settings(RenameOldApi))
    assert [r.status for r in outcome.results] == [CHANGED], outcome.results
    recreated = {name: os.readlink(out / name) for name in links}
    assert recreated == {**links, "pkg/detour": "../data/labels.txt"}
    assert (out / "datalink" / "labels.txt").read_text() == "a\n"
    assert (out / "pkg/up/pkg/m.py").read_text() == "x = new_api\n"


def test_one_file_with_out_works_like_a_tree(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"train.py": "x = old_api\n"})
    out = tmp_path / "new" / "dir"
    outcome = engine.run_plan(engine.make_plan([src / "train.py"], out=out),
                              _settings(RenameOldApi))
    assert [(r.status, r.output) for r in outcome.results] == [
        (CHANGED, str(out / "train.py"))]
    assert (out / "train.py").read_text() == "x = new_api\n"


def test_a_symlink_named_on_the_command_line_ports_its_target(tmp_path: Path,
                                                              make_tree) -> None:
    src = make_tree(tmp_path / "src", {"real.py": "x = old_api\n"})
    os.symlink("real.py", src / "link.py")
    outcome = engine.run_plan(engine.make_plan([src / "link.py"]), _settings(RenameOldApi))
    assert [r.status for r in outcome.results] == [CHANGED]
    assert os.readlink(src / "link.py") == "real.py"
    assert (src / "real.py").read_text() == "x = new_api\n"


def test_run_dry_writes_nothing_and_builds_diff(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n"})
    outcome = engine.run_plan(engine.make_plan([src], write=False),
                              _settings(RenameOldApi, write=False, diff=True))
    assert (src / "a.py").read_text() == "x = old_api\n"
    assert outcome.results[0].status == CHANGED
    assert "-x = old_api\n+x = new_api\n" in outcome.results[0].diff


def test_findings_of_later_codemods_name_lines_of_the_original_file():
    from slimport.codemods import CODEMODS

    source = (
        b"import tensorflow as tf\n"
        b"\n"
        b"tf.app.flags.DEFINE_string('name', '', 'help')\n"
        b"FLAGS = tf.app.flags.FLAGS\n"
        b"value = tf.logging.info(tf.no_such_name_in_compat_v1)\n"
    )
    ported = engine.port_source(source, "sample.py", CODEMODS, {})
    # flags_to_absl adds an import line first; compat_v1 then reports line 5, not 6.
    missing = [f for f in ported.findings if "no_such_name_in_compat_v1" in f.message]
    assert [f.line for f in missing] == [5], ported.findings
    assert b"from slim_ext import tf1_flags as flags" in ported.data
    # ... and the line of the ported text it is on now.
    output_lines = ported.data.decode().splitlines()
    for finding, line in zip(ported.findings, ported.output_lines):
        if finding is missing[0]:
            assert "no_such_name_in_compat_v1" in output_lines[line - 1]


def test_results_name_lines_of_the_file_the_user_edits(tmp_path: Path, make_tree) -> None:
    class InsertsTwoLines(SlimportCodemod):
        NAME = "inserts_two_lines"
        DESCRIPTION = "a two-line header before the first statement, then reports old_api"
        TRIGGERS = ("old_api",)

        def leave_Module(self, original_node: cst.Module, updated_node: cst.Module):
            header = cst.parse_module("import first\nimport second\n").body
            return updated_node.with_changes(body=[*header, *updated_node.body])

        def visit_Name(self, node: cst.Name) -> None:
            if node.value == "old_api":
                self.needs_attention(node, "old_api is old", "port it")

    src = make_tree(tmp_path / "src", {"a.py": "x = 1\ny = old_api\n"})
    settings = _settings(InsertsTwoLines, write=False)
    [dry] = engine.run_plan(engine.make_plan([src], write=False), settings).results
    [written] = engine.run_plan(engine.make_plan([src]), _settings(InsertsTwoLines)).results
    assert [(f.line, line) for f, line in zip(dry.findings, dry.source_lines)] == [(2, 2)]
    assert [(f.line, line) for f, line in zip(written.findings, written.source_lines)] == [
        (4, 2)]
    assert (src / "a.py").read_text().splitlines()[3] == "y = old_api"


@pytest.mark.parametrize("cpus, load, sizes, expected", [
    (2, 0.1, [100 << 10] * 2, 1),    # a small tree: one process
    (2, 0.1, [100 << 10] * 3, 2),    # big enough: one per CPU
    (2, 1.2, [100 << 10] * 30, 1),   # another job holds a core: one process
    (4, 1.6, [100 << 10] * 30, 2),   # two of four held
    (4, 9.0, [100 << 10] * 30, 1),   # all held: still one
    (8, 0.0, [300 << 10] * 3, 3),    # never more processes than files
])
def test_the_default_jobs_leave_small_trees_and_held_cpus_alone(monkeypatch, cpus, load,
                                                                sizes, expected):
    from slimport.engine import run
    monkeypatch.setattr(run.os, "sched_getaffinity", lambda pid: set(range(cpus)),
                        raising=False)
    monkeypatch.setattr(run.os, "getloadavg", lambda: (load, load, load))
    assert run.automatic_jobs(sizes) == expected


def test_jobs_zero_ports_a_small_tree_in_this_process(tmp_path, monkeypatch):
    from slimport.engine import run
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
    monkeypatch.setattr(run, "_port_in_pool", lambda *args, **kwargs: pytest.fail("a pool"))
    plan = engine.make_plan([tmp_path], write=False)
    from slimport import codemods
    settings = jobs.PortSettings(tuple(codemods.select([], [])), {}, write=False)
    result = engine.run_plan(plan, settings, jobs=0)
    assert [r.status for r in result.results] == ["changed", "changed"]
