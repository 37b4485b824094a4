"""A deterministic TF1 TF-Slim source tree to benchmark the rewrite on.

One *package* is ``examples/slim_tf1`` (17 files) plus 73 generated modules: nets
with nested ``arg_scope``s and inception-style blocks, slim dataset readers and
TFRecord converters, image preprocessing, training / evaluation entry scripts with
``tf.app.flags``, and helper modules (some with no TensorFlow at all, as in real
trees). The generated code uses the TF1 idioms the codemods handle, spelled the
several ways real code spells them: ``slim = tf.contrib.slim``, ``import
tensorflow.contrib.slim as slim``, ``from tensorflow.contrib import slim``,
``tf.contrib.framework.arg_scope``, ``tf.contrib.layers`` initializers,
``tf.app.flags`` / ``tf.flags``, ``tf.logging``, ``tf.gfile``, ``tf.app.run``.

A 90-file package is about 22k lines, the size of the real tree the reference
figures in the issue were taken on. ``build(dest, n_files, seed)`` writes the first
``n_files`` of a stream of packages, so 10 / 90 / 900 files have the same mix of
module kinds and the cost per line can be compared across sizes.

Usage: python benchmarks/synthetic_tree.py DEST [--files N] [--seed S]
"""
from __future__ import annotations

import argparse
import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_TREE = REPO / "examples" / "slim_tf1"
PACKAGE_FILES = 90

HEADER = '''# Copyright 2018 The Benchmark Corpus Authors. All Rights Reserved.
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
'''
FUTURE = ("from __future__ import absolute_import\n"
          "from __future__ import division\n"
          "from __future__ import print_function\n")

# The ways real slim code binds the slim module; each module picks one.
SLIM_BINDINGS = [
    "import tensorflow as tf\n\nslim = tf.contrib.slim\n",
    "import tensorflow as tf\nimport tensorflow.contrib.slim as slim\n",
    "import tensorflow as tf\nfrom tensorflow.contrib import slim\n",
    "import tensorflow as tf\nfrom tensorflow.contrib import slim as contrib_slim\n\n"
    "slim = contrib_slim\n",
]
INITIALIZERS = [
    "tf.contrib.layers.xavier_initializer()",
    "tf.contrib.layers.variance_scaling_initializer()",
    "tf.truncated_normal_initializer(stddev=0.09)",
    "slim.variance_scaling_initializer()",
]
WORDS = ["alpha", "bravo", "delta", "ember", "fjord", "gale", "harbor", "iris", "jade",
         "koala", "lumen", "meadow", "nimbus", "onyx", "prism", "quartz", "raven", "sable",
         "tundra", "umber", "vortex", "willow", "xenon", "yarrow", "zephyr"]


@dataclass(frozen=True)
class SourceFile:
    """One file of the corpus: its path inside a package and its text."""

    path: str
    text: str


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _net_block(rng: random.Random, index: int) -> str:
    depth = rng.choice([32, 48, 64, 96, 128])
    kernel = rng.choice([3, 5])
    return f'''

def block_{index}(net, depth_multiplier=1.0, scope=None, reuse=None):
  """Inception-style block {index}: three branches concatenated on channels.

  Args:
    net: a 4-D tensor [batch, height, width, channels].
    depth_multiplier: scales the number of filters of every branch.
    scope: optional variable scope.
    reuse: whether to reuse the variables of the scope.

  Returns:
    The concatenated branches.
  """
  depth = lambda d: max(int(d * depth_multiplier), 8)
  with tf.variable_scope(scope, 'Block{index}', [net], reuse=reuse):
    with tf.variable_scope('Branch_0'):
      branch_0 = slim.conv2d(net, depth({depth}), [1, 1], scope='Conv2d_0a_1x1')
    with tf.variable_scope('Branch_1'):
      branch_1 = slim.conv2d(net, depth({depth // 2}), [1, 1], scope='Conv2d_0a_1x1')
      branch_1 = slim.conv2d(branch_1, depth({depth}), [{kernel}, {kernel}],
                             scope='Conv2d_0b_{kernel}x{kernel}')
    with tf.variable_scope('Branch_2'):
      branch_2 = slim.max_pool2d(net, [3, 3], stride=1, padding='SAME',
                                 scope='MaxPool_0a_3x3')
      branch_2 = slim.conv2d(branch_2, depth({depth // 2}), [1, 1],
                             scope='Conv2d_0b_1x1')
    net = tf.concat(axis=3, values=[branch_0, branch_1, branch_2])
    tf.logging.debug('block_{index} output %s', net.get_shape())
  return net
'''


