"""A TF1-era module that calls what TensorFlow, SciPy, pandas, Pillow, matplotlib and
NumPy since renamed or removed, ported, then run on this TensorFlow (issue 34).

The module is written as TF1 projects wrote it (a weight-standardised Keras Conv2D on
``self._convolution_op``, an op-type check for fused batch norm, a matplotlib figure
turned into image bytes, Pillow text sizes and a dummy image from random floats,
``scipy.misc`` image I/O, pandas' ``as_matrix``, ``it.next()``, a learned slope handed to
``tf.nn.leaky_relu``, a ``tf.constant`` falling back to ``tf.fill`` for a graph-time
shape). The port runs here with the tree facts the engine's pre-pass would gather; the
ported module runs in one separate process, so that nothing but its own imports sets TensorFlow up.
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

LEGACY_MODULE = '''\
"""TF1-era helpers of a detection project (TF 1.12, Python 2, SciPy 1.1, pandas 0.23)."""
import io
import os

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import PIL.Image
import scipy.misc
import tensorflow as tf
from PIL import ImageFont


class WSConv2D(tf.keras.layers.Conv2D):
    """A weight-standardised convolution."""

    def call(self, inputs):
        mean, var = tf.nn.moments(self.kernel, [0, 1, 2], keep_dims=True)
        kernel = (self.kernel - mean) / tf.sqrt(var + 1e-5)
        return self._convolution_op(inputs, kernel)


def standardised_conv():
    images = np.random.RandomState(0).rand(2, 5, 5, 3).astype(np.float32)
    with tf.Graph().as_default():
        inputs = tf.placeholder(tf.float32, [2, 5, 5, 3])
        layer = WSConv2D(4, 3, use_bias=False)
        outputs = layer(inputs)
        mean, var = tf.nn.moments(layer.kernel, [0, 1, 2], keep_dims=True)
        expected = tf.nn.conv2d(inputs, (layer.kernel - mean) / tf.sqrt(var + 1e-5),
                                [1, 1, 1, 1], 'VALID')
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got, want = sess.run([outputs, expected], {inputs: images})
    return float(np.abs(got - want).max())


def has_fused_batchnorm():
    with tf.Graph().as_default() as graph:
        net = tf.placeholder(tf.float32, [1, 4, 4, 3])
        tf.layers.batch_normalization(net, fused=True, training=True)
        return any(op.type == 'FusedBatchNorm' for op in graph.get_operations())


def cdf_image(values):
    fig = plt.figure(frameon=False)
    ax = fig.add_subplot('111')
    ax.plot(np.cumsum(values))
    fig.canvas.draw()
    width, height = fig.get_size_inches() * fig.get_dpi()
    image = np.fromstring(fig.canvas.tostring_rgb(), dtype='uint8')
    return image.reshape(int(height), int(width), 3).shape


def label_size(text):
    try:
        font = ImageFont.truetype('arial.ttf', 24)
    except IOError:
        font = ImageFont.load_default()
    return font.getsize(text)


def dummy_jpeg(directory):
    image_data = np.random.rand(16, 16, 3)
    path = os.path.join(directory, 'dummy.jpg')
    image = PIL.Image.fromarray(image_data, 'RGB')
    image.save(path)
    return list(image.size)


def resized(directory):
    ramp = np.linspace(0.0, 2.0, 16).reshape(4, 4)
    path = os.path.join(directory, 'ramp.png')
    scipy.misc.imsave(path, scipy.misc.imresize(ramp, (8, 8), interp='nearest'))
    back = scipy.misc.imread(path)
    return [str(back.dtype), list(back.shape), int(back.min()), int(back.max())]


def boxes(frame):
    return frame[['YMin', 'XMin']].as_matrix().tolist(), frame.Label.as_matrix().tolist()


def first_records(lines):
    reader = iter(lines)
    return [reader.next(), reader.next()]


def prelu(values):
    with tf.Graph().as_default():
        alpha = tf.get_variable('alpha', initializer=0.0)
        outputs = tf.nn.leaky_relu(tf.constant(values), alpha=tf.nn.sigmoid(alpha))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return sess.run(outputs).tolist()


def ones_like_rows(rows):
    with tf.Graph().as_default():
        inputs = tf.placeholder(tf.float32, [None, 2])
        shape = tf.shape(inputs)
        try:
            ones = tf.constant(1.0, shape=shape)
        except (TypeError, ValueError):
            ones = tf.fill(shape, 1.0)
        with tf.Session() as sess:
            return sess.run(ones, {inputs: rows}).tolist()


def run(directory):
    frame = pd.DataFrame({'YMin': [0.1], 'XMin': [0.2], 'Label': ['cat']})
    return {
        'conv_error': standardised_conv(),
        'fused': has_fused_batchnorm(),
        'cdf_shape': list(cdf_image([1.0, 2.0, 3.0])),
        'label_size': list(label_size('dog')),
        'dummy_size': dummy_jpeg(directory),
        'resized': resized(directory),
        'boxes': boxes(frame),
        'records': first_records(['a', 'b', 'c']),
        'prelu': prelu([-2.0, 0.0, 3.0]),
        'ones': ones_like_rows([[5.0, 6.0], [7.0, 8.0]]),
    }
'''

DRIVER = '''\
import json, sys
import legacy_helpers
print(json.dumps(legacy_helpers.run(sys.argv[1])))
'''
# What the engine's pre-pass gathers from a tree of this one module.
TREE_FACTS = {"tree_methods": frozenset({"call", "standardised_conv", "run"}),
              "tree_imports": frozenset({"pandas", "matplotlib.pyplot", "numpy"})}


@pytest.fixture(scope="module")
def ported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ported")
    result = engine.port_source(LEGACY_MODULE.encode("utf-8"), "legacy_helpers.py",
                                CODEMODS, {}, tree_facts=TREE_FACTS)
    assert result.error is None, result.error
    (root / "legacy_helpers.py").write_text(result.after, encoding="utf-8")
    (root / "drive.py").write_text(DRIVER, encoding="utf-8")
    return root


def test_the_port_leaves_none_of_the_removed_calls(ported: Path) -> None:
    text = (ported / "legacy_helpers.py").read_text(encoding="utf-8")
    for old in ("._convolution_op(", "== 'FusedBatchNorm'", "add_subplot('111')",
                "tostring_rgb", "np.fromstring", ".getsize(", "fromarray(", "scipy.misc.im",
                ".as_matrix()", ".next()", "tf.nn.leaky_relu", "except (TypeError, ValueError):"):
        assert old not in text, old


def test_the_ported_module_runs_as_the_original_did(ported: Path, tmp_path: Path) -> None:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "drive.py", str(tmp_path)], cwd=ported, env=env,
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-4000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    # The public convolution_op is the private one's operation.
    assert result["conv_error"] < 1e-5
    assert result["fused"] is True
    assert result["cdf_shape"][2] == 3 and result["cdf_shape"][0] > 0
    width, height = result["label_size"]
    assert width > 0 and height > 0
    assert result["dummy_size"] == [16, 16]
    # SciPy 1.1 byte-scaled the 0..2 float ramp to 0..255 before resizing.
    assert result["resized"] == ["uint8", [8, 8], 0, 255]
    assert result["boxes"] == [[[0.1, 0.2]], ["cat"]]
    assert result["records"] == ["a", "b"]
    # TF 1.12's leaky_relu took a learned (Tensor) slope: sigmoid(0) = 0.5.
    assert result["prelu"] == [-1.0, 0.0, 3.0]
    # TF <= 1.14's constant raised ValueError for a graph Tensor shape: fill() ran.
    assert result["ones"] == [[1.0, 1.0], [1.0, 1.0]]


def test_the_matplotlib_names_the_port_writes_exist() -> None:
    # matplotlib_api's target (tests/regression/test_written_names_resolve.py checks the
    # others): this env has matplotlib, Keras 3 imports it with TensorFlow where it is.
    from matplotlib.backends import backend_agg  # pylint: disable=g-import-not-at-top

    assert callable(getattr(backend_agg.FigureCanvasAgg, "buffer_rgba", None))
