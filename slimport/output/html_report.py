"""``--report FILE.html``: one static page to review a port, file by file.

The page needs nothing but a browser: no network, no script library, its styles
inline; two buttons open or close every file with a line of script each. From the
top: the totals, the findings counted by codemod and by kind, what concerns the run
or the tree as a whole, then every file in groups. Files that need a person come
first (a finding of kind attention or warning), then failures (with the reason),
changed files, skipped files (with the reason) and, by name only, unchanged files.
A file shows its edits as a diff, each finding under the line it is about; the
files that need a person are open, the others closed.

The diffs come from ``FileResult.review``: the changes and the findings' lines with
context (``slimport.output.diffs.review_hunks``), which the engine keeps only when
this page is asked for (``PortSettings.review``). A finding's place in the diff is
its line in the source; the number it shows is its line in the file the user goes on
to edit, as in the summary and the JSON report.
"""
from __future__ import annotations

import html
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

from slimport import __version__
from slimport.analysis.findings import ATTENTION, EDIT, WARNING, Finding
from slimport.output.diffs import ADDED, KEPT, Hunk
from slimport.output.results import CHANGED, FAILED, SKIPPED, UNCHANGED, FileResult, TreeFinding
from slimport.output.summary import count, summarize

KINDS = (EDIT, ATTENTION, WARNING)
# The groups files are shown in, top to bottom: (id, heading).
NEEDS_ATTENTION = "needs-attention"
GROUPS = (
    (NEEDS_ATTENTION, "Files that need attention"),
    (FAILED, "Failed, left untouched"),
    (CHANGED, "Changed"),
    (SKIPPED, "Skipped"),
    (UNCHANGED, "Unchanged"),
)
_MODES = {
    "in-place": "ported in place",
    "out": "ported into a copy (--out)",
    "diff": "dry run (--diff): nothing was written",
    "check": "dry run (--check): nothing was written",
    "stdin": "standard input ported to standard output",
}
# C0 control characters but tab and line ends, shown as their Unicode pictures
# (U+2400...): HTML cannot hold most of them, and a form feed or NUL in a source line
# should be seen. (A source line has no line end; a message's is a space in HTML.)
_CONTROL_PICTURES = {code: 0x2400 + code for code in range(0x20) if code not in (9, 10, 13)}
_CONTROL_PICTURES[0x7F] = 0x2421

_STYLE = """
:root{--line:#d0d7de;--muted:#57606a;--add:#e6ffec;--del:#ffebe9;--att:#fff8c5;--edit:#ddf4ff}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328}
header{background:#24292f;color:#fff;padding:12px 24px}
header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#d0d7de}
main{padding:8px 24px 48px}h2{font-size:17px;margin:20px 0 8px}
.tables{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
table.counts{border-collapse:collapse}
table.counts th,table.counts td{padding:2px 10px;border-bottom:1px solid var(--line);
text-align:right}
table.counts th:first-child,table.counts td:first-child{text-align:left}
table.counts caption{text-align:left;font-weight:600;padding-bottom:4px}
details.file{border:1px solid var(--line);border-radius:6px;margin:6px 0}
details.file>summary{padding:5px 10px;cursor:pointer;background:#f6f8fa;border-radius:6px}
details.file[open]>summary{border-bottom:1px solid var(--line);border-radius:6px 6px 0 0}
.path{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-weight:600}
.badge{display:inline-block;padding:0 7px;margin-left:6px;border-radius:10px;font-size:12px;
background:var(--edit)}
.badge.attention,.badge.warning{background:var(--att)}.badge.failed{background:var(--del)}
.codemods{color:var(--muted);font-size:12px;margin-left:6px}
.scroll{overflow-x:auto}
table.diff{border-collapse:collapse;width:100%;
font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
table.diff td{padding:0 8px;vertical-align:top}
td.ln{width:1%;min-width:2.5em;text-align:right;color:var(--muted);user-select:none}
td.code{white-space:pre;tab-size:4;width:98%}
tr.add td{background:var(--add)}tr.del td{background:var(--del)}
tr.add td.code::before{content:"+ "}tr.del td.code::before{content:"- "}
tr.ctx td.code::before{content:"  "}
tr.hunk td{background:#f6f8fa;color:var(--muted);padding:2px 8px}
.finding{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;white-space:normal}
tr.finding td,div.finding{background:var(--edit);border-left:4px solid #0969da;padding:1px 8px;
font-size:12px}
tr.finding.attention td,tr.finding.warning td,div.finding.attention,div.finding.warning{
background:var(--att);border-left-color:#bf8700}
div.finding{margin:6px 10px}
.kind{font-weight:600;text-transform:uppercase;font-size:11px;margin-right:6px}
.fix{color:#1a7f37}.reason{margin:6px 10px;color:#cf222e}
ul.names{columns:2;font-family:ui-monospace,monospace;font-size:12px}
ul.paths{font-family:ui-monospace,monospace;font-size:12px;margin:4px 0}
button{margin-right:6px}
body.no-edits .finding.edit{display:none}
#attention-list ol{padding-left:24px}#attention-list li{margin:2px 0}
"""
_SCRIPT = ("function setAll(open){document.querySelectorAll('details.file')"
           ".forEach(function(d){d.open=open;});}")


