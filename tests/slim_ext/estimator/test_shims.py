"""slim_ext.estimator.shims: tensorflow-estimator 2.15 imports and runs once slim_ext is.

On TF >= 2.16 every shim is applied and resolves to its source; on TF 2.15
(this file runs in the regression-tf215 env too) none is, because TensorFlow
has every name. Each kind of shim is checked to set a missing name and to
never replace one that exists (sentinel tests, as slim_ext.compat's).
"""
import collections
import importlib
import subprocess
import sys
import types

import pytest

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def shims(tf):  # pylint: disable=unused-argument
  from slim_ext.estimator import shims as shims_module  # pylint: disable=g-import-not-at-top
  return shims_module


@pytest.fixture(scope="module")
def tf_has_estimator(tf):
  """TF <= 2.15: TensorFlow itself still ships tf.estimator's support."""
  return tuple(int(part) for part in tf.__version__.split(".")[:2]) < (2, 16)


def test_applied_on_2_16_and_later_only(shims, tf_has_estimator):
  if tf_has_estimator:
    assert shims.applied() == []
  else:
    assert shims.applied() == list(shims.SHIMS)


def test_every_applied_shim_resolves_to_its_source(shims):
  from tensorflow.python.util import tf_export  # pylint: disable=g-import-not-at-top
  applied = shims.applied()
  for shim in applied:
    if shim.kind == shims.API_ATTRS_ENTRY:
      table = getattr(tf_export, shim.target.split(".")[-2])
      assert tuple(table["estimator"]) == importlib.import_module(
          "slim_ext.estimator.shims").__dict__[shim.source.rpartition(".")[2]]
    elif shim.kind == shims.LAZY_API_MODULE:
      owner, name = shims.compat._owner_and_name(shim.target)  # pylint: disable=protected-access
      assert getattr(owner, name).Estimator is importlib.import_module(
          shim.source).Estimator
    elif shim.kind == shims.KERAS_2_VIEW:
      continue  # tested in test_keras2.py
    elif shim.kind == "module alias":
      assert importlib.import_module(shim.target) is importlib.import_module(
          shim.source)
    else:
      module_name, _, name = shim.target.rpartition(".")
      assert getattr(importlib.import_module(module_name), name) == "estimator"


def test_applied_shims_state_their_cause(shims):
  for shim in shims.SHIMS:
    assert shim.cause and shim.source and shim.target
    assert shim.target in str(shim) and shim.cause in str(shim)


def test_apply_is_idempotent(shims):
  finders = list(sys.meta_path)
  assert shims.apply() == shims.apply() == shims.applied()
  assert sys.meta_path == finders


def test_every_estimator_api_spelling_works(tf):
  import tensorflow  # pylint: disable=g-import-not-at-top
  import tensorflow_estimator  # pylint: disable=g-import-not-at-top
  from tensorflow.compat.v1 import estimator as v1_estimator  # pylint: disable=g-import-not-at-top
  from tensorflow import estimator as v2_estimator  # pylint: disable=g-import-not-at-top
  real = tensorflow_estimator.python.estimator.estimator
  assert v2_estimator.Estimator is real.EstimatorV2
  assert tensorflow.estimator.Estimator is real.EstimatorV2
  assert tensorflow.compat.v2.estimator.RunConfig is v2_estimator.RunConfig
  assert v1_estimator.Estimator is real.Estimator
  assert tf.estimator.Estimator is real.Estimator
  assert tf.estimator.tpu.TPUEstimator.__name__ == "TPUEstimator"
  assert tf.estimator.inputs.numpy_input_fn
  assert tensorflow_estimator.estimator.Estimator is real.Estimator


def test_import_slim_ext_does_not_load_the_estimator():
  code = ("import sys, slim_ext, tensorflow as tf\n"
          "print('tensorflow_estimator' in sys.modules)\n"
          "tf.estimator.RunConfig\n"
          "print('tensorflow_estimator' in sys.modules)\n")
  result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=180, check=True)
  assert result.stdout.split() == ["False", "True"]


