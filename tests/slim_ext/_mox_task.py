"""A MoXing script in the shape slimport gives it, run by test_run_cluster.py.

Everything happens at module level, as in MoXing scripts: no app.run. The
script's flags are parsed by the module-level read (as the port writes it),
before slim_ext.mox defines --num_gpus and the cluster flags, so mox.run must
read those from the command line itself. --run_mode=EVAL evaluates
--train_url's latest checkpoint on the test split.
"""
import sys

from absl import flags as absl_flags
import tensorflow.compat.v1 as tf

from slim_ext import mnist_input_data as input_data

absl_flags.DEFINE_string("data_url", None, "Directory with the MNIST .gz files.")
absl_flags.DEFINE_string("train_url", None, "Checkpoints and summaries.")
absl_flags.DEFINE_string("run_mode", "TRAIN", "TRAIN or EVAL.")
absl_flags.DEFINE_integer("num_epochs", 3, "Passes over the training split.")
flags = absl_flags.FLAGS

if not flags.is_parsed():
  flags(sys.argv, known_only=True)
mnist = input_data.read_data_sets(flags.data_url, one_hot=True)

import slim_ext.mox as mox  # noqa: E402  (after the read, as MoXing scripts have it)

BATCH_SIZE = 100


def input_fn(run_mode, **kwargs):
  if run_mode == mox.ModeKeys.TRAIN:
    def batches():
      while mnist.train.epochs_completed < flags.num_epochs:
        yield mnist.train.next_batch(BATCH_SIZE)
  else:
    def batches():
      for _ in range(mnist.test.num_examples // BATCH_SIZE):
        yield mnist.test.next_batch(BATCH_SIZE, shuffle=False)
  dataset = tf.data.Dataset.from_generator(
      batches, output_types=(tf.float32, tf.float32),
      output_shapes=(tf.TensorShape([None, 784]), tf.TensorShape([None, 10])))
  return tf.data.make_one_shot_iterator(dataset).get_next()


def model_fn(inputs, run_mode, **kwargs):
  x, y_ = inputs
  weights = tf.get_variable("W", initializer=tf.zeros([784, 10]))
  biases = tf.get_variable("b", initializer=tf.zeros([10]))
  y = tf.matmul(x, weights) + biases
  loss = tf.reduce_mean(
      tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
  accuracy = tf.reduce_mean(tf.cast(
      tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1)), tf.float32))
  return mox.ModelSpec(loss=loss, log_info={"accuracy": accuracy})


training = flags.run_mode == mox.ModeKeys.TRAIN
mox.run(input_fn=input_fn,
        model_fn=model_fn,
        optimizer_fn=mox.get_optimizer_fn("sgd", learning_rate=0.5),
        run_mode=flags.run_mode,
        log_dir=flags.train_url if training else None,
        checkpoint_path=None if training else flags.train_url,
        max_number_of_steps=sys.maxsize,
        log_every_n_steps=25)
