"""slimport.verify.names: which TensorFlow names a file uses, and where (no TensorFlow)."""
import pytest

from slimport.verify import names
from slimport.verify import tree as tree_lib
from tests.slimport.conftest import write_tree


def _uses(tmp_path, source):
    write_tree(tmp_path, {"module.py": source})
    return [(use.line, use.name, use.spelled)
            for use in names.uses_in(tree_lib.discover(str(tmp_path)))]


@pytest.mark.parametrize("source, expected", [
    # Through the file's aliases, at module level and in functions.
    ("import tensorflow.compat.v1 as tf\nslim = tf.contrib.slim\n"
     "def net(x):\n  return slim.conv2d(x, 3)\n",
     [(2, "tensorflow.compat.v1.contrib.slim", "tf.contrib.slim"),
      (4, "tensorflow.compat.v1.contrib.slim.conv2d", "slim.conv2d")]),
    ("from tensorflow.python import pywrap_tensorflow\n"
     "def read(p):\n  return pywrap_tensorflow.NewCheckpointReader(p)\n",
     [(3, "tensorflow.python.pywrap_tensorflow.NewCheckpointReader",
       "pywrap_tensorflow.NewCheckpointReader")]),
    # An import inside the function binds the name there.
    ("def f():\n  import tensorflow as tf\n  return tf.nn.relu\n",
     [(3, "tensorflow.nn.relu", "tf.nn.relu")]),
    # tf_slim, keras and slim_ext are checked too; numpy is not.
    ("import tf_slim as slim\nimport numpy as np\nx = slim.layers.conv2d\ny = np.linalg.norm\n",
     [(3, "tf_slim.layers.conv2d", "slim.layers.conv2d")]),
    # A chain is read once, whole, wherever it stands (a call's argument too).
    ("import tensorflow as tf\nf(tf.float32.max, key=tf.int64)\n",
     [(2, "tensorflow.float32.max", "tf.float32.max"), (2, "tensorflow.int64", "tf.int64")]),
    # On the port's Keras route (slim_ext.legacy_keras), tf.keras is tf_keras.
    ("import slim_ext.legacy_keras\nimport tensorflow.compat.v1 as tf\n"
     "tf.keras.backend.set_learning_phase(True)\n",
     [(3, "tf_keras.api._v1.keras.backend.set_learning_phase",
       "tf.keras.backend.set_learning_phase")]),
    ("import slim_ext.legacy_keras\nimport tensorflow as tf\nm = tf.keras.Model\n",
     [(3, "tf_keras.Model", "tf.keras.Model")]),
    ("import tensorflow as tf\nm = tf.keras.Model\n",
     [(2, "tensorflow.keras.Model", "tf.keras.Model")]),
])
def test_uses(tmp_path, source, expected):
    assert _uses(tmp_path, source) == expected


@pytest.mark.parametrize("source", [
    # A parameter, a loop variable, a comprehension variable: not TensorFlow.
    "import tensorflow as tf\ndef f(tf):\n  return tf.contrib.x\n",
    "import tensorflow as tf\nfor tf in things:\n  tf.contrib.x\n",
    "import tensorflow as tf\ndef f(xs):\n  return [tf.contrib for tf in xs]\n",
    # Guarded: the code itself checks first.
    "import tensorflow as tf\ntry:\n  x = tf.contrib.slim\nexcept AttributeError:\n  x = None\n",
    "import tensorflow as tf\nif hasattr(tf, 'contrib'):\n  x = tf.contrib.slim\n",
    "import tensorflow as tf\nif tf.__version__ < '2':\n  x = tf.contrib.slim\n",
    # Assigned to, not read.
    "import tensorflow as tf\ntf.something_new = 1\n",
    # A relative import rebinds the name.
    "import tensorflow as tf\nfrom . import tf\nx = tf.contrib\n",
])
def test_not_uses(tmp_path, source):
    assert [use for use in _uses(tmp_path, source) if "contrib" in use[1]
            or "something_new" in use[1]] == []


def test_a_class_body_does_not_bind_names_for_its_methods(tmp_path):
    source = ("import tensorflow as tf\nclass Model:\n  tf = None\n"
              "  def build(self):\n    return tf.nn.relu\n")
    assert _uses(tmp_path, source) == [(5, "tensorflow.nn.relu", "tf.nn.relu")]


def test_distinct_names_and_files_that_do_not_parse(tmp_path):
    write_tree(tmp_path, {"a.py": "import tensorflow as tf\nx = tf.nn.relu\ny = tf.nn.relu\n",
                          "py2.py": "print 'x'\n"})
    uses = names.uses_in(tree_lib.discover(str(tmp_path)))
    assert [use.where for use in uses] == ["a.py:2", "a.py:3"]
    assert names.distinct_names(uses) == ["tensorflow.nn.relu"]
