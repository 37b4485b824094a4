"""``slimport rewrite --report port.html``: the review hunks it is built from, the page
itself, and what a person sees of it in a real browser (Debian's headless Chromium:
the DOM it builds, the effect of the page's buttons, a screenshot)."""
from __future__ import annotations

import difflib
import json
import os
import struct
import subprocess
import sys
import zlib
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest

from slimport import codemods as registry
from slimport.analysis.findings import ATTENTION, EDIT, Finding
from slimport.engine import PortSettings
from slimport.engine.jobs import port_to_result
from slimport.output import diffs, html_report
from slimport.output.results import CHANGED, FAILED, SKIPPED, UNCHANGED, FileResult, TreeFinding
from tests.slimport.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tools"))
import report_screenshot  # noqa: E402  (tools/ is not a package)


# --- the review hunks -------------------------------------------------------------

def _as_unified(hunks) -> List[str]:
    lines = []
    for hunk in hunks:
        old = f"{hunk.old_start},{hunk.old_count}" if hunk.old_count != 1 else f"{hunk.old_start}"
        new = f"{hunk.new_start},{hunk.new_count}" if hunk.new_count != 1 else f"{hunk.new_start}"
        lines.append(f"@@ -{old} +{new} @@\n")
        lines += [f"{tag}{text}\n" for tag, text in hunk.lines]
    return lines


FILE = "".join(f"line {number}\n" for number in range(1, 31))


@pytest.mark.parametrize("after", [
    FILE.replace("line 5\n", "LINE 5\n"),
    FILE.replace("line 1\n", ""),
    "new first\n" + FILE,
    FILE + "new last\n",
    FILE.replace("line 3\n", "a\nb\n").replace("line 25\n", ""),
    FILE.replace("line 10\n", "x\n").replace("line 17\n", "y\n"),  # 6 lines apart: one hunk
    FILE.replace("line 10\n", "x\n").replace("line 18\n", "y\n"),  # 7 apart: two hunks
    "",
])
def test_without_marks_the_hunks_are_the_unified_diffs(after: str) -> None:
    expected = list(difflib.unified_diff(FILE.splitlines(keepends=True),
                                         after.splitlines(keepends=True)))[2:]
    assert _as_unified(diffs.review_hunks(FILE, after, ())) == expected


def test_a_marked_line_is_shown_with_context_where_nothing_changed() -> None:
    after = FILE.replace("line 2\n", "LINE 2\n")
    hunks = diffs.review_hunks(FILE, after, {20})
    assert [(hunk.old_start, hunk.new_start) for hunk in hunks] == [(1, 1), (17, 17)]
    assert hunks[1].lines == tuple((diffs.KEPT, f"line {n}") for n in range(17, 24))
    # A marked line next to a change joins its hunk; no change and no mark: no hunk.
    assert len(diffs.review_hunks(FILE, after, {6})) == 1
    assert diffs.review_hunks(FILE, FILE, ()) == ()
    assert [h.old_start for h in diffs.review_hunks(FILE, FILE, {1, 30})] == [1, 27]


def test_lines_are_split_where_python_splits_them() -> None:
    # A form feed is inside a line for Python (str.splitlines would split there).
    assert diffs.source_lines("a\fb\r\nc\rd\n") == ["a\fb", "c", "d"]
    assert diffs.source_lines("x") == ["x"] and diffs.source_lines("") == []
    hunks = diffs.review_hunks("a\fb\nc\n", "a\fb\nC\n", ())
    assert hunks[0].lines == ((diffs.KEPT, "a\fb"), (diffs.REMOVED, "c"), (diffs.ADDED, "C"))


def test_the_engine_keeps_the_hunks_only_when_the_page_is_asked_for() -> None:
    source = b"import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\n"
    codemods = tuple(registry.select([], []))
    plain, _ = port_to_result(source, "m.py", "m.py", PortSettings(codemods), written=True)
    page, _ = port_to_result(source, "m.py", "m.py", PortSettings(codemods, review=True),
                             written=True)
    assert plain.status == page.status == CHANGED and plain.review is None
    assert page.review and page.review[0].lines[0] == (
        diffs.REMOVED, "import tensorflow as tf")


# --- the page, as Python's HTML parser reads it -----------------------------------

