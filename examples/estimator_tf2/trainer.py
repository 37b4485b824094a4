"""Image classifier on tf.estimator with tf.distribute strategies, TF 2.0 style.

slimport's own example, in the shape of the TF 1.4 towers trainer moved to
TF 2.0 by a training platform: the towers and device setters are gone, a
tf.distribute strategy in RunConfig(train_distribute=...) replicates the model
instead, chosen by the task's role: MirroredStrategy on one node,
ParameterServerStrategy when the platform's TF_CONFIG has ps tasks,
MultiWorkerMirroredStrategy when it has workers only. The platform writes
TF_CONFIG with a `master` task, which TF 2 strategies do not know: the script
renames it `chief` first. Then TrainSpec / EvalSpec / train_and_evaluate.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf

NUM_CLASSES = 10


def tf_config_with_chief():
  """Rewrites the platform's TF_CONFIG for TF 2: its `master` task is the chief."""
  tf_config = json.loads(os.environ.get('TF_CONFIG') or '{}')
  cluster = tf_config.get('cluster', {})
  if 'master' in cluster:
    cluster['chief'] = cluster.pop('master')
    if tf_config['task']['type'] == 'master':
      tf_config['task']['type'] = 'chief'
    os.environ['TF_CONFIG'] = json.dumps(tf_config)
  return tf_config


def strategy_for(tf_config):
  """The training strategy for this task's role, or None for the evaluator."""
  cluster = tf_config.get('cluster', {})
  if not cluster:
    return tf.distribute.MirroredStrategy()
  if tf_config['task']['type'] == 'evaluator':
    return None
  if 'ps' in cluster:
    return tf.distribute.experimental.ParameterServerStrategy()
  return tf.distribute.experimental.MultiWorkerMirroredStrategy()


def model_fn(features, labels, mode, params):
  """A small convnet; its loss, train op and accuracy."""
  training = mode == tf.estimator.ModeKeys.TRAIN
  network = tf.keras.Sequential([
      tf.keras.layers.Conv2D(16, 3, padding='same', activation='relu'),
      tf.keras.layers.Conv2D(32, 3, strides=2, padding='same',
                             activation='relu'),
      tf.keras.layers.GlobalAveragePooling2D(),
      tf.keras.layers.Dense(NUM_CLASSES),
  ])
  logits = network(features['images'], training=training)
  classes = tf.argmax(logits, axis=1)
  if mode == tf.estimator.ModeKeys.PREDICT:
    return tf.estimator.EstimatorSpec(mode, predictions={'classes': classes})
  loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
  accuracy = tf.compat.v1.metrics.accuracy(labels, classes)
  optimizer = tf.compat.v1.train.MomentumOptimizer(params['learning_rate'],
                                                   momentum=0.9)
  train_op = optimizer.minimize(
      loss, global_step=tf.compat.v1.train.get_or_create_global_step(),
      var_list=network.trainable_variables)
  return tf.estimator.EstimatorSpec(
      mode, loss=loss, train_op=train_op,
      eval_metric_ops={'accuracy': accuracy})


def input_fn(data_dir, split, batch_size):
  data = np.load(os.path.join(data_dir, split + '.npz'))
  dataset = tf.data.Dataset.from_tensor_slices(
      ({'images': data['images']}, data['labels']))
  if split == 'train':
    dataset = dataset.shuffle(1024).repeat()
  return dataset.batch(batch_size)


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument('--data_dir', required=True,
                      help='directory with train.npz and eval.npz')
  parser.add_argument('--output_dir', required=True,
                      help='checkpoints, summaries and evaluations go here')
  parser.add_argument('--batch_size', type=int, default=32)
  parser.add_argument('--max_steps', type=int, default=120)
  parser.add_argument('--learning_rate', type=float, default=0.05)
  args = parser.parse_args()

  tf_config = tf_config_with_chief()
  config = tf.estimator.RunConfig(
      model_dir=args.output_dir,
      train_distribute=strategy_for(tf_config),
      save_checkpoints_steps=args.max_steps // 3,
      log_step_count_steps=20)
  estimator = tf.estimator.Estimator(
      model_fn=model_fn, config=config,
      params={'learning_rate': args.learning_rate})
  train_spec = tf.estimator.TrainSpec(
      input_fn=lambda: input_fn(args.data_dir, 'train', args.batch_size),
      max_steps=args.max_steps)
  eval_spec = tf.estimator.EvalSpec(
      input_fn=lambda: input_fn(args.data_dir, 'eval', args.batch_size),
      steps=None, start_delay_secs=0, throttle_secs=1)
  result = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
  if result and result[0]:
    print('accuracy %.3f, loss %.3f, global step %d' % (
        result[0]['accuracy'], result[0]['loss'], result[0]['global_step']))


if __name__ == '__main__':
  main()
