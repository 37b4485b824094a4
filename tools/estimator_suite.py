"""Runs tensorflow-estimator 2.15's own canned-estimator tests with slim_ext loaded.

The tensorflow-estimator wheel ships no ``*_test.py`` file (no release does, and
there is no sdist), but it ships the bodies of its canned-estimator tests: the
``Base*Test`` classes of ``canned/dnn_testing_utils.py``,
``canned/linear_testing_utils.py`` and their ``canned/v1/*_v1.py`` versions (215
test methods). Upstream's ``dnn_test_fc_v2.py``, ``linear_test.py`` and
``v1/dnn_test_fc_v2_v1.py`` / ``v1/linear_test_v1.py`` only bind each base class
to the estimator it tests (``DNNClassifierV2``, ``dnn_model_fn_v2``, ...). This
tool does that binding itself, one generated test module per file below, each
run under pytest in its own process with ``import slim_ext`` first (it applies
the estimator shims on TF >= 2.16 and nothing on 2.15), and prints passed /
failed / errors per file for every interpreter given:

  python tools/estimator_suite.py                       # this interpreter
  python tools/estimator_suite.py --python /venvs/tf215/bin/python --python ...

The v1 files run in TF1 graph mode (``disable_v2_behavior``), as upstream's
``run_v1_only`` classes did. Exit status 0 when every run finished and no test
failed on an interpreter whose TensorFlow is >= 2.16 that passes with the same
tests on another interpreter given (with one interpreter: when nothing failed).
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import _harness
from tfslim_suite import read_junit

CANNED = "tensorflow_estimator.python.estimator.canned"

# file -> (testing-utils module, graph mode?, [(base class, its __init__ arguments)])
SUITES: Dict[str, Tuple[str, bool, List[Tuple[str, str]]]] = {
    "dnn": (f"{CANNED}.dnn_testing_utils", False, [
        ("BaseDNNModelFnTest", "dnn.dnn_model_fn_v2"),
        ("BaseDNNLogitFnTest", "dnn.dnn_logit_fn_builder_v2"),
        ("BaseDNNWarmStartingTest", "dnn.DNNClassifierV2, dnn.DNNRegressorV2"),
        ("BaseDNNClassifierEvaluateTest", "dnn.DNNClassifierV2"),
        ("BaseDNNClassifierPredictTest", "dnn.DNNClassifierV2"),
        ("BaseDNNClassifierTrainTest", "dnn.DNNClassifierV2"),
        ("BaseDNNRegressorEvaluateTest", "dnn.DNNRegressorV2"),
        ("BaseDNNRegressorPredictTest", "dnn.DNNRegressorV2"),
        ("BaseDNNRegressorTrainTest", "dnn.DNNRegressorV2"),
    ]),
    "linear": (f"{CANNED}.linear_testing_utils", False, [
        ("BaseLinearRegressorEvaluationTest", "linear.LinearRegressorV2"),
        ("BaseLinearRegressorPredictTest", "linear.LinearRegressorV2"),
        ("BaseLinearRegressorIntegrationTest", "linear.LinearRegressorV2"),
        ("BaseLinearRegressorTrainingTest", "linear.LinearRegressorV2"),
        ("BaseLinearClassifierTrainingTest", "linear.LinearClassifierV2"),
        ("BaseLinearClassifierEvaluationTest", "linear.LinearClassifierV2"),
        ("BaseLinearClassifierPredictTest", "linear.LinearClassifierV2"),
        ("BaseLinearClassifierIntegrationTest", "linear.LinearClassifierV2"),
        ("BaseLinearLogitFnTest", ""),
        ("BaseLinearWarmStartingTest",
         "linear.LinearClassifierV2, linear.LinearRegressorV2"),
    ]),
    "dnn_v1": (f"{CANNED}.v1.dnn_testing_utils_v1", True, [
        ("BaseDNNModelFnTest", "dnn._dnn_model_fn"),
        ("BaseDNNLogitFnTest", "dnn.dnn_logit_fn_builder"),
        ("BaseDNNWarmStartingTest", "dnn.DNNClassifier, dnn.DNNRegressor"),
        ("BaseDNNClassifierEvaluateTest", "dnn.DNNClassifier"),
        ("BaseDNNClassifierPredictTest", "dnn.DNNClassifier"),
        ("BaseDNNClassifierTrainTest", "dnn.DNNClassifier"),
        ("BaseDNNRegressorEvaluateTest", "dnn.DNNRegressor"),
        ("BaseDNNRegressorPredictTest", "dnn.DNNRegressor"),
        ("BaseDNNRegressorTrainTest", "dnn.DNNRegressor"),
    ]),
    "linear_v1": (f"{CANNED}.v1.linear_testing_utils_v1", True, [
        ("BaseLinearRegressorPartitionerTest", "linear.LinearRegressor"),
        ("BaseLinearRegressorEvaluationTest", "linear.LinearRegressor"),
        ("BaseLinearRegressorPredictTest", "linear.LinearRegressor"),
        ("BaseLinearRegressorIntegrationTest", "linear.LinearRegressor"),
        ("BaseLinearRegressorTrainingTest", "linear.LinearRegressor"),
        ("BaseLinearClassifierTrainingTest", "linear.LinearClassifier"),
        ("BaseLinearClassifierEvaluationTest", "linear.LinearClassifier"),
        ("BaseLinearClassifierPredictTest", "linear.LinearClassifier"),
        ("BaseLinearClassifierIntegrationTest", "linear.LinearClassifier"),
        ("BaseLinearLogitFnTest", ""),
        ("BaseLinearWarmStartingTest", "linear.LinearClassifier, linear.LinearRegressor"),
    ]),
}

_MODULE = '''"""{name}: {utils}'s Base*Test classes bound to the estimators they test."""
import slim_ext  # noqa: F401  (the estimator shims on TF >= 2.16; none on 2.15)
import tensorflow as tf
{graph_mode}
from {canned} import dnn, linear  # noqa: F401
import {utils} as utils


