"""Modules TensorFlow removed after 2.15 that TPUEstimator imports, for TF >= 2.16.

tensorflow-estimator 2.15's ``tpu_estimator.py`` and ``_tpu_estimator_embedding.py``
import three ``tensorflow.python.tpu`` modules at import time, and
``tf.compat.v1.estimator`` imports TPUEstimator, so without them no estimator
API loads. Only TPU runs (with TPU embedding tables, or the worker watchdog)
use what is in them. What an estimator user builds on a CPU or GPU from them
(the embedding optimizer parameters of ``EmbeddingConfigSpec``) is provided;
what only runs on a TPU needs the TPU embedding v1 library, which TensorFlow
no longer has: asking for it raises AttributeError naming that cause.
"""
from typing import Any, Callable


def missing_tpu_names(module_name: str, what: str) -> Callable[[str], Any]:
  """A module ``__getattr__`` that explains why a TPU-only name is absent.

  Args:
    module_name: the removed TensorFlow module the stand-in replaces.
    what: what the module did, for the message.

  Returns:
    The ``__getattr__`` function.
  """
  def __getattr__(name: str) -> Any:
    raise AttributeError(
        f"{module_name}.{name}: {what} was removed from TensorFlow after "
        "2.15 and exists only on a TPU runtime of TF <= 2.15; slim_ext "
        "revives tensorflow-estimator on CPUs and GPUs (TPUEstimator with "
        "use_tpu=False), not TPU embedding. Fix: run TPU jobs on "
        "tensorflow==2.15.*.")

  return __getattr__
