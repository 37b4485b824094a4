"""The CIFAR-10-like data set of cifar10_main.py, read from TFRecords with tf.data.

slimport's own example, in the shape of tensorflow/models'
tutorials/image/cifar10_estimator/cifar10.py: a Cifar10DataSet whose
make_batch parses tf.Example records, distorts training images and batches
them. The records (generate_data.py writes them) hold small RGB images of 10
classes, so a training run takes seconds.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import tensorflow as tf

HEIGHT = 8
WIDTH = 8
DEPTH = 3
NUM_CLASSES = 10
EXAMPLES_PER_EPOCH = {'train': 1280, 'eval': 256}


class Cifar10DataSet(object):
  """Images and labels of one subset ('train' or 'eval') of the records."""

  def __init__(self, data_dir, subset='train', use_distortion=True):
    self.data_dir = data_dir
    self.subset = subset
    self.use_distortion = use_distortion

  def get_filenames(self):
    if self.subset not in EXAMPLES_PER_EPOCH:
      raise ValueError('Invalid data subset "%s"' % self.subset)
    return [os.path.join(self.data_dir, self.subset + '.tfrecords')]

  def parser(self, serialized_example):
    """One record -> (image float32 HWC in [0, 1], label int32)."""
    features = tf.parse_single_example(
        serialized_example,
        features={
            'image': tf.FixedLenFeature([], tf.string),
            'label': tf.FixedLenFeature([], tf.int64),
        })
    image = tf.decode_raw(features['image'], tf.uint8)
    image.set_shape([DEPTH * HEIGHT * WIDTH])
    image = tf.cast(tf.reshape(image, [HEIGHT, WIDTH, DEPTH]), tf.float32)
    image = self.preprocess(image / 255.0)
    label = tf.cast(features['label'], tf.int32)
    return image, label

  def preprocess(self, image):
    """Random left-right flips of training images (the class patterns are symmetric)."""
    if self.subset == 'train' and self.use_distortion:
      image = tf.image.random_flip_left_right(image)
    return image

  def make_batch(self, batch_size):
    """A batch of images and labels; the training set repeats forever."""
    dataset = tf.data.TFRecordDataset(self.get_filenames())
    if self.subset == 'train':
      dataset = dataset.repeat()
    dataset = dataset.map(self.parser, num_parallel_calls=2)
    if self.subset == 'train':
      min_queue_examples = int(
          Cifar10DataSet.num_examples_per_epoch(self.subset) * 0.4)
      dataset = dataset.shuffle(buffer_size=min_queue_examples + 3 * batch_size)
    dataset = dataset.batch(batch_size)
    iterator = dataset.make_one_shot_iterator()
    image_batch, label_batch = iterator.get_next()
    return image_batch, label_batch

  @staticmethod
  def num_examples_per_epoch(subset='train'):
    if subset not in EXAMPLES_PER_EPOCH:
      raise ValueError('Invalid data subset "%s"' % subset)
    return EXAMPLES_PER_EPOCH[subset]
