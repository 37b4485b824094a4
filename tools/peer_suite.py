"""The yardstick of issues 25 and 30: a peer's own test suite, ported and run on TensorFlow 2.

    python tools/<peer>_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script]
        [--without SOURCE] [--only SUBSTRING] [--quick] [--tf1-python PYTHON [--tf1-all]]
        [--report FILE.json] [--judge DIR] [-v]

A peer is a TF1 project on PyPI that ships its own tests (tools/od_suite.py: object
detection 0.1.1; tools/tensorlayer_suite.py, tools/magenta_suite.py). This harness,
shared by them, downloads the peer's distributions (sdist or wheel, hash-checked and
cached as tools/corpus.py does), ports each with ``slimport rewrite SRC --out PORTED``,
then runs every test module with pytest, one process per module (forked from one that
imported TensorFlow once), -j at a time, each bounded in time, with a junit XML report
each.

Every failure is then classed, on evidence:
- its first error (the first exception of the traceback) and its innermost frame;
- a reference run: each failing test (or module) runs again with TF1's run-time semantics
  set before any test code (graph mode and v1 shapes, TF1's flag parsing, the
  pure-Python protobuf, tf.keras as Keras 2: tools/peer_tf1_semantics.py). A test that
  passes there fails only because the port did not establish TF1's semantics: the
  port's. A test that fails there too is classed by its error there;
- known signatures: the peer's own (``Peer.causes``, ``Peer.known_tests``), then the
  common ones below (CAUSES): Python 2 leftovers the port must rewrite, a third-party
  package's change (NumPy, pandas, protobuf, TensorFlow itself), a dependency that does
  not install here (blocked), the project's own bugs;
- with ``--tf1-python``, the failing modules run unported on TensorFlow 1: an
  unexplained failure that fails the same there is the project's own.
A failure no signature explains is listed as UNCLASSIFIED.

``--tf1-all`` (with ``--tf1-python``) runs every module unported there, the suite in its
time (Python 2.7 + TF 1.14 from tools/tf1_env.py, or Python 3.7 + TF 1.15), and tables the
tests that pass there against the port: each that passes in its time and fails after the
port is the port's, whatever the cause. On Python 2 (no namespace packages) each folder
of the tree with Python files and no ``__init__.py`` gets its own path entry.

``--as-script`` also runs each module as its authors did, ``python X_test.py``
(absltest's XML report), and tables it beside pytest's; a module with no ``__main__``
block (a base class of other test modules) is not a script and is left out of that run.

Exit status 0 when at least 90% of the non-skipped tests of the modules that start pass
under pytest, no module fails to start because of the port, and no failure is the port's
or unclassified; 1 otherwise; 2 when a step could not run (download, port, deadline).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Pattern, Sequence, Tuple

import _harness
import corpus
from slimport.verify import runner

TOOLS = Path(__file__).resolve().parent
PORT, PROJECT, THIRD_PARTY, BLOCKED, UNCLASSIFIED = (
    "the port's", "the project's own", "third-party change", "blocked", "UNCLASSIFIED")
OWNERS = (PORT, PROJECT, THIRD_PARTY, BLOCKED, UNCLASSIFIED)
TARGET_PASS_RATE = 0.9


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
      timing: a wall-clock assertion: it passes or fails with the machine's load, so a
        reference run that passed says nothing about it.
    """

    name: str
    owner: str
    error: str
    change: str
    semantics: bool = False
    timing: bool = False


