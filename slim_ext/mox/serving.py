"""mox.ExportSpec, mox.ExportKeys: the TF Serving model mox.run exports.

MoXing's ``mox.run(..., export_model=mox.ExportKeys.TF_SERVING)`` ends a run
(training, or evaluation) by exporting the model: it calls model_fn once more,
with ``run_mode=mox.ModeKeys.EXPORT`` and placeholders in place of input_fn's
tensors, and writes the tensors the ModelSpec's
``export_spec=mox.ExportSpec(inputs_dict={...}, outputs_dict={...})`` names,
with the run's last checkpoint, as a SavedModel TF Serving loads:
``<log_dir>/<version>/saved_model.pb`` and its ``variables/``. The version is
the next whole number under log_dir (1, 2, ...) unless the ExportSpec names
one. The placeholders have input_fn's dtypes and shapes as model_fn saw them
in the run (an automatic batch's dimension is None), and the SavedModel's
``serving_default`` signature maps inputs_dict's names to its tensors and
outputs_dict's likewise; ``tf.saved_model.load`` (eager), ``saved_model_cli``
and the TFLite converter take it.
"""
from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, Mapping, Optional, Union

import tensorflow.compat.v1 as tf

from slim_ext import run_inputs
from slim_ext.model_spec import ModeKeys

SIGNATURE = "serving_default"


class ExportKeys:
  """What ``mox.run(export_model=...)`` exports.

  Attributes:
    TF_SERVING: a SavedModel with a ``serving_default`` predict signature.
  """
  TF_SERVING = "TF_SERVING"


_EXPORT_KEYS = (ExportKeys.TF_SERVING,)


class ExportSpec:
  """The tensors of an exported model: ``mox.ExportSpec(inputs_dict, outputs_dict)``.

  Attributes:
    inputs_dict: name -> tensor the served model is fed (model_fn's inputs,
      or tensors computed from them).
    outputs_dict: name -> tensor the served model returns.
    version: the export's directory under log_dir: -1 (the default) for the
      next whole number (1 when there is none), else a number or a name.

  Raises:
    TypeError: inputs_dict or outputs_dict is not a non-empty dict of
      name -> graph tensor; the message names the entry.
  """

  def __init__(self, inputs_dict: Mapping[str, tf.Tensor],
               outputs_dict: Mapping[str, tf.Tensor],
               version: Union[int, str] = -1):
    self.inputs_dict = _checked_tensors(inputs_dict, "inputs_dict")
    self.outputs_dict = _checked_tensors(outputs_dict, "outputs_dict")
    self.version = version


def _checked_tensors(tensors: Any, field: str) -> Dict[str, tf.Tensor]:
  if not isinstance(tensors, Mapping) or not tensors:
    raise TypeError(f"ExportSpec.{field}: expected a dict of name -> tensor, "
                    f"got {tensors!r}.")
  for name, tensor in tensors.items():
    if not isinstance(name, str) or not name:
      raise TypeError(f"ExportSpec.{field}: key {name!r} is not a non-empty "
                      "string; the served model's signature names it.")
    if not isinstance(tensor, tf.Tensor) or getattr(tensor, "graph", None) is None:
      raise TypeError(f"ExportSpec.{field}[{name!r}]: expected a tensor of "
                      f"model_fn's graph, got {tensor!r}.")
  return dict(tensors)


def check_export_key(export_model: Any) -> None:
  """Raises ValueError unless `export_model` is one of ExportKeys."""
  if export_model not in _EXPORT_KEYS:
    raise ValueError(f"mox.run(export_model={export_model!r}): expected "
                     f"{' or '.join('mox.ExportKeys.' + k for k in _EXPORT_KEYS)}.")


def export_dir(base_dir: str, version: Union[int, str]) -> str:
  """Where an ExportSpec of `version` is written under `base_dir`.

  Args:
    base_dir: the run's log_dir.
    version: -1 for the next whole number, else a number or a name.

  Returns:
    ``base_dir/<version>``.

  Raises:
    ValueError: that directory exists already.
  """
  if version == -1:
    numbers = [int(name) for name in (tf.io.gfile.listdir(base_dir)
                                      if tf.io.gfile.isdir(base_dir) else [])
               if re.fullmatch(r"\d+/?", name)]
    version = max(numbers, default=0) + 1
  path = os.path.join(base_dir, str(version))
  if tf.io.gfile.exists(path):
    raise ValueError(f"ExportSpec(version={version!r}): the export directory "
                     f"{path} exists already; give another version, or -1 "
                     "for the next number.")
  return path


def export_model(input_fn: Callable[[], Any], model_fn: Callable[[Any], Any],
                 batch_size: Optional[int], checkpoint: str,
                 base_dir: str) -> str:
  """Builds model_fn in EXPORT mode and saves it with `checkpoint`'s values.

  Args:
    input_fn: ``input_fn()`` -> the run's tensors or Dataset; called in a
      graph of its own (nothing of it runs) for their dtypes and shapes.
    model_fn: ``model_fn(inputs)`` -> a ModelSpec with ``export_spec``, built
      on placeholders of those dtypes and shapes.
    batch_size: the run's automatic batch (None: input_fn gives batches).
    checkpoint: the checkpoint prefix whose values are exported.
    base_dir: the export goes to ``base_dir/<ExportSpec.version>``.

  Returns:
    The SavedModel's directory.

  Raises:
    ValueError: model_fn returned no export_spec, or the export directory
      exists already.
  """
  with tf.Graph().as_default():
    structure = run_inputs.batched_inputs(lambda unused_mode: input_fn(),
                                          ModeKeys.TRAIN, batch_size)
    flat = [(t.dtype, t.shape) for t in tf.nest.flatten(structure)]
  with tf.Graph().as_default() as graph:
    placeholders = [tf.placeholder(dtype, shape, name=f"input_{index}")
                    for index, (dtype, shape) in enumerate(flat)]
    spec = model_fn(tf.nest.pack_sequence_as(structure, placeholders))
    export_spec = getattr(spec, "export_spec", None)
    if export_spec is None:
      raise ValueError(
          "mox.run(export_model=...): model_fn returned no export_spec in "
          "run_mode EXPORT; return mox.ModelSpec(..., export_spec="
          "mox.ExportSpec(inputs_dict={...}, outputs_dict={...})).")
    for field in ("inputs_dict", "outputs_dict"):
      for name, tensor in getattr(export_spec, field).items():
        if tensor.graph is not graph:
          raise ValueError(f"ExportSpec.{field}[{name!r}]: {tensor.name} "
                           "belongs to another graph; build it inside model_fn.")
    path = export_dir(base_dir, export_spec.version)
    signature = tf.saved_model.signature_def_utils.predict_signature_def(
        export_spec.inputs_dict, export_spec.outputs_dict)
    with tf.Session(graph=graph) as sess:
      variables = tf.global_variables()
      if variables:
        tf.train.Saver(variables).restore(sess, checkpoint)
      builder = tf.saved_model.Builder(path)
      builder.add_meta_graph_and_variables(
          sess, [tf.saved_model.tag_constants.SERVING],
          signature_def_map={SIGNATURE: signature},
          main_op=tf.tables_initializer(), clear_devices=True)
      builder.save()
  return path
