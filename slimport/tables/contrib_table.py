"""Where each ``tf.contrib`` name lives after TensorFlow 1: one lookup over two tables.

``contrib_api.txt`` is generated (tools/gen_contrib_table.py) from TensorFlow 1.15's
own module tree, tf_slim 1.1.0 and TensorFlow 2.21: every public name of every
tf.contrib module, and where it went. tf_slim was cut file for file from
contrib/{slim,layers,framework,losses,metrics,training}, so those map structurally
(``layers.python.layers.utils`` -> ``tf_slim.layers.utils``); core TensorFlow functions
that contrib re-exported map to the tf.compat.v1 name TF 1.15 exported them under
(``util.constant_value`` -> ``get_static_value``); everything else is listed as gone.

``HOMES`` and ``MODULE_HOMES`` below are made by hand and take precedence: contrib
wrappers of core functions the generator cannot see through (``data.map_and_batch``),
the pre-1.0 summaries, the maintained successors of whole contrib modules
(tensorflow-probability for ``distributions`` and ``bayesflow``, tensorflow-gan for
``gan``), and ``slim_ext.contrib``, which re-implements what has no TF2 home
(``tf.contrib.image``, ``HParams``, the RNN cells core TensorFlow lacks, ...) or stands
in for it with a function that raises, naming the alternative, only when called
(``Home.alternative``). ``KEYWORDS`` says which TF1 keyword arguments a successor
renamed or dropped.

Keys are names relative to ``tensorflow.contrib`` (``framework.arg_scope``).
tests/slimport/codemods/test_contrib_table.py imports every home with real
TensorFlow and checks that every name of the generated table has a home or is gone.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, Optional, Tuple

from slimport.tables.tf_api import COMPAT_V1

API_FILE = Path(__file__).with_name("contrib_api.txt")
TF_SLIM = "tf_slim"
STAND_INS = "slim_ext.contrib"
TFP = "tensorflow_probability"
TF_GAN = "tensorflow_gan"
TF_KERAS = "tf_keras"
TENSORBOARD = "tensorboard"
SYMBOL = "symbol"
MODULE = "module"
PACKAGE = "package"
_GONE = "-"


@dataclass(frozen=True)
class Home:
    """The new location of one contrib symbol: ``package`` plus ``attribute`` path."""

    package: str
    attribute: str
    # For stand-ins, which raise when called: what to use instead, shown in the report.
    alternative: str = ""
    # Where ``from ... import`` finds it, when that differs from the attribute path.
    import_module: str = ""
    # How the home behaves differently from TF1's, said in the edit.
    note: str = ""

    @property
    def is_stand_in(self) -> bool:
        return bool(self.alternative)

    @property
    def attribute_reaches(self) -> bool:
        """Whether ``package.attribute`` reaches it: not for a module inside tf_slim,
        whose own star imports rebind the attributes on the way (``tf_slim.layers`` is
        layers/layers.py); only ``from`` reaches those."""
        return not self.package.startswith(TF_SLIM + ".")

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


@dataclass(frozen=True)
class Found:
    """What ``lookup`` knows about one contrib name.

    A symbol has a ``home`` or is gone; a module or package has a ``module`` home or
    is gone. ``listed`` is the table key the answer comes from: the name itself, or
    the gone module it is inside.
    """

    kind: str
    listed: str
    home: Optional[Home] = None
    module: Optional[str] = None

    @property
    def is_gone(self) -> bool:
        return self.home is None and self.module is None

    @property
    def is_module(self) -> bool:
        return self.kind in (MODULE, PACKAGE)


def _same_name(package: str, module: str, names: Iterable[str], inside: str = "",
               alternative: str = "") -> Dict[str, Home]:
    """``module.<name>`` -> ``package.<inside><name>`` for each name."""
    return {f"{module}.{name}": Home(package, f"{inside}{name}", alternative)
            for name in names}


def _renamed(package: str, pairs: Dict[str, str]) -> Dict[str, Home]:
    return {contrib: Home(package, attribute) for contrib, attribute in pairs.items()}


# tf.contrib.keras' modules (TF 1.15's contrib/keras/api/keras/), each tf_keras' own
# (TF 1.15's wrappers.scikit_learn has none: tf_keras dropped it).
_KERAS_MODULES = (
    "activations", "applications", "applications.inception_v3", "applications.mobilenet",
    "applications.resnet50", "applications.vgg16", "applications.vgg19",
    "applications.xception", "backend", "callbacks", "constraints", "datasets",
    "datasets.boston_housing", "datasets.cifar10", "datasets.cifar100", "datasets.imdb",
    "datasets.mnist", "datasets.reuters", "initializers", "layers", "losses", "metrics",
    "models", "optimizers", "preprocessing", "preprocessing.image",
    "preprocessing.sequence", "preprocessing.text", "regularizers", "utils")
_QAT = ("tensorflow-model-optimization's quantization-aware training on a Keras model "
        "(model = tfmot.quantization.keras.quantize_model(model)), or post-training "
        "quantization (tf.lite.TFLiteConverter.from_saved_model(path), converter."
        "optimizations = [tf.lite.Optimize.DEFAULT]): contrib.quantize rewrote a TF1 graph "
        "in place (fake-quant ops after each weight and activation, batch norms folded), "
        "and nothing rewrites graphs so in TF 2")
_CONTRIB_LEARN = ("tf.estimator (tensorflow-estimator 2.15, revived on TF 2.16+ by "
                  "slim_ext): its canned estimators, RunConfig, train_and_evaluate")
# TPUEstimator's module in tensorflow-estimator 2.15 (runs on CPU with use_tpu=False).
_TPU_ESTIMATOR = "tensorflow_estimator.python.estimator.tpu.tpu_estimator"
_TPU_CONFIG = "tensorflow_estimator.python.estimator.tpu.tpu_config"
_ADDONS = "its port in tensorflow-addons (tfa.image) on TensorFlow <= 2.15"
_HSV = "tf.image.adjust_hue / adjust_saturation / adjust_brightness"
# TF 1.2 renamed the variables of the cells it moved into core TensorFlow.
_TF_1_2_CELLS = ("TF 1.2's cell: its variables are named kernel and bias, TF 1.0-1.1's "
                 "weights and biases (a checkpoint of those versions needs its names mapped)")


def _bayesian_layers(functional: bool) -> Dict[str, str]:
    """TF 1.6-1.7's Bayesian layers (``tf.contrib.bayesflow.layers``) -> TFP's class names:
    the classes (TFP dropped the ``Conv*`` aliases), or with ``functional`` the function
    forms, which TFP did not keep (``conv2d_flipout`` -> ``Convolution2DFlipout``)."""
    dense = {"dense_reparameterization": "DenseReparameterization",
             "dense_local_reparameterization": "DenseLocalReparameterization",
             "dense_flipout": "DenseFlipout"}
    layers = {key if functional else name: name for key, name in dense.items()}
    for prefix in ("Convolution", "Conv"):
        for rank in (1, 2, 3):
            for kind in ("Reparameterization", "Flipout"):
                name = f"{prefix}{rank}D{kind}"
                key = f"{prefix.lower()}{rank}d_{kind.lower()}" if functional else name
                layers[key] = f"Convolution{rank}D{kind}"
    return layers


_BAYESIAN_LAYERS = {**_bayesian_layers(functional=False),
                    **{name: name for name in ("default_loc_scale_fn",
                                               "default_mean_field_normal_fn")}}
_BAYESIAN_FUNCTIONS = _bayesian_layers(functional=True)
_BAYESIAN_NOTE = ("TFP's layer adds each divergence to its losses summed to a scalar, "
                  "where TF 1.6 added it per weight: reduce_sum of the losses is the same")

HOMES: Dict[str, Home] = {
    # Global-step and checkpoint helpers: contrib wrapped the core TF1 functions.
    **_same_name(COMPAT_V1, "framework", [
        "get_or_create_global_step", "get_global_step", "create_global_step",
        "assert_global_step", "list_variables", "load_variable", "load_checkpoint",
        "init_from_checkpoint",
    ], inside="train."),
    **_renamed(COMPAT_V1, {"framework.nest": "nest"}),
    **_renamed(COMPAT_V1, {
        "layers.safe_embedding_lookup_sparse": "nn.safe_embedding_lookup_sparse",
        "layers.embedding_lookup_unique": "nn.embedding_lookup",
    }),
    # Not public in TF 1.15's contrib.layers, but real TF1 code reaches for them there.
    **_same_name(TF_SLIM, "layers", ["get_variable_collections", "collect_named_outputs"],
                 inside="layers.utils."),
    # TensorFlow's deprecation decorators, which TF 2 keeps but no longer exports.
    **_same_name(f"{STAND_INS}.framework", "framework", [
        "deprecated", "deprecated_args", "deprecated_arg_values",
    ]),
    # HParams, re-implemented with TF1's parse and type rules; the ps placement of
    # contrib.training's device_setter, re-implemented.
    **_same_name(f"{STAND_INS}.training", "training", [
        "HParams", "GreedyLoadBalancingStrategy", "byte_size_load_fn"]),
    # tf.contrib.quantize rewrote graphs for fake quantization; nothing does that now.
    # The stand-ins are reached through slim_ext's quantize mirror, the module
    # ``tf.contrib.quantize`` used as a value becomes: a test's
    # ``mock.patch.object(tf.contrib.quantize, 'create_training_graph')`` then patches
    # what the ported calls call.
    **_same_name(f"{STAND_INS}.quantize", "quantize", [
        "create_training_graph", "create_eval_graph",
        "experimental_create_training_graph", "experimental_create_eval_graph"],
        alternative=_QAT),
    # tf.contrib.image: what slim_ext.contrib.image could not rebuild from core ops.
    **_same_name(f"{STAND_INS}.image", "image", [
        "dense_image_warp", "interpolate_spline", "sparse_image_warp",
        "single_image_random_dot_stereograms"], alternative=_ADDONS),
    **_same_name(f"{STAND_INS}.image", "image", ["adjust_hsv_in_yiq", "random_hsv_in_yiq"],
                 alternative=_HSV),
    # TPUEstimator moved from contrib to tensorflow-estimator (tf.compat.v1.estimator.tpu).
    **{f"tpu.{name}": Home(COMPAT_V1, f"estimator.tpu.{name}", import_module=module)
       for name, module in (("TPUEstimator", _TPU_ESTIMATOR), ("TPUEstimatorSpec", _TPU_ESTIMATOR),
                            ("RunConfig", _TPU_CONFIG), ("TPUConfig", _TPU_CONFIG),
                            ("InputPipelineConfig", _TPU_CONFIG))},
    # tf.contrib.learn's RunConfig, on tf.estimator's (slim_ext.contrib.learn.run_config).
    **_same_name(f"{STAND_INS}.learn", "learn", ["RunConfig"]),
    # Experiment-based launching on tf.estimator (learn_runner: MODULE_HOMES).
    **{f"{package}.{name}": Home(f"{STAND_INS}.learn", name)
       for package in ("learn", "learn.python.learn")
       for name in ("Experiment", "ExportStrategy", "make_export_strategy")},
    "learn.python.learn.utils.saved_model_export_utils.make_export_strategy":
        Home(f"{STAND_INS}.learn", "make_export_strategy"),
    # Re-implemented with TF1's behaviour: the optimizer wrapper that averages the
    # weights and swaps the averages into the saver, and drop-remainder batching.
    **_same_name(f"{STAND_INS}.opt", "opt", ["MovingAverageOptimizer"]),
    **_renamed(f"{STAND_INS}.opt", {
        "opt.python.training.moving_average_optimizer.MovingAverageOptimizer":
            "MovingAverageOptimizer"}),
    **_same_name(f"{STAND_INS}.data", "data", [
        "batch_and_drop_remainder", "padded_batch_and_drop_remainder"]),
    # tf.contrib.data: deprecated wrappers of what became tf.data.experimental.
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
    # contrib's own HashTable (shared_name third, an ``init`` op) over StaticHashTable.
    "lookup.HashTable": Home(f"{STAND_INS}.lookup", "HashTable"),
    "lookup.lookup_ops.HashTable": Home(f"{STAND_INS}.lookup", "HashTable"),
    # TF 0.x's argument order of the cross-entropy losses: the core function with
    # ``logits`` and ``labels`` swapped, as TF 1.15 defined them.
    **_same_name(f"{STAND_INS}.nn", "nn", [
        "deprecated_flipped_softmax_cross_entropy_with_logits",
        "deprecated_flipped_sparse_softmax_cross_entropy_with_logits",
        "deprecated_flipped_sigmoid_cross_entropy_with_logits"]),
    # TF 1.5-1.6's name of what TF 1.7 called executing_eagerly (magenta's score2perf).
    "eager.in_eager_mode": Home(COMPAT_V1, "executing_eagerly",
                                note="TF 1.7's name for TF 1.5-1.6's in_eager_mode"),
    # TF 1.0-1.1's contrib.rnn modules, which TF 1.2 moved into core TensorFlow (projects
    # of that time import them, tflearn 0.3.2 in its fallback for old TensorFlows): the
    # static RNNs became tf.nn's, the cells and LSTMStateTuple tf.nn.rnn_cell's.
    **_same_name(COMPAT_V1, "rnn.python.ops.core_rnn", [
        "static_rnn", "static_bidirectional_rnn", "static_state_saving_rnn"], inside="nn."),
    **{f"rnn.python.ops.{module}.{name}": Home(COMPAT_V1, f"nn.rnn_cell.{name}", note=(
        _TF_1_2_CELLS if name != "LSTMStateTuple" else ""))
       for module in ("core_rnn_cell", "core_rnn_cell_impl")
       for name in ("BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper",
                    "GRUCell", "LSTMCell", "LSTMStateTuple", "MultiRNNCell",
                    "ResidualWrapper")},
    **_same_name(f"{STAND_INS}.rnn.core_rnn_cell", "rnn.python.ops.core_rnn_cell_impl", [
        "EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper", "RNNCell"]),
    # contrib.gan.eval's frozen-graph helpers: TF-GAN runs its classifiers from TF-Hub
    # and dropped them; TF 1.14's definitions on tf.compat.v1.
    **_same_name(f"{STAND_INS}.gan_eval", "gan.eval", [
        "preprocess_image", "get_graph_def_from_disk", "get_graph_def_from_resource",
        "get_graph_def_from_url_tarball", "run_image_classifier"]),
    # TF 1.6-1.7's tf.contrib.bayesflow.layers (TF 1.8 moved them to TFP): the layer
    # classes and their posterior makers, TFP's own (Keras layers; each adds its
    # divergence to ``losses`` summed, where TF 1.6 added it per weight).
    **{f"bayesflow.layers.{name}": Home(TFP, f"layers.{tfp_name}",
                                        import_module=f"{TFP}.python.layers",
                                        note=_BAYESIAN_NOTE if name[0].isupper() else "")
       for name, tfp_name in _BAYESIAN_LAYERS.items()},
    # tf.contrib.distributions helpers TFP keeps elsewhere than tfp.distributions.
    **{f"distributions.{name}": Home(TFP, f"{where}.{name}",
                                     import_module=f"{TFP}.python.{where}")
       for name, where in (
        ("percentile", "stats"), ("auto_correlation", "stats"), ("softplus_inverse", "math"),
        ("fill_triangular", "math"), ("fill_triangular_inverse", "math"),
        ("reduce_weighted_logsumexp", "math"), ("SeedStream", "util"))},
}

# Whole contrib modules with a mirror (``from tensorflow.contrib.quantize.python
# import graph_matcher`` -> ``from slim_ext.contrib.quantize import graph_matcher``): a
# slim_ext module, or the module of a maintained successor. The generator lists every
# name the TF 1.15 module had, with its home in the mirror (or its core TF2 twin, when
# it has one), or as gone where the mirror lacks it.
MODULE_HOMES: Dict[str, str] = {
    "image": f"{STAND_INS}.image",
    "image.python.ops.image_ops": f"{STAND_INS}.image",
    "quantize": f"{STAND_INS}.quantize",
    "quantize.python.graph_matcher": f"{STAND_INS}.quantize.graph_matcher",
    "learn.preprocessing": f"{STAND_INS}.learn.preprocessing",
    "learn.python.learn.preprocessing": f"{STAND_INS}.learn.preprocessing",
    "learn.python.learn.preprocessing.text": f"{STAND_INS}.learn.preprocessing",
    "learn.python.learn.preprocessing.categorical_vocabulary":
        f"{STAND_INS}.learn.preprocessing",
    "training.python.training.hparam": f"{STAND_INS}.training",
    "training.python.training.device_setter": f"{STAND_INS}.training",
    # contrib.learn's run_config module (RunConfig, its TF_CONFIG reading, the uid list).
    "learn.python.learn.run_config": f"{STAND_INS}.learn.run_config",
    "learn.python.learn.estimators.run_config": f"{STAND_INS}.learn.run_config",
    # Experiment, learn_runner (run, tune) and export strategies, on tf.estimator.
    "learn.python.learn.experiment": f"{STAND_INS}.learn.experiment",
    "learn.python.learn.export_strategy": f"{STAND_INS}.learn.export_strategy",
    **{module: f"{STAND_INS}.learn.learn_runner" for module in (
        "learn.learn_runner", "learn.python.learn.learn_runner",
        "learn.python.learn.learn_runner_lib")},
    # TPUEstimator's contrib modules, where the Object Detection API imports them from.
    # The eager metrics objects (tfe.metrics.Mean & co.; tensor2tensor's eager metrics).
    "eager.python.metrics": f"{STAND_INS}.eager_metrics",
    "eager.python.metrics_impl": f"{STAND_INS}.eager_metrics",
    # TF 1.14's contrib module re-exported core TensorFlow's TPU ops, which TF 2 keeps
    # there (mesh-tensorflow 0.0.5's simd_mesh_impl imports it).
    "tpu.python.ops.tpu_ops": "tensorflow.python.tpu.ops.tpu_ops",
    "tpu.python.tpu.tpu_estimator": _TPU_ESTIMATOR,
    "tpu.python.tpu.tpu_config": _TPU_CONFIG,
    # contrib.lookup: core TensorFlow's tables (the ones TF 2 no longer exports, and
    # contrib's ``mapping=`` wrappers of them) in slim_ext's mirror; the exported ones
    # go to tf.compat.v1.lookup (CORE_FIRST).
    "lookup": f"{STAND_INS}.lookup",
    "lookup.lookup_ops": f"{STAND_INS}.lookup",
    # tf.contrib.keras was the Keras 2 API of TensorFlow 1.x: tf_keras keeps it.
    **{f"{prefix}{module}": f"{TF_KERAS}.{module}"
       for prefix in ("keras.", "keras.api.keras.") for module in _KERAS_MODULES},
    "keras": TF_KERAS,
    "keras.api.keras": TF_KERAS,
    # The embedding projector's config went back to TensorBoard, which it came from.
    **{f"tensorboard.plugins.projector{inner}": f"{TENSORBOARD}.plugins.projector{inner}"
       for inner in ("", ".projector_config_pb2")},
    "tfprof": f"{STAND_INS}.tfprof",
    "tfprof.model_analyzer": f"{STAND_INS}.tfprof.model_analyzer",
    "tfprof.tfprof_logger": f"{STAND_INS}.tfprof.tfprof_logger",
    # The MNIST reader TF1's tutorial input_data re-exported (moved_modules ports that).
    "learn.datasets.mnist": "slim_ext.mnist_input_data",
    "learn.python.learn.datasets.mnist": "slim_ext.mnist_input_data",
    # TF1's recurrent pieces: the core cells' names go to tf.compat.v1.nn.rnn_cell, the
    # rest to slim_ext's cells with TF1's variable names (slim_ext/contrib/rnn/).
    "rnn": f"{STAND_INS}.rnn",
    "rnn.python.ops.rnn_cell": f"{STAND_INS}.rnn.rnn_cell",
    "rnn.python.ops.lstm_ops": f"{STAND_INS}.rnn.lstm_ops",
    "rnn.python.ops.gru_ops": f"{STAND_INS}.rnn.gru_ops",
    "rnn.python.ops.core_rnn_cell": f"{STAND_INS}.rnn.core_rnn_cell",
    "rnn.python.ops.fused_rnn_cell": f"{STAND_INS}.rnn.fused_rnn_cell",
    "rnn.python.ops.rnn": f"{STAND_INS}.rnn.rnn",
    "cudnn_rnn": f"{STAND_INS}.cudnn_rnn",
    "cudnn_rnn.python.layers.cudnn_rnn": f"{STAND_INS}.cudnn_rnn",
    "cudnn_rnn.python.ops.cudnn_rnn_ops": f"{STAND_INS}.cudnn_rnn",
    # TF1's linear-chain CRF (tensorflow-addons' tfa.text ended at TF 2.15).
    "crf": f"{STAND_INS}.crf",
    "crf.python.ops.crf": f"{STAND_INS}.crf",
    "legacy_seq2seq": f"{STAND_INS}.legacy_seq2seq",
    "legacy_seq2seq.python.ops.seq2seq": f"{STAND_INS}.legacy_seq2seq",
    # contrib.seq2seq's decoding loop (helpers, BasicDecoder, dynamic_decode), its
    # attention (Bahdanau, Luong, monotonic) and its beam search.
    "seq2seq": f"{STAND_INS}.seq2seq",
    "seq2seq.python.ops.attention_wrapper": f"{STAND_INS}.attention_wrapper",
    **{f"seq2seq.python.ops.{module}": f"{STAND_INS}.seq2seq"
       for module in ("basic_decoder", "decoder", "helper", "loss")},
    **{f"seq2seq.python.ops.{module}": f"{STAND_INS}.beam_search_decoder"
       for module in ("beam_search_decoder", "beam_search_ops")},
    # Maintained successors: TensorFlow Probability and TF-GAN.
    **{key: f"{package}.python.{path}" for key, (package, path) in
       (("distributions", (TFP, "distributions")),
        ("distributions.bijectors", (TFP, "bijectors")),
        ("bayesflow.monte_carlo", (TFP, "monte_carlo")),
        ("gan.losses", (TF_GAN, "losses")), ("gan.eval", (TF_GAN, "eval")),
        ("gan.features", (TF_GAN, "features")), ("gan.estimator", (TF_GAN, "estimator")))},
    "gan": TF_GAN,
}
# Mirrors whose names that have a core TensorFlow 2 twin go to the twin
# (``rnn.BasicLSTMCell`` -> ``tf.compat.v1.nn.rnn_cell.BasicLSTMCell``), the rest to the
# mirror's stand-ins.
CORE_FIRST = ("rnn", "lookup")
# A successor's module as its users spell it (``tensorflow_probability.distributions``,
# not the ``tensorflow_probability.python.distributions`` an import statement needs):
# the home its names are written under, and what the module used as a value becomes.
PUBLIC_PATHS: Dict[str, Tuple[str, str]] = {
    module: (package, module[len(package) + len(".python."):])
    for module in MODULE_HOMES.values() for package in (TFP, TF_GAN)
    if module.startswith(f"{package}.python.")
}

# TF1 keyword arguments of a successor's names that TFP renamed (the same meaning under
# a new name: slimport renames them in the call) or removed (None: the call is reported,
# with what TFP does instead, and left as it is).
KEYWORDS: Dict[str, Dict[str, Optional[str]]] = {
    "distributions.percentile": {"keep_dims": "keepdims"},
    "bayesflow.monte_carlo.expectation": {"keep_dims": "keepdims",
                                          "use_reparametrization": "use_reparameterization"},
    # TF1's InverseGamma called its scale parameter ``rate`` (TFP 0.3 fixed the name).
    "distributions.InverseGamma": {"rate": "scale"},
    "distributions.Mixture": {"use_static_graph": None},
    "distributions.MultivariateNormalDiag": {"scale_identity_multiplier": None},
    "distributions.MultivariateNormalDiagPlusLowRank": {"scale_identity_multiplier": None},
    "distributions.TransformedDistribution": {"batch_shape": None, "event_shape": None},
    "distributions.RelaxedOneHotCategorical": {"dtype": None},
    "distributions.ExpRelaxedOneHotCategorical": {"dtype": None},
}
# What TFP does instead of a removed keyword, for the report.
KEYWORD_FIXES: Dict[str, str] = {
    "use_static_graph": "TFP's Mixture always builds one graph; drop the argument",
    "scale_identity_multiplier": "add the multiplier to scale_diag "
                                 "(scale_diag=d + m), or use tfd.MultivariateNormalLinearOperator",
    "batch_shape": "broadcast the base distribution's parameters to the shape instead "
                   "(tfd.Sample / tfd.Independent for event dimensions)",
    "event_shape": "wrap the base distribution in tfd.Sample(base, event_shape)",
    "dtype": "TFP takes the sample dtype from the logits; cast the logits (or the sample)",
}

# What to use instead of a contrib package that is gone with everything in it.
GONE_FIXES: Dict[str, str] = {
    "distributions": "tensorflow-probability (tfp.distributions; the *WithSoftplus* and "
                     "*WithAbs* classes are the plain class with tf.nn.softplus / tf.abs "
                     "applied to the argument; bijectors Affine/AffineScalar -> "
                     "tfb.Shift and tfb.Scale, Gumbel -> tfb.GumbelCDF, Kumaraswamy -> "
                     "tfb.KumaraswamyCDF, Ordered -> tfb.Invert(tfb.Ascending()), ScaleTriL "
                     "-> tfb.FillScaleTriL, each to be checked against its TF1 arguments)",
    "bayesflow": "tensorflow-probability (tfp.monte_carlo; importance sampling: "
                 "tfp.vi / tfp.mcmc)",
    "seq2seq": "slim_ext.contrib.seq2seq, TF 1.15's decoding loop, attention and beam "
               "search (its Keras-style *V2 classes: tensorflow-addons' tfa.seq2seq on "
               "TensorFlow <= 2.15 only)",
    "legacy_seq2seq": "slim_ext.contrib.legacy_seq2seq has the static models; others: "
                      "Keras recurrent layers",
    "rnn": "tf.compat.v1.nn.rnn_cell, or Keras recurrent layers (ConvLSTM2D for the "
           "convolutional cells)",
    "cudnn_rnn": "tf.keras.layers.LSTM / GRU (they use cuDNN on a GPU), or "
                 "slim_ext.contrib.cudnn_rnn's compatible cells",
    "learn": _CONTRIB_LEARN,
    "estimator": _CONTRIB_LEARN,
    "tpu": "tf.compat.v1.tpu / tf.compat.v1.estimator.tpu (TPUEstimator, on CPU with "
           "use_tpu=False)",
    "keras": "tf_keras (its wrappers.scikit_learn is gone: scikeras)",
    "lookup": "tf.compat.v1.lookup (StaticHashTable, KeyValueTensorInitializer)",
    "nn": "tf.compat.v1.nn (alpha_dropout, scaled_softplus and the rank-sampled losses "
          "have no TensorFlow 2 home: write them with tf.nn ops)",
    "data": "tf.data / tf.compat.v1.data.experimental (batch_and_drop_remainder: "
            "Dataset.batch(n, drop_remainder=True))",
    "opt": "tf.compat.v1.train optimizers, or tensorflow-addons (tfa.optimizers)",
    "crf": "slim_ext.contrib.crf (TF 1.15's public functions and cells)",
    "tensor_forest": "TensorFlow Decision Forests (tensorflow_decision_forests: "
                     "tfdf.keras.RandomForestModel, a Keras model trained on a tf.data "
                     "set; contrib's graph-building ForestHParams / RandomForestGraphs and "
                     "its data_ops have no TensorFlow 2 counterpart)",
    "metrics": "tf.compat.v1.metrics",
    "framework": "tf_slim or tf.compat.v1",
    "layers": "tf_slim or tf.compat.v1.layers",
}
DEFAULT_FIX = "find its TF2 / tf_slim equivalent and rewrite by hand, or drop the feature"

# Names TF 1.15's tf.contrib did not have that TF1-era code still uses, each with what to
# write instead: the functional Bayesian layers of TF 1.6-1.7 (TFP kept the classes
# only), TF 1.5's variational dense layer, and names public TensorFlow never had.
NAMED_FIXES: Dict[str, str] = {
    **{f"bayesflow.layers.{name}":
       f"tfp.layers.{layer}(...)(inputs), the same keyword arguments but inputs and "
       "reuse (tf.contrib.bayesflow.layers' functional form, TF 1.6-1.7; TFP keeps the "
       "class only: keep the layer object to share its variables, and reduce_sum its "
       "losses, which TFP sums per layer)"
       for name, layer in _BAYESIAN_FUNCTIONS.items()},
    **{f"bayesflow.layers.{name}":
       "tfp.layers.DenseLocalReparameterization / DenseReparameterization (TF 1.5's "
       "variational dense layer; kernel_use_local_reparameterization picks between "
       "them)" for name in ("DenseVariational", "dense_variational")},
    **{f"layers.{name}":
       f"tfp.layers.{layer} (tf.contrib.layers never had it: TF 1.6-1.7's "
       f"tf.contrib.bayesflow.layers.{name} did, now TFP's)"
       for name, layer in _BAYESIAN_LAYERS.items() if name[0].isupper()},
    "distributions.MVNDiag":
        "tfp.distributions.MultivariateNormalDiag(loc=, scale_diag=) (TensorFlow never "
        "had the short name MVNDiag; TF 1.x's class was MultivariateNormalDiag)",
}
_STATE_SAVER = (
    "tf.data and a recurrent layer that keeps its state between batches: split each "
    "sequence into num_unroll-step segments (dataset.flat_map over tf.data.Dataset."
    "from_tensor_slices of the reshaped sequence, keys and context repeated), batch them "
    "with the segments of one sequence in one batch slot, and carry the RNN state across "
    "segments (tf.keras.layers.LSTM(units, stateful=True), reset_states() when a sequence "
    "ends). contrib's saver (queue runners around a Barrier of partial sequences) is in "
    "no TensorFlow 2 package")
# TF 1.15 names gone whose replacement is one call (TFP's spelling), or whose dead end
# needs more than the package's hint: the name, or a module with all its names.
GONE_NAME_FIXES: Dict[str, str] = {
    **{f"training.{name}": _STATE_SAVER for name in (
        "SequenceQueueingStateSaver", "batch_sequences_with_states",
        "NextQueuedSequenceBatch")},
    "training.python.training.sequence_queueing_state_saver": _STATE_SAVER,
    "distributions.WishartCholesky":
        "tfp.distributions.WishartTriL(df, scale_tril=scale, input_output_cholesky="
        "cholesky_input_output_matrices)",
    "distributions.WishartFull":
        "tfp.distributions.WishartTriL(df, scale_tril=tf.linalg.cholesky(scale), "
        "input_output_cholesky=cholesky_input_output_matrices)",
}


def gone_fix(key: str) -> str:
    """What to do about the gone contrib name ``key``.

    Args:
      key: a name relative to ``tensorflow.contrib``.

    Returns:
      The fix line of its finding.
    """
    named = NAMED_FIXES.get(key) or next(
        (GONE_NAME_FIXES[prefix] for prefix in _prefixes(key) if prefix in GONE_NAME_FIXES),
        None)
    if named:
        return f"use {named}"
    package, _, name = key.partition(".")
    if package == "slim":
        # contrib.slim re-exported contrib.layers' names; some of those have a home.
        found = lookup(f"layers.{name}")
        if found is not None and found.home is not None:
            return f"use {found.home.dotted}"
    hint = GONE_FIXES.get(package)
    return f"use {hint}" if hint else DEFAULT_FIX


def _prefixes(key: str) -> Iterable[str]:
    """``key`` and the modules it is in, innermost first (``a.b.c``, ``a.b``, ``a``)."""
    parts = key.split(".")
    return (".".join(parts[:end]) for end in range(len(parts), 0, -1))


@lru_cache(maxsize=1)
def _generated() -> Dict[str, Tuple[str, str, str]]:
    """key -> (kind, home, last column) from contrib_api.txt (read once per process)."""
    table: Dict[str, Tuple[str, str, str]] = {}
    for line in API_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            key, kind, home, *rest = line.split("\t")
            table[key] = (kind, home, rest[0] if rest else "")
    return table


def _generated_home(home: str, extra: str) -> Home:
    package, _, attribute = home.partition(":")
    return Home(package, attribute, import_module=extra)


def lookup(key: str) -> Optional[Found]:
    """What became of ``tensorflow.contrib.<key>``; None if TF 1.15 had no such name.

    An unlisted name inside a module is looked up through the module: it is that
    module's attribute where the module has a home of its own
    (``image.python.ops.image_ops.rotate``), the same name in the module a listed
    alias stands for (``losses.metric_learning.x``), or gone with a module that is
    gone with everything in it (``distributions.Normal``).

    Args:
      key: a name relative to ``tensorflow.contrib`` (``framework.arg_scope``).

    Returns:
      Its home, or that it is gone; None when TF 1.15 had no such name.
    """
    generated = _generated()
    if key in HOMES:
        return Found(SYMBOL, key, home=HOMES[key])
    if key in MODULE_HOMES:
        return Found(generated.get(key, (MODULE,))[0], key, module=MODULE_HOMES[key])
    if key in _hand_made_parents():
        # On the way to a hand-made home (``learn.datasets`` of ``learn.datasets.mnist``).
        return Found(generated.get(key, (PACKAGE,))[0], key)
    if key in generated:
        kind, home, extra = generated[key]
        if kind == SYMBOL:
            return Found(SYMBOL, key, home=None if home == _GONE else _generated_home(home, extra))
        return Found(kind, key, module=None if home == _GONE else home)
    parent = key.rpartition(".")[0]
    while parent:
        rest = key[len(parent) + 1:]
        if parent in MODULE_HOMES:
            # A mirror has the names the table lists for its module (with their homes
            # there); another name may not be in it: reported, never written.
            if parent in _listed_modules():
                return Found(SYMBOL, key)
            return Found(SYMBOL, key, home=Home(MODULE_HOMES[parent], rest))
        kind, home, alias = generated.get(parent, ("", "", ""))
        if alias:
            return lookup(f"{alias}.{rest}")
        if kind == MODULE and home != _GONE:
            return Found(SYMBOL, key, home=Home(home, rest))
        if kind in (MODULE, PACKAGE):
            # A module listed with its names: another name was not in it.
            return Found(SYMBOL, parent) if parent not in _listed_modules() else None
        parent = parent.rpartition(".")[0]
    return None


@dataclass(frozen=True)
class ChainEnd:
    """Where a dotted use of tf.contrib stops being modules.

    ``found`` is the first name of the chain that is not a module (a symbol with a
    home, a gone one, or None: a name TF 1.15 did not have), or None when the whole
    chain is modules; ``key`` is the chain up to that name.
    """

    key: str
    found: Optional[Found]

    @property
    def is_module(self) -> bool:
        return self.found is not None and self.found.is_module


def chain_end(key: str) -> Optional[ChainEnd]:
    """The first non-module part of ``tensorflow.contrib.<key>`` (``layers.conv2d`` of
    ``layers.conv2d.__doc__``); None if not even its first part is a contrib module.

    Args:
      key: a chain relative to ``tensorflow.contrib``.

    Returns:
      Where the module part of the chain ends, and what is found there.
    """
    parts = key.split(".")
    found: Optional[Found] = None
    for end in range(1, len(parts) + 1):
        prefix = ".".join(parts[:end])
        previous, found = found, lookup(prefix)
        if found is None and previous is None:
            return None
        if found is None or not found.is_module:
            return ChainEnd(prefix, found)
    return ChainEnd(key, found)


def module_value_home(key: str, member: str = "") -> Optional[Tuple[str, str]]:
    """What a contrib module used as a value becomes (``mock.patch.object(
    tf.contrib.layers, 'summarize_collection')``): the module its members' uses are
    rewritten to, so that reading or patching an attribute there reaches what the
    ported calls call.

    That is slim_ext's mirror of the module, or, when the one attribute read from the
    value is known (``member``), the place its home is an attribute of under its own
    name; a module whose members went to several places has no home as a value.

    Args:
      key: a contrib module, relative to ``tensorflow.contrib``.
      member: the attribute read from the value, when the code names it.

    Returns:
      (package, attribute path inside it, maybe empty), or None.
    """
    if key in MODULE_HOMES:
        return PUBLIC_PATHS.get(MODULE_HOMES[key], (MODULE_HOMES[key], ""))
    found = lookup(f"{key}.{member}") if member else None
    if found is None or found.home is None or found.home.name != member:
        return None
    if not found.home.attribute_reaches:
        return None
    return found.home.package, found.home.attribute.rpartition(".")[0]


@lru_cache(maxsize=1)
def _hand_made_parents() -> FrozenSet[str]:
    """The modules the keys of HOMES and MODULE_HOMES are in."""
    return frozenset(".".join(key.split(".")[:end]) for key in [*HOMES, *MODULE_HOMES]
                     for end in range(1, key.count(".") + 1))


@lru_cache(maxsize=1)
def _listed_modules() -> FrozenSet[str]:
    """The modules whose names the generated table lists one by one."""
    return frozenset(key.rpartition(".")[0] for key in _generated())


def listed_names() -> Dict[str, Tuple[str, str, str]]:
    """The generated table as it is, for the tests.

    Returns:
      Key -> (kind, home, last column) of each line of contrib_api.txt.
    """
    return dict(_generated())
