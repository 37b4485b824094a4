"""Issue 30's yardstick: tensorlayer 1.11.1's own test suite, ported and run on TensorFlow 2.

    python tools/tensorlayer_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script]
                                      [--only SUBSTRING] [--report FILE.json] [-v]
    tox -e peersuite            (with tools/magenta_suite.py)

tensorlayer 1.11.1 (PyPI's wheel: the sdist names requirements files it does not ship,
so pip cannot download it) is a TF1 layer library: ``tf.contrib.rnn`` cells, seq2seq,
``tf.contrib.layers`` initializers, graph-mode layers over ``tf.compat.v1`` variables.
Its wheel ships its test suite (``tests/test_*.py``, 32 modules). The harness (download,
port, one process per module, the reference run, the classes of failure) is
tools/peer_suite.py's; this module holds what is tensorlayer's.
"""
from __future__ import annotations

import sys

import corpus
import peer_suite
from peer_suite import BLOCKED, PORT, PROJECT, Cause, Peer, Source

TENSORLAYER = corpus.Corpus(
    "tensorlayer", "tensorlayer==1.11.1",
    "d6b1d0541950b6344db747f51e33fdd978d3ac6c04263ae4e2a9cc4a19cc1976", wheel="py3-none-any")
# tensorlayer's own signatures (tried before peer_suite.CAUSES). The TensorFlow changes
# are measured: each runs (or fails) the same on TensorFlow 1.15 as noted.
CAUSES = (
    Cause("tf-float-dimension", PORT,
          r"Dimension value must be integer or None or have an __index__ method, "
          r"got value '\d+\.0'",
          "a shape built with Python 3's `/` (`channels / n_group` in group_conv.py): TF "
          "1.15 took an integral float as a dimension (Dimension(16.0) is 16), TF 2 refuses "
          "it; `import slim_ext` gives Dimension TF 1.15's rule back (slim_ext.dimension)"),
    Cause("tf-private-tensor-shape", PORT,
          r"Cannot reshape a tensor with \d+ elements to shape \[\?,\d+,0\]",
          "the test reads TF1's deprecated `Tensor._shape` (an alias of `shape` on TF 1.15, "
          "a (dims, flag) tuple on TF 2.21): the tensor_private_shape codemod writes "
          "`tensor.shape`"),
    Cause("tf-private-constant-shape", PORT,
          r"Cannot convert a symbolic tf\.Tensor \(alphas",
          "tensorlayer's alphas() calls TensorFlow's private constant_op.constant with a "
          "Tensor shape and falls back to fill() only on TypeError/ValueError, as TF <= 1.14 "
          "raised (ValueError on TF 1.12, measured); since TF 1.15 the call raises "
          "NotImplementedError (TF 1.15 / NumPy 1.18 and TF 2.21 alike). The "
          "symbolic_constant_errors codemod adds NotImplementedError to such a handler, "
          "array_ops.py included (a copy of TensorFlow's private code): seen again, the "
          "port missed it"),
    Cause("tf-leaky-relu-tensor-alpha", PORT,
          r"Expected float for argument 'alpha' not <tf\.Tensor",
          "PRelu passes a Tensor alpha to tf.nn.leaky_relu, which TF 1.12 computed as "
          "maximum(alpha * x, x) and TF >= 1.13 runs as a fused op taking a float: the "
          "leaky_relu_alpha codemod sends TF1 code's uses to slim_ext.tf1_nn.leaky_relu"),
    Cause("no-network", BLOCKED,
          r"URLError: <urlopen error \[Errno -[23]\]|socket\.gaierror: \[Errno -[23]\]",
          "the test downloads MNIST; this machine reaches PyPI only"),
    Cause("hyperdash-py311", BLOCKED,
          r"cannot import name 'getargspec' from 'inspect'",
          "hyperdash 0.15 (tensorlayer's pin) imports inspect.getargspec, gone in Python "
          "3.11: the dependency does not work on this Python"),
    Cause("missing-docs", PROJECT,
          r"config directory doesn't contain a conf\.py file \(docs/\)",
          "the documentation test builds docs/, which the wheel does not ship"),
)
# Failures whose error alone says nothing, each looked at: (test id, error, cause).
KNOWN_TESTS = (
    # Each test builds the net anew when the one before timed out (and left none).
    (r"test_timeout\.py::Layer_Timeoutt_Test::test_timeout_(?:not_)?reuse$",
     r"TimeoutError: A timeout error have been raised",
     Cause("wall-clock-limit", PROJECT, "",
           "builds Inception-v4 within 40 s of wall clock (120 s on Travis): on this "
           "2-core machine beside other processes it takes longer")),
    (r"test_timeout\.py::Layer_Timeoutt_Test::test_timeout_reuse$",
     r"^ValueError: Variable InceptionV4/\S+ does not exist",
     Cause("after-wall-clock-limit", PROJECT, "",
           "reuses the Inception-v4 the timed-out test above did not finish building")),
    (r"test_layers_activation\.py::PT?Relu6_Layer_Test::", r"^ValueError: Variable dense_1/W "
     r"already exists",
     Cause("after-prelu", PORT, "",
           "PRelu_Layer_Test's setUpClass failed (tf-leaky-relu-tensor-alpha) before its "
           "tearDownClass reset the graph, so the next class finds its variables; run "
           "alone, these classes pass")),
)
PEER = Peer("tensorlayer", "tensorlayer 1.11.1", [Source(TENSORLAYER)], "tests/test_*.py",
            CAUSES, KNOWN_TESTS)


if __name__ == "__main__":
    sys.exit(peer_suite.main(PEER, doc=__doc__))
