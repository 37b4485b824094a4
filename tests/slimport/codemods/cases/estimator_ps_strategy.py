"""estimator_ps_strategy: TF 2.0's ParameterServerStrategy, in Estimator code -> tf.compat.v1's."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "the strategy an estimator runs with",
        before="""
            import tensorflow as tf

            def strategy_for(cluster):
                if 'ps' in cluster:
                    return tf.distribute.experimental.ParameterServerStrategy()
                return tf.distribute.experimental.MultiWorkerMirroredStrategy()

            config = tf.estimator.RunConfig(train_distribute=strategy_for(cluster))
        """,
        after="""
            import tensorflow as tf

            def strategy_for(cluster):
                if 'ps' in cluster:
                    return tf.compat.v1.distribute.experimental.ParameterServerStrategy()
                return tf.distribute.experimental.MultiWorkerMirroredStrategy()

            config = tf.estimator.RunConfig(train_distribute=strategy_for(cluster))
        """,
    ),
    Edit(
        "with model_to_estimator and a resolver",
        before="""
            import tensorflow
            strategy = tensorflow.distribute.experimental.ParameterServerStrategy(
                resolver)
            est = tensorflow.keras.estimator.model_to_estimator(model, config=config(strategy))
        """,
        after="""
            import tensorflow
            strategy = tensorflow.compat.v1.distribute.experimental.ParameterServerStrategy(
                resolver)
            est = tensorflow.keras.estimator.model_to_estimator(model, config=config(strategy))
        """,
    ),
    Reported(
        "a tf 2.0 call without an estimator",
        "import tensorflow as tf\n"
        "strategy = tf.distribute.experimental.ParameterServerStrategy()\n",
        [attention(2, "without a cluster resolver",
                   fix="tf.compat.v1.distribute.experimental.ParameterServerStrategy()")],
    ),
    Reported(
        "the tf 2.4 name in an estimator program",
        "from tensorflow import distribute\nimport tensorflow as tf\n"
        "s = distribute.experimental.ParameterServerStrategy()\n"
        "c = tf.estimator.RunConfig(train_distribute=s)\n",
        [attention(3, "TF 2.4+'s strategy, which Estimator does not run")],
    ),
    # No Estimator: TF 2.4+'s strategy with its resolver, or TF1 code (compat_v1 makes
    # tf.distribute the TF1 API there).
    Noop("tf 2.4's strategy with its resolver",
         "import tensorflow as tf\n"
         "resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()\n"
         "strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)\n"),
    Noop("tf1 code",
         "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
         "strategy = tf.distribute.experimental.ParameterServerStrategy()\n"),
    # TF1's class already, and MultiWorkerMirroredStrategy, which Estimator runs as it is.
    Noop("tf1's class already",
         "import tensorflow as tf\n"
         "s = tf.compat.v1.distribute.experimental.ParameterServerStrategy()\n"
         "c = tf.estimator.RunConfig(train_distribute=s)\n"),
    Noop("compat.v1's tf",
         "import tensorflow.compat.v1 as tf\n"
         "s = tf.distribute.experimental.ParameterServerStrategy()\n"
         "c = tf.estimator.RunConfig(train_distribute=s)\n"),
    Noop("MultiWorkerMirroredStrategy",
         "import tensorflow as tf\n"
         "s = tf.distribute.experimental.MultiWorkerMirroredStrategy()\n"
         "c = tf.estimator.RunConfig(train_distribute=s)\n"),
    # Not TensorFlow's.
    Noop("a parameter named tf",
         "import tensorflow as tf\ndef f(tf):\n"
         "    return tf.distribute.experimental.ParameterServerStrategy()\n"
         "c = tf.estimator.RunConfig()\n"),
]
