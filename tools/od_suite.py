"""Issue 25's yardstick: a peer's own test suite, ported by slimport and run on TensorFlow 2.

    python tools/od_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script] [--no-slim]
                             [--only SUBSTRING] [--report FILE.json] [-v]
    tox -e odsuite

tensorflow-object-detection-api 0.1.1 (PyPI's sdist, downloaded hash-checked and
cached as tools/corpus.py does) ships 121 ``*_test.py`` modules. This harness ports the
tree with ``slimport rewrite SRC --out PORTED``, ports research/slim's ``nets`` and
``deployment`` beside it (PyPI has them only inside the sdist of
tf-models-research-object-detection 2.8.0.post1: downloaded the same way; --no-slim
leaves them out, and the tests that need them count as blocked), then runs every test
module with pytest, one process per module, -j at a time, each bounded in time, with a
junit XML report each.

Every failure is then classed, on evidence:
- its first error (the first exception of the traceback) and its innermost frame;
- a reference run: each module with a failure runs again with TF1's run-time semantics
  set before any test code (graph mode and v1 shapes, TF1's flag parsing, the
  pure-Python protobuf: tools/od_tf1_semantics.py). A test that passes there fails
  only because the port did not establish TF1's semantics: the port's. A test that
  fails there too is classed by its error there;
- the known signatures below (CAUSES): Python 2 leftovers the port must rewrite, a
  third-party package's change (NumPy, pandas, protobuf, TensorFlow itself), a package
  not installed or research/slim not available (blocked), the project's own bugs.
A failure no signature explains is listed as UNCLASSIFIED.

``--as-script`` also runs each module as its authors did, ``python X_test.py``
(absltest's XML report), and tables it beside pytest's.

Exit status 0 when at least 90% of the non-skipped tests pass under pytest and no
failure is the port's or unclassified; 1 otherwise; 2 when a step could not run
(download, port, deadline).
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import _harness
import corpus

TOOLS = Path(__file__).resolve().parent
OBJECT_DETECTION = next(c for c in corpus.CORPORA if c.name == "object_detection")
# research/slim as of 2022 (nets, deployment, datasets, preprocessing under slim/): the
# only distribution on PyPI that ships its modules as files. Its own install puts them
# under object_detection.* (clashing with 0.1.1), so the sdist is unpacked, not installed.
RESEARCH_SLIM = corpus.Corpus(
    "research_slim", "tf-models-research-object-detection==2.8.0.post1",
    "c701ea455646553a64c5f161641e8d5a94054b162b81961dcfff3dd619870004", [], [])
TARGET_PASS_RATE = 0.9
PORT, PROJECT, THIRD_PARTY, BLOCKED, UNCLASSIFIED = (
    "the port's", "the project's own", "third-party change", "blocked", "UNCLASSIFIED")
OWNERS = (PORT, PROJECT, THIRD_PARTY, BLOCKED, UNCLASSIFIED)


@dataclass(frozen=True)
class Cause:
    """A known reason for a test to fail, read off its first error.

    Attributes:
      name: short id.
      owner: PORT, PROJECT, THIRD_PARTY or BLOCKED.
      error: regex searched in the first error (the exception line).
      change: what makes the test pass: the port's codemod (construct before -> after)
        or runtime change, or what the user must do.
      semantics: a TF1 run-time semantics cause: only the reference run (TF1 semantics
        set) confirms it; a test that fails there too is classed by that error instead.
    """

    name: str
    owner: str
    error: str
    change: str
    semantics: bool = False


CAUSES = (
    Cause("graph-mode", PORT,
          r"'NoneType' object has no attribute '(run|as_default|graph)'"
          r"|is not compatible with eager execution|is undefined when eager execution"
          r"|is not supported when eager execution|not supported in eager mode"
          r"|when eager execution is enabled",
          "the module needs graph mode (test_session(), placeholder, Session.run, .eval()) "
          "and gets none: switch v1 behaviour on before any of its code runs, however it is "
          "started (item 1)", semantics=True),
    Cause("v1-shapes", PORT, r"'int' object has no attribute 'value'",
          "TF1 Dimension.value on a TensorShape entry: v1 behaviour (item 1), or "
          "`shape[i].value` -> `tf.compat.dimension_value(shape[i])`", semantics=True),
    Cause("flags-unparsed", PORT, r"UnparsedFlagAccessError",
          "FLAGS.x read before app.run/tf.test.main parsed the command line (pytest): keep "
          "TF1's parse-on-first-access, defaults for flags a foreign argv lacks (item 2)",
          semantics=True),
    Cause("stale-pb2", PORT, r"Descriptors cannot be created directly",
          "*_pb2.py from protoc < 3.19: regenerate them at rewrite time (item 3)",
          semantics=True),
    Cause("py2-getargspec", PORT, r"module 'inspect' has no attribute 'getargspec'",
          "`inspect.getargspec(f)` -> `inspect.getfullargspec(f)` (args, varargs, defaults "
          "keep their positions; `keywords` is `varkw`)"),
    Cause("py2-float-repr", PORT, r"module 'json\.encoder' has no attribute 'FLOAT_REPR'",
          "`json.encoder.FLOAT_REPR` is gone since Python 3.? (the C encoder ignores it): "
          "read it guarded, `getattr(json.encoder, 'FLOAT_REPR', repr)`"),
    Cause("py2-range-times", PORT,
          r"unsupported operand type\(s\) for \*: 'range' and 'int'"
          r"|can't multiply sequence by non-int of type 'range'"
          r"|unsupported operand type\(s\) for \+: 'range' and",
          "`range(n) * k` / `range(a) + range(b)` (a list on Python 2) -> "
          "`list(range(n)) * k`"),
    Cause("py2-dict-iter", PORT, r"'dict' object has no attribute 'iter(items|keys|values)'",
          "`d.iteritems()` -> `d.items()` (and itervalues/iterkeys) where `d` is a dict "
          "the codemod cannot see as one today"),
    Cause("py2-stringio", PORT, r"No module named '(c?StringIO|cPickle|urllib2)'",
          "`import StringIO` / `StringIO.StringIO()` -> `import io` / `io.StringIO()` "
          "(`io.BytesIO` where bytes are written)"),
    Cause("pandas-as-matrix", THIRD_PARTY,
          r"'(DataFrame|Series)' object has no attribute 'as_matrix'",
          "removed in pandas 1.0: `df.as_matrix()` -> `df.to_numpy()`; "
          "`as_matrix(columns=c)` -> `df[c].to_numpy()`"),
    Cause("research-slim-missing", BLOCKED, r"No module named '(nets|deployment)\b",
          "research/slim's nets/deployment are not on PyPI as a package: run without "
          "--no-slim (the sdist of tf-models-research-object-detection ships them)"),
    Cause("not-installed", THIRD_PARTY, r"No module named '",
          "a package this environment does not install"),
)
SEMANTICS_OTHER = Cause(
    "tf1-semantics-other", PORT, "",
    "passes once TF1's run-time semantics are set (reference run): the port must "
    "establish them (items 1-3)", semantics=True)
NO_CAUSE = Cause("unclassified", UNCLASSIFIED, "", "?")

# A first error: the exception line of a native traceback (column 0) or of pytest's short
# one ("E   ValueError: ..."). Frames: native ('File "x.py", line 3') and short ("x.py:3: in").
_EXCEPTION_LINE = re.compile(
    r"^(?:E\s+)?((?:[A-Za-z_][\w.]*)(?:Error|Exception|Exit|Interrupt|error)\b.*)$",
    re.MULTILINE)
_NATIVE_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_SHORT_FRAME = re.compile(r"^(\S+\.py):(\d+): in ", re.MULTILINE)


@dataclass
class Failure:
    """One failed test (or a module that failed as a whole), with its evidence."""

    module: str
    test: str  # Class::method, or "" for the whole module (collection, start, timeout)
    error: str
    frame: str
    text: str = field(repr=False, default="")
    tests: int = 1  # tests it stands for (a whole module: every test it has)
    reference: str = "not run"  # passed / failed / not run
    reference_error: str = ""
    cause: str = ""
    owner: str = ""
    then: str = ""  # the cause of the reference run's failure, for a semantics cause

    @property
    def key(self) -> str:
        return f"{self.module}::{self.test}"


@dataclass
class ModuleRun:
    """One test module's run in one mode: its tests' outcomes and failures."""

    module: str
    seconds: float
    outcomes: Dict[str, str]  # Class::method -> passed/failed/skipped
    failures: List[Failure]
    started: bool  # the module was collected (pytest) or got to running tests (script)


@dataclass
class Trees:
    """The ported object detection tree and what goes on PYTHONPATH beside it."""

    ported: Path
    path: List[Path]


def first_error(text: str) -> tuple:
    """(first exception line, innermost frame before it) of a traceback's text."""
    match = _EXCEPTION_LINE.search(text)
    if not match:
        lines = [line for line in text.strip().splitlines() if line.strip()]
        return (lines[-1].strip() if lines else "?"), "?"
    frames = [(m.start(), m[1], m[2]) for regex in (_NATIVE_FRAME, _SHORT_FRAME)
              for m in regex.finditer(text, 0, match.start())]
    frame = max(frames)[1:] if frames else None
    return match[1].strip()[:300], (f"{_short_path(frame[0])}:{frame[1]}" if frame else "?")


