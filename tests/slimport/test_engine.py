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
from slimport.codemods._base import SlimportCodemod
from slimport.report import ATTENTION, CHANGED, EDIT, FAILED, SKIPPED, UNCHANGED, WARNING


class RenameOldApi(SlimportCodemod):
    NAME = "rename_old_api"
    DESCRIPTION = "old_api -> new_api"
    TRIGGERS = ("old_api",)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if updated_node.value != "old_api":
            return updated_node
        self.record_edit(original_node, "old_api -> new_api")
        return updated_node.with_changes(value="new_api")


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

def test_no_trigger_returns_input_without_parsing() -> None:
    # Python 2 source: parsing it would fail, so an unchanged result proves no parse.
    data = b'print "no trigger here"\n'
    ported = port(data, RenameOldApi)
    assert ported.error is None
    assert ported.data is data
    assert ported.codemods == ()


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
    ],
    ids=["crlf", "bom", "latin1-coding", "no-final-newline", "tabs-trailing-space"],
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
    assert engine.options_for(RenameByMapping, {"mapping": {"a": "b"}, "other": 1}) == {
        "mapping": {"a": "b"}}
    assert engine.options_for(RenameOldApi, {"mapping": {"a": "b"}}) == {}
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
        "pkg.egg-info/x.py": "", "node_modules/x.py": "",
    })
    (tmp_path / "outside.py").write_text("z = 1\n")
    os.symlink(tmp_path / "outside.py", src / "link_out.py")
    os.symlink("train.py", src / "link_in.py")
    os.symlink(tmp_path, src / "dir_out")
    the_plan = engine.plan([src])
    assert sorted(job.display for job in the_plan.python_jobs) == [
        str(src / "nets/net.py"), str(src / "train.py")]
    assert sorted((r.path, r.status) for r in the_plan.skipped) == [
        (str(src / "dir_out"), SKIPPED), (str(src / "link_out.py"), SKIPPED)]
    assert "outside the tree" in the_plan.skipped[0].error


def test_plan_refuses_out_inside_source(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = 1\n"})
    with pytest.raises(engine.UsageError, match="inside the source tree"):
        engine.plan([src], out=src / "ported")
    with pytest.raises(engine.UsageError, match="inside the source tree"):
        engine.plan([src / "a.py"], out=src)


def test_plan_refuses_non_empty_out_unless_forced(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = 1\n"})
    out = make_tree(tmp_path / "out", {"old.txt": "x"})
    with pytest.raises(engine.UsageError, match="--force"):
        engine.plan([src], out=out)
    assert engine.plan([src], out=out, force=True).python_jobs[0].dest == out / "a.py"


def test_plan_refuses_writing_a_path_over_itself(tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path, {"a/x.py": "", "b/y.py": ""})
    with pytest.raises(engine.UsageError, match="over itself"):
        engine.plan([tmp_path / "a", tmp_path / "b"], out=tmp_path, force=True)


def test_plan_refuses_missing_path(tmp_path: Path) -> None:
    with pytest.raises(engine.UsageError, match="no such file"):
        engine.plan([tmp_path / "nope"])


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


def _settings(*codemods: type, write: bool = True, diff: bool = False) -> engine.Settings:
    return engine.Settings(codemods, {}, write=write, diff=diff)


def test_run_in_place_reports_each_file(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {
        "a.py": "x = old_api\n", "b.py": "y = 1\n", "c.py": "old_api = (\n", "d.txt": "old_api",
    })
    outcome = engine.run(engine.plan([src]), _settings(RenameOldApi))
    by_name = {Path(r.path).name: r for r in outcome.results}
    assert {name: r.status for name, r in by_name.items()} == {
        "a.py": CHANGED, "b.py": UNCHANGED, "c.py": FAILED}
    assert (src / "a.py").read_text() == "x = new_api\n"
    assert (src / "c.py").read_text() == "old_api = (\n"
    assert (src / "d.txt").read_text() == "old_api"
    assert by_name["a.py"].output == str(src / "a.py")
    assert by_name["c.py"].error_line == 1


def test_run_read_only_file_fails_alone(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n", "b.py": "y = old_api\n"})
    (src / "a.py").chmod(0o444)
    outcome = engine.run(engine.plan([src]), _settings(RenameOldApi))
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
    outcome = engine.run(engine.plan([src], out=out), _settings(RenameOldApi))

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


def test_run_dry_writes_nothing_and_builds_diff(tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = old_api\n"})
    outcome = engine.run(engine.plan([src], write=False), _settings(RenameOldApi, write=False,
                                                                     diff=True))
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
    assert b"from absl import flags" in ported.data