def net_module(rng: random.Random, name: str) -> str:
    binding = rng.choice(SLIM_BINDINGS)
    initializer = rng.choice(INITIALIZERS)
    blocks = rng.randint(4, 8)
    uses_framework = rng.random() < 0.5
    arg_scope = "arg_scope" if uses_framework else "slim.arg_scope"
    framework_import = ("arg_scope = tf.contrib.framework.arg_scope\n"
                        "add_arg_scope = tf.contrib.framework.add_arg_scope\n"
                        if uses_framework else "")
    class_name = _camel(name)
    text = [HEADER, f'"""Contains the definition of {class_name}, a slim network.\n\n'
            f'{class_name} stacks {blocks} inception-style blocks over a convolutional stem.\n"""\n',
            FUTURE, "\n", binding, framework_import, "\n",
            "trunc_normal = lambda stddev: tf.truncated_normal_initializer(0.0, stddev)\n"]
    text.append(f'''

def {name}_arg_scope(weight_decay=0.00004,
{' ' * (len(name) + 15)}use_batch_norm=True,
{' ' * (len(name) + 15)}batch_norm_decay=0.9997,
{' ' * (len(name) + 15)}batch_norm_epsilon=0.001):
  """Defines the default arg scope for {class_name}.

  Args:
    weight_decay: the weight decay to use for regularizing the model.
    use_batch_norm: if True, batch_norm is applied after each convolution.
    batch_norm_decay: decay for the batch norm moving averages.
    batch_norm_epsilon: small float added to variance to avoid dividing by zero.

  Returns:
    An `arg_scope` to use for the {name} model.
  """
  batch_norm_params = {{
      'decay': batch_norm_decay,
      'epsilon': batch_norm_epsilon,
      'updates_collections': tf.GraphKeys.UPDATE_OPS,
      'fused': None,
  }}
  if use_batch_norm:
    normalizer_fn = slim.batch_norm
    normalizer_params = batch_norm_params
  else:
    normalizer_fn = None
    normalizer_params = {{}}
  with {arg_scope}([slim.conv2d, slim.fully_connected],
                   weights_initializer={initializer},
                   weights_regularizer=slim.l2_regularizer(weight_decay)):
    with {arg_scope}(
        [slim.conv2d],
        activation_fn=tf.nn.relu,
        normalizer_fn=normalizer_fn,
        normalizer_params=normalizer_params) as sc:
      return sc
''')
    for index in range(blocks):
        text.append(_net_block(rng, index))
    stem_layers = []
    depth = 32
    for layer in range(rng.randint(4, 8)):
        depth = min(depth * rng.choice([1, 2]), 256)
        stride = rng.choice([1, 2])
        stem_layers.append(
            f"      end_point = 'Conv2d_{layer}a_3x3'\n"
            f"      net = slim.conv2d(net, depth({depth}), [3, 3], stride={stride},\n"
            f"                        scope=end_point)\n"
            f"      end_points[end_point] = net\n"
            f"      if end_point == final_endpoint:\n"
            f"        return net, end_points\n")
    block_calls = "".join(
        f"      end_point = 'Block_{index}'\n"
        f"      net = block_{index}(net, depth_multiplier, scope=end_point)\n"
        f"      end_points[end_point] = net\n"
        f"      if end_point == final_endpoint:\n"
        f"        return net, end_points\n"
        for index in range(blocks))
    text.append(f'''

def {name}_base(inputs,
{' ' * (len(name) + 9)}final_endpoint='Block_{blocks - 1}',
{' ' * (len(name) + 9)}depth_multiplier=1.0,
{' ' * (len(name) + 9)}scope=None):
  """The {class_name} trunk, from the inputs to `final_endpoint`.

  Args:
    inputs: a tensor of size [batch_size, height, width, channels].
    final_endpoint: the end point to build the network up to.
    depth_multiplier: float multiplier for the depth of every convolution.
    scope: optional variable scope.

  Returns:
    tensor_out: the output tensor of `final_endpoint`.
    end_points: a dict from end point names to their tensors.

  Raises:
    ValueError: if final_endpoint is unknown or depth_multiplier <= 0.
  """
  if depth_multiplier <= 0:
    raise ValueError('depth_multiplier is not greater than zero.')
  depth = lambda d: max(int(d * depth_multiplier), 16)
  end_points = {{}}
  with tf.variable_scope(scope, '{class_name}', [inputs]):
    with {arg_scope}([slim.conv2d, slim.max_pool2d, slim.avg_pool2d],
                     stride=1, padding='SAME'):
      net = inputs
{''.join(stem_layers)}{block_calls}  raise ValueError('Unknown final endpoint %s' % final_endpoint)


def {name}(inputs,
{' ' * (len(name) + 4)}num_classes=1000,
{' ' * (len(name) + 4)}is_training=True,
{' ' * (len(name) + 4)}dropout_keep_prob=0.8,
{' ' * (len(name) + 4)}prediction_fn=slim.softmax,
{' ' * (len(name) + 4)}spatial_squeeze=True,
{' ' * (len(name) + 4)}reuse=None,
{' ' * (len(name) + 4)}scope='{class_name}'):
  """{class_name} for classification.

  Args:
    inputs: a tensor of size [batch_size, height, width, channels].
    num_classes: number of predicted classes; 0 or None returns the pooled
      features instead of logits.
    is_training: whether batch norm and dropout are in training mode.
    dropout_keep_prob: the fraction of activations dropout keeps.
    prediction_fn: a function turning logits into predictions.
    spatial_squeeze: if True, logits have shape [B, C], else [B, 1, 1, C].
    reuse: whether to reuse the network and its variables.
    scope: optional variable scope.

  Returns:
    net: the logits, or the pooled features when num_classes is 0 or None.
    end_points: a dict from components of the network to their activations.
  """
  with tf.variable_scope(scope, '{class_name}', [inputs], reuse=reuse) as scope:
    with {arg_scope}([slim.batch_norm, slim.dropout], is_training=is_training):
      net, end_points = {name}_base(inputs, scope=scope)
      with tf.variable_scope('Logits'):
        net = tf.reduce_mean(net, [1, 2], keep_dims=True, name='global_pool')
        end_points['global_pool'] = net
        if not num_classes:
          return net, end_points
        net = slim.dropout(net, keep_prob=dropout_keep_prob, scope='Dropout_1b')
        logits = slim.conv2d(net, num_classes, [1, 1], activation_fn=None,
                             normalizer_fn=None, scope='Conv2d_1c_1x1')
        if spatial_squeeze:
          logits = tf.squeeze(logits, [1, 2], name='SpatialSqueeze')
      end_points['Logits'] = logits
      end_points['Predictions'] = prediction_fn(logits, scope='Predictions')
  return logits, end_points
{name}.default_image_size = {rng.choice([224, 299, 128, 96])}
''')
    return "".join(text)


