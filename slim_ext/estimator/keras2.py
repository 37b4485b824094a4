"""tensorflow-estimator's own modules see Keras 2 (tf_keras) as ``tf.keras``.

tensorflow-estimator 2.15 was written for TensorFlow <= 2.15, where ``tf.keras``
is Keras 2: ``model_to_estimator`` checks ``tf.keras.optimizers.experimental``,
calls ``tf.keras.backend.set_learning_phase`` and clones models with
``tf.compat.v2.keras.__internal__``; the canned estimators build Keras 2 layers,
optimizers and metrics in graph mode. TensorFlow >= 2.16 makes ``tf.keras``
Keras 3 (unless TF_USE_LEGACY_KERAS is set before first use), which has none of
these. Setting that variable would change ``tf.keras`` for the user's code too;
instead, each module of the ``tensorflow_estimator`` package is imported with an
``import`` that gives it a view of TensorFlow in which ``keras``,
``compat.v1.keras`` and ``compat.v2.keras`` are tf_keras' API (the modules
TF_USE_LEGACY_KERAS would pick) and every other name is TensorFlow's own
object. ``tf.keras`` outside tensorflow_estimator is untouched.
"""
from __future__ import annotations

import builtins
import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from typing import Any, Callable, Dict, Optional

# What TF_USE_LEGACY_KERAS makes tf.keras and tf.compat.v1.keras (re-exported here).
from slim_facts.keras_route import KERAS_2_V1, KERAS_2_V2  # noqa: F401

PACKAGE = "tensorflow_estimator"


class TensorFlowView(types.ModuleType):
  """A TensorFlow API module in which some names are given other objects.

  Every other attribute is looked up on the real module once and kept.
  """

  def __init__(self, real: types.ModuleType,
               replacements: Dict[str, Callable[[], Any]]):
    super().__init__(real.__name__, real.__doc__)
    self.__dict__["_slim_ext_real"] = real
    self.__dict__["_slim_ext_replacements"] = replacements

  def __getattr__(self, name: str) -> Any:
    replacement = self._slim_ext_replacements.get(name)
    value = replacement() if replacement else getattr(self._slim_ext_real, name)
    self.__dict__[name] = value
    return value

  def __repr__(self) -> str:
    return f"<TensorFlow {self.__name__} as tensorflow-estimator 2.15 saw it>"


def _module(name: str) -> Callable[[], types.ModuleType]:
  return lambda: importlib.import_module(name)


def _tensorflow_view() -> TensorFlowView:
  tf = importlib.import_module("tensorflow")
  compat = TensorFlowView(tf.compat, {
      "v1": lambda: TensorFlowView(tf.compat.v1, {"keras": _module(KERAS_2_V1)}),
      "v2": lambda: TensorFlowView(tf.compat.v2, {"keras": _module(KERAS_2_V2)}),
  })
  return TensorFlowView(tf, {"keras": _module(KERAS_2_V2),
                             "compat": lambda: compat})


_view: Optional[TensorFlowView] = None


def _import_with_keras_2(name, globals=None, locals=None, fromlist=(), level=0):  # pylint: disable=redefined-builtin
  """``__import__`` for tensorflow_estimator: ``import tensorflow`` gives the view."""
  module = builtins.__import__(name, globals, locals, fromlist, level)
  if level == 0 and not fromlist and name.partition(".")[0] == "tensorflow":
    global _view
    if _view is None:
      _view = _tensorflow_view()
    return _view
  return module


_BUILTINS = dict(vars(builtins), __import__=_import_with_keras_2)


class HookedLoader(importlib.abc.Loader):
  """Runs a module with the loader that found it, with a hook before and after.

  Args:
    loader: the loader the import system found.
    before: called with the new module before its code runs.
    after: called with the module once its code has run.
  """

  def __init__(self, loader: importlib.abc.Loader,
               before: Callable[[types.ModuleType], None] = lambda module: None,
               after: Callable[[types.ModuleType], None] = lambda module: None):
    self._loader = loader
    self._before = before
    self._after = after

  def create_module(self, spec):
    return self._loader.create_module(spec)

  def exec_module(self, module):
    self._before(module)
    self._loader.exec_module(module)
    self._after(module)

  def __getattr__(self, name: str) -> Any:
    # get_source, get_code, is_package, ...: the file loader's own.
    return getattr(self._loader, name)


def _with_keras_2_imports(module: types.ModuleType) -> None:
  """A tensorflow_estimator module runs with the ``__import__`` above."""
  module.__dict__["__builtins__"] = _BUILTINS


class Keras2Finder(importlib.abc.MetaPathFinder):
  """Finds tensorflow_estimator's modules as usual and loads them with the view."""

  def find_spec(self, fullname, path=None, target=None):
    if fullname != PACKAGE and not fullname.startswith(PACKAGE + "."):
      return None
    spec = importlib.machinery.PathFinder.find_spec(fullname, path)
    if spec is not None and spec.loader is not None:
      spec.loader = HookedLoader(spec.loader, before=_with_keras_2_imports)
    return spec


def install() -> bool:
  """Makes tensorflow_estimator modules imported from now on see Keras 2.

  Returns:
    False when already installed.
  """
  if any(isinstance(finder, Keras2Finder) for finder in sys.meta_path):
    return False
  sys.meta_path.insert(0, Keras2Finder())
  return True