CAUSES = (
    # TF1's run-time semantics (issue 25 items 1-3): confirmed by the reference run.
    Cause("graph-mode", PORT,
          r"'NoneType' object has no attribute '(run|as_default|graph)'"
          r"|is not compatible with eager execution|is undefined when eager execution"
          r"|is not supported when eager execution|not supported in eager mode"
          r"|when eager execution is enabled"
          r"|InvalidArgumentError: Expected 'tf\.Tensor\(",  # a tf.Assert run at once, eagerly
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
          "*_pb2.py from protoc < 3.20: slimport rewrite regenerates them with grpcio-tools' "
          "protoc (slimport/engine/protos.py); without grpcio-tools it reports them",
          semantics=True),
    Cause("keras-3", PORT,
          r"got an unexpected keyword argument 'layers'"
          r"|Unrecognized keyword arguments passed to \w+"
          r"|'tuple' object has no attribute 'assert_has_rank'",
          "TF1 code's tf.keras is Keras 2; on TF >= 2.16 it is Keras 3: TF1 modules must get "
          "tf_keras (`tf.keras` -> `tf_keras`, as slim_ext does for tf.compat.v1.layers)",
          semantics=True),
    # Python 2 leftovers with one certain Python 3 spelling: the py2 codemod's.
    Cause("py2-getargspec", PORT, r"module 'inspect' has no attribute 'getargspec'",
          "`inspect.getargspec(f).args` -> `inspect.getfullargspec(f).args` (removed_stdlib; "
          "args, varargs, defaults keep their positions; `keywords` is `varkw`)"),
    Cause("py2-float-repr", PORT, r"module 'json\.encoder' has no attribute 'FLOAT_REPR'",
          "`json.encoder.FLOAT_REPR` is gone in Python 3: a file that reads or sets it "
          "imports slim_ext.py2_json (removed_stdlib), which gives Python 2's hook back"),
    Cause("py2-range-list", PORT,
          r"unsupported operand type\(s\) for [*+]: 'range' and"
          r"|can't multiply sequence by non-int of type 'range'"
          r"|Expected values range\(",
          "a Python 2 `range(...)` used as a list (`range(n) * k`, `range(a) + range(b)`, "
          "passed to tf.constant) -> `list(range(...))`"),
    Cause("py2-dict-iter", PORT, r"'dict' object has no attribute 'iter(items|keys|values)'",
          "`d.iteritems()` -> `d.items()` (and itervalues/iterkeys) where `d` is a dict "
          "the codemod cannot see as one today"),
    Cause("py2-dict-views", PORT,
          r"'(o?dict_(keys|values|items))' object is not subscriptable"
          r"|Can not convert a o?dict_(keys|values|items) into a Tensor",
          "`d.keys()[i]`, `d.values()` passed where a list is needed -> `list(d.keys())[i]`, "
          "`list(d.values())` (2to3's fix_dict)"),
    Cause("py2-itertools", PORT, r"module 'itertools' has no attribute 'i(zip|map|filter)",
          "`itertools.izip` -> `zip` (imap -> map, ifilter -> filter; 2to3's fix_itertools)"),
    Cause("py2-stringio", PORT, r"No module named 'c?StringIO'",
          "Python 2's StringIO held str, which was bytes, or unicode: the rewrite points "
          "`import StringIO` / `cStringIO` at slim_ext.py2_stringio, whose buffer holds "
          "either as written (removed_stdlib); this module still imports it"),
    Cause("py2-modules", PROJECT, r"No module named '(cPickle|urllib2)'",
          "a Python 2 module Python 3 renamed (cPickle -> pickle, urllib2 -> "
          "urllib.request): the project's on Python 3"),
    # Names the port leaves or cannot give.
    Cause("contrib-left", PORT, r"has no attribute 'contrib'|No module named 'tensorflow\.contrib",
          "tf.contrib names left in place as 'no home' (tf.contrib.lookup.HashTable now goes "
          "to slim_ext.contrib.lookup); `tf.contrib.opt.MovingAverageOptimizer` needs a "
          "slim_ext re-implementation"),
    Cause("estimator-missing", PORT, r"has no attribute 'estimator'",
          "TF >= 2.16 has no tf.estimator: the file needs `import slim_ext.estimator` "
          "(tensorflow-estimator 2.15 revived; slimport's slim_ext_import adds it)"),
    # Python 2 code with no mechanical Python 3 spelling (2to3 leaves it too): object
    # detection's fail unported on TensorFlow 1.15 / Python 3.7 as well (--tf1-python,
    # 2026-11-25).
    Cause("py2-str-as-bytes", PROJECT,
          r"has type <class 'str'>, but expected one of: \(<class 'bytes'>"
          r"|has type str, but expected one of: bytes|a bytes-like object is required, not 'str'"
          r"|expected bytes, str found|AssertionError: b'[^']*' != '|AssertionError: '[^']*' != b'"
          r"|Lists differ: \[b'|not found in array\(\[b'|\] != array\(\[b'|codec can't decode byte"
          r"|Object of type bytes is not JSON serializable",
          "Python 2 code that uses str as bytes (proto bytes fields, binary files opened in "
          "text mode, byte strings compared with str): the project's on Python 3; no port "
          "can tell bytes from text, it can only report"),
    Cause("py2-mixed-comparison", PROJECT,
          r"'[<>]=?' not supported between instances of '\w+' and '\w+'",
          "Python 2 ordered values of any two types (`kernel_size > 1` with a (3, 3) "
          "tuple from the Keras application was True): the code's meaning for such values "
          "is undefined on Python 3, so only its authors can say what it should compare"),
    # Library APIs the project's code calls that a newer release removed: ported (issue 34).
    Cause("pandas-as-matrix", PORT,
          r"'(DataFrame|Series)' object has no attribute 'as_matrix'",
          "removed in pandas 1.0: `x.as_matrix()` -> `x.to_numpy()` (pandas_as_matrix; a "
          "receiver it cannot prove a frame is ported in a tree that uses pandas and "
          "defines no as_matrix of its own)"),
    Cause("pillow-fromarray", PORT, r"KeyError: \(\(\d+, \d+, 3\), '<f8'\)"
          r"|Cannot handle this data type: \(1, 1, 3\), <f8",
          "Pillow >= 11 refuses Image.fromarray(float64 array, 'RGB'), which read the "
          "array's raw bytes: pillow_api writes that read (Image.frombuffer) where the "
          "array is certainly float64"),
    Cause("pillow-getsize", PORT, r"'FreeTypeFont' object has no attribute 'getsize'",
          "Pillow 10 removed ImageFont.getsize: pillow_api ports font.getsize(s) -> "
          "font.getbbox(s)[2:] where the font is certainly a Pillow font"),
    Cause("matplotlib-api", PORT,
          r"Bbox\.from_bounds\(\) missing 1 required positional argument"
          r"|has no attribute 'tostring_rgb'|binary mode of fromstring is removed",
          "matplotlib 3.x refuses add_subplot('111') and dropped canvas.tostring_rgb, NumPy "
          "2.3 fromstring's binary mode: matplotlib_api and numpy_aliases port them"),
    Cause("protobuf-bool-as-int", PORT,
          r"Field tensorflow\.Int64List\.value: Expected an int, got a boolean",
          "protobuf >= 5 (upb; TF 2.21's 7.x) refuses a bool in an int64 field, which TF1's "
          "protobuf 3 stored as 0/1 (the test's COCO annotations carry 'iscrowd': False): "
          "protobuf_int64_bools passes tf.train.Int64List's value through "
          "slim_ext.protobuf3.int64_values"),
    Cause("tf-removed", THIRD_PARTY, r"RemovedInTF2Error",
          "TensorFlow 2 removed it with no replacement (contrib.quantize graph rewriting, "
          "graph_transforms other than strip_unused_nodes, contrib.tpu.RunConfig): the "
          "rewrite reports it; nothing to port"),
    Cause("not-installed", THIRD_PARTY, r"No module named '",
          "a package this environment does not install"),
)
SEMANTICS_OTHER = Cause(
    "tf1-semantics-other", PORT, "",
    "passes once TF1's run-time semantics are set (reference run): the port must "
    "establish them (items 1-3)", semantics=True)
