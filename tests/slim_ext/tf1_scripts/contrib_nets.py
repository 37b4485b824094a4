"""Trains every network of tf.contrib.slim.nets one step on random images (TF1).

Written as TF1 scripts used these nets: `slim = tf.contrib.slim`, the nets
imported from `tensorflow.contrib.slim.nets`, `tf.app.flags`, `tf.app.run()`.
Prints one line per network: `<name> <loss before> <loss after> <first and
last layer changed> <moving means updated>/<moving means>`.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf
from tensorflow.contrib.slim.nets import alexnet
from tensorflow.contrib.slim.nets import inception
from tensorflow.contrib.slim.nets import overfeat
from tensorflow.contrib.slim.nets import resnet_utils
from tensorflow.contrib.slim.nets import resnet_v1
from tensorflow.contrib.slim.nets import resnet_v2
from tensorflow.contrib.slim.nets import vgg

slim = tf.contrib.slim

tf.app.flags.DEFINE_string('networks', '', 'Comma-separated names to train; all if empty.')
tf.app.flags.DEFINE_integer('num_classes', 3, 'Classes of the random labels.')
FLAGS = tf.app.flags.FLAGS

# name: (network, arg scope, image size, keyword arguments). alexnet, overfeat, vgg
# and inception_v1 end in fixed-size VALID heads that need their default input.
NETWORKS = {
    'alexnet_v2': (alexnet.alexnet_v2, alexnet.alexnet_v2_arg_scope, 224, {}),
    'overfeat': (overfeat.overfeat, overfeat.overfeat_arg_scope, 231, {}),
    'vgg_a': (vgg.vgg_a, vgg.vgg_arg_scope, 224, {}),
    'inception_v1': (inception.inception_v1, inception.inception_v1_arg_scope, 224, {}),
    'inception_v2': (inception.inception_v2, inception.inception_v2_arg_scope, 64,
                     {'depth_multiplier': 0.25}),
    'inception_v3': (inception.inception_v3, inception.inception_v3_arg_scope, 128,
                     {'depth_multiplier': 0.25}),
    'resnet_v1_50': (resnet_v1.resnet_v1_50, resnet_utils.resnet_arg_scope, 32, {}),
    'resnet_v2_50': (resnet_v2.resnet_v2_50, resnet_utils.resnet_arg_scope, 32, {}),
}


def train_one_step(name):
  network_fn, arg_scope, image_size, kwargs = NETWORKS[name]
  with tf.Graph().as_default():
    tf.set_random_seed(0)
    # Two images: with one, a batch norm over a 1x1 map outputs a constant.
    images = tf.random_uniform([2, image_size, image_size, 3])
    labels = tf.one_hot([0, 2], FLAGS.num_classes)
    with slim.arg_scope(arg_scope()):
      logits, _ = network_fn(images, num_classes=FLAGS.num_classes, is_training=True,
                             **kwargs)
    if logits.get_shape().ndims == 4:
      logits = tf.reduce_mean(logits, [1, 2])
    loss = tf.losses.softmax_cross_entropy(labels, logits)
    train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.01))
    weights = tf.trainable_variables()
    ends = [weights[0], weights[-1]]
    moving_means = [v for v in tf.global_variables() if v.op.name.endswith('moving_mean')]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      ends_before, means_before = sess.run([ends, moving_means])
      loss_before = sess.run(train_op)
      ends_after, means_after, loss_after = sess.run([ends, moving_means, loss])
  changed = all(not np.array_equal(a, b) for a, b in zip(ends_before, ends_after))
  updated = sum(not np.array_equal(a, b) for a, b in zip(means_before, means_after))
  print('%s %f %f %s %d/%d' % (name, loss_before, loss_after, changed, updated,
                               len(moving_means)))


def main(_):
  names = FLAGS.networks.split(',') if FLAGS.networks else sorted(NETWORKS)
  for name in names:
    train_one_step(name)


if __name__ == '__main__':
  tf.app.run()
