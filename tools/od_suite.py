"""Issue 25's yardstick: object detection 0.1.1's own test suite, ported and run on TensorFlow 2.

    python tools/od_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script]
                             [--without research_slim] [--only SUBSTRING] [--quick]
                             [--tf1-python PYTHON] [--report FILE.json] [-v]
    tox -e odsuite              (every module; tox's default run has it in the corpus env)
    tox -e odsuite-quick        (--quick: a faster check)

tensorflow-object-detection-api 0.1.1 (PyPI's sdist) ships 121 ``*_test.py`` modules.
Beside it, research/slim's ``nets`` and ``deployment`` are ported (PyPI has them only
inside the sdist of tf-models-research-object-detection 2.8.0.post1; ``--without
research_slim`` leaves them out, and the tests that need them count as blocked). The
harness (download, port, one process per module, the reference run, the classes of
failure) is tools/peer_suite.py's; this module holds what is object detection's: its
sources, its failure signatures and the failures looked at one by one.
"""
from __future__ import annotations

import re
import sys

import corpus
import peer_suite
from peer_suite import BLOCKED, PORT, PROJECT, THIRD_PARTY, Cause, Peer, Source

OBJECT_DETECTION = next(c for c in corpus.CORPORA if c.name == "object_detection")
RESEARCH_SLIM = corpus.RESEARCH_SLIM
# object_detection/models/*feature_extractor_test.py build one research/slim network after
# another in graph mode (NASNet, PNASNet, Inception-ResNet-v2, ResNet-101 FPN, ...): 18
# modules, 62% of the suite's CPU time (1776 of 2881 s in one run here), and what they
# exercise of the port (compat.v1, the test-module switch, the Python 2 lists) the other
# 103 modules exercise too. --quick leaves them out, as tox's default run does (tf221's
# corpus stage: CI's 90 minutes); `tox -e odsuite` runs them all (about 6.5 min wall on 2
# cores, idle).
NETWORK_BUILDERS = re.compile(r"^object_detection/models/.*feature_extractor_test\.py$")
# Object detection's own signatures (tried before peer_suite.CAUSES).
CAUSES = (
    Cause("tf2-module-in-tf1-tree", PORT,
          r"softmax_v2_with_logit_scale|'method': 2,.*!= \{'method': 'bicubic'",
          "a module of the TF1 tree was read as TF2 (`import tensorflow as tf` kept): its "
          "objects differ from the compat.v1 ones its TF1 neighbours use (tf.nn.softmax is "
          "softmax_v2, tf.image.ResizeMethod.BICUBIC is 'bicubic', not 2): in a TF1 tree, "
          "port every module to compat.v1 (post_processing_builder.py, "
          "preprocessor_builder_test.py)"),
    Cause("py2-lazy-zip", PORT, r"anchor_(strides|offsets) must be a list",
          "`zip(a, b)` stored and later measured with len() -> `list(zip(a, b))` "
          "(object_detection/builders/anchor_generator_builder.py:60,64; 2to3's fix_zip)"),
    Cause("py2-int-division", PROJECT,
          r"Value passed to parameter 'shape' has DataType float32 not in list of allowed",
          "`a / b` meant integer division (Python 2, no `from __future__ import division`; "
          "object_detection/predictors/heads/mask_head.py:158): the project's on Python 3"),
    Cause("missing-test-data", PROJECT,
          r"NotFoundError: \S*/samples/configs/|No such file or directory: \S*test_images/",
          "the sdist does not ship the files the test reads (samples/configs, test_images)"),
    Cause("research-slim-missing", BLOCKED, r"No module named '(nets|deployment)\b",
          "research/slim's nets/deployment are not on PyPI as a package: run without "
          "--without research_slim (the sdist of tf-models-research-object-detection ships them)"),
)
# Failures whose error alone says nothing (an assertion on values), each looked at and
# run unported on TensorFlow 1.15 / Python 3.7 (--tf1-python, 2026-11-25):
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
    (r"inputs_test\.py::InputsTest::test_output_is_integer_in_replace_empty_string_with_"
     r"random_number$", r"^AssertionError: b'\d+' != '\d+'$",
     Cause("tf-random-stream", THIRD_PARTY, "",
           "asserts the one number tf.random_uniform drew under tf.set_random_seed(0) when "
           "it was written; TF 2.21 draws another (the str against bytes is "
           "Python2StrEquality's to answer; the module does not start on Python 2.7 + TF "
           "1.14, so not checked there)")),
    (r"shape_utils_test\.py::UtilTest::test_pad_or_clip_nd_tensor$", r"^AssertionError:",
     Cause("tf-shape-inference", THIRD_PARTY, "",
           "expects a dimension TF 1.x could not infer (None); TF 2's shape inference reads "
           "the tf.constant(6) (passes on TF 1.15)")),
    (r"json_utils_test\.py::"
     r"|coco_tools_test\.py::CocoToolsTest::testExport(Detections|Groundtruth)ToCOCO$",
     r"^AssertionError",
     Cause("py2-json-float-repr", PORT, "",
           "asserts floats written with json.encoder.FLOAT_REPR's rounding, Python 2's hook "
           "the port gives back (removed_stdlib imports slim_ext.py2_json where a file reads "
           "or sets it)")),
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
    (r"detection_inference_test\.py::InferDetectionsTests::test_simple$", r"^AssertionError:",
     Cause("png-bytes-expected", PROJECT, "",
           "compares the PNG the test encodes with PNG bytes written into the test: another "
           "zlib compresses the same pixels otherwise (fails the same unported on Python "
           "2.7 + TF 1.14, Pillow 6.2.2)")),
    (r"object_detection_evaluation_test\.py::\w+::test_returns_correct_metric_values",
     r"^KeyError: '\w+_PerformanceByCategory/",
     Cause("py2-unicode-encode", PROJECT, "",
           "metric names built from `unicode(name).encode('ascii')`: bytes on Python 3, "
           "so the keys read b'dog' (unported on TF 1.15 / Python 3.7: NameError unicode)")),
)
# research/slim's 2022 nets are written against tf_slim: on TF 1 the unported tree's
# tf.contrib.slim arg scopes do not reach them, so that run says nothing about such a test.
_TF1_REFERENCE_UNUSABLE = re.compile(r"is not decorated with @add_arg_scope")

PEER = Peer(
    "od", "tensorflow-object-detection-api 0.1.1",
    [Source(OBJECT_DETECTION), Source(RESEARCH_SLIM, "slim", "ported_slim", optional=True)],
    "object_detection/**/*_test.py", CAUSES, KNOWN_TESTS, NETWORK_BUILDERS,
    "the 18 network-building feature extractor test modules (62% of the time)",
    _TF1_REFERENCE_UNUSABLE)


if __name__ == "__main__":
    sys.exit(peer_suite.main(PEER, doc=__doc__))
