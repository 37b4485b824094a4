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
from peer_suite import Peer, Source

TENSORLAYER = corpus.Corpus(
    "tensorlayer", "tensorlayer==1.11.1",
    "d6b1d0541950b6344db747f51e33fdd978d3ac6c04263ae4e2a9cc4a19cc1976", wheel="py3-none-any")
# tensorlayer's own signatures (tried before peer_suite.CAUSES).
CAUSES = ()
PEER = Peer("tensorlayer", "tensorlayer 1.11.1", [Source(TENSORLAYER)], "tests/test_*.py",
            CAUSES)


if __name__ == "__main__":
    sys.exit(peer_suite.main(PEER, doc=__doc__))