def dataset_module(rng: random.Random, name: str) -> str:
    binding = rng.choice(SLIM_BINDINGS)
    classes = rng.choice([5, 10, 37, 102, 200, 1001])
    train, val = rng.randint(1000, 90000), rng.randint(200, 10000)
    extra_keys = rng.sample(["height", "width", "object/bbox/xmin", "object/bbox/ymin",
                             "object/bbox/xmax", "object/bbox/ymax", "text", "filename"],
                            rng.randint(2, 6))
    key_lines = "".join(
        f"      'image/{key}': tf.VarLenFeature(dtype=tf.float32),\n"
        if "bbox" in key else
        f"      'image/{key}': tf.FixedLenFeature((), tf.string, default_value=''),\n"
        for key in extra_keys)
    return f'''{HEADER}"""Provides data for the {name} dataset, and converts its raw files.

The dataset scripts used to create the dataset can be found at:
  datasets/download_and_convert_{name}.py
"""

{FUTURE}
import math
import os
import random
import sys

{binding}
_FILE_PATTERN = '{name}_%s_*.tfrecord'

SPLITS_TO_SIZES = {{'train': {train}, 'validation': {val}}}

_NUM_CLASSES = {classes}

_NUM_SHARDS = {rng.choice([4, 5, 8, 10])}

_RANDOM_SEED = {rng.randint(0, 1000)}

_ITEMS_TO_DESCRIPTIONS = {{
    'image': 'A color image of varying size.',
    'label': 'A single integer between 0 and {classes - 1}',
}}


class ImageReader(object):
  """Helper class that provides TensorFlow image coding utilities."""

  def __init__(self):
    self._decode_jpeg_data = tf.placeholder(dtype=tf.string)
    self._decode_jpeg = tf.image.decode_jpeg(self._decode_jpeg_data, channels=3)

  def read_image_dims(self, sess, image_data):
    image = self.decode_jpeg(sess, image_data)
    return image.shape[0], image.shape[1]

  def decode_jpeg(self, sess, image_data):
    image = sess.run(self._decode_jpeg,
                     feed_dict={{self._decode_jpeg_data: image_data}})
    assert len(image.shape) == 3
    assert image.shape[2] == 3
    return image


def _get_filenames_and_classes(dataset_dir):
  """Returns a list of filenames and inferred class names.

  Args:
    dataset_dir: a directory with one subdirectory of images per class.

  Returns:
    A list of image file paths and the list of class names.
  """
  root = os.path.join(dataset_dir, '{name}_photos')
  directories = []
  class_names = []
  for filename in tf.gfile.ListDirectory(root):
    path = os.path.join(root, filename)
    if tf.gfile.IsDirectory(path):
      directories.append(path)
      class_names.append(filename)

  photo_filenames = []
  for directory in directories:
    for filename in tf.gfile.ListDirectory(directory):
      photo_filenames.append(os.path.join(directory, filename))
  return photo_filenames, sorted(class_names)


def _get_dataset_filename(dataset_dir, split_name, shard_id):
  output_filename = '{name}_%s_%05d-of-%05d.tfrecord' % (
      split_name, shard_id, _NUM_SHARDS)
  return os.path.join(dataset_dir, output_filename)


def _int64_feature(values):
  if not isinstance(values, (tuple, list)):
    values = [values]
  return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def _bytes_feature(values):
  return tf.train.Feature(bytes_list=tf.train.BytesList(value=[values]))


def _image_to_tfexample(image_data, image_format, height, width, class_id):
  return tf.train.Example(features=tf.train.Features(feature={{
      'image/encoded': _bytes_feature(image_data),
      'image/format': _bytes_feature(image_format),
      'image/class/label': _int64_feature(class_id),
      'image/height': _int64_feature(height),
      'image/width': _int64_feature(width),
  }}))


def _convert_dataset(split_name, filenames, class_names_to_ids, dataset_dir):
  """Converts the given filenames to a TFRecord dataset.

  Args:
    split_name: the name of the dataset, either 'train' or 'validation'.
    filenames: a list of absolute paths to png or jpg images.
    class_names_to_ids: a dictionary from class names (strings) to ids.
    dataset_dir: the directory where the converted datasets are stored.
  """
  assert split_name in ['train', 'validation']
  num_per_shard = int(math.ceil(len(filenames) / float(_NUM_SHARDS)))

  with tf.Graph().as_default():
    image_reader = ImageReader()
    with tf.Session('') as sess:
      for shard_id in range(_NUM_SHARDS):
        output_filename = _get_dataset_filename(dataset_dir, split_name, shard_id)
        with tf.python_io.TFRecordWriter(output_filename) as tfrecord_writer:
          start_ndx = shard_id * num_per_shard
          end_ndx = min((shard_id+1) * num_per_shard, len(filenames))
          for i in range(start_ndx, end_ndx):
            sys.stdout.write('\\r>> Converting image %d/%d shard %d' % (
                i+1, len(filenames), shard_id))
            sys.stdout.flush()
            image_data = tf.gfile.FastGFile(filenames[i], 'rb').read()
            height, width = image_reader.read_image_dims(sess, image_data)
            class_name = os.path.basename(os.path.dirname(filenames[i]))
            class_id = class_names_to_ids[class_name]
            example = _image_to_tfexample(
                image_data, b'jpg', height, width, class_id)
            tfrecord_writer.write(example.SerializeToString())
  sys.stdout.write('\\n')
  sys.stdout.flush()


def convert(dataset_dir):
  """Runs the conversion: shards every split into TFRecord files.

  Args:
    dataset_dir: the directory holding the raw images; the output goes there.
  """
  if not tf.gfile.Exists(dataset_dir):
    tf.gfile.MakeDirs(dataset_dir)
  photo_filenames, class_names = _get_filenames_and_classes(dataset_dir)
  class_names_to_ids = dict(zip(class_names, range(len(class_names))))
  random.seed(_RANDOM_SEED)
  random.shuffle(photo_filenames)
  validation = photo_filenames[:SPLITS_TO_SIZES['validation']]
  training = photo_filenames[SPLITS_TO_SIZES['validation']:]
  _convert_dataset('train', training, class_names_to_ids, dataset_dir)
  _convert_dataset('validation', validation, class_names_to_ids, dataset_dir)
  tf.logging.info('Finished converting the {name} dataset!')


def get_split(split_name, dataset_dir, file_pattern=None, reader=None):
  """Gets a dataset tuple with instructions for reading {name}.

  Args:
    split_name: a train/validation split name.
    dataset_dir: the base directory of the dataset sources.
    file_pattern: the file pattern to use when matching the dataset sources.
    reader: the TensorFlow reader type.

  Returns:
    A `Dataset` namedtuple.

  Raises:
    ValueError: if `split_name` is not a valid train/validation split.
  """
  if split_name not in SPLITS_TO_SIZES:
    raise ValueError('split name %s was not recognized.' % split_name)

  if not file_pattern:
    file_pattern = _FILE_PATTERN
  file_pattern = os.path.join(dataset_dir, file_pattern % split_name)

  if reader is None:
    reader = tf.TFRecordReader

  keys_to_features = {{
      'image/encoded': tf.FixedLenFeature((), tf.string, default_value=''),
      'image/format': tf.FixedLenFeature((), tf.string, default_value='png'),
      'image/class/label': tf.FixedLenFeature(
          [], tf.int64, default_value=tf.zeros([], dtype=tf.int64)),
{key_lines}  }}

  items_to_handlers = {{
      'image': slim.tfexample_decoder.Image(),
      'label': slim.tfexample_decoder.Tensor('image/class/label'),
  }}

  decoder = slim.tfexample_decoder.TFExampleDecoder(
      keys_to_features, items_to_handlers)

  labels_to_names = None
  labels_file = os.path.join(dataset_dir, 'labels.txt')
  if tf.gfile.Exists(labels_file):
    with tf.gfile.Open(labels_file, 'r') as f:
      lines = f.read().split('\\n')
    lines = filter(None, lines)
    labels_to_names = {{}}
    for line in lines:
      index = line.index(':')
      labels_to_names[int(line[:index])] = line[index+1:]

  return slim.dataset.Dataset(
      data_sources=file_pattern,
      reader=reader,
      decoder=decoder,
      num_samples=SPLITS_TO_SIZES[split_name],
      items_to_descriptions=_ITEMS_TO_DESCRIPTIONS,
      num_classes=_NUM_CLASSES,
      labels_to_names=labels_to_names)
'''


