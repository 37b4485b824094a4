"""tf.contrib.gan.eval's frozen-graph helpers, which TF-GAN dropped, as TF 1.14 defined them.

TF-GAN (where the rest of ``tf.contrib.gan.eval`` went: ``tensorflow_gan.eval``) runs
its classifiers from TF-Hub; TF 1.x's contrib.gan ran them from a frozen ``GraphDef``
imported into the caller's graph. These are TF 1.14's functions for that, on
``tf.compat.v1``: load the GraphDef (from a file, TensorFlow's own data files, or a
tarball on the web), import it with an input mapped to the caller's tensor, and the
Inception preprocessing that maps [0, 255] pixels to [-1, 1].

Example:
  graph_def = get_graph_def_from_disk('/tmp/classify_mnist_graph_def.pb')
  logits = run_image_classifier(images, graph_def, 'inputs:0', 'logits:0')
"""
import os
import sys
import tarfile
import urllib.request
from typing import Any, List, Optional, Union

import tensorflow as tf

INCEPTION_DEFAULT_IMAGE_SIZE = 299


def preprocess_image(images: Any, height: int = INCEPTION_DEFAULT_IMAGE_SIZE,
                     width: int = INCEPTION_DEFAULT_IMAGE_SIZE,
                     scope: Optional[str] = None) -> Any:
  """Resizes images bilinearly and maps [0, 255] values to [-1, 1].

  Args:
    images: a 3-D or 4-D tensor of images, values in [0, 255].
    height: the height of the resized images.
    width: the width of the resized images.
    scope: the name scope (default ``preprocess``).

  Returns:
    A float tensor of the resized images (3-D for a 3-D ``images``), values in [-1, 1].
  """
  is_single = images.shape.ndims == 3
  with tf.compat.v1.name_scope(scope, "preprocess", [images, height, width]):
    if not images.dtype.is_floating:
      images = tf.cast(images, tf.float32)
    if is_single:
      images = tf.expand_dims(images, axis=0)
    resized = tf.compat.v1.image.resize_bilinear(images, [height, width])
    resized = (resized - 128.0) / 128.0
    if is_single:
      resized = tf.squeeze(resized, axis=0)
    return resized


def get_graph_def_from_disk(filename: str) -> Any:
  """The GraphDef proto in the file ``filename`` (binary)."""
  with tf.io.gfile.GFile(filename, "rb") as f:
    return tf.compat.v1.GraphDef.FromString(f.read())


def get_graph_def_from_resource(filename: str) -> Any:
  """The GraphDef proto in TensorFlow's data file ``filename`` (relative to tensorflow/)."""
  return tf.compat.v1.GraphDef.FromString(
      tf.compat.v1.resource_loader.load_resource(filename))


def get_graph_def_from_url_tarball(url: str, filename: str,
                                   tar_filename: Optional[str] = None) -> Any:
  """The GraphDef proto in the file ``filename`` of the gzipped tarball at ``url``.

  Args:
    url: where the tarball is.
    filename: the GraphDef's file inside the tarball.
    tar_filename: where to keep the download; an existing file there is used as it
      is (None: always download, to a temporary file).

  Returns:
    The GraphDef.
  """
  if not (tar_filename and os.path.exists(tar_filename)):

    def _progress(count: int, block_size: int, total_size: int) -> None:
      sys.stdout.write("\r>> Downloading %s %.1f%%" % (
          url, float(count * block_size) / float(total_size) * 100.0))
      sys.stdout.flush()

    tar_filename, _ = urllib.request.urlretrieve(url, tar_filename, _progress)
  with tarfile.open(tar_filename, "r:gz") as tar:
    proto = tar.extractfile(filename).read()
  return tf.compat.v1.GraphDef.FromString(proto)


def run_image_classifier(tensor: Any, graph_def: Any, input_tensor: str,
                         output_tensor: Union[str, List[str]],
                         scope: str = "RunClassifier") -> Any:
  """Imports the frozen network ``graph_def`` with ``tensor`` as its input.

  Args:
    tensor: the input tensor.
    graph_def: a GraphDef proto.
    input_tensor: the name of the input tensor in ``graph_def``.
    output_tensor: a tensor name, or a list of them, in ``graph_def``.
    scope: the name scope the network is imported under.

  Returns:
    The output tensor for a name, a list of them for a list.

  Raises:
    ValueError: ``input_tensor`` or ``output_tensor`` is not in ``graph_def``.
  """
  is_singleton = isinstance(output_tensor, str)
  outputs = tf.compat.v1.import_graph_def(
      graph_def, {input_tensor: tensor},
      [output_tensor] if is_singleton else output_tensor, name=scope)
  return outputs[0] if is_singleton else outputs
