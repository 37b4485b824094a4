"""Issue 25's yardstick: a peer's own test suite, ported by slimport and run on TensorFlow 2.

    python tools/od_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script] [--no-slim]
                             [--only SUBSTRING] [--quick] [--report FILE.json] [-v]
    tox -e odsuite              (every module; tox's default run has it in the corpus env)
    tox -e odsuite-quick        (--quick: a faster check)

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
- a reference run: each failing test (or module) runs again with TF1's run-time semantics
  set before any test code (graph mode and v1 shapes, TF1's flag parsing, the
  pure-Python protobuf, tf.keras as Keras 2: tools/od_tf1_semantics.py). A test that
  passes there fails only because the port did not establish TF1's semantics: the
  port's. A test that fails there too is classed by its error there;
- the known signatures below (CAUSES): Python 2 leftovers the port must rewrite, a
  third-party package's change (NumPy, pandas, protobuf, TensorFlow itself), a package
  not installed or research/slim not available (blocked), the project's own bugs.
A failure no signature explains is listed as UNCLASSIFIED.

``--as-script`` also runs each module as its authors did, ``python X_test.py``
(absltest's XML report), and tables it beside pytest's; a module with no ``__main__``
block (a base class of other test modules) is not a script and is left out of that run.

Exit status 0 when at least 90% of the non-skipped tests pass under pytest and no
failure is the port's or unclassified; 1 otherwise; 2 when a step could not run
(download, port, deadline).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import _harness
import corpus
from slimport.verify import runner

TOOLS = Path(__file__).resolve().parent
OBJECT_DETECTION = next(c for c in corpus.CORPORA if c.name == "object_detection")
# research/slim as of 2022 (nets, deployment, datasets, preprocessing under slim/): the
# only distribution on PyPI that ships its modules as files. Its own install puts them
# under object_detection.* (clashing with 0.1.1), so the sdist is unpacked, not installed.
RESEARCH_SLIM = corpus.Corpus(
    "research_slim", "tf-models-research-object-detection==2.8.0.post1",
    "c701ea455646553a64c5f161641e8d5a94054b162b81961dcfff3dd619870004", [], [])
TARGET_PASS_RATE = 0.9
# object_detection/models/*feature_extractor_test.py build one research/slim network after
# another in graph mode (NASNet, PNASNet, Inception-ResNet-v2, ResNet-101 FPN, ...): 18
# modules, 62% of the suite's CPU time (1776 of 2881 s in one run here), and what they
# exercise of the port (compat.v1, the test-module switch, the Python 2 lists) the other
# 103 modules exercise too. --quick leaves them out for a faster check; tox's default run
# (the corpus env) and `tox -e odsuite` run them all (about 6.5 min wall on 2 cores).
NETWORK_BUILDERS = re.compile(r"^object_detection/models/.*feature_extractor_test\.py$")
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
    Cause("tf2-module-in-tf1-tree", PORT,
          r"softmax_v2_with_logit_scale|'method': 2,.*!= \{'method': 'bicubic'",
          "a module of the TF1 tree was read as TF2 (`import tensorflow as tf` kept): its "
          "objects differ from the compat.v1 ones its TF1 neighbours use (tf.nn.softmax is "
          "softmax_v2, tf.image.ResizeMethod.BICUBIC is 'bicubic', not 2): in a TF1 tree, "
          "port every module to compat.v1 (post_processing_builder.py, "
          "preprocessor_builder_test.py)"),
    # Python 2 leftovers with one certain Python 3 spelling: the py2 codemod's.
    Cause("py2-getargspec", PORT, r"module 'inspect' has no attribute 'getargspec'",
          "`inspect.getargspec(f).args` -> `inspect.getfullargspec(f).args` (removed_stdlib; "
          "args, varargs, defaults keep their positions; `keywords` is `varkw`)"),
    Cause("py2-float-repr", PORT, r"module 'json\.encoder' has no attribute 'FLOAT_REPR'",
          "`json.encoder.FLOAT_REPR` is gone in Python 3 (the C encoder never read it): "
          "read and set it guarded, e.g. `getattr(json.encoder, 'FLOAT_REPR', repr)`"),
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
    Cause("py2-lazy-zip", PORT, r"anchor_(strides|offsets) must be a list",
          "`zip(a, b)` stored and later measured with len() -> `list(zip(a, b))` "
          "(object_detection/builders/anchor_generator_builder.py:60,64; 2to3's fix_zip)"),
    Cause("py2-stringio", PROJECT, r"No module named '(c?StringIO|cPickle|urllib2)'",
          "Python 2's StringIO held str, which was bytes: io.StringIO (2to3's choice) or "
          "io.BytesIO is the data's to decide (here PIL writes PNG bytes into it); the "
          "rewrite reports the import with that fix (removed_stdlib), it cannot choose"),
    # Names the port leaves or cannot give.
    Cause("contrib-left", PORT, r"has no attribute 'contrib'",
          "tf.contrib names left in place as 'no home' (tf.contrib.lookup.HashTable now goes "
          "to slim_ext.contrib.lookup); `tf.contrib.opt.MovingAverageOptimizer` needs a "
          "slim_ext re-implementation"),
    Cause("estimator-missing", PORT, r"has no attribute 'estimator'",
          "TF >= 2.16 has no tf.estimator: the file needs `import slim_ext.estimator` "
          "(tensorflow-estimator 2.15 revived; slimport's slim_ext_import adds it)"),
    # Python 2 code with no mechanical Python 3 spelling (2to3 leaves it too): each fails
    # unported on TensorFlow 1.15 / Python 3.7 as well (od_suite --tf1-python, 2026-11-25).
    Cause("py2-str-as-bytes", PROJECT,
          r"has type <class 'str'>, but expected one of: \(<class 'bytes'>"
          r"|has type str, but expected one of: bytes|a bytes-like object is required, not 'str'"
          r"|expected bytes, str found|AssertionError: b'[^']*' != '|AssertionError: '[^']*' != b'"
          r"|Lists differ: \[b'|not found in array\(\[b'|codec can't decode byte"
          r"|Object of type bytes is not JSON serializable",
          "Python 2 code that uses str as bytes (proto bytes fields, binary files opened in "
          "text mode, byte strings compared with str): the project's on Python 3; no port "
          "can tell bytes from text, it can only report"),
    Cause("py2-mixed-comparison", PROJECT,
          r"'[<>]=?' not supported between instances of '\w+' and '\w+'",
          "Python 2 ordered values of any two types (`kernel_size > 1` with a (3, 3) "
          "tuple from the Keras application was True): the code's meaning for such values "
          "is undefined on Python 3, so only its authors can say what it should compare"),
    Cause("py2-int-division", PROJECT,
          r"Value passed to parameter 'shape' has DataType float32 not in list of allowed",
          "`a / b` meant integer division (Python 2, no `from __future__ import division`; "
          "object_detection/predictors/heads/mask_head.py:158): the project's on Python 3"),
    Cause("missing-test-data", PROJECT,
          r"NotFoundError: \S*/samples/configs/|No such file or directory: \S*test_images/",
          "the sdist does not ship the files the test reads (samples/configs, test_images)"),
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
    Cause("protobuf-bool-as-int", THIRD_PARTY,
          r"Field tensorflow\.Int64List\.value: Expected an int, got a boolean",
          "protobuf >= 4 (upb) refuses a bool in an int64 field, which protobuf 3 took as "
          "0/1: the test's COCO annotations carry 'iscrowd': False; the data's, no port can "
          "see it"),
    Cause("tf-removed", THIRD_PARTY, r"RemovedInTF2Error",
          "TensorFlow 2 removed it with no replacement (contrib.quantize graph rewriting, "
          "graph_transforms, contrib.tpu.RunConfig): the rewrite reports it; nothing to port"),
    Cause("research-slim-missing", BLOCKED, r"No module named '(nets|deployment)\b",
          "research/slim's nets/deployment are not on PyPI as a package: run without "
          "--no-slim (the sdist of tf-models-research-object-detection ships them)"),
    Cause("not-installed", THIRD_PARTY, r"No module named '",
          "a package this environment does not install"),
)
# Failures whose error alone says nothing (an assertion on values), each looked at and
# run unported on TensorFlow 1.15 / Python 3.7 (od_suite --tf1-python, 2026-11-25):
# (test id regex, first error regex, cause). Both must match.
KNOWN_TESTS = (
    (r"exporter_test\.py::ExportInferenceGraphTest::test_rewrite_nn_resize_op$",
     r"^AssertionError: False is not true",
     Cause("graph-rewrite-expectation", PROJECT, "",
           "asserts a graph after a resize-op rewrite that TF 1.15 does not produce either "
           "(written against an older TF 1.x)")),
    (r"::test_(has_)?fused_batchnorm\d*$", r"^AssertionError: False is not true",
     Cause("tf-op-renamed", PORT, "",
           "looks for op type 'FusedBatchNorm'; TF >= 1.14 builds FusedBatchNormV3 (fails "
           "the same on TF 1.15): op_type_names matches both names")),
    (r"oid_vrd_challenge_evaluation_utils_test\.py::",
     r"^TypeError: Cannot convert the argument `type_value`: dtype\(\[",
     Cause("tf-test-util-structured-dtype", THIRD_PARTY, "",
           "TF 2's TestCase.assertAllEqual asks tf.as_dtype of the arrays' dtype, which a "
           "NumPy structured dtype has none of; TF 1.15 compared them element by element "
           "(the test's VRD boxes are a structured array)")),
    (r"shape_utils_test\.py::UtilTest::test_pad_or_clip_nd_tensor$", r"^AssertionError:",
     Cause("tf-shape-inference", THIRD_PARTY, "",
           "expects a dimension TF 1.x could not infer (None); TF 2's shape inference reads "
           "the tf.constant(6) (passes on TF 1.15)")),
    (r"json_utils_test\.py::"
     r"|coco_tools_test\.py::CocoToolsTest::testExport(Detections|Groundtruth)ToCOCO$",
     r"^AssertionError",
     Cause("py3-json-float-repr", PROJECT, "",
           "asserts floats written with json.encoder.FLOAT_REPR's rounding; Python 3's json "
           "has no such hook (the rewrite guards the reads and reports the writes: "
           "removed_stdlib), so rounding needs the project's own code")),
    (r"object_detection_evaluation_test\.py::ObjectDetectionEvaluationTest::test_evaluate$",
     r"^AssertionError: False is not true",
     Cause("py2-numpy-int-divide", PROJECT, "",
           "expects CorLoc 0 for a class with no images: np.divide(0, 0) of ints was 0 on "
           "Python 2 and is nan on Python 3 (fails the same unported on TF 1.15 / Python 3.7)")),
    (r"dataset_builder_test\.py::ReadDatasetTest::test_(read_dataset|reduce_num_reader)$",
     r"^AssertionError:",
     Cause("file-read-order", PROJECT, "",
           "expects the records of several files in file-name order; the files are read in "
           "another order (fails the same unported on TF 1.15 / Python 3.7)")),
    (r"object_detection_evaluation_test\.py::\w+::test_returns_correct_metric_values",
     r"^KeyError: '\w+_PerformanceByCategory/",
     Cause("py2-unicode-encode", PROJECT, "",
           "metric names built from `unicode(name).encode('ascii')`: bytes on Python 3, "
           "so the keys read b'dog' (unported on TF 1.15 / Python 3.7: NameError unicode)")),
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
# research/slim's 2022 nets are written against tf_slim: on TF 1 the unported tree's
# tf.contrib.slim arg scopes do not reach them, so that run says nothing about such a test.
_TF1_REFERENCE_UNUSABLE = re.compile(r"is not decorated with @add_arg_scope")

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
    """The object detection trees, ported and not, and what goes on PYTHONPATH beside each."""

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
    for marker in ("site-packages/", "ported_slim/", "ported/", "lib/python3"):
        if marker in path:
            return ("" if marker == "ported/" else marker) + path.split(marker, 1)[1]
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
    """Adds the tests a progress file (tools/od_checks.py) saw end; returns the test that
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
                only_tests: Optional[Dict[str, List[str]]] = None) -> Dict[str, ModuleRun]:
    """Runs each test module in its own process (``mode``: pytest, reference or script).

    ``only_tests``: per module, the pytest node ids to run instead of the whole module.

    The processes are forked from one that imported TensorFlow and pytest once
    (tools/od_checks.py run by slimport verify's fork server), ``jobs`` at a time.

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
                 "--rootdir", str(trees.ported), "-o", "junit_family=xunit2"]
    if mode == "reference":
        env["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = "python"
        env["TF_USE_LEGACY_KERAS"] = "1"  # tf.keras is Keras 2, as in TF1
        arguments += ["-p", "od_tf1_semantics"]
    config = {"roots": [], "preload": ["tensorflow", "pytest"], "max_children": jobs,
              "tree_names": [], "tree_dirs": [], "checks": "od_checks"}  # ours, not verify's
    with tempfile.TemporaryDirectory(prefix="odsuite-worker-") as scratch:
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


def match_cause(error: str, key: str = "") -> Cause:
    """The first cause whose signature the error has, else the KNOWN_TESTS entry of the test."""
    for cause in CAUSES:
        if re.search(cause.error, error):
            return cause
    for test, known_error, cause in KNOWN_TESTS:
        if re.search(test, key) and re.search(known_error, error):
            return cause
    return NO_CAUSE


def classify(runs: Dict[str, ModuleRun], reference: Dict[str, ModuleRun],
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
                failures += [_classify_one(Failure(failure.module, test, failure.error,
                                                   failure.frame, failure.text), ref, old)
                             for test, outcome in ref.outcomes.items() if outcome != "skipped"]
            else:
                failures.append(_classify_one(failure, ref, old))
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


def _classify_one(failure: Failure, ref: Optional[ModuleRun],
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
    if _TF1_REFERENCE_UNUSABLE.search(failure.tf1_error):
        failure.tf1 = "not run"
    now = match_cause(failure.error, failure.key)
    cause, evidence = now, (failure.error, failure.frame)
    if failure.reference == "passed":
        cause = now if now.semantics else SEMANTICS_OTHER
    elif failure.reference_error and (now.semantics or now is NO_CAUSE):
        cause = match_cause(failure.reference_error, failure.key)
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

    @property
    def rate(self) -> float:
        run = self.passed + self.failed
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
    return counts


def suite_table(tallies: Dict[str, Tally]) -> str:
    rows = [[mode, t.modules, t.started, t.passed + t.failed, t.passed, t.failed, t.skipped,
             f"{100 * t.rate:.1f}%", f"{t.seconds:.0f}"] for mode, t in tallies.items()]
    return _harness.table(["run", "modules", "started", "tests (non-skipped)", "passed",
                           "failed", "skipped", "pass rate", "wall s"], rows)


def cause_tables(failures: Sequence[Failure]) -> List[str]:
    """Two views of the failures: what each fails on today (its first error), and who owns
    it (the cause that decides, on the reference run's evidence); then what each cause needs.
    """
    causes = {c.name: c for c in (*CAUSES, *(c for _, _, c in KNOWN_TESTS), SEMANTICS_OTHER,
                                  FAILS_ON_TF1, NO_CAUSE)}

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


def fetch_sources(workdir: Path, cache: Path, with_slim: bool,
                  deadline: _harness.Deadline) -> Trees:
    """Downloads (cached), unpacks and ports object detection, and research/slim beside it.

    Raises:
      RuntimeError: a download or a port failed.
    """
    source = corpus.unpack(corpus.fetch(OBJECT_DETECTION, cache, deadline), workdir / "source")
    trees = Trees(workdir / "ported", [workdir / "ported"], source, [source])
    ports = [(source, trees.ported)]
    if with_slim:
        slim_sdist = corpus.unpack(corpus.fetch(RESEARCH_SLIM, cache, deadline),
                                   workdir / "slim_source")
        ports.append((slim_sdist / "slim", workdir / "ported_slim"))
        trees.path.append(workdir / "ported_slim")
        trees.source_path.append(slim_sdist / "slim")
    for tree, out in ports:
        log = workdir / f"rewrite_{out.name}.log"
        ran = _harness.rewrite(tree, out, workdir / f"{out.name}.json", deadline, log=log)
        if ran.returncode not in (0, 2):  # 2: some files did not parse (Python 2), reported
            raise RuntimeError(f"slimport rewrite {tree} exited {ran.returncode}: "
                               f"{log.read_text()[-2000:]}")
        print(f"slimport rewrite {tree.name} --out {out.name}: "
              f"{log.read_text().strip().splitlines()[-1]} ({ran.seconds:.1f} s)", flush=True)
    return trees


def run_unported(trees: Trees, modules: Sequence[str], python: str, workdir: Path, jobs: int,
                 module_timeout: float) -> Dict[str, ModuleRun]:
    """Runs each module of the unported tree with another interpreter (TensorFlow 1.x).

    ``python -m pytest MODULE`` with no other argument on its command line (pytest's
    options come from PYTEST_ADDOPTS): TF1's flags parse ``sys.argv`` on first access,
    and pytest's own options there would fail them.
    """
    outdir = workdir / "tf1"
    outdir.mkdir(parents=True, exist_ok=True)

    def one(module: str) -> None:
        stem = outdir / module.replace("/", "__")[:-3]
        env = {"PYTHONPATH": os.pathsep.join(str(p) for p in trees.source_path),
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


def run_suite(args: argparse.Namespace, workdir: Path, deadline: _harness.Deadline) -> dict:
    """Ports, runs every mode, classes the failures; returns the JSON-ready result."""
    workdir.mkdir(parents=True, exist_ok=True)
    trees = fetch_sources(workdir, args.cache, not args.no_slim, deadline)
    modules = sorted(str(p.relative_to(trees.ported))
                     for p in (trees.ported / "object_detection").rglob("*_test.py")
                     if (not args.only or args.only in str(p))
                     and not (args.quick and NETWORK_BUILDERS.match(
                         str(p.relative_to(trees.ported)))))
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
    if args.tf1_python:  # the evidence for "fails unported on TF1 too"
        started = time.monotonic()
        selection = sorted({f.module for run in runs["reference"].values() for f in run.failures}
                           | {m for m in modules if m not in runs["reference"]
                              and runs["pytest"][m].failures})
        runs["tf1"] = run_unported(trees, selection, args.tf1_python, workdir, args.jobs,
                                   max(1.0, min(args.module_timeout, deadline.left())))
        walls["tf1"] = time.monotonic() - started
        print(f"  unported on {args.tf1_python}: {len(selection)} modules "
              f"({walls['tf1']:.0f} s)", flush=True)
    return judge(runs, walls)


def judge(runs: Dict[str, Dict[str, ModuleRun]], walls: Dict[str, float]) -> dict:
    """Classes the failures of every mode; the JSON-ready result."""
    failures = classify(runs["pytest"], runs["reference"], runs["tf1"])
    script_failures = classify(runs["script"], runs["reference"], runs["tf1"])
    tallies = {"pytest": tally(runs["pytest"], walls["pytest"], failures),
               "reference": tally(runs["reference"], walls["reference"]),
               "script": tally(runs["script"], walls["script"], script_failures)}
    if runs["tf1"]:
        tallies["tf1"] = tally(runs["tf1"], walls.get("tf1", 0.0))
    return {"tallies": tallies, "failures": failures, "script_failures": script_failures}


def judge_kept(workdir: Path) -> dict:
    """judge() over what a --keep run left in ``workdir`` (wall times are not kept)."""
    runs = {mode: read_runs(workdir / mode, workdir / "ported") if (workdir / mode).is_dir()
            else {} for mode in ("pytest", "reference", "script", "tf1")}
    return judge(runs, {mode: 0.0 for mode in runs})


def print_result(result: dict, verbose: bool) -> None:
    tallies: Dict[str, Tally] = result["tallies"]
    labels = {"pytest": "pytest (one process per module)",
              "reference": "  reference: failing tests again, TF1 semantics set",
              "script": "as its authors ran it: python X_test.py",
              "tf1": "  unported, on TensorFlow 1 (--tf1-python)"}
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
        print("\n".join(cause_tables(failures)))
        if verbose:
            for failure in sorted(failures, key=lambda f: (f.cause, f.key)):
                print(f"    {failure.cause:22} {failure.key}  {failure.error[:100]}  "
                      f"[{failure.frame}] reference: {failure.reference}"
                      + (f" ({failure.reference_error[:80]} [{failure.reference_frame}])"
                         if failure.reference_error else ""))


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
    parser.add_argument("--quick", action="store_true",
                        help="leave out the 18 network-building feature extractor test "
                        "modules (62%% of the time; see NETWORK_BUILDERS)")
    parser.add_argument("--tf1-python", metavar="PYTHON",
                        help="an interpreter with TensorFlow 1.x (e.g. 1.15 on Python 3.7): "
                        "also run the failing modules unported with it, the evidence for "
                        "\"fails on TF1 too\"")
    parser.add_argument("--module-timeout", type=float, default=600.0,
                        help="seconds for one test module's process (default %(default)s)")
    parser.add_argument("--report", type=Path, help="write every classed failure as JSON")
    parser.add_argument("--judge", type=Path, metavar="DIR",
                        help="do not run: class what a --keep DIR run left in DIR/od")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failure")
    _harness.add_run_options(parser, 2400.0, "test modules at a time")
    args = parser.parse_args(argv)
    deadline = _harness.Deadline(args.deadline)
    started = time.monotonic()
    if args.judge:
        result = judge_kept(args.judge / "od")
    else:
        outcome = _harness.run_each(["od"],
                                    lambda name, workdir: run_suite(args, workdir, deadline),
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
