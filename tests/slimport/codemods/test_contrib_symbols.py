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

    def test_deep_source_path_module_moves_to_its_tf_slim_module(self) -> None:
        before = """
            from tensorflow.contrib.framework.python.ops import arg_scope

            @arg_scope.add_arg_scope
            def my_layer(x):
                return x
        """
        after = """
            from tf_slim.ops import arg_scope

            @arg_scope.add_arg_scope
            def my_layer(x):
                return x
        """
        self.assertCodemod(before, after)

    def test_deep_modules_imported_together_keep_their_names(self) -> None:
        before = """
            from tensorflow.contrib.layers.python.layers import layers, utils

            net = layers.conv2d(x, 8, 3)
            utils.collect_named_outputs(collection, 'net', net)
            variables = utils.get_variable_collections(None, 'beta')
        """
        after = """
            from tf_slim.layers import layers
            from tf_slim.layers import utils

            net = layers.conv2d(x, 8, 3)
            utils.collect_named_outputs(collection, 'net', net)
            variables = utils.get_variable_collections(None, 'beta')
        """
        self.assertCodemod(before, after)

    def test_import_of_a_deep_module_as_a_name(self) -> None:
        before = """
            import tensorflow.contrib.layers.python.layers.layers as layers_lib

            net = layers_lib.fully_connected(x, 10)
        """
        after = """
            import tf_slim.layers.layers as layers_lib

            net = layers_lib.fully_connected(x, 10)
        """
        self.assertCodemod(before, after)

    def test_symbol_a_deep_package_re_exports(self) -> None:
        before = """
            from tensorflow.contrib.framework.python.ops import add_arg_scope
            from tensorflow.contrib.losses.python.metric_learning import triplet_semihard_loss
        """
        after = """
            from tf_slim import add_arg_scope
            from tf_slim.losses import triplet_semihard_loss
        """
        self.assertCodemod(before, after)

    def test_core_functions_contrib_re_exported(self) -> None:
        before = """
            import tensorflow as tf

            size = tf.contrib.util.constant_value(shape[0])
            cell = tf.contrib.rnn.BasicLSTMCell(128)
        """
        after = """
            import tensorflow as tf

            size = tf.compat.v1.get_static_value(shape[0])
            cell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(128)
        """
        self.assertCodemod(before, after)

    def test_deprecated_decorator_keeps_working(self) -> None:
        before = """
            import tensorflow as tf

            @tf.contrib.framework.deprecated(None, 'Use model_main.py.')
            def main(_):
                pass
        """
        after = """
            import tensorflow as tf
            import slim_ext.contrib.framework

            @slim_ext.contrib.framework.deprecated(None, 'Use model_main.py.')
            def main(_):
                pass
        """
        self.assertCodemod(before, after)

    def test_modules_slim_ext_mirrors(self) -> None:
        before = """
            import tensorflow as tf
            from tensorflow.contrib.image.python.ops import image_ops
            from tensorflow.contrib.quantize.python import graph_matcher

            rotated = tf.contrib.image.rotate(images, 0.5)
            stats = tf.contrib.tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS
        """
        after = """
            import tensorflow as tf
            from slim_ext.contrib import image as image_ops
            from slim_ext.contrib.quantize import graph_matcher
            import slim_ext.contrib.image
            import slim_ext.contrib.tfprof.model_analyzer

            rotated = slim_ext.contrib.image.rotate(images, 0.5)
            stats = slim_ext.contrib.tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS
        """
        self.assertCodemod(before, after)

    def test_names_contrib_re_exported_go_where_they_exist(self) -> None:
        # TF 1.15's contrib.tfprof re-exported ProfileContext from core; contrib.lookup
        # defined its own HashTable (shared_name third, ``init``).
        before = """
            import tensorflow as tf

            table = tf.contrib.lookup.HashTable(initializer, -1)
            with tf.contrib.tfprof.ProfileContext('/tmp/profile') as context:
                pass
        """
        after = """
            import tensorflow as tf
            import slim_ext.contrib.lookup
            import slim_ext.contrib.tfprof

            table = slim_ext.contrib.lookup.HashTable(initializer, -1)
            with slim_ext.contrib.tfprof.ProfileContext('/tmp/profile') as context:
                pass
        """
        self.assertCodemod(before, after)

    def test_module_used_as_a_value_becomes_where_its_members_went(self) -> None:
        # Object detection's graph_rewriter_builder_test patches the modules its
        # builder calls through; the patch must reach what the ported builder calls.
        before = """
            import mock
            import tensorflow as tf

            with mock.patch.object(tf.contrib.quantize, 'create_training_graph') as q:
                with mock.patch.object(tf.contrib.layers, 'summarize_collection') as s:
                    build()
            tf.contrib.quantize.create_training_graph(quant_delay=0)
            tf.contrib.layers.summarize_collection('quant_vars')
            has_clip = hasattr(tf.contrib.framework, 'get_or_create_global_step')
        """
        after = """
            import mock
            import tensorflow as tf
            import slim_ext.contrib.quantize
            import tf_slim

            with mock.patch.object(slim_ext.contrib.quantize, 'create_training_graph') as q:
                with mock.patch.object(tf_slim, 'summarize_collection') as s:
                    build()
            slim_ext.contrib.quantize.create_training_graph(quant_delay=0)
            tf_slim.summarize_collection('quant_vars')
            has_clip = hasattr(tf.compat.v1.train, 'get_or_create_global_step')
        """
        self.assertCodemod(before, after)

    def test_attributes_of_a_ported_symbol_stay(self) -> None:
        before = """
            import tensorflow as tf

            keys = tf.contrib.framework.VariableDeviceChooser.__init__
        """
        after = """
            import tensorflow as tf
            import tf_slim

            keys = tf_slim.VariableDeviceChooser.__init__
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
            from slim_ext.contrib.training import HParams
            import slim_ext.contrib.quantize

            hparams = HParams(learning_rate=0.1)
            slim_ext.contrib.quantize.create_training_graph(quant_delay=0)
        """
        self.assertCodemod(before, after)

    def test_tf_slim_training_symbols_import_from_their_file(self) -> None:
        # tf_slim.training (the attribute) is training/training.py, not the package.
        before = """
            from tensorflow.contrib.training import create_train_op, evaluate_once
        """
        after = """
            from tf_slim.training.training import create_train_op
            from tf_slim.training.evaluation import evaluate_once
        """
        self.assertCodemod(before, after)

    def test_estimator_era_homes(self) -> None:
        # contrib.learn's RunConfig (every spelling TF 1.4-era trainers used), the ps
        # placement of contrib.training's device_setter, TPUEstimator (tensorflow-estimator).
        before = """
            import tensorflow as tf
            from tensorflow.contrib.learn.python.learn import run_config
            from tensorflow.contrib.learn.python.learn.estimators import run_config as rc
            from tensorflow.contrib.training.python.training import device_setter

            config = run_config.RunConfig(model_dir=d)
            old = tf.contrib.learn.RunConfig(save_checkpoints_steps=10)
            uid = rc._DEFAULT_UID_WHITE_LIST
            setter = tf.train.replica_device_setter(ps_strategy=(
                tf.contrib.training.GreedyLoadBalancingStrategy(
                    2, tf.contrib.training.byte_size_load_fn)))
            greedy = device_setter.GreedyLoadBalancingStrategy
            est = tf.contrib.tpu.TPUEstimator(model_fn=f, use_tpu=False, config=config)
        """
        after = """
            import tensorflow as tf
            from slim_ext.contrib.learn import run_config
            from slim_ext.contrib.learn import run_config as rc
            from slim_ext.contrib import training as device_setter
            import slim_ext.contrib.learn
            import slim_ext.contrib.training

            config = run_config.RunConfig(model_dir=d)
            old = slim_ext.contrib.learn.RunConfig(save_checkpoints_steps=10)
            uid = rc._DEFAULT_UID_WHITE_LIST
            setter = tf.train.replica_device_setter(ps_strategy=(
                slim_ext.contrib.training.GreedyLoadBalancingStrategy(
                    2, slim_ext.contrib.training.byte_size_load_fn)))
            greedy = device_setter.GreedyLoadBalancingStrategy
            est = tf.compat.v1.estimator.tpu.TPUEstimator(model_fn=f, use_tpu=False, config=config)
        """
        self.assertCodemod(before, after)

    def test_tpu_estimator_modules_object_detection_imports(self) -> None:
        before = """
            from tensorflow.contrib.tpu.python.tpu import tpu_config
            from tensorflow.contrib.tpu.python.tpu import tpu_estimator
            config = tpu_config.RunConfig(tpu_config=tpu_config.TPUConfig(10))
        """
        after = """
            from tensorflow_estimator.python.estimator.tpu import tpu_config
            from tensorflow_estimator.python.estimator.tpu import tpu_estimator
            config = tpu_config.RunConfig(tpu_config=tpu_config.TPUConfig(10))
        """
        self.assertCodemod(before, after)

    def test_stand_in_keeps_the_local_name(self) -> None:
        before = """
            from tensorflow.contrib.quantize import create_eval_graph
        """
        after = """
            from slim_ext.contrib.quantize import create_eval_graph
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
    "from tf_slim.layers import layers, utils\nutils.collect_named_outputs(c, 'n', x)\n",
    # A parameter, a local variable or a comprehension variable named tf is not TF.
    "import tensorflow as tf\ndef build(tf):\n    return tf.contrib.layers.flatten(x)\n",
    ("import tensorflow as tf\ndef build():\n    tf = load()\n"
     "    return tf.contrib.framework.arg_scope\n"),
    "import tensorflow as tf\nys = [tf.contrib.layers.flatten(x) for tf in plugins]\n",
    # Names outside tf.contrib that only look like it.
    "import tensorflow as tf\ntf.compat.v1.layers.dense(x, 3)\n",
    "from tensorflow.python.ops import contrib_ops\ncontrib_ops.foo()\n",
    # A module used as a value whose members went to several places: no one module
    # stands for it (compat_v1 reports the tf.contrib left).
    "import tensorflow as tf\nregistry.add(tf.contrib.layers)\n",
    "import tensorflow as tf\nfn = getattr(tf.contrib.layers, name)\n",
    # ... or whose named member is gone, or not a name it had.
    "import tensorflow as tf\nhasattr(tf.contrib.layers, 'no_such_layer')\n",
    "import tensorflow as tf\nmock.patch.object(tf.contrib.distributions, 'Normal')\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_finding_lines_and_fixes() -> None:
    code, findings = run('''\
        import tensorflow as tf

        tf.contrib.quantize.create_training_graph(quant_delay=0)
        x = tf.contrib.layers.embed_sequence(ids)
        tf.contrib.learn.datasets.load_dataset('mnist')
        d = tf.contrib.distributions.bijectors.Exp()
        y = tf.contrib.layers.no_such_layer(x)
        hp = tf.contrib.training.HParams(lr=0.1)
    ''')
    attention = [(f.line, f.message.split(" ")[0], f.fix)
                 for f in findings if f.kind == "attention"]
    assert attention[0][:2] == (3, "tf.contrib.quantize.create_training_graph")
    assert "tensorflow-model-optimization" in attention[0][2]
    assert attention[1][:2] == (4, "tf.contrib.layers.embed_sequence")
    # One finding per chain, naming the name or the gone module it is in.
    assert attention[2][:2] == (5, "tf.contrib.learn.datasets.load_dataset")
    assert attention[3][:2] == (6, "tf.contrib.distributions.bijectors")
    assert "tensorflow-probability" in attention[3][2]
    assert attention[4][:2] == (7, "tf.contrib.layers.no_such_layer")
    assert len(attention) == 5
    # HParams is re-implemented: an edit, not a finding.
    assert "slim_ext.contrib.training.HParams(lr=0.1)" in code


def test_experiment_launching_is_reported_with_what_runs_it_now() -> None:
    code, findings = run("""\
        import tensorflow as tf
        from tensorflow.contrib.learn.python.learn import learn_runner

        def experiment_fn(run_config, hparams):
            return tf.contrib.learn.Experiment(estimator=e, train_input_fn=f, eval_input_fn=g)

        learn_runner.run(experiment_fn, run_config=config, hparams=hparams)
    """)
    assert [(f.line, f.kind) for f in findings] == [(5, "attention"), (7, "attention")]
    for finding in findings:
        assert "tf.estimator.train_and_evaluate(estimator, tf.estimator.TrainSpec(" in finding.fix
        assert "gone" not in finding.fix
    assert "slim_ext.contrib.Experiment(" in code and "slim_ext.contrib.learn_runner_run(" in code


def test_names_a_moved_module_lacks_are_reported_at_their_use() -> None:
    code, findings = run('''\
        from tensorflow.contrib.framework.python.ops import variables
        from tensorflow.contrib.layers.python.layers import feature_column

        step = variables.get_or_create_global_step()
        init = variables.zero_initializer(ref)
        col = feature_column.real_valued_column('x')
    ''')
    assert code.startswith("from tf_slim.ops import variables\n"
                           "from tensorflow.contrib.layers.python.layers import feature_column\n")
    attention = [(f.line, f.message.split(" ")[0]) for f in findings if f.kind == "attention"]
    assert attention == [
        (5, "tf.contrib.framework.python.ops.variables.zero_initializer"),
        (6, "tf.contrib.layers.python.layers.feature_column.real_valued_column"),
        (2, "tf.contrib"),  # the gone module's import, still used, stays
    ]


def test_unused_import_of_a_gone_module_is_dropped() -> None:
    # Nothing uses it, and on TensorFlow 2 the import alone would fail.
    code, findings = run('''\
        from tensorflow.contrib.layers.python.layers import feature_column
        import tensorflow as tf
    ''')
    assert code == "import tensorflow as tf\n"
    assert findings == []


def test_kept_alias_import_is_reported_at_its_line() -> None:
    _, findings = run('''\
        import tensorflow as tf
        from tensorflow.contrib import layers

        layers.embed_sequence(ids)
    ''')
    kept = [f for f in findings if "still used" in f.message]
    assert [f.line for f in kept] == [2]




# tf.contrib.opt's MovingAverageOptimizer and tf.contrib.data's drop-remainder batching:
# slim_ext.contrib re-implements both with TF1's behaviour (tests/slim_ext/
# test_contrib_opt_data.py checks it against TF 1.15's numbers).
@pytest.mark.parametrize("before, after", [
    ("import tensorflow as tf\n"
     "opt = tf.contrib.opt.MovingAverageOptimizer(opt, average_decay=0.999)\n",
     "import tensorflow as tf\nimport slim_ext.contrib.opt\n\n"
     "opt = slim_ext.contrib.opt.MovingAverageOptimizer(opt, average_decay=0.999)\n"),
    ("from tensorflow.contrib.opt import MovingAverageOptimizer\n",
     "from slim_ext.contrib.opt import MovingAverageOptimizer\n"),
    ("from tensorflow.contrib.opt.python.training.moving_average_optimizer import "
     "MovingAverageOptimizer as MAO\n",
     "from slim_ext.contrib.opt import MovingAverageOptimizer as MAO\n"),
    ("import tensorflow as tf\n"
     "dataset = dataset.apply(tf.contrib.data.batch_and_drop_remainder(batch_size))\n",
     "import tensorflow as tf\nimport slim_ext.contrib.data\n\n"
     "dataset = dataset.apply(slim_ext.contrib.data.batch_and_drop_remainder(batch_size))\n"),
    ("from tensorflow.contrib.data import padded_batch_and_drop_remainder\n",
     "from slim_ext.contrib.data import padded_batch_and_drop_remainder\n"),
])
def test_moving_average_optimizer_and_drop_remainder_batching(before: str, after: str) -> None:
    code, findings = run(before)
    assert code == after
    assert not [f for f in findings if f.kind == "attention"], findings
    assert run(after)[0] == after


@pytest.mark.parametrize("source", [
    "import slim_ext.contrib.opt\nopt = slim_ext.contrib.opt.MovingAverageOptimizer(opt)\n",
    "dataset = dataset.batch(4, drop_remainder=True)\n",
    "from my_project.opt import MovingAverageOptimizer\n",
])
def test_moving_average_and_batching_noops(source: str) -> None:
    assert run(source) == (source, [])


def test_a_name_a_mirror_lacks_is_reported_not_written() -> None:
    # model_analyzer imported ProfileContext for itself in TF 1.15: no API of it, and
    # not in slim_ext.contrib.tfprof.model_analyzer.
    source = ("import tensorflow as tf\n"
              "context = tf.contrib.tfprof.model_analyzer.ProfileContext('/tmp/p')\n")
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention" and "model_analyzer.ProfileContext" in finding.message
