# Copyright 2026 The slimport Authors. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# ==============================================================================
"""Reads the image TFRecords a platform job finds in its --data_dir.

The platform downloads a job's data into one directory: TFRecord files named
`<anything>_<split>.tfrecord` (PNG or JPEG images under `image/encoded`, the
class under `image/class/label`) and a `labels.txt` of `<label>:<name>` lines.
Sizes are not known in advance: the split is counted when it is opened, the
classes are the lines of labels.txt, and images keep their own size.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import tensorflow as tf

from datasets import dataset_utils

slim = tf.contrib.slim

_FILE_PATTERN = '*_%s.tfrecord'

_ITEMS_TO_DESCRIPTIONS = {
    'image': 'A colour image of any size.',
    'label': 'A single integer, the line of labels.txt naming the class.',
}


def _count_records(file_names):
  return sum(sum(1 for _ in tf.python_io.tf_record_iterator(name))
             for name in file_names)


def get_split(split_name, dataset_dir, file_pattern=None, reader=None):
  """A slim Dataset reading one split of the job's data.

  Args:
    split_name: the split, e.g. 'train' or 'validation'.
    dataset_dir: the job's data directory.
    file_pattern: file name pattern with one %s for the split name.
    reader: TF reader class; tf.TFRecordReader by default.

  Returns:
    A slim.dataset.Dataset.

  Raises:
    ValueError: if no file holds the split, or labels.txt is missing.
  """
  file_pattern = os.path.join(dataset_dir,
                              (file_pattern or _FILE_PATTERN) % split_name)
  file_names = tf.gfile.Glob(file_pattern)
  if not file_names:
    raise ValueError('no %s files in %s (looked for %s)'
                     % (split_name, dataset_dir, file_pattern))
  if not dataset_utils.has_labels(dataset_dir):
    raise ValueError('%s has no %s' % (dataset_dir,
                                       dataset_utils.LABELS_FILENAME))
  labels_to_names = dataset_utils.read_label_file(dataset_dir)

  keys_to_features = {
      'image/encoded': tf.FixedLenFeature((), tf.string, default_value=''),
      'image/format': tf.FixedLenFeature((), tf.string, default_value='png'),
      'image/class/label': tf.FixedLenFeature(
          [], tf.int64, default_value=tf.zeros([], dtype=tf.int64)),
  }
  items_to_handlers = {
      'image': slim.tfexample_decoder.Image(channels=3),
      'label': slim.tfexample_decoder.Tensor('image/class/label'),
  }
  decoder = slim.tfexample_decoder.TFExampleDecoder(
      keys_to_features, items_to_handlers)

  return slim.dataset.Dataset(
      data_sources=file_names,
      reader=reader or tf.TFRecordReader,
      decoder=decoder,
      num_samples=_count_records(file_names),
      items_to_descriptions=_ITEMS_TO_DESCRIPTIONS,
      num_classes=len(labels_to_names),
      labels_to_names=labels_to_names)
