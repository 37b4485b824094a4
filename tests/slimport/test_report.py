"""What a rewrite shows: the JSON report, the summary (slimport.output.summary), the diff
(slimport.output.diffs) and the progress line (slimport.output.progress)."""
from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from slimport import __version__
from slimport.output import diffs
from slimport.output import progress
from slimport.output import json_report
from slimport.output import results
from slimport.output import summary
from slimport.output.results import FileResult
from slimport.analysis.findings import ATTENTION, Finding

RESULTS = [
    FileResult(
        path="nets/net.py", status=results.CHANGED, output="out/nets/net.py",
        codemods=["contrib_slim", "compat_v1"],
        findings=[
            Finding("contrib_slim", 3, "tf.contrib.slim -> tf_slim"),
            Finding("compat_v1", 1, "import tensorflow.compat.v1 as tf"),
            Finding("contrib_symbols", 9, "tf.contrib.quantize has no TF2 home",
                            "drop quantization or use TF Model Optimization", ATTENTION),
        ],
        source_lines=[3, 1, 7],
    ),
    FileResult(path="util.py", status=results.UNCHANGED),
    FileResult(path="old.py", status=results.FAILED, error="does not parse: Missing parentheses",
               error_line=4),
    FileResult(path="link.py", status=results.SKIPPED,
               error="symlink to /etc/x.py points outside the tree; not followed"),
]


def test_summary_lists_changes_attention_failures_and_totals() -> None:
    text = summary.summary_text(RESULTS, "out", copied=2)
    # Changes and findings name the file written, where the user goes on.
    assert "Changed (1):\n  out/nets/net.py  (2 edits: contrib_slim, compat_v1)" in text
    assert ("  out/nets/net.py:9: [contrib_symbols] tf.contrib.quantize has no TF2 home"
            " \u2014 fix: drop quantization or use TF Model Optimization") in text
    assert "  old.py:4: does not parse: Missing parentheses" in text
    assert "  link.py: symlink to /etc/x.py points outside the tree" in text
    assert text.endswith(
        "1 file changed, 1 unchanged, 1 failed, 1 skipped; 2 edits, "
        "1 needs attention; 2 other files copied\n")


def test_summary_of_dry_run_says_would_change() -> None:
    text = summary.summary_text(RESULTS[:2], "check")
    assert text.startswith("Would change (1):")
    assert "Failed" not in text and "Skipped" not in text
    assert text.endswith("1 file would change, 1 unchanged, 0 failed, 0 skipped; 2 edits, "
                         "1 needs attention\n")


@pytest.mark.parametrize("number, singular, plural, expected", [
    (0, "file", "", "0 files"), (1, "file", "", "1 file"), (2, "edit", "", "2 edits"),
    (1, "needs", "need", "1 needs"), (3, "needs", "need", "3 need"),
    (1, "other file", "", "1 other file"),
])
def test_counts_are_singular_or_plural(number: int, singular: str, plural: str,
                                       expected: str) -> None:
    assert summary.count(number, singular, plural) == expected


def test_quiet_summary_shows_failures_only() -> None:
    assert summary.summary_text(RESULTS, "in-place", verbosity=summary.QUIET) == (
        "Failed, left untouched (1):\n  old.py:4: does not parse: Missing parentheses\n")
    assert summary.summary_text(RESULTS[:2], "in-place", verbosity=summary.QUIET) == ""


def test_verbose_summary_adds_edits_unchanged_and_left_out() -> None:
    text = summary.summary_text(RESULTS, "out", verbosity=summary.VERBOSE,
                               left_out=[("src/.git", "version control metadata")],
                               warnings=["--map a=b: no file defines b"])
    assert ("Changed (1):\n  out/nets/net.py  (2 edits: contrib_slim, compat_v1)\n"
            "      line 3: [contrib_slim] tf.contrib.slim -> tf_slim\n"
            "      line 1: [compat_v1] import tensorflow.compat.v1 as tf\n") in text
    assert "Unchanged (1):\n  util.py\n" in text
    assert "Left out (1):\n  src/.git: version control metadata\n" in text
    assert "Warnings (1):\n  --map a=b: no file defines b\n" in text


