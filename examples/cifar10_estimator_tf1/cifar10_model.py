"""The tower network of cifar10_main.py: conv, batch norm, conv, classifier.

slimport's own example, in the shape of tensorflow/models'
tutorials/image/cifar10_estimator/cifar10_model.py (a model class whose
forward_pass builds one tower), small enough to train in seconds.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import tensorflow as tf


class Cifar10Model(object):
  """Two convolutions with batch norm, global pooling and a dense classifier."""

  def __init__(self, num_classes, is_training, batch_norm_decay,
               batch_norm_epsilon, data_format='channels_last'):
    self._num_classes = num_classes
    self._is_training = is_training
    self._batch_norm_decay = batch_norm_decay
    self._batch_norm_epsilon = batch_norm_epsilon
    self._data_format = data_format

  def _batch_norm(self, x, name):
    axis = 1 if self._data_format == 'channels_first' else 3
    return tf.layers.batch_normalization(
        x, axis=axis, momentum=self._batch_norm_decay,
        epsilon=self._batch_norm_epsilon, training=self._is_training,
        name=name)

  def forward_pass(self, x, input_data_format='channels_last'):
    """Logits of a batch of images."""
    if self._data_format != input_data_format:
      x = tf.transpose(x, [0, 3, 1, 2])
    x = tf.layers.conv2d(x, 16, 3, padding='same', use_bias=False,
                         data_format=self._data_format, name='conv1')
    x = tf.nn.relu(self._batch_norm(x, 'bn1'))
    x = tf.layers.conv2d(x, 32, 3, strides=2, padding='same',
                         activation=tf.nn.relu, data_format=self._data_format,
                         name='conv2')
    spatial = [2, 3] if self._data_format == 'channels_first' else [1, 2]
    x = tf.reduce_mean(x, spatial, name='global_pool')
    return tf.layers.dense(x, self._num_classes, name='logits')