def _text(value: object) -> str:
    """``value`` as text safe in HTML: escaped, control characters made visible, and
    a path's undecodable bytes (lone surrogates) written as escapes."""
    text = html.escape(str(value).translate(_CONTROL_PICTURES))
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _group(result: FileResult) -> str:
    if result.attention:
        return NEEDS_ATTENTION
    return result.status


def _finding_body(finding: Finding) -> str:
    where = f"line {finding.line}: " if finding.line else ""
    fix = f'<div class="fix">fix: {_text(finding.fix)}</div>' if finding.fix else ""
    return (f'<span class="kind">{_text(finding.kind)}</span>'
            f'<span class="codemod">[{_text(finding.codemod)}]</span> '
            f'{where}{_text(finding.message)}{fix}')


# A finding as the page shows it: its anchor (``f3-0``: file 3's first finding) and it.
Placed = Tuple[str, Finding]


def _finding_row(placed: Placed) -> str:
    anchor, finding = placed
    return (f'<tr class="finding {_text(finding.kind)}" id="{anchor}" '
            f'data-kind="{_text(finding.kind)}"><td colspan="3">{_finding_body(finding)}'
            '</td></tr>')


def _finding_block(placed: Placed) -> str:
    anchor, finding = placed
    return (f'<div class="finding {_text(finding.kind)}" id="{anchor}" '
            f'data-kind="{_text(finding.kind)}">{_finding_body(finding)}</div>')


def _diff_rows(hunks: Sequence[Hunk], by_line: Dict[int, List[Placed]]) -> Iterator[str]:
    """The rows of a file's diff table, each finding after the change its line is in.

    Takes the findings it places out of ``by_line``.
    """
    for hunk in hunks:
        yield (f'<tr class="hunk"><td colspan="3">@@ -{hunk.old_start},{hunk.old_count} '
               f'+{hunk.new_start},{hunk.new_count} @@</td></tr>')
        old_line, new_line = hunk.old_start, hunk.new_start
        pending: List[Placed] = []
        for index, (tag, code) in enumerate(hunk.lines):
            if tag == ADDED:
                yield (f'<tr class="add"><td class="ln"></td><td class="ln">{new_line}</td>'
                       f'<td class="code">{_text(code)}</td></tr>')
                new_line += 1
            else:
                css, shown_new = ("ctx", str(new_line)) if tag == KEPT else ("del", "")
                yield (f'<tr class="{css}"><td class="ln">{old_line}</td><td class="ln">'
                       f'{shown_new}</td><td class="code">{_text(code)}</td></tr>')
                pending += by_line.pop(old_line, [])
                old_line += 1
                new_line += tag == KEPT
            # A finding goes under the whole change (its - and + lines) it is about.
            next_tag = hunk.lines[index + 1][0] if index + 1 < len(hunk.lines) else KEPT
            if pending and (tag == KEPT or next_tag == KEPT):
                yield from map(_finding_row, pending)
                pending = []


def _anchor(number: int, index: int) -> str:
    """The id of file ``number``'s finding ``index``."""
    return f"f{number}-{index}"


def _file_body(result: FileResult, number: int) -> str:
    parts: List[str] = []
    if result.error:
        where = f"line {result.error_line}: " if result.error_line else ""
        parts.append(f'<p class="reason">{where}{_text(result.error)}</p>')
    by_line: Dict[int, List[Placed]] = defaultdict(list)
    for index, finding in enumerate(result.findings):
        by_line[result.source_line(index)].append((_anchor(number, index), finding))
    rows = list(_diff_rows(result.review or (), by_line))
    # What has no line in the diff: findings about the whole file, and any whose
    # line the diff does not show.
    parts += [_finding_block(placed) for line in sorted(by_line) for placed in by_line[line]]
    if rows:
        parts.append('<div class="scroll"><table class="diff">' + "".join(rows)
                     + "</table></div>")
    elif result.status == CHANGED:
        parts.append('<p class="reason">no diff was kept for this file</p>')
    return "".join(parts)


