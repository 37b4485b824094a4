"""The names ``import slim_ext`` restores: what tf_slim 1.1.0 and TF1 code reach for
that TensorFlow 2.15+ moved, and where each lives now.

``slim_ext.compat`` applies these shims (each only where its target is missing or
broken); ``slimport verify`` reads them to tell a failure that ``import slim_ext``
fixes. Plain data, so the tool reads it without importing TensorFlow. Every target
below is missing on both TF 2.15 and TF 2.21 (checked against tensorflow 2.15.1 /
tf_keras 2.15.1 and 2.21.0 / 2.21.0).
"""
import dataclasses

ATTRIBUTE = "attribute"
MODULE_ALIAS = "module alias"
LEGACY_KERAS_ROUTE = "legacy Keras route"


@dataclasses.dataclass(frozen=True)
class Shim:
    """One missing name that tf_slim uses, and where it lives now.

    Attributes:
      target: dotted name tf_slim (or TensorFlow on its behalf) looks up, e.g.
        ``tensorflow.python.framework.ops.Tensor``.
      source: dotted name of the object that now provides it.
      cause: why the target is missing (which release moved it, who uses it).
      kind: ATTRIBUTE (set a missing attribute on a module), MODULE_ALIAS
        (make a missing module importable under its old name) or
        LEGACY_KERAS_ROUTE (point a tf.compat.v1 name that TensorFlow routes to
        Keras 3 at the tf_keras module it names when TF_USE_LEGACY_KERAS is set).
    """
    target: str
    source: str
    cause: str
    kind: str = ATTRIBUTE

    def __str__(self) -> str:
        return f"{self.target} -> {self.source} ({self.cause})"


SHIMS = (
    Shim("tensorflow.python.framework.ops.Tensor",
         "tensorflow.python.framework.tensor.Tensor",
         "TF >= 2.15 defines Tensor in framework/tensor.py, not ops; tf_slim's "
         "optimizers, rev_block_lib and layers.utils isinstance-check ops.Tensor"),
    Shim("tensorflow.python.framework.ops.IndexedSlices",
         "tensorflow.python.framework.indexed_slices.IndexedSlices",
         "TF >= 2.15 no longer re-exports IndexedSlices from ops; "
         "tf_slim.layers.optimizers clips and summarizes IndexedSlices "
         "gradients through it"),
    Shim("tensorflow.python.ops.array_ops.stack",
         "tensorflow.python.ops.array_ops_stack.stack",
         "TF >= 2.15 defines stack in ops/array_ops_stack.py; used by "
         "TFExampleDecoder, layers and streaming metrics"),
    Shim("tensorflow.python.ops.array_ops.unstack",
         "tensorflow.python.ops.array_ops_stack.unstack",
         "TF >= 2.15 defines unstack in ops/array_ops_stack.py; used by "
         "tf_slim.layers"),
    Shim("tensorflow.python.ops.control_flow_ops.cond",
         "tensorflow.python.ops.cond.cond",
         "TF >= 2.15 defines cond in ops/cond.py; used by TFExampleDecoder, "
         "layers.utils.smart_cond and streaming metrics"),
    Shim("tensorflow.python.ops.control_flow_ops.case",
         "tensorflow.python.ops.control_flow_case.case",
         "TF >= 2.15 defines case in ops/control_flow_case.py; used by "
         "TFExampleDecoder's image decoding"),
    Shim("tensorflow.python.ops.control_flow_ops.while_loop",
         "tensorflow.python.ops.while_loop.while_loop",
         "TF >= 2.15 defines while_loop in ops/while_loop.py; used by "
         "tf_slim.losses.metric_learning"),
    Shim("tensorflow.python.ops.control_flow_ops.Assert",
         "tensorflow.python.ops.control_flow_assert.Assert",
         "TF >= 2.15 defines Assert in ops/control_flow_assert.py; used by "
         "tf_slim.metrics.histogram_ops"),
    Shim("tensorflow.python.ops.variable_scope.variable",
         "tensorflow.python.ops.variable_v1.VariableV1",
         "TF >= 2.15 has no variable_scope.variable (its old body was "
         "VariableV1(...)); slim.local_variable and slim.global_variable, "
         "hence streaming metrics, call it"),
    Shim("tf_keras.legacy_tf_layers",
         "tf_keras.src.legacy_tf_layers",
         "tensorflow/python/layers/normalization.py lazily imports "
         "tf_keras.legacy_tf_layers.normalization, which tf_keras >= 2.15 "
         "keeps under tf_keras.src; slim.batch_norm builds on it",
         kind=MODULE_ALIAS),
    Shim("tensorflow.compat.v1.layers",
         "tf_keras.api._v1.keras.__internal__.legacy.layers",
         "TF >= 2.16 routes tf.compat.v1.layers to Keras 3 when it is installed "
         "(KerasLazyLoader in tensorflow/python/util/lazy_loader.py) unless "
         "TF_USE_LEGACY_KERAS is set, and Keras 3 has no TF1 layers: "
         "'`dense` is not available with Keras 3'; TF1 code builds with "
         "tf.layers.dense/conv2d/batch_normalization and subclasses tf.layers.Layer",
         kind=LEGACY_KERAS_ROUTE),
    Shim("tensorflow.compat.v1.nn.rnn_cell",
         "tf_keras.api._v1.keras.__internal__.legacy.rnn_cell",
         "the same Keras 3 routing as tf.compat.v1.layers: "
         "'`LSTMCell` is not available with Keras 3'; TF1 sequence models build "
         "on tf.nn.rnn_cell.LSTMCell/GRUCell/MultiRNNCell",
         kind=LEGACY_KERAS_ROUTE),
)