def preprocessing_module(rng: random.Random, name: str) -> str:
    size = rng.choice([224, 299, 128])
    uses_contrib_image = rng.random() < 0.3
    rotate = ("    image = tf.contrib.image.rotate(image, tf.random_uniform([], -0.2, 0.2))\n"
              if uses_contrib_image else "")
    return f'''{HEADER}"""Provides utilities to preprocess images for the {name} networks."""

{FUTURE}
import tensorflow as tf

from tensorflow.python.ops import control_flow_ops

_DEFAULT_SIZE = {size}
_R_MEAN = 123.68
_G_MEAN = 116.78
_B_MEAN = 103.94


def apply_with_random_selector(x, func, num_cases):
  """Computes func(x, sel), with sel sampled from [0...num_cases-1].

  Args:
    x: input Tensor.
    func: Python function to apply.
    num_cases: Python int32, number of cases to sample sel from.

  Returns:
    The result of func(x, sel), where func receives the value of the
    selector as a python integer, but sel is sampled dynamically.
  """
  sel = tf.random_uniform([], maxval=num_cases, dtype=tf.int32)
  return control_flow_ops.merge([
      func(control_flow_ops.switch(x, tf.equal(sel, case))[1], case)
      for case in range(num_cases)])[0]


def distort_color(image, color_ordering=0, fast_mode=True, scope=None):
  """Distort the color of a Tensor image.

  Args:
    image: 3-D Tensor containing single image in [0, 1].
    color_ordering: Python int, a type of distortion (valid values: 0-3).
    fast_mode: avoids slower ops (random_hue and random_contrast).
    scope: optional scope for name_scope.

  Returns:
    3-D Tensor color-distorted image on range [0, 1].

  Raises:
    ValueError: if color_ordering not in [0, 3].
  """
  with tf.name_scope(scope, 'distort_color', [image]):
    if fast_mode:
      if color_ordering == 0:
        image = tf.image.random_brightness(image, max_delta=32. / 255.)
        image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
      else:
        image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
        image = tf.image.random_brightness(image, max_delta=32. / 255.)
    else:
      if color_ordering == 0:
        image = tf.image.random_brightness(image, max_delta=32. / 255.)
        image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
        image = tf.image.random_hue(image, max_delta=0.2)
        image = tf.image.random_contrast(image, lower=0.5, upper=1.5)
      elif color_ordering == 1:
        image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
        image = tf.image.random_brightness(image, max_delta=32. / 255.)
        image = tf.image.random_contrast(image, lower=0.5, upper=1.5)
        image = tf.image.random_hue(image, max_delta=0.2)
      elif color_ordering == 2:
        image = tf.image.random_contrast(image, lower=0.5, upper=1.5)
        image = tf.image.random_hue(image, max_delta=0.2)
        image = tf.image.random_brightness(image, max_delta=32. / 255.)
        image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
      elif color_ordering == 3:
        image = tf.image.random_hue(image, max_delta=0.2)
        image = tf.image.random_saturation(image, lower=0.5, upper=1.5)
        image = tf.image.random_contrast(image, lower=0.5, upper=1.5)
        image = tf.image.random_brightness(image, max_delta=32. / 255.)
      else:
        raise ValueError('color_ordering must be in [0, 3]')
    return tf.clip_by_value(image, 0.0, 1.0)


def distorted_bounding_box_crop(image, bbox, min_object_covered=0.1,
                                aspect_ratio_range=(0.75, 1.33),
                                area_range=(0.05, 1.0), max_attempts=100,
                                scope=None):
  """Generates cropped_image using a one of the bboxes randomly distorted.

  Args:
    image: 3-D Tensor of image.
    bbox: 3-D float Tensor of bounding boxes arranged [1, num_boxes, coords].
    min_object_covered: the cropped area of the image must contain at least
      this fraction of any bounding box supplied.
    aspect_ratio_range: the cropped area must have an aspect ratio in range.
    area_range: the cropped area must contain a fraction of the image in range.
    max_attempts: number of attempts at generating a cropped region.
    scope: optional scope for name_scope.

  Returns:
    A tuple, a 3-D Tensor cropped_image and the distorted bbox.
  """
  with tf.name_scope(scope, 'distorted_bounding_box_crop', [image, bbox]):
    sample_distorted_bounding_box = tf.image.sample_distorted_bounding_box(
        tf.shape(image),
        bounding_boxes=bbox,
        min_object_covered=min_object_covered,
        aspect_ratio_range=aspect_ratio_range,
        area_range=area_range,
        max_attempts=max_attempts,
        use_image_if_no_bounding_boxes=True)
    bbox_begin, bbox_size, distort_bbox = sample_distorted_bounding_box
    cropped_image = tf.slice(image, bbox_begin, bbox_size)
    return cropped_image, distort_bbox


def preprocess_for_train(image, height, width, bbox, fast_mode=True,
                         scope=None, add_image_summaries=True):
  """Distort one image for training a network.

  Args:
    image: 3-D Tensor of image.
    height: integer, the output height.
    width: integer, the output width.
    bbox: 3-D float Tensor of bounding boxes, or None for the whole image.
    fast_mode: optional boolean, avoids slower transformations.
    scope: optional scope for name_scope.
    add_image_summaries: enable image summaries.

  Returns:
    3-D float Tensor of distorted image used for training with range [-1, 1].
  """
  with tf.name_scope(scope, 'distort_image', [image, height, width, bbox]):
    if bbox is None:
      bbox = tf.constant([0.0, 0.0, 1.0, 1.0], dtype=tf.float32, shape=[1, 1, 4])
    if image.dtype != tf.float32:
      image = tf.image.convert_image_dtype(image, dtype=tf.float32)
    image_with_box = tf.image.draw_bounding_boxes(tf.expand_dims(image, 0), bbox)
    if add_image_summaries:
      tf.summary.image('image_with_bounding_boxes', image_with_box)
    distorted_image, distorted_bbox = distorted_bounding_box_crop(image, bbox)
    distorted_image.set_shape([None, None, 3])
    num_resize_cases = 1 if fast_mode else 4
    distorted_image = apply_with_random_selector(
        distorted_image,
        lambda x, method: tf.image.resize_images(x, [height, width], method),
        num_cases=num_resize_cases)
    distorted_image = tf.image.random_flip_left_right(distorted_image)
    num_distort_cases = 1 if fast_mode else 4
    distorted_image = apply_with_random_selector(
        distorted_image,
        lambda x, ordering: distort_color(x, ordering, fast_mode),
        num_cases=num_distort_cases)
    if add_image_summaries:
      tf.summary.image('final_distorted_image', tf.expand_dims(distorted_image, 0))
    distorted_image = tf.subtract(distorted_image, 0.5)
    distorted_image = tf.multiply(distorted_image, 2.0)
    return distorted_image


def preprocess_for_eval(image, height, width, central_fraction=0.875, scope=None):
  """Prepare one image for evaluation.

  Args:
    image: 3-D Tensor of image.
    height: integer.
    width: integer.
    central_fraction: optional float, fraction of the image to crop.
    scope: optional scope for name_scope.

  Returns:
    3-D float Tensor of prepared image.
  """
  with tf.name_scope(scope, 'eval_image', [image, height, width]):
    if image.dtype != tf.float32:
      image = tf.image.convert_image_dtype(image, dtype=tf.float32)
    if central_fraction:
      image = tf.image.central_crop(image, central_fraction=central_fraction)
    if height and width:
      image = tf.expand_dims(image, 0)
      image = tf.image.resize_bilinear(image, [height, width], align_corners=False)
      image = tf.squeeze(image, [0])
    image = tf.subtract(image, 0.5)
    image = tf.multiply(image, 2.0)
    return image


def preprocess_image(image, height=_DEFAULT_SIZE, width=_DEFAULT_SIZE,
                     is_training=False, bbox=None, fast_mode=True):
  """Pre-process one image for training or evaluation.

  Args:
    image: 3-D Tensor [height, width, channels] with the image.
    height: integer, image expected height.
    width: integer, image expected width.
    is_training: boolean, training or evaluation preprocessing.
    bbox: 3-D float Tensor of bounding boxes, or None.
    fast_mode: optional boolean, avoids slower transformations.

  Returns:
    3-D float Tensor containing an appropriately scaled image.
  """
  if is_training:
    image = preprocess_for_train(image, height, width, bbox, fast_mode)
{rotate}    return image
  image = tf.to_float(image)
  means = tf.constant([_R_MEAN, _G_MEAN, _B_MEAN], dtype=tf.float32)
  return preprocess_for_eval(image - means, height, width)
'''