@pytest.fixture()
def fake_module(monkeypatch):
  module = types.ModuleType("slim_ext_fake_tf_export")
  row = collections.namedtuple("_Attributes", ["names", "constants"])
  module.API_ATTRS = {"tensorflow": row("_tf_api_names", "_tf_api_constants")}
  monkeypatch.setitem(sys.modules, module.__name__, module)
  return module


def test_api_attrs_entry_is_added_when_missing(shims, fake_module):
  shim = shims.compat.Shim(f"{fake_module.__name__}.API_ATTRS.estimator",
                           "slim_ext.estimator.shims.API_NAME_ATTRIBUTES", "test",
                           kind=shims.API_ATTRS_ENTRY)
  assert shims.apply_shim(shim) is True
  assert fake_module.API_ATTRS["estimator"] == shims.API_NAME_ATTRIBUTES


def test_api_attrs_entry_never_replaces_an_existing_row(shims, fake_module):
  sentinel = object()
  fake_module.API_ATTRS["estimator"] = sentinel
  shim = shims.compat.Shim(f"{fake_module.__name__}.API_ATTRS.estimator",
                           "slim_ext.estimator.shims.API_NAME_ATTRIBUTES", "test",
                           kind=shims.API_ATTRS_ENTRY)
  assert shims.apply_shim(shim) is False
  assert fake_module.API_ATTRS["estimator"] is sentinel


def test_attribute_shim_never_replaces_the_api_name(shims, fake_module):
  fake_module.ESTIMATOR_API_NAME = "sentinel"
  shim = shims.compat.Shim(f"{fake_module.__name__}.ESTIMATOR_API_NAME",
                           "slim_ext.estimator.shims.ESTIMATOR_API_NAME", "test")
  assert shims.apply_shim(shim) is False
  assert fake_module.ESTIMATOR_API_NAME == "sentinel"


def test_lazy_api_module_never_replaces_an_existing_attribute(shims, tf):
  sentinel = tf.compat.v1.estimator
  shim = shims.compat.Shim("tensorflow.compat.v1.estimator",
                           "tensorflow_estimator.python.estimator.api._v2.estimator",
                           "test", kind=shims.LAZY_API_MODULE)
  assert shims.apply_shim(shim) is False
  assert tf.compat.v1.estimator is sentinel


def test_lazy_api_module_sets_a_missing_attribute_lazily(shims, monkeypatch):
  import tensorflow  # pylint: disable=g-import-not-at-top
  owner = types.ModuleType("tensorflow.slim_ext_fake_api")
  monkeypatch.setattr(tensorflow, "slim_ext_fake_api", owner, raising=False)
  shim = shims.compat.Shim("tensorflow.slim_ext_fake_api.estimator",
                           "slim_ext.estimator.removed_tpu.tpu_embedding", "test",
                           kind=shims.LAZY_API_MODULE)
  assert shims.apply_shim(shim) is True
  assert type(owner.estimator).__name__ == "LazyLoader"
  assert owner.estimator.AdamParameters.__name__ == "AdamParameters"


def test_estimator_training_alias_never_shadows_tensorflows_own(shims, tf_has_estimator):
  module = importlib.import_module("tensorflow.python.distribute.estimator_training")
  if tf_has_estimator:
    assert module.__name__ == "tensorflow.python.distribute.estimator_training"
  else:
    assert module is importlib.import_module("slim_ext.estimator.estimator_training")


def test_doctor_lists_the_estimator_shims(shims, capsys):
  from slim_ext import __main__ as doctor  # pylint: disable=g-import-not-at-top
  doctor.main()
  out = capsys.readouterr().out
  assert f"of {len(shims.compat.SHIMS) + len(shims.SHIMS)} known" in out
  for shim in shims.applied():
    assert shim.target in out and shim.cause in out
