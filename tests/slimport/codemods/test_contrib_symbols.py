"""contrib_symbols: what the fix for Estimator-era experiments says (cases/contrib_symbols.py has
the before/after, no-op and reported cases)."""
from __future__ import annotations

from slimport.codemods.contrib_symbols import ContribSymbolsCommand
from tests.slimport.codemods._helpers import run_codemod
from tests.slimport.codemods.cases.contrib_symbols import EXPERIMENT


def test_the_experiment_fix_names_what_runs_it_now_not_a_loss() -> None:
    _, findings = run_codemod(ContribSymbolsCommand, EXPERIMENT)
    # The two stand-ins, then the learn_runner import dropped once its use was ported.
    assert [f.kind for f in findings] == ["attention", "attention", "edit"]
    assert "every use of it was ported" in findings[2].message
    for finding in findings:
        assert "gone" not in finding.fix