def _flag_lines(rng: random.Random, flags_spelling: str, count: int) -> str:
    kinds = [("string", "'{w}_value'"), ("integer", "{n}"), ("float", "0.{n}"),
             ("boolean", "False")]
    lines = []
    for index in range(count):
        kind, default = rng.choice(kinds)
        word = rng.choice(WORDS)
        default = default.format(w=word, n=rng.randint(1, 999))
        lines.append(f"{flags_spelling}.DEFINE_{kind}(\n"
                     f"    '{word}_{index}', {default},\n"
                     f"    'The {word} setting number {index} of this job.')\n\n")
    return "".join(lines)


def entry_script(rng: random.Random, name: str) -> str:
    binding = rng.choice(SLIM_BINDINGS)
    spelling = rng.choice(["tf.app.flags", "tf.flags", "flags"])
    flags_binding = "flags = tf.app.flags\n" if spelling == "flags" else ""
    evaluates = rng.random() < 0.4
    flag_count = rng.randint(10, 25)
    body = ('''  with tf.Graph().as_default():
    tf_global_step = slim.get_or_create_global_step()
    dataset = dataset_factory.get_dataset(
        FLAGS.dataset_name, FLAGS.dataset_split_name, FLAGS.dataset_dir)
    network_fn = nets_factory.get_network_fn(
        FLAGS.model_name, num_classes=dataset.num_classes, is_training=False)
    provider = slim.dataset_data_provider.DatasetDataProvider(
        dataset, shuffle=False, common_queue_capacity=2 * FLAGS.batch_size,
        common_queue_min=FLAGS.batch_size)
    [image, label] = provider.get(['image', 'label'])
    image = preprocessing.preprocess_image(image, 224, 224, is_training=False)
    images, labels = tf.train.batch(
        [image, label], batch_size=FLAGS.batch_size,
        num_threads=FLAGS.num_preprocessing_threads,
        capacity=5 * FLAGS.batch_size)
    logits, _ = network_fn(images)
    variables_to_restore = slim.get_variables_to_restore()
    predictions = tf.argmax(logits, 1)
    labels = tf.squeeze(labels)
    names_to_values, names_to_updates = slim.metrics.aggregate_metric_map({
        'Accuracy': slim.metrics.streaming_accuracy(predictions, labels),
        'Recall_5': slim.metrics.streaming_recall_at_k(logits, labels, 5),
    })
    for name, value in names_to_values.items():
      summary_name = 'eval/%s' % name
      op = tf.summary.scalar(summary_name, value, collections=[])
      op = tf.Print(op, [value], summary_name)
      tf.add_to_collection(tf.GraphKeys.SUMMARIES, op)
    if tf.gfile.IsDirectory(FLAGS.checkpoint_path):
      checkpoint_path = tf.train.latest_checkpoint(FLAGS.checkpoint_path)
    else:
      checkpoint_path = FLAGS.checkpoint_path
    tf.logging.info('Evaluating %s' % checkpoint_path)
    slim.evaluation.evaluate_once(
        master=FLAGS.master,
        checkpoint_path=checkpoint_path,
        logdir=FLAGS.eval_dir,
        num_evals=FLAGS.max_num_batches,
        eval_op=list(names_to_updates.values()),
        variables_to_restore=variables_to_restore)
''' if evaluates else '''  with tf.Graph().as_default():
    global_step = tf.train.get_or_create_global_step()
    dataset = dataset_factory.get_dataset(
        FLAGS.dataset_name, FLAGS.dataset_split_name, FLAGS.dataset_dir)
    network_fn = nets_factory.get_network_fn(
        FLAGS.model_name, num_classes=dataset.num_classes,
        weight_decay=FLAGS.weight_decay, is_training=True)
    provider = slim.dataset_data_provider.DatasetDataProvider(
        dataset, num_readers=FLAGS.num_readers,
        common_queue_capacity=20 * FLAGS.batch_size,
        common_queue_min=10 * FLAGS.batch_size)
    [image, label] = provider.get(['image', 'label'])
    image = preprocessing.preprocess_image(image, 224, 224, is_training=True)
    images, labels = tf.train.batch(
        [image, label], batch_size=FLAGS.batch_size,
        num_threads=FLAGS.num_preprocessing_threads,
        capacity=5 * FLAGS.batch_size)
    labels = slim.one_hot_encoding(labels, dataset.num_classes)
    batch_queue = slim.prefetch_queue.prefetch_queue([images, labels], capacity=2)
    images, labels = batch_queue.dequeue()
    logits, end_points = network_fn(images)
    if 'AuxLogits' in end_points:
      tf.losses.softmax_cross_entropy(
          labels, end_points['AuxLogits'], weights=0.4, scope='aux_loss')
    tf.losses.softmax_cross_entropy(labels, logits, weights=1.0)
    total_loss = tf.losses.get_total_loss()
    learning_rate = tf.train.exponential_decay(
        FLAGS.learning_rate, global_step, 10000, 0.94, staircase=True)
    optimizer = tf.train.RMSPropOptimizer(learning_rate, decay=0.9, epsilon=1.0)
    train_op = slim.learning.create_train_op(total_loss, optimizer)
    tf.summary.scalar('learning_rate', learning_rate)
    tf.summary.scalar('total_loss', total_loss)
    init_fn = None
    if FLAGS.checkpoint_path:
      init_fn = tf.contrib.framework.assign_from_checkpoint_fn(
          FLAGS.checkpoint_path, slim.get_model_variables(),
          ignore_missing_vars=True)
    slim.learning.train(
        train_op,
        logdir=FLAGS.train_dir,
        master=FLAGS.master,
        is_chief=(FLAGS.task == 0),
        init_fn=init_fn,
        number_of_steps=FLAGS.max_number_of_steps,
        log_every_n_steps=FLAGS.log_every_n_steps,
        save_summaries_secs=FLAGS.save_summaries_secs,
        save_interval_secs=FLAGS.save_interval_secs)
''')
    common_flags = "".join(
        f"{spelling}.DEFINE_{kind}('{flag}', {default}, '{help_text}')\n"
        for kind, flag, default, help_text in [
            ("string", "master", "''", "The address of the TensorFlow master."),
            ("string", "train_dir", "'/tmp/train'", "Where checkpoints are written."),
            ("string", "eval_dir", "'/tmp/eval'", "Where evaluation results go."),
            ("string", "checkpoint_path", "None", "The checkpoint to start from."),
            ("string", "dataset_name", "'imagenet'", "The name of the dataset."),
            ("string", "dataset_split_name", "'train'", "The split to read."),
            ("string", "dataset_dir", "None", "Where the dataset files are."),
            ("string", "model_name", "'inception_v3'", "The architecture."),
            ("integer", "batch_size", "32", "Samples per batch."),
            ("integer", "num_readers", "4", "Parallel readers."),
            ("integer", "num_preprocessing_threads", "4", "Batching threads."),
            ("integer", "max_number_of_steps", "None", "Training steps."),
            ("integer", "max_num_batches", "None", "Evaluation batches."),
            ("integer", "log_every_n_steps", "10", "Log frequency."),
            ("integer", "save_summaries_secs", "600", "Summary period."),
            ("integer", "save_interval_secs", "600", "Checkpoint period."),
            ("integer", "task", "0", "Task id of this replica."),
            ("float", "weight_decay", "0.00004", "Weight decay."),
            ("float", "learning_rate", "0.01", "Initial learning rate."),
        ])
    return f'''{HEADER}"""{'Evaluates' if evaluates else 'Trains'} a model with the {name} configuration."""

{FUTURE}
{binding}
from datasets import dataset_factory
from nets import nets_factory
from preprocessing import inception_preprocessing as preprocessing

{flags_binding}
{common_flags}
{_flag_lines(rng, spelling, flag_count)}FLAGS = {spelling}.FLAGS


def main(_):
  if not FLAGS.dataset_dir:
    raise ValueError('You must supply the dataset directory with --dataset_dir')
  tf.logging.set_verbosity(tf.logging.INFO)
{body}

if __name__ == '__main__':
  tf.app.run()
'''


