"""Issue 43's yardstick for research/slim: its own tests, ported and run on TensorFlow 2.

    python tools/slim_suite.py [--cache DIR] [--keep DIR] [-j N] [--as-script]
                               [--only SUBSTRING] [--quick] [--tf1-python PYTHON [--tf1-all]]
                               [--report FILE.json] [-v]

research/slim as of 2022 is TF 1.15 code: ``tensorflow.compat.v1`` and ``tf_slim`` beside
``tf.contrib`` (``quantize`` in export_inference_graph.py, ``training.HParams`` in the
NASNets, ``framework`` in the CycleGAN test), so it ran on TensorFlow 1.15 and nowhere
after. PyPI's ``tf-models-research-object-detection==2.8.0`` (tools/corpus.py's
RESEARCH_SLIM_WHOLE) ships its ``slim/`` folder whole: the nets and
their 22 test modules, deployment's model_deploy test and export_inference_graph.py with
its test. Its time is Python 3.7 + TensorFlow 1.15.5 with tf-slim 1.1.0 (``--tf1-python``
of such a virtualenv, ``--tf1-all``). The harness (download, port, one process per
module, the classes of failure) is tools/peer_suite.py's; this module holds what is
research/slim's.
"""
from __future__ import annotations

import re
import sys

import corpus
import peer_suite
from peer_suite import BLOCKED, PORT, Cause, Peer, Source

CAUSES = (
    Cause("replica-task", PORT,
          r"Devices /job:worker/task:\d+/device:\w+:\d+ and /job:worker/device:",
          "model_deploy's worker devices name the replica's task (the replica_device "
          "codemod: upstream's '/job:worker' lets TensorFlow place a replica's ops on any "
          "worker task), and the test asserts upstream's strings; `slimport rewrite --skip "
          "replica_device` keeps them"),
    Cause("no-network", BLOCKED,
          r"URLError: <urlopen error \[Errno -?\d+\]|socket\.gaierror: \[Errno -?\d+\]",
          "export_inference_graph_test's imagenet split downloads ImageNet's label names "
          "from GitHub when its folder has none; this machine reaches PyPI only (it fails "
          "the same on TensorFlow 1.15)"),
)
# The networks' test modules that build the biggest graphs (NASNet, PNASNet, Inception,
# ResNet, I3D and S3D-G): --quick leaves them out.
BIG_NETWORKS = re.compile(r"^nets/(nasnet/(nasnet|pnasnet)_test|inception_\w+_test|"
                          r"resnet_v[12]_test|i3d_test|s3dg_test)\.py$")

PEER = Peer("research_slim", "research/slim (tf-models-research-object-detection 2.8.0)",
            [Source(corpus.RESEARCH_SLIM_WHOLE, "slim")], "**/*_test.py", CAUSES, (),
            BIG_NETWORKS, "the NASNet, PNASNet, Inception, ResNet, I3D and S3D-G test modules")


if __name__ == "__main__":
    sys.exit(peer_suite.main(PEER, doc=__doc__))
