"""Runs tf_slim's own bundled test suite with slim_ext loaded, and judges the result.

``python tools/tfslim_suite.py`` (``tox -e tfslim-suite``) finds the
installed tf_slim package, runs each of its ``*_test.py`` files under pytest
in its own process (one per core at a time) with ``-p slim_ext``, so the shims
are applied before the test module imports tf_slim, and prints passed / failed / error
counts with every failure grouped by its cause.

A failure is "known" only when its traceback shows one of the test-code-only
causes listed in docs/compatibility.md: the exception matches the cause AND the
innermost tf_slim frame is in a ``*_test.py`` file (the test itself, not the
library, did the failing thing). Exit status 0 when every failure is known,
1 when any failure is unclassified (a library problem, or a new cause).
``--baseline`` runs without slim_ext, to measure what the shims fix.
"""
import argparse
import dataclasses
import glob
import importlib.util
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from typing import Dict, List, Optional, Sequence


@dataclasses.dataclass(frozen=True)
class FailureClass:
    """A cause of failure that lies in tf_slim's test code, not in the library.

    Attributes:
      name: short id, as used in docs/compatibility.md.
      description: the cause, for the summary.
      exception: regex searched in the final exception (its first line and
        the message lines that follow it).
    """
    name: str
    description: str
    exception: str


KNOWN_TEST_CODE_CAUSES = (
    FailureClass(
        "numpy2-scalar-conversion",
        "test converts a non-0-d array to a Python scalar (int()/float() of "
        "a 1-element array), an error since numpy 2",
        r"TypeError: only (length-1|0-dimensional) arrays can be converted"),
    FailureClass(
        "numpy2-tostring",
        "test calls ndarray.tostring(), removed in numpy 2 (use tobytes())",
        r"AttributeError: 'numpy\.ndarray' object has no attribute 'tostring'"),
    FailureClass(
        "numpy2-removed-name",
        "test uses a name removed from numpy 2 (np.object, np.float, "
        "np.product, ...)",
        r"AttributeError: `?np\.\w+`? was (a deprecated alias|removed)"
        r"|AttributeError: module 'numpy' has no attribute '(object|float|int|"
        r"bool|str|long|unicode|complex|product|cumproduct|alltrue|sometrue|"
        r"float_|complex_|string_|unicode_|asfarray|round_|in1d)'"),
    FailureClass(
        "numpy2-float32-promotion",
        "test compares a Python float with a float32 to 7 places; numpy 2 "
        "(NEP 50) keeps the difference in float32, so it no longer rounds "
        "to 0",
        r"AssertionError: \S+ != np\.float32\([^)]*\) within \d+ places"),
    FailureClass(
        "removed-tf-internal",
        "test calls a TensorFlow-private name that TF 2.15+ no longer has "
        "and tf_slim itself does not use",
        r"AttributeError: module 'tensorflow\.python\.[\w.]+' has no "
        r"attribute '\w+'"),
    FailureClass(
        "tf-variable-class",
        "test expects a metric's update op to be a tf.compat.v1.Variable "
        "(VariableV1); with resource variables TF returns a v2 Variable",
        r"AssertionError: <tf\.Variable [^>]*> is not an instance of "
        r"\(.*VariableV1"),
    FailureClass(
        "tf-dropout-op-name",
        "test pins TF's internal dropout op name (mul_1); TF 2.15+ builds "
        "dropout with select_v2",
        r"AssertionError:\s*\n- dropout/dropout_1/selectv2\b"),
    FailureClass(
        "tf-ps-device-string",
        "test expects replica_device_setter to add /cpu:0 to ps devices "
        "(TF1); TF 2.15+ leaves the device type to the placer",
        r"AssertionError: Devices /job:ps/task:\d+ and "
        r"/job:ps/task:\d+/device:CPU:0 are not equal"),
    FailureClass(
        "nose-import",
        "test module imports nose, which is not installed and does not run "
        "on Python >= 3.10",
        r"ModuleNotFoundError: No module named 'nose'"),
)

# Frame lines in pytest's native (--tb=native) and short collection tracebacks.
_NATIVE_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_PYTEST_FRAME = re.compile(r"^(\S+\.py):(\d+)(?::|$)", re.MULTILINE)
_EXCEPTION_LINE = re.compile(
    r"^(?:E\s+)?((?:[A-Za-z_][\w.]*)(?:Error|Exception|Exit|Interrupt)\b.*)$",
    re.MULTILINE)
_TF_SLIM_PATH = re.compile(r"(?:^|[/\\])(tf_slim[/\\]\S+\.py)$")