def test_json_document_matches_documented_schema(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    json_report.write_json(target, RESULTS, "out", copied=2, warnings=["a run-level note"])
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["version"] == json_report.REPORT_SCHEMA_VERSION == 4
    assert document["warnings"] == ["a run-level note"]
    assert document["slimport_version"] == __version__
    assert document["mode"] == "out"
    assert document["summary"] == {"files": 4, "changed": 1, "unchanged": 1, "failed": 1,
                                   "skipped": 1, "copied": 2, "edits": 2, "attention": 1}
    net = document["files"][0]
    assert net["edits"] == 2 and net["codemods"] == ["contrib_slim", "compat_v1"]
    assert net["findings"][2] == {
        "codemod": "contrib_symbols", "line": 9, "source_line": 7,
        "message": "tf.contrib.quantize has no TF2 home",
        "fix": "drop quantization or use TF Model Optimization", "kind": "attention"}
    assert document["files"][2]["error_line"] == 4
    # Every field the module docstring documents is present on every file entry.
    for entry in document["files"]:
        assert set(entry) == {"path", "output", "status", "codemods", "edits", "findings",
                              "error", "error_line", "facts_from"}
        assert entry["status"] in results.STATUSES


def test_unified_diff_applies_with_patch(tmp_path: Path) -> None:
    before = "import tensorflow as tf\nslim = tf.contrib.slim\nx = 1"
    after = "import tensorflow.compat.v1 as tf\nimport tf_slim as slim\nx = 1"
    diff = diffs.unified_diff(before, after, "train.py")
    assert diff.startswith("--- a/train.py\n+++ b/train.py\n")
    assert "\\ No newline at end of file\n" in diff
    (tmp_path / "train.py").write_text(before)
    subprocess.run(["patch", "-p1", "-s"], input=diff, text=True, cwd=tmp_path, check=True,
                   timeout=30)
    assert (tmp_path / "train.py").read_text() == after
    assert diffs.unified_diff(before, before, "train.py") == ""


def test_colored_diff_colours_like_git_and_keeps_the_text() -> None:
    diff = diffs.unified_diff("a = 1\nb = 2\n", "a = 1\nb = 3\n", "x.py")
    colored = diffs.colored_diff(diff)
    assert colored.splitlines() == [
        "\x1b[1m--- a/x.py\x1b[0m", "\x1b[1m+++ b/x.py\x1b[0m", "\x1b[36m@@ -1,2 +1,2 @@\x1b[0m",
        " a = 1", "\x1b[31m-b = 2\x1b[0m", "\x1b[32m+b = 3\x1b[0m"]
    assert colored.replace("\x1b[1m", "").replace("\x1b[36m", "").replace(
        "\x1b[31m", "").replace("\x1b[32m", "").replace("\x1b[0m", "") == diff


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("when, stream, environment, expected", [
    ("auto", _Terminal(), {}, True),
    ("auto", io.StringIO(), {}, False),
    ("auto", _Terminal(), {"NO_COLOR": "1"}, False),
    ("auto", _Terminal(), {"TERM": "dumb"}, False),
    ("always", io.StringIO(), {"NO_COLOR": "1"}, True),
    ("never", _Terminal(), {}, False),
])
def test_use_color(when: str, stream, environment: dict, expected: bool, monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert diffs.use_color(stream, when) is expected


def _drawn(monkeypatch, columns: int, total: int, paths: list) -> str:
    """What a Progress of ``total`` files draws on a ``columns``-wide terminal."""
    monkeypatch.setenv("COLUMNS", str(columns))
    stream = _Terminal()
    line = progress.Progress(total=total, stream=stream)
    for path in paths:
        line.advance(path)
    line.close()
    return stream.getvalue()


def test_progress_line_fits_the_terminal(monkeypatch) -> None:
    drawn = _drawn(monkeypatch, 30, 12, ["a/very/long/directory/name/with/a/module.py",
                                         "short.py"])
    assert [line.rstrip() for line in drawn.split("\r") if line.strip()] == [
        "[1/12] ...me/with/a/module.py", "[2/12] short.py"]
    assert all(len(line) <= 29 for line in drawn.split("\r"))


def test_progress_draws_one_updating_line_on_a_terminal(monkeypatch) -> None:
    assert _drawn(monkeypatch, 80, 7, ["a/long_name.py", "b.py"]) == (
        "\r[1/7] a/long_name.py" "\r[2/7] b.py" + " " * 10 + "\r" + " " * 10 + "\r")


def test_progress_is_silent_when_piped_or_small() -> None:
    piped = io.StringIO()
    for _ in range(10):
        progress.Progress(total=10, stream=piped).advance("x.py")
    small = _Terminal()
    tiny = progress.Progress(total=3, stream=small)
    tiny.advance("x.py")
    tiny.close()
    quiet = _Terminal()
    progress.Progress(total=10, stream=quiet, enabled=False).advance("x.py")
    assert piped.getvalue() == "" and small.getvalue() == "" and quiet.getvalue() == ""
