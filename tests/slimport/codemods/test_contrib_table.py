"""contrib_table: every tf.contrib name of TF 1.15 has a home that exists, or is listed as gone.

The generated table (contrib_api.txt) lists what TensorFlow 1.15's contrib modules
exported; these tests check its homes against the installed TensorFlow and tf_slim,
the hand-made homes on top of it, and the generator's reading of a module tree
(on a small tree of our own, since TF 1.15 does not install on Python 3.11).
"""
from __future__ import annotations

import importlib
import sys
import zipfile
from pathlib import Path
from typing import Dict
from unittest import mock

import pytest

from slimport.tables.contrib_table import (
    HOMES,
    MODULE,
    MODULE_HOMES,
    SYMBOL,
    Found,
    Home,
    listed_names,
    lookup,
    module_value_home,
)
from slimport.tables.tf_api import COMPAT_V1

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools"))
import gen_contrib_table  # noqa: E402  (tools/ is not a package)

LISTED = listed_names()
SYMBOL_HOMES = sorted(key for key, (kind, home, _) in LISTED.items()
                      if kind == SYMBOL and home != "-")
# Contrib files with a home: ``from ... import`` of them moves the module as it is.
MOVED_FILES = sorted(key for key, (kind, home, _) in LISTED.items()
                     if kind == MODULE and home != "-")
# Symbols listed as gone inside a contrib file module that moved to a tf_slim module.
GONE_IN_MOVED = sorted(
    key for key, (kind, home, _) in LISTED.items()
    if kind == SYMBOL and home == "-"
    and LISTED.get(key.rpartition(".")[0], ("", "-", ""))[:2][0] == MODULE
    and LISTED[key.rpartition(".")[0]][1] != "-")


@pytest.fixture(scope="module")
def ported_runtime() -> None:
    """What ported code imports with its homes: slim_ext routes tf.compat.v1.layers and
    nn.rnn_cell to tf_keras where TensorFlow would send them to Keras 3, and revives
    tensorflow-estimator 2.15 (tf.compat.v1.estimator.tpu, tensorflow_estimator's modules)."""
    importlib.import_module("slim_ext")


