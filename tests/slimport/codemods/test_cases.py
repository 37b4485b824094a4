"""Every registered codemod over its table of cases (tests/slimport/codemods/cases/).

For each case: the output is the case's (an ``Edit``'s ``after``; a ``Noop``'s or
``Reported``'s source, byte for byte), and a second run over an ``after`` changes nothing
and records no edit (a second ``slimport rewrite`` changes nothing); the findings are the
case's (none for a ``Noop``); the engine's text pre-check lets the codemod see every
source it edits or reports; and every change it makes is in the report. Each codemod has
a table with at least one edit and one no-op, the edit first (docs/codemods.md shows it);
a codemod that only reports has reports instead of edits, the first of them first.
"""
from __future__ import annotations

import pkgutil
from typing import List, Sequence, Tuple, Type

import pytest

from slimport.codemods import CODEMODS, Finding, SlimportCodemod
from slimport.analysis.findings import EDIT
from slimport.analysis.names import identifiers, parse_source
from slimport.engine.passes import EditedText
from tests.slimport.codemods import cases as cases_package
from tests.slimport.codemods._helpers import run_codemod
from tests.slimport.codemods.cases import (
    Case,
    Edit,
    ExpectedFinding,
    Noop,
    Reported,
    attention,
    cases_of,
    edit,
    text_precheck_of,
)


def _all_cases() -> List[Tuple[Type[SlimportCodemod], Case]]:
    return [(codemod, case) for codemod in CODEMODS for case in cases_of(codemod.NAME) or ()]


ALL_CASES = _all_cases()

# What a codemod gets wrong today, each with the bug: (check, codemod, case title) -> why.
# Strict: the check fails the run once the bug is fixed, so that its entry goes.
KNOWN_BUGS = {
}


def _params(check: str, kinds: Tuple[type, ...]) -> list:
    """pytest params (codemod, case) of the cases of ``kinds``, KNOWN_BUGS marked."""
    return [pytest.param(codemod, case, id=f"{codemod.NAME}-{case.title}", marks=[
        pytest.mark.xfail(reason=KNOWN_BUGS[check, codemod.NAME, case.title], strict=True)]
        if (check, codemod.NAME, case.title) in KNOWN_BUGS else [])
        for codemod, case in ALL_CASES if isinstance(case, kinds)]


def _run(codemod: Type[SlimportCodemod], case: Case, source: str) -> Tuple[str, List[Finding]]:
    return run_codemod(codemod, source, tree=case.tree, path=case.path, **case.options)


def _matches(expected: ExpectedFinding, finding: Finding) -> bool:
    return (finding.line, finding.kind) == (expected.line, expected.kind) \
        and expected.message in finding.message and expected.fix in finding.fix


def _shown(findings: Sequence[Finding]) -> str:
    return "\n".join(f"  line {f.line} {f.kind}: {f.message!r} (fix: {f.fix!r})"
                     for f in findings) or "  none"


def assert_findings(expected: Sequence[ExpectedFinding], findings: Sequence[Finding],
                    kinds: Sequence[str]) -> None:
    """The findings of ``kinds`` are, in order, the ones ``expected`` lists of them.

    Args:
      expected: the case's findings.
      findings: the run's.
      kinds: the kinds to compare.
    """
    wanted = [e for e in expected if e.kind in kinds]
    got = [f for f in findings if f.kind in kinds]
    if len(wanted) != len(got) or not all(map(_matches, wanted, got)):
        pytest.fail("findings differ from the case's\nexpected:\n"
                    + ("\n".join("  " + e.describe() for e in wanted) or "  none")
                    + "\ngot:\n" + _shown(got), pytrace=False)


def _source(case: Case) -> str:
    return case.before if isinstance(case, Edit) else case.source


def _expected_output(case: Case) -> str:
    return case.after if isinstance(case, Edit) else case.source


@pytest.mark.parametrize(("codemod", "case"), _params("output", (Edit, Noop, Reported)))
def test_output(codemod: Type[SlimportCodemod], case: Case) -> None:
    """The output is the case's, and a second run leaves it as it is, recording no edit."""
    code, _ = _run(codemod, case, _source(case))
    assert code == _expected_output(case)
    if isinstance(case, Edit):
        again, findings = _run(codemod, case, case.after)
        assert again == case.after, "a second run changes the output again"
        # What could not be ported may be reported again; nothing else.
        reported = {e.kind for e in case.findings} - {EDIT}
        new = [f for f in findings if f.kind not in reported]
        assert new == [], "a second run over the output records:\n" + _shown(new)


@pytest.mark.parametrize(("codemod", "case"), _params("findings", (Edit, Noop, Reported)))
def test_findings(codemod: Type[SlimportCodemod], case: Case) -> None:
    """A no-op reports nothing; a reported case exactly its findings; an edit its attention
    findings, and its edit findings when it lists any."""
    _, findings = _run(codemod, case, _source(case))
    expected = () if isinstance(case, Noop) else case.findings
    kinds = {f.kind for f in findings} | {e.kind for e in expected}
    if isinstance(case, Edit) and EDIT not in {e.kind for e in expected}:
        kinds.discard(EDIT)
    assert_findings(expected, findings, sorted(kinds))


@pytest.mark.parametrize(("codemod", "case"), _params("precheck", (Edit, Reported)))
def test_the_text_precheck_lets_the_engine_run_it(codemod: Type[SlimportCodemod],
                                                   case: Case) -> None:
    assert codemod.applies_to(_source(case)), (
        f"{codemod.NAME}'s text pre-check (applies_to, TRIGGERS) refuses this source: the "
        "engine would never run the codemod on the file, and neither edit it nor report")


