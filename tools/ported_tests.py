"""tf_slim's own tests, run on the installed package and on its ported copy: same results?

    python tools/ported_tests.py PORTED_TF_SLIM_DIR [-j N]

tf_slim is real TF1-style code, and it ships its tests. A subset of its test files
(chosen to cover arg scopes, variables, layers with batch norm, losses, the training
loop and the data decoders, and to finish in minutes) runs with pytest, one process per
file (forked from one that imported TensorFlow and pytest: tools/peer_suite.py's
runner), once against the installed tf_slim and once against the ported copy (that copy
first on PYTHONPATH, its own ported test files). Both runs load slim_ext's shims (``-p
slim_ext``), so the only difference between them is the port. Every test must end the
same way on both sides; counts alone could hide a pass traded for a failure.

(tools/tfslim_suite.py runs the whole suite to measure the shims; this runner
compares two copies and shares nothing with it but pytest's junit format.)
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Sequence

import _harness
import peer_suite

SUBSET = (
    "ops/arg_scope_test.py",
    "ops/variables_test.py",
    "layers/initializers_test.py",
    "layers/regularizers_test.py",
    "layers/normalization_test.py",
    "losses/loss_ops_test.py",
    "learning_test.py",
    "data/tfexample_decoder_test.py",
)
SIDES = ("unported", "ported")


@dataclass
class Comparison:
    """Outcome of every test (``file::Class::test`` -> passed/failed/error/skipped) per side."""

    outcomes: Dict[str, Dict[str, str]] = field(default_factory=dict)
    origins: Dict[str, str] = field(default_factory=dict)

    def counts(self, side: str) -> str:
        tally = Counter(self.outcomes.get(side, {}).values())
        return ", ".join(f"{tally[k]} {k}" for k in ("passed", "failed", "error", "skipped"))

    def differences(self) -> List[str]:
        """Every test whose outcome the port changed, except those it fixed: harm, or a
        change to look at (a failure that became an error)."""
        before, after = self.outcomes.get("unported", {}), self.outcomes.get("ported", {})
        fixed = set(self.fixed())
        return [f"{test}: {before.get(test, 'not run')} unported, "
                f"{after.get(test, 'not run')} ported"
                for test in sorted(set(before) | set(after))
                if before.get(test) != after.get(test) and test not in fixed]

    def fixed(self) -> List[str]:
        """The tests that failed on the installed package and pass on the ported copy
        (a library API the package's own code still called, ported)."""
        before, after = self.outcomes.get("unported", {}), self.outcomes.get("ported", {})
        return sorted(test for test, outcome in before.items()
                      if outcome in ("failed", "error") and after.get(test) == "passed")


def _outcomes(junit_xml: Path, test_file: str) -> Dict[str, str]:
    results = {}
    for case in ElementTree.parse(junit_xml).getroot().iter("testcase"):
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
        test_class = (case.get("classname") or "").rsplit(".", 1)[-1]
        results[f"{test_file}::{test_class}::{case.get('name')}"] = outcome
    return results


def _origin(root: Path, env: Dict[str, str]) -> str:
    """Where ``import tf_slim`` resolves with this side's environment."""
    probe = subprocess.run([sys.executable, "-c", "import slim_ext, tf_slim; "
                            "print(tf_slim.__file__)"], env=env, capture_output=True,
                           text=True, timeout=300, check=False)
    return probe.stdout.strip() or probe.stderr.strip()[-500:]


def _run_side(side: str, tf_slim_dir: Path, jobs: int, workdir: Path,
              deadline: _harness.Deadline, comparison: Comparison) -> None:
    root = tf_slim_dir.parent
    # The side's tree first; then whatever path this run had (slim_ext from a checkout).
    path = [root] + [Path(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2",
               PYTHONPATH=os.pathsep.join(str(p) for p in path))
    comparison.origins[side] = _origin(root, env)
    if not comparison.origins[side].startswith(str(tf_slim_dir)):
        raise RuntimeError(f"{side}: tf_slim imports from {comparison.origins[side]}, "
                           f"not from {tf_slim_dir}")
    # Each test file in its own process, forked from one that imported TensorFlow and
    # pytest (peer_suite's runner): one TensorFlow import a side, not one a file.
    modules = [f"{tf_slim_dir.name}/{test_file}" for test_file in SUBSET]
    trees = peer_suite.Trees(ported=root, path=path, source=root, source_path=[])
    runs = peer_suite.run_modules(trees, modules, "pytest", workdir, jobs,
                                  max(1.0, deadline.left()), plugins=["slim_ext"])
    results: Dict[str, str] = {}
    for module, test_file in zip(modules, SUBSET):
        junit = workdir / "pytest" / (module.replace("/", "__")[:-3] + ".xml")
        if module not in runs or not junit.exists():
            raise RuntimeError(f"pytest wrote no report for {side} {test_file}; "
                               f"see {junit.with_suffix('.log')}")
        results.update(_outcomes(junit, test_file))
    if deadline.left() <= 0:
        raise TimeoutError(f"tf_slim's tests ({side}) did not finish in time")
    comparison.outcomes[side] = results


def compare(installed: Path, ported: Path, jobs: int, workdir: Path,
            deadline: _harness.Deadline) -> Comparison:
    """Runs the subset on the installed tf_slim and on the ported copy (directories of tf_slim)."""
    comparison = Comparison()
    for side, tf_slim_dir in zip(SIDES, (installed, ported)):
        side_dir = workdir / side
        side_dir.mkdir(parents=True, exist_ok=True)
        _run_side(side, tf_slim_dir, jobs, side_dir, deadline, comparison)
    return comparison


def main(argv: Sequence[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ported", type=Path, help="the ported tf_slim package directory")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--deadline", type=float, default=1200.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="slimport-tests-") as scratch:
        result = compare(_harness.installed_package("tf_slim"), args.ported.resolve(), args.jobs,
                         Path(scratch), _harness.Deadline(args.deadline))
    for side in SIDES:
        print(f"{side}: {result.counts(side)}  ({result.origins[side]})")
    differences = result.differences()
    print("\n".join(differences) or "every test ends the same way on both")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
