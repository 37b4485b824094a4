"""tensorflow.contrib.framework's deprecation decorators.

``tf.contrib.framework.deprecated`` (and ``deprecated_args``,
``deprecated_arg_values``) were TensorFlow's own decorators from
``tensorflow/python/util/deprecation.py``, re-exported. TensorFlow 2 still has
them there but exports none publicly, so this module re-exports the same
functions: decorated code logs the same "is deprecated and will be removed
after ..." warnings and keeps working.
"""
from tensorflow.python.util.deprecation import (  # pylint: disable=g-direct-tensorflow-import
    deprecated,
    deprecated_arg_values,
    deprecated_args,
)

__all__ = ["deprecated", "deprecated_arg_values", "deprecated_args"]