def _resolve(home: Home) -> object:
    obj = importlib.import_module(home.package)
    for part in home.attribute.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("key, home", [
    # Seen missing on real TF1 trees.
    ("layers.python.layers.utils.get_variable_collections",
     "tf_slim.utils.get_variable_collections"),
    ("layers.python.layers.utils.collect_named_outputs", "tf_slim.utils.collect_named_outputs"),
    ("layers.get_variable_collections", "tf_slim.layers.utils.get_variable_collections"),
    ("util.constant_value", f"{COMPAT_V1}.get_static_value"),
    ("framework.deprecated", "slim_ext.contrib.framework.deprecated"),
    ("framework.python.ops.add_arg_scope", "tf_slim.add_arg_scope"),
    ("tfprof.model_analyzer.print_model_analysis",
     "slim_ext.contrib.tfprof.model_analyzer.print_model_analysis"),
    # Structural: the file tf_slim kept, under its new name.
    ("losses.python.metric_learning.metric_loss_ops.triplet_semihard_loss",
     "tf_slim.losses.triplet_semihard_loss"),
    ("losses.metric_learning.lifted_struct_loss", "tf_slim.losses.lifted_struct_loss"),
    ("layers.conv2d", "tf_slim.conv2d"),
    # The one contrib.training meant, not tf_slim.evaluation's namesake.
    ("training.evaluate_once", "tf_slim.train_eval.evaluate_once"),
    # Core re-exports: the tf.compat.v1 name TF 1.15 exported.
    ("rnn.LSTMCell", f"{COMPAT_V1}.nn.rnn_cell.LSTMCell"),
    # Inside a module slim_ext mirrors.
    ("image.python.ops.image_ops.rotate", "slim_ext.contrib.image.rotate"),
    # Estimator-era trainers: contrib.learn's RunConfig, the ps placement strategy,
    # TPUEstimator (tensorflow-estimator 2.15's).
    ("learn.RunConfig", "slim_ext.contrib.learn.RunConfig"),
    ("learn.python.learn.estimators.run_config.RunConfig",
     "slim_ext.contrib.learn.run_config.RunConfig"),
    ("training.GreedyLoadBalancingStrategy",
     "slim_ext.contrib.training.GreedyLoadBalancingStrategy"),
    ("training.python.training.device_setter.byte_size_load_fn",
     "slim_ext.contrib.training.byte_size_load_fn"),
    ("tpu.TPUEstimator", f"{COMPAT_V1}.estimator.tpu.TPUEstimator"),
    ("tpu.python.tpu.tpu_estimator.TPUEstimatorSpec",
     "tensorflow_estimator.python.estimator.tpu.tpu_estimator.TPUEstimatorSpec"),
    # Re-exported from core by TF 1.15's contrib module, kept by its mirror (issue 25).
    ("tfprof.ProfileContext", "slim_ext.contrib.tfprof.ProfileContext"),
    # contrib's own HashTable: its signature and ``init`` kept on StaticHashTable.
    ("lookup.HashTable", "slim_ext.contrib.lookup.HashTable"),
    # Maintained successors (issue 30): TensorFlow Probability, TF-GAN.
    ("distributions.Normal", "tensorflow_probability.distributions.Normal"),
    ("distributions.RelaxedOneHotCategorical",
     "tensorflow_probability.distributions.RelaxedOneHotCategorical"),
    ("distributions.kl_divergence", "tensorflow_probability.distributions.kl_divergence"),
    ("distributions.bijectors.Exp", "tensorflow_probability.bijectors.Exp"),
    ("distributions.percentile", "tensorflow_probability.stats.percentile"),
    ("distributions.softplus_inverse", "tensorflow_probability.math.softplus_inverse"),
    ("bayesflow.monte_carlo.expectation", "tensorflow_probability.monte_carlo.expectation"),
    ("gan.gan_model", "tensorflow_gan.gan_model"),
    ("gan.losses.wasserstein_generator_loss",
     "tensorflow_gan.losses.wasserstein_generator_loss"),
    ("gan.eval.frechet_inception_distance", "tensorflow_gan.eval.frechet_inception_distance"),
    # TF1's recurrent pieces: the core twin where there is one, else slim_ext's cell.
    ("rnn.BasicLSTMCell", f"{COMPAT_V1}.nn.rnn_cell.BasicLSTMCell"),
    ("rnn.LSTMBlockCell", "slim_ext.contrib.rnn.LSTMBlockCell"),
    ("rnn.stack_bidirectional_dynamic_rnn", "slim_ext.contrib.rnn.stack_bidirectional_dynamic_rnn"),
    ("rnn.python.ops.rnn_cell.LayerNormLSTMCell",
     "slim_ext.contrib.rnn.rnn_cell.LayerNormLSTMCell"),
    ("cudnn_rnn.CudnnCompatibleLSTMCell", "slim_ext.contrib.cudnn_rnn.CudnnCompatibleLSTMCell"),
    ("legacy_seq2seq.attention_decoder", "slim_ext.contrib.legacy_seq2seq.attention_decoder"),
    ("seq2seq.dynamic_decode", "slim_ext.contrib.seq2seq.dynamic_decode"),
    ("seq2seq.TrainingHelper", "slim_ext.contrib.seq2seq.TrainingHelper"),
    # Its attention and beam search (issue 41), with TF 1.15's numbers.
    ("seq2seq.AttentionWrapperState", "slim_ext.contrib.seq2seq.AttentionWrapperState"),
    ("seq2seq.BeamSearchDecoderState", "slim_ext.contrib.seq2seq.BeamSearchDecoderState"),
    ("seq2seq.python.ops.beam_search_ops.gather_tree",
     "slim_ext.contrib.beam_search_decoder.gather_tree"),
    # TF 1.6-1.7's Bayesian layers (issue 41): TFP's, under TFP's names.
    ("bayesflow.layers.DenseLocalReparameterization",
     "tensorflow_probability.layers.DenseLocalReparameterization"),
    ("bayesflow.layers.Conv3DFlipout", "tensorflow_probability.layers.Convolution3DFlipout"),
    # TF1's linear-chain CRF (issue 41): slim_ext's, with TF 1.15's numbers.
    ("crf.crf_log_likelihood", "slim_ext.contrib.crf.crf_log_likelihood"),
    ("crf.python.ops.crf.viterbi_decode", "slim_ext.contrib.crf.viterbi_decode"),
])
def test_symbol_homes(key: str, home: str) -> None:
    found = lookup(key)
    assert found is not None and found.home is not None, key
    assert found.home.dotted == home


