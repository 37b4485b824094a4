"""tensorflow.contrib.learn: its RunConfig and text preprocessing; stand-ins for the rest.

``RunConfig`` (``slim_ext.contrib.learn.run_config``, the home of
``tensorflow.contrib.learn.python.learn.run_config``) is tf.contrib.learn's
RunConfig on tensorflow-estimator's; ``preprocessing`` (VocabularyProcessor and
friends) is re-implemented. ``Experiment`` is a stand-in that raises
RemovedInTF2Error when used. ``run_config`` loads TensorFlow and the Estimator,
so it is imported on first use.
"""
import importlib
from typing import Any

from slim_ext.contrib import Experiment
from slim_ext.contrib.learn import preprocessing

__all__ = ["Experiment", "RunConfig", "preprocessing", "run_config"]


def __getattr__(name: str) -> Any:
  if name == "run_config":
    return importlib.import_module(f"{__name__}.run_config")
  if name == "RunConfig":
    return importlib.import_module(f"{__name__}.run_config").RunConfig
  raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