def tf_util_module(rng: random.Random, name: str) -> str:
    functions = []
    for index in range(rng.randint(6, 12)):
        word = rng.choice(WORDS)
        functions.append(f'''

def {word}_summary_{index}(tensors, family='{word}'):
  """Adds histogram and sparsity summaries for every tensor in `tensors`.

  Args:
    tensors: a dict from names to tensors.
    family: the summary family, shown as a tab in TensorBoard.

  Returns:
    The list of summary ops it created.
  """
  summaries = []
  for name, tensor in sorted(tensors.items()):
    tf.logging.log_every_n(tf.logging.INFO, 'summarizing %s', 100, name)
    summaries.append(tf.summary.histogram(name, tensor, family=family))
    summaries.append(
        tf.summary.scalar(name + '/sparsity', tf.nn.zero_fraction(tensor),
                          family=family))
  return summaries
''')
    return (f'{HEADER}"""Summary and file helpers shared by the {name} scripts."""\n\n'
            f"{FUTURE}\nimport os\n\nimport tensorflow as tf\n\n"
            f'''
def read_lines(path):
  """Returns the non-empty lines of a text file on any tf.gfile file system."""
  with tf.gfile.GFile(path, 'r') as handle:
    return [line.strip() for line in handle if line.strip()]


def ensure_dir(path):
  """Creates `path` and its parents if missing; returns it."""
  if not tf.gfile.Exists(path):
    tf.logging.info('creating %s', path)
    tf.gfile.MakeDirs(path)
  return os.path.abspath(path)
''' + "".join(functions))


