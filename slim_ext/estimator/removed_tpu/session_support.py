"""``tensorflow.python.tpu.session_support`` for TPUEstimator's import on TF >= 2.16.

TF <= 2.15 had TPU worker heartbeats and a watchdog here; TPUEstimator calls
``start_worker_watchdog`` only on a TPU with ``TF_TPU_WATCHDOG_TIMEOUT`` set.
"""
from slim_ext.estimator.removed_tpu import missing_tpu_names

__getattr__ = missing_tpu_names(
    "tensorflow.python.tpu.session_support", "the TPU worker watchdog")
