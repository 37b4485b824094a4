"""``slim_ext.run`` in EVAL: restore a checkpoint, average log_info over the data once."""
from __future__ import annotations

from typing import Dict, Optional

import tensorflow.compat.v1 as tf
import tf_slim as slim

from slim_ext.model_spec import ModeKeys
from slim_ext.run_console import console
from slim_ext.run_inputs import InputFn
from slim_ext.run_inputs import ModelFn
from slim_ext.run_inputs import batched_inputs
from slim_ext.run_inputs import checked_spec
from slim_ext.run_inputs import checkpoint_file


def evaluate(input_fn: InputFn, model_fn: ModelFn, log_dir: Optional[str],
             max_number_of_steps: int, checkpoint_path: Optional[str],
             batch_size: int) -> Dict[str, float]:
  if not checkpoint_path:
    raise ValueError("checkpoint_path: required in EVAL; pass the training "
                     "log_dir or a checkpoint prefix.")
  checkpoint = checkpoint_file(checkpoint_path)
  with tf.Graph().as_default() as graph:
    # Restored from the checkpoint, so summaries carry the training step.
    tf.train.get_or_create_global_step()
    inputs = batched_inputs(input_fn, ModeKeys.EVAL, batch_size)
    spec = checked_spec(model_fn, inputs, ModeKeys.EVAL, graph)
    values = dict(spec.log_info)
    if spec.loss is not None:
      values.setdefault("loss", spec.loss)
    # Weighting each batch by its size makes the streaming mean the mean over
    # examples, a short last batch included.
    examples = tf.shape(tf.nest.flatten(inputs)[0])[:1]
    weight = tf.cast(tf.reduce_prod(examples), tf.float32)
    means, updates = {}, []
    with tf.name_scope("eval_means"):
      for name, value in values.items():
        mean, update = tf.metrics.mean(value, weights=weight)
        means[name] = mean
        updates.append(update)
    summary_op = None
    if log_dir:
      summary_op = tf.summary.merge(
          [tf.summary.scalar(name, mean, collections=[])
           for name, mean in means.items()])
    console().info("run: EVAL of %s.", checkpoint)
    results = slim.evaluation.evaluate_once(
        master="", checkpoint_path=checkpoint, logdir=log_dir,
        num_evals=max_number_of_steps or None, eval_op=updates,
        final_op=means, summary_op=summary_op)
  results = {name: float(value) for name, value in results.items()}
  console().info("run: EVAL of %s: %s", checkpoint, ", ".join(
      f"{name} = {value:.4f}" for name, value in results.items()))
  return results