NO_CAUSE = Cause("unclassified", UNCLASSIFIED, "", "?")
FAILS_ON_TF1 = Cause(
    "fails-on-tf1", PROJECT, "",
    "fails with the same exception unported on TensorFlow 1 (--tf1-python): the project's "
    "own on Python 3")


@dataclass(frozen=True)
class Source:
    """A distribution from PyPI and the directory of it that is ported.

    Attributes:
      distribution: the pinned sdist or wheel (tools/corpus.py downloads and caches it).
      tree: the directory of the unpacked archive to port ("." for all of it).
      ported: its ported copy's directory name; the first source's copy is the tree the
        tests run in, each other's goes on PYTHONPATH after it.
      optional: ``--without NAME`` (the distribution's name) leaves it out; the tests
        that need it then fail as blocked.
    """

    distribution: corpus.Corpus
    tree: str = "."
    ported: str = "ported"
    optional: bool = False


@dataclass(frozen=True)
class Peer:
    """A TF1 project whose own test suite measures the port.

    Attributes:
      name: the label of its run (``--keep DIR/NAME``).
      title: the project as the tables name it.
      sources: what is downloaded and ported; the first is the project itself.
      tests: a glob of its test modules, relative to the first ported tree.
      causes: its own failure signatures, tried before the common ones (CAUSES).
      known_tests: failures whose error alone says nothing, each looked at: (test id
        regex, first error regex, cause); both must match.
      slow: ``--quick`` leaves out the test modules whose path this matches.
      slow_help: what ``--quick`` leaves out, for ``--help``.
      tf1_unusable: an error of the unported run on TensorFlow 1 that says nothing about
        the test (that run then counts as not run).
    """

    name: str
    title: str
    sources: Sequence[Source]
    tests: str
    causes: Sequence[Cause] = ()
    known_tests: Sequence[Tuple[str, str, Cause]] = ()
    slow: Optional[Pattern[str]] = None
    slow_help: str = ""
    tf1_unusable: Optional[Pattern[str]] = None

    def match_cause(self, error: str, key: str = "") -> Cause:
        """The known_tests entry of the test when it has one for this error (a failure
        looked at one by one), else the first cause whose signature the error has (the
        peer's, then the common ones)."""
        for test, known_error, cause in self.known_tests:
            if re.search(test, key) and re.search(known_error, error):
                return cause
        for cause in (*self.causes, *CAUSES):
            if re.search(cause.error, error):
                return cause
        return NO_CAUSE

    def all_causes(self) -> Dict[str, Cause]:
        return {c.name: c for c in (*self.causes, *CAUSES, *(c for _, _, c in self.known_tests),
                                    SEMANTICS_OTHER, FAILS_ON_TF1, NO_CAUSE)}

# A first error: the exception line of a native traceback (column 0) or of pytest's short
# one ("E   ValueError: ..."). Frames: native ('File "x.py", line 3') and short ("x.py:3: in").
_EXCEPTION_LINE = re.compile(
    r"^(?:E\s+)?((?:[A-Za-z_][\w.]*)(?:Error|Exception|Exit|Interrupt|error)\b.*)$",
    re.MULTILINE)
_NATIVE_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_SHORT_FRAME = re.compile(r"^(\S+\.py):(\d+): in ", re.MULTILINE)
_PATH_MARKERS = tuple(re.compile(marker) for marker in (
    r"site-packages/", r"/ported(_\w+)?/", r"lib/python3"))  # the first that matches


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
    reference_frame: str = ""
    now: str = ""  # the cause of this run's first error
    cause: str = ""  # the cause that decides the owner (see _classify_one)
    owner: str = ""
    evidence: str = ""  # the error the cause was read from, and its innermost frame
    evidence_frame: str = ""
    tf1: str = "not run"  # the unported test on TensorFlow 1 (--tf1-python)
    tf1_error: str = ""

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
    """A peer's trees, ported and not, and what goes on PYTHONPATH beside each."""

    ported: Path
    path: List[Path]
    source: Path
    source_path: List[Path]


def first_error(text: str) -> tuple:
    """(first exception line, innermost frame before it) of a traceback's text."""
    # pytest's header of a collection error is not an error of the module's.
    match = next((m for m in _EXCEPTION_LINE.finditer(text)
                  if not m[1].startswith("ImportError while importing test module")), None)
    if not match:
        lines = [line for line in text.strip().splitlines() if line.strip()]
        return (lines[-1].strip() if lines else "?"), "?"
    frames = [(m.start(), m[1], m[2]) for regex in (_NATIVE_FRAME, _SHORT_FRAME)
              for m in regex.finditer(text, 0, match.start())]
    frame = max(frames)[1:] if frames else None
    # The message may go on over the next lines (assertion diffs): up to a blank line.
    message = [match[1].strip()]
    for line in text[match.end():].splitlines()[1:]:
        if not line.strip() or line.startswith(("Traceback", "During handling")):
            break
        message.append(line.strip())
    return " ".join(message)[:300], (f"{_short_path(frame[0])}:{frame[1]}" if frame else "?")


