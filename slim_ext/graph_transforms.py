"""Stand-in for ``tensorflow.tools.graph_transforms``, which TensorFlow 2 does not ship.

TF1's exporters (the Object Detection API's TFLite SSD export, for one) import
``TransformGraph`` from it to run the Graph Transform Tool on a frozen graph.
``slimport rewrite`` points that import here. The one transform such exporters use to
cut a graph down to its outputs, ``strip_unused_nodes``, is done here as TensorFlow
1.15's C++ transform does it (the same nodes in the same order; compared with 1.15's
output in tests/slim_ext/test_graph_transforms.py); any other transform raises
RemovedInTF2Error, naming it and what to use instead.
"""
from __future__ import annotations

from typing import Callable, Dict, Sequence

from tensorflow.core.framework import graph_pb2
from tensorflow.python.framework import errors

from slim_ext.removed import RemovedInTF2Error

_ALTERNATIVE = (
    "the TFLite converter (tf.lite.TFLiteConverter, whose optimizations replace most "
    "graph transforms), or the transform_graph binary built from TensorFlow 1.15's "
    "sources for the rest")
# Every transform TensorFlow 1.15's tool registered: a name outside this set is an
# InvalidArgumentError there, as it is here.
_TF1_TRANSFORMS = frozenset((
    "add_default_attributes", "backport_concatv2", "backport_tensor_array_v3",
    "flatten_atrous_conv", "fold_batch_norms", "fold_constants", "fold_old_batch_norms",
    "freeze_requantization_ranges", "fuse_convolutions", "fuse_pad_and_conv",
    "fuse_quantized_convolution", "fuse_remote_graph", "fuse_resize_and_conv",
    "fuse_resize_pad_and_conv", "insert_logging", "merge_duplicate_nodes",
    "obfuscate_names", "place_remote_graph_arguments", "quantize_nodes",
    "quantize_weights", "remove_attribute", "remove_control_dependencies",
    "remove_device", "remove_nodes", "rename_attribute", "rename_node", "rename_op",
    "round_weights", "set_device", "sort_by_execution_order", "sparsify_gather",
    "strip_unused_nodes"))


def _node_name(tensor_name: str) -> str:
  """``^name`` and ``name:1`` name the node ``name``, as the tool's NodeNameFromInput."""
  return tensor_name.lstrip("^").split(":", 1)[0]


def _strip_unused_nodes(graph_def: graph_pb2.GraphDef, inputs: Sequence[str],
                        outputs: Sequence[str]) -> graph_pb2.GraphDef:
  """The nodes the outputs need (data and control inputs), in the graph's order.

  The walk stops at ``inputs``. As TF 1.15's transform, the result holds nodes only (no
  ``versions``, no ``library``).
  """
  nodes = {node.name: node for node in graph_def.node}
  input_names = {_node_name(name) for name in inputs}
  for name in input_names:
    if name in nodes and nodes[name].op != "Placeholder":
      raise RemovedInTF2Error(
          f"TransformGraph's strip_unused_nodes with input {name!r}, a {nodes[name].op} "
          "node, would replace it with a placeholder built from the transform's type and "
          f"shape parameters, which this stand-in does not do; use {_ALTERNATIVE}")
  required = set()
  pending = [_node_name(name) for name in outputs]
  while pending:
    name = pending.pop()
    if name in required:
      continue
    required.add(name)
    if name in input_names:
      continue
    if name not in nodes:
      raise errors.InvalidArgumentError(None, None, f"Input node {name} not found in graph")
    pending.extend(_node_name(tensor) for tensor in nodes[name].input)
  stripped = graph_pb2.GraphDef()
  stripped.node.extend(node for node in graph_def.node if node.name in required)
  return stripped


_DONE_HERE: Dict[str, Callable[..., graph_pb2.GraphDef]] = {
    "strip_unused_nodes": _strip_unused_nodes,
}


def TransformGraph(input_graph_def: graph_pb2.GraphDef, inputs: Sequence[str],  # noqa: N802
                   outputs: Sequence[str], transforms: Sequence[str]) -> graph_pb2.GraphDef:
  """Runs ``transforms`` on a copy of ``input_graph_def``, one after another.

  Args:
    input_graph_def: the GraphDef to transform (left unchanged).
    inputs: the graph's input tensor names (``name`` or ``name:N``).
    outputs: the output tensor names.
    transforms: transform names, as TF 1.15's tool takes them.

  Returns:
    The transformed GraphDef.

  Raises:
    InvalidArgumentError: a transform TF 1.15 did not have either, or an output the
      graph has no node for (TF 1.15's errors).
    RemovedInTF2Error: a transform, or a parameter of one, this stand-in does not do.
  """
  graph_def = graph_pb2.GraphDef()
  graph_def.CopyFrom(input_graph_def)
  for transform in transforms:
    name = transform.split("(", 1)[0].strip()
    if name not in _TF1_TRANSFORMS:
      raise errors.InvalidArgumentError(None, None, f"Transform '{name}' not recognized.")
    if name not in _DONE_HERE or "(" in transform:
      raise RemovedInTF2Error(
          f"tensorflow.tools.graph_transforms.TransformGraph's {transform!r} is gone from "
          f"TensorFlow 2 (this stand-in does {', '.join(sorted(_DONE_HERE))} without "
          f"parameters); use {_ALTERNATIVE} instead (slimport rewrote the import to it).")
    graph_def = _DONE_HERE[name](graph_def, inputs, outputs)
  return graph_def
