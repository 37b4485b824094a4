"""Trains softmax regression on MNIST with MoXing, then exports it for TF Serving.

  python train_mnist.py --data_url=/cache/mnist --train_url=/cache/mnist_train

After training, MoXing builds model_fn once more (run_mode EXPORT) and saves
its export_spec with the last checkpoint as a SavedModel in --train_url/1
(the next version number on each run).

MoXing reads --num_gpus and the cluster flags itself:

  python train_mnist.py ... --num_gpus=2
  python train_mnist.py ... --ps_hosts=h1:2222,h2:2222 \
      --worker_hosts=h3:2222,h4:2222 --job_name=worker --task_index=0
"""
import sys

import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

import mnist_softmax

tf.flags.DEFINE_string('data_url', '/cache/mnist', 'Directory with the four MNIST .gz files.')
tf.flags.DEFINE_string('train_url', '/cache/mnist_train', 'Directory for checkpoints and summaries.')
tf.flags.DEFINE_integer('batch_size', 100, 'Examples per step, shared by the GPUs.')
tf.flags.DEFINE_integer('num_epochs', 5, 'Passes over the training data; then training stops.')
tf.flags.DEFINE_float('learning_rate', 0.5, 'Learning rate of gradient descent.')
flags = tf.flags.FLAGS

mnist = input_data.read_data_sets(flags.data_url, one_hot=True)

import moxing.tensorflow as mox


def input_fn(run_mode, **kwargs):
  def batches():
    while mnist.train.epochs_completed < flags.num_epochs:
      yield mnist.train.next_batch(flags.batch_size)
  ds = tf.data.Dataset.from_generator(
      batches, output_types=(tf.float32, tf.float32),
      output_shapes=(tf.TensorShape([None, 784]), tf.TensorShape([None, 10])))
  return ds.make_one_shot_iterator().get_next()


def model_fn(inputs, run_mode, **kwargs):
  x, y_ = inputs
  y = mnist_softmax.logits(x)
  cross_entropy = tf.reduce_mean(
      tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
  accuracy = mnist_softmax.accuracy(y, y_)
  export_spec = mox.ExportSpec(inputs_dict={'images': x}, outputs_dict={'logits': y})
  return mox.ModelSpec(loss=cross_entropy,
                       log_info={'loss': cross_entropy, 'accuracy': accuracy},
                       export_spec=export_spec)


def optimizer_fn():
  return tf.train.GradientDescentOptimizer(flags.learning_rate)


mox.run(input_fn=input_fn,
        model_fn=model_fn,
        optimizer_fn=optimizer_fn,
        run_mode=mox.ModeKeys.TRAIN,
        log_dir=flags.train_url,
        max_number_of_steps=sys.maxint,
        log_every_n_steps=50,
        export_model=mox.ExportKeys.TF_SERVING)
