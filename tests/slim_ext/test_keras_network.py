"""slim_ext.keras_network: the ported cifarnet_bn as a Keras layer computes what TF 1.15 did.

The numbers are those of tests/slim_ext/data/tf1_slim_nets (TF 1.15's, compared as
tests/slim_ext/test_tf1_slim_nets.py compares the graph-mode port): its logits from
TF 1.15's checkpoint, eagerly and in a tf.function, and one SGD step from the
fixture's drawn values, by a custom loop run eagerly and by ``Model.fit``; and the
restored model saved as a SavedModel (TF's, with an inference signature, and tf_keras'
own format), loaded back without the network's code.
"""
import json
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf
import tf_keras

from slim_ext.keras_network import SlimNetwork
from tests.slim_ext import tf1_slim_nets
from tests.slim_ext.test_tf1_slim_nets import mismatches

pytestmark = pytest.mark.tf

NAME = "cifarnet_bn"
FIXTURE = Path(__file__).parent / "data" / "tf1_slim_nets"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())
IMAGES, LABELS = tf1_slim_nets.images(NAME), tf1_slim_nets.labels()


def _model(ported_nets):
  """(the layer, a functional Model around it), built; dropout keeps everything in
  training, as in the fixture's step."""
  network = SlimNetwork.from_nets_factory(ported_nets, NAME, tf1_slim_nets.NUM_CLASSES,
                                          weight_decay=0.0004, dropout_keep_prob=1.0)
  inputs = tf_keras.Input(IMAGES.shape[1:])
  return network, tf_keras.Model(inputs, network(inputs))


def _op_name(variable):
  return variable.name.split(":")[0]


def _draw(network):
  for variable in network.weights:
    variable.assign(tf1_slim_nets.variable_value(_op_name(variable), variable.shape.as_list()))


def _record(network, step):
  """A tf1_slim_nets.measure-style record: names, inference logits, and `step()`'s
  loss and changes, from the fixture's drawn values."""
  _draw(network)
  record = {"variables": {_op_name(v): v.shape.as_list() for v in network.weights},
            "logits": network(IMAGES, training=False).numpy().tolist()}
  before = {_op_name(v): v.numpy() for v in network.weights}
  loss = step()
  record["step"] = {"loss": float(loss), "changes": {
      _op_name(v): tf1_slim_nets.step_digest(_op_name(v), before[_op_name(v)], v.numpy())
      for v in network.weights}}
  return record


def test_tf1_checkpoint_restores_and_gives_tf1s_logits_eagerly_and_in_a_function(ported_nets):
  network, model = _model(ported_nets)
  assert {_op_name(v): v.shape.as_list() for v in network.weights} == EXPECTED[NAME]["variables"]
  assert len(network.trainable_weights) == 10 and len(network.losses) == 4  # weight decay
  network.restore_tf1_checkpoint(str(FIXTURE / f"{NAME}.ckpt"))
  eager = model(IMAGES, training=False).numpy()
  in_function = tf.function(lambda images: model(images, training=False))(tf.constant(IMAGES))
  for logits in (eager, in_function.numpy()):
    assert tf1_slim_nets.relative_error(logits, EXPECTED[NAME]["logits"]) <= 1e-5


def test_a_custom_training_step_run_eagerly_is_tf1s(ported_nets):
  network, _ = _model(ported_nets)
  optimizer = tf_keras.optimizers.SGD(0.05)

  def step():
    with tf.GradientTape() as tape:
      logits = network(IMAGES, training=True)
      loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
          labels=LABELS, logits=logits)) + tf.add_n(network.losses)
    gradients = tape.gradient(loss, network.trainable_weights)
    optimizer.apply_gradients(zip(gradients, network.trainable_weights))
    return loss

  assert tf.executing_eagerly()
  assert mismatches(NAME, _record(network, step)) == []


def test_fit_trains_a_step_as_tf1_did_and_saves_an_object_based_checkpoint(ported_nets,
                                                                            tmp_path):
  network, model = _model(ported_nets)
  model.compile(tf_keras.optimizers.SGD(0.05),
                tf_keras.losses.SparseCategoricalCrossentropy(from_logits=True))

  def step():
    history = model.fit(IMAGES, LABELS, batch_size=len(LABELS), epochs=1, shuffle=False,
                        verbose=0)
    return history.history["loss"][0]

  assert mismatches(NAME, _record(network, step)) == []
  trained = model(IMAGES, training=False).numpy()
  saved = tf.train.Checkpoint(model=model).save(str(tmp_path / "keras" / "ckpt"))
  assert not any(name.startswith("CifarNetBN/") for name, _ in tf.train.list_variables(saved))

  _, restored = _model(ported_nets)
  tf.train.Checkpoint(model=restored).restore(saved).assert_existing_objects_matched()
  np.testing.assert_array_equal(restored(IMAGES, training=False).numpy(), trained)


def test_restoring_before_the_layer_has_weights_says_so(ported_nets):
  network = SlimNetwork.from_nets_factory(ported_nets, NAME, tf1_slim_nets.NUM_CLASSES)
  with pytest.raises(ValueError, match="no weights yet"):
    network.restore_tf1_checkpoint(str(FIXTURE / f"{NAME}.ckpt"))


def test_saved_model_of_the_keras_route_serves_tf1s_logits(ported_nets, tmp_path):
  # The model restored from TF 1.15's checkpoint, saved two ways and loaded back
  # without the network's code: TF's SavedModel with an inference signature, and
  # tf_keras' own SavedModel format.
  _, model = _model(ported_nets)
  model.layers[-1].restore_tf1_checkpoint(str(FIXTURE / f"{NAME}.ckpt"))
  expected = model(IMAGES, training=False).numpy()
  assert tf1_slim_nets.relative_error(expected, EXPECTED[NAME]["logits"]) <= 1e-5

  serve = tf.function(lambda images: {"logits": model(images, training=False)})
  signature = serve.get_concrete_function(tf.TensorSpec([None, *IMAGES.shape[1:]], tf.float32,
                                                        name="images"))
  tf.saved_model.save(model, str(tmp_path / "saved_model"),
                      signatures={"serving_default": signature})
  model.save(str(tmp_path / "keras"), save_format="tf")

  served = tf.saved_model.load(str(tmp_path / "saved_model")).signatures["serving_default"]
  reloaded = tf_keras.models.load_model(str(tmp_path / "keras"), compile=False)
  for logits in (served(images=tf.constant(IMAGES))["logits"].numpy(),
                 reloaded(IMAGES, training=False).numpy()):
    np.testing.assert_allclose(logits, expected, rtol=0, atol=1e-6)
  lite = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_saved_model(
      str(tmp_path / "saved_model")).convert()).get_signature_runner("serving_default")
  assert tf1_slim_nets.relative_error(lite(images=IMAGES)["logits"], expected) <= 1e-5
