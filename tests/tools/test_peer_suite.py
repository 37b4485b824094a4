"""The decisions inside tools/peer_suite.py: first errors, junit reading, who owns a failure.

The harness itself runs in ``tox -e odsuite`` and ``tox -e peersuite`` (they download);
these pin the parts that would silently skew its tables: reading pytest's and absltest's
reports, picking the first error and its innermost frame, and classing on evidence (the
reference run), with object detection's signatures (tools/od_suite.py) as the peer's own.
"""
import sys
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import _harness  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import od_suite  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import peer_suite  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position

NATIVE = textwrap.dedent("""\
    Traceback (most recent call last):
      File "/w/od/ported/object_detection/core/box_list_ops_test.py", line 383, in test_x
        result = self.execute(graph_fn, [])
      File "/w/od/ported/object_detection/utils/test_case.py", line 100, in execute
        if FLAGS.tpu_test:
      File "/venv/lib/python3.11/site-packages/absl/flags/_flagvalues.py", line 544, in g
        raise _exceptions.UnparsedFlagAccessError(
    absl.flags._exceptions.UnparsedFlagAccessError: Trying to access flag --tpu_test before
    """)
CHAINED = textwrap.dedent("""\
    Traceback (most recent call last):
      File "/w/od/ported/object_detection/a.py", line 3, in f
        return d.iteritems()
    AttributeError: 'dict' object has no attribute 'iteritems'

    During handling of the above exception, another exception occurred:

    Traceback (most recent call last):
      File "/w/od/ported/object_detection/a_test.py", line 9, in test_f
    ValueError: later
    """)
COLLECTION = textwrap.dedent("""\
    ImportError while importing test module '/w/od/ported/object_detection/x_test.py'.
    object_detection/x_test.py:20: in <module>
        from object_detection.protos import a_pb2
    object_detection/protos/a_pb2.py:33: in <module>
        _descriptor.EnumValueDescriptor(
    E   TypeError: Descriptors cannot be created directly.
    """)


@pytest.mark.parametrize("text, error, frame", [
    (NATIVE, "absl.flags._exceptions.UnparsedFlagAccessError: Trying to access flag "
     "--tpu_test before", "site-packages/absl/flags/_flagvalues.py:544"),
    # The first error of a chain is the cause; its frame, not the last one's.
    (CHAINED, "AttributeError: 'dict' object has no attribute 'iteritems'",
     "object_detection/a.py:3"),
    (COLLECTION, "TypeError: Descriptors cannot be created directly.",
     "object_detection/protos/a_pb2.py:33"),
    ("no traceback at all\n", "no traceback at all", "?"),
    # An assertion's message goes on over the next lines, up to the blank line.
    ('  File "/w/od/ported/object_detection/b_test.py", line 94, in test_b\n'
     "AssertionError: \n- softmax_v2_with_logit_scale\n+ softmax_with_logit_scale\n\nmessage",
     "AssertionError: - softmax_v2_with_logit_scale + softmax_with_logit_scale",
     "object_detection/b_test.py:94"),
])
def test_first_error_and_innermost_frame(text, error, frame):
    assert peer_suite.first_error(text) == (error, frame)


def test_junit_cases_of_pytest_and_absltest(tmp_path):
    report = tmp_path / "junit.xml"
    report.write_text(textwrap.dedent("""\
        <testsuites><testsuite>
          <testcase classname="object_detection.a_test.ATest" name="test_ok"/>
          <testcase classname="object_detection.a_test.ATest" name="test_bad">
            <failure message="m">trace</failure></testcase>
          <testcase classname="" name="object_detection.b_test">
            <error message="collection failure">boom</error></testcase>
          <testcase classname="__main__.ATest" name="test_session" status="notrun"
                    result="suppressed"/>
          <testcase classname="__main__.ATest" name="test_skip">
            <skipped message="no GPU"/></testcase>
        </testsuite></testsuites>
        """))
    assert [(c.classname, c.name, c.outcome, c.text) for c in _harness.junit_cases(report)] == [
        ("object_detection.a_test.ATest", "test_ok", "passed", ""),
        ("object_detection.a_test.ATest", "test_bad", "failed", "trace\n\nm"),
        ("", "object_detection.b_test", "failed", "boom\n\ncollection failure"),
        ("__main__.ATest", "test_session", "skipped", ""),
        ("__main__.ATest", "test_skip", "skipped", ""),
    ]