class Element:
    """One element of a parsed page: its tag, attributes, children and text."""

    def __init__(self, tag: str, attrs: Dict[str, str], parent: Optional[Element]) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: List[Element] = []
        self.parts: List[str] = []

    @property
    def classes(self) -> List[str]:
        return self.attrs.get("class", "").split()

    @property
    def text(self) -> str:
        return "".join(self.parts) + "".join(child.text for child in self.children)

    def walk(self) -> Iterator[Element]:
        yield self
        for child in self.children:
            yield from child.walk()

    def select(self, tag: str = "", css: str = "") -> List[Element]:
        return [element for element in self.walk() if (not tag or element.tag == tag)
                and (not css or css in element.classes)]

    def by_id(self, wanted: str) -> Element:
        [found] = [element for element in self.walk() if element.attrs.get("id") == wanted]
        return found


_VOID = {"meta", "br", "hr", "img", "input", "link"}


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs}, self.current)
        self.current.children.append(element)
        if tag not in _VOID:
            self.current = element

    def handle_endtag(self, tag):
        element = self.current
        while element is not None and element.tag != tag:
            element = element.parent
        if element is not None and element.parent is not None:
            self.current = element.parent

    def handle_data(self, data):
        self.current.parts.append(data)


def parse(page: str) -> Element:
    builder = _TreeBuilder()
    builder.feed(page)
    builder.close()
    return builder.root


SOURCE = "import tensorflow as tf\nslim = tf.contrib.slim\nx = 1\ny = '<b>&'\nz = 2\n"
PORTED = "import tensorflow.compat.v1 as tf\nimport tf_slim as slim\nx = 1\ny = '<b>&'\nz = 2\n"
RESULTS = [
    FileResult(
        path="nets/net.py", status=CHANGED, output="out/nets/net.py",
        codemods=["compat_v1", "contrib_slim"],
        findings=[Finding("compat_v1", 1, "import tensorflow as tf -> compat.v1"),
                  Finding("contrib_slim", 2, "tf.contrib.slim -> tf_slim"),
                  Finding("contrib_symbols", 5, "z has no TF2 home", "use <tfmot>", ATTENTION),
                  Finding("contrib_symbols", 0, "about the whole file", "", ATTENTION)],
        source_lines=[1, 2, 5, 0],
        review=diffs.review_hunks(SOURCE, PORTED, {1, 2, 5})),
    FileResult(path="util.py", status=UNCHANGED, review=()),
    FileResult(path="old.py", status=FAILED, error="does not parse: Missing parentheses",
               error_line=4),
    FileResult(path="link.py", status=SKIPPED, error="symlink points outside the tree"),
    FileResult(path="nets/plain.py", status=CHANGED, output="out/nets/plain.py",
               codemods=["compat_v1"], findings=[Finding("compat_v1", 1, "compat.v1")],
               source_lines=[1], review=diffs.review_hunks("import tensorflow as tf\n",
                                                           "import tensorflow.compat.v1 as tf\n",
                                                           {1})),
]
TREE = [TreeFinding(Finding("protos", 0, "2 generated modules are stale", "pip install x",
                            ATTENTION), ("a_pb2.py", "b_pb2.py"))]


def _rows(table: Element) -> Dict[str, List[str]]:
    return {row.attrs["data-key"]: [cell.text for cell in row.select("td")]
            for row in table.select("tr") if "data-key" in row.attrs}


def test_the_summary_counts_by_codemod_and_by_kind() -> None:
    page = parse(html_report.to_html(RESULTS, "out", copied=2, warnings=["--map a=b: unused"],
                                     tree_findings=TREE))
    assert _rows(page.by_id("totals")) == {
        "files": ["files", "5"], "changed": ["changed", "2"], "unchanged": ["unchanged", "1"],
        "failed": ["failed", "1"], "skipped": ["skipped", "1"], "copied": ["copied", "2"],
        "edits": ["edits", "3"], "attention": ["attention", "3"]}
    assert _rows(page.by_id("by-codemod")) == {
        "compat_v1": ["compat_v1", "2", "2", "0"],
        "contrib_symbols": ["contrib_symbols", "1", "0", "2"],
        "contrib_slim": ["contrib_slim", "1", "1", "0"],
        "protos": ["protos", "2", "0", "1"]}
    assert _rows(page.by_id("by-kind")) == {
        "edit": ["edit", "3", "2"], "attention": ["attention", "3", "3"],
        "warning": ["warning", "0", "0"]}
    notes = page.by_id("run-notes")
    assert "2 generated modules are stale" in notes.text and "b_pb2.py" in notes.text
    assert "--map a=b: unused" in notes.text


