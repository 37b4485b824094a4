"""Writes this directory's fixture: NumPy 1.16's np.size, np.shape and np.ndim of the
values of tests/slim_ext/numpy1_ragged_cases.py, ragged nested lists among them.

``expected.json``: value name -> call -> the result (a shape as a list), or the class
of the error NumPy 1.16 raised. tests/slim_ext/test_numpy1.py compares
slim_ext.numpy1's functions with it. Run with the NumPy of TF1's time (the Python 2.7
environment of tools/tf1_env.py has 1.16.6):

  ~/.cache/slimport/py27-tf114/bin/python tests/slim_ext/data/numpy1_ragged/make_fixture.py
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import numpy1_ragged_cases  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def main():
  assert np.__version__ == "1.16.6", np.__version__
  expected = {}
  for name, make in numpy1_ragged_cases.VALUES:
    results = {}
    for function, args in numpy1_ragged_cases.CALLS:
      call = "%s%r" % (function, args)
      try:
        result = getattr(np, function)(make(), *args)
      except (IndexError, ValueError) as error:
        results[call] = {"error": type(error).__name__}
      else:
        results[call] = list(result) if isinstance(result, tuple) else int(result)
    expected[name] = results
  with open(os.path.join(HERE, "expected.json"), "w") as out:
    json.dump(expected, out, indent=1, sort_keys=True, separators=(",", ": "))
    out.write("\n")


if __name__ == "__main__":
  main()
