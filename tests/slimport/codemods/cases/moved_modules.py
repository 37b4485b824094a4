"""moved_modules: TF1 modules TF2 dropped -> slim_ext (the tutorial MNIST reader, graph_transforms)
and tf.compat.v1 (pywrap_tensorflow's checkpoint reader, graph_util)."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "from import keeps the name",
        before="""
            import tensorflow as tf
            from tensorflow.examples.tutorials.mnist import input_data

            mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
        """,
        after="""
            import tensorflow as tf
            from slim_ext import mnist_input_data as input_data

            mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
        """,
    ),
    Edit(
        "import as and import from the module",
        before="""
            import tensorflow.examples.tutorials.mnist.input_data as mnist_data
            from tensorflow.examples.tutorials.mnist.input_data import read_data_sets
        """,
        after="""
            import slim_ext.mnist_input_data as mnist_data
            from slim_ext.mnist_input_data import read_data_sets
        """,
    ),
    Edit(
        "module spelled out at its uses",
        before="""
            import tensorflow.examples.tutorials.mnist.input_data

            data = tensorflow.examples.tutorials.mnist.input_data.read_data_sets('/tmp/mnist')
        """,
        after="""
            import slim_ext.mnist_input_data

            data = slim_ext.mnist_input_data.read_data_sets('/tmp/mnist')
        """,
    ),
    Edit(
        "the tutorial model module has no home",
        before="from tensorflow.examples.tutorials.mnist import input_data, mnist\n",
        after="from tensorflow.examples.tutorials.mnist import mnist\n"
              "from slim_ext import mnist_input_data as input_data\n",
        findings=[attention(1, "tensorflow.examples.tutorials.mnist.mnist is one of")],
    ),
    # Every spelling of a tutorial module with no home is reported.
    Reported("the tutorials package", "from tensorflow.examples.tutorials import mnist\n",
             [attention(1, "tensorflow.examples.tutorials.mnist is one of")]),
    Reported("a star import of the mnist package",
             "from tensorflow.examples.tutorials.mnist import *\n",
             [attention(1, "tensorflow.examples.tutorials.mnist is one of")]),
    Reported("the tutorial model module imported as a name",
             "import tensorflow.examples.tutorials.mnist.mnist as model\n",
             [attention(1, "tensorflow.examples.tutorials.mnist.mnist is one of",
                        fix="copy what the file uses from it into the tree")]),
    # graph_transforms moves to its stand-in.
    Edit("graph_transforms imported from",
         before="from tensorflow.tools.graph_transforms import TransformGraph\n",
         after="from slim_ext.graph_transforms import TransformGraph\n"),
    Edit("graph_transforms imported as a name",
         before="import tensorflow.tools.graph_transforms as gt\n"
                "gt.TransformGraph(g, [], [], [])\n",
         after="import slim_ext.graph_transforms as gt\ngt.TransformGraph(g, [], [], [])\n"),
    # The module imported from its package: TF2 has neither.
    Edit("graph_transforms imported from its package",
         before="from tensorflow.tools import graph_transforms\n",
         after="from slim_ext import graph_transforms\n"),
    Edit("graph_transforms split from another module of its package",
         before="from tensorflow.tools import graph_transforms as gt, docs\n",
         after="from tensorflow.tools import docs\nfrom slim_ext import graph_transforms as gt\n"),
    # pywrap_tensorflow.NewCheckpointReader: TF 2 keeps the module, not the reader in it.
    Edit(
        "the checkpoint reader through the file's tf",
        before="import tensorflow as tf\nfrom tensorflow.python import pywrap_tensorflow\n\n"
               "def names(path):\n"
               "  reader = pywrap_tensorflow.NewCheckpointReader(path)\n"
               "  return reader.get_variable_to_shape_map()\n",
        after="import tensorflow as tf\n\n"
              "def names(path):\n"
              "  reader = tf.compat.v1.train.NewCheckpointReader(path)\n"
              "  return reader.get_variable_to_shape_map()\n",
    ),
    Edit(
        "the checkpoint reader through compat.v1's tf",
        before="import tensorflow.compat.v1 as tf\n"
               "from tensorflow.python import pywrap_tensorflow\n"
               "reader = pywrap_tensorflow.NewCheckpointReader(path)\n",
        after="import tensorflow.compat.v1 as tf\nreader = tf.train.NewCheckpointReader(path)\n",
    ),
    # The module's other names stay, and with them the import.
    Edit(
        "the checkpoint reader beside the module's other names",
        before="from tensorflow.python import pywrap_tensorflow as pw\n"
               "reader = pw.NewCheckpointReader(path)\nstatus = pw.TF_NewStatus()\n",
        after="from tensorflow.python import pywrap_tensorflow as pw\nimport tensorflow\n\n"
              "reader = tensorflow.compat.v1.train.NewCheckpointReader(path)\n"
              "status = pw.TF_NewStatus()\n",
    ),
    Edit(
        # facenet's freeze_graph.py.
        "graph_util's convert_variables_to_constants",
        before="import tensorflow as tf\nfrom tensorflow.python.framework import graph_util\n"
               "def freeze(sess, graph_def, names):\n"
               "  return graph_util.convert_variables_to_constants(sess, graph_def, names)\n",
        after="import tensorflow as tf\n"
              "def freeze(sess, graph_def, names):\n"
              "  return tf.compat.v1.graph_util.convert_variables_to_constants(sess, graph_def, "
              "names)\n",
    ),
    Edit(
        "the checkpoint reader imported by name",
        before="from tensorflow.python.pywrap_tensorflow import NewCheckpointReader\n"
               "reader = NewCheckpointReader(path)\n",
        after="from tensorflow.compat.v1.train import NewCheckpointReader\n"
              "reader = NewCheckpointReader(path)\n",
    ),
    Edit(
        # mesh-tensorflow 0.0.5's tpu_variables.py, which imports no tf of its own.
        "ops.register_tensor_conversion_function, which TF 2 moved out of ops",
        before="from tensorflow.python.framework import ops\n"
               "ops.register_tensor_conversion_function(Replicated, _convert)\n"
               "graph = ops.get_default_graph()\n",
        after="from tensorflow.python.framework import ops\nimport tensorflow\n\n"
              "tensorflow.compat.v1.register_tensor_conversion_function(Replicated, _convert)\n"
              "graph = ops.get_default_graph()\n",
    ),
    Edit(
        "nest.is_sequence, which TF 1.15 exported as nest.is_nested (tflearn 0.3.2)",
        before="""
            import tensorflow as tf
            from tensorflow.python.util.nest import is_sequence
            from tensorflow.python.util import nest

            def flat(args):
                return is_sequence(args) or nest.is_sequence(args)
        """,
        after="""
            import tensorflow as tf
            from tensorflow.compat.v1.nest import is_nested as is_sequence

            def flat(args):
                return is_sequence(args) or tf.compat.v1.nest.is_nested(args)
        """,
    ),
    Noop("nest.is_nested already",
         "import tensorflow as tf\nflat = tf.nest.is_nested(x)\n"),
    Noop("slim_ext's reader already",
         "from slim_ext import mnist_input_data as input_data\n"),
    Noop("keras' mnist",
         "from keras.datasets import mnist\n(x, y), _ = mnist.load_data()\n"),
    Noop("the tree's own copy of input_data",
         "import input_data\ndata = input_data.read_data_sets('/tmp')\n"),
    Noop("a comment",
         "# see tensorflow/examples/tutorials/mnist\n"),
    Noop("tf.train's checkpoint reader already",
         "import tensorflow as tf\nreader = tf.train.NewCheckpointReader(path)\n"),
    Noop("graph_util's other names",
         "from tensorflow.python.framework import graph_util\n"
         "graph = graph_util.extract_sub_graph(graph_def, names)\n"),
    Noop("pywrap_tensorflow's other names",
         "from tensorflow.python import pywrap_tensorflow\n"
         "status = pywrap_tensorflow.TF_NewStatus()\n"),
    # A parameter that shadows the module is not it.
    Noop("a parameter named pywrap_tensorflow",
         "from tensorflow.python import pywrap_tensorflow\ndef read(pywrap_tensorflow, path):\n"
         "  return pywrap_tensorflow.NewCheckpointReader(path)\n"),
    Noop("another project's pywrap_tensorflow",
         "from my_project import pywrap_tensorflow\n"
         "reader = pywrap_tensorflow.NewCheckpointReader(p)\n"),
]