def _file_section(result: FileResult, number: int) -> str:
    attention = len(result.attention)
    badges = []
    if result.edits:
        badges.append(f'<span class="badge">{count(result.edits, "edit")}</span>')
    if attention:
        badges.append(f'<span class="badge attention">{count(attention, "needs", "need")} '
                      'attention</span>')
    if result.status in (FAILED, SKIPPED):
        badges.append(f'<span class="badge failed">{result.status}</span>')
    output = ""
    if result.output and result.output != result.path:
        output = f' &rarr; <span class="path">{_text(result.output)}</span>'
    codemods = (f'<span class="codemods">{_text(", ".join(result.codemods))}</span>'
                if result.codemods else "")
    opened = " open" if result.attention or result.status == FAILED else ""
    return (f'<details class="file" id="file-{number}" data-path="{_text(result.path)}" '
            f'data-status="{result.status}" data-edits="{result.edits}" '
            f'data-attention="{attention}"{opened}><summary><span class="path">'
            f'{_text(result.path)}</span>{output}{"".join(badges)}{codemods}</summary>'
            f'{_file_body(result, number)}</details>')


def _counts_table(table_id: str, caption: str, header: Sequence[str],
                  rows: Sequence[Tuple[object, ...]]) -> str:
    head = "".join(f"<th>{_text(name)}</th>" for name in header)
    body = "".join(
        f'<tr data-key="{_text(row[0])}">' + "".join(f"<td>{_text(cell)}</td>" for cell in row)
        + "</tr>" for row in rows)
    return (f'<table class="counts" id="{table_id}"><caption>{_text(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def by_codemod(results: Sequence[FileResult], tree_findings: Sequence[TreeFinding] = ()
               ) -> List[Tuple[str, int, int, int]]:
    """(codemod, files, edits, items needing attention) for every codemod with a finding,
    most findings first.

    Args:
      results: every FileResult of the run.
      tree_findings: the findings about the tree (each counts once, its files as files).

    Returns:
      One row per codemod (or step, such as ``protos``).
    """
    files: Dict[str, set] = defaultdict(set)
    counts: Dict[str, Counter] = defaultdict(Counter)
    for result in results:
        for finding in result.findings:
            files[finding.codemod].add(result.path)
            counts[finding.codemod][finding.kind == EDIT] += 1
    for tree_finding in tree_findings:
        files[tree_finding.finding.codemod].update(tree_finding.paths)
        counts[tree_finding.finding.codemod][False] += 1
    rows = [(name, len(files[name]), counts[name][True], counts[name][False]) for name in files]
    return sorted(rows, key=lambda row: (-row[2] - row[3], row[0]))


def by_kind(results: Sequence[FileResult], tree_findings: Sequence[TreeFinding] = ()
            ) -> List[Tuple[str, int, int]]:
    """(kind, findings, files) for each kind of finding (edit, attention, warning).

    Args:
      results: every FileResult of the run.
      tree_findings: the findings about the tree (each counts once, its files as files).

    Returns:
      One row per kind, in the order of ``KINDS``.
    """
    findings: Counter = Counter()
    files: Dict[str, set] = defaultdict(set)
    for result in results:
        for finding in result.findings:
            findings[finding.kind] += 1
            files[finding.kind].add(result.path)
    for tree_finding in tree_findings:
        findings[tree_finding.finding.kind] += 1
        files[tree_finding.finding.kind].update(tree_finding.paths)
    return [(kind, findings[kind], len(files[kind])) for kind in KINDS]


def _run_notes(warnings: Sequence[str], tree_findings: Sequence[TreeFinding]) -> str:
    if not warnings and not tree_findings:
        return ""
    parts = ['<section id="run-notes"><h2>The run as a whole</h2>']
    for tree_finding in tree_findings:
        paths = "".join(f"<li>{_text(path)}</li>" for path in tree_finding.paths)
        parts.append(f'<div class="finding tree {_text(tree_finding.finding.kind)}" '
                     f'data-kind="{_text(tree_finding.finding.kind)}">'
                     f'{_finding_body(tree_finding.finding)}<details><summary>'
                     f'{count(len(tree_finding.paths), "file")}'
                     f'</summary><ul class="paths">{paths}</ul></details></div>')
    parts += [f'<div class="finding warning run" data-kind="{WARNING}">'
              f'<span class="kind">{WARNING}</span>{_text(warning)}</div>'
              for warning in warnings]
    return "".join(parts) + "</section>"


def _grouped(results: Sequence[FileResult]) -> List[Tuple[str, str, List[FileResult]]]:
    """(id, heading, files) of each group with files, in the page's order."""
    grouped: Dict[str, List[FileResult]] = defaultdict(list)
    for result in results:
        grouped[_group(result)].append(result)
    return [(group, heading, grouped[group]) for group, heading in GROUPS if grouped[group]]


