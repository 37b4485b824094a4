"""``tf.keras`` as Keras 2 (tf_keras) in this process, as ``TF_USE_LEGACY_KERAS=1`` makes it.

Code written for TensorFlow <= 2.15 (TF1 graph code, Estimator model_fns,
``model_to_estimator``, a ``tf.compat.v1.train`` optimizer passed to
``compile``, ``tf.keras.backend.set_learning_phase``) needs Keras 2; TensorFlow
>= 2.16 serves ``tf.keras`` from Keras 3 unless ``TF_USE_LEGACY_KERAS`` is set.
TensorFlow reads that variable twice, and both times may be past when a ported
module runs:

* when ``import tensorflow`` runs: it then puts the chosen Keras' directory
  first on ``tensorflow.__path__`` (and ``tensorflow.compat.v1``'s), which is
  where ``from tensorflow.keras import layers`` imports from;
* when each of its lazy Keras loaders (``tf.keras``, ``tf.compat.v1.keras``,
  ``tf.compat.v2.keras``, TF2's ``tf.losses`` / ``metrics`` / ``optimizers`` /
  ``initializers``) is first used; the loader then replaces itself with the
  module it loaded.

A module is often imported after TensorFlow (by pytest, by a script that
imported TensorFlow first, by ``slim_ext`` itself), and sometimes after Keras 3
was used. So importing this module does what setting the variable before
TensorFlow's import would have done, now: every such loader, used or not, serves
tf_keras' module, the directories ``from tensorflow.keras import ...`` searches
start with tf_keras', Keras 3 modules imported under a TensorFlow name are
forgotten (the next import finds tf_keras'), and the variable is set for what
reads it later (TensorFlow's own checks, processes started from this one).
Objects already taken from Keras 3 stay what they are.

Nothing changes where ``tf.keras`` is not Keras 3: TF 2.15 (Keras 2 already), or
the variable set before TensorFlow was imported.

Example:
  import slim_ext.legacy_keras  # noqa: F401  (tf.keras is Keras 2 from here on)
  import tensorflow as tf
  model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(0.001), loss='mse')
"""
import importlib
import importlib.metadata
import importlib.util
import os
import sys
import types
from pathlib import Path
from typing import List, Optional, Tuple

from slim_ext import compat
from slim_ext.estimator.keras2 import KERAS_2_V1
from slim_ext.estimator.keras2 import KERAS_2_V2

SWITCH = "TF_USE_LEGACY_KERAS"
# TensorFlow's API roots (relative to ``tensorflow``) that hold lazy Keras
# loaders, and whether each is a v1 root.
_API_ROOTS = (("", False), ("compat.v1", True), ("compat.v2", False),
              ("compat.v1.compat.v1", True), ("compat.v1.compat.v2", False),
              ("compat.v2.compat.v1", True), ("compat.v2.compat.v2", False))
# TF2's own modules that TensorFlow serves from Keras (v2 roots only).
_V2_KERAS_MODULES = ("losses", "metrics", "optimizers", "initializers")


def routes() -> List[Tuple[str, str, bool]]:
  """What this module points where.

  Returns:
    (TensorFlow attribute path, tf_keras module, whether ``from ... import``
    searches its directory) for every lazy Keras loader TensorFlow >= 2.16 makes.
  """
  found = []
  for root, is_v1 in _API_ROOTS:
    prefix = f"tensorflow.{root}." if root else "tensorflow."
    keras = KERAS_2_V1 if is_v1 else KERAS_2_V2
    found.append((prefix + "keras", keras, True))
    if not is_v1:
      found += [(prefix + name, f"{keras}.{name}", False) for name in _V2_KERAS_MODULES]
  return found


def _keras_3_directory() -> Optional[Path]:
  """The directory of an installed Keras 3, or None."""
  try:
    if not importlib.metadata.version("keras").startswith("3."):
      return None
  except importlib.metadata.PackageNotFoundError:
    return None
  return Path(importlib.util.find_spec("keras").submodule_search_locations[0])


def _is_keras_3_module(value: object, keras_3: Path) -> bool:
  location = getattr(value, "__file__", None) if isinstance(value, types.ModuleType) else None
  return location is not None and keras_3 in Path(location).parents


def _is_loader(value: object) -> bool:
  lazy_loader = importlib.import_module("tensorflow.python.util.lazy_loader")
  return isinstance(value, lazy_loader.KerasLazyLoader)


def _serves_keras_3(value: object, keras_3: Path) -> bool:
  """Tells whether a TensorFlow attribute gives Keras 3 (a loader: without loading it)."""
  if _is_loader(value):
    return compat._routes_to_keras_3(vars(value))  # pylint: disable=protected-access
  return _is_keras_3_module(value, keras_3)


def _route(target: str, source: str, searched: bool, keras_3: Path) -> bool:
  """Points one TensorFlow attribute at a tf_keras module, if it gives Keras 3."""
  owner, name = compat._owner_and_name(target)  # pylint: disable=protected-access
  value = vars(getattr(owner, "_tfmw_wrapped_module", owner)).get(name)
  if not _serves_keras_3(value, keras_3):
    return False
  if _is_loader(value):
    compat.point_keras_loader_at(value, name, source)
  else:
    # Used already: the loader put Keras 3's module in its place.
    setattr(owner, name, importlib.import_module(source))
  if searched:
    compat.search_parent_first(owner, source)
  return True


def use_keras_2() -> bool:
  """Makes ``tf.keras`` and TensorFlow's other Keras names tf_keras' in this process.

  Idempotent.

  Returns:
    True when something was changed; False when ``tf.keras`` was not Keras 3
    (TF 2.15, the variable set before TensorFlow's import, an earlier call).
  """
  keras_3 = _keras_3_directory()
  tf = importlib.import_module("tensorflow")
  if keras_3 is None or not _serves_keras_3(vars(tf).get("keras"), keras_3):
    return False
  changed = [target for target, source, searched in routes()
             if _route(target, source, searched, keras_3)]
  # ``from tensorflow.keras import layers`` after a Keras 3 one: import again.
  for name, module in list(sys.modules.items()):
    if name.startswith("tensorflow.") and _is_keras_3_module(module, keras_3):
      del sys.modules[name]
  os.environ[SWITCH] = "1"
  return bool(changed)


use_keras_2()
