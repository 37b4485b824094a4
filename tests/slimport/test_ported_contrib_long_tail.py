"""tf.contrib names TF 1.x resolved that had a home all along (issue 41), ported, then run
here: the ported module computes what TensorFlow 1.15 computed.

The module below is written as TF 1.x projects wrote it: contrib.nn's
``deprecated_flipped_*`` losses (logits first), contrib.lookup's tables from a tensor
(``mapping=``) and from a file, the submodule ``tf.contrib.layers.summaries`` that TF 1.15
bound as an attribute, the XLA jit scope a plain contrib file re-exported,
``tf.contrib.keras`` and ``tf.contrib.tpu.InputPipelineConfig``; and the embedding
projector's config, which TensorBoard keeps; and TF 1.4's contrib.data map keywords
(dataset_map_threads). ``TF115`` is what the
unported module returned on TensorFlow 1.15.5 (Python 3.7, the same inputs); the ported
one runs in this process (its graph is its own). contrib.gan.eval's frozen-graph helpers
(TF 1.14's: 1.15 had no contrib.gan) are checked against what their TF 1.14 definitions
compute, worked out with NumPy.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from slimport import engine
from slimport.analysis.findings import EDIT
from slimport.codemods import CODEMODS

pytestmark = pytest.mark.tf

TF1_MODULE = '''\
"""A TF 1.x module calling tf.contrib names that had a home all along (issue 41)."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers import summaries


def run(vocab_file):
    logits = np.array([[2.0, -1.0, 0.5], [0.1, 0.2, 3.0]], np.float32)
    labels = np.array([[0.0, 1.0, 0.0], [0.2, 0.3, 0.5]], np.float32)
    with tf.Graph().as_default():
        softmax = tf.contrib.nn.deprecated_flipped_softmax_cross_entropy_with_logits(
            logits, labels)
        sigmoid = tf.contrib.nn.deprecated_flipped_sigmoid_cross_entropy_with_logits(
            logits, labels)
        sparse = tf.contrib.nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits(
            logits, np.array([1, 2]))
        words = tf.constant(["lake", "emerson", "and", "palmer"])
        ids = tf.contrib.lookup.index_table_from_tensor(
            mapping=["emerson", "lake", "palmer"], num_oov_buckets=1).lookup(words)
        names = tf.contrib.lookup.index_to_string_table_from_tensor(
            ["emerson", "lake", "palmer"], default_value="?").lookup(
                tf.constant([2, 0, 7], tf.int64))
        file_ids = tf.contrib.lookup.index_table_from_file(vocab_file).lookup(words)
        file_names = tf.contrib.lookup.index_to_string_table_from_file(vocab_file).lookup(
            tf.constant([1, 5], tf.int64))
        old_ids = tf.contrib.lookup.string_to_index(words, mapping=["and", "lake"])
        activation = tf.nn.relu(tf.constant(logits), name="act")
        tf.contrib.layers.summaries.summarize_activation(activation)
        summaries.summarize_tensor(tf.reduce_sum(activation), tag="total")
        with tf.contrib.compiler.jit.experimental_jit_scope():
            doubled = tf.constant(logits) * 2.0
        tags = sorted((s.op.type, s.op.name)
                      for s in tf.get_collection(tf.GraphKeys.SUMMARIES))
        with tf.Session() as session:
            session.run(tf.tables_initializer())
            out = session.run({
                "softmax": softmax, "sigmoid": sigmoid, "sparse": sparse, "ids": ids,
                "names": names, "file_ids": file_ids, "file_names": file_names,
                "old_ids": old_ids, "doubled": doubled})
    out["tags"] = tags
    out["padded"] = tf.contrib.keras.preprocessing.sequence.pad_sequences(
        [[1, 2], [3]], maxlen=3)
    out["pipeline"] = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2
    return out
