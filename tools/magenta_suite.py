"""Issue 30's yardstick: magenta 1.1.7's own test suite, ported and run on TensorFlow 2.

    python tools/magenta_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script]
                                  [--only SUBSTRING] [--report FILE.json] [-v]
    tox -e peersuite            (with tools/tensorlayer_suite.py)
    tox -e era                  (also unported, in its time: --tf1-python of
                                 tools/tf1_env.py --peer magenta, --tf1-all)

magenta 1.1.7 (PyPI's wheel; it has no sdist of that version) is Google's TF1 music
project: ``tf.contrib.training.HParams``, ``tf.contrib.rnn`` / ``cudnn_rnn`` cells,
``tf.contrib.seq2seq``, TensorFlow Probability and TF-GAN. Its wheel ships 69
``*_test.py`` modules; three of them (score2perf's) import tensor2tensor 1.14, which is
downloaded and ported beside it, as a user ports a TF1 dependency (``--without
tensor2tensor`` leaves it out). The harness (download, port, one process per module, the
reference run, the classes of failure) is tools/peer_suite.py's; this module holds what
is magenta's: its source, and the dependencies that do not install here, with the
evidence.
"""
from __future__ import annotations

import sys

import corpus
import peer_suite
from peer_suite import BLOCKED, PORT, PROJECT, THIRD_PARTY, Cause, Peer, Source

MAGENTA = corpus.Corpus(
    "magenta", "magenta==1.1.7",
    "abf633c7e462e26696f60c54718b1b9316b21de912d18a7a6e699591efaa65a2",
    wheel="py2.py3-none-any")
# score2perf builds on tensor2tensor 1.14, what magenta's time ran on TF 1.14 (the magenta
# TF1 env's pin), a TF1 library with no TF 2 release of that API: it is ported as a user
# ports such a dependency (docs/dependencies.md), with the libraries importing its models
# takes on the way (mesh-tensorflow and gin-config, TF1-era too; gym for its RL models),
# at the versions of the TF1 env.
WHEEL = "py2.py3-none-any"
TENSOR2TENSOR = corpus.Corpus(
    "tensor2tensor", "tensor2tensor==1.14.0",
    "167c2be369573dcd5d2f32b1f7abda2a09d51e3ed0b431ee9cb60a9ed4f33c27", wheel=WHEEL)
MESH_TENSORFLOW = corpus.Corpus(
    "mesh-tensorflow", "mesh-tensorflow==0.0.5",
    "a2e338f3911b6f30fcd9c3e065c929a060ff02e1977dff0bde820904110c3d72", wheel=WHEEL)
GIN_CONFIG = corpus.Corpus(
    "gin-config", "gin-config==0.1.4",
    "5667ee905d1172c9b31d743f343eb8a4a5ccf3d007d7034e2557e8aad5d3930f", wheel=WHEEL)
GYM = corpus.Corpus(
    "gym", "gym==0.12.5", "027422f59b662748eae3420b804e35bbf953f62d40cd96d2de9f842c08de822e")
DEPENDENCIES = [Source(TENSOR2TENSOR, ported="ported_tensor2tensor", optional=True),
                Source(MESH_TENSORFLOW, ported="ported_mesh_tensorflow", optional=True),
                Source(GIN_CONFIG, ported="ported_gin_config", optional=True),
                Source(GYM, ported="ported_gym", optional=True)]
