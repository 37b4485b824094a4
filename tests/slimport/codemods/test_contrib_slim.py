"""contrib_slim: the tf_slim path of each contrib.slim name, and the text pre-check
(cases/contrib_slim.py has the before/after and no-op cases)."""
from __future__ import annotations

import pytest

from slimport.codemods.contrib_slim import ContribSlimCommand, tf_slim_path


@pytest.mark.parametrize(
    ("qualified", "expected"),
    [
        ("tensorflow.contrib.slim", "tf_slim"),
        ("tensorflow.contrib.slim.arg_scope", "tf_slim.arg_scope"),
        ("tensorflow.contrib.slim.nets.vgg", "tf_slim.nets.vgg"),
        ("tensorflow.contrib.slim.python.slim", "tf_slim"),
        (
            "tensorflow.contrib.slim.python.slim.data.tfexample_decoder",
            "tf_slim.data.tfexample_decoder",
        ),
        ("tensorflow.compat.v1.contrib.slim.learning", "tf_slim.learning"),
        ("tensorflow.contrib.slimmer", None),
        ("tensorflow.contrib.layers", None),
        ("tf_slim", None),
    ],
)
def test_tf_slim_path(qualified: str, expected: str) -> None:
    assert tf_slim_path(qualified) == expected


def test_skipped_by_the_cheap_precheck_without_contrib_text() -> None:
    assert not ContribSlimCommand.applies_to("import tensorflow as tf\nslim = None\n")
    assert not ContribSlimCommand.applies_to("import tf_slim as slim\nx = slim.conv2d\n")
    assert not ContribSlimCommand.applies_to("layers = tf.contrib.layers\n")
    assert ContribSlimCommand.applies_to("slim = tf.contrib.slim\n")
    assert ContribSlimCommand.applies_to("from tensorflow.contrib import layers, slim\n")
