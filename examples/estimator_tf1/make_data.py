"""Writes a tiny learnable image set for cifar10_main.py (numpy only).

slimport's own example data, in the spirit of CIFAR-10 for the TF 1.4-era
trainer beside it: 8x8 RGB images of 10 classes, each class a fixed random
pattern plus noise, in data_dir/train.npz and data_dir/eval.npz (arrays
"images", float32 NHWC in [0, 1], and "labels", int64).
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import os

import numpy as np

NUM_CLASSES = 10
HEIGHT = WIDTH = 8
DEPTH = 3


def make_split(patterns, count, rng):
  labels = rng.randint(0, NUM_CLASSES, size=count).astype(np.int64)
  noise = rng.normal(0.0, 0.15, size=(count, HEIGHT, WIDTH, DEPTH))
  images = np.clip(patterns[labels] + noise, 0.0, 1.0).astype(np.float32)
  return images, labels


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument('--data_dir', required=True)
  parser.add_argument('--train_examples', type=int, default=1280)
  parser.add_argument('--eval_examples', type=int, default=256)
  parser.add_argument('--seed', type=int, default=7)
  args = parser.parse_args()
  rng = np.random.RandomState(args.seed)
  patterns = rng.uniform(0.0, 1.0, size=(NUM_CLASSES, HEIGHT, WIDTH, DEPTH))
  if not os.path.isdir(args.data_dir):
    os.makedirs(args.data_dir)
  for split, count in (('train', args.train_examples),
                       ('eval', args.eval_examples)):
    images, labels = make_split(patterns, count, rng)
    np.savez(os.path.join(args.data_dir, split + '.npz'),
             images=images, labels=labels)
    print('wrote %d %s examples to %s' % (count, split, args.data_dir))


if __name__ == '__main__':
  main()