def _run(module, outcomes, failures=(), started=True):
    return peer_suite.ModuleRun(module, 1.0, dict(outcomes), list(failures), started)


def _failure(test, error, module="m_test.py", tests=1):
    return peer_suite.Failure(module, test, error, "m_test.py:1", tests=tests)


GRAPH = "AttributeError: 'NoneType' object has no attribute 'run'"


def test_a_failure_that_passes_with_tf1_semantics_is_the_ports():
    runs = {"m_test.py": _run("m_test.py", {"T::a": "failed", "T::b": "failed"}, [
        _failure("T::a", GRAPH), _failure("T::b", "AssertionError: [2, 4] != [None, 4]")])}
    reference = {"m_test.py": _run("m_test.py", {"T::a": "passed", "T::b": "passed"})}
    classed = {f.test: (f.cause, f.owner)
               for f in peer_suite.classify(od_suite.PEER, runs, reference)}
    # The signature names the construct; an unknown error that TF1 semantics fix is still
    # the port's (it did not establish them).
    assert classed == {"T::a": ("graph-mode", peer_suite.PORT),
                       "T::b": ("tf1-semantics-other", peer_suite.PORT)}


def test_what_fails_with_tf1_semantics_too_is_classed_by_that_error():
    removed = ("slim_ext.removed.RemovedInTF2Error: tf.contrib.quantize.create_eval_graph is "
               "gone from TensorFlow 2 and has no replacement there")
    runs = {"m_test.py": _run("m_test.py", {"T::a": "failed", "T::b": "failed",
                                            "T::c": "failed"}, [
        _failure("T::a", GRAPH), _failure("T::b", "ValueError: unexplained"),
        _failure("T::c", "AttributeError: module 'inspect' has no attribute 'getargspec'")])}
    reference = {"m_test.py": _run("m_test.py", {"T::a": "failed", "T::b": "failed",
                                                 "T::c": "failed"}, [
        _failure("T::a", removed), _failure("T::b", "ValueError: unexplained"),
        _failure("T::c", "AttributeError: module 'inspect' has no attribute 'getargspec'")])}
    classed = {f.test: f for f in peer_suite.classify(od_suite.PEER, runs, reference)}
    assert (classed["T::a"].cause, classed["T::a"].owner) == ("tf-removed",
                                                              peer_suite.THIRD_PARTY)
    assert classed["T::a"].now == "graph-mode"  # what it fails on first, today
    assert classed["T::b"].owner == peer_suite.UNCLASSIFIED
    assert (classed["T::c"].cause, classed["T::c"].owner) == ("py2-getargspec", peer_suite.PORT)


def test_a_module_that_did_not_start_counts_the_tests_the_reference_found():
    stale = "TypeError: Descriptors cannot be created directly."
    runs = {"m_test.py": _run("m_test.py", {}, [_failure("", stale, tests=9)], started=False),
            "n_test.py": _run("n_test.py", {}, [_failure("", "ModuleNotFoundError: No module "
                                                     "named 'nets'", "n_test.py", tests=4)],
                              started=False)}
    reference = {
        "m_test.py": _run("m_test.py", {"T::a": "passed", "T::b": "failed", "T::s": "skipped"},
                          [_failure("T::b", "AttributeError: 'dict' object has no attribute "
                                    "'iteritems'")]),
        "n_test.py": _run("n_test.py", {}, [_failure("", "ModuleNotFoundError: No module "
                                                     "named 'nets'", "n_test.py", tests=4)],
                          started=False)}
    classed = peer_suite.classify(od_suite.PEER, runs, reference)
    assert [(f.module, f.test, f.cause, f.tests) for f in classed] == [
        ("m_test.py", "T::a", "stale-pb2", 1),
        ("m_test.py", "T::b", "py2-dict-iter", 1),
        ("n_test.py", "", "research-slim-missing", 4)]
    assert peer_suite.tally(runs, 0.0, classed).failed == 6


