"""estimator_ps_strategy: TF 2.0's ParameterServerStrategy, in Estimator code -> tf.compat.v1's."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.estimator_ps_strategy import EstimatorPsStrategyCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, EstimatorPsStrategyCommand)


class TestEstimatorPsStrategy(IdempotentCodemodTest):
    TRANSFORM = EstimatorPsStrategyCommand

    def test_the_strategy_an_estimator_runs_with(self) -> None:
        before = """
            import tensorflow as tf

            def strategy_for(cluster):
                if 'ps' in cluster:
                    return tf.distribute.experimental.ParameterServerStrategy()
                return tf.distribute.experimental.MultiWorkerMirroredStrategy()

            config = tf.estimator.RunConfig(train_distribute=strategy_for(cluster))
        """
        after = """
            import tensorflow as tf

            def strategy_for(cluster):
                if 'ps' in cluster:
                    return tf.compat.v1.distribute.experimental.ParameterServerStrategy()
                return tf.distribute.experimental.MultiWorkerMirroredStrategy()

            config = tf.estimator.RunConfig(train_distribute=strategy_for(cluster))
        """
        self.assertCodemod(before, after)

    def test_with_model_to_estimator_and_a_resolver(self) -> None:
        before = """
            import tensorflow
            strategy = tensorflow.distribute.experimental.ParameterServerStrategy(
                resolver)
            est = tensorflow.keras.estimator.model_to_estimator(model, config=config(strategy))
        """
        after = """
            import tensorflow
            strategy = tensorflow.compat.v1.distribute.experimental.ParameterServerStrategy(
                resolver)
            est = tensorflow.keras.estimator.model_to_estimator(model, config=config(strategy))
        """
        self.assertCodemod(before, after)


NOOP = [
    # No Estimator: TF 2.4+'s strategy with its resolver, or TF1 code (compat_v1 makes
    # tf.distribute the TF1 API there).
    "import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()\n"
    "strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)\n",
    "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
    "strategy = tf.distribute.experimental.ParameterServerStrategy()\n",
    # TF1's class already, and MultiWorkerMirroredStrategy, which Estimator runs as it is.
    "import tensorflow as tf\ns = tf.compat.v1.distribute.experimental.ParameterServerStrategy()\n"
    "c = tf.estimator.RunConfig(train_distribute=s)\n",
    "import tensorflow.compat.v1 as tf\ns = tf.distribute.experimental.ParameterServerStrategy()\n"
    "c = tf.estimator.RunConfig(train_distribute=s)\n",
    "import tensorflow as tf\ns = tf.distribute.experimental.MultiWorkerMirroredStrategy()\n"
    "c = tf.estimator.RunConfig(train_distribute=s)\n",
    # Not TensorFlow's.
    "import tensorflow as tf\ndef f(tf):\n"
    "    return tf.distribute.experimental.ParameterServerStrategy()\n"
    "c = tf.estimator.RunConfig()\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_tf_2_0_call_without_an_estimator_is_reported() -> None:
    source = ("import tensorflow as tf\n"
              "strategy = tf.distribute.experimental.ParameterServerStrategy()\n")
    code, [finding] = run(source)
    assert code == source and finding.kind == "attention" and finding.line == 2
    assert "tf.compat.v1.distribute.experimental.ParameterServerStrategy()" in finding.fix


def test_the_tf_2_4_name_in_an_estimator_program_is_reported() -> None:
    source = ("from tensorflow import distribute\nimport tensorflow as tf\n"
              "s = distribute.experimental.ParameterServerStrategy()\n"
              "c = tf.estimator.RunConfig(train_distribute=s)\n")
    code, [finding] = run(source)
    assert code == source and finding.kind == "attention" and finding.line == 3
