"""A TF1-era module full of what real trees still have, ported, then run on TF 2.21.

The module uses deep contrib module paths, tf_slim through ``tf.contrib.slim`` (with
``slim.batch_norm``, which needs slim_ext's shims), TensorFlow 0.x names and argument
orders, Python 2 builtins and NumPy's removed aliases. The port runs in this process
(libcst only); the ported module runs in one separate process, because the point is
that nothing but its own imports sets TensorFlow up: no other test's ``import
slim_ext`` may apply the shims for it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slimport import engine
from slimport.codemods import CODEMODS

pytestmark = pytest.mark.tf

LEGACY_MODEL = '''\
"""A model written for TensorFlow 0.12 / 1.x on Python 2."""
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.framework.python.ops import add_arg_scope
from tensorflow.contrib.layers.python.layers import utils

slim = tf.contrib.slim
BIG = sys.maxint


@add_arg_scope
def scale(x, factor=1.0, outputs_collections=None):
    return utils.collect_named_outputs(outputs_collections, 'scale', tf.mul(x, factor))


def build(images, labels):
    with slim.arg_scope([scale], factor=2.0):
        net = scale(images, outputs_collections='ends')
    net = slim.conv2d(net, 4, [3, 3])
    net = slim.batch_norm(net, is_training=True)
    net = tf.concat(3, [net, tf.neg(net)])
    left, right = tf.split(3, 2, net)
    net = tf.reduce_mean(tf.pack([left, right]), 0)
    logits = slim.fully_connected(slim.flatten(net), 10, activation_fn=None)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits, labels))
    tf.scalar_summary('loss', loss)
    return loss, tf.merge_all_summaries()


def run(logdir):
    counts = {}
    with tf.Graph().as_default():
        images = tf.placeholder(tf.float32, [4, 8, 8, 3])
        labels = tf.placeholder(tf.float32, [4, 10])
        loss, merged = build(images, labels)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        flipped = tf.reverse(tf.constant([[1, 2, 3]]), [False, True])
        writer = tf.train.SummaryWriter(logdir)
        feed = {images: np.random.RandomState(0).rand(4, 8, 8, 3).astype(np.float),
                labels: np.eye(10)[[0, 1, 2, 3]].astype(np.float32)}
        losses = []
        with tf.Session() as sess:
            sess.run(tf.initialize_all_variables())
            for step in xrange(20):
                value, summary, _ = sess.run([loss, merged, train], feed)
                writer.add_summary(summary, step)
                losses.append(float(value))
                counts[long(step) % 2] = counts.get(step % 2, 0) + 1
            writer.close()
            flipped = sess.run(flipped).tolist()
        ends = [unicode(t.name) for t in tf.get_collection('ends')]
    return {
        'losses': losses, 'flipped': flipped, 'ends': ends, 'big': BIG,
        'counts': sorted((k, v) for k, v in counts.iteritems()),
        'text': isinstance(u'x', basestring), 'bool': np.array([1, 0], dtype=np.bool).tolist(),
    }
'''

DRIVER = '''\
import json, sys
import legacy_model
print(json.dumps(legacy_model.run(sys.argv[1])))
'''


@pytest.fixture(scope="module")
def ported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ported")
    result = engine.port_source(LEGACY_MODEL.encode("utf-8"), "legacy_model.py", CODEMODS, {})
    assert result.error is None, result.error
    (root / "legacy_model.py").write_text(result.after, encoding="utf-8")
    (root / "drive.py").write_text(DRIVER, encoding="utf-8")
    return root


def test_the_port_leaves_nothing_of_tf0_or_python_2(ported: Path) -> None:
    text = (ported / "legacy_model.py").read_text(encoding="utf-8")
    for old in ("tf.mul(", "tf.neg(", "tf.pack(", "scalar_summary", "SummaryWriter",
                "merge_all_summaries", "xrange", "maxint", "iteritems", "unicode(",
                "long(", "basestring", "np.float)", "np.bool", "tensorflow.contrib"):
        assert old not in text, old
    # slim_ext comes once, right after the first tf_slim import (the deep path's).
    assert "from tf_slim import add_arg_scope\nimport slim_ext\n" in text
    assert text.count("import slim_ext") == 1 and "import tf_slim as slim\n" in text


def test_the_ported_module_trains_on_tf2(ported: Path) -> None:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONDONTWRITEBYTECODE="1")
    logdir = ported / "logs"
    run = subprocess.run([sys.executable, "drive.py", str(logdir)], cwd=ported, env=env,
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-4000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    losses = result["losses"]
    assert len(losses) == 20 and losses[-1] < losses[0]
    # tf.reverse's 0.x mask [False, True] reversed the second axis only.
    assert result["flipped"] == [[3, 2, 1]]
    # utils.collect_named_outputs (the deep contrib path) still collects.
    assert result["ends"] == ["Mul:0"]
    assert result["big"] == sys.maxsize
    assert result["counts"] == [[0, 10], [1, 10]]
    assert result["text"] is True and result["bool"] == [True, False]
    # The 0.x scalar_summary wrote its events under the same tag.
    events = list(logdir.glob("events.out.tfevents.*"))
    assert events and b"loss" in events[0].read_bytes()