def plain_module(rng: random.Random, name: str) -> str:
    functions = []
    for index in range(rng.randint(8, 16)):
        word = rng.choice(WORDS)
        functions.append(f'''

def parse_{word}_{index}(text, separator=','):
  """Splits `text` on `separator` into a dict of key=value pairs.

  Args:
    text: the string to parse, e.g. "a=1,b=2".
    separator: the separator between pairs.

  Returns:
    A dict from keys to values (strings).

  Raises:
    ValueError: if a pair has no '='.
  """
  result = {{}}
  for pair in text.split(separator):
    pair = pair.strip()
    if not pair:
      continue
    if '=' not in pair:
      raise ValueError('%s: pair %r has no "="' % ('{word}', pair))
    key, value = pair.split('=', 1)
    result[key.strip()] = value.strip()
  return result
''')
    return (f'{HEADER}"""Configuration parsing for the {name} jobs (no TensorFlow)."""\n\n'
            f"{FUTURE}\nimport collections\nimport json\n" + "".join(functions))


# Kinds of generated module, how many of each one package holds, and where they go.
GENERATED_KINDS: List[tuple] = [
    ("nets", 24, net_module),
    ("datasets", 14, dataset_module),
    ("preprocessing", 12, preprocessing_module),
    ("scripts", 8, entry_script),
    ("utils", 10, tf_util_module),
    ("config", 5, plain_module),
]