@pytest.mark.parametrize("source, is_script", [
    ("import tf\nclass T(tf.test.TestCase):\n  def test_a(self): pass\n"
     "if __name__ == '__main__':\n  tf.test.main()\n", True),
    ('if "__main__" == __name__:\n  main()\n', True),
    ("if __name__ == 'x':\n  main()\n", False),
    ("class SsdFeatureExtractorTestBase(object):\n  def _check(self): pass\n", False),
    ("def f(:\n", True),  # does not parse: run it, its failure is the outcome
])
def test_only_a_module_with_a_main_block_runs_as_a_script(tmp_path, source, is_script):
    module = tmp_path / "m_test.py"
    module.write_text(source)
    assert peer_suite.runs_as_script(module) is is_script


def test_static_test_count(tmp_path):
    module = tmp_path / "x_test.py"
    module.write_text("class A:\n  def test_a(self): pass\n  def helper(self): pass\n"
                      "  def test_b(self): pass\nclass B:\n  def test_c(self): pass\n")
    assert peer_suite.static_test_count(module) == 3
    module.write_text("print 'python 2'\n")
    assert peer_suite.static_test_count(module) == 1


def test_a_module_that_died_keeps_the_outcomes_its_progress_file_recorded(tmp_path):
    import json  # pylint: disable=g-import-not-at-top
    source = tmp_path / "m_test.py"
    source.write_text("class T:\n  def test_a(self): pass\n  def test_b(self): pass\n"
                      "  def test_c(self): pass\n")
    records = [{"event": "start", "test": "m_test.py::T::test_a"},
               {"event": "passed", "test": "m_test.py::T::test_a", "text": ""},
               {"event": "start", "test": "m_test.py::T::test_b"},
               {"event": "failed", "test": "m_test.py::T::test_b", "text": CHAINED},
               {"event": "start", "test": "m_test.py::T::test_c"}]
    (tmp_path / "m.progress").write_text("".join(json.dumps(r) + "\n" for r in records))
    run = peer_suite._read_run("m_test.py", tmp_path / "m.xml", "......", False, 9.0, source, -11)
    assert run.outcomes == {"T::test_a": "passed", "T::test_b": "failed",
                            "T::test_c": "failed"}
    assert [(f.test, f.error) for f in run.failures] == [
        ("T::test_b", "AttributeError: 'dict' object has no attribute 'iteritems'"),
        ("T::test_c", "exited -11 without a report")]
    # Nothing recorded at all: the whole module fails, with every test its source defines.
    (tmp_path / "m.progress").unlink()
    timed_out = peer_suite._read_run("m_test.py", tmp_path / "m.xml", "", True, 600.0, source, -9)
    assert [(f.test, f.error, f.tests) for f in timed_out.failures] == [
        ("", "timed out: no report after 600 s", 3)]


