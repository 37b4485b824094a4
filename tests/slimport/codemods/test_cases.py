"""Every registered codemod over its table of cases (tests/slimport/codemods/cases/).

An ``Edit`` must give its ``after`` and findings, and give ``after`` back unchanged with
no edit recorded (a second ``slimport rewrite`` changes nothing); a ``Noop`` must come
back byte for byte with no finding at all; a ``Reported`` case byte for byte with
exactly its findings. Each codemod has a table with at least one edit and one no-op, the
edit first (docs/codemods.md shows it).
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import List, Optional, Sequence, Tuple, Type

import pytest

from slimport.codemods import CODEMODS, Finding, SlimportCodemod
from slimport.codemods._findings import EDIT
from tests.slimport.codemods import cases as cases_package
from tests.slimport.codemods._helpers import run_codemod
from tests.slimport.codemods.cases import Case, Edit, ExpectedFinding, Noop, Reported


def table_of(codemod: Type[SlimportCodemod]) -> Optional[Sequence[Case]]:
    """The codemod's ``CASES``, from ``cases/<NAME>.py``.

    Args:
      codemod: a registered codemod.

    Returns:
      Its cases, in their order; None when it has no cases module.
    """
    name = f"{cases_package.__name__}.{codemod.NAME}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None
    return module.CASES


def _all_cases() -> List[Tuple[Type[SlimportCodemod], Case]]:
    return [(codemod, case) for codemod in CODEMODS for case in table_of(codemod) or ()]


ALL_CASES = _all_cases()

# What a codemod gets wrong today, each with the bug: (check, codemod, case title) -> why.
# Strict: the check fails the run once the bug is fixed, so that its entry goes.
KNOWN_BUGS = {
    ("recorded", "contrib_symbols", "unused import of a gone module is dropped"): (
        "contrib_symbols' _DropModuleAliases removes the import and records no finding: "
        "the file changes and the report lists nothing at that line"),
    ("precheck", "tf0_names", "uses that are not calls"): (
        "tf0_names' TRIGGERS all end in '(' (mul(, rnn(): a file whose only 0.x names are "
        "not called (ops = {'mul': tf.mul}) fails the text pre-check, and `slimport rewrite` "
        "leaves tf.mul, which TensorFlow 2 lacks, without a report"),
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


def check_edit(codemod: Type[SlimportCodemod], case: Edit) -> None:
    """``before`` -> ``after`` with the case's findings; ``after`` stays, with no edit."""
    code, findings = _run(codemod, case, case.before)
    assert code == case.after
    # Edit findings are compared only when the case lists some.
    kinds = {f.kind for f in findings} | {e.kind for e in case.findings}
    if EDIT not in {e.kind for e in case.findings}:
        kinds.discard(EDIT)
    assert_findings(case.findings, findings, sorted(kinds))
    again, findings_again = _run(codemod, case, case.after)
    assert again == case.after, "a second run changes the output again"
    assert [f for f in findings_again if f.kind == EDIT] == [], (
        "a second run records edits on the output:\n" + _shown(findings_again))


def check_unchanged(codemod: Type[SlimportCodemod], case: Case, source: str,
                    expected: Sequence[ExpectedFinding]) -> None:
    """``source`` comes back byte for byte, with exactly ``expected``."""
    code, findings = _run(codemod, case, source)
    assert code == source
    assert_findings(expected, findings, sorted({f.kind for f in findings}
                                               | {e.kind for e in expected}))


@pytest.mark.parametrize(("codemod", "case"), _params("case", (Edit, Noop, Reported)))
def test_case(codemod: Type[SlimportCodemod], case: Case) -> None:
    if isinstance(case, Edit):
        check_edit(codemod, case)
    elif isinstance(case, Noop):
        check_unchanged(codemod, case, case.source, ())
    else:
        check_unchanged(codemod, case, case.source, case.findings)


@pytest.mark.parametrize(("codemod", "case"), _params("precheck", (Edit, Reported)))
def test_the_text_precheck_lets_the_engine_run_it(codemod: Type[SlimportCodemod],
                                                   case: Case) -> None:
    source = case.before if isinstance(case, Edit) else case.source
    assert codemod.applies_to(source), (
        f"{codemod.NAME}'s text pre-check (applies_to, TRIGGERS) refuses this source: the "
        "engine would never run the codemod on the file, and neither edit it nor report")


@pytest.mark.parametrize(("codemod", "case"), _params("recorded", (Edit,)))
def test_every_change_is_in_the_report(codemod: Type[SlimportCodemod], case: Edit) -> None:
    # An edit, or an attention finding that says what the code became (a stand-in).
    _, findings = _run(codemod, case, case.before)
    assert findings, "the codemod changed the file and recorded nothing, so the report " \
        "does not show the change"


@pytest.mark.parametrize("codemod", CODEMODS, ids=lambda codemod: codemod.NAME)
def test_every_codemod_has_a_table(codemod: Type[SlimportCodemod]) -> None:
    table = table_of(codemod)
    if table is None:
        pytest.fail(f"no cases for {codemod.NAME}: write tests/slimport/codemods/cases/"
                    f"{codemod.NAME}.py with CASES = [Edit(...), ..., Noop(...), ...]",
                    pytrace=False)
    assert table and isinstance(table[0], Edit), (
        f"cases/{codemod.NAME}.py: the first case must be the Edit that shows the codemod "
        "best (docs/codemods.md shows it)")
    assert any(isinstance(case, Noop) for case in table), (
        f"cases/{codemod.NAME}.py has no Noop: write the sources it must leave alone")
    titles = [case.title for case in table]
    assert sorted({t for t in titles if titles.count(t) > 1}) == [], "titles repeat"
    unknown = sorted(set().union(*(case.options for case in table)) - set(codemod.OPTIONS))
    assert unknown == [], f"options {codemod.NAME} does not declare in OPTIONS"


def test_every_table_is_a_registered_codemods() -> None:
    names = {codemod.NAME for codemod in CODEMODS}
    modules = {info.name for info in pkgutil.iter_modules(cases_package.__path__)}
    assert sorted(modules - names) == []


def test_every_known_bug_names_a_case() -> None:
    cases = {(codemod.NAME, case.title) for codemod, case in ALL_CASES}
    assert sorted(key for key in KNOWN_BUGS if key[1:] not in cases) == []
