"""Issue 30's yardstick: magenta 1.1.7's own test suite, ported and run on TensorFlow 2.

    python tools/magenta_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script]
                                  [--only SUBSTRING] [--report FILE.json] [-v]
    tox -e peersuite            (with tools/tensorlayer_suite.py)

magenta 1.1.7 (PyPI's wheel; it has no sdist of that version) is Google's TF1 music
project: ``tf.contrib.training.HParams``, ``tf.contrib.rnn`` / ``cudnn_rnn`` cells,
``tf.contrib.seq2seq``, TensorFlow Probability and TF-GAN. Its wheel ships 69
``*_test.py`` modules. The harness (download, port, one process per module, the
reference run, the classes of failure) is tools/peer_suite.py's; this module holds what
is magenta's: its source, and the dependencies that do not install here, with the
evidence.
"""
from __future__ import annotations

import sys

import corpus
import peer_suite
from peer_suite import Peer, Source

MAGENTA = corpus.Corpus(
    "magenta", "magenta==1.1.7",
    "abf633c7e462e26696f60c54718b1b9316b21de912d18a7a6e699591efaa65a2",
    wheel="py2.py3-none-any")
# magenta's own signatures (tried before peer_suite.CAUSES).
CAUSES = ()
PEER = Peer("magenta", "magenta 1.1.7", [Source(MAGENTA)], "magenta/**/*_test.py", CAUSES)


if __name__ == "__main__":
    sys.exit(peer_suite.main(PEER, doc=__doc__))