@pytest.mark.parametrize("error, cause, owner", [
    # Ported since (slim_ext.py2_stringio): the port's if it comes back.
    ("ModuleNotFoundError: No module named 'StringIO'", "py2-stringio", peer_suite.PORT),
    ("ModuleNotFoundError: No module named 'cPickle'", "py2-modules", peer_suite.PROJECT),
    ("AssertionError: ['1'] != array([b'1'], dtype=object)", "py2-str-as-bytes",
     peer_suite.PROJECT),
    # A library change the leftover codemods port: the port's if it comes back.
    ("AttributeError: 'FreeTypeFont' object has no attribute 'getsize'", "pillow-getsize",
     peer_suite.PORT),
    ("TypeError: Field tensorflow.Int64List.value: Expected an int, got a boolean.",
     "protobuf-bool-as-int", peer_suite.PORT),
    ("slim_ext.removed.RemovedInTF2Error: tf.contrib.quantize.create_eval_graph is gone",
     "tf-removed", peer_suite.THIRD_PARTY),
    ("AttributeError: module 'inspect' has no attribute 'getargspec'", "py2-getargspec",
     peer_suite.PORT),
])
def test_causes_and_their_owners(error, cause, owner):
    found = od_suite.PEER.match_cause(error)
    assert (found.name, found.owner) == (cause, owner)


def test_python_2_code_with_no_python_3_spelling_is_the_projects():
    mixed = od_suite.PEER.match_cause(
        "TypeError: '>' not supported between instances of 'tuple' and 'int'")
    rounding = od_suite.PEER.match_cause(
        "AssertionError: - 1.0 + 1.00", "object_detection/utils/json_utils_test.py::"
        "JsonUtilsTest::testDumpZeroPrecision")
    assert (mixed.name, mixed.owner) == ("py2-mixed-comparison", peer_suite.PROJECT)
    assert (rounding.name, rounding.owner) == ("py2-json-float-repr", peer_suite.PORT)
    # The same assertion elsewhere says nothing.
    assert od_suite.PEER.match_cause("AssertionError: - 1.0 + 1.00", "x_test.py::T::t").owner \
        == peer_suite.UNCLASSIFIED


def test_a_failure_looked_at_one_by_one_wins_over_a_signature():
    error = "AssertionError: b'6267935827440757009' != '2798129067578209328'"
    test = ("object_detection/inputs_test.py::InputsTest::"
            "test_output_is_integer_in_replace_empty_string_with_random_number")
    found = od_suite.PEER.match_cause(error, test)
    assert (found.name, found.owner) == ("tf-random-stream", peer_suite.THIRD_PARTY)
    # The same error of another test has the signature's cause.
    assert od_suite.PEER.match_cause(error, "x_test.py::T::t").name == "py2-str-as-bytes"


@pytest.mark.parametrize("module, builds_networks", [
    ("object_detection/models/faster_rcnn_nas_feature_extractor_test.py", True),
    ("object_detection/models/ssd_mobilenet_v1_feature_extractor_test.py", True),
    ("object_detection/models/ssd_feature_extractor_test.py", True),  # their shared checks
    ("object_detection/models/feature_map_generators_test.py", False),
    ("object_detection/meta_architectures/ssd_meta_arch_test.py", False),
])
def test_quick_leaves_out_only_the_network_building_modules(module, builds_networks):
    assert bool(od_suite.NETWORK_BUILDERS.match(module)) == builds_networks


# -- the peers of issue 30 ---------------------------------------------------------------

import corpus  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import magenta_suite  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import tensorlayer_suite  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import slim_suite  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def test_the_rate_that_decides_leaves_out_the_modules_that_did_not_start():
    runs = {"a_test.py": _run("a_test.py", {"T::a": "passed", "T::b": "failed"},
                              [_failure("T::b", "AssertionError", "a_test.py")]),
            "b_test.py": _run("b_test.py", {}, [_failure("", "ModuleNotFoundError: No module "
                                                     "named 'tensor2tensor'", "b_test.py",
                                                     tests=8)], started=False)}
    counts = peer_suite.tally(runs, 0.0, peer_suite.classify(magenta_suite.PEER, runs, {}))
    assert (counts.passed, counts.failed, counts.failed_unstarted) == (1, 9, 8)
    assert counts.rate == 0.1 and counts.started_rate == 0.5


