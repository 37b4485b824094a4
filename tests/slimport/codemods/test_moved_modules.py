"""moved_modules: TF1's tutorial MNIST reader -> slim_ext.mnist_input_data."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.contrib_symbols import ContribSymbolsCommand
from slimport.codemods.moved_modules import MovedModulesCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, MovedModulesCommand)


class TestMnistTutorial(IdempotentCodemodTest):
    TRANSFORM = MovedModulesCommand

    def test_from_import_keeps_the_name(self) -> None:
        before = """
            import tensorflow as tf
            from tensorflow.examples.tutorials.mnist import input_data

            mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
        """
        after = """
            import tensorflow as tf
            from slim_ext import mnist_input_data as input_data

            mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
        """
        self.assertCodemod(before, after)

    def test_import_as_and_import_from_the_module(self) -> None:
        before = """
            import tensorflow.examples.tutorials.mnist.input_data as mnist_data
            from tensorflow.examples.tutorials.mnist.input_data import read_data_sets
        """
        after = """
            import slim_ext.mnist_input_data as mnist_data
            from slim_ext.mnist_input_data import read_data_sets
        """
        self.assertCodemod(before, after)

    def test_module_spelled_out_at_its_uses(self) -> None:
        before = """
            import tensorflow.examples.tutorials.mnist.input_data

            data = tensorflow.examples.tutorials.mnist.input_data.read_data_sets('/tmp/mnist')
        """
        after = """
            import slim_ext.mnist_input_data

            data = slim_ext.mnist_input_data.read_data_sets('/tmp/mnist')
        """
        self.assertCodemod(before, after)


NOOP = [
    "from slim_ext import mnist_input_data as input_data\n",
    "from keras.datasets import mnist\n(x, y), _ = mnist.load_data()\n",
    "import input_data\ndata = input_data.read_data_sets('/tmp')\n",  # the tree's own copy
    "# see tensorflow/examples/tutorials/mnist\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_the_tutorial_model_module_has_no_home() -> None:
    code, findings = run("from tensorflow.examples.tutorials.mnist import input_data, mnist\n")
    assert code == ("from tensorflow.examples.tutorials.mnist import mnist\n"
                    "from slim_ext import mnist_input_data as input_data\n")
    [attention] = [f for f in findings if f.kind == "attention"]
    assert "tensorflow.examples.tutorials.mnist.mnist" in attention.message


@pytest.mark.parametrize("source, name", [
    ("from tensorflow.examples.tutorials import mnist\n", "tensorflow.examples.tutorials.mnist"),
    ("from tensorflow.examples.tutorials.mnist import *\n", "tensorflow.examples.tutorials.mnist"),
    ("import tensorflow.examples.tutorials.mnist.mnist as model\n",
     "tensorflow.examples.tutorials.mnist.mnist"),
])
def test_every_spelling_of_a_tutorial_module_with_no_home_is_reported(source: str,
                                                                     name: str) -> None:
    code, findings = run(source)
    assert code == source
    [attention] = findings
    assert attention.kind == "attention" and attention.message.startswith(f"{name} is one of")


def test_the_contrib_learn_reader_it_re_exported() -> None:
    code, _ = run_codemod(ContribSymbolsCommand, """\
        import tensorflow as tf
        from tensorflow.contrib.learn.python.learn.datasets.mnist import read_data_sets

        data = tf.contrib.learn.datasets.mnist.read_data_sets('/tmp/mnist', one_hot=True)
    """)
    assert code == """\
import tensorflow as tf
from slim_ext.mnist_input_data import read_data_sets
import slim_ext.mnist_input_data