def _numbered(groups: List[Tuple[str, str, List[FileResult]]]) -> Iterator[Tuple[int, FileResult]]:
    """Each file shown with a section, and its number (from 1, in the page's order)."""
    shown = (result for group, _, members in groups if group != UNCHANGED for result in members)
    return enumerate(shown, start=1)


def _attention_list(groups: List[Tuple[str, str, List[FileResult]]]) -> str:
    """Every finding that needs a person, as the terminal summary lists them, each a
    link to its place in its file."""
    items = []
    for number, result in _numbered(groups):
        for index, finding in enumerate(result.findings):
            if finding.kind in (ATTENTION, WARNING):
                where = f"{result.shown}:{finding.line}" if finding.line else result.shown
                fix = f' &mdash; <span class="fix">fix: {_text(finding.fix)}</span>' \
                    if finding.fix else ""
                items.append(f'<li><a href="#{_anchor(number, index)}">{_text(where)}</a>: '
                             f'[{_text(finding.codemod)}] {_text(finding.message)}{fix}</li>')
    if not items:
        return ""
    return (f'<section id="attention-list"><h2>Needs attention ({len(items)})</h2>'
            f'<ol>{"".join(items)}</ol></section>')


def _files(groups: List[Tuple[str, str, List[FileResult]]]) -> str:
    parts = ['<section id="files"><h2>Files</h2><p><button type="button" '
             'onclick="setAll(true)">Open all</button><button type="button" '
             'onclick="setAll(false)">Close all</button><button type="button" '
             'onclick="document.body.classList.toggle(\'no-edits\')">Show or hide the '
             'edits\' notes</button></p>']
    sections = {id(result): _file_section(result, number) for number, result in _numbered(groups)}
    for group, heading, members in groups:
        parts.append(f'<section class="group" id="{group}"><h2>{heading} ({len(members)})</h2>')
        if group == UNCHANGED:
            names = "".join(f"<li>{_text(result.path)}</li>" for result in members)
            parts.append(f'<ul class="names">{names}</ul>')
        else:
            parts += [sections[id(result)] for result in members]
        parts.append("</section>")
    return "".join(parts) + "</section>"


def to_html(results: Sequence[FileResult], mode: str, copied: int = 0,
            warnings: Sequence[str] = (), tree_findings: Sequence[TreeFinding] = ()) -> str:
    """The page (see this module's docstring).

    Args:
      results: every FileResult of the run, sorted by path; their ``review`` hunks are
        the diffs shown.
      mode: "in-place", "out", "diff", "check" or "stdin".
      copied: non-Python files copied by --out.
      warnings: about the run as a whole.
      tree_findings: findings about many files at once.

    Returns:
      A whole HTML document.
    """
    totals = summarize(results, copied, tree_findings)
    groups = _grouped(results)
    dry = mode in ("diff", "check")
    total_rows = [("files", totals["files"]),
                  ("would change" if dry else "changed", totals[CHANGED]),
                  *((key, totals[key]) for key in
                    (UNCHANGED, FAILED, SKIPPED, "copied", "edits", "attention"))]
    tables = "".join([
        _counts_table("totals", "Totals", ("", "count"), total_rows),
        _counts_table("by-codemod", "By codemod",
                      ("codemod", "files", "edits", "need attention"),
                      by_codemod(results, tree_findings)),
        _counts_table("by-kind", "By kind of finding", ("kind", "findings", "files"),
                      by_kind(results, tree_findings)),
    ])
    return "".join([
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>slimport port report</title><style>{_STYLE}</style>"
        f"<script>{_SCRIPT}</script></head><body>",
        f"<header><h1>slimport port report</h1><p>slimport {_text(__version__)} &middot; "
        f"{_text(_MODES.get(mode, mode))} &middot; {totals[CHANGED]} of "
        f"{count(totals['files'], 'file')} {'would change' if dry else 'changed'}, "
        f"{count(totals['edits'], 'edit')}, {count(totals['attention'], 'needs', 'need')} "
        "attention</p></header><main>",
        f'<section id="summary"><div class="tables">{tables}</div></section>',
        _run_notes(warnings, tree_findings),
        _attention_list(groups),
        _files(groups),
        "</main></body></html>\n",
    ])


def write_html(path: Path, results: Sequence[FileResult], mode: str, copied: int = 0,
               warnings: Sequence[str] = (), tree_findings: Sequence[TreeFinding] = ()
               ) -> None:
    """Write the page to ``path`` (UTF-8); arguments as ``to_html``'s."""
    path.write_text(to_html(results, mode, copied, warnings, tree_findings), encoding="utf-8")
