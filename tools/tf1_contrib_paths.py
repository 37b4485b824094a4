"""Print every path TensorFlow 1.x resolves under ``tf.contrib``, running TensorFlow 1.x.

The contrib table (tools/gen_contrib_table.py) reads TensorFlow 1.15's sources without
running them; some paths only exist once the modules have run: a submodule that an
import bound on its package after ``remove_undocumented`` (``tf.contrib.layers.summaries``
is layers/python/layers/summaries.py), a name another package star-exported
(``tf.contrib.tpu.InputPipelineConfig`` from tensorflow_estimator), a name a plain file
imported (``tf.contrib.compiler.jit.experimental_jit_scope``). This script walks the
attributes of ``tf.contrib`` as TensorFlow 1.x has them and prints one line a path:

    path<TAB>module<TAB>its module name          (a module of tensorflow.contrib)
    path<TAB>symbol<TAB>defining module:name     (a class or function)

``path`` is relative to ``tensorflow.contrib``; ``tensorflow_core`` is written
``tensorflow``. A module is walked once, under the first path that reaches it (its other
paths are aliases of it). Run it with the Python of an environment that has TensorFlow
1.15 (Python 3.7: ``python3.7 -m venv VENV && VENV/bin/pip install tensorflow==1.15.5
'numpy<1.19' 'protobuf<3.21'``) and give its output to the generator's ``--resolved``:

    VENV/bin/python tools/tf1_contrib_paths.py > /tmp/tf115_paths.tsv
"""
import inspect
import sys
import types
import warnings

CONTRIB = "tensorflow.contrib"


def _normal(name):
  """``tensorflow_core.x`` -> ``tensorflow.x`` (TF 1.15 lives in tensorflow_core)."""
  if name == "tensorflow_core" or name.startswith("tensorflow_core."):
    return "tensorflow" + name[len("tensorflow_core"):]
  return name


def _attributes(module):
  try:
    names = sorted(dir(module))
  except Exception:  # pylint: disable=broad-except  (a lazy module that fails to load)
    return
  for name in names:
    if name.startswith("_"):
      continue
    try:
      yield name, getattr(module, name)
    except Exception:  # pylint: disable=broad-except
      continue


def walk(contrib):
  """Yields (path, kind, what) for every path under ``contrib``, breadth first."""
  seen = {id(contrib)}
  queue = [("", contrib)]
  while queue:
    prefix, module = queue.pop(0)
    for name, value in _attributes(module):
      path = prefix + name
      if isinstance(value, types.ModuleType):
        real = _normal(value.__name__)
        if not real.startswith(CONTRIB + "."):
          continue  # a core module a contrib module imported for its own use
        yield path, "module", real
        if id(value) not in seen:
          seen.add(id(value))
          queue.append((path + ".", value))
      elif inspect.isclass(value) or inspect.isfunction(value):
        defined = _normal(getattr(value, "__module__", "") or "")
        yield path, "symbol", "%s:%s" % (defined, getattr(value, "__name__", name))


def main():
  warnings.simplefilter("ignore")
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  for path, kind, what in walk(tf.contrib):
    sys.stdout.write("%s\t%s\t%s\n" % (path, kind, what))
  return 0


if __name__ == "__main__":
  sys.exit(main())