# magenta's own signatures (tried before peer_suite.CAUSES).
CAUSES = (
    Cause("missing-test-data", PROJECT,
          r"No such file or directory: \S*testdata/|NotFoundError: \S*testdata/",
          "the test reads magenta/testdata, which no magenta distribution on PyPI ships "
          "(1.1.7 is a wheel without it; 2.1.x's sdist has none either)"),
    Cause("tensor2tensor", BLOCKED, r"No module named '(tensor2tensor|mesh_tensorflow|gin|gym)'",
          "run with --without tensor2tensor (or one of the libraries it imports): "
          "tensor2tensor 1.14 is a TF1 library that does not install on TF 2.21 (1.15.7, the "
          "last, pins tensorflow-probability==0.7.0, which fails to import there); the "
          "suite ports it as a dependency otherwise"),
    Cause("apache-beam", BLOCKED, r"No module named 'apache_beam'",
          "apache-beam, which score2perf's datagen pipeline runs on, is not installed in "
          "the suite's environment (the magenta TF1 env has 2.15, Python 2's last)"),
    Cause("rtmidi", BLOCKED, r"No module named 'rtmidi'",
          "python-rtmidi < 1.2 (magenta's pin) does not build on this machine: "
          "src/RtMidi.cpp needs alsa/asoundlib.h"),
    Cause("sonnet", BLOCKED, r"No module named 'sonnet'",
          "dm-sonnet 1.x is a TF1 library (pins tensorflow-probability < 0.9)"),
    Cause("tf-float-dimension", PORT,
          r"Dimension value must be integer or None or have an __index__ method, "
          r"got value '\d+\.0'",
          "a shape built with Python 3's `/`: TF 1.15 took an integral float as a "
          "dimension, TF 2 refuses it; `import slim_ext` gives Dimension TF 1.15's rule "
          "back (slim_ext.dimension)"),
    Cause("librosa-output", THIRD_PARTY, r"No librosa attribute output",
          "librosa 0.8 removed librosa.output (soundfile.write replaces it)"),
    Cause("numpy-float-count", PORT,
          r"'float' object cannot be interpreted as an integer",
          "NumPy >= 1.18 refuses a float sample count in np.linspace (`sample_rate * "
          "total_time`, a proto float; NumPy 1.12-1.17 used int() of it with a "
          "DeprecationWarning): the numpy_float_counts codemod writes `int(count)`"),
    Cause("numpy-list-of-slices", PORT,
          r"IndexError: only integers, slices \(`:`\), ellipsis",
          "NumPy >= 1.23 no longer reads a list of slices as a tuple index: the "
          "numpy_slice_lists codemod writes `x[tuple(s)]` where `s` is certainly one"),
    Cause("numpy-tostring", THIRD_PARTY, r"'numpy\.ndarray' object has no attribute 'tostring'",
          "NumPy 2 removed ndarray.tostring (tobytes, the same bytes, since NumPy 1.9)"),
    Cause("numpy-ragged", THIRD_PARTY,
          r"'list' object has no attribute 'size'|inhomogeneous shape",
          "NumPy >= 1.24 makes no array of ragged nested lists (np.size(control) of "
          "controls of different lengths raised ValueError, then this)"),
    Cause("protobuf-7-compare", THIRD_PARTY,
          r"FieldDescriptor' object has no attribute 'label'",
          "TensorFlow 2.21's own protobuf test helper (util/protobuf/compare.py) reads "
          "FieldDescriptor.label, which protobuf 7 removed"),
    Cause("librosa-keyword-only", PORT,
          r"melspectrogram\(\) takes 0 positional arguments",
          "librosa 0.10 made its feature functions keyword-only (melspectrogram(y=, sr=)): "
          "the librosa_keywords codemod names the arguments"),
    Cause("numpy-stack-generator", PORT,
          r"arrays to stack must be passed as a \"sequence\" type",
          "NumPy 2 refuses a generator in np.stack & co.: the numpy_stack_generators "
          "codemod writes the list comprehension NumPy made of it"),
    Cause("fractions-gcd", PORT, r"module 'fractions' has no attribute 'gcd'",
          "Python 3.9 removed fractions.gcd (math.gcd differs for negative arguments): the "
          "fractions_gcd codemod calls Python 3.8's, slim_ext.stdlib.fractions_gcd"),
    Cause("test-out-of-sync", PROJECT,
          r"infer_util' has no attribute 'sequence_to_valued_intervals'",
          "the wheel's infer_util_test tests a function its infer_util does not have"),
)
# Failures whose error alone says nothing, each looked at: (test id, error, cause).
KNOWN_TESTS = (
    (r"(midi_hub_test\.py::MidiHubTest::test(Start|Metronome|WaitForEvent)|"
     r"concurrency_test\.py::ConcurrencyTest::testSleeper)", r"^AssertionError: ",
     Cause("wall-clock", PROJECT, "",
           "asserts a thread's timing to 5-10 ms of wall clock (playback, capture periods, "
           "the metronome, waiting for an event, sleep until): on this 2-core machine "
           "beside other processes it is late; passes or fails with the load",
           timing=True)),
)
PEER = Peer("magenta", "magenta 1.1.7", [Source(MAGENTA), *DEPENDENCIES], "magenta/**/*_test.py",
            CAUSES, KNOWN_TESTS)


if __name__ == "__main__":
    sys.exit(peer_suite.main(PEER, doc=__doc__))