def _short_path(path: str) -> str:
    """A frame's path from its tree on: the peer's own files relative to its ported tree,
    a tree beside it (``ported_slim/``) and installed packages with their marker."""
    for marker in _PATH_MARKERS:
        match = marker.search(path)
        if match:
            return ("" if match[0] == "/ported/" else match[0].lstrip("/")) + path[match.end():]
    return path


def runs_as_script(path: Path) -> bool:
    """Whether the module has an ``if __name__ == '__main__':`` block: its authors ran it
    as ``python X_test.py``. One without (a base class the test modules subclass, such as
    models/ssd_feature_extractor_test.py) ran no test that way, ported or not."""
    try:
        tree = ast.parse(path.read_bytes())
    except SyntaxError:
        return True  # run it: the failure to start is its outcome
    def names_main(test: ast.expr) -> bool:
        parts = list(ast.walk(test))
        return (any(isinstance(part, ast.Name) and part.id == "__name__" for part in parts)
                and any(isinstance(part, ast.Constant) and part.value == "__main__"
                        for part in parts))
    return any(isinstance(node, ast.If) and names_main(node.test) for node in tree.body)


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
              source: Path, exit_code: int) -> ModuleRun:
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
        # No report: keep what the progress file says the finished tests did.
        running = _read_progress(junit.with_suffix(".progress"), outcomes, failures, module)
        if timed_out:
            error, frame = f"timed out: no report after {seconds:.0f} s", "?"
        elif _EXCEPTION_LINE.search(output):
            error, frame = first_error(output)
        else:  # killed by a signal (a crash) or exited before any test or report
            error, frame = f"exited {exit_code} without a report", "?"
        if running:  # the test that was running when the module died
            outcomes[running] = "failed"
            failures.append(Failure(module, running, error, frame, output[-4000:]))
        elif not outcomes:
            failures.append(Failure(module, "", error, frame, output[-4000:],
                                    static_test_count(source)))
    return ModuleRun(module, seconds, outcomes, failures, bool(outcomes))


def _read_progress(path: Path, outcomes: Dict[str, str], failures: List[Failure],
                   module: str) -> str:
    """Adds the tests a progress file (tools/peer_checks.py) saw end; returns the test that
    started and never ended ("" if none)."""
    if not path.exists():
        return ""
    running = ""
    for line in path.read_text().splitlines():
        record = json.loads(line)
        test = "::".join(record["test"].split("::")[1:])
        if record["event"] == "start":
            running = test
            continue
        running = ""
        if outcomes.get(test) != "failed":  # any failing phase fails the test
            outcomes[test] = record["event"]
        if record["event"] == "failed" and not any(f.test == test for f in failures):
            error, frame = first_error(record["text"])
            failures.append(Failure(module, test, error, frame, record["text"]))
    return running


