"""Makes tf_slim 1.1.0 (the last release, 2020) and TF1 code run on TensorFlow 2.15-2.21.

tf_slim reaches into TensorFlow-private modules (``tensorflow.python.*``) for
names that later TensorFlow releases moved to new modules, and TensorFlow's
own ``tensorflow/python/layers/normalization.py`` lazily imports
``tf_keras.legacy_tf_layers``, which tf_keras keeps under ``tf_keras.src``.
Every such name is in ``SHIMS`` (the table lives in ``slim_facts.shims``, where
``slimport verify`` reads it too), missing on both TF 2.15 and TF 2.21. On TF >= 2.16 with
Keras 3 installed, ``tf.compat.v1.layers`` and ``tf.compat.v1.nn.rnn_cell``
lead to Keras 3, which has no TF1 layers; two shims send them to tf_keras'
legacy layers instead. Each shim states the cause it fixes and acts only
when its name is missing or broken, so on a release that still has it (TF
2.15 with Keras 2) it does nothing.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import sys
import types
from typing import List, Optional, Tuple

from slim_facts import requirements
# The table and its kinds are part of this module's API (compat.SHIMS, compat.Shim).
from slim_facts.shims import ATTRIBUTE  # noqa: F401
from slim_facts.shims import LEGACY_KERAS_ROUTE
from slim_facts.shims import MODULE_ALIAS
from slim_facts.shims import SHIMS
from slim_facts.shims import Shim

_applied: List[Shim] = []


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
  """Imports ``old`` and ``old.sub...`` as the modules ``new`` and ``new.sub...``.

  It is installed only when the old name is missing, and first on
  sys.meta_path: otherwise the regular path finder would find ``old.sub``
  through the aliased package's ``__path__`` and load a second copy of it
  (two BatchNormalization classes, two layer-style flags). The module
  returned is the one loaded under the new name, so objects keep one identity.
  """

  def __init__(self, old: str, new: str):
    self._old = old
    self._new = new

  def _new_name(self, fullname: str) -> Optional[str]:
    if fullname == self._old or fullname.startswith(self._old + "."):
      return self._new + fullname[len(self._old):]
    return None

  def find_spec(self, fullname, path=None, target=None):
    new_name = self._new_name(fullname)
    new_spec = importlib.util.find_spec(new_name) if new_name else None
    if new_spec is None:
      return None
    return importlib.machinery.ModuleSpec(
        fullname, self,
        is_package=new_spec.submodule_search_locations is not None)

  def create_module(self, spec):
    return importlib.import_module(self._new_name(spec.name))

  def exec_module(self, module):
    # create_module returned the fully imported module under its new name.
    pass


def _import_optional(name: str) -> Optional[types.ModuleType]:
  try:
    return importlib.import_module(name)
  except ImportError:
    return None


def _resolve(dotted: str):
  """Returns the object a dotted ``module.attr`` name points to, or None."""
  module_name, _, attr = dotted.rpartition(".")
  module = _import_optional(module_name)
  return getattr(module, attr, None) if module is not None else None


def _module_exists(dotted: str) -> bool:
  """Tells whether a module can be found, without importing it (cheap)."""
  parent_name, _, child = dotted.rpartition(".")
  parent_spec = importlib.util.find_spec(parent_name)
  if parent_spec is None or parent_spec.submodule_search_locations is None:
    return False
  return importlib.machinery.PathFinder.find_spec(
      child, parent_spec.submodule_search_locations) is not None


def _apply_attribute(shim: Shim) -> bool:
  module_name, _, attr = shim.target.rpartition(".")
  module = importlib.import_module(module_name)
  try:
    getattr(module, attr)
    return False
  except AttributeError:
    pass
  except Exception:  # pylint: disable=broad-except
    # The module provides the name lazily (a module-level __getattr__) and
    # that failed for another reason: the name is not missing, leave it.
    return False
  replacement = _resolve(shim.source)
  if replacement is None:
    return False
  setattr(module, attr, replacement)
  return True


def _apply_module_alias(shim: Shim) -> bool:
  if shim.target in sys.modules or _module_exists(shim.target):
    return False
  if not _module_exists(shim.source):
    return False
  sys.meta_path.insert(0, _AliasFinder(shim.target, shim.source))
  return True


def _owner_and_name(dotted: str) -> Tuple[object, str]:
  """The object holding a public TF name (``tf.compat.v1.nn``) and the name.

  Walked by attribute from ``tensorflow``: importing ``tensorflow.compat.v1.nn``
  as a module would load a second copy of the API package.
  """
  parts = dotted.split(".")
  owner = importlib.import_module(parts[0])
  for part in parts[1:-1]:
    owner = getattr(owner, part)
  return owner, parts[-1]


def _routes_to_keras_3(loader_state: dict) -> bool:
  """Tells whether a KerasLazyLoader, from its state, serves Keras 3 (or nothing).

  The same decision KerasLazyLoader makes on first use, taken without making
  it (which would import Keras 3 just to look).
  """
  if loader_state.get("_tfll_initialized"):
    # Initialized: the version it chose, or none when Keras failed to import.
    return loader_state.get("_tfll_keras_version") in ("keras_3", None)
  if os.environ.get("TF_USE_LEGACY_KERAS") in ("true", "True", "1"):
    return False
  try:
    return importlib.metadata.version("keras").startswith("3.")
  except importlib.metadata.PackageNotFoundError:
    return True  # TensorFlow would raise "Keras cannot be imported".


def _apply_legacy_keras_route(shim: Shim) -> bool:
  """Makes the loader at shim.target serve shim.source, as TF_USE_LEGACY_KERAS would.

  The loader object is changed in place rather than replaced, so references
  taken before slim_ext was imported (``from tensorflow.compat.v1 import
  layers``) work too. It stays lazy: tf_keras' API module is imported on
  first use.
  """
  lazy_loader = importlib.import_module("tensorflow.python.util.lazy_loader")
  keras_loader_class = getattr(lazy_loader, "KerasLazyLoader", None)
  owner, name = _owner_and_name(shim.target)
  loader = getattr(owner, name, None)
  if keras_loader_class is None or not isinstance(loader, keras_loader_class):
    return False
  state = vars(loader)
  if "_tfll_parent_module_globals" not in state or not _routes_to_keras_3(state):
    return False
  if not _module_exists(shim.source):
    return False
  point_keras_loader_at(loader, name, shim.source)
  # ``from tensorflow.compat.v1.layers import dense`` imports by path: search
  # tf_keras' directory first, as TensorFlow's own __init__ does for tf_keras.
  search_parent_first(owner, shim.source)
  # ``import tensorflow.compat.v1.nn.rnn_cell`` would load TensorFlow's own module
  # and rebind the attribute to it, undoing the route for the whole program: the
  # import finds the routed loader instead (unless the program imported it first).
  sys.modules.setdefault(shim.target, loader)
  return True


def point_keras_loader_at(loader: types.ModuleType, name: str, source: str) -> None:
  """Makes a TensorFlow KerasLazyLoader load ``source`` (a tf_keras module) on first use.

  What the loader does for itself when TF_USE_LEGACY_KERAS is set, decided now.

  Args:
    loader: a ``tensorflow.python.util.lazy_loader.KerasLazyLoader``.
    name: the attribute it stands in for (``keras``, ``layers``, ...).
    source: the dotted name of the module it is to load.
  """
  lazy_loader = importlib.import_module("tensorflow.python.util.lazy_loader")
  state = vars(loader)
  lazy_loader.LazyLoader.__init__(
      loader, state.get("_tfll_name", name), state["_tfll_parent_module_globals"], source)
  loader._tfll_keras_version = "tf_keras"  # pylint: disable=protected-access
  loader._tfll_initialized = True  # pylint: disable=protected-access


def search_parent_first(owner: types.ModuleType, source: str) -> None:
  """Puts the directory holding module ``source`` first on ``owner.__path__``.

  ``from tensorflow.keras import layers`` imports by path: TensorFlow's own
  ``__init__`` puts the directory of the Keras it chose first on its
  ``__path__``; this does the same for tf_keras, once TensorFlow is imported.

  Args:
    owner: a TensorFlow API package (``tensorflow``, ``tensorflow.compat.v1``).
    source: the dotted name of a tf_keras module, found through its parent.
  """
  source_dirs = list(importlib.util.find_spec(source.rpartition(".")[0])
                     .submodule_search_locations)
  owner.__path__ = source_dirs + [
      entry for entry in owner.__path__ if entry not in source_dirs]


def apply_shim(shim: Shim) -> bool:
  """Applies one shim if its target is missing and its source exists.

  Args:
    shim: the Shim to apply.

  Returns:
    True when the shim changed something; False when the target already
    exists and works (it is never replaced) or the source is not there either.
  """
  if shim.kind == MODULE_ALIAS:
    return _apply_module_alias(shim)
  if shim.kind == LEGACY_KERAS_ROUTE:
    return _apply_legacy_keras_route(shim)
  return _apply_attribute(shim)


def _check_requirements() -> None:
  """Raises ImportError naming the pip package when a requirement is missing."""
  if importlib.util.find_spec("tensorflow") is None:
    raise ImportError(
        "slim_ext: TensorFlow is not installed; slim_ext runs tf_slim on "
        f"TensorFlow 2.15-2.21. Fix: {requirements.pip_install_line()}")
  if importlib.util.find_spec("tf_keras") is not None:
    return
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  major_minor = ".".join(tf.__version__.split(".")[:2])
  raise ImportError(
      "slim_ext: tf_keras is not installed. On TensorFlow "
      f"{tf.__version__}, slim.batch_norm (and every tf_slim net that uses "
      "it: resnet, inception, ...) is built on tf_keras's legacy layers "
      "(tensorflow/python/layers/normalization.py imports tf_keras). "
      f"Fix: pip install 'tf-keras=={major_minor}.*'")


def apply() -> List[Shim]:
  """Applies every shim whose target is missing in this TensorFlow.

  Idempotent and cheap after the first call: a target that exists (because
  TensorFlow still has it, or an earlier call set it) is left alone.

  Returns:
    The shims applied in this process so far, in application order.

  Raises:
    ImportError: TensorFlow or tf_keras is not installed (the message names
      the pip package to install, matching the installed TensorFlow).
  """
  _check_requirements()
  for shim in SHIMS:
    if shim not in _applied and apply_shim(shim):
      _applied.append(shim)
  return list(_applied)


def applied() -> List[Shim]:
  """Returns the shims applied in this process so far (for the doctor)."""
  return list(_applied)
