"""tensorflow.contrib.tfprof.tfprof_logger: write_op_log, from tf.compat.v1.profiler."""
import tensorflow as tf

write_op_log = tf.compat.v1.profiler.write_op_log

__all__ = ["write_op_log"]