def run_modules(trees: Trees, modules: Sequence[str], mode: str, workdir: Path, jobs: int,
                module_timeout: float,
                only_tests: Optional[Dict[str, List[str]]] = None,
                plugins: Sequence[str] = ()) -> Dict[str, ModuleRun]:
    """Runs each test module in its own process (``mode``: pytest, reference or script).

    ``only_tests``: per module, the pytest node ids to run instead of the whole module.
    ``plugins``: pytest plugins every pytest run loads (``-p NAME``).

    The processes are forked from one that imported TensorFlow and pytest once
    (tools/peer_checks.py run by slimport verify's fork server), ``jobs`` at a time.

    Raises:
      runner.WorkerError: the fork server failed to start or stopped answering.
    """
    outdir = workdir / mode
    outdir.mkdir(parents=True, exist_ok=True)
    ini = workdir / "pytest.ini"  # an empty config: no ini file above the tree is read
    ini.write_text("[pytest]\n")
    env = runner.worker_environment()
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in [*trees.path, TOOLS])
    arguments = ["-q", "-p", "no:cacheprovider", "--tb=native", "-c", str(ini),
                 "--rootdir", str(trees.ported), "-o", "junit_family=xunit2",
                 *(argument for plugin in plugins for argument in ("-p", plugin))]
    if mode == "reference":
        env["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = "python"
        env["TF_USE_LEGACY_KERAS"] = "1"  # tf.keras is Keras 2, as in TF1
        arguments += ["-p", "peer_tf1_semantics"]
    config = {"roots": [], "preload": ["tensorflow", "pytest"], "max_children": jobs,
              "tree_names": [], "tree_dirs": [], "checks": "peer_checks"}  # ours, not verify's
    with tempfile.TemporaryDirectory(prefix="peersuite-worker-") as scratch:
        server = runner.Runner(config, env, scratch)
        with server:
            # The largest modules first, so both processes stay busy to the end.
            for module in sorted(modules, key=lambda m: -(trees.ported / m).stat().st_size):
                server.submit({"check": "script" if mode == "script" else "pytest",
                               "module": module, "tree": str(trees.ported),
                               "junit": str(outdir / (module.replace("/", "__")[:-3] + ".xml")),
                               "progress": str(outdir / (module.replace("/", "__")[:-3]
                                                         + ".progress")),
                               "arguments": arguments, "timeout": module_timeout,
                               "tests": (only_tests or {}).get(module, []),
                               "target": module})
            for done in server.results():
                stem = Path(done.job["junit"]).with_suffix("")
                stem.with_suffix(".log").write_text(done.output)
                stem.with_suffix(".json").write_text(json.dumps({
                    "module": done.job["module"], "seconds": done.result.get("seconds", 0.0),
                    "timed_out": done.result.get("status") == "timeout",
                    "exit_code": done.exit_code}))
    return read_runs(outdir, trees.ported)


def read_runs(outdir: Path, ported: Path) -> Dict[str, ModuleRun]:
    """The runs of one mode, from the files run_modules left in ``outdir``."""
    runs = {}
    for status_file in sorted(outdir.glob("*.json")):
        status = json.loads(status_file.read_text())
        module = status["module"]
        runs[module] = _read_run(module, status_file.with_suffix(".xml"),
                                 status_file.with_suffix(".log").read_text(errors="replace"),
                                 status["timed_out"], status["seconds"], ported / module,
                                 status["exit_code"])
    return runs


def classify(peer: Peer, runs: Dict[str, ModuleRun], reference: Dict[str, ModuleRun],
             tf1: Optional[Dict[str, ModuleRun]] = None) -> List[Failure]:
    """Classes every failure of ``runs`` by its first error, the reference run and, when
    given, the unported run on TensorFlow 1.

    A module that failed as a whole stands for each test the reference run found in it
    (or for the test methods its source defines, when the reference did not start it
    either), each classed on its own.
    """
    failures = []
    for run in runs.values():
        ref, old = reference.get(run.module), (tf1 or {}).get(run.module)
        for failure in run.failures:
            if not failure.test and ref and ref.started:
                failures += [_classify_one(peer, Failure(failure.module, test, failure.error,
                                                         failure.frame, failure.text), ref, old)
                             for test, outcome in ref.outcomes.items() if outcome != "skipped"]
            else:
                failures.append(_classify_one(peer, failure, ref, old))
    return failures


def _outcome_in(run: Optional[ModuleRun], test: str) -> tuple:
    """(passed / failed / not run, first error, frame) of ``test`` in another run."""
    if run is None:
        return "not run", "", ""
    outcome = run.outcomes.get(test, "failed" if not run.started or not test else "not run")
    if outcome != "failed":
        return outcome, "", ""
    failure = next((f for f in run.failures if f.test in (test, "")), None)
    return ("failed", failure.error, failure.frame) if failure else ("failed", "", "")


def _exception_type(error: str) -> str:
    return error.partition(":")[0].rsplit(".", 1)[-1]


def _classify_one(peer: Peer, failure: Failure, ref: Optional[ModuleRun],
                  tf1: Optional[ModuleRun] = None) -> Failure:
    """Classes one failure.

    ``now`` is read off its own first error. The owner comes from the reference run
    (TF1's semantics set): a test that passes there fails only for want of them, the
    port's; a test that fails there too, after a semantics error or an unknown one here,
    is classed by its error there (what would remain once the port set the semantics);
    a known non-semantics error here (a Python 2 leftover, pandas) classes it as it is.
    A failure no signature explains is the project's own when the unported test fails
    with the same exception on TensorFlow 1 (``tf1``).
    """
    failure.reference, failure.reference_error, failure.reference_frame = _outcome_in(
        ref, failure.test)
    failure.tf1, failure.tf1_error, _ = _outcome_in(tf1, failure.test)
    if peer.tf1_unusable and peer.tf1_unusable.search(failure.tf1_error):
        failure.tf1 = "not run"
    now = peer.match_cause(failure.error, failure.key)
    cause, evidence = now, (failure.error, failure.frame)
    if failure.reference == "passed":
        cause = now if now.semantics or now.timing else SEMANTICS_OTHER
    elif failure.reference_error and (now.semantics or now is NO_CAUSE):
        cause = peer.match_cause(failure.reference_error, failure.key)
        evidence = (failure.reference_error, failure.reference_frame)
    if cause is NO_CAUSE and failure.tf1 == "failed" and (
            _exception_type(failure.tf1_error) == _exception_type(evidence[0])):
        cause = FAILS_ON_TF1
    failure.now = now.name
    failure.cause, failure.owner = cause.name, cause.owner
    failure.evidence, failure.evidence_frame = evidence
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
    failed_unstarted: int = 0  # of ``failed``: the tests of modules that did not start

    @property
    def rate(self) -> float:
        run = self.passed + self.failed
        return self.passed / run if run else 0.0

    @property
    def started_rate(self) -> float:
        """The pass rate of the tests of the modules that started (issue 30's measure)."""
        run = self.passed + self.failed - self.failed_unstarted
        return self.passed / run if run else 0.0


def tally(runs: Dict[str, ModuleRun], wall: float,
          failures: Optional[Sequence[Failure]] = None) -> Tally:
    """Counts over every module; ``failures``: the classed ones (a module that did not
    start then counts the tests the reference run found in it), else the run's own."""
    counts = Tally(modules=len(runs), seconds=wall)
    for run in runs.values():
        counts.started += run.started
        outcomes = Counter(run.outcomes.values())
        counts.passed += outcomes["passed"]
        counts.skipped += outcomes["skipped"]
    if failures is None:
        failures = [failure for run in runs.values() for failure in run.failures]
    counts.failed = sum(failure.tests for failure in failures)
    counts.failed_unstarted = sum(failure.tests for failure in failures
                                  if not runs[failure.module].started)
    return counts


def suite_table(tallies: Dict[str, Tally]) -> str:
    rows = [[mode, t.modules, t.started, t.passed + t.failed, t.passed, t.failed, t.skipped,
             f"{100 * t.rate:.1f}%", f"{100 * t.started_rate:.1f}%", f"{t.seconds:.0f}"]
            for mode, t in tallies.items()]
    return _harness.table(["run", "modules", "started", "tests (non-skipped)", "passed",
                           "failed", "skipped", "pass rate", "of started modules", "wall s"],
                          rows)


def cause_tables(peer: Peer, failures: Sequence[Failure]) -> List[str]:
    """Two views of the failures: what each fails on today (its first error), and who owns
    it (the cause that decides, on the reference run's evidence); then what each cause needs.
    """
    causes = peer.all_causes()

    def grouped(key) -> List[tuple]:
        groups: Dict[tuple, List[Failure]] = defaultdict(list)
        for failure in failures:
            groups[key(failure)].append(failure)
        return sorted(groups.items(), key=lambda item: -sum(f.tests for f in item[1]))

    today = [[causes[name].owner if name != NO_CAUSE.name else "(no signature)", name,
              sum(f.tests for f in members),
              len({f.module for f in members}), members[0].error[:80], members[0].frame]
             for (name,), members in grouped(lambda f: (f.now,))]
    owned = []
    for (owner, name), members in sorted(grouped(lambda f: (f.owner, f.cause)),
                                         key=lambda item: OWNERS.index(item[0][0])):
        hidden = Counter(f.now for f in members if f.now != name)
        owned.append([owner, name, sum(f.tests for f in members),
                      len({f.module for f in members}), members[0].evidence[:80],
                      members[0].evidence_frame,
                      ", ".join(f"{c} {n}" for c, n in hidden.most_common(3))])
    needed = sorted({f.now for f in failures} | {f.cause for f in failures})
    return ["what the tests fail on today (their first error):",
            _harness.table(["owner", "cause", "tests", "modules", "first error (example)",
                            "innermost frame"], today),
            "", "who owns each failure (the error that decides: with TF1 semantics set, the "
            "reference run's):",
            _harness.table(["owner", "cause", "tests", "modules", "deciding error (example)",
                            "innermost frame", "failing today first on"], owned),
            "", "what each cause needs:",
            *[f"  {name} ({causes[name].owner}): {causes[name].change}" for name in needed]]


def fetch_sources(peer: Peer, workdir: Path, cache: Path, without: Sequence[str],
                  deadline: _harness.Deadline) -> Trees:
    """Downloads (cached), unpacks and ports the peer's sources but those ``without`` names.

    Raises:
      RuntimeError: a download or a port failed.
    """
    trees = None
    for source in peer.sources:
        if source.optional and source.distribution.name in without:
            continue
        archive = corpus.fetch(source.distribution, cache, deadline)
        tree = corpus.unpack(archive, workdir / f"{source.distribution.name}_source") / source.tree
        out = workdir / source.ported
        if trees is None:
            trees = Trees(out, [], tree, [])
        trees.path.append(out)
        trees.source_path.append(tree)
        log = workdir / f"rewrite_{out.name}.log"
        ran = _harness.rewrite(tree, out, workdir / f"{out.name}.json", deadline, log=log)
        if ran.returncode not in (0, 2):  # 2: some files did not parse (Python 2), reported
            raise RuntimeError(f"slimport rewrite {tree} exited {ran.returncode}: "
                               f"{log.read_text()[-2000:]}")
        print(f"slimport rewrite {archive.name}:{source.tree} --out {out.name}: "
              f"{log.read_text().strip().splitlines()[-1]} ({ran.seconds:.1f} s)", flush=True)
    return trees


def python_major(python: str) -> int:
    """The major version of the interpreter ``python`` (2 or 3)."""
    ran = subprocess.run([python, "-c", "import sys; print(sys.version_info[0])"],
                         capture_output=True, text=True, check=True)
    return int(ran.stdout.strip())


def namespace_folders(roots: Sequence[Path]) -> List[Path]:
    """The folders under ``roots`` that hold Python files and no ``__init__.py``: Python 3
    imports from them as namespace packages, Python 2 only from a path entry of each."""
    return sorted({path.parent for root in roots for path in root.rglob("*.py")
                   if path.parent != root and not (path.parent / "__init__.py").exists()})


def run_unported(trees: Trees, modules: Sequence[str], python: str, workdir: Path, jobs: int,
                 module_timeout: float) -> Dict[str, ModuleRun]:
    """Runs each module of the unported tree with another interpreter (TensorFlow 1.x).

    ``python -m pytest MODULE`` with no other argument on its command line (pytest's
    options come from PYTEST_ADDOPTS): TF1's flags parse ``sys.argv`` on first access,
    and pytest's own options there would fail them. On Python 2 the tree's namespace
    folders (``namespace_folders``) follow the trees on PYTHONPATH. The interpreter's
    folder leads PATH, as in its activated virtualenv (TF 1.14's TFLite converter runs
    its ``toco_from_protos`` script from there), and matplotlib draws with Agg, as a
    headless CI of its time was set up (matplotlib 2 took TkAgg and failed without
    $DISPLAY; 3.0 falls back to Agg by itself, as on the port's side).
    """
    outdir = workdir / "tf1"
    outdir.mkdir(parents=True, exist_ok=True)
    path = list(trees.source_path)
    if python_major(python) == 2:
        path += namespace_folders(trees.source_path)

    def one(module: str) -> None:
        stem = outdir / module.replace("/", "__")[:-3]
        env = {"PYTHONPATH": os.pathsep.join(str(p) for p in path),
               "PATH": os.pathsep.join([str(Path(shutil.which(python) or python).parent),
                                        os.environ.get("PATH", "")]),
               "MPLBACKEND": "Agg",
               "PYTEST_ADDOPTS": f"-q -p no:cacheprovider --tb=native -o junit_family=xunit2 "
                                 f"--junitxml={stem.with_suffix('.xml')}"}
        try:
            ran = _harness.run([python, "-m", "pytest", module], _harness.Deadline(module_timeout),
                               stem.with_suffix(".log"), env, cwd=trees.source)
            status = {"seconds": ran.seconds, "timed_out": False, "exit_code": ran.returncode}
        except TimeoutError:
            status = {"seconds": module_timeout, "timed_out": True, "exit_code": -9}
        stem.with_suffix(".json").write_text(json.dumps(dict(status, module=module)))

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, modules))
    return read_runs(outdir, trees.source)