def _bind(base, *arguments):
    class Bound(base, tf.test.TestCase):
        def __init__(self, methodName="runTest"):
            tf.test.TestCase.__init__(self, methodName)
            base.__init__(self, *arguments)

    Bound.__name__ = Bound.__qualname__ = base.__name__[len("Base"):]
    return Bound


{bindings}
'''


def test_module(name: str) -> str:
    """The source of the generated test module for one file of SUITES."""
    utils, graph_mode, bases = SUITES[name]
    bindings = "\n".join(
        f"{base[len('Base'):]} = _bind(utils.{base}{', ' if arguments else ''}{arguments})"
        for base, arguments in bases)
    return _MODULE.format(
        name=name, utils=utils, canned=CANNED, bindings=bindings,
        graph_mode="tf.compat.v1.disable_v2_behavior()" if graph_mode else "")


def tf_version(python: str) -> str:
    """TensorFlow's version in another interpreter (found without importing TF)."""
    return subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('tensorflow'))"],
        check=True, capture_output=True, text=True).stdout.strip()


def run_file(python: str, name: str, workdir: Path, deadline: _harness.Deadline,
             env: Dict[str, str]) -> Dict[str, object]:
    """Runs one generated test file under pytest in `python`; returns its junit result."""
    module = workdir / f"estimator_{name}_suite.py"
    module.write_text(test_module(name))
    junit = workdir / f"{name}.xml"
    log = workdir / f"{name}.log"
    _harness.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=native",
                  "-o", "addopts=", "-o", "junit_family=xunit2", f"--junitxml={junit}",
                  str(module)], deadline, log=log, env=env)
    if not junit.exists():
        raise RuntimeError(f"{name}: pytest wrote no report; see {log}")
    return read_junit(str(junit))


def _minor(version: str) -> Tuple[int, int]:
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def _cell(counts: Dict[str, int]) -> str:
    return f"{counts['passed']} / {counts['failed']} / {counts['errors']}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append",
                        help="an interpreter to run the tests in (repeatable; default: this one)")
    parser.add_argument("--only", action="append", choices=sorted(SUITES),
                        help="run only this file (repeatable)")
    parser.add_argument("--keep", type=Path, help="keep generated files, logs and reports here")
    parser.add_argument("--timeout", type=float, default=3600.0,
                        help="seconds for the whole run (default 3600)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list every failing test with its exception")
    args = parser.parse_args(argv)
    pythons = args.python or [sys.executable]
    names = args.only or list(SUITES)
    deadline = _harness.Deadline(args.timeout)
    # The generated modules import slim_ext from this checkout unless it is installed.
    repo_root = str(Path(__file__).resolve().parent.parent)
    env = {"PYTHONPATH": os.pathsep.join(
        filter(None, [repo_root, os.environ.get("PYTHONPATH")]))}
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="estimator_suite_"))
    workdir.mkdir(parents=True, exist_ok=True)
    versions = [tf_version(python) for python in pythons]
    results: Dict[Tuple[int, str], Dict[str, object]] = {}
    for index, python in enumerate(pythons):
        run_dir = workdir / f"tf{versions[index]}"
        run_dir.mkdir(exist_ok=True)
        for name in names:
            results[index, name] = run_file(python, name, run_dir, deadline, env)
    header = ["file (passed / failed / errors)"] + [f"TF {v}" for v in versions]
    rows = [[name] + [_cell(results[i, name]["counts"]) for i in range(len(pythons))]
            for name in names]
    totals = [{key: sum(results[i, name]["counts"][key] for name in names)
               for key in ("passed", "failed", "errors")} for i in range(len(pythons))]
    print(_harness.table(header, rows + [["all"] + [_cell(total) for total in totals]]))
    failing = {(i, failure.test) for (i, _), result in results.items()
               for failure in result["failures"]}
    regressions = sorted(
        test for i, test in failing
        if _minor(versions[i]) >= (2, 16) and (len(pythons) == 1 or any(
            (j, test) not in failing for j in range(len(pythons)) if j != i)))
    for (i, _), result in sorted(results.items()):
        for failure in result["failures"] if args.verbose else ():
            print(f"TF {versions[i]} {failure.test}: {failure.exception.splitlines()[0]}")
    for test in regressions:
        print(f"FAILS with the shims, passes elsewhere: {test}")
    print(f"generated tests, logs and reports: {workdir}")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
