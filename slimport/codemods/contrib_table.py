"""Where each ``tf.contrib`` symbol lives after TensorFlow 1: the one table.

Keys are names relative to ``tensorflow.contrib`` (``framework.arg_scope``). A value is
a ``Home``: a module that exists on TensorFlow 2.21 with tf_slim 1.1.0 installed, and
the attribute path inside it. ``tf_slim`` is the maintained copy of the contrib code
slim used, so it is preferred where it has the symbol with the same signature;
``tensorflow.compat.v1`` is used for symbols that moved into core TensorFlow.
``slim_ext.contrib`` stand-ins mark features with no TF2 home: the ported file still
imports, and the call raises an error that names the alternative.

tests/slimport/codemods/test_contrib_symbols.py imports every home with real TensorFlow
to prove each target exists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, Optional

TF_SLIM = "tf_slim"
COMPAT_V1 = "tensorflow.compat.v1"
STAND_INS = "slim_ext.contrib"
# Re-implemented contrib modules live in submodules of slim_ext.contrib that mirror
# them (slim_ext.contrib.image, ...); their symbols work, they are not stand-ins.
SLIM_EXT_CONTRIB = STAND_INS


@dataclass(frozen=True)
class Home:
    """The new location of one contrib symbol: ``package`` plus ``attribute`` path."""

    package: str
    attribute: str
    # For stand-ins: what to use instead, shown in the report.
    alternative: str = ""
    # Where ``from ... import`` finds it, when that differs from the attribute path.
    import_module: str = ""

    @property
    def is_stand_in(self) -> bool:
        return self.package == STAND_INS

    @property
    def dotted(self) -> str:
        return f"{self.package}.{self.attribute}"

    @property
    def import_from(self) -> str:
        """The module a ``from <module> import <name>`` of this symbol names."""
        return self.import_module or self.dotted.rpartition(".")[0]

    @property
    def name(self) -> str:
        return self.attribute.rpartition(".")[2]


def _same_name(package: str, module: str, names: Iterable[str], inside: str = "",
               import_module: str = "") -> Dict[str, Home]:
    """``module.<name>`` -> ``package.<inside><name>`` for each name."""
    return {f"{module}.{name}": Home(package, f"{inside}{name}", import_module=import_module)
            for name in names}


def _renamed(package: str, pairs: Dict[str, str]) -> Dict[str, Home]:
    return {contrib: Home(package, attribute) for contrib, attribute in pairs.items()}


def _stand_in(contrib: str, stand_in: str, alternative: str) -> Dict[str, Home]:
    return {contrib: Home(STAND_INS, stand_in, alternative)}


_QAT = ("quantization-aware training in tensorflow-model-optimization "
        "(tfmot.quantization.keras.quantize_model)")
_ESTIMATOR = ("tf.estimator is gone in TF 2.21: use the compat.v1 training loop "
              "(tf_slim.learning.train) or a tf.distribute strategy")

TABLE: Dict[str, Home] = {
    # tf.contrib.framework: arg scopes and variable helpers went to tf_slim unchanged.
    **_same_name(TF_SLIM, "framework", [
        "arg_scope", "add_arg_scope", "has_arg_scope", "arg_scoped_arguments",
        "current_arg_scope", "arg_scope_func_key",
        "add_model_variable", "assert_or_get_global_step", "assign_from_checkpoint",
        "assign_from_checkpoint_fn", "assign_from_values", "assign_from_values_fn",
        "filter_variables", "get_local_variables", "get_model_variables",
        "get_trainable_variables", "get_unique_variable", "get_variable_full_name",
        "get_variables", "get_variables_by_name", "get_variables_by_suffix",
        "get_variables_to_restore", "global_variable", "local_variable",
        "model_variable", "variable", "VariableDeviceChooser",
    ]),
    # Global-step helpers are core TF1 API, kept in compat.v1.
    **_same_name(COMPAT_V1, "framework", [
        "get_or_create_global_step", "get_global_step", "create_global_step",
        "assert_global_step", "list_variables", "load_variable", "load_checkpoint",
        "init_from_checkpoint",
    ], inside="train."),
    **_same_name(COMPAT_V1, "framework", [
        "nest", "is_tensor", "argsort", "sort", "convert_to_tensor_or_sparse_tensor",
    ]),
    # tf.contrib.layers: slim's layers, initializers, regularizers, optimize_loss.
    **_same_name(TF_SLIM, "layers", [
        "avg_pool2d", "avg_pool3d", "batch_norm", "bias_add", "conv1d", "conv2d",
        "conv2d_in_plane", "conv2d_transpose", "conv3d", "conv3d_transpose",
        "convolution", "convolution1d", "convolution2d", "convolution2d_in_plane",
        "convolution2d_transpose", "convolution3d", "convolution3d_transpose",
        "dense_to_sparse", "dropout", "elu", "flatten", "fully_connected", "gdn",
        "group_norm", "images_to_sequence", "instance_norm", "layer_norm", "linear",
        "max_pool2d", "max_pool3d", "maxout", "one_hot_encoding", "pool", "relu",
        "relu6", "repeat", "scale_gradient", "separable_conv2d",
        "separable_convolution2d", "sequence_to_images", "softmax", "spatial_softmax",
        "stack", "unit_norm", "legacy_fully_connected", "legacy_linear", "legacy_relu",
        "xavier_initializer", "xavier_initializer_conv2d", "variance_scaling_initializer",
        "l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
        "apply_regularization", "optimize_loss", "OPTIMIZER_CLS_NAMES",
        "OPTIMIZER_SUMMARIES", "adaptive_clipping_fn", "summarize_activation",
        "summarize_activations", "summarize_collection", "summarize_tensor",
        "summarize_tensors", "recompute_grad", "rev_block", "RevBlock",
    ]),
    **_renamed(COMPAT_V1, {
        "layers.safe_embedding_lookup_sparse": "nn.safe_embedding_lookup_sparse",
        "layers.embedding_lookup_unique": "nn.embedding_lookup",
    }),
    # tf.contrib.losses keeps its (logits, labels) argument order only in tf_slim.
    **_same_name(TF_SLIM, "losses", [
        "absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance",
        "get_losses", "get_regularization_losses", "get_total_loss", "hinge_loss",
        "log_loss", "mean_pairwise_squared_error", "mean_squared_error",
        "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy",
    ], inside="losses."),
    **_same_name(TF_SLIM, "losses.metric_learning", [
        "contrastive_loss", "lifted_struct_loss", "npairs_loss", "npairs_loss_multilabel",
        "triplet_semihard_loss", "cluster_loss",
    ], inside="losses."),
    # tf.contrib.metrics: the streaming metrics slim's eval scripts use.
    **_same_name(TF_SLIM, "metrics", [
        "aggregate_metric_map", "aggregate_metrics", "auc_using_histogram",
        "cohen_kappa", "count", "f1_score", "precision_at_recall",
        "precision_recall_at_equal_thresholds", "recall_at_precision",
        "sparse_recall_at_top_k", "streaming_accuracy", "streaming_auc",
        "streaming_concat", "streaming_covariance", "streaming_curve_points",
        "streaming_dynamic_auc", "streaming_false_negative_rate",
        "streaming_false_negatives", "streaming_false_negatives_at_thresholds",
        "streaming_false_positive_rate", "streaming_false_positives",
        "streaming_false_positives_at_thresholds", "streaming_mean",
        "streaming_mean_absolute_error", "streaming_mean_cosine_distance",
        "streaming_mean_iou", "streaming_mean_relative_error",
        "streaming_mean_squared_error", "streaming_mean_tensor",
        "streaming_pearson_correlation", "streaming_percentage_less",
        "streaming_precision", "streaming_precision_at_thresholds", "streaming_recall",
        "streaming_recall_at_k", "streaming_recall_at_thresholds",
        "streaming_root_mean_squared_error", "streaming_sensitivity_at_specificity",
        "streaming_sparse_average_precision_at_k", "streaming_sparse_precision_at_k",
        "streaming_sparse_recall_at_k", "streaming_specificity_at_sensitivity",
        "streaming_true_negatives", "streaming_true_negatives_at_thresholds",
        "streaming_true_positives", "streaming_true_positives_at_thresholds",
    ], inside="metrics."),
    # tf.contrib.training: the train/eval loops went to tf_slim. The attribute
    # tf_slim.training is the module tf_slim/training/training.py, while the package
    # tf_slim.training (what ``from tf_slim.training import`` reads) is nearly empty.
    **_same_name(TF_SLIM, "training", [
        "add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn",
        "create_train_op", "multiply_gradients", "train",
    ], inside="training.", import_module="tf_slim.training.training"),
    **_same_name(TF_SLIM, "training", [
        "evaluate_once", "evaluate_repeatedly", "evaluation_loop",
        "wait_for_new_checkpoint", "checkpoints_iterator", "StopAfterNEvalsHook",
        "SummaryAtEndHook", "get_or_create_eval_step",
    ], inside="evaluation."),
    # HParams is re-implemented in slim_ext (TF1's parse/type rules).
    **_same_name(SLIM_EXT_CONTRIB + ".training", "training", ["HParams"]),
    # tf.contrib.quantize rewrote graphs for fake quantization; nothing does that now.
    **_stand_in("quantize.create_training_graph", "quantize_create_training_graph", _QAT),
    **_stand_in("quantize.create_eval_graph", "quantize_create_eval_graph", _QAT),
    **_stand_in("quantize.experimental_create_training_graph",
                "quantize_create_training_graph", _QAT),
    **_stand_in("quantize.experimental_create_eval_graph", "quantize_create_eval_graph", _QAT),
    # tf.contrib.tpu: graph-mode TPU helpers are in compat.v1; the estimator is gone.
    **_same_name(COMPAT_V1, "tpu", [
        "CrossShardOptimizer", "batch_parallel", "bfloat16_scope", "cross_replica_sum",
        "initialize_system", "outside_compilation", "replicate", "rewrite", "shard",
        "shutdown_system",
    ], inside="tpu."),
    **_stand_in("tpu.TPUEstimator", "TPUEstimator", _ESTIMATOR),
    **_stand_in("tpu.TPUEstimatorSpec", "TPUEstimatorSpec", _ESTIMATOR),
    **_stand_in("tpu.RunConfig", "TPURunConfig", _ESTIMATOR),
    **_stand_in("tpu.TPUConfig", "TPUConfig", _ESTIMATOR),
    # tf.contrib.learn: Experiment-based launching went with tf.estimator.
    **_stand_in("learn.Experiment", "Experiment", _ESTIMATOR),
    **_stand_in("learn.RunConfig", "LearnRunConfig", _ESTIMATOR),
    **_stand_in("learn.learn_runner.run", "learn_runner_run", _ESTIMATOR),
    # tf.contrib.data: the pipeline transformations became tf.data.experimental.
    **_renamed(COMPAT_V1, {
        "data.Dataset": "data.Dataset",
        "data.TFRecordDataset": "data.TFRecordDataset",
        "data.TextLineDataset": "data.TextLineDataset",
        "data.FixedLengthRecordDataset": "data.FixedLengthRecordDataset",
        "data.Iterator": "data.Iterator",
    }),
    **_same_name(COMPAT_V1, "data", [
        "AUTOTUNE", "Counter", "CsvDataset", "SqlDataset", "bucket_by_sequence_length",
        "choose_from_datasets", "copy_to_device", "dense_to_sparse_batch",
        "enumerate_dataset", "get_next_as_optional", "get_single_element",
        "group_by_reducer", "group_by_window", "ignore_errors",
        "make_batched_features_dataset", "make_csv_dataset",
        "make_saveable_from_iterator", "map_and_batch", "parallel_interleave",
        "parse_example_dataset", "prefetch_to_device", "rejection_resample",
        "sample_from_datasets", "scan", "shuffle_and_repeat", "unbatch", "unique",
    ], inside="data.experimental."),
    # tf.contrib.deprecated: the pre-1.0 summary ops; the tag becomes the summary name
    # (TensorFlow replaces characters a name cannot hold, with a warning).
    **_renamed(COMPAT_V1, {
        "deprecated.scalar_summary": "summary.scalar",
        "deprecated.histogram_summary": "summary.histogram",
        "deprecated.image_summary": "summary.image",
        "deprecated.audio_summary": "summary.audio",
        "deprecated.merge_summary": "summary.merge",
        "deprecated.merge_all_summaries": "summary.merge_all",
    }),
    # tf.contrib.summary: compat.v1 keeps the graph-mode collection helpers.
    **_renamed(COMPAT_V1, {
        "summary.all_summary_ops": "summary.all_v2_summary_ops",
        "summary.initialize": "summary.initialize",
    }),
    # tf.contrib.image: transforms on core's projective-transform kernel, the
    # C++-only ops rebuilt from core ops, the rest stand-ins (slim_ext/contrib/image.py).
    **_same_name(SLIM_EXT_CONTRIB + ".image", "image", [
        "angles_to_projective_transforms", "bipartite_match", "compose_transforms",
        "connected_components", "flat_transforms_to_matrices", "matrices_to_flat_transforms",
        "rotate", "transform", "translate", "translations_to_projective_transforms",
        "dense_image_warp", "interpolate_spline", "sparse_image_warp", "adjust_hsv_in_yiq",
        "random_hsv_in_yiq", "single_image_random_dot_stereograms",
    ]),
    **_same_name(SLIM_EXT_CONTRIB + ".learn.preprocessing", "learn.preprocessing", [
        "VocabularyProcessor", "CategoricalVocabulary", "ByteProcessor", "tokenizer",
    ]),
    **_same_name(SLIM_EXT_CONTRIB + ".tfprof.model_analyzer", "tfprof.model_analyzer", [
        "print_model_analysis", "advise", "TRAINABLE_VARS_PARAMS_STAT_OPTIONS",
        "FLOAT_OPS_OPTIONS", "PRINT_ALL_TIMING_MEMORY", "ALL_ADVICE", "Profiler",
    ]),
    **_renamed(COMPAT_V1, {"tfprof.tfprof_logger.write_op_log": "profiler.write_op_log"}),
    # TensorFlow's deprecation decorators, which TF 2 no longer exports.
    **_same_name(SLIM_EXT_CONTRIB + ".framework", "framework", [
        "deprecated", "deprecated_args", "deprecated_arg_values",
    ]),
    **_same_name(TF_SLIM, "layers", ["get_variable_collections", "collect_named_outputs"],
                 inside="utils.", import_module="tf_slim.layers.utils"),
    # tf.contrib.util was tensor_util re-exported; constant_value is get_static_value.
    **_renamed(COMPAT_V1, {
        "util.constant_value": "get_static_value",
        "util.make_tensor_proto": "make_tensor_proto",
        "util.make_ndarray": "make_ndarray",
    }),
}

# Whole contrib modules with a slim_ext mirror, keyed like TABLE (relative to
# tensorflow.contrib), deep source paths included: ``from tensorflow.contrib.quantize.python
# import graph_matcher`` becomes ``from slim_ext.contrib.quantize import graph_matcher``.
MODULE_HOMES: Dict[str, str] = {
    "image": "slim_ext.contrib.image",
    "image.python.ops.image_ops": "slim_ext.contrib.image",
    "quantize": "slim_ext.contrib.quantize",
    "quantize.python.graph_matcher": "slim_ext.contrib.quantize.graph_matcher",
    "learn.preprocessing": "slim_ext.contrib.learn.preprocessing",
    "learn.python.learn.preprocessing": "slim_ext.contrib.learn.preprocessing",
    "learn.python.learn.preprocessing.text": "slim_ext.contrib.learn.preprocessing",
    "learn.python.learn.preprocessing.categorical_vocabulary":
        "slim_ext.contrib.learn.preprocessing",
    "training.python.training.hparam": "slim_ext.contrib.training",
    "tfprof": "slim_ext.contrib.tfprof",
    "tfprof.model_analyzer": "slim_ext.contrib.tfprof.model_analyzer",
    "tfprof.tfprof_logger": "slim_ext.contrib.tfprof.tfprof_logger",
    "tfprof.python.tools.tfprof.model_analyzer": "slim_ext.contrib.tfprof.model_analyzer",
    "tfprof.python.tools.tfprof.tfprof_logger": "slim_ext.contrib.tfprof.tfprof_logger",
}


def contrib_key(qualified: str) -> Optional[str]:
    """``tensorflow.contrib.<module>...`` -> table key, folding deep source paths.

    ``tensorflow.contrib.framework.python.ops.arg_scope.arg_scope`` (the file that
    defined it) is the same symbol as ``tensorflow.contrib.framework.arg_scope``.
    Returns None for names outside tensorflow.contrib and for the deep-path modules
    themselves (``...framework.python.ops.arg_scope``), which only lead to symbols.

    Args:
      qualified: a dotted name resolved through the file's import bindings.

    Returns:
      The name relative to ``tensorflow.contrib``, or None.
    """
    parts = qualified.split(".")
    if parts[:2] != ["tensorflow", "contrib"] or len(parts) < 3:
        return None
    parts = parts[2:]
    if len(parts) > 1 and parts[1] == "python":
        # <module>.python.<package>.<file>.<symbol>
        if len(parts) != 5:
            return None
        parts = [parts[0], parts[4]]
    return ".".join(parts)


def is_module_key(key: str) -> bool:
    """True for a contrib module (``layers``) or a table prefix (``learn.learn_runner``)."""
    prefix = key + "."
    return "." not in key or any(name.startswith(prefix) for name in TABLE)


def deep_module(qualified: str) -> bool:
    """True for a source-path module such as ``tensorflow.contrib.layers.python.layers``."""
    parts = qualified.split(".")
    return parts[:2] == ["tensorflow", "contrib"] and 4 <= len(parts) <= 6 and parts[3] == "python"