@dataclasses.dataclass
class Failure:
    """One failed or errored test (or test module) with its parsed traceback."""
    test: str
    text: str
    exception: str
    test_code_frame: Optional[str]
    library_frame: Optional[str]
    cause: Optional[FailureClass] = None


def find_tf_slim() -> pathlib.Path:
    """Returns the directory of the installed tf_slim package.

    Raises:
      SystemExit: tf_slim is not installed.
    """
    spec = importlib.util.find_spec("tf_slim")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("tf_slim is not installed: pip install tf-slim==1.1.0")
    return pathlib.Path(list(spec.submodule_search_locations)[0])


def _pytest_command(files: Sequence[str], junit_xml: str,
                    baseline: bool) -> List[str]:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "--continue-on-collection-errors", "--tb=native",
               "-o", "addopts=", "-o", "junit_family=xunit2",
               f"--junitxml={junit_xml}"]
    if not baseline:
        command += ["-p", "slim_ext"]
    return command + list(files)


def _tf_slim_frames(text: str) -> List[str]:
    """Returns the 'tf_slim/...py:line' frames of a traceback, outermost first.

    Frames are matched on their ``tf_slim/`` path component, so absolute paths
    (native tracebacks) and paths relative to pytest's working directory
    (collection errors) are read alike.
    """
    frames = []
    for match in list(_NATIVE_FRAME.finditer(text)) + list(
        _PYTEST_FRAME.finditer(text)):
        inside = _TF_SLIM_PATH.search(match[1])
        if inside:
            frames.append((match.start(), f"{inside[1]}:{match[2]}"))
    return [frame for _, frame in sorted(frames)]


def parse_failure(test: str, text: str) -> Failure:
    """Parses one failure's traceback text (native or pytest collection form).

    Args:
      test: the test id.
      text: the traceback text pytest recorded.

    Returns:
      A Failure with its final exception line and its innermost tf_slim frame,
      filed as test code (``*_test.py``) or library code.
    """
    exceptions = list(_EXCEPTION_LINE.finditer(text))
    # The block from the last exception line on: assertion messages span lines.
    exception = (text[exceptions[-1].start(1):].strip() if exceptions
                 else text.strip()[-300:])
    frames = _tf_slim_frames(text)
    innermost = frames[-1] if frames else None
    in_test_code = innermost is not None and re.search(r"_test\.py:\d+$",
                                                       innermost)
    return Failure(test=test, text=text, exception=exception,
                   test_code_frame=innermost if in_test_code else None,
                   library_frame=None if in_test_code else innermost)


def classify(failure: Failure) -> Optional[FailureClass]:
    """Returns the known test-code cause of a failure, or None.

    Only a failure raised from test code (its innermost tf_slim frame is in a
    ``*_test.py`` file) can have a test-code cause.
    """
    if failure.test_code_frame is None:
        return None
    for cause in KNOWN_TEST_CODE_CAUSES:
        if re.search(cause.exception, failure.exception):
            return cause
    return None


def read_junit(path: str) -> Dict[str, object]:
    """Reads one junit XML file into counts and parsed failures."""
    counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
    failures: List[Failure] = []
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        test = f"{case.get('classname')}::{case.get('name')}"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed" if child.tag == "failure" else "errors"
                text = (child.text or "") + "\n" + (child.get("message") or "")
                failures.append(parse_failure(test, text))
            elif child.tag == "skipped":
                outcome = "skipped"
        counts[outcome] += 1
    return {"counts": counts, "failures": failures}


# Run-time cost per byte of test source, relative to the rest: the nets tests
# build full-resolution convnets (inception_v3 took 218 s, metric_ops_test's
# 283 kB took 368 s here). Starting expensive files first keeps both cores
# busy until the end.
_COST_PER_BYTE = {"nets": 10}


def _estimated_cost(test_file: pathlib.Path) -> int:
    return test_file.stat().st_size * _COST_PER_BYTE.get(test_file.parent.name, 1)


def _junit_name(test_file: pathlib.Path, tf_slim_dir: pathlib.Path) -> str:
    relative = test_file.relative_to(tf_slim_dir).with_suffix("")
    return "__".join(relative.parts) + ".xml"


