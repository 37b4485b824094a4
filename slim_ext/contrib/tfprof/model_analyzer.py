"""tensorflow.contrib.tfprof.model_analyzer, forwarded to tf.compat.v1.profiler.

The option constants are the option dicts TF1 defined (``profile`` still reads
every key, ``dump_to_file`` included); they are plain dicts, because TF1 code
edits them in place before use (e.g. ``opts['trim_name_regexes'] = [...]``).
"""
from typing import Any, Dict

import tensorflow as tf
from tensorflow.python.profiler import model_analyzer as tf_model_analyzer  # pylint: disable=g-direct-tensorflow-import
from tensorflow.python.profiler import tfprof_logger  # pylint: disable=g-direct-tensorflow-import

ALL_ADVICE = tf_model_analyzer.ALL_ADVICE
Profiler = tf.compat.v1.profiler.Profiler

# 0 tells tf.compat.v1.profiler to use its defaults, as it told contrib.tfprof.
_DEFAULT_PROFILE_OPTIONS = 0
_DEFAULT_ADVISE_OPTIONS = 0


def _options(**overrides: Any) -> Dict[str, Any]:
  """One of TF1's option dicts: every op shown, selected and ordered as given."""
  options = {
      "max_depth": 10000, "min_bytes": 0, "min_micros": 0, "min_params": 0,
      "min_float_ops": 0, "order_by": "name", "account_type_regexes": [".*"],
      "start_name_regexes": [".*"], "trim_name_regexes": [], "show_name_regexes": [".*"],
      "hide_name_regexes": [], "account_displayed_op_only": True, "output": "stdout",
      "dump_to_file": "",
  }
  options.update(overrides)
  return options


# Parameter counts of the trainable variables.
TRAINABLE_VARS_PARAMS_STAT_OPTIONS = _options(
    account_type_regexes=[tfprof_logger.TRAINABLE_VARIABLES], select=["params"])
# Floating point operations of every op that has a registered count.
FLOAT_OPS_OPTIONS = _options(min_float_ops=1, order_by="float_ops", select=["float_ops"])
# Time and memory of every op that took any (needs run_meta).
PRINT_ALL_TIMING_MEMORY = _options(min_bytes=1, min_micros=1, select=["micros", "bytes"])


def print_model_analysis(graph: Any, run_meta: Any = None, op_log: Any = None,
                         tfprof_cmd: str = "scope",
                         tfprof_options: Any = _DEFAULT_PROFILE_OPTIONS) -> Any:
  """Prints (per the options' ``output``) and returns the profile of ``graph``.

  Args:
    graph: the tf.Graph.
    run_meta: optional RunMetadata of a step, for time and memory.
    op_log: optional OpLogProto with extra op information.
    tfprof_cmd: 'scope', 'graph', 'code' or 'op'.
    tfprof_options: an option dict (e.g. TRAINABLE_VARS_PARAMS_STAT_OPTIONS).

  Returns:
    The profile proto of tf.compat.v1.profiler.profile (its
    ``total_parameters``, ``total_float_ops``, ... as in TF1).
  """
  return tf.compat.v1.profiler.profile(graph, run_meta, op_log, tfprof_cmd, tfprof_options)


def advise(graph: Any, run_meta: Any = None,
           tfprof_options: Any = _DEFAULT_ADVISE_OPTIONS) -> Any:
  """tf.compat.v1.profiler.advise under its contrib name."""
  return tf.compat.v1.profiler.advise(graph, run_meta, tfprof_options)