'''
# tf1_tail.run('vocab.txt') on TensorFlow 1.15.5, the vocabulary file being VOCABULARY.
TF115 = {
    "doubled": [[4.0, -2.0, 1.0], [0.2, 0.4, 6.0]],
    "file_ids": [1, 0, -1, 2],
    "file_names": [b"lake", b"UNK"],
    "ids": [1, 0, 3, 2],
    "names": [b"palmer", b"emerson", b"?"],
    "old_ids": [1, -1, 0, -1],
    "padded": [[0, 1, 2], [0, 0, 3]],
    "pipeline": 3,
    "sigmoid": [[2.1269280910491943, 1.3132617473602295, 0.9740769863128662],
                [0.7243966460227966, 0.7381388545036316, 1.5485873222351074]],
    "softmax": [3.2413113117218018, 1.5296015739440918],
    "sparse": [3.2413113117218018, 0.1096014678478241],
    "tags": [("HistogramSummary", "act/activation"), ("ScalarSummary", "act/zeros"),
             ("ScalarSummary", "total")],
}
VOCABULARY = "emerson\nlake\npalmer\n"

PROJECTOR_MODULE = '''\
import os
import tensorflow as tf
from tensorflow.contrib.tensorboard.plugins import projector


def project(log_dir):
    config = projector.ProjectorConfig()
    embedding = config.embeddings.add()
    embedding.tensor_name = 'embedding/words'
    embedding.metadata_path = 'labels.tsv'
    embedding.sprite.single_image_dim.extend([28, 28])
    with tf.Graph().as_default():
        writer = tf.summary.FileWriter(log_dir)
        projector.visualize_embeddings(writer, config)
        writer.close()
    with open(os.path.join(log_dir, 'projector_config.pbtxt')) as f:
        return f.read()
'''
# proj.project(log_dir) on TensorFlow 1.15.5: the projector config file it wrote.
TF115_PROJECTOR_CONFIG = (
    'embeddings {\n  tensor_name: "embedding/words"\n  metadata_path: "labels.tsv"\n'
    '  sprite {\n    single_image_dim: 28\n    single_image_dim: 28\n  }\n}\n')

TF14_INPUT_MODULE = '''\
import tensorflow as tf


def squares(count):
    dataset = tf.contrib.data.Dataset.range(count)
    dataset = dataset.map(lambda x: x * x, num_threads=4, output_buffer_size=8)
    batches = dataset.batch(3).make_one_shot_iterator().get_next()
    values = []
    with tf.Session() as session:
        try:
            while True:
                values.append(session.run(batches).tolist())
        except tf.errors.OutOfRangeError:
            return values
'''

GAN_EVAL_MODULE = '''\
import numpy as np
import tensorflow as tf


def classify(graph_file):
    images = np.arange(2 * 4 * 4, dtype=np.uint8).reshape([2, 4, 4, 1]) * 7
    with tf.Graph().as_default():
        prepared = tf.contrib.gan.eval.preprocess_image(tf.constant(images), 2, 2)
        graph_def = tf.contrib.gan.eval.get_graph_def_from_disk(graph_file)
        logits = tf.contrib.gan.eval.run_image_classifier(
            tf.reshape(prepared, [2, 4]), graph_def, 'inputs:0', 'logits:0')
        with tf.Session() as session:
            return session.run([prepared, logits])
'''


BAYESIAN_MODULE = '''\
import numpy as np
import tensorflow as tf


def run():
    x = tf.constant(np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape([2, 3]))
    with tf.variable_scope("output"):
        flipout = tf.contrib.bayesflow.layers.DenseFlipout(4, activation=tf.nn.elu, seed=3)
        hidden = flipout(x)
        local = tf.contrib.bayesflow.layers.DenseLocalReparameterization(2)
        logits = local(hidden)
    kl = tf.reduce_sum([tf.reduce_sum(loss) for loss in flipout.losses + local.losses])
    variables = tf.global_variables()
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        values = session.run({v.op.name: v for v in variables})
        return values, session.run([logits, kl])
