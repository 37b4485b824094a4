"""MNIST from the four standard idx .gz files, as TF1's tutorial reader gave it.

The port target of ``tensorflow.examples.tutorials.mnist.input_data`` (gone
from TensorFlow 2): ``read_data_sets(train_dir, one_hot=True)`` returns
``Datasets(train, validation, test)``, each a ``DataSet`` with ``images``,
``labels``, ``num_examples``, ``epochs_completed`` and ``next_batch``, with
the same values, dtypes, shapes and batch order (for a given seed) as TF1's.

One difference: nothing is downloaded. The four files must already be in
``train_dir``::

  train-images-idx3-ubyte.gz  train-labels-idx1-ubyte.gz
  t10k-images-idx3-ubyte.gz   t10k-labels-idx1-ubyte.gz

and a missing one is a FileNotFoundError naming every file that is missing.
Paths go through ``tf.io.gfile``, so any file system TensorFlow reads works.
"""
from __future__ import annotations

import collections
import gzip
from typing import Any, Optional, Sequence, Tuple

import numpy as np
import tensorflow as tf

TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"
FILES = (TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)
# Where TF1's reader downloaded from; slim_ext only names it in errors.
DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
NUM_CLASSES = 10
# idx magic numbers: 0x0803 (unsigned bytes, 3 dimensions) for images,
# 0x0801 (unsigned bytes, 1 dimension) for labels.
IMAGES_MAGIC = 2051
LABELS_MAGIC = 2049
# What next_batch(fake_data=True) returns: an image of ones, class 0.
_FAKE_PIXELS = 28 * 28

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def _read_uint32(stream) -> int:
  return int(np.frombuffer(stream.read(4), dtype=np.dtype(">u4"))[0])


def _check_magic(stream, expected: int, what: str, name: str) -> None:
  magic = _read_uint32(stream)
  if magic != expected:
    raise ValueError(f"Invalid magic number {magic} in MNIST {what} file: "
                     f"{name} (expected {expected}).")


def extract_images(f) -> np.ndarray:
  """The images of an idx3 .gz stream as uint8 [count, rows, columns, 1].

  Args:
    f: a binary file object positioned at the start of the .gz data.

  Returns:
    The images.

  Raises:
    ValueError: the stream is not an MNIST image file.
  """
  name = getattr(f, "name", "<stream>")
  with gzip.GzipFile(fileobj=f) as stream:
    _check_magic(stream, IMAGES_MAGIC, "image", name)
    count, rows, columns = (_read_uint32(stream) for _ in range(3))
    pixels = np.frombuffer(stream.read(count * rows * columns), dtype=np.uint8)
  if pixels.size != count * rows * columns:
    raise ValueError(f"{name}: truncated; the header promises {count} images "
                     f"of {rows}x{columns}.")
  return pixels.reshape(count, rows, columns, 1)


def dense_to_one_hot(labels_dense: np.ndarray, num_classes: int) -> np.ndarray:
  """Class indices [n] -> one-hot float64 rows [n, num_classes]."""
  one_hot = np.zeros((labels_dense.shape[0], num_classes))
  one_hot[np.arange(labels_dense.shape[0]), labels_dense.ravel()] = 1
  return one_hot


def extract_labels(f, one_hot: bool = False,
                   num_classes: int = NUM_CLASSES) -> np.ndarray:
  """The labels of an idx1 .gz stream: uint8 [count], or one-hot float64.

  Args:
    f: a binary file object positioned at the start of the .gz data.
    one_hot: return [count, num_classes] one-hot rows instead of indices.
    num_classes: width of the one-hot rows.

  Returns:
    The labels.

  Raises:
    ValueError: the stream is not an MNIST label file.
  """
  name = getattr(f, "name", "<stream>")
  with gzip.GzipFile(fileobj=f) as stream:
    _check_magic(stream, LABELS_MAGIC, "label", name)
    count = _read_uint32(stream)
    labels = np.frombuffer(stream.read(count), dtype=np.uint8)
  if labels.size != count:
    raise ValueError(f"{name}: truncated; the header promises {count} labels.")
  return dense_to_one_hot(labels, num_classes) if one_hot else labels


