"""The tower network of cifar10_main.py: two conv layers and a classifier.

slimport's own example, in the shape of the model modules TF 1.4-era
Estimator trainers kept beside their main script (tensorflow/models'
tutorials/image/cifar10_estimator/cifar10_model.py).
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import tensorflow as tf


def inference(images, is_training, num_classes):
  """Builds one tower's logits for a batch of NHWC images."""
  net = tf.layers.conv2d(images, 16, 3, padding='same',
                         activation=tf.nn.relu, name='conv1')
  # The moving statistics evaluation uses follow the batches at 0.9 per step: at
  # the default 0.99 they still held most of their initial 0 / 1 after the 80
  # steps a short run takes, and the accuracy evaluated ranged 0.16 to 0.98.
  net = tf.layers.batch_normalization(net, training=is_training, momentum=0.9,
                                      name='bn1')
  net = tf.layers.conv2d(net, 32, 3, strides=2, padding='same',
                         activation=tf.nn.relu, name='conv2')
  net = tf.reduce_mean(net, [1, 2], name='global_pool')
  return tf.layers.dense(net, num_classes, name='logits')