'''


def _ported_module(source: str, root: Path, name: str):
    """``source`` ported (with nothing reported and no tf.contrib left), written to
    ``root/<name>.py`` and imported."""
    result = engine.port_source(source.encode("utf-8"), f"{name}.py", CODEMODS, {})
    assert result.error is None, result.error
    assert [finding for finding in result.findings if finding.kind != EDIT] == []
    path = root / f"{name}.py"
    path.write_text(result.after, encoding="utf-8")
    assert "tf.contrib" not in result.after.split("\n", 1)[1], result.after
    spec = importlib.util.spec_from_file_location(f"{name}_ported", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ported_module_computes_what_tf_1_15_computed(tmp_path: Path) -> None:
    (tmp_path / "vocab.txt").write_text(VOCABULARY, encoding="utf-8")
    out = _ported_module(TF1_MODULE, tmp_path, "tf1_tail").run(str(tmp_path / "vocab.txt"))
    assert set(out) == set(TF115)
    for key, expected in TF115.items():
        if key in ("doubled", "sigmoid", "softmax", "sparse"):
            np.testing.assert_allclose(out[key], expected, rtol=1e-6, err_msg=key)
        elif key == "tags":
            assert out[key] == expected
        else:
            assert np.asarray(out[key]).tolist() == expected, key


def _frozen_classifier(tf, path: Path, weights: np.ndarray) -> None:
    """A frozen network: ``logits = inputs @ weights``."""
    with tf.Graph().as_default() as graph:
        inputs = tf.compat.v1.placeholder(tf.float32, [None, 4], name="inputs")
        tf.matmul(inputs, tf.constant(weights), name="logits")
    path.write_bytes(graph.as_graph_def().SerializeToString())


def test_gan_eval_frozen_graph_helpers_compute_tf_1_14s_definitions(tmp_path: Path) -> None:
    import tensorflow as tf

    weights = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -1.0]], np.float32)
    _frozen_classifier(tf, tmp_path / "classifier.pb", weights)
    module = _ported_module(GAN_EVAL_MODULE, tmp_path, "gan_eval_user")
    prepared, logits = module.classify(str(tmp_path / "classifier.pb"))
    # TF1's bilinear resize of 4x4 to 2x2 (no align_corners, no half-pixel centres)
    # samples every other pixel; then [0, 255] -> [-1, 1].
    images = np.arange(2 * 4 * 4, dtype=np.float32).reshape([2, 4, 4, 1]) * 7
    expected = (images[:, ::2, ::2, :] - 128.0) / 128.0
    np.testing.assert_allclose(prepared, expected, rtol=1e-6)
    np.testing.assert_allclose(logits, expected.reshape([2, 4]) @ weights, rtol=1e-6)


def test_the_projector_config_goes_to_tensorboard_and_is_written_as_tf_1_15_wrote_it(
        tmp_path: Path) -> None:
    module = _ported_module(PROJECTOR_MODULE, tmp_path, "embeddings")
    assert module.project(str(tmp_path)) == TF115_PROJECTOR_CONFIG


def test_a_tf_1_4_input_pipeline_yields_what_tf_1_4s_parallel_map_and_buffer_did(
        tmp_path: Path) -> None:
    module = _ported_module(TF14_INPUT_MODULE, tmp_path, "tf14_input")
    text = (tmp_path / "tf14_input.py").read_text(encoding="utf-8")
    assert ".map(lambda x: x * x, num_parallel_calls=4).prefetch(8)" in text
    import tensorflow as tf

    with tf.Graph().as_default():
        # TF 1.4's map: ParallelMapDataset(num_threads), in order, then prefetch.
        assert module.squares(7) == [[0, 1, 4], [9, 16, 25], [36]]


def test_bayesian_layers_of_tf_1_6_run_as_tfp_layers(tmp_path: Path) -> None:
    # tf.contrib.bayesflow.layers (TF 1.6-1.7; 1.15 had none) -> tfp.layers: TF 1.6's
    # variable names, and its divergence (KL of each weight's posterior Normal to the
    # standard Normal prior; the biases are point estimates) summed.
    pytest.importorskip("tensorflow_probability")
    import tensorflow as tf

    with tf.Graph().as_default():
        values, (logits, kl) = _ported_module(BAYESIAN_MODULE, tmp_path, "bayes").run()
    assert sorted(values) == [
        f"output/{layer}/{name}"
        for layer in ("dense_flipout", "dense_local_reparameterization")
        for name in ("bias_posterior_loc", "kernel_posterior_loc",
                     "kernel_posterior_untransformed_scale")]
    assert logits.shape == (2, 2)
    expected = 0.0
    for layer in ("dense_flipout", "dense_local_reparameterization"):
        loc = values[f"output/{layer}/kernel_posterior_loc"]
        scale = np.logaddexp(0.0, values[f"output/{layer}/kernel_posterior_untransformed_scale"])
        expected += np.sum(-np.log(scale) + (scale ** 2 + loc ** 2) / 2.0 - 0.5)
    np.testing.assert_allclose(kl, expected, rtol=1e-5)
