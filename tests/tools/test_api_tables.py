"""The API tables the rewrite reads without TensorFlow agree with the installed packages.

tf_api.txt's ``estimator`` rows are tensorflow-estimator 2.15's v1 and v2 APIs as slim_ext
revives them on TF 2.21 (tools/gen_tf_api.py); every name of keras_api.txt is one tf_keras
has in the API the table says and Keras 3's ``tf.keras`` lacks (tools/gen_keras_api.py).
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Dict

import pytest

from slimport.tables.keras_api import API_FILE as KERAS_TABLE
from slimport.tables.tf_api import API_FILE as TF_TABLE

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import gen_keras_api  # noqa: E402  (tools/ is not a package)
import gen_tf_api  # noqa: E402

pytestmark = pytest.mark.tf


def _rows(path: Path) -> Dict[str, str]:
    return {line.split("\t", 1)[0]: line for line in path.read_text().splitlines()
            if line and not line.startswith("#")}


def test_estimator_rows_are_the_revived_tensorflow_estimator_apis() -> None:
    importlib.import_module("slim_ext")
    import tensorflow as tf  # pylint: disable=import-outside-toplevel

    def api(root) -> Dict[str, object]:
        return {"estimator": root, **{f"estimator.{name}": member
                                      for name, member in gen_tf_api.walk(root)}}
    expected = gen_tf_api.table_lines(api(tf.compat.v1.estimator), api(tf.estimator))
    listed = [line for name, line in _rows(TF_TABLE).items()
              if name == "estimator" or name.startswith("estimator.")]
    assert sorted(listed) == sorted(expected)
    assert "estimator.Estimator\t12" in expected  # and the canned ones, hooks, exporters


def test_every_keras_2_only_name_is_in_tf_keras_and_not_in_keras_3() -> None:
    keras_2 = {gen_keras_api.KERAS_2_V1: "1", gen_keras_api.KERAS_2_V2: "2"}
    names = {api: gen_keras_api.public_names(importlib.import_module(module))
             for module, api in keras_2.items()}
    keras_3 = gen_keras_api.public_names(importlib.import_module(gen_keras_api.KERAS_3))
    rows = {name: line.split("\t")[1] for name, line in _rows(KERAS_TABLE).items()}
    for name, apis in rows.items():
        assert name not in keras_3, name
        assert all(name in names[api] for api in apis), (name, apis)
    assert {"estimator", "backend.set_learning_phase", "layers.experimental"} <= set(rows)


def test_the_keras_table_lists_the_shortest_missing_prefix() -> None:
    keras_2 = {"2": {"layers", "layers.Dense", "layers.experimental",
                     "layers.experimental.preprocessing", "backend", "backend.get_session"},
               "1": {"backend", "backend.get_session"}}
    keras_3 = {"layers", "layers.Dense", "backend"}
    assert gen_keras_api.keras_2_only(keras_2, keras_3) == {
        "layers.experimental": "2", "backend.get_session": "12"}