@pytest.mark.parametrize("key, module", [
    ("layers.python.layers.layers", "tf_slim.layers.layers"),
    ("layers.python.layers.utils", "tf_slim.layers.utils"),
    ("framework.python.ops.arg_scope", "tf_slim.ops.arg_scope"),
    ("metrics.python.ops.metric_ops", "tf_slim.metrics.metric_ops"),
    ("slim.python.slim.nets.vgg", "tf_slim.nets.vgg"),
    ("quantize.python.graph_matcher", "slim_ext.contrib.quantize.graph_matcher"),
    ("learn.python.learn.run_config", "slim_ext.contrib.learn.run_config"),
    ("training.python.training.device_setter", "slim_ext.contrib.training"),
    ("tpu.python.tpu.tpu_config", "tensorflow_estimator.python.estimator.tpu.tpu_config"),
    ("distributions", "tensorflow_probability.python.distributions"),
    ("distributions.bijectors", "tensorflow_probability.python.bijectors"),
    ("gan", "tensorflow_gan"),
    ("gan.losses", "tensorflow_gan.python.losses"),
    ("rnn", "slim_ext.contrib.rnn"),
    ("cudnn_rnn.python.layers.cudnn_rnn", "slim_ext.contrib.cudnn_rnn"),
    ("legacy_seq2seq", "slim_ext.contrib.legacy_seq2seq"),
    ("crf", "slim_ext.contrib.crf"),
])
def test_module_homes(key: str, module: str) -> None:
    found = lookup(key)
    assert found is not None and found.is_module and found.module == module


@pytest.mark.parametrize("key, listed", [
    ("layers.embed_sequence", "layers.embed_sequence"),
    # TFP has no such class: reported with the fix (the plain class, softplus applied).
    ("distributions.NormalWithSoftplusScale", "distributions.NormalWithSoftplusScale"),
    ("distributions.bijectors.Affine", "distributions.bijectors.Affine"),
    ("gan.estimator.GANHead", "gan.estimator.GANHead"),
    ("rnn.ConvLSTMCell", "rnn.ConvLSTMCell"),
    # TF 1.15's own V2 (Keras) attention classes: not in slim_ext's mirror.
    ("seq2seq.python.ops.attention_wrapper.LuongAttentionV2",
     "seq2seq.python.ops.attention_wrapper.LuongAttentionV2"),
    ("framework.python.ops.variables.zero_initializer",
     "framework.python.ops.variables.zero_initializer"),
    # A name of a mirrored module that the mirror lacks is reported, never written;
    # so is a name the table does not list for it.
    ("learn.python.learn.preprocessing.CategoricalProcessor",
     "learn.python.learn.preprocessing.CategoricalProcessor"),
    ("tfprof.model_analyzer.ProfileContext", "tfprof.model_analyzer.ProfileContext"),
])
def test_gone_names(key: str, listed: str) -> None:
    found = lookup(key)
    assert found is not None and found.is_gone and found.listed == listed


@pytest.mark.parametrize("key", ["layers.no_such_layer", "not_a_package.x", "metrics.Nope"])
def test_names_tf_1_15_did_not_have(key: str) -> None:
    assert lookup(key) is None


def test_every_listed_name_has_a_home_or_is_gone() -> None:
    # The table is the list of reachable names; each must answer one way or the other.
    unanswered = [key for key in LISTED if lookup(key) is None]
    assert not unanswered
    assert len(SYMBOL_HOMES) > 800 and len(LISTED) > 2000