def _short_path(path: str) -> str:
    for marker in ("site-packages/", "ported_slim/", "ported/", "lib/python3"):
        if marker in path:
            return ("" if marker == "ported/" else marker) + path.split(marker, 1)[1]
    return path


def static_test_count(path: Path) -> int:
    """test* methods of the module's classes: the tests of a module that did not start."""
    try:
        tree = ast.parse(path.read_bytes())
    except SyntaxError:
        return 1
    return max(1, sum(1 for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                      for item in node.body
                      if isinstance(item, ast.FunctionDef) and item.name.startswith("test")))


def _test_id(case: _harness.Case) -> str:
    return f"{case.classname.rsplit('.', 1)[-1]}::{case.name}"


def _read_run(module: str, junit: Path, output: str, timed_out: bool, seconds: float,
              source: Path) -> ModuleRun:
    """A module's outcomes from its junit XML; a module-level failure when it has none."""
    outcomes: Dict[str, str] = {}
    failures: List[Failure] = []
    cases = _harness.junit_cases(junit) if junit.exists() else []
    for case in cases:
        if not case.classname and case.outcome == "failed":  # pytest: collection error
            error, frame = first_error(case.text)
            failures.append(Failure(module, "", error, frame, case.text,
                                    static_test_count(source)))
            continue
        outcomes[_test_id(case)] = case.outcome
        if case.outcome == "failed":
            error, frame = first_error(case.text)
            failures.append(Failure(module, _test_id(case), error, frame, case.text))
    if not cases:
        error, frame = (f"timed out: no report after {seconds:.0f} s", "?") if timed_out else (
            first_error(output))
        failures.append(Failure(module, "", error, frame, output[-4000:],
                                static_test_count(source)))
    return ModuleRun(module, seconds, outcomes, failures, bool(outcomes))


