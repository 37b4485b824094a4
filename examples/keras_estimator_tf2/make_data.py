"""Writes a small MNIST-like set for mnist_keras.py: 28x28 strokes of 10 digits.

slimport's own example data (numpy only, nothing downloaded): each class is a
fixed set of bright strokes on a dark 28x28 canvas, jittered by a pixel or
two and noised, in data_dir/mnist.npz (x_train, y_train, x_test, y_test, as
tf.keras.datasets.mnist.load_data returns them: uint8 images, uint8 labels).
"""
import argparse
import os

import numpy as np


def digit_templates(rng):
  templates = np.zeros((10, 28, 28), np.float32)
  for digit in range(10):
    for _ in range(3):
      row, col = rng.randint(4, 24, size=2)
      if rng.rand() < 0.5:
        templates[digit, row, max(col - 6, 0):col + 6] = 1.0
      else:
        templates[digit, max(row - 6, 0):row + 6, col] = 1.0
  return templates


def sample(templates, count, rng):
  labels = rng.randint(0, 10, size=count)
  shifts = rng.randint(-1, 2, size=(count, 2))
  images = np.stack([np.roll(templates[label], tuple(shift), axis=(0, 1))
                     for label, shift in zip(labels, shifts)])
  images = np.clip(images + rng.normal(0, 0.1, images.shape), 0, 1)
  return (images * 255).astype(np.uint8), labels.astype(np.uint8)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  parser.add_argument('--data_dir', required=True)
  parser.add_argument('--train', type=int, default=2000)
  parser.add_argument('--test', type=int, default=500)
  args = parser.parse_args()
  rng = np.random.RandomState(1)
  templates = digit_templates(rng)
  x_train, y_train = sample(templates, args.train, rng)
  x_test, y_test = sample(templates, args.test, rng)
  os.makedirs(args.data_dir, exist_ok=True)
  path = os.path.join(args.data_dir, 'mnist.npz')
  np.savez(path, x_train=x_train, y_train=y_train, x_test=x_test, y_test=y_test)
  print('wrote %d training and %d test images to %s' % (args.train, args.test,
                                                         path))


if __name__ == '__main__':
  main()