def test_modules(peer: Peer, ported: Path, only: str = "", quick: bool = False) -> List[str]:
    """The peer's test modules in its ported tree (paths relative to it), sorted."""
    modules = (str(path.relative_to(ported)) for path in ported.glob(peer.tests))
    return sorted(module for module in modules if only in module
                  and not (quick and peer.slow and peer.slow.match(module)))


def run_suite(peer: Peer, args: argparse.Namespace, workdir: Path,
              deadline: _harness.Deadline) -> dict:
    """Ports, runs every mode, classes the failures; returns the JSON-ready result."""
    workdir.mkdir(parents=True, exist_ok=True)
    trees = fetch_sources(peer, workdir, args.cache, args.without, deadline)
    modules = test_modules(peer, trees.ported, args.only or "", args.quick)
    print(f"{len(modules)} test modules; {args.jobs} at a time, each within "
          f"{args.module_timeout:.0f} s", flush=True)
    scripts = [m for m in modules if runs_as_script(trees.ported / m)] if args.as_script else []
    if args.as_script and len(scripts) < len(modules):
        print(f"as scripts: {len(scripts)} ({len(modules) - len(scripts)} left out: no "
              "`if __name__ == '__main__':` block)", flush=True)
    runs, walls = {}, {}
    for mode, selection in (("pytest", modules), ("reference", None), ("script", scripts)):
        only_tests = {}
        if selection is None:  # the reference: every failing test again (or whole module)
            selection = [m for m, run in runs["pytest"].items() if run.failures]
            only_tests = {m: [f"{m}::{f.test}" for f in runs["pytest"][m].failures]
                          for m in selection
                          if all(f.test for f in runs["pytest"][m].failures)}
        if selection and deadline.left() <= 0:  # (a mode with nothing to run costs nothing)
            raise TimeoutError(f"the harness's {deadline.seconds:.0f} s passed")
        started = time.monotonic()
        runs[mode] = run_modules(trees, selection, mode, workdir, args.jobs,
                                 min(args.module_timeout, deadline.left()),
                                 only_tests) if selection else {}
        walls[mode] = time.monotonic() - started
        print(f"  {mode}: {len(selection)} modules ({walls[mode]:.0f} s)", flush=True)
    runs["tf1"] = {}
    if args.tf1_python:  # the evidence for "fails unported on TF1 too", or the whole suite
        started = time.monotonic()
        selection = list(modules) if args.tf1_all else sorted(
            {f.module for run in runs["reference"].values() for f in run.failures}
            | {m for m in modules if m not in runs["reference"] and runs["pytest"][m].failures})
        runs["tf1"] = run_unported(trees, selection, args.tf1_python, workdir, args.jobs,
                                   max(1.0, min(args.module_timeout, deadline.left())))
        walls["tf1"] = time.monotonic() - started
        print(f"  unported on {args.tf1_python}: {len(selection)} modules "
              f"({walls['tf1']:.0f} s)", flush=True)
    return judge(peer, runs, walls)


