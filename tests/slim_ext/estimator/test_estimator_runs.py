"""tf.estimator trains, evaluates, predicts, exports and checkpoints with slim_ext loaded.

In-process, in one TensorFlow (the session ``tf`` fixture): an Estimator with
hooks, tf_keras' ``model_to_estimator`` with a TF1 optimizer, a canned
estimator, ``TPUEstimator(use_tpu=False)``, and what estimator's own modules
see as ``tf.keras`` (tf_keras on TF >= 2.16 with Keras 3; TensorFlow's own
Keras 2 on 2.15), while the user's ``tf.keras`` is left as it is.
"""
import numpy as np
import pytest

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def data():
  rng = np.random.RandomState(0)
  x = rng.uniform(-1, 1, size=(128, 4)).astype(np.float32)
  return x, (x[:, 0] + x[:, 1] > 0).astype(np.int64)


@pytest.fixture()
def input_fn(tf, data):
  def make(repeat=True, key="x"):
    def fn():
      dataset = tf.data.Dataset.from_tensor_slices(({key: data[0]}, data[1]))
      return (dataset.repeat() if repeat else dataset).batch(32)
    return fn
  return make


def _seeded(tf, model_dir):
  # A fixed graph seed: the accuracy a test asks for must not depend on the draw
  # of the initial weights (an unseeded draw failed one CI run in many).
  return tf.estimator.RunConfig(model_dir=str(model_dir), tf_random_seed=0)


def _model_fn(tf):
  def model_fn(features, labels, mode):
    logits = tf.layers.dense(features["x"], 2)
    classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
      return tf.estimator.EstimatorSpec(
          mode, predictions={"classes": classes},
          export_outputs={"serving_default":
                          tf.estimator.export.PredictOutput({"classes": classes})})
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
    step = tf.compat.v1.train.get_global_step()
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.5).minimize(
        loss, global_step=step)
    hook = tf.compat.v1.train.LoggingTensorHook({"loss": loss, "step": step},
                                                every_n_iter=10)
    return tf.estimator.EstimatorSpec(
        mode, loss=loss, train_op=train_op, training_hooks=[hook],
        eval_metric_ops={"accuracy": tf.compat.v1.metrics.accuracy(labels, classes)})
  return model_fn


def test_estimator_trains_evaluates_predicts_and_exports(tf, input_fn, tmp_path):
  estimator = tf.estimator.Estimator(_model_fn(tf), config=_seeded(tf, tmp_path / "model"))
  estimator.train(input_fn(), steps=60)
  metrics = estimator.evaluate(input_fn(repeat=False))
  assert metrics["global_step"] == 60 and metrics["accuracy"] > 0.8
  assert tf.train.latest_checkpoint(str(tmp_path / "model")).endswith("model.ckpt-60")
  predictions = list(estimator.predict(input_fn(repeat=False)))
  assert len(predictions) == 128 and set(predictions[0]) == {"classes"}
  receiver = tf.estimator.export.build_parsing_serving_input_receiver_fn(
      {"x": tf.io.FixedLenFeature([4], tf.float32)})
  exported = estimator.export_saved_model(str(tmp_path / "export"), receiver)
  assert (tmp_path / "export").exists() and exported


def test_v1_export_savedmodel_serves_predict_eagerly(tf, input_fn, data, tmp_path):
  # TF1 code's name (tf.compat.v1.estimator.Estimator.export_savedmodel) and a raw
  # receiver of TF1 placeholders; the TF1 SavedModel it writes is loaded by TF 2's
  # tf.saved_model.load and its serving_default runs eagerly, giving predict's classes.
  estimator = tf.compat.v1.estimator.Estimator(_model_fn(tf),
                                               config=_seeded(tf, tmp_path / "model"))
  estimator.train(input_fn(), steps=20)
  predicted = [p["classes"] for p in estimator.predict(input_fn(repeat=False))]
  with tf.Graph().as_default():
    receiver = tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tf.compat.v1.placeholder(tf.float32, [None, 4], name="x")})
  exported = estimator.export_savedmodel(str(tmp_path / "export"), receiver)
  served = tf.compat.v2.saved_model.load(exported.decode()).signatures["serving_default"]
  assert served(x=tf.constant(data[0]))["classes"].numpy().tolist() == predicted


def test_train_and_evaluate_runs_the_eval_specs_exporters(tf, input_fn, data, tmp_path):
  import slim_ext.estimator  # pylint: disable=g-import-not-at-top  (what the port calls)
  estimator = tf.estimator.Estimator(_model_fn(tf), config=_seeded(tf, tmp_path / "model"))
  receiver = tf.estimator.export.build_parsing_serving_input_receiver_fn(
      {"x": tf.io.FixedLenFeature([4], tf.float32)})
  _, exports = slim_ext.estimator.train_and_evaluate(
      estimator, tf.estimator.TrainSpec(input_fn(), max_steps=20),
      tf.estimator.EvalSpec(input_fn(repeat=False), throttle_secs=0, exporters=[
          tf.estimator.LatestExporter("latest", receiver),
          tf.estimator.FinalExporter("final", receiver)]))
  assert [path.decode().split("/")[-2] for path in exports] == ["latest", "final"]
  predicted = [p["classes"] for p in estimator.predict(input_fn(repeat=False))]
  examples = [tf.train.Example(features=tf.train.Features(feature={"x": tf.train.Feature(
      float_list=tf.train.FloatList(value=row))})).SerializeToString() for row in data[0]]
  served = tf.compat.v2.saved_model.load(exports[1].decode()).signatures["serving_default"]
  assert served(examples=tf.constant(examples))["classes"].numpy().tolist() == predicted