def _verify_runner():
    """slim_ext/verify/runner.py, loaded by path: importing the slim_ext package would load
    TensorFlow (its shims) into this harness process, which runs no TensorFlow itself."""
    path = _harness.installed_package("slim_ext") / "verify" / "runner.py"
    spec = importlib.util.spec_from_file_location("_odsuite_verify_runner", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_modules(trees: Trees, modules: Sequence[str], mode: str, workdir: Path, jobs: int,
                module_timeout: float) -> Dict[str, ModuleRun]:
    """Runs each test module in its own process (``mode``: pytest, reference or script).

    The processes are forked from one that imported TensorFlow and pytest once
    (tools/od_checks.py in slimport verify's fork server), ``jobs`` at a time.

    Raises:
      runner.WorkerError: the fork server failed to start or stopped answering.
    """
    runner = _verify_runner()
    outdir = workdir / mode
    outdir.mkdir(parents=True, exist_ok=True)
    ini = workdir / "pytest.ini"  # an empty config: no ini file above the tree is read
    ini.write_text("[pytest]\n")
    env = runner.worker_environment()
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in [*trees.path, TOOLS])
    arguments = ["-q", "-p", "no:cacheprovider", "--tb=native", "-c", str(ini),
                 "--rootdir", str(trees.ported), "-o", "junit_family=xunit2"]
    if mode == "reference":
        env["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = "python"
        arguments += ["-p", "od_tf1_semantics"]
    config = {"roots": [], "preload": ["tensorflow", "pytest"], "max_children": jobs,
              "tree_names": [], "tree_dirs": []}
    runs = {}
    with tempfile.TemporaryDirectory(prefix="odsuite-worker-") as scratch:
        server = runner.Runner(config, env, scratch)
        server.config["checks"] = str(TOOLS / "od_checks.py")  # ours, not verify's checks
        with server:
            # The largest modules first, so both processes stay busy to the end.
            for module in sorted(modules, key=lambda m: -(trees.ported / m).stat().st_size):
                server.submit({"check": "script" if mode == "script" else "pytest",
                               "module": module, "tree": str(trees.ported),
                               "junit": str(outdir / (module.replace("/", "__")[:-3] + ".xml")),
                               "arguments": arguments, "timeout": module_timeout,
                               "target": module})
            for done in server.results():
                module = done.job["module"]
                (outdir / (module.replace("/", "__")[:-3] + ".log")).write_text(done.output)
                runs[module] = _read_run(module, Path(done.job["junit"]), done.output,
                                         done.result.get("status") == "timeout",
                                         float(done.result.get("seconds", 0.0)),
                                         trees.ported / module)
    return runs


def match_cause(error: str) -> Cause:
    for cause in CAUSES:
        if re.search(cause.error, error):
            return cause
    return NO_CAUSE


def classify(runs: Dict[str, ModuleRun], reference: Dict[str, ModuleRun]) -> List[Failure]:
    """Classes every failure of ``runs`` by its first error and the reference run.

    A module that failed as a whole stands for each test the reference run found in it
    (or for the test methods its source defines, when the reference did not start it
    either), each classed on its own.
    """
    failures = []
    for run in runs.values():
        ref = reference.get(run.module)
        for failure in run.failures:
            if not failure.test and ref and ref.started:
                failures += [_classify_one(Failure(failure.module, test, failure.error,
                                                   failure.frame, failure.text), ref)
                             for test, outcome in ref.outcomes.items() if outcome != "skipped"]
            else:
                failures.append(_classify_one(failure, ref))
    return failures


def _classify_one(failure: Failure, ref: Optional[ModuleRun]) -> Failure:
    if ref is not None:
        failure.reference = ref.outcomes.get(failure.test, "failed" if not ref.started
                                             or not failure.test else "not run")
        ref_failure = next((f for f in ref.failures if f.test in (failure.test, "")), None)
        if failure.reference == "failed" and ref_failure:
            failure.reference_error = ref_failure.error
    cause = match_cause(failure.error)
    if failure.reference == "passed":
        # TF1's semantics alone make it pass: whatever the error, the port's to establish.
        cause = cause if cause.semantics else SEMANTICS_OTHER
    elif failure.reference == "failed" and cause.semantics and failure.reference_error:
        # Not (only) semantics: what it fails on once they are set decides the owner.
        then = match_cause(failure.reference_error)
        failure.then = then.name
        cause = then if not then.semantics else cause
    failure.cause, failure.owner = cause.name, cause.owner
    return failure


@dataclass
class Tally:
    """One mode's counts over the whole suite."""

    modules: int = 0
    started: int = 0
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        run = self.passed + self.failed
        return self.passed / run if run else 0.0


def tally(runs: Dict[str, ModuleRun], wall: float) -> Tally:
    counts = Tally(modules=len(runs), seconds=wall)
    for run in runs.values():
        counts.started += run.started
        outcomes = Counter(run.outcomes.values())
        counts.passed += outcomes["passed"]
        counts.skipped += outcomes["skipped"]
        counts.failed += outcomes["failed"] + sum(f.tests for f in run.failures if not f.test)
    return counts


def suite_table(tallies: Dict[str, Tally]) -> str:
    rows = [[mode, t.modules, t.started, t.passed + t.failed, t.passed, t.failed, t.skipped,
             f"{100 * t.rate:.1f}%", f"{t.seconds:.0f}"] for mode, t in tallies.items()]
    return _harness.table(["run", "modules", "started", "tests (non-skipped)", "passed",
                           "failed", "skipped", "pass rate", "wall s"], rows)


def cause_table(failures: Sequence[Failure]) -> List[str]:
    """Failures grouped by owner and cause: count, an example error and frame, the change."""
    by_cause: Dict[tuple, List[Failure]] = defaultdict(list)
    for failure in failures:
        by_cause[(OWNERS.index(failure.owner), failure.cause)].append(failure)
    causes = {c.name: c for c in (*CAUSES, SEMANTICS_OTHER, NO_CAUSE)}
    lines = []
    rows = []
    for (owner_index, name), members in sorted(by_cause.items(),
                                               key=lambda item: (item[0][0], -len(item[1]))):
        example = members[0]
        then = Counter(f.then for f in members if f.then)
        rows.append([OWNERS[owner_index], name, len(members),
                     len({f.module for f in members}), example.error[:90],
                     example.frame])
        lines.append(f"  {name}: {causes[name].change}")
        if then:
            lines.append("      with TF1 semantics set, these then fail on: "
                         + ", ".join(f"{n} {c}" for c, n in then.most_common()))
    table = _harness.table(["owner", "cause", "tests", "modules", "first error (example)",
                            "innermost frame (example)"], rows)
    return [table, "", "what each cause needs:", *lines]


def fetch_sources(workdir: Path, cache: Path, with_slim: bool,
                  deadline: _harness.Deadline) -> Trees:
    """Downloads (cached), unpacks and ports object detection, and research/slim beside it.

    Raises:
      RuntimeError: a download or a port failed.
    """
    source = corpus.unpack(corpus.fetch(OBJECT_DETECTION, cache, deadline), workdir / "source")
    trees = Trees(workdir / "ported", [workdir / "ported"])
    ports = [(source, trees.ported)]
    if with_slim:
        slim_sdist = corpus.unpack(corpus.fetch(RESEARCH_SLIM, cache, deadline),
                                   workdir / "slim_source")
        ports.append((slim_sdist / "slim", workdir / "ported_slim"))
        trees.path.append(workdir / "ported_slim")
    for tree, out in ports:
        log = workdir / f"rewrite_{out.name}.log"
        ran = _harness.rewrite(tree, out, workdir / f"{out.name}.json", deadline, log=log)
        if ran.returncode not in (0, 2):  # 2: some files did not parse (Python 2), reported
            raise RuntimeError(f"slimport rewrite {tree} exited {ran.returncode}: "
                               f"{log.read_text()[-2000:]}")
        print(f"slimport rewrite {tree.name} --out {out.name}: "
              f"{log.read_text().strip().splitlines()[-1]} ({ran.seconds:.1f} s)", flush=True)
    return trees


def run_suite(args: argparse.Namespace, workdir: Path, deadline: _harness.Deadline) -> dict:
    """Ports, runs every mode, classes the failures; returns the JSON-ready result."""
    workdir.mkdir(parents=True, exist_ok=True)
    trees = fetch_sources(workdir, args.cache, not args.no_slim, deadline)
    modules = sorted(str(p.relative_to(trees.ported))
                     for p in (trees.ported / "object_detection").rglob("*_test.py")
                     if not args.only or args.only in str(p))
    print(f"{len(modules)} test modules; {args.jobs} at a time, each within "
          f"{args.module_timeout:.0f} s", flush=True)
    runs, tallies = {}, {}
    for mode, selection in (("pytest", modules), ("reference", None),
                            ("script", modules if args.as_script else [])):
        if selection is None:  # the reference: every module with a failure, again
            selection = [m for m, run in runs["pytest"].items() if run.failures]
        started = time.monotonic()
        runs[mode] = run_modules(trees, selection, mode, workdir, args.jobs,
                                 args.module_timeout) if selection else {}
        tallies[mode] = tally(runs[mode], time.monotonic() - started)
        print(f"  {mode}: {tallies[mode].passed} passed, {tallies[mode].failed} failed "
              f"({tallies[mode].seconds:.0f} s)", flush=True)
    failures = classify(runs["pytest"], runs["reference"])
    script_failures = classify(runs["script"], runs["reference"])
    return {"tallies": tallies, "failures": failures, "script_failures": script_failures}


def print_result(result: dict, verbose: bool) -> None:
    tallies: Dict[str, Tally] = result["tallies"]
    labels = {"pytest": "pytest (one process per module)",
              "reference": "  reference: failing modules again, TF1 semantics set",
              "script": "as its authors ran it: python X_test.py"}
    print("\n=== tensorflow-object-detection-api 0.1.1's own tests, ported, on this "
          "TensorFlow")
    print(suite_table({labels[m]: t for m, t in tallies.items() if t.modules}))
    for name, failures in (("pytest", result["failures"]),
                           ("as script", result["script_failures"])):
        if not failures:
            continue
        owners = Counter()
        for failure in failures:
            owners[failure.owner] += failure.tests
        print(f"\n=== {name}: every failure classed ("
              + ", ".join(f"{owner} {owners[owner]}" for owner in OWNERS if owners[owner])
              + ")")
        print("\n".join(cause_table(failures)))
        if verbose:
            for failure in sorted(failures, key=lambda f: (f.cause, f.key)):
                print(f"    {failure.cause:22} {failure.key}  {failure.error[:100]}  "
                      f"[{failure.frame}] reference: {failure.reference}"
                      + (f" ({failure.reference_error[:80]})" if failure.reference_error
                         else ""))


def verdict(result: dict) -> int:
    pytest_tally: Tally = result["tallies"]["pytest"]
    blocking = Counter(f.owner for f in result["failures"] if f.owner in (PORT, UNCLASSIFIED))
    if pytest_tally.rate >= TARGET_PASS_RATE and not blocking:
        print(f"OK: {100 * pytest_tally.rate:.1f}% of the non-skipped tests pass; no failure "
              "is the port's")
        return 0
    print(f"FAIL: {100 * pytest_tally.rate:.1f}% of the non-skipped tests pass (target "
          f"{100 * TARGET_PASS_RATE:.0f}%); the port's failures: {blocking[PORT]}, "
          f"unclassified: {blocking[UNCLASSIFIED]}")
    return 1


def main(argv: Sequence[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--cache", type=Path, default=corpus._default_cache(),
                        help="where the sdists are kept (default: %(default)s)")
    parser.add_argument("--as-script", action="store_true",
                        help="also run each module as `python X_test.py`")
    parser.add_argument("--no-slim", action="store_true",
                        help="leave research/slim out (its users count as blocked)")
    parser.add_argument("--only", help="run only the test modules whose path contains this")
    parser.add_argument("--module-timeout", type=float, default=240.0,
                        help="seconds for one test module's process (default %(default)s)")
    parser.add_argument("--report", type=Path, help="write every classed failure as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    _harness.add_run_options(parser, 1500.0, "test modules at a time")
    args = parser.parse_args(argv)
    deadline = _harness.Deadline(args.deadline)
    started = time.monotonic()
    outcome = _harness.run_each(["od"], lambda name, workdir: run_suite(args, workdir, deadline),
                                args.keep, "odsuite")
    if outcome is None:
        return 2
    (result,) = outcome
    print_result(result, args.verbose)
    if args.report:
        args.report.write_text(json.dumps(
            {"tallies": {m: asdict(t) for m, t in result["tallies"].items()},
             "failures": [asdict(f) for f in result["failures"]],
             "script_failures": [asdict(f) for f in result["script_failures"]]}, indent=1))
    print(f"({time.monotonic() - started:.0f} s in all)")
    return verdict(result)


if __name__ == "__main__":
    sys.exit(main())
