"""Multi-tower image classifier on tf.estimator, TF 1.4 style.

slimport's own example, in the shape of a TF 1.4-era ResNet/CIFAR Estimator
trainer as cloud platforms adapted tensorflow/models (official/resnet's
imagenet_main.py, tutorials/image/cifar10_estimator): argparse platform flags
(--data_dir --output_dir --num_gpus), a model_fn with one tower per GPU (one
CPU tower when --num_gpus=0) whose variables a replica_device_setter spreads
with GreedyLoadBalancingStrategy, tf.contrib.training.HParams as params, a
tf.contrib.learn RunConfig that reads the platform's TF_CONFIG, and
train-then-evaluate per epoch. In a cluster each task starts its own server;
a ps task joins it.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import os

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import run_config

import model

NUM_CLASSES = 10


def _variable_device_setter(config, worker_device, is_training):
  """Puts variables on the ps tasks (cluster) or the CPU, balanced by size."""
  if is_training and config.num_ps_replicas > 0:
    return tf.train.replica_device_setter(
        worker_device=worker_device,
        cluster=config.cluster_spec,
        ps_strategy=tf.contrib.training.GreedyLoadBalancingStrategy(
            config.num_ps_replicas, tf.contrib.training.byte_size_load_fn))
  return tf.train.replica_device_setter(
      worker_device=worker_device,
      ps_device='/cpu:0',
      ps_tasks=1,
      ps_strategy=tf.contrib.training.GreedyLoadBalancingStrategy(
          1, tf.contrib.training.byte_size_load_fn))


def _tower_loss(images, labels, is_training, weight_decay):
  logits = model.inference(images, is_training, NUM_CLASSES)
  loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
  loss += weight_decay * tf.add_n(
      [tf.nn.l2_loss(v) for v in tf.trainable_variables()])
  return logits, loss


def get_model_fn(num_gpus):
  """Returns a model_fn that builds one tower per GPU, or one on the CPU."""

  def _model_fn(features, labels, mode, params, config):
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    num_towers = max(num_gpus, 1)
    device_type = 'gpu' if num_gpus > 0 else 'cpu'
    tower_images = tf.split(features['images'], num_towers)
    tower_labels = tf.split(labels, num_towers)
    tower_logits = []
    tower_losses = []
    tower_grads = []
    update_ops = []
    for i in range(num_towers):
      worker_device = '/%s:%d' % (device_type, i)
      with tf.device(_variable_device_setter(config, worker_device,
                                             is_training)):
        with tf.variable_scope('cifar', reuse=bool(i)):
          with tf.name_scope('tower_%d' % i) as name_scope:
            logits, loss = _tower_loss(tower_images[i], tower_labels[i],
                                       is_training, params.weight_decay)
            tower_logits.append(logits)
            tower_losses.append(loss)
            if is_training:
              tower_grads.append(
                  tf.gradients(loss, tf.trainable_variables()))
            if i == 0:
              # Batch norm statistics from the first tower only.
              update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS,
                                             name_scope)

    with tf.device('/cpu:0'):
      loss = tf.reduce_mean(tower_losses, name='loss')
      logits = tf.concat(tower_logits, axis=0)
      classes = tf.argmax(logits, axis=1)
      predictions = {'classes': classes,
                     'probabilities': tf.nn.softmax(logits)}
      accuracy = tf.metrics.accuracy(labels, classes)
      train_op = None
      hooks = []
      if is_training:
        grads = [tf.add_n(list(g)) / num_towers for g in zip(*tower_grads)]
        global_step = tf.train.get_global_step()
        learning_rate = tf.train.exponential_decay(
            params.learning_rate, global_step, params.decay_steps, 0.5,
            staircase=True)
        optimizer = tf.train.MomentumOptimizer(learning_rate, params.momentum)
        with tf.control_dependencies(update_ops):
          train_op = optimizer.apply_gradients(
              zip(grads, tf.trainable_variables()), global_step=global_step)
        tf.summary.scalar('train_accuracy', accuracy[1])
        hooks = [
            tf.train.LoggingTensorHook(
                {'learning_rate': learning_rate, 'loss': loss,
                 'step': global_step},
                every_n_iter=params.log_every_n_steps),
            tf.train.SummarySaverHook(
                save_steps=params.log_every_n_steps,
                output_dir=os.path.join(config.model_dir, 'towers'),
                summary_op=tf.summary.merge_all()),
        ]
    return tf.estimator.EstimatorSpec(
        mode=mode, predictions=predictions, loss=loss, train_op=train_op,
        training_hooks=hooks, eval_metric_ops={'accuracy': accuracy})

  return _model_fn


def input_fn(data_dir, split, batch_size, num_epochs):
  """Batches of ({'images': images}, labels) from data_dir/<split>.npz."""
  data = np.load(os.path.join(data_dir, split + '.npz'))
  dataset = tf.data.Dataset.from_tensor_slices(
      ({'images': data['images']}, data['labels']))
  if split == 'train':
    dataset = dataset.shuffle(1024).repeat(num_epochs)
  dataset = dataset.batch(batch_size)
  images, labels = dataset.make_one_shot_iterator().get_next()
  return images, labels


def _start_server(config):
  """Starts this task's server when TF_CONFIG describes a cluster."""
  if not config.cluster_spec or config.task_type is None:
    return None
  server = tf.train.Server(config.cluster_spec, job_name=config.task_type,
                           task_index=config.task_id)
  if config.task_type == 'ps':
    server.join()
  return server


def main(args):
  tf.logging.set_verbosity(tf.logging.INFO)
  hparams = tf.contrib.training.HParams(
      learning_rate=args.learning_rate,
      momentum=0.9,
      weight_decay=2e-4,
      decay_steps=10 * args.steps_per_epoch,
      log_every_n_steps=args.log_every_n_steps)
  config = run_config.RunConfig(
      model_dir=args.output_dir,
      save_checkpoints_steps=args.steps_per_epoch,
      save_summary_steps=args.log_every_n_steps)
  server = _start_server(config)
  if server is not None:
    tf.logging.info('started %s %d of the cluster at %s', config.task_type,
                    config.task_id, server.target)
  classifier = tf.estimator.Estimator(
      model_fn=get_model_fn(args.num_gpus), config=config, params=hparams)
  # The towers split each batch evenly.
  batch_size = args.batch_size * max(args.num_gpus, 1)
  for epoch in range(args.train_epochs):
    classifier.train(
        input_fn=lambda: input_fn(args.data_dir, 'train', batch_size, None),
        max_steps=(epoch + 1) * args.steps_per_epoch)
    if config.is_chief:
      results = classifier.evaluate(
          input_fn=lambda: input_fn(args.data_dir, 'eval', batch_size, 1))
      print('epoch %d: accuracy %.3f, loss %.3f, global step %d' % (
          epoch + 1, results['accuracy'], results['loss'],
          results['global_step']))


if __name__ == '__main__':
  parser = argparse.ArgumentParser()
  parser.add_argument('--data_dir', required=True,
                      help='directory with train.npz and eval.npz')
  parser.add_argument('--output_dir', required=True,
                      help='checkpoints and summaries go here')
  parser.add_argument('--num_gpus', type=int, default=0,
                      help='towers on GPUs; 0 builds one tower on the CPU')
  parser.add_argument('--batch_size', type=int, default=32,
                      help='examples per tower per step')
  parser.add_argument('--train_epochs', type=int, default=3)
  parser.add_argument('--steps_per_epoch', type=int, default=40)
  parser.add_argument('--learning_rate', type=float, default=0.1)
  parser.add_argument('--log_every_n_steps', type=int, default=20)
  main(parser.parse_args())
