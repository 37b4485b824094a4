"""Writes expected.json: TF 1.14's tf.contrib.eager metrics on fixed batches.

Run with Python 2.7 + TensorFlow 1.14 (tools/tf1_env.py --peer magenta makes one):
    ~/.cache/slimport/py27-tf114-magenta/bin/python make.py
tests/slim_ext/test_eager_metrics.py replays CALLS with slim_ext.contrib.eager_metrics.
"""
import json
import os

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

# (metric class, constructor keywords, calls: (args, weights or None)).
CALLS = [
    ("Mean", {}, [([1.0, 2.0, 3.0], None), ([10.0, 20.0], [2.0, 0.5]), (7, None)]),
    ("Accuracy", {}, [([1, 2, 3, 4], [0, 2, 3, 4], None), ([5, 5], [5, 6], [3.0, 1.0])]),
    ("CategoricalAccuracy", {},
     [([[0, 1], [1, 0], [0, 1]], [[0.2, 0.8], [0.3, 0.7], [0.9, 0.1]], None)]),
    ("BinaryAccuracy", {"threshold": 0.5},
     [([1, 0, 1, 1], [0.7, 0.6, 0.2, 0.9], [1.0, 2.0, 1.0, 1.0])]),
    ("SparseAccuracy", {}, [([1, 0, 2], [[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.5, 0.3, 0.2]],
                             None)]),
]


def plain(value):
  if isinstance(value, (tuple, list)):
    return [plain(v) for v in value]
  value = np.asarray(value)
  return {"value": value.tolist(), "dtype": value.dtype.name}


def main():
  expected = []
  for name, keywords, calls in CALLS:
    metric = getattr(tfe.metrics, name)(**keywords)
    returned = []
    for call in calls:
      args, weights = list(call[:-1]), call[-1]
      out = metric(*args) if weights is None else metric(*args, weights=weights)
      returned.append(plain(out))
    expected.append({"metric": name, "keywords": keywords, "calls": calls,
                     "returned": returned, "result": plain(metric.result()),
                     "variables": [v.name for v in metric.variables],
                     "name": metric.name})
  with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected.json"),
            "w") as out:
    json.dump({"tensorflow": tf.VERSION, "metrics": expected}, out, indent=1, sort_keys=True)


if __name__ == "__main__":
  main()
