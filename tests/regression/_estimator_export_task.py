"""Exports the ported Keras Estimator example three ways, in its own process.

``python _estimator_export_task.py PORTED_DIR MODEL_DIR DATA_DIR OUT_DIR`` imports the
ported ``mnist_keras`` (which makes ``tf.keras`` tf_keras for the whole process, as its
trainer does), rebuilds its Estimator on the trained ``MODEL_DIR`` with
``model_to_estimator`` and writes to ``OUT_DIR``:

  images.npy       the first test images, as the trainer's input_fn feeds them
  predicted.npy    ``Estimator.predict``'s probabilities of them
  exports.json     {"receiver" | "raw" | "parsing": the SavedModel directory} of
                   ``export_saved_model`` with a hand-written ``ServingInputReceiver``,
                   ``build_raw_serving_input_receiver_fn`` and
                   ``build_parsing_serving_input_receiver_fn``
"""
import json
import os
import sys

import numpy as np

IMAGES = 16


def main(ported, model_dir, data_dir, out):
  sys.path.insert(0, ported)
  import mnist_keras  # pylint: disable=import-outside-toplevel
  import tensorflow as tf  # pylint: disable=import-outside-toplevel

  with np.load(os.path.join(data_dir, 'mnist.npz')) as mnist:
    images = (mnist['x_test'][:IMAGES] / 255.0).astype(np.float32)
  estimator = tf.keras.estimator.model_to_estimator(
      mnist_keras.build_model(0.002), model_dir=model_dir)
  predicted = np.stack([p['dense_1'] for p in estimator.predict(
      lambda: tf.data.Dataset.from_tensor_slices(images).batch(IMAGES))])

  def receiver_fn():
    image = tf.compat.v1.placeholder(tf.float32, [None, 28, 28], name='image')
    return tf.estimator.export.ServingInputReceiver({'image_input': image},
                                                    {'image': image})

  with tf.Graph().as_default():  # TF 2 code builds its placeholders in a graph
    raw_fn = tf.estimator.export.build_raw_serving_input_receiver_fn(
        {'image_input': tf.compat.v1.placeholder(tf.float32, [None, 28, 28],
                                                 name='image')})
  parsing_fn = tf.estimator.export.build_parsing_serving_input_receiver_fn(
      {'image_input': tf.io.FixedLenFeature([28, 28], tf.float32)})
  exports = {}
  for name, serving_input_receiver_fn in (('receiver', receiver_fn), ('raw', raw_fn),
                                          ('parsing', parsing_fn)):
    exported = estimator.export_saved_model(os.path.join(out, name),
                                            serving_input_receiver_fn)
    exports[name] = exported.decode() if isinstance(exported, bytes) else exported
  np.save(os.path.join(out, 'images.npy'), images)
  np.save(os.path.join(out, 'predicted.npy'), predicted)
  with open(os.path.join(out, 'exports.json'), 'w') as f:
    json.dump(exports, f)


if __name__ == '__main__':
  main(*sys.argv[1:5])
