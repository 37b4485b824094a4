"""train_and_evaluate: Estimator's train_and_evaluate -> slim_ext.estimator's (its ps ends)."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.train_and_evaluate import TrainAndEvaluateCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, TrainAndEvaluateCommand)


class TestTrainAndEvaluate(IdempotentCodemodTest):
    TRANSFORM = TrainAndEvaluateCommand

    def test_every_use_alone_or_on_a_cluster(self) -> None:
        before = """
            import tensorflow as tf

            def main():
                estimator = tf.estimator.Estimator(model_fn)
                return tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
        """
        after = """
            import tensorflow as tf
            import slim_ext.estimator

            def main():
                estimator = tf.estimator.Estimator(model_fn)
                return slim_ext.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
        """
        self.assertCodemod(before, after)

    def test_through_compat_v1_and_a_module_alias(self) -> None:
        # The alias imported for nothing else goes.
        before = """
            import tensorflow.compat.v1 as tf
            from tensorflow_estimator import estimator as tf_estimator

            spec = tf.estimator.TrainSpec(input_fn)
            tf.estimator.train_and_evaluate(e, spec, v)
            tf_estimator.train_and_evaluate(e, spec, v)
        """
        after = """
            import tensorflow.compat.v1 as tf
            import slim_ext.estimator

            spec = tf.estimator.TrainSpec(input_fn)
            slim_ext.estimator.train_and_evaluate(e, spec, v)
            slim_ext.estimator.train_and_evaluate(e, spec, v)
        """
        self.assertCodemod(before, after)

    def test_imported_by_name_from_the_deep_module(self) -> None:
        before = """
            from tensorflow_estimator.python.estimator.training import TrainSpec, train_and_evaluate
            train_and_evaluate(est, TrainSpec(fn), eval_spec)
        """
        after = """
            from tensorflow_estimator.python.estimator.training import TrainSpec
            from slim_ext.estimator import train_and_evaluate
            train_and_evaluate(est, TrainSpec(fn), eval_spec)
        """
        self.assertCodemod(before, after)


NOOP = [
    "import tensorflow as tf\nspec = tf.estimator.TrainSpec(input_fn, max_steps=10)\n",
    # The script's own function of that name; a local tf; another library's.
    "def train_and_evaluate(a, b, c):\n    pass\ntrain_and_evaluate(1, 2, 3)\n",
    "import tensorflow as tf\ndef f(tf):\n    return tf.estimator.train_and_evaluate(1, 2, 3)\n",
    "import mylib\nmylib.estimator.train_and_evaluate(e, t, v)\n",
    "import slim_ext.estimator\nslim_ext.estimator.train_and_evaluate(e, t, v)\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_the_edit_names_both() -> None:
    _, [finding] = run("import tensorflow as tf\ntf.estimator.train_and_evaluate(e, t, v)\n")
    assert finding.line == 2
    assert finding.message.startswith(
        "tf.estimator.train_and_evaluate -> slim_ext.estimator.train_and_evaluate")
