"""What ``slim_ext.run`` takes in, checked: input_fn's tensors (batched, split per
clone), model_fn's ModelSpec, and a checkpoint path.

Each check names the function or argument at fault and what to give instead, at graph
construction, not in the middle of training.
"""
from __future__ import annotations

from typing import Any, Callable, List

import tensorflow.compat.v1 as tf

from slim_ext.model_spec import ModelSpec
from slim_ext.model_spec import ModeKeys

InputFn = Callable[..., Any]
ModelFn = Callable[..., ModelSpec]


def batched_inputs(input_fn: InputFn, run_mode: ModeKeys, batch_size: int) -> Any:
  """Calls input_fn and returns its tensors, checked, batched if asked to.

  With `batch_size`, input_fn gives single examples: a Dataset is batched
  with ``Dataset.batch``, tensors with ``tf.train.batch`` (a queue the
  training and evaluation loops start the runners of). A last batch may be
  short.
  """
  inputs = input_fn(run_mode)
  from_dataset = isinstance(inputs, tf.data.Dataset)
  if from_dataset:
    if batch_size:
      inputs = inputs.batch(batch_size)
    inputs = tf.data.make_one_shot_iterator(inputs).get_next()
  flat = tf.nest.flatten(inputs)
  for tensor in flat:
    if not isinstance(tensor, tf.Tensor):
      raise TypeError(
          f"input_fn returned a {type(tensor).__name__} among its outputs; "
          "return a tensor, a list of tensors (e.g. iterator.get_next()) or "
          "a tf.data.Dataset.")
  if not flat:
    raise ValueError("input_fn returned no tensors.")
  if batch_size and not from_dataset:
    undefined = [t for t in flat if not t.shape.is_fully_defined()]
    if undefined:
      raise ValueError(
          f"input_fn output {undefined[0].name} has shape "
          f"{undefined[0].shape}; batching single examples (batch_size) "
          "needs every shape known: "
          "set_shape() them, or batch in input_fn and leave batch_size out.")
    batched = tf.train.batch(flat, batch_size, allow_smaller_final_batch=True)
    # A list of one tensor comes back as the tensor.
    inputs = tf.nest.pack_sequence_as(inputs, tf.nest.flatten(batched))
  return inputs


def split_batch(inputs: Any, num_clones: int) -> List[Any]:
  """Splits every input along its first (batch) dimension, one part per clone.

  Clone i gets rows [i*n//k, (i+1)*n//k) of a batch of n, so parts differ by
  at most one row and a short last batch is still shared out.
  """
  if num_clones == 1:
    return [inputs]
  flat = tf.nest.flatten(inputs)
  for tensor in flat:
    if tensor.shape.rank == 0:
      raise ValueError(
          f"input_fn output {tensor.name} is a scalar; with {num_clones} "
          "clones run() splits every input along its first (batch) "
          "dimension, so each must have one.")
  batch_size = tf.shape(flat[0], out_type=tf.int32)[0]
  parts = []
  for index in range(num_clones):
    with tf.name_scope(f"split_for_clone_{index}"):
      begin = batch_size * index // num_clones
      end = batch_size * (index + 1) // num_clones
      parts.append(tf.nest.pack_sequence_as(
          inputs, [tensor[begin:end] for tensor in flat]))
  return parts


def checked_spec(model_fn: ModelFn, inputs: Any, run_mode: ModeKeys,
                 graph: tf.Graph) -> ModelSpec:
  """Calls model_fn and checks what it returned for `run_mode`."""
  spec = model_fn(inputs, run_mode)
  if not isinstance(spec, ModelSpec):
    raise TypeError(f"model_fn returned {type(spec).__name__}; return "
                    "slim_ext.ModelSpec(loss=..., log_info={...}).")
  named = {"ModelSpec.loss": spec.loss,
           **{f"ModelSpec.log_info[{name!r}]": value
              for name, value in spec.log_info.items()}}
  for field, tensor in named.items():
    if tensor is not None and tensor.graph is not graph:
      raise ValueError(f"{field}: {tensor.name} belongs to another graph; "
                       "build it inside model_fn from its inputs.")
  if run_mode == ModeKeys.TRAIN and spec.loss is None:
    raise ValueError("ModelSpec.loss: None, but run_mode is TRAIN; return "
                     "ModelSpec(loss=<scalar loss tensor>, ...) to train.")
  if run_mode == ModeKeys.EVAL and spec.loss is None and not spec.log_info:
    raise ValueError("ModelSpec: neither loss nor log_info is set, so EVAL "
                     "has nothing to average; set log_info (e.g. "
                     "{'accuracy': ...}).")
  return spec


def checkpoint_file(checkpoint_path: str) -> str:
  """A checkpoint prefix: `checkpoint_path` itself, or a directory's latest."""
  if tf.io.gfile.isdir(checkpoint_path):
    latest = tf.train.latest_checkpoint(checkpoint_path)
    if latest is None:
      raise ValueError(
          f"checkpoint_path: {checkpoint_path} is a directory with no "
          "checkpoint in it; train into it first, or pass a checkpoint "
          "prefix such as <dir>/model.ckpt-1000.")
    return latest
  if not tf.io.gfile.exists(checkpoint_path + ".index"):
    raise ValueError(
        f"checkpoint_path: no checkpoint {checkpoint_path} (looked for "
        f"{checkpoint_path}.index); pass a training log_dir or a checkpoint "
        "prefix such as <dir>/model.ckpt-1000.")
  return checkpoint_path
