"""Evaluates train_mnist.py's latest checkpoint on the MNIST test split.

  python eval_mnist.py --data_url=/cache/mnist --train_url=/cache/mnist_train
"""
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

import mnist_softmax

tf.flags.DEFINE_string('data_url', '/cache/mnist', 'Directory with the four MNIST .gz files.')
tf.flags.DEFINE_string('train_url', '/cache/mnist_train', 'Training directory to evaluate.')
tf.flags.DEFINE_integer('batch_size', 100, 'Examples per evaluation step.')
flags = tf.flags.FLAGS

mnist = input_data.read_data_sets(flags.data_url, one_hot=True)

import moxing.tensorflow as mox


def input_fn(run_mode, **kwargs):
  def batches():
    for _ in range(mnist.test.num_examples // flags.batch_size):
      yield mnist.test.next_batch(flags.batch_size, shuffle=False)
  ds = tf.data.Dataset.from_generator(
      batches, output_types=(tf.float32, tf.float32),
      output_shapes=(tf.TensorShape([None, 784]), tf.TensorShape([None, 10])))
  return ds.make_one_shot_iterator().get_next()


def model_fn(inputs, run_mode, **kwargs):
  x, y_ = inputs
  y = mnist_softmax.logits(x)
  return mox.ModelSpec(log_info={'accuracy': mnist_softmax.accuracy(y, y_)})


mox.run(input_fn=input_fn,
        model_fn=model_fn,
        run_mode=mox.ModeKeys.EVAL,
        checkpoint_path=flags.train_url)