@pytest.mark.tf
@pytest.mark.parametrize("key", SYMBOL_HOMES)
def test_every_generated_home_exists(key: str, ported_runtime: None) -> None:
    """As an attribute chain, and by ``from M import N`` (the same object)."""
    found = lookup(key)
    assert found is not None and found.home is not None
    if key in HOMES:
        return  # checked below
    obj = _resolve(found.home)
    imported = getattr(importlib.import_module(found.home.import_from), found.home.name)
    if found.home.package != COMPAT_V1:
        assert imported is obj, key
    # (Not asked of tf.compat.v1 homes: where a test before this one in the same
    # process imported ``tensorflow.compat.v1.nn.rnn_cell`` before slim_ext, the
    # module is TensorFlow's own legacy copy of the cells, not the tf_keras ones
    # slim_ext routes the attribute to: different classes of one name.)


@pytest.mark.tf
@pytest.mark.parametrize("key", MOVED_FILES)
def test_every_moved_module_has_what_its_listed_names_need(key: str) -> None:
    """Uses through a moved import stay as they are: the new module must have every
    name the contrib module had that is not listed as gone."""
    found = lookup(key)
    assert found is not None and found.module is not None
    module = importlib.import_module(found.module)
    prefix = key + "."
    for name, (_, home, _) in LISTED.items():
        if name.startswith(prefix) and "." not in name[len(prefix):] and home != "-":
            assert hasattr(module, name[len(prefix):]), name


@pytest.mark.tf
@pytest.mark.parametrize("key", GONE_IN_MOVED)
def test_names_listed_as_gone_are_gone(key: str) -> None:
    parent = lookup(key.rpartition(".")[0])
    assert parent is not None and parent.module is not None
    assert not hasattr(importlib.import_module(parent.module), key.rpartition(".")[2])


@pytest.mark.tf
@pytest.mark.parametrize("key", sorted(HOMES))
def test_every_hand_made_home_exists(key: str, ported_runtime: None) -> None:
    home = HOMES[key]
    obj = _resolve(home)
    assert getattr(importlib.import_module(home.import_from), home.name) is obj
    if home.is_stand_in:
        assert callable(obj)


@pytest.mark.tf
@pytest.mark.parametrize("key", sorted(MODULE_HOMES))
def test_every_hand_made_module_home_imports(key: str, ported_runtime: None) -> None:
    importlib.import_module(MODULE_HOMES[key])


@pytest.mark.tf
@pytest.mark.parametrize("key", sorted(MODULE_HOMES))
def test_a_mirror_used_as_a_value_has_what_its_members_became(
        key: str, ported_runtime: None) -> None:
    """``mock.patch.object(tf.contrib.quantize, 'create_training_graph')`` is ported to
    a patch of the mirror: it must reach what ``tf.contrib.quantize.<name>(...)`` is
    ported to call (looked up through the mirror when called), for every name of the
    module that has a home."""
    package, attribute = module_value_home(key)  # type: ignore[misc]
    mirror = _resolve(Home(package, attribute)) if attribute else importlib.import_module(package)
    # The members the mirror holds (a CORE_FIRST mirror's core names are the core twins,
    # and TFP keeps contrib.distributions' helpers in tfp.stats / tfp.math: reached
    # through the module value by name, patched where they live).
    holder = f"{package}.{attribute}" if attribute else package
    members = [name for name in [*LISTED, *HOMES]
               if name.rpartition(".")[0] == key and (lookup(name) or Found("", "")).home
               and lookup(name).home.dotted  # type: ignore[union-attr]
               == f"{holder}.{name.rpartition('.')[2]}"]
    for name in members:
        home = lookup(name).home  # type: ignore[union-attr]
        with mock.patch.object(mirror, name.rpartition(".")[2]) as patched:
            assert _resolve(home) is patched, name


# -- the generator's reading of a TF 1.15-style tree ----------------------------------