def _numpy_dtype(dtype: Any) -> np.dtype:
  """tf.float32, np.float32, "float32", ... -> the numpy dtype."""
  return np.dtype(getattr(dtype, "as_numpy_dtype", dtype))


class DataSet:
  """One split: images, labels and a shuffling batch iterator over them.

  Attributes:
    images: float32 in [0, 1] (or uint8 0-255), [n, 784] when reshaped,
      else [n, 28, 28, 1].
    labels: uint8 [n], or float64 one-hot [n, 10].
    num_examples: n.
    epochs_completed: how many times next_batch has passed the end.
  """

  def __init__(self, images: Sequence[Any], labels: Sequence[Any],
               fake_data: bool = False, one_hot: bool = False,
               dtype: Any = np.float32, reshape: bool = True,
               seed: Optional[int] = None):
    """Builds a split from arrays as extract_images / extract_labels give.

    With `seed` set, the order next_batch shuffles into is the same from run
    to run: like TF1, the seed (or the graph-level seed when `seed` is None)
    seeds numpy's global random generator.

    Args:
      images: uint8 [n, rows, columns, 1] (ignored when `fake_data`).
      labels: [n] or [n, classes] (ignored when `fake_data`).
      fake_data: a split of 10000 constant examples, for tests.
      one_hot: whether the labels are one-hot (used with `fake_data`).
      dtype: uint8 keeps pixels 0-255; float32 scales them to [0, 1].
      reshape: flatten each image to rows * columns values.
      seed: shuffle seed.

    Raises:
      TypeError: `dtype` is not uint8 or float32.
      ValueError: images and labels differ in number, or images have more
        than one channel and `reshape` is set.
    """
    op_seed = tf.compat.v1.random.get_seed(seed)
    np.random.seed(op_seed[0] if seed is None else op_seed[1])
    dtype = _numpy_dtype(dtype)
    if dtype not in (np.uint8, np.float32):
      raise TypeError(f"Invalid image dtype {dtype.name!r}, expected uint8 or "
                      "float32.")
    self.one_hot = one_hot
    if fake_data:
      self._num_examples = 10000
    else:
      images, labels = np.asarray(images), np.asarray(labels)
      if images.shape[0] != labels.shape[0]:
        raise ValueError(f"images.shape: {images.shape} labels.shape: "
                         f"{labels.shape}; they must hold as many examples.")
      self._num_examples = images.shape[0]
      if reshape:
        if images.shape[3] != 1:
          raise ValueError(f"images.shape: {images.shape}; reshape=True "
                           "flattens single-channel images only.")
        images = images.reshape(images.shape[0],
                                images.shape[1] * images.shape[2])
      if dtype == np.float32:
        images = images.astype(np.float32) * np.float32(1.0 / 255.0)
    self._images = images
    self._labels = labels
    self._epochs_completed = 0
    self._index_in_epoch = 0

  @property
  def images(self) -> np.ndarray:
    return self._images

  @property
  def labels(self) -> np.ndarray:
    return self._labels

  @property
  def num_examples(self) -> int:
    return self._num_examples

  @property
  def epochs_completed(self) -> int:
    return self._epochs_completed

  def _shuffle(self) -> None:
    order = np.arange(self._num_examples)
    np.random.shuffle(order)
    self._images = self._images[order]
    self._labels = self._labels[order]

  def next_batch(self, batch_size: int, fake_data: bool = False,
                 shuffle: bool = True) -> Tuple[Any, Any]:
    """The next `batch_size` examples, in a new random order every epoch.

    A batch that crosses the end of an epoch is the rest of this epoch
    followed by the start of the next (reshuffled) one, so every batch has
    `batch_size` examples.

    Args:
      batch_size: examples per batch.
      fake_data: return constant lists instead (a fake_data DataSet).
      shuffle: shuffle before the first epoch and after each one.

    Returns:
      (images, labels) of the batch.
    """
    if fake_data:
      fake_label = [1] + [0] * (NUM_CLASSES - 1) if self.one_hot else 0
      return ([[1] * _FAKE_PIXELS for _ in range(batch_size)],
              [fake_label for _ in range(batch_size)])
    start = self._index_in_epoch
    if self._epochs_completed == 0 and start == 0 and shuffle:
      self._shuffle()
    if start + batch_size <= self._num_examples:
      self._index_in_epoch = start + batch_size
      return (self._images[start:self._index_in_epoch],
              self._labels[start:self._index_in_epoch])
    self._epochs_completed += 1
    rest_images = self._images[start:]
    rest_labels = self._labels[start:]
    if shuffle:
      self._shuffle()
    self._index_in_epoch = batch_size - (self._num_examples - start)
    end = self._index_in_epoch
    return (np.concatenate((rest_images, self._images[:end]), axis=0),
            np.concatenate((rest_labels, self._labels[:end]), axis=0))


