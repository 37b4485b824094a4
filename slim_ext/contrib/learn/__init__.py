"""tensorflow.contrib.learn: its Experiment launching on tf.estimator, and text preprocessing.

On tensorflow-estimator's Estimator (revived by slim_ext on TF >= 2.16):
``RunConfig`` (``run_config``: tf.contrib.learn's TF_CONFIG rules, a
tf.estimator.RunConfig), ``Experiment`` (``experiment``), ``learn_runner``
(``run``, ``tune``), ``ExportStrategy`` and ``make_export_strategy``
(``export_strategy``). ``preprocessing`` (VocabularyProcessor and friends) is
re-implemented. Everything but ``preprocessing`` loads TensorFlow and the
Estimator, so it is imported on first use.
"""
import importlib
from typing import Any

from slim_ext.contrib.learn import preprocessing

# Module -> the names tf.contrib.learn exported from it.
_LAZY_MODULES = {
    "run_config": ("RunConfig",),
    "experiment": ("Experiment",),
    "export_strategy": ("ExportStrategy", "make_export_strategy"),
    "learn_runner": (),
}
_LAZY_NAMES = {name: module for module, names in _LAZY_MODULES.items() for name in names}

__all__ = ["preprocessing", *_LAZY_MODULES, *_LAZY_NAMES]


def __getattr__(name: str) -> Any:
  if name in _LAZY_MODULES:
    return importlib.import_module(f"{__name__}.{name}")
  if name in _LAZY_NAMES:
    return getattr(importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}"), name)
  raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
