"""A slim network and its TF1 checkpoint as a TensorFlow 2 SavedModel.

``python -m slim_ext.export`` (or ``export_saved_model`` from Python) builds a
network of a ported tree's ``nets_factory`` (or any ``network_fn``) in inference
mode inside ``tf.compat.v1.wrap_function``, gives every variable its value from
a checkpoint by its TF1 name (one TF 1.x wrote, or the ported training script),
and saves a TF 2 SavedModel whose ``serving_default`` signature takes

  images          float32 [batch, size, size, channels], the network's input; or,
                  with a preprocessing, uint8 images of --input_size, which the
                  training tree's own evaluation preprocessing turns into it

and returns ``logits`` (float32 [batch, classes]), ``probabilities`` (their
softmax) and ``classes`` (int64 [batch], the top-1). What takes a TF 2
SavedModel takes it: ``tf.saved_model.load`` (eager), ``saved_model_cli run``,
TF Serving, ``tf.lite.TFLiteConverter.from_saved_model``.

From a ported tree (its directory is where ``nets`` is imported from)::

  python -m slim_ext.export --tree ported --model_name lenet --num_classes 10 \\
      --checkpoint_path train --export_dir saved_model \\
      --preprocessing_name lenet --input_size 32
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Callable, List, Optional, Sequence

import slim_ext  # noqa: F401  pylint: disable=unused-import  (tf_slim on TF 2.16+)
import tensorflow as tf

SIGNATURE = "serving_default"
INPUT = "images"


def export_saved_model(network_fn: Callable, checkpoint_path: str, export_dir: str,
                       image_size: int, channels: int = 3,
                       preprocessing_fn: Optional[Callable] = None,
                       input_size: Optional[int] = None) -> str:
  """Saves `network_fn` with the values of `checkpoint_path` as a SavedModel.

  Args:
    network_fn: builds the network in inference mode: ``network_fn(images)``
      returns the logits, or ``(logits, end_points)`` as a nets_factory's does;
      logits [batch, 1, 1, classes] are served as [batch, classes].
    checkpoint_path: a checkpoint, or a directory (its latest checkpoint).
    export_dir: where the SavedModel is written.
    image_size: height and width of the network's input.
    channels: channels of the input images.
    preprocessing_fn: when given, ``preprocessing_fn(image, height, width)`` of
      one uint8 image (a slim preprocessing_factory's, is_training=False); the
      signature then takes uint8 images and preprocesses each.
    input_size: height and width of those uint8 images (default: image_size).

  Returns:
    export_dir.

  Raises:
    ValueError: if the checkpoint lacks a variable of the network or holds it
      with another shape, or if there is no checkpoint at checkpoint_path.
  """
  if preprocessing_fn is None:
    spec = tf.TensorSpec([None, image_size, image_size, channels], tf.float32, name=INPUT)
  else:
    size = input_size or image_size
    spec = tf.TensorSpec([None, size, size, channels], tf.uint8, name=INPUT)

  def serve(images):
    if preprocessing_fn is not None:
      images = tf.vectorized_map(
          lambda image: preprocessing_fn(image, image_size, image_size), images)
    logits = network_fn(images)
    if isinstance(logits, tuple):
      logits = logits[0]
    if logits.shape.rank == 4:  # [batch, 1, 1, classes], as tf_slim's ResNets give them
      logits = tf.squeeze(logits, axis=[1, 2])
    return {"logits": logits, "probabilities": tf.nn.softmax(logits),
            "classes": tf.argmax(logits, axis=-1)}

  graph_function = tf.compat.v1.wrap_function(serve, [spec])
  restore_by_name(graph_function.variables, checkpoint_path)
  served = _Served(graph_function, spec)
  tf.saved_model.save(served, export_dir, signatures={SIGNATURE: served.serve})
  return export_dir


class _Served(tf.Module):
  """The graph function and its variables, as a SavedModel holds them."""

  def __init__(self, graph_function, spec):
    super().__init__()
    self.network_variables = list(graph_function.variables)
    self.serve = tf.function(graph_function, input_signature=[spec])


def restore_by_name(variables: Sequence[tf.Variable], checkpoint_path: str) -> None:
  """Assigns each variable the checkpoint's value of its TF1 name.

  Args:
    variables: the variables to restore (``v.name`` is ``<op name>:0``).
    checkpoint_path: a checkpoint, or a directory (its latest checkpoint).

  Raises:
    ValueError: naming every variable the checkpoint lacks or holds with
      another shape, or if there is no checkpoint at checkpoint_path.
  """
  checkpoint = checkpoint_path
  if os.path.isdir(checkpoint_path):
    checkpoint = tf.train.latest_checkpoint(checkpoint_path)
    if checkpoint is None:
      raise ValueError(f"no checkpoint in {checkpoint_path}")
  reader = tf.train.load_checkpoint(checkpoint)
  shapes = reader.get_variable_to_shape_map()
  named = [(v, v.name.split(":")[0]) for v in variables]
  missing = sorted(n for _, n in named if n not in shapes)
  reshaped = sorted(f"{n} {shapes[n]} (the network's: {v.shape.as_list()})"
                    for v, n in named if n in shapes and shapes[n] != v.shape.as_list())
  if missing or reshaped:
    raise ValueError(
        f"{checkpoint} does not fit the network: "
        + "; ".join(part for part in (
            missing and f"{len(missing)} variables missing: {', '.join(missing[:10])}",
            reshaped and f"{len(reshaped)} with another shape: {', '.join(reshaped[:10])}")
                    if part))
  for variable, name in named:
    variable.assign(reader.get_tensor(name))


_DESCRIPTION = """\
Saves a slim network with the values of a TF1 checkpoint as a TensorFlow 2
SavedModel. Its 'serving_default' signature takes 'images' (float32 [batch, size,
size, channels], or uint8 images of --input_size with --preprocessing_name) and
returns 'logits', 'probabilities' and 'classes' (the top-1). It loads with
tf.saved_model.load, runs with saved_model_cli run and TF Serving, and converts
with tf.lite.TFLiteConverter.from_saved_model. The network is built in inference
mode (batch norm's moving averages, no dropout) and every variable is restored by
its TF1 name: the export fails, naming them, if the checkpoint lacks any."""


def _parser() -> argparse.ArgumentParser:
  parser = argparse.ArgumentParser(
      prog="python -m slim_ext.export",
      formatter_class=argparse.RawDescriptionHelpFormatter,
      description=_DESCRIPTION,
      epilog="Example, from the directory that holds the ported tree:\n\n"
             "  python -m slim_ext.export --tree ported --model_name lenet --num_classes 10 \\\n"
             "      --checkpoint_path train --export_dir saved_model \\\n"
             "      --preprocessing_name lenet --input_size 32\n\n"
             "Then: saved_model_cli show --dir saved_model --all")
  network = parser.add_argument_group("the network")
  network.add_argument("--tree", default=".",
                       help="the ported tree the modules below are imported from "
                            "(default: the current directory)")
  network.add_argument("--model_name", help="a name of the nets factory's networks_map")
  network.add_argument("--nets_factory", default="nets.nets_factory",
                       help="the module with get_network_fn(name, num_classes, "
                            "is_training=...) (default: nets.nets_factory)")
  network.add_argument("--network_fn", metavar="MODULE:FUNCTION",
                       help="instead of --model_name: a function images -> logits "
                            "(or (logits, end_points)) that builds the network for inference")
  network.add_argument("--num_classes", type=int,
                       help="classes the network was trained for (with --model_name)")
  network.add_argument("--image_size", type=int,
                       help="the network's input size (default: its default_image_size)")
  network.add_argument("--channels", type=int, default=3, help="image channels (default 3)")
  parser.add_argument("--checkpoint_path", required=True,
                      help="a TF1 name-based checkpoint, or a training directory "
                           "(its latest checkpoint)")
  parser.add_argument("--export_dir", required=True, help="where to write the SavedModel")
  inputs = parser.add_argument_group(
      "preprocessing (optional): serve uint8 images, preprocessed as the tree evaluates")
  inputs.add_argument("--preprocessing_name",
                      help="a name of the preprocessing factory (usually the model's)")
  inputs.add_argument("--preprocessing_factory", default="preprocessing.preprocessing_factory",
                      help="the module with get_preprocessing(name, is_training=...) "
                           "(default: preprocessing.preprocessing_factory)")
  inputs.add_argument("--input_size", type=int,
                      help="height and width of the uint8 images served "
                           "(default: the network's input size)")
  return parser


def _network_fn(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Callable:
  if bool(args.model_name) == bool(args.network_fn):
    parser.error("give --model_name (with --num_classes) or --network_fn")
  if args.network_fn:
    module, _, function = args.network_fn.partition(":")
    if not function:
      parser.error(f"--network_fn {args.network_fn}: expected MODULE:FUNCTION")
    return getattr(importlib.import_module(module), function)
  if args.num_classes is None:
    parser.error("--model_name needs --num_classes")
  factory = importlib.import_module(args.nets_factory)
  return factory.get_network_fn(args.model_name, num_classes=args.num_classes,
                                is_training=False)


def main(argv: Optional[List[str]] = None) -> int:
  """The command line; returns the exit status."""
  parser = _parser()
  args = parser.parse_args(argv)
  tree = os.path.abspath(args.tree)
  sys.path.insert(0, tree)
  try:
    network_fn = _network_fn(args, parser)
    image_size = args.image_size or getattr(network_fn, "default_image_size", None)
    if image_size is None:
      parser.error("the network has no default_image_size: give --image_size")
    preprocessing_fn = None
    if args.preprocessing_name:
      factory = importlib.import_module(args.preprocessing_factory)
      preprocessing_fn = factory.get_preprocessing(args.preprocessing_name, is_training=False)
    export_saved_model(network_fn, args.checkpoint_path, args.export_dir, image_size,
                       channels=args.channels, preprocessing_fn=preprocessing_fn,
                       input_size=args.input_size)
  except ValueError as error:
    print(f"slim_ext.export: {error}", file=sys.stderr)
    return 1
  finally:
    sys.path.remove(tree)
  print(f"SavedModel written to {os.path.abspath(args.export_dir)} "
        f"(signature '{SIGNATURE}': {INPUT} -> logits, probabilities, classes)")
  return 0



if __name__ == "__main__":
  sys.exit(main())