def _read(path: str, extract, **kwargs) -> np.ndarray:
  with tf.io.gfile.GFile(path, "rb") as f:
    return extract(f, **kwargs)


def read_data_sets(train_dir: str, fake_data: bool = False,
                   one_hot: bool = False, dtype: Any = np.float32,
                   reshape: bool = True, validation_size: int = 5000,
                   seed: Optional[int] = None,
                   source_url: str = DEFAULT_SOURCE_URL) -> Datasets:
  """Reads the four MNIST .gz files in `train_dir` into train/validation/test.

  The validation split is the first `validation_size` training examples;
  train is the rest.

  Args:
    train_dir: directory holding the four files (FILES).
    fake_data: skip the files; every split is a fake_data DataSet.
    one_hot: labels as one-hot float64 rows instead of uint8 indices.
    dtype: tf.float32 / np.float32 (pixels in [0, 1]) or uint8 (0-255).
    reshape: images as [n, 784] rather than [n, 28, 28, 1].
    validation_size: training examples set aside for validation.
    seed: shuffle seed for next_batch (see DataSet).
    source_url: where the files can be fetched from; only named in the
      error for missing files, as nothing is downloaded.

  Returns:
    Datasets(train, validation, test).

  Raises:
    FileNotFoundError: some of the four files are not in `train_dir`; the
      message lists them.
    ValueError: `validation_size` is not between 0 and the number of
      training examples, or a file is not an MNIST idx file.
  """
  options = {"dtype": dtype, "reshape": reshape, "seed": seed}
  if fake_data:
    def fake():
      return DataSet([], [], fake_data=True, one_hot=one_hot, **options)
    return Datasets(train=fake(), validation=fake(), test=fake())

  paths = {name: f"{train_dir.rstrip('/')}/{name}" for name in FILES}
  missing = [name for name, path in paths.items()
             if not tf.io.gfile.exists(path)]
  if missing:
    raise FileNotFoundError(
        f"read_data_sets: {train_dir} lacks {', '.join(missing)}. "
        f"slim_ext does not download MNIST: put the four files "
        f"({', '.join(FILES)}) in that directory, e.g. from {source_url}.")
  train_images = _read(paths[TRAIN_IMAGES], extract_images)
  train_labels = _read(paths[TRAIN_LABELS], extract_labels, one_hot=one_hot)
  test_images = _read(paths[TEST_IMAGES], extract_images)
  test_labels = _read(paths[TEST_LABELS], extract_labels, one_hot=one_hot)
  if not 0 <= validation_size <= len(train_images):
    raise ValueError(f"Validation size should be between 0 and "
                     f"{len(train_images)}. Received: {validation_size}.")
  return Datasets(
      train=DataSet(train_images[validation_size:],
                    train_labels[validation_size:], **options),
      validation=DataSet(train_images[:validation_size],
                         train_labels[:validation_size], **options),
      test=DataSet(test_images, test_labels, **options))


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
  """``read_data_sets(train_dir)``, TF1's shorthand."""
  return read_data_sets(train_dir)
