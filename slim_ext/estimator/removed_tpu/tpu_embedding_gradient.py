"""``tensorflow.python.tpu.tpu_embedding_gradient`` for TPUEstimator on TF >= 2.16.

TF <= 2.15 routed TPU embedding gradients through dummy table variables here;
TPUEstimator calls it only on a TPU with embedding tables.
"""
from slim_ext.estimator.removed_tpu import missing_tpu_names

__getattr__ = missing_tpu_names(
    "tensorflow.python.tpu.tpu_embedding_gradient",
    "the TPU embedding v1 gradient path")