def _example_files() -> List[SourceFile]:
    return [SourceFile(str(path.relative_to(EXAMPLE_TREE)), path.read_text())
            for path in sorted(EXAMPLE_TREE.rglob("*.py"))]


def package_files(seed: int) -> List[SourceFile]:
    """The 90 files of one package, interleaved so that any prefix has the same mix.

    Args:
      seed: the generator's seed; equal seeds give byte-identical files.

    Returns:
      The files, example tree and generated modules interleaved by kind.
    """
    rng = random.Random(seed)
    queues: List[List[SourceFile]] = [_example_files()]
    for directory, count, generate in GENERATED_KINDS:
        queue = []
        for index in range(count):
            name = f"{rng.choice(WORDS)}_{directory[:3]}_{index}"
            queue.append(SourceFile(f"{directory}/{name}.py", generate(rng, name)))
        queues.append(queue)
    total = sum(len(queue) for queue in queues)
    # Round-robin weighted by queue length: file k of a queue of n goes at k/n.
    ordered = sorted(
        ((index / len(queue), order, item) for order, queue in enumerate(queues)
         for index, item in enumerate(queue)),
        key=lambda entry: (entry[0], entry[1]))
    assert len(ordered) == total == PACKAGE_FILES
    return [item for _, _, item in ordered]


def corpus_files(n_files: int, seed: int) -> Iterator[SourceFile]:
    """The first `n_files` files of packages pkg000, pkg001, ... (seeds seed, seed+1, ...)."""
    package = 0
    while n_files > 0:
        for source in package_files(seed + package)[:n_files]:
            yield SourceFile(f"pkg{package:03d}/{source.path}", source.text)
        n_files -= PACKAGE_FILES
        package += 1


def build(dest: Path, n_files: int = PACKAGE_FILES, seed: int = 0) -> tuple:
    """Writes the corpus to `dest` (replacing it) and returns (files, lines)."""
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    files = lines = 0
    for source in corpus_files(n_files, seed):
        path = dest / source.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source.text)
        files += 1
        lines += source.text.count("\n")
    return files, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--files", type=int, default=PACKAGE_FILES)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    files, lines = build(args.dest, args.files, args.seed)
    print(f"{args.dest}: {files} files, {lines} lines")


if __name__ == "__main__":
    main()