TREE: Dict[str, str] = {
    "tensorflow_core/__init__.py": "",
    "tensorflow_core/python/__init__.py": "",
    "tensorflow_core/python/ops/__init__.py": "",
    "tensorflow_core/python/ops/core_ops.py": (
        "from tensorflow.python.util.tf_export import tf_export\n"
        "@tf_export(v1=['nn.rnn_cell.LSTMCell'])\nclass LSTMCell(object): pass\n"
        "@tf_export('get_static_value')\ndef constant_value(x): pass\n"
        "def _private_helper(x): pass\n"),
    "tensorflow_core/contrib/__init__.py": "from tensorflow.contrib import pkg\n",
    "tensorflow_core/contrib/pkg/__init__.py": (
        '"""Pkg.\n\n@@layer\n@@LSTMCell\n@@constant_value\n"""\n'
        "from tensorflow.contrib.pkg.python.mod import *\n"
        "from tensorflow.python.ops.core_ops import LSTMCell, constant_value\n"
        "from tensorflow.python.util.all_util import remove_undocumented\n"
        "_allowed = ['helper_alias']\nremove_undocumented(__name__, _allowed)\n"),
    "tensorflow_core/contrib/pkg/python/__init__.py": "",
    "tensorflow_core/contrib/pkg/python/mod.py": (
        "from tensorflow.python.ops import core_ops\n"
        "__all__ = ['layer', 'undocumented', 'helper_alias']\n"
        "def layer(x): pass\ndef undocumented(x): pass\n"
        "helper_alias = core_ops._private_helper\n"),
}


@pytest.fixture
def tf1_tree(tmp_path: Path) -> "gen_contrib_table.Tf1Tree":
    wheel = tmp_path / "tensorflow_cpu-1.15.0-cp37-cp37m-x.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in TREE.items():
            archive.writestr(path, text)
    return gen_contrib_table.Tf1Tree(zipfile.ZipFile(wheel))


def test_generator_reads_exports_as_tf_1_15_did(tf1_tree) -> None:  # type: ignore[no-untyped-def]
    assert tf1_tree.contrib_modules() == [
        "tensorflow.contrib.pkg", "tensorflow.contrib.pkg.python",
        "tensorflow.contrib.pkg.python.mod"]
    # remove_undocumented keeps the @@ names and the allowed list.
    assert sorted(tf1_tree.api("tensorflow.contrib.pkg")) == [
        "LSTMCell", "constant_value", "helper_alias", "layer"]
    # A file's API: what it defines or lists, not the modules it imports for itself.
    assert tf1_tree.api("tensorflow.contrib.pkg.python.mod") == [
        "layer", "undocumented", "helper_alias"]
    origin = tf1_tree.origin_of("tensorflow.contrib.pkg", "layer")
    assert (origin.module, origin.name) == ("tensorflow.contrib.pkg.python.mod", "layer")
    # An alias of a private core function keeps the binding it went through.
    alias = tf1_tree.origin_of("tensorflow.contrib.pkg", "helper_alias")
    assert alias.bindings()[0] == ("tensorflow.contrib.pkg.python.mod", "helper_alias")
    assert tf1_tree.v1_exports("tensorflow.python.ops.core_ops") == {
        "LSTMCell": ("nn.rnn_cell.LSTMCell",), "constant_value": ("get_static_value",)}


def test_generator_adds_the_paths_only_running_tf_1_15_shows(tf1_tree) -> None:  # type: ignore[no-untyped-def]
    # What tools/tf1_contrib_paths.py prints for paths the sources alone do not list.
    resolved = [
        # A submodule bound on its package by an import (tf.contrib.layers.summaries).
        ("pkg.mod", "module", "tensorflow.contrib.pkg.python.mod"),
        ("pkg.mod.layer", "symbol", "tensorflow.contrib.pkg.python.mod:layer"),
        # A core function a plain contrib file imported (compiler.jit's jit scope).
        ("pkg.scope", "symbol", "tensorflow.python.ops.core_ops:constant_value"),
        # A raw op a module star-imported, and a name with no home: not listed.
        ("pkg.Raw", "symbol", "tensorflow.python.ops.gen_core_ops:Raw"),
        ("pkg.own", "symbol", "tensorflow.contrib.pkg.python.mod:undocumented"),
        # contrib.slim is contrib_slim's, by tf_slim's layout.
        ("slim.mod", "module", "tensorflow.contrib.pkg.python.mod"),
    ]
    table = {"pkg.python.mod": ("module", "tf_slim.layers.mod", "")}
    # (No tf_slim file homes in this tree: the generator's TfSlim is not consulted.)
    added = gen_contrib_table.resolved_rows(tf1_tree, None, {}, table, resolved)
    assert added == {
        "pkg.mod": ("module", "tf_slim.layers.mod", "pkg.python.mod"),
        "pkg.scope": ("symbol", f"{COMPAT_V1}:get_static_value", ""),
    }