def test_files_that_need_attention_come_first_and_open() -> None:
    page = parse(html_report.to_html(RESULTS, "out"))
    groups = [(section.attrs["id"], [d.attrs["data-path"] for d in section.select("details")])
              for section in page.select("section", "group")]
    assert groups == [("needs-attention", ["nets/net.py"]), ("failed", ["old.py"]),
                      ("changed", ["nets/plain.py"]), ("skipped", ["link.py"]),
                      ("unchanged", [])]
    opened = {d.attrs["data-path"]: "open" in d.attrs for d in page.select("details", "file")}
    assert opened == {"nets/net.py": True, "old.py": True, "nets/plain.py": False,
                      "link.py": False}
    assert "line 4: does not parse: Missing parentheses" in page.by_id("failed").text
    assert "symlink points outside the tree" in page.by_id("skipped").text
    assert page.by_id("unchanged").select("li")[0].text == "util.py"


def test_each_finding_stands_under_the_change_its_line_is_in() -> None:
    page = parse(html_report.to_html(RESULTS, "out"))
    net = page.select("details", "file")[0]
    shown = []
    for element in net.walk():
        if "finding" in element.classes:
            shown.append(("finding", element.text.split("]")[0].split("[")[-1]))
        elif element.tag == "tr" and element.classes[0] in ("ctx", "del", "add"):
            old, new, code = (cell.text for cell in element.select("td"))
            shown.append((element.classes[0], old, new, code))
    assert shown == [
        # A finding about the whole file comes first, above the diff.
        ("finding", "contrib_symbols"),
        ("del", "1", "", "import tensorflow as tf"),
        ("del", "2", "", "slim = tf.contrib.slim"),
        ("add", "", "1", "import tensorflow.compat.v1 as tf"),
        ("add", "", "2", "import tf_slim as slim"),
        ("finding", "compat_v1"), ("finding", "contrib_slim"),
        ("ctx", "3", "3", "x = 1"),
        ("ctx", "4", "4", "y = '<b>&'"),  # escaped in the page, text in the browser
        ("ctx", "5", "5", "z = 2"),
        ("finding", "contrib_symbols"),
    ]
    attention = [f for f in net.select(css="finding") if f.attrs["data-kind"] == ATTENTION]
    assert "line 5: z has no TF2 home" in attention[1].text
    assert "fix: use <tfmot>" in attention[1].text
    # The list at the top links to each one.
    links = [a.attrs["href"][1:] for a in page.by_id("attention-list").select("a")]
    assert sorted(links) == sorted(f.attrs["id"] for f in attention)


def test_code_and_paths_cannot_break_the_page() -> None:
    hostile = "x = '</table><script>alert(1)</script>'\fy\x00\n"
    result = FileResult(path="we<ird>\udcff.py", status=UNCHANGED,
                        findings=[Finding("c", 1, "</details> & more", "", ATTENTION)],
                        source_lines=[1], review=diffs.review_hunks(hostile, hostile, {1}))
    text = html_report.to_html([result], "check")
    assert "<script>alert" not in text and text.count("</details>") == 1
    page = parse(text)
    [code] = page.select("td", "code")
    assert code.text == "x = '</table><script>alert(1)</script>'\u240cy\u2400"
    assert "we<ird>\\udcff.py" in page.select("summary")[0].text
    text.encode("utf-8")  # a lone surrogate would not encode


def test_a_report_suffix_names_its_format(slimport_cli, tmp_path: Path, make_tree) -> None:
    make_tree(tmp_path / "src", {"train.py": "import tensorflow as tf\nx = tf.placeholder(1)\n"})
    refused = slimport_cli("rewrite", "src", "--report", "port.txt")
    assert refused.returncode == 2
    assert ("argument --report: 'port.txt': the report's format follows the file's suffix: "
            ".json for the JSON report, .html for a page to review the port") in refused.stderr
    assert "x = tf.placeholder" in (tmp_path / "src" / "train.py").read_text()
    ran = slimport_cli("rewrite", "src", "--diff", "--report", "PORT.HTML")
    assert ran.returncode == 1, ran.stderr
    page = parse((tmp_path / "PORT.HTML").read_text(encoding="utf-8"))
    assert page.select("tr", "del")[0].select("td")[2].text == "import tensorflow as tf"
    assert "dry run (--diff)" in page.select("header")[0].text


