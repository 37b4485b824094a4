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
"""Saves the inference GraphDef of a nets_factory network (TF1 code, to be ported).

Written by the slimport authors in the shape of research/slim's
export_inference_graph.py (whose sdist on PyPI leaves it out): an input
placeholder named `input`, the network in inference mode, and the GraphDef
written without variable values. freeze_graph then folds a checkpoint in:

  python export_inference_graph.py --model_name=lenet --dataset_name=synthetic \
      --dataset_dir=/tmp/synthetic --output_file=/tmp/lenet_inf_graph.pb
  python -m tensorflow.python.tools.freeze_graph \
      --input_graph=/tmp/lenet_inf_graph.pb --input_binary=true \
      --input_checkpoint=/tmp/train/model.ckpt-200 \
      --output_node_names=LeNet/fc4/BiasAdd --output_graph=/tmp/frozen_lenet.pb
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import tensorflow as tf

from tensorflow.python.platform import gfile
from datasets import dataset_factory
from nets import nets_factory

tf.app.flags.DEFINE_string('model_name', 'lenet',
                           'A name of the nets_factory: the network to save.')
tf.app.flags.DEFINE_boolean('is_training', False,
                            'Save the training graph (dropout, batch statistics).')
tf.app.flags.DEFINE_integer('image_size', None,
                            'Input height and width (default: the network\'s own).')
tf.app.flags.DEFINE_integer('batch_size', None,
                            'Fixed batch size of the input; None leaves it open.')
tf.app.flags.DEFINE_string('dataset_name', 'synthetic',
                           'The dataset whose number of classes the network has.')
tf.app.flags.DEFINE_integer('labels_offset', 0,
                            'Classes of the dataset the network leaves out (e.g. 1 '
                            'for a net without ImageNet\'s background class).')
tf.app.flags.DEFINE_string('output_file', '', 'The GraphDef file to write.')
tf.app.flags.DEFINE_string('dataset_dir', '',
                           'The dataset\'s directory (its labels file).')
tf.app.flags.DEFINE_bool('write_text_graphdef', False,
                         'Write the GraphDef as text instead.')

FLAGS = tf.app.flags.FLAGS


def main(_):
  if not FLAGS.output_file:
    raise ValueError('You must supply the path to save to with --output_file')
  tf.logging.set_verbosity(tf.logging.INFO)
  with tf.Graph().as_default() as graph:
    dataset = dataset_factory.get_dataset(FLAGS.dataset_name, 'train',
                                          FLAGS.dataset_dir)
    network_fn = nets_factory.get_network_fn(
        FLAGS.model_name,
        num_classes=(dataset.num_classes - FLAGS.labels_offset),
        is_training=FLAGS.is_training)
    image_size = FLAGS.image_size or network_fn.default_image_size
    placeholder = tf.placeholder(name='input', dtype=tf.float32,
                                 shape=[FLAGS.batch_size, image_size,
                                        image_size, 3])
    network_fn(placeholder)
    graph_def = graph.as_graph_def()
    if FLAGS.write_text_graphdef:
      tf.io.write_graph(
          graph_def,
          os.path.dirname(FLAGS.output_file),
          os.path.basename(FLAGS.output_file),
          as_text=True)
    else:
      with gfile.GFile(FLAGS.output_file, 'wb') as f:
        f.write(graph_def.SerializeToString())


if __name__ == '__main__':
  tf.app.run()
