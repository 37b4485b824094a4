"""Issue 41's yardstick for a TF1 project's TF1-era dependency: tflearn 0.3.2's own tests,
ported and run on TensorFlow 2.

    python tools/tflearn_suite.py [--cache DIR] [--keep DIR] [-j N] [--tf1-python PYTHON]
                                  [--report FILE.json] [-v]

tflearn 0.3.2 (its sdist ships ``tests/``, 9 modules, 20 tests) is a TF1 library that
never got a TF 2 release in the same API: projects that import it cannot start on
TensorFlow 2 until it is ported too. It is ported here as a user ports such a dependency
(docs/dependencies.md): ``slimport rewrite`` of the library into a folder that goes
first on the path. On TensorFlow 1.15.5 (Python 3.7) its suite passes 18 of 20 tests;
the other two download MNIST, which this machine cannot reach. The harness (download,
port, one process per module, the classes of failure) is tools/peer_suite.py's; this
module holds what is tflearn's.
"""
from __future__ import annotations

import sys

import corpus
import peer_suite
from peer_suite import BLOCKED, Cause, Peer, Source

TFLEARN = corpus.Corpus(
    "tflearn", "tflearn==0.3.2",
    "3f58016039817450a89a49cd6973edbe4e0652aedd709289917e4746f5da940c")
CAUSES = (
    Cause("no-network", BLOCKED,
          r"URLError: <urlopen error \[Errno -[23]\]|socket\.gaierror: \[Errno -[23]\]",
          "the validation-monitor tests download MNIST; this machine reaches PyPI only "
          "(they fail the same on TensorFlow 1.15)"),
)
PEER = Peer("tflearn", "tflearn 0.3.2", [Source(TFLEARN)], "tests/test_*.py", CAUSES)


if __name__ == "__main__":
    sys.exit(peer_suite.main(PEER, doc=__doc__))
