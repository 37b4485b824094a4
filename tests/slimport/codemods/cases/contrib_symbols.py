"""contrib_symbols: tf.contrib.{framework,layers,metrics,...} -> tf_slim / compat.v1 / stand-ins."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

EXPERIMENT = """
    import tensorflow as tf
    from tensorflow.contrib.learn.python.learn import learn_runner

    def experiment_fn(run_config, hparams):
        return tf.contrib.learn.Experiment(e, train_input_fn=f, eval_input_fn=g)

    learn_runner.run(experiment_fn, run_config=config, hparams=hparams)
"""

CASES = [
    Edit(
        "framework attribute with tf_slim already imported",
        before="""
            import tensorflow as tf
            import tf_slim as slim

            with tf.contrib.framework.arg_scope([slim.conv2d], padding='SAME'):
                net = slim.conv2d(images, 32, [3, 3])
        """,
        after="""
            import tensorflow as tf
            import tf_slim as slim

            with slim.arg_scope([slim.conv2d], padding='SAME'):
                net = slim.conv2d(images, 32, [3, 3])
        """,
    ),
    # The import nothing uses any more goes; the comment and blank lines above it stay
    # (tensor2tensor's "# Dependency imports"; issue 42).
    Edit(
        "a dropped alias import leaves the lines above it",
        before="""
            import tensorflow as tf

            # Dependency imports

            from tensorflow.contrib import framework as contrib_framework

            import numpy as np


            def step():
                return contrib_framework.get_or_create_global_step()
        """,
        after="""
            import tensorflow as tf

            # Dependency imports

            import numpy as np


            def step():
                return tf.compat.v1.train.get_or_create_global_step()
        """,
    ),
    Edit(
        "a dropped alias import last in its block",
        before="""
            import tensorflow as tf
            try:
                import numpy as np
                # The contrib module, for its global step.
                from tensorflow.contrib import framework as contrib_framework
            except ImportError:
                pass
            step = contrib_framework.get_or_create_global_step()
        """,
        after="""
            import tensorflow as tf
            try:
                import numpy as np
                # The contrib module, for its global step.
            except ImportError:
                pass
            step = tf.compat.v1.train.get_or_create_global_step()
        """,
    ),
    Edit(
        "global step goes to compat.v1 through the file's tf",
        before="""
            import tensorflow as tf

            global_step = tf.contrib.framework.get_or_create_global_step()
        """,
        after="""
            import tensorflow as tf

            global_step = tf.compat.v1.train.get_or_create_global_step()
        """,
    ),
    Edit(
        "compat.v1 tf is used directly",
        before="""
            import tensorflow.compat.v1 as tf

            step = tf.contrib.framework.get_global_step()
        """,
        after="""
            import tensorflow.compat.v1 as tf

            step = tf.train.get_global_step()
        """,
    ),
    Edit(
        "module alias with several homes is dropped when unused",
        before="""
            import tensorflow as tf
            from tensorflow.contrib import layers as contrib_layers

            init = contrib_layers.xavier_initializer()
            reg = contrib_layers.l2_regularizer(4e-5)
            emb = contrib_layers.safe_embedding_lookup_sparse(params, ids)
        """,
        after="""
            import tensorflow as tf
            import tf_slim

            init = tf_slim.xavier_initializer()
            reg = tf_slim.l2_regularizer(4e-5)
            emb = tf.compat.v1.nn.safe_embedding_lookup_sparse(params, ids)
        """,
    ),
    Edit(
        "import a module as an alias",
        before="""
            import tensorflow.contrib.layers as layers

            net = layers.fully_connected(net, 10)
        """,
        after="""
            import tf_slim

            net = tf_slim.fully_connected(net, 10)
        """,
    ),
    Edit(
        "from import of symbols moves each to its home",
        before="""
            from tensorflow.contrib.framework import arg_scope, get_or_create_global_step  # both
            from tensorflow.contrib.metrics import streaming_accuracy as accuracy
        """,
        after="""
            from tf_slim import arg_scope
            from tensorflow.compat.v1.train import get_or_create_global_step  # both
            from tf_slim.metrics import streaming_accuracy as accuracy
        """,
    ),
    Edit(
        "deep source path module moves to its tf_slim module",
        before="""
            from tensorflow.contrib.framework.python.ops import arg_scope

            @arg_scope.add_arg_scope
            def my_layer(x):
                return x
        """,
        after="""
            from tf_slim.ops import arg_scope

            @arg_scope.add_arg_scope
            def my_layer(x):
                return x
        """,
    ),
    Edit(
        "deep modules imported together keep their names",
        before="""
            from tensorflow.contrib.layers.python.layers import layers, utils

            net = layers.conv2d(x, 8, 3)
            utils.collect_named_outputs(collection, 'net', net)
            variables = utils.get_variable_collections(None, 'beta')
        """,
        after="""
            from tf_slim.layers import layers
            from tf_slim.layers import utils

            net = layers.conv2d(x, 8, 3)
            utils.collect_named_outputs(collection, 'net', net)
            variables = utils.get_variable_collections(None, 'beta')
        """,
    ),
    Edit(
        "import of a deep module as a name",
        before="""
            import tensorflow.contrib.layers.python.layers.layers as layers_lib

            net = layers_lib.fully_connected(x, 10)
        """,
        after="""
            import tf_slim.layers.layers as layers_lib

            net = layers_lib.fully_connected(x, 10)
        """,
    ),
    Edit(
        "symbol a deep package re-exports",
        before="""
            from tensorflow.contrib.framework.python.ops import add_arg_scope
            from tensorflow.contrib.losses.python.metric_learning import triplet_semihard_loss
        """,
        after="""
            from tf_slim import add_arg_scope
            from tf_slim.losses import triplet_semihard_loss
        """,
    ),
    Edit(
        "core functions contrib re-exported",
        before="""
            import tensorflow as tf

            size = tf.contrib.util.constant_value(shape[0])
            cell = tf.contrib.rnn.BasicLSTMCell(128)
        """,
        after="""
            import tensorflow as tf

            size = tf.compat.v1.get_static_value(shape[0])
            cell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(128)
        """,
    ),
    Edit(
        "deprecated decorator keeps working",
        before="""
            import tensorflow as tf

            @tf.contrib.framework.deprecated(None, 'Use model_main.py.')
            def main(_):
                pass
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.framework

            @slim_ext.contrib.framework.deprecated(None, 'Use model_main.py.')
            def main(_):
                pass
        """,
    ),
    Edit(
        "modules slim_ext mirrors",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.image.python.ops import image_ops
            from tensorflow.contrib.quantize.python import graph_matcher

            rotated = tf.contrib.image.rotate(images, 0.5)
            stats = tf.contrib.tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS
        """,
        after="""
            import tensorflow as tf
            from slim_ext.contrib import image as image_ops
            from slim_ext.contrib.quantize import graph_matcher
            import slim_ext.contrib.image
            import slim_ext.contrib.tfprof.model_analyzer

            rotated = slim_ext.contrib.image.rotate(images, 0.5)
            stats = slim_ext.contrib.tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS
        """,
    ),
    # TF 1.15's contrib.tfprof re-exported ProfileContext from core; contrib.lookup
    # defined its own HashTable (shared_name third, ``init``).
    Edit(
        "names contrib re-exported go where they exist",
        before="""
            import tensorflow as tf

            table = tf.contrib.lookup.HashTable(initializer, -1)
            with tf.contrib.tfprof.ProfileContext('/tmp/profile') as context:
                pass
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.lookup
            import slim_ext.contrib.tfprof

            table = slim_ext.contrib.lookup.HashTable(initializer, -1)
            with slim_ext.contrib.tfprof.ProfileContext('/tmp/profile') as context:
                pass
        """,
    ),
    # Object detection's graph_rewriter_builder_test patches the modules its
    # builder calls through; the patch must reach what the ported builder calls.
    Edit(
        "module used as a value becomes where its members went",
        before="""
            import mock
            import tensorflow as tf

            with mock.patch.object(tf.contrib.quantize, 'create_training_graph') as q:
                with mock.patch.object(tf.contrib.layers, 'summarize_collection') as s:
                    build()
            tf.contrib.quantize.create_training_graph(quant_delay=0)
            tf.contrib.layers.summarize_collection('quant_vars')
            has_clip = hasattr(tf.contrib.framework, 'get_or_create_global_step')
        """,
        after="""
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
        """,
        findings=[attention(7, "tf.contrib.quantize.create_training_graph has no TensorFlow 2 "
                               "replacement")],
    ),
    Edit(
        "attributes of a ported symbol stay",
        before="""
            import tensorflow as tf

            keys = tf.contrib.framework.VariableDeviceChooser.__init__
        """,
        after="""
            import tensorflow as tf
            import tf_slim

            keys = tf_slim.VariableDeviceChooser.__init__
        """,
    ),
    Edit(
        "deep source path symbol",
        before="""
            from tensorflow.contrib.layers.python.layers.initializers import xavier_initializer
        """,
        after="""
            from tf_slim import xavier_initializer
        """,
    ),
    Edit(
        "assigned module alias",
        before="""
            import tensorflow as tf
            import tf_slim as slim
            losses = tf.contrib.losses

            loss = losses.softmax_cross_entropy(logits, labels)
        """,
        after="""
            import tensorflow as tf
            import tf_slim as slim

            loss = slim.losses.softmax_cross_entropy(logits, labels)
        """,
    ),
    Edit(
        "pre-1.0 summary ops",
        before="""
            import tensorflow as tf

            tf.contrib.deprecated.scalar_summary('training/Learning Rate', lr)
        """,
        after="""
            import tensorflow as tf

            tf.compat.v1.summary.scalar('training/Learning Rate', lr)
        """,
    ),
    Edit(
        "no tf binding adds compat.v1 import",
        before="""
            from tensorflow.contrib import data as contrib_data

            ds = ds.apply(contrib_data.map_and_batch(fn, 32))
        """,
        after="""
            import tensorflow.compat.v1 as tf

            ds = ds.apply(tf.data.experimental.map_and_batch(fn, 32))
        """,
    ),
    Edit(
        "stand-ins keep the file importable",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.training import HParams

            hparams = HParams(learning_rate=0.1)
            tf.contrib.quantize.create_training_graph(quant_delay=0)
        """,
        after="""
            import tensorflow as tf
            from slim_ext.contrib.training import HParams
            import slim_ext.contrib.quantize

            hparams = HParams(learning_rate=0.1)
            slim_ext.contrib.quantize.create_training_graph(quant_delay=0)
        """,
        findings=[attention(5, "now slim_ext.contrib.quantize.create_training_graph, which raises "
                               "when called", fix="tensorflow-model-optimization")],
    ),
    # tf_slim.training (the attribute) is training/training.py, not the package.
    Edit(
        "tf_slim training symbols import from their file",
        before="""
            from tensorflow.contrib.training import create_train_op, evaluate_once
        """,
        after="""
            from tf_slim.training.training import create_train_op
            from tf_slim.training.evaluation import evaluate_once
        """,
    ),
    # contrib.learn's RunConfig (every spelling TF 1.4-era trainers used), the ps
    # placement of contrib.training's device_setter, TPUEstimator (tensorflow-estimator).
    Edit(
        "estimator era homes",
        before="""
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
        """,
        after="""
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
        """,
    ),
    Edit(
        "TPUEstimator modules object detection imports",
        before="""
            from tensorflow.contrib.tpu.python.tpu import tpu_config
            from tensorflow.contrib.tpu.python.tpu import tpu_estimator
            config = tpu_config.RunConfig(tpu_config=tpu_config.TPUConfig(10))
        """,
        after="""
            from tensorflow_estimator.python.estimator.tpu import tpu_config
            from tensorflow_estimator.python.estimator.tpu import tpu_estimator
            config = tpu_config.RunConfig(tpu_config=tpu_config.TPUConfig(10))
        """,
    ),
    Edit(
        "stand-in keeps the local name",
        before="""
            from tensorflow.contrib.quantize import create_eval_graph
        """,
        after="""
            from slim_ext.contrib.quantize import create_eval_graph
        """,
        findings=[attention(1, "now slim_ext.contrib.quantize.create_eval_graph, which raises")],
    ),
    Edit(
        "unknown symbol is left and its import kept",
        before="""
            from tensorflow.contrib import layers

            init = layers.xavier_initializer()
            emb = layers.embed_sequence(ids, 10, 4)
        """,
        after="""
            from tensorflow.contrib import layers
            import tf_slim

            init = tf_slim.xavier_initializer()
            emb = layers.embed_sequence(ids, 10, 4)
        """,
        findings=[attention(4, "tf.contrib.layers.embed_sequence was removed"),
                  attention(1, "alias `layers` is still used")],
    ),
    Edit(
        "dropped import that was a whole try block",
        before="""
            import tensorflow as tf
            try:
                from tensorflow.contrib import framework
            except ImportError:
                framework = None

            scope = framework.arg_scope
        """,
        after="""
            import tensorflow as tf
            import tf_slim

            try:
                pass
            except ImportError:
                framework = None

            scope = tf_slim.arg_scope
        """,
    ),
    # Count steps.
    # Count steps.
    Edit(
        "parenthesised chain and comments survive",
        before="""
            import tensorflow as tf  # TF1
            import tf_slim as slim

            # Count steps.
            step = (tf.contrib.framework.get_or_create_global_step)()  # here
        """,
        after="""
            import tensorflow as tf  # TF1
            import tf_slim as slim

            # Count steps.
            step = (tf.compat.v1.train.get_or_create_global_step)()  # here
        """,
    ),
    Edit(
        "finding lines and fixes",
        before="""
            import tensorflow as tf

            tf.contrib.quantize.create_training_graph(quant_delay=0)
            x = tf.contrib.layers.embed_sequence(ids)
            tf.contrib.learn.datasets.load_dataset('mnist')
            d = tf.contrib.distributions.NormalWithSoftplusScale(0., s)
            y = tf.contrib.layers.no_such_layer(x)
            hp = tf.contrib.training.HParams(lr=0.1)
        """,
        # HParams is re-implemented: an edit, not a finding.
        after="""
            import tensorflow as tf
            import slim_ext.contrib.quantize
            import slim_ext.contrib.training

            slim_ext.contrib.quantize.create_training_graph(quant_delay=0)
            x = tf.contrib.layers.embed_sequence(ids)
            tf.contrib.learn.datasets.load_dataset('mnist')
            d = tf.contrib.distributions.NormalWithSoftplusScale(0., s)
            y = tf.contrib.layers.no_such_layer(x)
            hp = slim_ext.contrib.training.HParams(lr=0.1)
        """,
        # One finding per chain, naming the name or the gone module it is in.
        findings=[
            attention(3, "tf.contrib.quantize.create_training_graph ",
                      fix="tensorflow-model-optimization"),
            attention(4, "tf.contrib.layers.embed_sequence "),
            attention(5, "tf.contrib.learn.datasets.load_dataset "),
            attention(6, "tf.contrib.distributions.NormalWithSoftplusScale ",
                      fix="tf.nn.softplus"),
            attention(7, "tf.contrib.layers.no_such_layer "),
        ],
    ),
    Edit(
        "experiment launching runs on slim_ext's experiment and learn_runner",
        before=EXPERIMENT,
        after="""
            import tensorflow as tf
            from slim_ext.contrib.learn import learn_runner
            import slim_ext.contrib.learn

            def experiment_fn(run_config, hparams):
                return slim_ext.contrib.learn.Experiment(e, train_input_fn=f, eval_input_fn=g)

            learn_runner.run(experiment_fn, run_config=config, hparams=hparams)
        """,
    ),
    Edit(
        # TF 1.15's learn.python.learn.run_config is estimators/run_config.py, bound on
        # the package by an import: the table once listed the package's names for it,
        # and the private uid list (tensorflow/models' cifar10_utils) was reported gone.
        "a mirrored module reached through its package keeps its private names",
        before="""
            from tensorflow.contrib.learn.python.learn import run_config


            class RunConfig(run_config.RunConfig):

                def uid(self, whitelist=None):
                    return sorted(whitelist or run_config._DEFAULT_UID_WHITE_LIST)
        """,
        after="""
            from slim_ext.contrib.learn import run_config


            class RunConfig(run_config.RunConfig):

                def uid(self, whitelist=None):
                    return sorted(whitelist or run_config._DEFAULT_UID_WHITE_LIST)
        """,
    ),
    Edit(
        "learn_runner and export strategies reached through tf.contrib.learn",
        before="""
            import tensorflow as tf

            def experiment_fn(run_config, hparams):
                export = tf.contrib.learn.make_export_strategy(serving_input_fn)
                return tf.contrib.learn.Experiment(e, f, g, export_strategies=[export])

            tf.contrib.learn.learn_runner.run(experiment_fn, run_config=config)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.learn
            import slim_ext.contrib.learn.learn_runner

            def experiment_fn(run_config, hparams):
                export = slim_ext.contrib.learn.make_export_strategy(serving_input_fn)
                return slim_ext.contrib.learn.Experiment(e, f, g, export_strategies=[export])

            slim_ext.contrib.learn.learn_runner.run(experiment_fn, run_config=config)
        """,
    ),
    Edit(
        "names a moved module lacks are reported at their use",
        before="""
            from tensorflow.contrib.framework.python.ops import variables
            from tensorflow.contrib.layers.python.layers import feature_column

            step = variables.get_or_create_global_step()
            init = variables.zero_initializer(ref)
            col = feature_column.real_valued_column('x')
        """,
        after="""
            from tf_slim.ops import variables
            from tensorflow.contrib.layers.python.layers import feature_column

            step = variables.get_or_create_global_step()
            init = variables.zero_initializer(ref)
            col = feature_column.real_valued_column('x')
        """,
        findings=[
            attention(5, "tf.contrib.framework.python.ops.variables.zero_initializer "),
            attention(6, "tf.contrib.layers.python.layers.feature_column.real_valued_column "),
            # The gone module's import, still used, stays.
            attention(2, "tf.contrib module alias `feature_column` is still used"),
        ],
    ),
    # Nothing uses it, and on TensorFlow 2 the import alone would fail: dropped, and
    # reported (issue 30): a module that imports it from this one breaks.
    Edit(
        "unused import of a gone module is dropped",
        before="""
            from tensorflow.contrib.layers.python.layers import feature_column
            import tensorflow as tf
        """,
        after="import tensorflow as tf\n",
        findings=[attention(1, "module-level alias `feature_column` of "
                            "tf.contrib.layers.python.layers.feature_column removed",
                            fix="port that module's uses of `feature_column`")],
    ),
    Reported(
        "kept alias import is reported at its line",
        """
        import tensorflow as tf
        from tensorflow.contrib import layers

        layers.embed_sequence(ids)
        """,
        [attention(4, "tf.contrib.layers.embed_sequence "),
         attention(2, "still used")],
    ),
    # The learn module's MNIST reader re-exported the tutorial's (moved_modules' home).
    Edit(
        "the contrib learn mnist reader",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.learn.python.learn.datasets.mnist import read_data_sets

            data = tf.contrib.learn.datasets.mnist.read_data_sets('/tmp/mnist', one_hot=True)
        """,
        after="""
            import tensorflow as tf
            from slim_ext.mnist_input_data import read_data_sets
            import slim_ext.mnist_input_data

            data = slim_ext.mnist_input_data.read_data_sets('/tmp/mnist', one_hot=True)
        """,
    ),
    # tf.contrib.opt's MovingAverageOptimizer and tf.contrib.data's drop-remainder
    # batching: slim_ext.contrib re-implements both with TF1's behaviour
    # (tests/slim_ext/test_contrib_opt_data.py checks it against TF 1.15's numbers).
    Edit(
        "MovingAverageOptimizer through tf",
        before="import tensorflow as tf\n"
               "opt = tf.contrib.opt.MovingAverageOptimizer(opt, average_decay=0.999)\n",
        after="import tensorflow as tf\nimport slim_ext.contrib.opt\n\n"
              "opt = slim_ext.contrib.opt.MovingAverageOptimizer(opt, average_decay=0.999)\n",
    ),
    Edit("MovingAverageOptimizer imported by name",
         before="from tensorflow.contrib.opt import MovingAverageOptimizer\n",
         after="from slim_ext.contrib.opt import MovingAverageOptimizer\n"),
    Edit("MovingAverageOptimizer from its deep module",
         before="from tensorflow.contrib.opt.python.training.moving_average_optimizer import "
                "MovingAverageOptimizer as MAO\n",
         after="from slim_ext.contrib.opt import MovingAverageOptimizer as MAO\n"),
    Edit(
        "batch_and_drop_remainder through tf",
        before="import tensorflow as tf\n"
               "dataset = dataset.apply(tf.contrib.data.batch_and_drop_remainder(batch_size))\n",
        after="import tensorflow as tf\nimport slim_ext.contrib.data\n\ndataset = dataset.apply("
              "slim_ext.contrib.data.batch_and_drop_remainder(batch_size))\n",
    ),
    Edit("padded_batch_and_drop_remainder imported by name",
         before="from tensorflow.contrib.data import padded_batch_and_drop_remainder\n",
         after="from slim_ext.contrib.data import padded_batch_and_drop_remainder\n"),
    # model_analyzer imported ProfileContext for itself in TF 1.15: no API of it, and not in
    # slim_ext.contrib.tfprof.model_analyzer.
    Reported(
        "a name a mirror lacks is reported, not written",
        "import tensorflow as tf\n"
        "context = tf.contrib.tfprof.model_analyzer.ProfileContext('/tmp/p')\n",
        [attention(2, "model_analyzer.ProfileContext")],
    ),
    # tf.contrib.slim belongs to contrib_slim, which runs before this codemod.
    Noop("contrib_slim's alias assignment",
         "import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d(x, 1, 1)\n"),
    Noop("contrib_slim's import",
         "from tensorflow.contrib import slim\n"),
    # Code that says "contrib" without being TensorFlow's.
    Noop("django's contrib",
         "import django.contrib.admin as admin\nadmin.site.register(Model)\n"),
    Noop("another library's contrib",
         "from mylib.contrib import layers\nlayers.conv2d(x)\n"),
    Noop("a dict named contrib",
         "contrib = {'layers': 1}\nprint(contrib['layers'])\n"),
    # ``tf`` is not TensorFlow here.
    Noop("tfx as tf",
         "import tfx as tf\ntf.contrib.framework.arg_scope()\n"),
    # Already ported.
    Noop("ported to compat.v1 and slim_ext",
         "import tensorflow.compat.v1 as tf\nimport tf_slim as slim\nimport slim_ext.contrib\n"
         "with slim.arg_scope([]):\n    slim_ext.contrib.HParams()\n"),
    Noop("ported to tf_slim's modules",
         "from tf_slim.layers import layers, utils\nutils.collect_named_outputs(c, 'n', x)\n"),
    # A parameter, a local variable or a comprehension variable named tf is not TF.
    Noop("a parameter named tf",
         "import tensorflow as tf\ndef build(tf):\n    return tf.contrib.layers.flatten(x)\n"),
    Noop("a local tf",
         "import tensorflow as tf\ndef build():\n    tf = load()\n"
         "    return tf.contrib.framework.arg_scope\n"),
    Noop("a comprehension variable named tf",
         "import tensorflow as tf\nys = [tf.contrib.layers.flatten(x) for tf in plugins]\n"),
    # Names outside tf.contrib that only look like it.
    Noop("compat.v1's layers",
         "import tensorflow as tf\ntf.compat.v1.layers.dense(x, 3)\n"),
    Noop("a module named like contrib",
         "from tensorflow.python.ops import contrib_ops\ncontrib_ops.foo()\n"),
    # A module used as a value whose members went to several places: no one module
    # stands for it (compat_v1 reports the tf.contrib left).
    Noop("a module passed as a value",
         "import tensorflow as tf\nregistry.add(tf.contrib.layers)\n"),
    Noop("getattr of a module",
         "import tensorflow as tf\nfn = getattr(tf.contrib.layers, name)\n"),
    # ... or whose named member is gone, or not a name it had.
    Noop("hasattr of a name the module never had",
         "import tensorflow as tf\nhasattr(tf.contrib.layers, 'no_such_layer')\n"),
    Noop("a gone module patched",
         "import tensorflow as tf\nmock.patch.object(tf.contrib.graph_editor, 'reroute_ts')\n"),
    Noop("slim_ext's MovingAverageOptimizer already",
         "import slim_ext.contrib.opt\nopt = slim_ext.contrib.opt.MovingAverageOptimizer(opt)\n"),
    Noop("tf2's drop_remainder", "dataset = dataset.batch(4, drop_remainder=True)\n"),
    Noop("another project's MovingAverageOptimizer",
         "from my_project.opt import MovingAverageOptimizer\n"),
    # Issue 30: maintained successors (TensorFlow Probability, TF-GAN) and TF1's
    # recurrent pieces, as the peers use them.
    Edit(
        "distributions go to TensorFlow Probability",
        before="""
            import tensorflow as tf

            def loss(z, x):
                prior = tf.contrib.distributions.Normal(loc=0., scale=1.)
                q = tf.contrib.distributions.RelaxedOneHotCategorical(0.5, logits=z)
                return tf.contrib.distributions.kl_divergence(q, prior)
        """,
        after="""
            import tensorflow as tf
            import tensorflow_probability

            def loss(z, x):
                prior = tensorflow_probability.distributions.Normal(loc=0., scale=1.)
                q = tensorflow_probability.distributions.RelaxedOneHotCategorical(0.5, logits=z)
                return tensorflow_probability.distributions.kl_divergence(q, prior)
        """,
    ),
    Edit(
        "a module-level distributions alias is kept, as TFP's module",
        before="""
            import tensorflow as tf

            tfd = tf.contrib.distributions
            ds = tf.contrib.distributions
            prior = tfd.Normal(0., 1.)
        """,
        after="""
            import tensorflow as tf
            import tensorflow_probability

            tfd = tensorflow_probability.distributions
            ds = tensorflow_probability.distributions
            prior = tensorflow_probability.distributions.Normal(0., 1.)
        """,
        # (In report order: the uses as they are ported, then the aliases.)
        findings=[edit(5, "tf.contrib.distributions.Normal -> "),
                  edit(4, "another module may import `ds` from this one"),
                  edit(3, "module-level alias `tfd` = tf.contrib.distributions kept, as "
                          "tensorflow_probability.distributions")],
    ),
    Edit(
        "imported distributions and bijectors modules",
        before="""
            from tensorflow.contrib import distributions as tfd
            import tensorflow.contrib.distributions.bijectors as tfb

            flow = tfd.TransformedDistribution(tfd.Normal(0., 1.), tfb.Exp())
        """,
        after="""
            from tensorflow_probability.python import distributions as tfd
            import tensorflow_probability.python.bijectors as tfb

            flow = tfd.TransformedDistribution(tfd.Normal(0., 1.), tfb.Exp())
        """,
    ),
    Edit(
        "renamed keywords are renamed; helpers go where TFP keeps them",
        before="""
            import tensorflow as tf

            median = tf.contrib.distributions.percentile(x, 50., keep_dims=True)
            ig = tf.contrib.distributions.InverseGamma(concentration=2., rate=3.)
            inv = tf.contrib.distributions.softplus_inverse(y)
        """,
        after="""
            import tensorflow as tf
            import tensorflow_probability

            median = tensorflow_probability.stats.percentile(x, 50., keepdims=True)
            ig = tensorflow_probability.distributions.InverseGamma(concentration=2., scale=3.)
            inv = tensorflow_probability.math.softplus_inverse(y)
        """,
        findings=[edit(3, "percentile: keep_dims= -> keepdims="),
                  edit(3, "-> tensorflow_probability.stats.percentile"),
                  edit(4, "InverseGamma: rate= -> scale="), edit(4, "InverseGamma -> "),
                  edit(5, "-> tensorflow_probability.math.softplus_inverse")],
    ),
    Reported(
        "a keyword TFP dropped leaves the call, reported",
        """
        import tensorflow as tf

        m = tf.contrib.distributions.Mixture(cat, parts, use_static_graph=True)
        d = tf.contrib.distributions.NormalWithSoftplusScale(0., s)
        """,
        [attention(3, "which has no `use_static_graph` argument",
                   fix="TFP's Mixture always builds one graph"),
         attention(4, "tf.contrib.distributions.NormalWithSoftplusScale was removed",
                   fix="tf.nn.softplus")],
    ),
    Edit(
        "gan goes to TF-GAN",
        before="""
            import tensorflow as tf
            tfgan = tf.contrib.gan

            model = tfgan.gan_model(generator_fn, discriminator_fn, real, noise)
            loss = tf.contrib.gan.losses.wasserstein_generator_loss(model)
        """,
        after="""
            import tensorflow as tf
            import tensorflow_gan

            tfgan = tensorflow_gan

            model = tensorflow_gan.gan_model(generator_fn, discriminator_fn, real, noise)
            loss = tensorflow_gan.losses.wasserstein_generator_loss(model)
        """,
        findings=[edit(4, "tf.contrib.gan.gan_model -> tensorflow_gan.gan_model"),
                  edit(5, "-> tensorflow_gan.losses.wasserstein_generator_loss"),
                  edit(2, "module-level alias `tfgan` = tf.contrib.gan kept, as tensorflow_gan")],
    ),
    Edit(
        "rnn cells: the core twin, or slim_ext's cell with TF1's variable names",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.rnn import stack_bidirectional_dynamic_rnn

            cell = tf.contrib.rnn.MultiRNNCell([tf.contrib.rnn.LSTMBlockCell(64),
                                                tf.contrib.rnn.BasicLSTMCell(64)])
            ln = tf.contrib.rnn.LayerNormBasicLSTMCell(64)
            out = stack_bidirectional_dynamic_rnn([cell], [ln], x, dtype=tf.float32)
        """,
        after="""
            import tensorflow as tf
            from slim_ext.contrib.rnn import stack_bidirectional_dynamic_rnn
            import slim_ext.contrib.rnn

            cell = tf.compat.v1.nn.rnn_cell.MultiRNNCell([slim_ext.contrib.rnn.LSTMBlockCell(64),
                                                tf.compat.v1.nn.rnn_cell.BasicLSTMCell(64)])
            ln = slim_ext.contrib.rnn.LayerNormBasicLSTMCell(64)
            out = stack_bidirectional_dynamic_rnn([cell], [ln], x, dtype=tf.float32)
        """,
    ),
    Edit(
        "rnn imported as a module",
        before="""
            from tensorflow.contrib import rnn
            from tensorflow.contrib.cudnn_rnn.python.layers import cudnn_rnn

            cell = rnn.AttentionCellWrapper(rnn.LSTMBlockCell(8), attn_length=4)
        """,
        after="""
            from slim_ext.contrib import rnn
            from slim_ext.contrib import cudnn_rnn

            cell = rnn.AttentionCellWrapper(rnn.LSTMBlockCell(8), attn_length=4)
        """,
    ),
    Edit(
        "legacy_seq2seq and cudnn_rnn's compatible cells",
        before="""
            import tensorflow as tf

            cell = tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(32)
            outputs, state = tf.contrib.legacy_seq2seq.attention_decoder(
                inputs, state, attention_states, cell)
            loss = tf.contrib.legacy_seq2seq.sequence_loss(outputs, targets, weights)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.cudnn_rnn
            import slim_ext.contrib.legacy_seq2seq

            cell = slim_ext.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(32)
            outputs, state = slim_ext.contrib.legacy_seq2seq.attention_decoder(
                inputs, state, attention_states, cell)
            loss = slim_ext.contrib.legacy_seq2seq.sequence_loss(outputs, targets, weights)
        """,
    ),
    Edit(
        "seq2seq's decoding loop",
        before="""
            from tensorflow.contrib import seq2seq

            helper = seq2seq.TrainingHelper(inputs, lengths)
            decoder = seq2seq.BasicDecoder(cell, helper, initial_state)
            outputs, state, _ = seq2seq.dynamic_decode(decoder, maximum_iterations=n)
        """,
        after="""
            from slim_ext.contrib import seq2seq

            helper = seq2seq.TrainingHelper(inputs, lengths)
            decoder = seq2seq.BasicDecoder(cell, helper, initial_state)
            outputs, state, _ = seq2seq.dynamic_decode(decoder, maximum_iterations=n)
        """,
    ),
    Reported(
        "the convolutional LSTM cell: no TensorFlow 2.16+ home, reported with Keras'",
        """
        import tensorflow as tf

        c = tf.contrib.rnn.ConvLSTMCell(2, [8, 8, 1], 4, [3, 3])
        """,
        [attention(3, "tf.contrib.rnn.ConvLSTMCell", fix="ConvLSTM2D")],
    ),
    # Issue 41: TF1's linear-chain CRF, in slim_ext with TF 1.15's numbers; the
    # ``transitions`` variable keeps its name.
    Edit(
        "crf's likelihood and decoding",
        before="""
            import tensorflow as tf

            with tf.variable_scope("crf"):
                ll, params = tf.contrib.crf.crf_log_likelihood(scores, tags, lengths)
            best, _ = tf.contrib.crf.crf_decode(scores, params, lengths)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.crf

            with tf.variable_scope("crf"):
                ll, params = slim_ext.contrib.crf.crf_log_likelihood(scores, tags, lengths)
            best, _ = slim_ext.contrib.crf.crf_decode(scores, params, lengths)
        """,
    ),
    Edit(
        "crf imported as a module, and its viterbi_decode from the ops file",
        before="""
            from tensorflow.contrib import crf
            from tensorflow.contrib.crf.python.ops.crf import viterbi_decode

            ll, _ = crf.crf_log_likelihood(scores, tags, lengths, transitions)
            path, score = viterbi_decode(numpy_scores, numpy_transitions)
        """,
        after="""
            from slim_ext.contrib import crf
            from slim_ext.contrib.crf import viterbi_decode

            ll, _ = crf.crf_log_likelihood(scores, tags, lengths, transitions)
            path, score = viterbi_decode(numpy_scores, numpy_transitions)
        """,
    ),
    # TF 1.6-1.7's Bayesian layers went to TFP (1.15 had none); their functional forms,
    # and names TensorFlow never had, are reported with what to write.
    Edit(
        "bayesflow's Bayesian layer classes go to tfp.layers",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.bayesflow import layers as bl

            hidden = tf.contrib.bayesflow.layers.DenseFlipout(512, activation=tf.nn.relu)
            conv = bl.Conv2DReparameterization(32, 3)
        """,
        after="""
            import tensorflow as tf
            import tensorflow_probability

            hidden = tensorflow_probability.layers.DenseFlipout(512, activation=tf.nn.relu)
            conv = tensorflow_probability.layers.Convolution2DReparameterization(32, 3)
        """,
        findings=[edit(4, "-> tensorflow_probability.layers.DenseFlipout (TFP's layer adds "
                          "each divergence to its losses summed"),
                  edit(5, "Conv2DReparameterization -> "
                          "tensorflow_probability.layers.Convolution2DReparameterization"),
                  edit(2)],
    ),
    Reported(
        "functional Bayesian layers, and names TensorFlow never had",
        """
        import tensorflow as tf

        y = tf.contrib.bayesflow.layers.dense_flipout(inputs=x, units=4)
        m = tf.contrib.layers.DenseLocalReparameterization(10)
        d = tf.contrib.distributions.MVNDiag(loc, scale)
        w = tf.contrib.distributions.WishartFull(3., s)
        """,
        [attention(3, "dense_flipout is not a name of TensorFlow 1.15's tf.contrib",
                   fix="tfp.layers.DenseFlipout(...)(inputs)"),
         attention(4, "tf.contrib.layers.DenseLocalReparameterization is not a name",
                   fix="tfp.layers.DenseLocalReparameterization (tf.contrib.layers never"),
         attention(5, "MVNDiag is not a name",
                   fix="tfp.distributions.MultivariateNormalDiag(loc=, scale_diag=)"),
         attention(6, "WishartFull was removed with tf.contrib",
                   fix="WishartTriL(df, scale_tril=tf.linalg.cholesky(scale)")],
    ),
    Edit(
        "seq2seq's Bahdanau / Luong attention and the wrapper, also from its ops module",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.seq2seq.python.ops import helper as helper_py

            mechanism = tf.contrib.seq2seq.BahdanauAttention(64, memory, lengths)
            cell = tf.contrib.seq2seq.AttentionWrapper(cell, mechanism, alignment_history=1)
            helper = helper_py.TrainingHelper(inputs, lengths)
        """,
        after="""
            import tensorflow as tf
            from slim_ext.contrib import seq2seq as helper_py
            import slim_ext.contrib.seq2seq

            mechanism = slim_ext.contrib.seq2seq.BahdanauAttention(64, memory, lengths)
            cell = slim_ext.contrib.seq2seq.AttentionWrapper(cell, mechanism, alignment_history=1)
            helper = helper_py.TrainingHelper(inputs, lengths)
        """,
    ),
    Reported(
        "contrib.training's state saver: a dead end, with the tf.data / stateful-RNN way",
        """
        import tensorflow as tf
        from tensorflow.contrib.training.python.training import sequence_queueing_state_saver

        batch = tf.contrib.training.batch_sequences_with_states(
            key, seqs, context, length, states, num_unroll=4, batch_size=8)
        saver = sequence_queueing_state_saver.SequenceQueueingStateSaver(8, 4, length, key)
        """,
        [attention(4, "batch_sequences_with_states was removed with tf.contrib",
                   fix="tf.keras.layers.LSTM(units, stateful=True)"),
         attention(6, "sequence_queueing_state_saver.SequenceQueueingStateSaver was removed",
                   fix="split each sequence into num_unroll-step segments"),
         attention(2, "module alias `sequence_queueing_state_saver` is still used")],
    ),
    Edit(
        "beam search, TF 1.15's",
        before="""
            import tensorflow as tf

            decoder = tf.contrib.seq2seq.BeamSearchDecoder(cell, embed, start, end, state, 4)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.seq2seq

            decoder = slim_ext.contrib.seq2seq.BeamSearchDecoder(cell, embed, start, end, state, 4)
        """,
    ),
    Edit(
        "monotonic attention, TF 1.15's",
        before="""
            import tensorflow as tf

            mechanism = tf.contrib.seq2seq.BahdanauMonotonicAttention(64, memory)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.seq2seq

            mechanism = slim_ext.contrib.seq2seq.BahdanauMonotonicAttention(64, memory)
        """,
    ),
    Edit(
        "an alias used only inside a function is dropped, with an edit",
        before="""
            import tensorflow as tf

            def build():
                contrib_rnn = tf.contrib.rnn
                return contrib_rnn.LSTMBlockCell(4)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.rnn

            def build():
                return slim_ext.contrib.rnn.LSTMBlockCell(4)
        """,
        findings=[edit(5, "-> slim_ext.contrib.rnn.LSTMBlockCell"),
                  edit(4, "alias `contrib_rnn` removed: every use of it was ported")],
    ),
    # Issue 41: the names TF 1.x resolved that had a home all along.
    Edit(
        "deprecated_flipped losses keep TF 0.x's argument order in slim_ext",
        before="""
            import tensorflow as tf

            loss = tf.contrib.nn.deprecated_flipped_sigmoid_cross_entropy_with_logits(
                logits, labels)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.nn

            loss = slim_ext.contrib.nn.deprecated_flipped_sigmoid_cross_entropy_with_logits(
                logits, labels)
        """,
    ),
    Edit(
        "contrib.lookup's tables from a tensor or a file",
        before="""
            from tensorflow.contrib import lookup

            ids = lookup.index_table_from_tensor(mapping=vocab, num_oov_buckets=1)
            words = lookup.index_to_string_table_from_file(path)
        """,
        after="""
            from slim_ext.contrib import lookup

            ids = lookup.index_table_from_tensor(mapping=vocab, num_oov_buckets=1)
            words = lookup.index_to_string_table_from_file(path)
        """,
    ),
    Edit(
        "contrib.lookup's exported initializers stay core TensorFlow's",
        before="""
            import tensorflow as tf

            init = tf.contrib.lookup.KeyValueTensorInitializer(keys, values)
        """,
        after="""
            import tensorflow as tf

            init = tf.compat.v1.lookup.KeyValueTensorInitializer(keys, values)
        """,
    ),
    Edit(
        "a submodule TF 1.15 bound as an attribute (layers.summaries)",
        before="""
            import tensorflow as tf

            tf.contrib.layers.summaries.summarize_activation(net)
        """,
        after="""
            import tensorflow as tf
            import tf_slim

            tf_slim.summarize_activation(net)
        """,
    ),
    Edit(
        "importing the attribute-bound submodule moves the import",
        before="""
            from tensorflow.contrib.layers import summaries

            summaries.summarize_tensor(loss)
        """,
        after="""
            from tf_slim.layers import summaries

            summaries.summarize_tensor(loss)
        """,
    ),
    Edit(
        "tf.contrib.keras is tf_keras",
        before="""
            import tensorflow as tf

            ids = tf.contrib.keras.preprocessing.sequence.pad_sequences(seqs, maxlen=8)
            dense = tf.contrib.keras.layers.Dense(3)
        """,
        after="""
            import tensorflow as tf
            import tf_keras.layers
            import tf_keras.preprocessing.sequence

            ids = tf_keras.preprocessing.sequence.pad_sequences(seqs, maxlen=8)
            dense = tf_keras.layers.Dense(3)
        """,
    ),
    Edit(
        "a tf.contrib.keras module import",
        before="""
            from tensorflow.contrib.keras import layers, models

            model = models.Sequential([layers.Dense(1)])
        """,
        after="""
            from tf_keras import layers
            from tf_keras import models

            model = models.Sequential([layers.Dense(1)])
        """,
    ),
    Edit(
        "the XLA jit scope a plain contrib file re-exported",
        before="""
            import tensorflow as tf

            with tf.contrib.compiler.jit.experimental_jit_scope():
                y = f(x)
        """,
        after="""
            import tensorflow as tf

            with tf.compat.v1.xla.experimental.jit_scope():
                y = f(x)
        """,
    ),
    Edit(
        "TPUEstimator's input pipeline modes, star-exported from tensorflow_estimator",
        before="""
            import tensorflow as tf

            mode = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2
        """,
        after="""
            import tensorflow as tf

            mode = tf.compat.v1.estimator.tpu.InputPipelineConfig.PER_HOST_V2
        """,
    ),
    Edit(
        "gan.eval's frozen-graph helpers TF-GAN dropped, beside TF-GAN's own",
        before="""
            import tensorflow as tf

            graph_def = tf.contrib.gan.eval.get_graph_def_from_disk(path)
            logits = tf.contrib.gan.eval.run_image_classifier(images, graph_def, 'x:0', 'y:0')
            grid = tf.contrib.gan.eval.image_grid(images, [2, 2])
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.gan_eval
            import tensorflow_gan

            graph_def = slim_ext.contrib.gan_eval.get_graph_def_from_disk(path)
            logits = slim_ext.contrib.gan_eval.run_image_classifier(images, graph_def, 'x:0', 'y:0')
            grid = tensorflow_gan.eval.image_grid(images, [2, 2])
        """,
    ),
    Edit(
        "the embedding projector is TensorBoard's again",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.tensorboard.plugins import projector

            config = projector.ProjectorConfig()
            tf.contrib.tensorboard.plugins.projector.visualize_embeddings(writer, config)
        """,
        after="""
            import tensorflow as tf
            from tensorboard.plugins import projector
            import tensorboard.plugins.projector

            config = projector.ProjectorConfig()
            tensorboard.plugins.projector.visualize_embeddings(writer, config)
        """,
        findings=[edit(2, "tf.contrib.tensorboard.plugins.projector -> "
                       "tensorboard.plugins.projector (install it: pip install "
                       "'tensorboard>=2.15')"),
                  edit(5, "-> tensorboard.plugins.projector.visualize_embeddings")],
    ),
    Reported(
        "a contrib.nn name with no home is reported as gone, with what to use",
        "import tensorflow as tf\ny = tf.contrib.nn.scaled_softplus(x, 2.0)\n",
        [attention(2, "tf.contrib.nn.scaled_softplus was removed", fix="tf.nn ops")],
    ),
    Reported(
        "tf_keras dropped the scikit-learn wrappers",
        "import tensorflow as tf\nm = tf.contrib.keras.wrappers.scikit_learn.KerasClassifier(f)\n",
        [attention(2, "tf.contrib.keras.wrappers.scikit_learn.KerasClassifier was removed",
                    fix="scikeras")],
    ),
    Noop("tf_keras already", "import tf_keras\nlayer = tf_keras.layers.Dense(3)\n"),
    Noop("core lookup already",
         "import tensorflow as tf\ntable = tf.lookup.StaticHashTable(init, -1)\n"),
    Noop("tfp already", "import tensorflow_probability as tfp\ntfd = tfp.distributions\n"),
    Noop("tf-gan already", "import tensorflow_gan as tfgan\nloss = tfgan.gan_loss(model)\n"),
    Noop("core rnn cells already",
         "import tensorflow as tf\ncell = tf.compat.v1.nn.rnn_cell.LSTMCell(4)\n"),
    Noop("a distributions module of another package",
         "import mylib.distributions as tfd\nd = tfd.Normal(0., 1.)\n"),
    # TF 1.0-1.1's contrib.rnn modules, which TF 1.2 moved into tf.nn (tflearn 0.3.2's
    # fallback for TensorFlow 1.1 and under).
    Edit(
        "TF 1.1's static RNNs and core cells",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.rnn.python.ops.core_rnn import static_rnn as _rnn
            from tensorflow.contrib.rnn.python.ops import core_rnn_cell

            cell = core_rnn_cell.BasicLSTMCell(4)
            outputs, state = _rnn(cell, inputs, dtype=tf.float32)
            new_state = core_rnn_cell.LSTMStateTuple(state.c, state.h)
        """,
        after="""
            import tensorflow as tf
            from tensorflow.compat.v1.nn import static_rnn as _rnn
            from slim_ext.contrib.rnn import core_rnn_cell

            cell = core_rnn_cell.BasicLSTMCell(4)
            outputs, state = _rnn(cell, inputs, dtype=tf.float32)
            new_state = core_rnn_cell.LSTMStateTuple(state.c, state.h)
        """,
    ),
    # Object detection 2.x's fallback for TensorFlow 1: the module, then an alias of it,
    # as values. The import moves to slim_ext's mirror of all of contrib.lookup, and the
    # alias is that module too (nothing left to report).
    Edit(
        "contrib.lookup as a value, through an alias",
        before="""
            import tensorflow as tf
            try:
                from tensorflow.contrib import lookup as contrib_lookup
            except ImportError:
                pass
            try:
                lookup = tf.compat.v2.lookup
            except AttributeError:
                lookup = contrib_lookup
        """,
        after="""
            import tensorflow as tf
            try:
                from slim_ext.contrib import lookup as contrib_lookup
            except ImportError:
                pass
            try:
                lookup = tf.compat.v2.lookup
            except AttributeError:
                lookup = contrib_lookup
        """,
    ),
    Edit(
        "TF 1.5's eager-mode test",
        before="""
            import tensorflow as tf
            import tensorflow.contrib.eager as tfe

            if tfe.in_eager_mode():
                x = 1
        """,
        after="""
            import tensorflow as tf

            if tf.compat.v1.executing_eagerly():
                x = 1
        """,
    ),
    Edit(
        # tensor2tensor 1.14's utils/metrics.py: TF 1.x's eager metric objects.
        "tfe.metrics.Mean through tf.contrib.eager's tfe module",
        before="""
            import tensorflow as tf
            from tensorflow.contrib.eager.python import tfe

            def eager_means(names):
                return {name: tfe.metrics.Mean(name=name) for name in names}
        """,
        after="""
            import tensorflow as tf
            import slim_ext.contrib.eager_metrics

            def eager_means(names):
                return {name: slim_ext.contrib.eager_metrics.Mean(name=name) for name in names}
        """,
    ),
    Edit(
        # mesh-tensorflow 0.0.5's simd_mesh_impl.py: contrib re-exported core TF's TPU ops.
        "contrib's tpu_ops module, core TensorFlow's",
        before="""
            from tensorflow.contrib.tpu.python.ops import tpu_ops

            def permute(t, pairs):
                return tpu_ops.collective_permute(t, pairs)
        """,
        after="""
            from tensorflow.python.tpu.ops import tpu_ops

            def permute(t, pairs):
                return tpu_ops.collective_permute(t, pairs)
        """,
    ),
]