@pytest.mark.parametrize(("codemod", "case"), _params("names", (Edit, Reported)))
def test_the_name_precheck_lets_the_engine_run_it(codemod: Type[SlimportCodemod],
                                                  case: Case) -> None:
    # The engine asks the identifiers before the text: a NAME_TRIGGERS set that misses a
    # name an edit or a report is at would hide the file from the codemod.
    spelled = identifiers(parse_source(_source(case)))
    assert codemod.applies_to_names(spelled), (
        f"{codemod.NAME}'s name pre-check (applies_to_names, NAME_TRIGGERS) refuses this "
        f"source, which spells {sorted(spelled)}: the engine would never run the codemod "
        "on the file")


@pytest.mark.parametrize("codemod", CODEMODS, ids=lambda codemod: codemod.NAME)
def test_an_edited_texts_precheck_is_the_whole_texts(codemod: Type[SlimportCodemod]) -> None:
    # The engine searches an edited text's new lines only, for the words the text it
    # started from lacks: every table's edits, and texts that share nothing, as edits.
    texts = [text for _, case in ALL_CASES if isinstance(case, Edit)
             for text in (case.before, case.after)]
    for start, edited in [*zip(texts[::2], texts[1::2]), *zip(texts[1:], texts[2:])]:
        assert EditedText(start).applies(codemod, edited) is codemod.applies_to(edited), (
            f"{codemod.NAME}: the pre-check of\n{edited}\nedited from\n{start}")


@pytest.mark.parametrize(("codemod", "source", "passes"), [
    pytest.param(codemod, source, passes, id=f"{codemod.NAME}-{'passes' if passes else 'skips'} "
                 f"{source.splitlines()[-1]}")
    for codemod in CODEMODS for source, passes in text_precheck_of(codemod.NAME).items()])
def test_the_text_precheck_as_its_table_says(codemod: Type[SlimportCodemod], source: str,
                                             passes: bool) -> None:
    assert codemod.applies_to(source) is passes


@pytest.mark.parametrize(("codemod", "case"), _params("recorded", (Edit,)))
def test_every_change_is_in_the_report(codemod: Type[SlimportCodemod], case: Edit) -> None:
    # An edit, or an attention finding that says what the code became (a stand-in).
    _, findings = _run(codemod, case, case.before)
    assert findings, "the codemod changed the file and recorded nothing, so the report " \
        "does not show the change"


@pytest.mark.parametrize("codemod", CODEMODS, ids=lambda codemod: codemod.NAME)
def test_every_codemod_has_a_table(codemod: Type[SlimportCodemod]) -> None:
    table = cases_of(codemod.NAME)
    if table is None:
        pytest.fail(f"no cases for {codemod.NAME}: write tests/slimport/codemods/cases/"
                    f"{codemod.NAME}.py with CASES = [Edit(...), ..., Noop(...), ...]",
                    pytrace=False)
    # A codemod that only reports (it edits nothing) leads with what it reports.
    shows = Edit if any(isinstance(case, Edit) for case in table) else Reported
    assert table and isinstance(table[0], shows), (
        f"cases/{codemod.NAME}.py: the first case must be the {shows.__name__} that shows the "
        "codemod best (docs/codemods.md shows it)")
    assert any(isinstance(case, Noop) for case in table), (
        f"cases/{codemod.NAME}.py has no Noop: write the sources it must leave alone")
    titles = [case.title for case in table]
    assert sorted({t for t in titles if titles.count(t) > 1}) == [], "titles repeat"
    declared = set(codemod.OPTIONS) | {fact.name for fact in codemod.TREE_FACTS}
    unknown = sorted(set().union(*(case.options for case in table)) - declared)
    assert unknown == [], f"options {codemod.NAME} does not declare in OPTIONS or TREE_FACTS"


def test_every_table_is_a_registered_codemods() -> None:
    names = {codemod.NAME for codemod in CODEMODS}
    modules = {info.name for info in pkgutil.iter_modules(cases_package.__path__)}
    assert sorted(modules - names) == []


def test_every_known_bug_names_a_case() -> None:
    cases = {(codemod.NAME, case.title) for codemod, case in ALL_CASES}
    assert sorted(key for key in KNOWN_BUGS if key[1:] not in cases) == []


def test_each_check_fails_on_a_wrong_case() -> None:
    from slimport.codemods.numpy_aliases import NumpyAliasesCommand

    source, ported = "import numpy as np\nx = np.float(1)\n", "import numpy as np\nx = float(1)\n"
    test_output(NumpyAliasesCommand, Edit("right", source, ported))
    with pytest.raises(AssertionError):
        test_output(NumpyAliasesCommand, Edit("wrong output", source, source))
    with pytest.raises(AssertionError):
        test_output(NumpyAliasesCommand, Noop("an edit where none is due", source))
    with pytest.raises(pytest.fail.Exception):
        test_findings(NumpyAliasesCommand, Edit("wrong line", source, ported, [edit(1)]))
    with pytest.raises(pytest.fail.Exception):
        test_findings(NumpyAliasesCommand, Edit("a finding it does not make", source, ported,
                                                [attention(2)]))
    with pytest.raises(pytest.fail.Exception):
        test_findings(NumpyAliasesCommand, Noop("a noop that reports", source))