def run_suite(tf_slim_dir: pathlib.Path, jobs: int, baseline: bool,
              workdir: str, timeout_secs: float) -> Dict[str, object]:
    """Runs every bundled test file in its own pytest process, `jobs` at a time.

    One process per file is how tf_slim's tests were meant to run (each file
    sets the eager/graph mode for its whole process), and a work queue fed
    the most expensive file first keeps every core busy to the end.

    Raises:
      SystemExit: the run did not finish within timeout_secs (the running
        processes are killed), or a file's run wrote no junit report.
    """
    test_files = sorted(tf_slim_dir.rglob("*_test.py"), key=_estimated_cost,
                        reverse=True)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    # Make `-p slim_ext` importable whether or not slim_ext is installed: it
    # lives in the repository root, next to this tools/ directory.
    slim_ext_root = str(pathlib.Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(
        [slim_ext_root] + [p for p in [env.get("PYTHONPATH")] if p])
    log = open(os.path.join(workdir, "pytest.log"), "w")
    deadline = time.monotonic() + timeout_secs
    pending = list(test_files)
    running: List[subprocess.Popen] = []
    junit_files = []
    try:
        while pending or running:
            while pending and len(running) < jobs:
                junit_xml = os.path.join(workdir, _junit_name(pending[0], tf_slim_dir))
                junit_files.append(junit_xml)
                running.append(subprocess.Popen(
                    _pytest_command([str(pending.pop(0))], junit_xml, baseline),
                    cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT))
            if time.monotonic() > deadline:
                raise SystemExit(f"tf_slim suite did not finish in {timeout_secs:.0f}"
                                 f" s (logs: {workdir}; keep them with --keep)")
            time.sleep(0.2)
            running = [process for process in running if process.poll() is None]
    finally:
        for process in running:
            process.kill()
            process.wait()
        log.close()
    missing = [path for path in junit_files if not os.path.exists(path)]
    if missing:
        raise SystemExit(f"pytest wrote no report for {missing}; see {log.name}")
    return judge(junit_files, len(test_files))


def judge(junit_files: Sequence[str], test_files: int) -> Dict[str, object]:
    """Adds up junit reports and classifies every failure."""
    counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
    failures: List[Failure] = []
    for junit_xml in junit_files:
        report = read_junit(junit_xml)
        for key, value in report["counts"].items():
            counts[key] += value
        failures += report["failures"]
    for failure in failures:
        failure.cause = classify(failure)
    return {"counts": counts, "failures": failures, "test_files": test_files}


def summarize(result: Dict[str, object], verbose: bool) -> List[str]:
    """Formats the run's counts and its failures grouped by cause."""
    counts = result["counts"]
    failures: List[Failure] = result["failures"]
    lines = [f"{result['test_files']} test files: {counts['passed']} passed, "
             f"{counts['failed']} failed, {counts['errors']} errors, "
             f"{counts['skipped']} skipped"]
    for cause in KNOWN_TEST_CODE_CAUSES:
        members = [f for f in failures if f.cause is cause]
        if members:
            lines.append(f"  {len(members):4d}  {cause.name}: {cause.description}")
            if verbose:
                lines += [f"          {f.test}  ({f.test_code_frame})" for f in members]
    unknown = [f for f in failures if f.cause is None]
    if unknown:
        lines.append(f"  {len(unknown):4d}  UNCLASSIFIED (a library problem or a "
                     "cause not in docs/compatibility.md):")
        for failure in unknown:
            where = failure.library_frame or failure.test_code_frame or "?"
            first_line = (failure.exception or "?").splitlines()[0]
            lines.append(f"          {failure.test}\n            {first_line}"
                         f"\n            at {where}")
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", action="store_true",
                        help="run without slim_ext (no shims), for comparison")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel pytest processes (default: CPU count)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds before the run is stopped (default 1800)")
    parser.add_argument("--keep", metavar="DIR",
                        help="write the junit XML files and the log here")
    parser.add_argument("--judge", metavar="DIR",
                        help="do not run: judge the *.xml files a --keep run "
                        "left in DIR")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list every known failure, not only counts")
    args = parser.parse_args(argv)
    tf_slim_dir = find_tf_slim()
    if args.judge:
        result = judge(sorted(glob.glob(os.path.join(args.judge, "*.xml"))),
                       len(list(tf_slim_dir.rglob("*_test.py"))))
        return _report(result, args.verbose)
    mode = "WITHOUT slim_ext (baseline)" if args.baseline else "with slim_ext"
    print(f"tf_slim bundled tests in {tf_slim_dir}, {mode}, "
          f"{args.jobs} at a time...", flush=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.keep or scratch
        os.makedirs(workdir, exist_ok=True)
        result = run_suite(tf_slim_dir, args.jobs, args.baseline, workdir,
                           args.timeout)
    print(f"({time.monotonic() - started:.0f} s)")
    return _report(result, args.verbose)


def _report(result: Dict[str, object], verbose: bool) -> int:
    print("\n".join(summarize(result, verbose)))
    unknown = [f for f in result["failures"] if f.cause is None]
    if unknown:
        print(f"FAIL: {len(unknown)} failure(s) not explained by test code.")
        return 1
    print("OK: every remaining failure is in tf_slim's test code "
          "(see docs/compatibility.md).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
