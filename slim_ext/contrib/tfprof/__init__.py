"""tensorflow.contrib.tfprof: the TF1 profiler entry points, on tf.compat.v1.profiler.

contrib.tfprof became ``tf.profiler`` in TF 1.3 and stayed as a thin forward;
TensorFlow 2 keeps the profiler as ``tf.compat.v1.profiler``. These modules
forward the old names (``model_analyzer.print_model_analysis`` and its option
dicts, ``tfprof_logger.write_op_log``) to it; ``ProfileContext``, which TF1
re-exported here from a module TensorFlow 2 dropped, is written again on it.
"""
from slim_ext.contrib.tfprof import model_analyzer, tfprof_logger
from slim_ext.contrib.tfprof.profile_context import ProfileContext

__all__ = ["model_analyzer", "tfprof_logger", "ProfileContext"]
