"""numpy1_scalars: int()/float() of one-element NumPy rows -> NumPy 1's conversion."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        # research/slim's deployment/model_deploy_test.py setUp (16 of its tests).
        "int of an expression indexing a numpy array",
        before="""
            import numpy as np
            import tensorflow as tf

            class DeployTest(tf.test.TestCase):

              def setUp(self):
                self._labels = np.random.randint(0, 2, size=(16, 1)).astype(np.float32)
                self._inputs = np.zeros((16, 4))
                for i in range(16):
                  j = int(2 * self._labels[i] + np.random.randint(0, 2))
                  self._inputs[i, j] = 1
                scores = np.array([[0.5]])
                best = float(scores[0])

              def testClones(self):
                inputs = tf.placeholder(tf.float32, [16, 4])
        """,
        after="""
            import numpy as np
            import tensorflow as tf
            import slim_ext.numpy1

            class DeployTest(tf.test.TestCase):

              def setUp(self):
                self._labels = np.random.randint(0, 2, size=(16, 1)).astype(np.float32)
                self._inputs = np.zeros((16, 4))
                for i in range(16):
                  j = slim_ext.numpy1.to_int(2 * self._labels[i] + np.random.randint(0, 2))
                  self._inputs[i, j] = 1
                scores = np.array([[0.5]])
                best = slim_ext.numpy1.to_float(scores[0])

              def testClones(self):
                inputs = tf.placeholder(tf.float32, [16, 4])
        """,
    ),
    # Not certainly an array: a list, a name bound to something else too, no index.
    Noop("lists, names bound otherwise, whole arrays",
         """
            import numpy as np
            import sys

            sizes = [1, 2]
            n = int(sizes[0])
            port = int(sys.argv[1])
            values = np.zeros(3)
            values = load()
            first = int(values[0])
            total = np.sum(np.ones(3))
            count = int(total)
         """),
]