@pytest.mark.parametrize("test, error", [
    ("MidiHubTest::testStartPlayback_Updates", "AssertionError: 17.95 != 17.94 within 0.01 delta"),
    # time.time() - wait_start against 1.2 s, with the machine loaded (issue 40's run).
    ("MidiHubTest::testWaitForEvent_Signal",
     "AssertionError: 1.3217313289642334 != 1.2 within 0.01 delta (0.1217 difference)"),
    ("MidiHubTest::testMetronome", "AssertionError: 7 != 6"),
])
def test_a_wall_clock_test_stays_the_projects_when_the_reference_passed_it(test, error):
    # Load decides; the reference run passing it is no evidence of missing TF1 semantics.
    module = "magenta/interfaces/midi/midi_hub_test.py"
    runs = {module: _run(module, {test: "failed"}, [_failure(test, error, module)])}
    reference = {module: _run(module, {test: "passed"})}
    (classed,) = peer_suite.classify(magenta_suite.PEER, runs, reference)
    assert (classed.cause, classed.owner) == ("wall-clock", peer_suite.PROJECT)


@pytest.mark.parametrize("peer, error, cause, owner", [
    # A peer's own signature comes before the common not-installed one.
    (magenta_suite.PEER, "ModuleNotFoundError: No module named 'tensor2tensor'",
     "tensor2tensor", peer_suite.BLOCKED),
    (tensorlayer_suite.PEER, "ImportError: cannot import name 'getargspec' from 'inspect'",
     "hyperdash-py311", peer_suite.BLOCKED),
    (magenta_suite.PEER, "ModuleNotFoundError: No module named 'tensorflow.contrib'",
     "contrib-left", peer_suite.PORT),
    (magenta_suite.PEER, "FileNotFoundError: [Errno 2] No such file or directory: "
     "'/w/ported/magenta/music/../testdata/example.mid'", "missing-test-data",
     peer_suite.PROJECT),
    (tensorlayer_suite.PEER, "TypeError: Dimension value must be integer or None or have an "
     "__index__ method, got value '16.0' with type", "tf-float-dimension",
     peer_suite.PORT),  # slim_ext.dimension gives TF 1.15's rule back
    # export_inference_graph_test's imagenet split downloads label names from GitHub.
    (slim_suite.PEER, "AssertionError: Devices /job:worker/task:0/device:GPU:0 and "
     "/job:worker/device:GPU:0 are not equal. None:", "replica-task", peer_suite.PORT),
    (slim_suite.PEER, "socket.gaierror: [Errno -2] Name or service not known",
     "no-network", peer_suite.BLOCKED),
    (slim_suite.PEER, "urllib.error.URLError: <urlopen error [Errno -3] Temporary failure "
     "in name resolution>", "no-network", peer_suite.BLOCKED),
])
def test_peer_causes(peer, error, cause, owner):
    found = peer.match_cause(error)
    assert (found.name, found.owner) == (cause, owner)


def test_wheels_download_by_name_and_unpack_where_asked(tmp_path):
    wheel = corpus.Corpus("x", "tensor-layer==1.2", "0" * 64, wheel="py3-none-any")
    assert wheel.archive == "tensor_layer-1.2-py3-none-any.whl"
    assert corpus.Corpus("x", "facenet==1.0.5", "0" * 64).archive == "facenet-1.0.5.tar.gz"
    archive = tmp_path / wheel.archive
    import zipfile  # pylint: disable=g-import-not-at-top
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("tests/test_a.py", "")
    assert corpus.unpack(archive, tmp_path / "out") == tmp_path / "out"
    assert (tmp_path / "out" / "tests" / "test_a.py").exists()