def judge(peer: Peer, runs: Dict[str, Dict[str, ModuleRun]], walls: Dict[str, float]) -> dict:
    """Classes the failures of every mode; the JSON-ready result."""
    failures = classify(peer, runs["pytest"], runs["reference"], runs["tf1"])
    script_failures = classify(peer, runs["script"], runs["reference"], runs["tf1"])
    tallies = {"pytest": tally(runs["pytest"], walls["pytest"], failures),
               "reference": tally(runs["reference"], walls["reference"]),
               "script": tally(runs["script"], walls["script"], script_failures)}
    if runs["tf1"]:
        tallies["tf1"] = tally(runs["tf1"], walls.get("tf1", 0.0))
    return {"tallies": tallies, "failures": failures, "script_failures": script_failures,
            "era": in_its_time(runs["tf1"], runs["pytest"], failures)}


@dataclass
class InItsTime:
    """The tests that pass unported in their time (``--tf1-all``), against the port.

    Attributes:
      passed: the tests that pass unported on TensorFlow 1.x (Python 2.7 or 3.7).
      kept: of them, those that pass after the port.
      lost: of them, each that fails after the port: test key -> the cause it is classed
        under (its first error when unclassified).
    """

    passed: int = 0
    kept: int = 0
    lost: Dict[str, str] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.kept / self.passed if self.passed else 0.0


def in_its_time(tf1: Dict[str, ModuleRun], ported: Dict[str, ModuleRun],
                failures: Sequence[Failure]) -> InItsTime:
    """Of the tests that pass in the unported run ``tf1``, those that pass ``ported``."""
    era = InItsTime()
    causes = {failure.key: failure.cause for failure in failures}
    for module, run in sorted(tf1.items()):
        after = ported.get(module)
        for test, outcome in sorted(run.outcomes.items()):
            if outcome != "passed":
                continue
            era.passed += 1
            if after is not None and after.outcomes.get(test) == "passed":
                era.kept += 1
            else:
                key = f"{module}::{test}"
                era.lost[key] = causes.get(key, causes.get(f"{module}::", "not run"))
    return era