data = slim_ext.mnist_input_data.read_data_sets('/tmp/mnist', one_hot=True)
"""


@pytest.mark.parametrize("before, after", [
    ("from tensorflow.tools.graph_transforms import TransformGraph\n",
     "from slim_ext.graph_transforms import TransformGraph\n"),
    ("import tensorflow.tools.graph_transforms as gt\ngt.TransformGraph(g, [], [], [])\n",
     "import slim_ext.graph_transforms as gt\ngt.TransformGraph(g, [], [], [])\n"),
    # The module imported from its package: TF2 has neither.
    ("from tensorflow.tools import graph_transforms\n",
     "from slim_ext import graph_transforms\n"),
    ("from tensorflow.tools import graph_transforms as gt, docs\n",
     "from tensorflow.tools import docs\nfrom slim_ext import graph_transforms as gt\n"),
])
def test_graph_transforms_moves_to_its_stand_in(before: str, after: str) -> None:
    assert run(before)[0] == after
    assert run(after)[0] == after


# pywrap_tensorflow.NewCheckpointReader: TF 2 keeps the module, not the reader in it.
@pytest.mark.parametrize("before, after", [
    ("import tensorflow as tf\nfrom tensorflow.python import pywrap_tensorflow\n\n"
     "def names(path):\n"
     "  reader = pywrap_tensorflow.NewCheckpointReader(path)\n"
     "  return reader.get_variable_to_shape_map()\n",
     "import tensorflow as tf\n\n"
     "def names(path):\n"
     "  reader = tf.compat.v1.train.NewCheckpointReader(path)\n"
     "  return reader.get_variable_to_shape_map()\n"),
    ("import tensorflow.compat.v1 as tf\nfrom tensorflow.python import pywrap_tensorflow\n"
     "reader = pywrap_tensorflow.NewCheckpointReader(path)\n",
     "import tensorflow.compat.v1 as tf\n"
     "reader = tf.train.NewCheckpointReader(path)\n"),
    # The module's other names stay, and with them the import.
    ("from tensorflow.python import pywrap_tensorflow as pw\n"
     "reader = pw.NewCheckpointReader(path)\nstatus = pw.TF_NewStatus()\n",
     "from tensorflow.python import pywrap_tensorflow as pw\nimport tensorflow\n\n"
     "reader = tensorflow.compat.v1.train.NewCheckpointReader(path)\n"
     "status = pw.TF_NewStatus()\n"),
    # facenet's freeze_graph.py.
    ("import tensorflow as tf\nfrom tensorflow.python.framework import graph_util\n"
     "def freeze(sess, graph_def, names):\n"
     "  return graph_util.convert_variables_to_constants(sess, graph_def, names)\n",
     "import tensorflow as tf\n"
     "def freeze(sess, graph_def, names):\n"
     "  return tf.compat.v1.graph_util.convert_variables_to_constants(sess, graph_def, names)\n"),
    ("from tensorflow.python.pywrap_tensorflow import NewCheckpointReader\n"
     "reader = NewCheckpointReader(path)\n",
     "from tensorflow.compat.v1.train import NewCheckpointReader\n"
     "reader = NewCheckpointReader(path)\n"),
])
def test_the_checkpoint_reader_of_pywrap_tensorflow(before: str, after: str) -> None:
    assert run(before)[0] == after
    assert run(after)[0] == after


NOOP_READER = [
    "import tensorflow as tf\nreader = tf.train.NewCheckpointReader(path)\n",
    "from tensorflow.python.framework import graph_util\n"
    "graph = graph_util.extract_sub_graph(graph_def, names)\n",
    "from tensorflow.python import pywrap_tensorflow\nstatus = pywrap_tensorflow.TF_NewStatus()\n",
    # A parameter that shadows the module is not it.
    "from tensorflow.python import pywrap_tensorflow\n"
    "def read(pywrap_tensorflow, path):\n  return pywrap_tensorflow.NewCheckpointReader(path)\n",
    "from my_project import pywrap_tensorflow\nreader = pywrap_tensorflow.NewCheckpointReader(p)\n",
]


@pytest.mark.parametrize("source", NOOP_READER)
def test_checkpoint_reader_noops(source: str) -> None:
    assert run(source) == (source, [])
