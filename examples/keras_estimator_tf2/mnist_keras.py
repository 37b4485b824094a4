"""Keras MNIST on a cluster through model_to_estimator, TF 2.0 style.

slimport's own example, in the shape of the TF 2.0 Keras MNIST trainers that
training platforms shipped for multi-worker jobs: a tf.keras model compiled
with a TF1 optimizer (tf.compat.v1.train.AdamOptimizer), turned into an
Estimator by tf.keras.estimator.model_to_estimator with
RunConfig(train_distribute=MultiWorkerMirroredStrategy), and trained with
train_and_evaluate. The platform writes TF_CONFIG with a `master` and
workers; TF 2 strategies want a `chief`, so the master is renamed first.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf


def use_chief_for_master():
  """The platform's TF_CONFIG names the chief `master`; TF 2 calls it `chief`."""
  if 'TF_CONFIG' not in os.environ:
    return
  tf_config = json.loads(os.environ['TF_CONFIG'])
  if 'master' in tf_config['cluster']:
    tf_config['cluster']['chief'] = tf_config['cluster'].pop('master')
  if tf_config['task']['type'] == 'master':
    tf_config['task']['type'] = 'chief'
  os.environ['TF_CONFIG'] = json.dumps(tf_config)


def build_model(learning_rate):
  model = tf.keras.Sequential([
      tf.keras.layers.Flatten(input_shape=(28, 28), name='image'),
      tf.keras.layers.Dense(64, activation='relu'),
      tf.keras.layers.Dropout(0.1),
      tf.keras.layers.Dense(10, activation='softmax'),
  ])
  model.compile(optimizer=tf.compat.v1.train.AdamOptimizer(learning_rate),
                loss='sparse_categorical_crossentropy',
                metrics=['accuracy'])
  return model


def input_fn(images, labels, batch_size, training):
  images = (images / 255.0).astype(np.float32)
  dataset = tf.data.Dataset.from_tensor_slices((images, labels.astype(np.int64)))
  if training:
    dataset = dataset.shuffle(2000).repeat()
  return dataset.batch(batch_size)


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument('--data_dir', required=True, help='directory with mnist.npz')
  parser.add_argument('--output_dir', required=True)
  parser.add_argument('--batch_size', type=int, default=64)
  parser.add_argument('--max_steps', type=int, default=150)
  parser.add_argument('--learning_rate', type=float, default=0.002)
  args = parser.parse_args()

  use_chief_for_master()
  with np.load(os.path.join(args.data_dir, 'mnist.npz')) as mnist:
    x_train, y_train = mnist['x_train'], mnist['y_train']
    x_test, y_test = mnist['x_test'], mnist['y_test']

  strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
  config = tf.estimator.RunConfig(train_distribute=strategy,
                                  save_checkpoints_steps=50)
  estimator = tf.keras.estimator.model_to_estimator(
      build_model(args.learning_rate), model_dir=args.output_dir, config=config)
  tf.estimator.train_and_evaluate(
      estimator,
      tf.estimator.TrainSpec(
          input_fn=lambda: input_fn(x_train, y_train, args.batch_size, True),
          max_steps=args.max_steps),
      tf.estimator.EvalSpec(
          input_fn=lambda: input_fn(x_test, y_test, args.batch_size, False),
          start_delay_secs=0, throttle_secs=1))
  print('evaluation:', estimator.evaluate(
      input_fn=lambda: input_fn(x_test, y_test, args.batch_size, False)))


if __name__ == '__main__':
  main()
