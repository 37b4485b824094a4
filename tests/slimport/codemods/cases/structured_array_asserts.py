"""structured_array_asserts: a TF test's assertAllEqual on a NumPy record array -> TF 1.15's."""
from tests.slimport.codemods.cases import Edit, Noop

# The tree fact of object detection 0.1.1: utils/vrd_evaluation.py binds these.
_OD_RECORDS = {"tree_structured_dtypes": frozenset({"label_data_type", "vrd_box_data_type"})}

CASES = [
    Edit(
        # object detection 0.1.1's metrics/oid_vrd_challenge_evaluation_utils_test.py.
        "a record dtype of another module of the tree",
        before="""
            import numpy as np
            import tensorflow as tf
            from object_detection.utils import vrd_evaluation


            class OidVrdTest(tf.test.TestCase):

              def testBuild(self):
                self.assertAllEqual(
                    np.array([(1, 2, 1)], dtype=vrd_evaluation.label_data_type), labels)
                self.assertAllEqual(np.array([1, 2, 3]), image_classes)
        """,
        after="""
            import numpy as np
            import tensorflow as tf
            from object_detection.utils import vrd_evaluation
            import slim_ext.test_util


            class OidVrdTest(tf.test.TestCase):

              def testBuild(self):
                slim_ext.test_util.assert_all_equal(
                    self, np.array([(1, 2, 1)], dtype=vrd_evaluation.label_data_type), labels)
                self.assertAllEqual(np.array([1, 2, 3]), image_classes)
        """,
        options=_OD_RECORDS,
    ),
    Edit(
        "a record spelled out, bare or in np.dtype, with a=, b= and msg= (no tree known)",
        before="""
            import numpy
            import tensorflow as tf


            class T(tf.test.TestCase):

              def test(self):
                self.assertAllEqual(numpy.zeros(2, dtype=[('x', 'i4')]), got)
                self.assertAllEqual(
                    a=numpy.asarray(rows, dtype=numpy.dtype([('box', 'f4', (4,))])),
                    b=got, msg="boxes")
        """,
        after="""
            import numpy
            import tensorflow as tf
            import slim_ext.test_util


            class T(tf.test.TestCase):

              def test(self):
                slim_ext.test_util.assert_all_equal(self, numpy.zeros(2, dtype=[('x', 'i4')]), got)
                slim_ext.test_util.assert_all_equal(
                    self, a=numpy.asarray(rows, dtype=numpy.dtype([('box', 'f4', (4,))])),
                    b=got, msg="boxes")
        """,
    ),
    Noop(
        "dtypes TensorFlow names (its own qint8 record too), an unproven dtype name, a name "
        "only the tree could prove, a record array as the actual value",
        """
            import numpy as np
            import tensorflow as tf
            from object_detection.utils import vrd_evaluation


            class T(tf.test.TestCase):

              def test(self):
                self.assertAllEqual(np.array([1.0], dtype=np.float32), got)
                self.assertAllEqual(np.array(['a'], dtype=[]), got)
                self.assertAllEqual(np.array([1], dtype=[('qint8', np.int8)]), got)
                self.assertAllEqual(np.array(rows, dtype=vrd_evaluation.other_type), got)
                self.assertAllEqual(np.array(rows, dtype=vrd_evaluation.label_data_type), got)
                self.assertAllEqual(got, np.array(rows, dtype=[('x', 'i4')]))
        """,
    ),
    Noop(
        "not TF's TestCase, or one that defines assertAllEqual itself",
        """
            import unittest
            import numpy as np
            import tensorflow as tf


            class Plain(unittest.TestCase):

              def test(self):
                self.assertAllEqual(np.array(rows, dtype=[('x', 'i4')]), got)


            class Own(tf.test.TestCase):

              def assertAllEqual(self, a, b):
                pass

              def test(self):
                self.assertAllEqual(np.array(rows, dtype=[('x', 'i4')]), got)


            def helper(case):
              case.assertAllEqual(np.array(rows, dtype=[('x', 'i4')]), got)
        """,
    ),
]
