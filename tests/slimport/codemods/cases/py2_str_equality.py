"""py2_str_equality: a Python 2 project's TestCase classes compare str and bytes as Python 2 did."""
from tests.slimport.codemods.cases import Edit, Noop

# What the tree fact says of object detection 0.1.1 (its detection_inference_test.py).
PYTHON2_PROJECT = {"tree_python2": "object_detection/inference/detection_inference_test.py: "
                                   "import StringIO (line 22)"}

CASES = [
    Edit(
        # object detection 0.1.1's data_decoders/tf_example_decoder_test.py: on Python 2.7
        # + TF 1.14 the literal 'image_id' was the bytes the session returns.
        "a Python 2 project's TF test cases",
        before="""
            import tensorflow as tf
            from absl.testing import parameterized as pt

            class TfExampleDecoderTest(tf.test.TestCase):

                def testDecodeImageKeyAndFilename(self):
                    self.assertEqual('image_id', tensor_dict['source_id'])

            class P(pt.TestCase, tf.test.TestCase):
                pass
        """,
        after="""
            import tensorflow as tf
            from absl.testing import parameterized as pt
            import slim_ext.test_util

            class TfExampleDecoderTest(slim_ext.test_util.Python2StrEquality, tf.test.TestCase):

                def testDecodeImageKeyAndFilename(self):
                    self.assertEqual('image_id', tensor_dict['source_id'])

            class P(slim_ext.test_util.Python2StrEquality, pt.TestCase, tf.test.TestCase):
                pass
        """,
        options=PYTHON2_PROJECT,
    ),
    Edit(
        "a test module that shows Python 2 itself, ported alone",
        before="""
            import unittest
            import StringIO

            class BufferTest(unittest.TestCase):
                pass
        """,
        after="""
            import unittest
            import StringIO
            import slim_ext.test_util

            class BufferTest(slim_ext.test_util.Python2StrEquality, unittest.TestCase):
                pass
        """,
    ),
    Noop("a Python 3 project's TF1 test (tf_slim's)",
         "import tensorflow.compat.v1 as tf\n\n"
         "class LayersTest(tf.test.TestCase):\n"
         "    def testName(self):\n"
         "        self.assertEqual('a', sess.run(name))\n"),
    Noop("a project base, another base beside a TestCase, bases unpacked",
         "import tensorflow as tf\nfrom object_detection.utils import test_case\n\n"
         "class A(test_case.TestCase):\n    pass\n\n"
         "class B(Helper, tf.test.TestCase):\n    pass\n\n"
         "class C(*BASES):\n    pass\n\n"
         "class D(object):\n    pass\n",
         options=PYTHON2_PROJECT),
    Noop("written for Python 2 and 3 (a __future__ line only)",
         "from __future__ import print_function\nimport tensorflow as tf\n\n"
         "class T(tf.test.TestCase):\n    pass\n"),
]
