"""The names tensorflow-estimator 2.15 needs from TensorFlow, put back on TF >= 2.16.

TensorFlow 2.16 removed ``tf.estimator`` and, with it, what the separately
packaged tensorflow-estimator 2.15 (the last release, pure Python) imports from
TensorFlow: the ``estimator`` API name in ``tf_export``, the
``distribute/estimator_training.py`` module its RunConfig and
``train_and_evaluate`` call for multi-worker strategies, and three TPU modules
its TPUEstimator imports (gone by 2.21). Each shim below names that cause and
acts only when its target is missing, so on TF 2.15, which still has them all,
none is applied. tf_keras 2.16-2.21 still calls into tensorflow_estimator for
``model_to_estimator``, so these shims revive that too.

``tf.estimator`` itself is installed lazily (TensorFlow's own LazyLoader, as TF
2.15 did): ``import slim_ext`` does not import tensorflow_estimator.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import List

from slim_ext import compat
from slim_ext.estimator import first_checkpoint, keras2

# A key added to tf_export's API name tables.
API_ATTRS_ENTRY = "API name table entry"
# A public TensorFlow attribute that loads an estimator API module on first use.
LAZY_API_MODULE = "lazy API module"
# tensorflow_estimator's modules import a TensorFlow whose keras is tf_keras.
KERAS_2_VIEW = "Keras 2 view"

# tf_export.ESTIMATOR_API_NAME's value on TF 2.15 (the shim's source).
ESTIMATOR_API_NAME = "estimator"
# tf_export.API_ATTRS[estimator] on TF 2.15: the attributes estimator_export
# writes a symbol's API names and constants to, for the v2 and v1 APIs.
API_NAME_ATTRIBUTES = ("_estimator_api_names", "_estimator_api_constants")
API_NAME_ATTRIBUTES_V1 = ("_estimator_api_names_v1", "_estimator_api_constants_v1")

_TF_EXPORT = "tensorflow.python.util.tf_export"
_REMOVED = "TF 2.16 removed tf.estimator (present in 2.15.1, gone in 2.21.0)"
_TPU_REMOVED = (
    "removed from TensorFlow after 2.15 with the TPU embedding v1 library "
    "(present in 2.15.1, gone in 2.21.0)")
_TPU_ONLY = "used only on a TPU"

# The TensorFlow API modules that had an `estimator` on TF 2.15, and its version.
_API_MODULES = {
    "tensorflow": "_v2",
    "tensorflow.compat.v1": "_v1",
    "tensorflow.compat.v2": "_v2",
    "tensorflow.compat.v1.compat.v1": "_v1",
    "tensorflow.compat.v1.compat.v2": "_v2",
    "tensorflow.compat.v2.compat.v1": "_v1",
    "tensorflow.compat.v2.compat.v2": "_v2",
}

SHIMS = (
    compat.Shim(
        f"{_TF_EXPORT}.ESTIMATOR_API_NAME",
        f"{__name__}.ESTIMATOR_API_NAME",
        f"{_REMOVED} and the API name 'estimator' from tf_export; "
        "tensorflow_estimator's estimator_export decorator passes "
        "api_name=tf_export.ESTIMATOR_API_NAME when it exports every public "
        "symbol, so nothing of it imports without the name"),
    compat.Shim(
        f"{_TF_EXPORT}.API_ATTRS.estimator",
        f"{__name__}.API_NAME_ATTRIBUTES",
        f"{_REMOVED} and the 'estimator' row of tf_export.API_ATTRS; "
        "api_export looks the row up to know which attributes hold a "
        "symbol's API names (KeyError: 'estimator' at import)",
        kind=API_ATTRS_ENTRY),
    compat.Shim(
        f"{_TF_EXPORT}.API_ATTRS_V1.estimator",
        f"{__name__}.API_NAME_ATTRIBUTES_V1",
        f"the same for the v1 API (tf.compat.v1.estimator): {_REMOVED} and "
        "the 'estimator' row of tf_export.API_ATTRS_V1",
        kind=API_ATTRS_ENTRY),
    compat.Shim(
        "tensorflow.python.distribute.estimator_training",
        "slim_ext.estimator.estimator_training",
        f"{_REMOVED} and distribute/estimator_training.py, which "
        "tensorflow_estimator's run_config, estimator and training modules "
        "import: RunConfig(train_distribute=...) and train_and_evaluate run "
        "multi-worker strategies through it; slim_ext re-implements it on "
        "TensorFlow's distribute coordinator, which 2.21 still ships",
        kind=compat.MODULE_ALIAS),
    compat.Shim(
        "tensorflow.python.tpu.tpu_embedding",
        "slim_ext.estimator.removed_tpu.tpu_embedding",
        f"the TPU embedding v1 library, {_TPU_REMOVED}; TPUEstimator's "
        "_tpu_estimator_embedding imports its seven optimizer parameter "
        f"classes at import (they are provided), the rest is {_TPU_ONLY}",
        kind=compat.MODULE_ALIAS),
    compat.Shim(
        "tensorflow.python.tpu.tpu_embedding_gradient",
        "slim_ext.estimator.removed_tpu.tpu_embedding_gradient",
        f"TPU embedding gradients, {_TPU_REMOVED}; imported by "
        f"tpu_estimator.py, {_TPU_ONLY} with TPU embedding tables",
        kind=compat.MODULE_ALIAS),
    compat.Shim(
        "tensorflow.python.tpu.session_support",
        "slim_ext.estimator.removed_tpu.session_support",
        f"the TPU worker watchdog, {_TPU_REMOVED}; imported by "
        f"tpu_estimator.py, {_TPU_ONLY} with TF_TPU_WATCHDOG_TIMEOUT set",
        kind=compat.MODULE_ALIAS),
    compat.Shim(
        "tensorflow_estimator.**: tf.keras, tf.compat.v1.keras, tf.compat.v2.keras",
        f"{keras2.KERAS_2_V2}, {keras2.KERAS_2_V1}, {keras2.KERAS_2_V2}",
        "TF >= 2.16 makes tf.keras Keras 3 unless TF_USE_LEGACY_KERAS is set; "
        "tensorflow-estimator 2.15 is written for Keras 2 (model_to_estimator: "
        "'keras.optimizers has no attribute experimental', set_learning_phase; "
        "canned estimators' Keras 2 layers, optimizers and metrics): its own "
        "modules import a TensorFlow whose keras is tf_keras, the user's "
        "tf.keras is left alone",
        kind=KERAS_2_VIEW),
    *(compat.Shim(
        f"{owner}.estimator",
        f"tensorflow_estimator.python.estimator.api.{version}.estimator",
        f"{_REMOVED}: TF 2.15's API modules lazily loaded the "
        f"{'v1' if version == '_v1' else 'v2'} API of the tensorflow-estimator "
        f"package as {owner.replace('tensorflow', 'tf', 1)}.estimator",
        kind=LAZY_API_MODULE) for owner, version in _API_MODULES.items()),
)

_applied: List[compat.Shim] = []


def _apply_api_attrs_entry(shim: compat.Shim) -> bool:
  """Adds the 'estimator' row to a tf_export API table when it has none."""
  table_path, _, api_name = shim.target.rpartition(".")
  module_name, _, table_name = table_path.rpartition(".")
  tf_export = importlib.import_module(module_name)
  table = getattr(tf_export, table_name)
  if api_name in table:
    return False
  names, constants = compat._resolve(shim.source)  # pylint: disable=protected-access
  # The row type is tf_export's own (a NamedTuple of names, constants).
  row_type = type(next(iter(table.values())))
  table[api_name] = row_type(names, constants)
  return True


def _apply_lazy_api_module(shim: compat.Shim) -> bool:
  """Sets a missing public ``tf...estimator`` to a LazyLoader of shim.source.

  The loader imports tensorflow_estimator on first attribute use, as TF 2.15's
  own ``_LazyLoader`` did, so ``import slim_ext`` stays cheap. Left alone when
  the attribute exists (TF 2.15) or tensorflow-estimator is not installed.
  """
  owner, name = compat._owner_and_name(shim.target)  # pylint: disable=protected-access
  if getattr(owner, name, None) is not None:
    return False
  if importlib.util.find_spec(shim.source.split(".")[0]) is None:
    return False
  lazy_loader = importlib.import_module("tensorflow.python.util.lazy_loader")
  # TFModuleWrapper (tf.compat.v1) wraps the module whose globals hold the name.
  module = getattr(owner, "_tfmw_wrapped_module", owner)
  setattr(owner, name, lazy_loader.LazyLoader(name, vars(module), shim.source))
  return True


def _tf_keras_is_keras_3() -> bool:
  """Tells whether ``tf.keras`` serves Keras 3, without loading it."""
  tf = importlib.import_module("tensorflow")
  keras_loader = vars(tf).get("keras")
  lazy_loader = importlib.import_module("tensorflow.python.util.lazy_loader")
  keras_loader_class = getattr(lazy_loader, "KerasLazyLoader", None)
  if keras_loader_class is None or not isinstance(keras_loader, keras_loader_class):
    return False  # TF 2.15: a plain LazyLoader of Keras 2
  return compat._routes_to_keras_3(vars(keras_loader))  # pylint: disable=protected-access


def _apply_keras_2_view(unused_shim: compat.Shim) -> bool:
  if not _tf_keras_is_keras_3():
    return False
  return keras2.install()


def apply_shim(shim: compat.Shim) -> bool:
  """Applies one estimator shim if its target is missing.

  Args:
    shim: one of SHIMS.

  Returns:
    True when the shim changed something; False when the target exists (it
    is never replaced) or its source is not installed.
  """
  if shim.kind == API_ATTRS_ENTRY:
    return _apply_api_attrs_entry(shim)
  if shim.kind == LAZY_API_MODULE:
    return _apply_lazy_api_module(shim)
  if shim.kind == KERAS_2_VIEW:
    return _apply_keras_2_view(shim)
  return compat.apply_shim(shim)


def apply() -> List[compat.Shim]:
  """Applies every estimator shim whose target is missing in this TensorFlow.

  Idempotent. Does nothing when tensorflow-estimator is not installed: then
  there is nothing to revive.

  Returns:
    The estimator shims applied in this process so far, in order.
  """
  if importlib.util.find_spec("tensorflow_estimator") is None:
    return list(_applied)
  for shim in SHIMS:
    if shim not in _applied and apply_shim(shim):
      _applied.append(shim)
  # Not a missing name, on every version: a cluster's tasks must not all write the
  # Keras model's first checkpoint (after the Keras 2 view: it finds keras_lib first).
  first_checkpoint.install()
  return list(_applied)


def applied() -> List[compat.Shim]:
  """Returns the estimator shims applied in this process so far."""
  return list(_applied)

