"""legacy_keras: the Keras 2 name table and the tree-wide Keras 2 fact (cases/legacy_keras.py
has the before/after, no-op and reported cases)."""
from __future__ import annotations

import pytest

from slimport.tables.keras_api import V1, V2, keras_2_only
from slimport.codemods.legacy_keras import tree_needs_keras_2
from tests.slimport.codemods.cases.legacy_keras import KERAS_HEAD


@pytest.mark.parametrize("relative, api, prefix", [
    ("backend.set_learning_phase", V2, "backend.set_learning_phase"),
    ("estimator.model_to_estimator", V1, "estimator"),
    ("layers.experimental.preprocessing.Normalization", V2, "layers.experimental"),
    # Only TF1's Keras API had it: in TF2 code it failed on Keras 2 too.
    ("backend.get_session", V2, None),
    ("backend.get_session", V1, "backend.get_session"),
    ("layers.Dense", V2, None),
    ("optimizers.Adam", V2, None),
])
def test_keras_2_only_names(relative: str, api: str, prefix: str) -> None:
    assert keras_2_only(relative, api) == prefix


TF1_KERAS = ("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
             "y = tf.keras.layers.Dense(3)(x)\n")


@pytest.mark.parametrize("texts, needs", [
    ([KERAS_HEAD, TF1_KERAS], True),
    ([KERAS_HEAD, "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"], False),
    ([KERAS_HEAD, "def broken(:\n"], False),
    (["import tensorflow as tf\nm.compile(optimizer=tf.train.AdamOptimizer(1.0))\n"], True),
])
def test_tree_needs_keras_2(texts, needs) -> None:
    assert tree_needs_keras_2(texts) is needs
