"""train_and_evaluate: Estimator's train_and_evaluate -> slim_ext.estimator's (its ps ends)."""
from tests.slimport.codemods.cases import Edit, Noop, edit

CASES = [
    Edit(
        "every use alone or on a cluster",
        before="""
            import tensorflow as tf

            def main():
                estimator = tf.estimator.Estimator(model_fn)
                return tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.estimator

            def main():
                estimator = tf.estimator.Estimator(model_fn)
                return slim_ext.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
        """,
    ),
    # The alias imported for nothing else goes.
    Edit(
        "through compat.v1 and a module alias",
        before="""
            import tensorflow.compat.v1 as tf
            from tensorflow_estimator import estimator as tf_estimator

            spec = tf.estimator.TrainSpec(input_fn)
            tf.estimator.train_and_evaluate(e, spec, v)
            tf_estimator.train_and_evaluate(e, spec, v)
        """,
        after="""
            import tensorflow.compat.v1 as tf
            import slim_ext.estimator

            spec = tf.estimator.TrainSpec(input_fn)
            slim_ext.estimator.train_and_evaluate(e, spec, v)
            slim_ext.estimator.train_and_evaluate(e, spec, v)
        """,
    ),
    Edit(
        "imported by name from the deep module",
        before="""
            from tensorflow_estimator.python.estimator.training import TrainSpec, train_and_evaluate
            train_and_evaluate(est, TrainSpec(fn), eval_spec)
        """,
        after="""
            from tensorflow_estimator.python.estimator.training import TrainSpec
            from slim_ext.estimator import train_and_evaluate
            train_and_evaluate(est, TrainSpec(fn), eval_spec)
        """,
    ),
    Edit(
        "the edit names both",
        before="import tensorflow as tf\ntf.estimator.train_and_evaluate(e, t, v)\n",
        after="import slim_ext.estimator\n\nslim_ext.estimator.train_and_evaluate(e, t, v)\n",
        findings=[edit(2, "tf.estimator.train_and_evaluate -> "
                          "slim_ext.estimator.train_and_evaluate")],
    ),
    Noop("a TrainSpec alone",
         "import tensorflow as tf\nspec = tf.estimator.TrainSpec(input_fn, max_steps=10)\n"),
    # The script's own function of that name; a local tf; another library's.
    Noop("the script's own function of that name",
         "def train_and_evaluate(a, b, c):\n    pass\ntrain_and_evaluate(1, 2, 3)\n"),
    Noop("a parameter named tf",
         "import tensorflow as tf\ndef f(tf):\n"
         "    return tf.estimator.train_and_evaluate(1, 2, 3)\n"),
    Noop("another library's",
         "import mylib\nmylib.estimator.train_and_evaluate(e, t, v)\n"),
    Noop("slim_ext's already",
         "import slim_ext.estimator\nslim_ext.estimator.train_and_evaluate(e, t, v)\n"),
]
