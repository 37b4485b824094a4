"""contrib_symbols: tf.contrib.{framework,layers,metrics,...} -> tf_slim / compat.v1 / stand-ins."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.contrib_symbols import ContribSymbolsCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod


run = functools.partial(run_codemod, ContribSymbolsCommand)


class TestContribSymbols(IdempotentCodemodTest):
    TRANSFORM = ContribSymbolsCommand

    def test_framework_attribute_with_tf_slim_already_imported(self) -> None:
        before = """
            import tensorflow as tf
            import tf_slim as slim

            with tf.contrib.framework.arg_scope([slim.conv2d], padding='SAME'):
                net = slim.conv2d(images, 32, [3, 3])
        """
        after = """
            import tensorflow as tf
            import tf_slim as slim

            with slim.arg_scope([slim.conv2d], padding='SAME'):
                net = slim.conv2d(images, 32, [3, 3])
        """
        self.assertCodemod(before, after)

    def test_global_step_goes_to_compat_v1_through_the_files_tf(self) -> None:
        before = """
            import tensorflow as tf

            global_step = tf.contrib.framework.get_or_create_global_step()
        """
        after = """
            import tensorflow as tf

            global_step = tf.compat.v1.train.get_or_create_global_step()
        """
        self.assertCodemod(before, after)

    def test_compat_v1_tf_is_used_directly(self) -> None:
        before = """
            import tensorflow.compat.v1 as tf

            step = tf.contrib.framework.get_global_step()
        """
        after = """
            import tensorflow.compat.v1 as tf

            step = tf.train.get_global_step()
        """
        self.assertCodemod(before, after)

    def test_module_alias_with_several_homes_is_dropped_when_unused(self) -> None:
        before = """
            import tensorflow as tf
            from tensorflow.contrib import layers as contrib_layers

            init = contrib_layers.xavier_initializer()
            reg = contrib_layers.l2_regularizer(4e-5)
            emb = contrib_layers.safe_embedding_lookup_sparse(params, ids)
        """
        after = """
            import tensorflow as tf
            import tf_slim

            init = tf_slim.xavier_initializer()
            reg = tf_slim.l2_regularizer(4e-5)
            emb = tf.compat.v1.nn.safe_embedding_lookup_sparse(params, ids)
        """
        self.assertCodemod(before, after)

    def test_import_module_as_alias(self) -> None:
        before = """
            import tensorflow.contrib.layers as layers

            net = layers.fully_connected(net, 10)
        """
        after = """
            import tf_slim

            net = tf_slim.fully_connected(net, 10)
        """
        self.assertCodemod(before, after)

    def test_from_import_of_symbols_moves_each_to_its_home(self) -> None:
        before = """
            from tensorflow.contrib.framework import arg_scope, get_or_create_global_step  # both
            from tensorflow.contrib.metrics import streaming_accuracy as accuracy
        """
        after = """
            from tf_slim import arg_scope
            from tensorflow.compat.v1.train import get_or_create_global_step  # both
            from tf_slim.metrics import streaming_accuracy as accuracy
        """
        self.assertCodemod(before, after)

    def test_deep_source_path_module(self) -> None:
        before = """
            from tensorflow.contrib.framework.python.ops import arg_scope
            import tf_slim as slim

            @arg_scope.add_arg_scope
            def my_layer(x):
                return x
        """
        after = """
            import tf_slim as slim

            @slim.add_arg_scope
            def my_layer(x):
                return x
        """
        self.assertCodemod(before, after)

    def test_deep_source_path_symbol(self) -> None:
        before = """
            from tensorflow.contrib.layers.python.layers.initializers import xavier_initializer
        """
        after = """
            from tf_slim import xavier_initializer
        """
        self.assertCodemod(before, after)

    def test_assigned_module_alias(self) -> None:
        before = """
            import tensorflow as tf
            import tf_slim as slim
            losses = tf.contrib.losses

            loss = losses.softmax_cross_entropy(logits, labels)
        """
        after = """
            import tensorflow as tf
            import tf_slim as slim

            loss = slim.losses.softmax_cross_entropy(logits, labels)
        """
        self.assertCodemod(before, after)

    def test_pre_1_0_summary_ops(self) -> None:
        before = """
            import tensorflow as tf

            tf.contrib.deprecated.scalar_summary('training/Learning Rate', lr)
        """
        after = """
            import tensorflow as tf

            tf.compat.v1.summary.scalar('training/Learning Rate', lr)
        """
        self.assertCodemod(before, after)

    def test_no_tf_binding_adds_compat_v1_import(self) -> None:
        before = """
            from tensorflow.contrib import data as contrib_data

            ds = ds.apply(contrib_data.map_and_batch(fn, 32))
        """
        after = """
            import tensorflow.compat.v1 as tf

            ds = ds.apply(tf.data.experimental.map_and_batch(fn, 32))
        """
        self.assertCodemod(before, after)

    def test_stand_ins_keep_the_file_importable(self) -> None:
        before = """
            import tensorflow as tf
            from tensorflow.contrib.training import HParams

            hparams = HParams(learning_rate=0.1)
            tf.contrib.quantize.create_training_graph(quant_delay=0)
        """
        after = """
            import tensorflow as tf
            from slim_ext.contrib import HParams
            import slim_ext.contrib

            hparams = HParams(learning_rate=0.1)
            slim_ext.contrib.quantize_create_training_graph(quant_delay=0)
        """
        self.assertCodemod(before, after)

    def test_tf_slim_training_symbols_import_from_their_file(self) -> None:
        before = """
            from tensorflow.contrib.training import create_train_op
        """
        after = """
            from tf_slim.training.training import create_train_op
        """
        self.assertCodemod(before, after)

    def test_stand_in_keeps_the_local_name(self) -> None:
        before = """
            from tensorflow.contrib.quantize import create_eval_graph
        """
        after = """
            from slim_ext.contrib import quantize_create_eval_graph as create_eval_graph
        """
        self.assertCodemod(before, after)

    def test_unknown_symbol_is_left_and_its_import_kept(self) -> None:
        before = """
            from tensorflow.contrib import layers

            init = layers.xavier_initializer()
            emb = layers.embed_sequence(ids, 10, 4)
        """
        after = """
            from tensorflow.contrib import layers
            import tf_slim

            init = tf_slim.xavier_initializer()
            emb = layers.embed_sequence(ids, 10, 4)
        """
        self.assertCodemod(before, after)

    def test_dropped_import_that_was_a_whole_try_block(self) -> None:
        before = """
            import tensorflow as tf
            try:
                from tensorflow.contrib import framework
            except ImportError:
                framework = None

            scope = framework.arg_scope
        """
        after = """
            import tensorflow as tf
            import tf_slim

            try:
                pass
            except ImportError:
                framework = None

            scope = tf_slim.arg_scope
        """
        self.assertCodemod(before, after)

    def test_parenthesised_chain_and_comments_survive(self) -> None:
        before = """
            import tensorflow as tf  # TF1
            import tf_slim as slim

            # Count steps.
            step = (tf.contrib.framework.get_or_create_global_step)()  # here
        """
        after = """
            import tensorflow as tf  # TF1
            import tf_slim as slim

            # Count steps.
            step = (tf.compat.v1.train.get_or_create_global_step)()  # here
        """
        self.assertCodemod(before, after)


NOOP = [
    # tf.contrib.slim belongs to contrib_slim, which runs before this codemod.
    "import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d(x, 1, 1)\n",
    "from tensorflow.contrib import slim\n",
    # Code that says "contrib" without being TensorFlow's.
    "import django.contrib.admin as admin\nadmin.site.register(Model)\n",
    "from mylib.contrib import layers\nlayers.conv2d(x)\n",
    "contrib = {'layers': 1}\nprint(contrib['layers'])\n",
    # ``tf`` is not TensorFlow here.
    "import tfx as tf\ntf.contrib.framework.arg_scope()\n",
    # Already ported.
    ("import tensorflow.compat.v1 as tf\nimport tf_slim as slim\nimport slim_ext.contrib\n"
     "with slim.arg_scope([]):\n    slim_ext.contrib.HParams()\n"),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_finding_lines_and_fixes() -> None:
    code, findings = run('''\
        import tensorflow as tf

        hp = tf.contrib.training.HParams(lr=0.1)
        x = tf.contrib.layers.embed_sequence(ids)
        tf.contrib.learn.datasets.load_dataset('mnist')
    ''')
    attention = [(f.line, f.message.split(" ")[0], f.fix)
                 for f in findings if f.kind == "attention"]
    assert attention[0][:2] == (3, "tf.contrib.training.HParams")
    assert "ml_collections" in attention[0][2]
    assert attention[1][:2] == (4, "tf.contrib.layers.embed_sequence")
    # One finding per chain: not one for learn.datasets and another for the rest.
    assert attention[2][:2] == (5, "tf.contrib.learn.datasets")
    assert len(attention) == 3
    assert "slim_ext.contrib.HParams(lr=0.1)" in code


def test_kept_alias_import_is_reported_at_its_line() -> None:
    _, findings = run('''\
        import tensorflow as tf
        from tensorflow.contrib import layers

        layers.embed_sequence(ids)
    ''')
    kept = [f for f in findings if "still used" in f.message]
    assert [f.line for f in kept] == [2]