def test_each_peer_finds_its_test_modules(tmp_path):
    for path in ("tests/test_layers.py", "tests/utils/helper.py", "tensorlayer/layers.py",
                 "magenta/music/midi_io_test.py", "magenta/music/midi_io.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert peer_suite.test_modules(tensorlayer_suite.PEER, tmp_path) == ["tests/test_layers.py"]
    assert peer_suite.test_modules(magenta_suite.PEER, tmp_path) == [
        "magenta/music/midi_io_test.py"]


@pytest.mark.parametrize("suite", ["od_suite", "tensorlayer_suite", "magenta_suite"])
def test_each_suite_explains_its_options(suite, capsys):
  # od_suite's --quick help says "62% of the suite's CPU time": argparse read the % as
  # a format and --help crashed with a TypeError.
  module = sys.modules[suite]
  with pytest.raises(SystemExit) as stopped:
    peer_suite.main(module.PEER, ["--help"], doc=module.__doc__)
  assert stopped.value.code == 0
  shown = capsys.readouterr().out
  assert "--only" in shown and "--tf1-python" in shown


def test_in_its_time_counts_the_tests_that_pass_unported_and_those_kept():
    tf1 = {"a_test.py": _run("a_test.py", {"T::test_1": "passed", "T::test_2": "passed",
                                           "T::test_3": "failed", "T::test_4": "skipped"}),
           "b_test.py": _run("b_test.py", {"U::test_1": "passed"})}
    ported = {"a_test.py": _run("a_test.py", {"T::test_1": "passed", "T::test_2": "failed",
                                              "T::test_3": "passed"}),
              "b_test.py": _run("b_test.py", {}, started=False)}
    failures = [peer_suite.Failure("a_test.py", "T::test_2", "E", "f", cause="py2-dict-views"),
                peer_suite.Failure("b_test.py", "", "E", "f", cause="not-installed")]
    era = peer_suite.in_its_time(tf1, ported, failures)
    assert (era.passed, era.kept) == (3, 1)
    assert era.lost == {"a_test.py::T::test_2": "py2-dict-views",
                        "b_test.py::U::test_1": "not-installed"}
    assert era.rate == pytest.approx(1 / 3)


def test_python_2_gets_a_path_entry_for_each_namespace_folder(tmp_path):
    for path in ("pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/x.py", "nets/a.py",
                 "nets/deep/b.py", "top.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert peer_suite.namespace_folders([tmp_path]) == [tmp_path / "nets", tmp_path / "nets/deep"]


def test_the_unported_run_is_as_in_its_activated_virtualenv_headless(tmp_path, monkeypatch):
    # TF 1.14's TFLite converter runs the venv's toco_from_protos script (PATH);
    # matplotlib 2 took TkAgg and failed without $DISPLAY (MPLBACKEND).
    seen = {}

    def run(command, deadline, log, env, cwd):
        seen.update(env)
        log.write_text("")
        return peer_suite._harness.Ran(0, 0.1)

    monkeypatch.setattr(peer_suite, "python_major", lambda python: 2)
    monkeypatch.setattr(peer_suite._harness, "run", run)
    monkeypatch.setattr(peer_suite, "read_runs", lambda outdir, ported: {})
    venv = tmp_path / "py27" / "bin"
    venv.mkdir(parents=True)
    trees = peer_suite.Trees(tmp_path / "ported", [], tmp_path / "src", [tmp_path / "src"])
    peer_suite.run_unported(trees, ["a_test.py"], str(venv / "python"), tmp_path, 1, 60.0)
    assert seen["PATH"].split(":")[0] == str(venv)
    assert seen["MPLBACKEND"] == "Agg"


@pytest.mark.parametrize("module, big", [
    ("nets/nasnet/nasnet_test.py", True),
    ("nets/nasnet/nasnet_utils_test.py", False),
    ("nets/inception_resnet_v2_test.py", True),
    ("nets/resnet_v1_test.py", True),
    ("nets/alexnet_test.py", False),
    ("deployment/model_deploy_test.py", False),
    ("export_inference_graph_test.py", False),
])
def test_research_slims_quick_run_leaves_out_the_biggest_networks(module, big):
    assert bool(slim_suite.BIG_NETWORKS.match(module)) == big
