"""Writes train.tfrecords and eval.tfrecords for cifar10_main.py.

slimport's own example, standing in for tensorflow/models'
generate_cifar10_tfrecords.py without a download: each of the 10 classes is a
fixed random left-right symmetric 8x8 RGB pattern, and each example that
pattern plus noise, written as tf.Example records ('image': raw uint8 bytes,
'label': int64) with tf.python_io.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import numpy as np
import tensorflow as tf

import cifar10

tf.app.flags.DEFINE_string('data_dir', '', 'Where the records are written.')
tf.app.flags.DEFINE_integer('seed', 7, 'Seed of the patterns and the noise.')
FLAGS = tf.app.flags.FLAGS


def _int64_feature(value):
  return tf.train.Feature(int64_list=tf.train.Int64List(value=[value]))


def _bytes_feature(value):
  return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))


def make_patterns(rng):
  """One symmetric pattern per class (flipping an image keeps its class)."""
  half = rng.uniform(0.0, 1.0, size=(cifar10.NUM_CLASSES, cifar10.HEIGHT,
                                     cifar10.WIDTH // 2, cifar10.DEPTH))
  return np.concatenate([half, half[:, :, ::-1]], axis=2)


def write_subset(path, patterns, count, rng):
  labels = rng.randint(0, cifar10.NUM_CLASSES, size=count)
  noise = rng.normal(0.0, 0.15, size=(count,) + patterns.shape[1:])
  images = np.clip(patterns[labels] + noise, 0.0, 1.0)
  with tf.python_io.TFRecordWriter(path) as writer:
    for image, label in zip(images, labels):
      example = tf.train.Example(features=tf.train.Features(feature={
          'image': _bytes_feature((image * 255).astype(np.uint8).tobytes()),
          'label': _int64_feature(int(label)),
      }))
      writer.write(example.SerializeToString())


def main(unused_argv):
  if not FLAGS.data_dir:
    raise ValueError('--data_dir is required')
  rng = np.random.RandomState(FLAGS.seed)
  patterns = make_patterns(rng)
  if not tf.gfile.Exists(FLAGS.data_dir):
    tf.gfile.MakeDirs(FLAGS.data_dir)
  for subset in ('train', 'eval'):
    count = cifar10.Cifar10DataSet.num_examples_per_epoch(subset)
    path = os.path.join(FLAGS.data_dir, subset + '.tfrecords')
    write_subset(path, patterns, count, rng)
    print('wrote %d %s examples to %s' % (count, subset, path))


if __name__ == '__main__':
  tf.app.run()
