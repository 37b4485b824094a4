"""Write docs/codemods.md: the codemod reference, generated from the registry.

Usage: python tools/gen_codemod_docs.py

For each codemod of ``slimport.codemods.CODEMODS``, in the order ``slimport rewrite``
runs them: its name, what it does (``DESCRIPTION``), why (its module docstring's first
paragraph after the summary line, with the list that paragraph introduces), its options
(``OPTIONS``, each as its ``__init__`` docstring's Args say), and an example: the first
case of its table in tests/slimport/codemods/cases/, before and after. The page reads
like ruff's rule pages (what it does / why / example); tests/tools/test_codemod_docs.py
fails when it is stale.
"""
from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Dict, List, Sequence, Type

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "codemods.md"
COMMAND = "python tools/gen_codemod_docs.py"
CASES_DIR = "tests/slimport/codemods/cases"
sys.path.insert(0, str(ROOT))

from slimport.codemods import CODEMODS, SlimportCodemod  # noqa: E402  (ROOT on sys.path first
from tests.slimport.codemods.cases import Edit, Noop, Reported, cases_of  # noqa: E402


def _paragraphs(text: str) -> List[str]:
    return [block.strip("\n") for block in re.split(r"\n\s*\n", text) if block.strip()]


def why(codemod: Type[SlimportCodemod]) -> str:
    """Why the codemod exists: its module docstring's first paragraph after the summary line,
    and the paragraph after it when the first ends with a colon (the list it introduces).

    Args:
      codemod: a registered codemod.

    Returns:
      The text, as the docstring has it.

    Raises:
      ValueError: the module docstring has no paragraph after its summary line.
    """
    module = sys.modules[codemod.__module__]
    paragraphs = _paragraphs(inspect.getdoc(module) or "")
    if len(paragraphs) < 2:
        raise ValueError(f"{module.__name__}: its docstring needs a paragraph after the summary "
                         "line saying why the codemod exists (docs/codemods.md shows it)")
    chosen = paragraphs[1:2]
    if chosen[0].endswith(":") and len(paragraphs) > 2:
        chosen.append(paragraphs[2])
    return "\n\n".join(chosen)


def options(codemod: Type[SlimportCodemod], names: Sequence[str]) -> Dict[str, str]:
    """Each of ``names`` (keyword arguments of the codemod: its ``OPTIONS`` or its tree
    facts) and what its ``__init__`` docstring says of it.

    Args:
      codemod: a registered codemod.
      names: the keyword arguments to describe.

    Returns:
      name -> its description, in the order of ``names``.

    Raises:
      ValueError: a name the ``__init__`` docstring's Args do not describe.
    """
    lines = (inspect.getdoc(codemod.__init__) or "").splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if line.strip() == "Args:"), len(lines))
    args = lines[start:]
    indent = min((len(line) - len(line.lstrip()) for line in args if line.strip()), default=0)
    described: Dict[str, str] = {}
    name = None
    for line in args:
        depth = len(line) - len(line.lstrip())
        entry = re.match(r"(\*{0,2}\w+): (.*)$", line.strip())
        if depth == indent and entry:
            name = entry.group(1)
            described[name] = entry.group(2)
        elif depth > indent and name:
            described[name] += " " + line.strip()
        else:
            break
    found = {}
    for option in names:
        if option not in described:
            raise ValueError(f"{codemod.__name__}.__init__: its docstring's Args do not describe "
                             f"the option {option!r} (docs/codemods.md shows them)")
        found[option] = described[option]
    return found


def _code_block(source: str) -> List[str]:
    # A fence shows CRLF line endings as LF: say so.
    shown = source.replace("\r\n", "\n")
    note = ["(The file has CRLF line endings.)", ""] if shown != source else []
    return note + ["```python", *shown.rstrip("\n").split("\n"), "```"]


def section(number: int, codemod: Type[SlimportCodemod]) -> List[str]:
    """The codemod's section of the page.

    Args:
      number: its place in the run order, from 1.
      codemod: a registered codemod.

    Returns:
      The section's lines.

    Raises:
      ValueError: the codemod has no table of cases, or its first case is no Edit (no
        Reported, for a codemod that only reports).
    """
    cases = cases_of(codemod.NAME)
    # A codemod that only reports leads with what it reports.
    shows = Edit if any(isinstance(case, Edit) for case in cases or ()) else Reported
    if not cases or not isinstance(cases[0], shows):
        raise ValueError(f"{codemod.NAME}: {CASES_DIR}/{codemod.NAME}.py must start with the "
                         f"{shows.__name__} that shows the codemod best")
    example = cases[0]
    lines = [f"## {codemod.NAME}", "",
             f"{number} of {len(CODEMODS)}; `{codemod.__module__}.{codemod.__name__}`.", "",
             "**What it does.** " + codemod.DESCRIPTION.rstrip(".") + ".", "",
             "**Why.** " + why(codemod), ""]
    for title, names in (("Options", codemod.OPTIONS),
                         ("What it reads of the whole tree",
                          [fact.name for fact in codemod.TREE_FACTS])):
        described = options(codemod, names)
        if described:
            lines += [f"**{title}.**", ""]
            lines += [f"- `{name}`: {text}" for name, text in described.items()]
            lines.append("")
    lines += [f"**Example** ({example.title}):", ""]
    if isinstance(example, Edit):
        lines += [*_code_block(example.before), "", "becomes", "", *_code_block(example.after),
                  ""]
    else:
        lines += [*_code_block(example.source), "", "is left as it is, and reported:", "",
                  *(f"- line {finding.line}: …{finding.message}…"
                    + (f" (fix: …{finding.fix}…)" if finding.fix else "")
                    for finding in example.findings), ""]
    counts = {kind.__name__: sum(isinstance(case, kind) for case in cases)
              for kind in (Edit, Noop, Reported)}
    lines += [f"All its cases: [`{CASES_DIR}/{codemod.NAME}.py`](../{CASES_DIR}/{codemod.NAME}.py) "
              f"({counts['Edit']} edits, {counts['Noop']} no-ops, {counts['Reported']} left and "
              "reported).", ""]
    return lines


def render(codemods: Sequence[Type[SlimportCodemod]] = CODEMODS) -> str:
    """The whole page.

    Args:
      codemods: the codemods, in run order.

    Returns:
      docs/codemods.md's text.
    """
    lines = [
        "# The codemods",
        "",
        f"<!-- Generated by {COMMAND} from slimport.codemods.CODEMODS and the first case of "
        f"each table in {CASES_DIR}/; edit those, then run the command. -->",
        "",
        f"`slimport rewrite` runs these {len(codemods)} codemods over every Python file, in this "
        "order (`slimport list` prints it). Each is one libcst codemod in "
        "`slimport/codemods/<name>.py`, and each has a table of cases in "
        f"`{CASES_DIR}/<name>.py`: the sources it edits, the ones it must leave alone, and what "
        "it reports; the example below is the first of them.",
        "",
        "| # | codemod | what it does |",
        "|---|---|---|",
    ]
    lines += [f"| {number} | [`{codemod.NAME}`](#{codemod.NAME}) | "
              f"{codemod.DESCRIPTION.replace('|', '&#124;')} |"
              for number, codemod in enumerate(codemods, 1)]
    lines.append("")
    for number, codemod in enumerate(codemods, 1):
        lines += section(number, codemod)
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> int:
    """Write docs/codemods.md.

    Returns:
      The exit status, 0.
    """
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)} ({len(CODEMODS)} codemods)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
