"""tf.contrib.distributions and tf.contrib.gan ported: TFP and TF-GAN used as TF1 code used them.

slimport rewrites ``tf.contrib.distributions`` / ``bayesflow`` to tensorflow-probability
and ``tf.contrib.gan`` to tensorflow-gan (their maintained successors). ``import
slim_ext`` gives TF-GAN 2.1.0 what it lacks here: the tf.estimator it reads at import
(TensorFlow >= 2.16 has none) and the ``inspect.getargspec`` its ``gan_loss`` calls
(gone in Python 3.11; slim_ext.contrib.gan). Ported TF1 code runs them in graph mode with
tf.compat.v1. These run on TensorFlow 2.21 (TFP 0.25) and 2.15 (TFP 0.23), TF-GAN 2.1.0
on both.
"""
import math

import numpy as np
import pytest


@pytest.fixture(scope="module")
def tfp(tf):  # pylint: disable=redefined-outer-name
  import tensorflow_probability  # pylint: disable=g-import-not-at-top
  return tensorflow_probability


@pytest.fixture(scope="module")
def tfgan(tf):  # pylint: disable=redefined-outer-name,unused-argument
  """What slimport rewrites tf.contrib.gan to: TF-GAN, imported after slim_ext."""
  import tensorflow_gan  # pylint: disable=g-import-not-at-top
  return tensorflow_gan


def test_distributions_in_graph_mode(tf, tfp):
  tfd = tfp.distributions
  with tf.Graph().as_default():
    normal = tfd.Normal(loc=[0.0, 1.0], scale=[1.0, 2.0])
    samples = normal.sample(1000, seed=3)
    log_prob = normal.log_prob([0.5, 0.5])
    kl = tfd.kl_divergence(normal, tfd.Normal(loc=0.0, scale=1.0))
    mixture = tfd.Mixture(cat=tfd.Categorical(logits=[0.0, 0.0]),
                          components=[tfd.Normal(-1.0, 0.5), tfd.Normal(1.0, 0.5)])
    relaxed = tfd.RelaxedOneHotCategorical(temperature=0.5, logits=[1.0, 2.0, 3.0])
    diagonal = tfd.MultivariateNormalDiag(loc=[1.0, 2.0], scale_diag=[1.0, 3.0])
    with tf.Session() as session:
      values = session.run({"samples": samples, "log_prob": log_prob, "kl": kl,
                            "mixture": mixture.sample(4, seed=1),
                            "mixture_mean": mixture.mean(),
                            "relaxed": relaxed.sample(seed=2),
                            "diagonal": diagonal.log_prob([1.0, 2.0])})
  assert values["samples"].shape == (1000, 2)
  assert abs(values["samples"][:, 1].mean() - 1.0) < 0.3
  expected = [-0.5 * math.log(2 * math.pi) - 0.125,
              -0.5 * math.log(2 * math.pi) - math.log(2.0) - 0.25 / 8]
  np.testing.assert_allclose(values["log_prob"], expected, rtol=1e-6)
  np.testing.assert_allclose(values["kl"], [0.0, math.log(0.5) + 5 / 2 - 0.5], rtol=1e-5,
                             atol=1e-6)
  assert values["mixture"].shape == (4,) and abs(values["mixture_mean"]) < 1e-6
  assert abs(values["relaxed"].sum() - 1.0) < 1e-5
  np.testing.assert_allclose(values["diagonal"],
                             -math.log(2 * math.pi) - math.log(3.0), rtol=1e-6)


def test_bijectors_and_helpers_where_the_port_sends_them(tf, tfp):
  with tf.Graph().as_default():
    exp = tfp.bijectors.Exp()
    transformed = tfp.distributions.TransformedDistribution(
        tfp.distributions.Normal(0.0, 1.0), exp)
    with tf.Session() as session:
      log_prob, percentile, inverse = session.run([
          transformed.log_prob(1.0), tfp.stats.percentile([1.0, 2.0, 3.0, 4.0], 50.0),
          tfp.math.softplus_inverse(tf.nn.softplus(0.7))])
  np.testing.assert_allclose(log_prob, -0.5 * math.log(2 * math.pi), rtol=1e-6)
  assert percentile in (2.0, 3.0)
  np.testing.assert_allclose(inverse, 0.7, rtol=1e-5)


def test_gan_trains_in_graph_mode(tf, tfgan, tmp_path):
  def generator_fn(noise):
    return tf.layers.dense(noise, 2)

  def discriminator_fn(data, unused_conditioning):
    return tf.layers.dense(data, 1)

  with tf.Graph().as_default():
    tf.train.get_or_create_global_step()
    real = tf.random.normal([8, 2], mean=3.0, seed=1)
    model = tfgan.gan_model(generator_fn, discriminator_fn, real_data=real,
                            generator_inputs=tf.random.normal([8, 4], seed=2))
    loss = tfgan.gan_loss(model, generator_loss_fn=tfgan.losses.wasserstein_generator_loss,
                          discriminator_loss_fn=tfgan.losses.wasserstein_discriminator_loss)
    train_ops = tfgan.gan_train_ops(model, loss, tf.train.AdamOptimizer(1e-3),
                                    tf.train.AdamOptimizer(1e-3))
    # A long save interval: the checkpoint saver writes once more when training ends.
    tfgan.gan_train(train_ops, str(tmp_path), hooks=[tf.train.StopAtStepHook(num_steps=3)],
                    save_checkpoint_secs=600, save_summaries_steps=None)
  checkpoint = tf.train.latest_checkpoint(str(tmp_path))
  assert tf.train.load_variable(checkpoint, "global_step") == 3
  names = [name for name, _ in tf.train.list_variables(checkpoint)]
  assert any(name.startswith("Generator/") for name in names)
  assert any(name.startswith("Discriminator/") for name in names)


def test_gan_estimator_trains(tf, tfgan, tmp_path):
  def generator_fn(noise, mode):  # pylint: disable=unused-argument
    return tf.layers.dense(noise, 2)

  def discriminator_fn(data, unused_conditioning, mode):  # pylint: disable=unused-argument
    return tf.layers.dense(data, 1)

  def input_fn():
    return (tf.data.Dataset.from_tensors((tf.ones([4]), tf.ones([2]) * 3.0))
            .repeat().batch(8))

  estimator = tfgan.estimator.GANEstimator(
      model_dir=str(tmp_path), generator_fn=generator_fn, discriminator_fn=discriminator_fn,
      generator_loss_fn=tfgan.losses.wasserstein_generator_loss,
      discriminator_loss_fn=tfgan.losses.wasserstein_discriminator_loss,
      generator_optimizer=tf.train.AdamOptimizer(1e-3),
      discriminator_optimizer=tf.train.AdamOptimizer(1e-3))
  estimator.train(input_fn, max_steps=2)
  assert estimator.get_variable_value("global_step") == 2
  assert any(name.startswith("Generator/")
             for name in estimator.get_variable_names())



def test_getargspec_is_given_to_tf_gan_only(tfgan):
  import inspect  # pylint: disable=g-import-not-at-top
  from tensorflow_gan.python import train  # pylint: disable=g-import-not-at-top
  assert train.inspect.getargspec(lambda a, b=1, *c, **d: None) == (
      ["a", "b"], "c", "d", (1,))
  assert hasattr(inspect, "getargspec") == (train.inspect is inspect)
