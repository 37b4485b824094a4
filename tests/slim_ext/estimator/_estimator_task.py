"""One task of an Estimator cluster test, written as ported Estimator code runs.

``--mode between_graph`` is the TF1 trainer's way (the shape of
examples/estimator_tf1 once ported): tf.contrib.learn's RunConfig reads the
platform TF_CONFIG (``master``), every task starts its own server, a ps joins it
through ``slim_ext.cluster.Server``'s join, variables go to the ps tasks through
``replica_device_setter`` with ``GreedyLoadBalancingStrategy``, and each worker
calls ``Estimator.train(max_steps=...)``.

``--mode train_and_evaluate`` is the TF 2.0 way (examples/estimator_tf2): the
platform's ``master`` renamed ``chief`` (here by slim_ext.cluster_config),
``RunConfig(train_distribute=...)`` by role (tf.compat.v1's ParameterServerStrategy with ps tasks,
MultiWorkerMirroredStrategy without, none on the evaluator), and
``slim_ext.estimator.train_and_evaluate``.

The model fits y = 3x + 1. The chief (``between_graph``) or the evaluator
(``train_and_evaluate``) prints one JSON line with the global step it saw and
the fitted weight or the loss.
"""
import argparse
import json
import os

import slim_ext  # noqa: F401  (tf.estimator on TF >= 2.16)
import slim_ext.estimator
import tensorflow as tf
from slim_ext import cluster, cluster_config
from slim_ext.contrib import training as contrib_training
from slim_ext.contrib.learn import run_config as contrib_run_config

def _input_fn():
  x = tf.reshape(tf.linspace(-1.0, 1.0, 64), [-1, 1])
  dataset = tf.data.Dataset.from_tensor_slices(({"x": x}, 3.0 * x + 1.0))
  return dataset.repeat().batch(16)


def _eval_input_fn():
  return _input_fn().take(4)


def _model_fn(place_on_ps):
  """The model_fn; with `place_on_ps`, variables go to the ps tasks (TF1 way)."""

  def model_fn(features, labels, mode, config):
    device_fn = None
    if place_on_ps and config.num_ps_replicas and mode == tf.estimator.ModeKeys.TRAIN:
      device_fn = tf.compat.v1.train.replica_device_setter(
          cluster=config.cluster_spec,
          ps_strategy=contrib_training.GreedyLoadBalancingStrategy(
              config.num_ps_replicas, contrib_training.byte_size_load_fn))
    with tf.compat.v1.device(device_fn):
      weight = tf.compat.v1.get_variable("weight", [1, 1])
      bias = tf.compat.v1.get_variable("bias", [1])
    predictions = tf.matmul(features["x"], weight) + bias
    loss = tf.compat.v1.losses.mean_squared_error(labels, predictions)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.2).minimize(
        loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

  return model_fn


def _start_server(config):
  if not config.cluster_spec or config.task_type is None:
    return None
  server = cluster.Server(config.cluster_spec, job_name=config.task_type,
                          task_index=config.task_id)
  if config.task_type == "ps":
    server.join()
  return server


def between_graph(model_dir, max_steps):
  config = contrib_run_config.RunConfig(model_dir=model_dir, save_checkpoints_steps=10)
  _start_server(config)
  estimator = tf.estimator.Estimator(_model_fn(place_on_ps=True), config=config)
  estimator.train(_input_fn, max_steps=max_steps)
  if config.is_chief:
    reader = tf.train.load_checkpoint(model_dir)
    print(json.dumps({"global_step": int(reader.get_tensor("global_step")),
                      "weight": float(reader.get_tensor("weight")[0][0])}))


def _tf_config_with_chief():
  """The platform's TF_CONFIG with its master renamed chief, as TF 2 wants it."""
  tf_config = cluster_config.ClusterConfig.from_env().to_tf2_tf_config()
  os.environ["TF_CONFIG"] = json.dumps(tf_config)
  return tf_config


def _strategy(tf_config):
  if tf_config["task"]["type"] == "evaluator":
    return None
  if "ps" in tf_config["cluster"]:
    return tf.compat.v1.distribute.experimental.ParameterServerStrategy()
  return tf.distribute.experimental.MultiWorkerMirroredStrategy()


def train_and_evaluate(model_dir, max_steps):
  tf_config = _tf_config_with_chief()
  config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=10,
                                  train_distribute=_strategy(tf_config))
  estimator = tf.estimator.Estimator(_model_fn(place_on_ps=False), config=config)
  result = slim_ext.estimator.train_and_evaluate(
      estimator,
      tf.estimator.TrainSpec(_input_fn, max_steps=max_steps),
      tf.estimator.EvalSpec(_eval_input_fn, steps=None, start_delay_secs=0,
                            throttle_secs=0))
  if tf_config["task"]["type"] == "evaluator":
    metrics = estimator.evaluate(_eval_input_fn)
    print(json.dumps({"global_step": int(metrics["global_step"]),
                      "loss": float(metrics["loss"]),
                      "returned": result is not None}))


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--mode", choices=("between_graph", "train_and_evaluate"),
                      required=True)
  parser.add_argument("--model_dir", required=True)
  parser.add_argument("--max_steps", type=int, default=40)
  args = parser.parse_args()
  {"between_graph": between_graph,
   "train_and_evaluate": train_and_evaluate}[args.mode](args.model_dir, args.max_steps)


if __name__ == "__main__":
  main()
