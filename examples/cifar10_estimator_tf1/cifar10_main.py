"""Multi-tower CIFAR-10 classifier on tf.contrib.learn's Experiment, TF 1.4 style.

slimport's own example, in the shape of tensorflow/models'
tutorials/image/cifar10_estimator/cifar10_main.py as platforms adapted it:
tf.app.flags with the platform's flags (--data_dir --output_dir --num_gpus),
a model_fn with one tower per GPU (one CPU tower with --num_gpus=0) whose
variables local_device_setter places (on the CPU, or spread over the GPUs by
GreedyLoadBalancingStrategy), gradients averaged where their variables live,
an Experiment built by an experiment_fn from a tf.contrib.learn RunConfig
subclass and tf.contrib.training.HParams, and learn_runner.run choosing this
task's schedule from the platform's TF_CONFIG (master: train_and_evaluate,
worker: train, ps: run_std_server; one machine: train_and_evaluate).
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import functools
import itertools
import os

import six
import tensorflow as tf

import cifar10
import cifar10_model
import cifar10_utils

tf.logging.set_verbosity(tf.logging.INFO)

tf.app.flags.DEFINE_string('data_dir', '',
                           'Directory with train.tfrecords and eval.tfrecords.')
tf.app.flags.DEFINE_string('output_dir', '',
                           'Directory for checkpoints, summaries and exports.')
tf.app.flags.DEFINE_integer('num_gpus', 0,
                            'Towers on GPUs; 0 builds one tower on the CPU.')
tf.app.flags.DEFINE_string('variable_strategy', '',
                           'CPU: variables on the CPU; GPU: spread over the '
                           'GPUs by size (default: GPU with --num_gpus, else CPU).')
tf.app.flags.DEFINE_integer('train_steps', 200, 'Global steps to train.')
tf.app.flags.DEFINE_integer('train_batch_size', 64,
                            'Examples per step, split over the towers.')
tf.app.flags.DEFINE_integer('eval_batch_size', 64, 'Examples per eval step.')
tf.app.flags.DEFINE_float('learning_rate', 0.1, 'Initial learning rate.')
tf.app.flags.DEFINE_float('momentum', 0.9, 'Momentum of the optimizer.')
tf.app.flags.DEFINE_float('weight_decay', 2e-4, 'L2 weight decay.')
tf.app.flags.DEFINE_float('batch_norm_decay', 0.9,
                          'Moving-average decay of batch norm (short runs '
                          'need a fast one).')
tf.app.flags.DEFINE_float('batch_norm_epsilon', 1e-5, 'Batch norm epsilon.')
tf.app.flags.DEFINE_boolean('log_device_placement', False,
                            'Log the device of every op.')
tf.app.flags.DEFINE_integer('num_intra_threads', 0,
                            'Threads per op (0: TensorFlow chooses).')
FLAGS = tf.app.flags.FLAGS


def get_model_fn(num_gpus, variable_strategy, num_workers):
  """Returns the model_fn: one tower per device, gradients averaged."""

  def _model_fn(features, labels, mode, params):
    is_training = (mode == tf.estimator.ModeKeys.TRAIN)
    if num_gpus == 0:
      num_devices, device_type = 1, 'cpu'
    else:
      num_devices, device_type = num_gpus, 'gpu'
    tower_losses = []
    tower_gradvars = []
    tower_preds = []
    for i in range(num_devices):
      worker_device = '/%s:%d' % (device_type, i)
      if variable_strategy == 'CPU':
        device_setter = cifar10_utils.local_device_setter(
            worker_device=worker_device)
      else:
        device_setter = cifar10_utils.local_device_setter(
            ps_device_type='gpu',
            worker_device=worker_device,
            ps_strategy=tf.contrib.training.GreedyLoadBalancingStrategy(
                num_gpus, tf.contrib.training.byte_size_load_fn))
      with tf.variable_scope('cifar10', reuse=bool(i != 0)):
        with tf.name_scope('tower_%d' % i) as name_scope:
          with tf.device(device_setter):
            loss, gradvars, preds = _tower_fn(is_training, params,
                                              features[i], labels[i])
            tower_losses.append(loss)
            tower_gradvars.append(gradvars)
            tower_preds.append(preds)
            if i == 0:
              # Batch norm statistics from the first tower only.
              update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS,
                                             name_scope)

    # Average each variable's gradients on the variable's device.
    gradvars = []
    with tf.name_scope('gradient_averaging'):
      all_grads = {}
      for grad, var in itertools.chain(*tower_gradvars):
        if grad is not None:
          all_grads.setdefault(var, []).append(grad)
      for var, grads in six.iteritems(all_grads):
        with tf.device(var.device):
          if len(grads) == 1:
            avg_grad = grads[0]
          else:
            avg_grad = tf.multiply(tf.add_n(grads), 1. / len(grads))
        gradvars.append((avg_grad, var))

    consolidation_device = '/gpu:0' if variable_strategy == 'GPU' else '/cpu:0'
    with tf.device(consolidation_device):
      num_batches_per_epoch = cifar10.Cifar10DataSet.num_examples_per_epoch(
          'train') // (params.train_batch_size * num_workers)
      boundaries = [num_batches_per_epoch * x for x in (20, 40)]
      staged_lr = [params.learning_rate * x for x in (1, 0.1, 0.01)]
      learning_rate = tf.train.piecewise_constant(tf.train.get_global_step(),
                                                  boundaries, staged_lr)
      learning_rate = tf.identity(learning_rate, name='learning_rate')
      optimizer = tf.train.MomentumOptimizer(learning_rate=learning_rate,
                                             momentum=params.momentum)
      train_op = [optimizer.apply_gradients(
          gradvars, global_step=tf.train.get_global_step())]
      train_op.extend(update_ops)
      train_op = tf.group(*train_op)

      predictions = {
          'classes': tf.concat([p['classes'] for p in tower_preds], axis=0),
          'probabilities': tf.concat([p['probabilities'] for p in tower_preds],
                                     axis=0),
      }
      stacked_labels = tf.concat(labels, axis=0)
      metrics = {
          'accuracy': tf.metrics.accuracy(stacked_labels,
                                          predictions['classes'])
      }
      loss = tf.reduce_mean(tower_losses, name='loss')

    return tf.estimator.EstimatorSpec(
        mode=mode, predictions=predictions, loss=loss, train_op=train_op,
        eval_metric_ops=metrics)

  return _model_fn


def _tower_fn(is_training, params, feature, label):
  """One tower: its loss, (gradient, variable) pairs and predictions."""
  model = cifar10_model.Cifar10Model(
      cifar10.NUM_CLASSES, is_training,
      batch_norm_decay=params.batch_norm_decay,
      batch_norm_epsilon=params.batch_norm_epsilon)
  logits = model.forward_pass(feature)
  tower_pred = {
      'classes': tf.argmax(input=logits, axis=1),
      'probabilities': tf.nn.softmax(logits),
  }
  tower_loss = tf.losses.sparse_softmax_cross_entropy(logits=logits,
                                                      labels=label)
  model_params = tf.trainable_variables()
  tower_loss += params.weight_decay * tf.add_n(
      [tf.nn.l2_loss(v) for v in model_params])
  tower_grad = tf.gradients(tower_loss, model_params)
  return tower_loss, zip(tower_grad, model_params), tower_pred


def input_fn(data_dir, subset, num_shards, batch_size,
             use_distortion_for_training=True):
  """Lists of feature and label tensors, one per tower."""
  with tf.device('/cpu:0'):
    use_distortion = subset == 'train' and use_distortion_for_training
    dataset = cifar10.Cifar10DataSet(data_dir, subset, use_distortion)
    image_batch, label_batch = dataset.make_batch(batch_size)
    if num_shards <= 1:
      return [image_batch], [label_batch]
    # Deal the examples out to the towers one by one.
    image_batch = tf.unstack(image_batch, num=batch_size, axis=0)
    label_batch = tf.unstack(label_batch, num=batch_size, axis=0)
    feature_shards = [[] for _ in range(num_shards)]
    label_shards = [[] for _ in range(num_shards)]
    for i in range(batch_size):
      feature_shards[i % num_shards].append(image_batch[i])
      label_shards[i % num_shards].append(label_batch[i])
    feature_shards = [tf.parallel_stack(x) for x in feature_shards]
    label_shards = [tf.parallel_stack(x) for x in label_shards]
    return feature_shards, label_shards


def get_experiment_fn(data_dir, num_gpus, variable_strategy):
  """Returns the experiment_fn learn_runner calls with (run_config, hparams)."""

  def _experiment_fn(run_config, hparams):
    train_input_fn = functools.partial(
        input_fn, data_dir, subset='train', num_shards=num_gpus,
        batch_size=hparams.train_batch_size)
    eval_input_fn = functools.partial(
        input_fn, data_dir, subset='eval', num_shards=num_gpus,
        batch_size=hparams.eval_batch_size)
    num_eval_examples = cifar10.Cifar10DataSet.num_examples_per_epoch('eval')
    if num_eval_examples % hparams.eval_batch_size != 0:
      raise ValueError('eval set size must be a multiple of eval_batch_size')
    eval_steps = num_eval_examples // hparams.eval_batch_size

    examples_sec_hook = cifar10_utils.ExamplesPerSecondHook(
        hparams.train_batch_size, every_n_steps=20)
    logging_hook = tf.train.LoggingTensorHook(
        tensors={'learning_rate': 'learning_rate', 'loss': 'loss'},
        every_n_iter=20)

    classifier = tf.estimator.Estimator(
        model_fn=get_model_fn(num_gpus, variable_strategy,
                              run_config.num_worker_replicas or 1),
        config=run_config,
        params=hparams)
    experiment = tf.contrib.learn.Experiment(
        classifier,
        train_input_fn=train_input_fn,
        eval_input_fn=eval_input_fn,
        train_steps=hparams.train_steps,
        eval_steps=eval_steps)
    experiment.extend_train_hooks([logging_hook, examples_sec_hook])
    return experiment

  return _experiment_fn


def main(unused_argv):
  if not FLAGS.data_dir or not FLAGS.output_dir:
    raise ValueError('--data_dir and --output_dir are required')
  variable_strategy = FLAGS.variable_strategy or (
      'GPU' if FLAGS.num_gpus > 0 else 'CPU')
  if FLAGS.num_gpus == 0 and variable_strategy == 'GPU':
    raise ValueError('--variable_strategy=GPU needs --num_gpus > 0')
  if FLAGS.num_gpus > 0 and FLAGS.train_batch_size % FLAGS.num_gpus:
    raise ValueError('--train_batch_size must be a multiple of --num_gpus')
  os.environ['TF_SYNC_ON_FINISH'] = '0'
  sess_config = tf.ConfigProto(
      allow_soft_placement=True,
      log_device_placement=FLAGS.log_device_placement,
      intra_op_parallelism_threads=FLAGS.num_intra_threads,
      gpu_options=tf.GPUOptions(force_gpu_compatible=True))
  config = cifar10_utils.RunConfig(session_config=sess_config,
                                   model_dir=FLAGS.output_dir)
  hparams = tf.contrib.training.HParams(
      train_steps=FLAGS.train_steps,
      train_batch_size=FLAGS.train_batch_size,
      eval_batch_size=FLAGS.eval_batch_size,
      learning_rate=FLAGS.learning_rate,
      momentum=FLAGS.momentum,
      weight_decay=FLAGS.weight_decay,
      batch_norm_decay=FLAGS.batch_norm_decay,
      batch_norm_epsilon=FLAGS.batch_norm_epsilon)
  tf.contrib.learn.learn_runner.run(
      get_experiment_fn(FLAGS.data_dir, FLAGS.num_gpus, variable_strategy),
      run_config=config,
      hparams=hparams)


if __name__ == '__main__':
  tf.app.run()