def test_train_and_evaluate_locally_with_mirrored_strategy(tf, input_fn, tmp_path):
  config = _seeded(tf, tmp_path).replace(
      train_distribute=tf.distribute.MirroredStrategy(["/cpu:0"]))
  estimator = tf.estimator.Estimator(_model_fn(tf), config=config)
  metrics, _ = tf.estimator.train_and_evaluate(
      estimator, tf.estimator.TrainSpec(input_fn(), max_steps=30),
      tf.estimator.EvalSpec(input_fn(repeat=False), steps=None, throttle_secs=0))
  assert metrics["global_step"] == 30


def test_canned_dnn_classifier(tf, input_fn, tmp_path):
  classifier = tf.estimator.DNNClassifier(
      hidden_units=[8], feature_columns=[tf.feature_column.numeric_column("x", [4])],
      config=_seeded(tf, tmp_path))
  classifier.train(input_fn(), steps=40)
  assert classifier.evaluate(input_fn(repeat=False))["accuracy"] > 0.7


def test_model_to_estimator_with_a_tf1_optimizer(tf, input_fn, tmp_path):
  # The Keras the estimator works with: tf_keras on TF >= 2.16 (slim_ext's view),
  # TensorFlow's Keras 2 on 2.15; a model of the other package does not clone.
  from tensorflow_estimator.python.estimator import keras_lib  # pylint: disable=g-import-not-at-top
  keras = keras_lib.tf.keras
  # Softmax: the loss below reads probabilities, not logits. The estimator starts
  # from the model's own weights, so their draw is seeded here.
  model = keras.Sequential([keras.layers.Dense(
      2, input_shape=(4,), name="x", activation="softmax",
      kernel_initializer=keras.initializers.GlorotUniform(seed=0))])
  model.compile(optimizer=tf.train.AdamOptimizer(0.05),
                loss="sparse_categorical_crossentropy", metrics=["accuracy"])
  estimator = keras.estimator.model_to_estimator(model, config=_seeded(tf, tmp_path))
  estimator.train(input_fn(key="x_input"), steps=40)
  assert estimator.evaluate(input_fn(repeat=False, key="x_input"))["accuracy"] > 0.9


def test_estimator_sees_keras_2_and_the_user_keeps_keras_3(tf):
  import tensorflow  # pylint: disable=g-import-not-at-top
  from tensorflow_estimator.python.estimator import keras_lib  # pylint: disable=g-import-not-at-top
  from tensorflow_estimator.python.estimator.canned import dnn  # pylint: disable=g-import-not-at-top
  from slim_ext.estimator import shims  # pylint: disable=g-import-not-at-top
  user_keras = tensorflow.keras.__name__
  if any(shim.kind == shims.KERAS_2_VIEW for shim in shims.applied()):
    assert user_keras.startswith("keras")  # Keras 3, as TF 2.21 gives it
    assert keras_lib.tf.keras.__name__ == "tf_keras.api._v2.keras"
    assert keras_lib.tf.compat.v1.keras.__name__ == "tf_keras.api._v1.keras"
    assert keras_lib.tf.compat.v2.keras.__name__ == "tf_keras.api._v2.keras"
    # Everything else is TensorFlow's own object.
    assert keras_lib.tf.Tensor is tensorflow.Tensor
    assert keras_lib.tf.compat.v1.Session is tensorflow.compat.v1.Session
    import tf_keras  # pylint: disable=g-import-not-at-top
    assert issubclass(dnn._DNNModelV2, tf_keras.Model)  # pylint: disable=protected-access
  else:
    assert keras_lib.tf.keras is tensorflow.keras


def test_tpu_estimator_runs_on_the_cpu(tf, input_fn, tmp_path):
  def model_fn(features, labels, mode, params):
    del params
    spec = _model_fn(tf)(features, labels, mode)
    return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(
        mode, loss=spec.loss, train_op=spec.train_op)

  config = tf.compat.v1.estimator.tpu.RunConfig(model_dir=str(tmp_path))
  estimator = tf.compat.v1.estimator.tpu.TPUEstimator(
      model_fn=model_fn, config=config, use_tpu=False, train_batch_size=32)
  estimator.train(lambda params: input_fn()(), steps=10)
  assert tf.train.latest_checkpoint(str(tmp_path)).endswith("-10")