def test_standard_input_has_its_page_too(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    ran = subprocess.run([sys.executable, "-m", "slimport", "rewrite", "-", "--stdin-filename",
                          "train.py", "--report", "port.html"], input=SOURCE, cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout != SOURCE and "tf.contrib" not in ran.stdout
    page = parse((tmp_path / "port.html").read_text(encoding="utf-8"))
    [section] = page.select("details", "file")
    assert section.attrs["data-path"] == "train.py" and "standard input" in page.text
    assert section.select("tr", "add")[0].select("td")[2].text == ran.stdout.splitlines()[0]


# --- in a real browser --------------------------------------------------------------

def _browser() -> None:
    """Skip when Chromium is missing on a developer's machine; in CI it must be there."""
    if report_screenshot.chromium_path() is not None:
        return
    if os.environ.get("CI"):
        pytest.fail("CI is set and chromium is not installed: .ci/run installs it "
                    "(apt-get install chromium)")
    pytest.skip("chromium is not installed (apt-get install chromium); CI installs it")


@pytest.fixture(scope="module")
def ported_example(tmp_path_factory) -> Tuple[Path, dict, Path]:
    """examples/slim_tf1 ported with --report port.html, the JSON report of the same
    port, and a scratch directory for Chromium."""
    _browser()
    scratch = tmp_path_factory.mktemp("page")
    page, _ = report_screenshot.port_example(scratch)
    report, _ = report_screenshot.port_example(scratch, "port.json")
    return page, json.loads(report.read_text(encoding="utf-8")), scratch


def _counts(document: dict) -> Tuple[Dict[str, List[str]], Dict[str, List[str]]]:
    """What the page's by-codemod and by-kind tables must say, from the JSON report."""
    files, counts = defaultdict(set), defaultdict(Counter)
    kinds, kind_files = Counter(), defaultdict(set)
    for entry in document["files"]:
        for finding in entry["findings"]:
            files[finding["codemod"]].add(entry["path"])
            counts[finding["codemod"]][finding["kind"] == EDIT] += 1
            kinds[finding["kind"]] += 1
            kind_files[finding["kind"]].add(entry["path"])
    by_codemod = {name: [name, str(len(files[name])), str(counts[name][True]),
                         str(counts[name][False])] for name in files}
    by_kind = {kind: [kind, str(kinds[kind]), str(len(kind_files[kind]))]
               for kind in html_report.KINDS}
    return by_codemod, by_kind


def test_the_browser_shows_the_port_as_the_json_report_counts_it(ported_example) -> None:
    page_path, document, scratch = ported_example
    page = parse(report_screenshot.dump_dom(page_path, scratch))
    summary = document["summary"]
    totals = {key: cells[1] for key, cells in _rows(page.by_id("totals")).items()}
    assert totals == {key: str(value) for key, value in summary.items()}
    by_codemod, by_kind = _counts(document)
    assert _rows(page.by_id("by-codemod")) == by_codemod
    assert _rows(page.by_id("by-kind")) == by_kind
    # Every file with a change or a finding has its section, with its numbers; every
    # finding is shown once.
    entries = {entry["path"]: entry for entry in document["files"]
               if entry["status"] != UNCHANGED or entry["findings"]}
    sections = page.select("details", "file")
    assert {d.attrs["data-path"]: int(d.attrs["data-edits"]) for d in sections} == {
        path: entry["edits"] for path, entry in entries.items()}
    shown = [f for d in sections for f in d.select(css="finding")]
    assert len(shown) == sum(len(entry["findings"]) for entry in entries.values()) > 100
    # The file that needs attention is first and open, and its finding stands under
    # the line it is about, which the diff shows.
    [needing] = [entry for entry in entries.values()
                 if any(f["kind"] == ATTENTION for f in entry["findings"])]
    [finding] = [f for f in needing["findings"] if f["kind"] == ATTENTION]
    first = sections[0]
    assert first.attrs["data-path"] == needing["path"] and "open" in first.attrs
    assert not any("open" in d.attrs for d in sections[1:])
    rows = first.select("tr")
    [at] = [i for i, row in enumerate(rows) if row.attrs.get("data-kind") == ATTENTION]
    # The change above it (its - and + lines; the line it is about changed).
    change = []
    for row in reversed(rows[:at]):
        if "finding" in row.classes:
            continue
        if row.classes[0] not in ("del", "add"):
            break
        change.append([cell.text for cell in row.select("td")])
    assert [str(finding["source_line"]), ""] in [cells[:2] for cells in change]
    assert ["", str(finding["line"])] in [cells[:2] for cells in change]
    assert all("create_training_graph" in cells[2] for cells in change)
    assert finding["message"] in rows[at].text
    assert [a.attrs["href"] for a in page.by_id("attention-list").select("a")] == [
        f"#{rows[at].attrs['id']}"]


def test_the_buttons_open_close_and_hide_as_they_say(ported_example) -> None:
    page_path, _, scratch = ported_example
    source = page_path.read_text(encoding="utf-8")
    buttons = {button.text: button.attrs["onclick"]
               for button in parse(source).by_id("files").select("button")}
    assert list(buttons) == ["Open all", "Close all", "Show or hide the edits' notes"]
    for pressed, check in [
            (["Open all", "Show or hide the edits' notes"],
             lambda dom: all("open" in d.attrs for d in dom.select("details", "file"))
             and "no-edits" in dom.select("body")[0].classes),
            (["Close all"],
             lambda dom: not any("open" in d.attrs for d in dom.select("details", "file"))
             and "no-edits" not in dom.select("body")[0].classes)]:
        # The buttons' own code, run once the page has loaded, as a click would run it.
        clicked = scratch / "clicked.html"
        script = ";".join(buttons[name] for name in pressed)
        clicked.write_text(source.replace("</body>", f"<script>{script}</script></body>"),
                           encoding="utf-8")
        assert check(parse(report_screenshot.dump_dom(clicked, scratch))), pressed


def _png_pixels(data: bytes) -> Tuple[int, int, List[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, idat = 8, {}, b""
    while position < len(data):
        (length,), kind = struct.unpack(">I", data[position:position + 4]), \
            data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        if kind == b"IDAT":
            idat += body
        chunks.setdefault(kind, body)
        position += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8 and color in (2, 6), (depth, color)
    step = 3 if color == 2 else 4
    raw, rows, previous = zlib.decompress(idat), [], bytes(width * step)
    for y in range(height):
        start = y * (width * step + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + width * step])
        for x in range(len(line)):
            left = line[x - step] if x >= step else 0
            up = previous[x]
            corner = previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                nearest = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                              (abs(guess - corner), 2, corner))[2]
                line[x] = (line[x] + nearest) & 0xFF
        rows.append(bytes(line))
        previous = bytes(line)
    # As RGB, whatever the alpha.
    return width, height, [b"".join(row[i:i + 3] for i in range(0, len(row), step))
                           for row in rows]


def _share(rows: List[bytes], color: Tuple[int, int, int]) -> float:
    pixel = bytes(color)
    total = sum(len(row) // 3 for row in rows)
    return sum(1 for row in rows for i in range(0, len(row), 3) if row[i:i + 3] == pixel) / total


def test_a_screenshot_shows_the_header_the_tables_and_the_diff(ported_example) -> None:
    page_path, _, scratch = ported_example
    image = scratch / "shot.png"
    shot = report_screenshot.screenshot(page_path, image, scratch)
    assert shot.returncode == 0 and image.is_file(), shot.stderr
    width, height, rows = _png_pixels(image.read_bytes())
    assert (width, height) == report_screenshot.WINDOW
    # Not blank: the dark header band, text on white, and the diff's red and green rows.
    assert rows[10][30:33] == bytes((0x24, 0x29, 0x2F))
    assert 0.5 < _share(rows, (255, 255, 255)) < 0.97
    assert _share(rows, (0xFF, 0xEB, 0xE9)) > 0.01  # removed lines
    assert _share(rows, (0xE6, 0xFF, 0xEC)) > 0.01  # added lines