def judge_kept(peer: Peer, workdir: Path) -> dict:
    """judge() over what a --keep run left in ``workdir`` (wall times are not kept)."""
    ported = workdir / peer.sources[0].ported
    runs = {mode: read_runs(workdir / mode, ported) if (workdir / mode).is_dir()
            else {} for mode in ("pytest", "reference", "script", "tf1")}
    return judge(peer, runs, {mode: 0.0 for mode in runs})


def print_result(peer: Peer, result: dict, verbose: bool) -> None:
    tallies: Dict[str, Tally] = result["tallies"]
    labels = {"pytest": "pytest (one process per module)",
              "reference": "  reference: failing tests again, TF1 semantics set",
              "script": "as its authors ran it: python X_test.py",
              "tf1": "  unported, on TensorFlow 1 (--tf1-python)"}
    print(f"\n=== {peer.title}'s own tests, ported, on this TensorFlow")
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
        print("\n".join(cause_tables(peer, failures)))
        if verbose:
            for failure in sorted(failures, key=lambda f: (f.cause, f.key)):
                print(f"    {failure.cause:22} {failure.key}  {failure.error[:100]}  "
                      f"[{failure.frame}] reference: {failure.reference}"
                      + (f" ({failure.reference_error[:80]} [{failure.reference_frame}])"
                         if failure.reference_error else ""))


def print_in_its_time(era: InItsTime, python: str) -> None:
    """The suite in its time against the port (``--tf1-all``)."""
    print(f"\n=== in its time: {era.passed} tests pass unported on {python}; after the port "
          f"{era.kept} of them pass ({100 * era.rate:.1f}%)")
    for key, cause in sorted(era.lost.items(), key=lambda item: (item[1], item[0])):
        print(f"    lost: {cause:22} {key}")


def verdict(result: dict) -> int:
    """0 when the target is met: TARGET_PASS_RATE of the non-skipped tests of the modules
    that start pass, and no failure (a module that does not start included) is the port's
    or unclassified; else 1."""
    pytest_tally: Tally = result["tallies"]["pytest"]
    blocking = Counter(f.owner for f in result["failures"] if f.owner in (PORT, UNCLASSIFIED))
    rates = (f"{100 * pytest_tally.started_rate:.1f}% of the non-skipped tests of the modules "
             f"that start pass ({100 * pytest_tally.rate:.1f}% of all)")
    if pytest_tally.started_rate >= TARGET_PASS_RATE and not blocking:
        print(f"OK: {rates}; no failure is the port's")
        return 0
    print(f"FAIL: {rates} (target {100 * TARGET_PASS_RATE:.0f}%); the port's failures: "
          f"{blocking[PORT]}, unclassified: {blocking[UNCLASSIFIED]}")
    return 1


def main(peer: Peer, argv: Sequence[str] = None, doc: str = __doc__) -> int:
    """The command line of a peer's suite (``doc``: its module's docstring, for --help)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(doc.splitlines()[2:]))
    parser.add_argument("--cache", type=Path, default=corpus.default_cache(),
                        help="where the downloads are kept (default: %(default)s)")
    parser.add_argument("--as-script", action="store_true",
                        help="also run each module as `python X_test.py`")
    optional = [s.distribution.name for s in peer.sources if s.optional]
    parser.add_argument("--without", action="append", default=[], choices=optional or None,
                        help="leave this source out (its users count as blocked)"
                        if optional else argparse.SUPPRESS)
    parser.add_argument("--only", help="run only the test modules whose path contains this")
    parser.add_argument("--quick", action="store_true",
                        # argparse formats help with %: a peer's "62% of the CPU" is text.
                        help=f"leave out {peer.slow_help.replace('%', '%%')}" if peer.slow
                        else argparse.SUPPRESS)
    parser.add_argument("--tf1-python", metavar="PYTHON",
                        help="an interpreter with TensorFlow 1.x (e.g. 1.15 on Python 3.7): "
                        "also run the failing modules unported with it, the evidence for "
                        "\"fails on TF1 too\"")
    parser.add_argument("--tf1-all", action="store_true",
                        help="with --tf1-python: run every module unported there (the suite "
                        "in its time) and table the tests that pass there against the port")
    parser.add_argument("--module-timeout", type=float, default=600.0,
                        help="seconds for one test module's process (default %(default)s)")
    parser.add_argument("--report", type=Path, help="write every classed failure as JSON")
    parser.add_argument("--judge", type=Path, metavar="DIR",
                        help=f"do not run: class what a --keep DIR run left in DIR/{peer.name}")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    _harness.add_run_options(parser, 2400.0, "test modules at a time")
    args = parser.parse_args(argv)
    if args.tf1_all and not args.tf1_python:
        parser.error("--tf1-all runs the suite with --tf1-python's interpreter: give it")
    deadline = _harness.Deadline(args.deadline)
    started = time.monotonic()
    if args.judge:
        result = judge_kept(peer, args.judge / peer.name)
    else:
        outcome = _harness.run_each(
            [peer.name], lambda name, workdir: run_suite(peer, args, workdir, deadline),
            args.keep, f"{peer.name}suite")
        if outcome is None:
            return 2
        (result,) = outcome
    print_result(peer, result, args.verbose)
    era = result["era"]
    if era.passed:
        print_in_its_time(era, args.tf1_python or "TensorFlow 1")
    if args.report:
        args.report.write_text(json.dumps(
            {"tallies": {m: asdict(t) for m, t in result["tallies"].items()},
             "failures": [asdict(f) for f in result["failures"]],
             "script_failures": [asdict(f) for f in result["script_failures"]],
             "in_its_time": dict(asdict(era), rate=era.rate)}, indent=1))
    print(f"({time.monotonic() - started:.0f} s in all)")
    return verdict(result)
