"""test_case_asserts: TestCase assertions Python 3 / absl dropped -> what they stood for."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "unittest's Python 2 names, and basetest's regexp match",
        before="""
            import unittest
            from absl.testing import absltest

            class Base(absltest.TestCase):
                pass

            class LabelsTest(Base):

                def test_expand(self):
                    self.assertItemsEqual(['a', 'b'], expand(['b', 'a']))
                    self.assertRaisesWithRegexpMatch(ValueError, 'bad', expand, None)
                    self.assertEquals(1, 1)

            class OldTest(unittest.TestCase):

                def test_old(me):
                    me.failUnless(True)
                    with me.assertRaisesRegexp(KeyError, 'x'):
                        {}['x']
        """,
        after="""
            import unittest
            from absl.testing import absltest

            class Base(absltest.TestCase):
                pass

            class LabelsTest(Base):

                def test_expand(self):
                    self.assertCountEqual(['a', 'b'], expand(['b', 'a']))
                    self.assertRaisesRegex(ValueError, 'bad', expand, None)
                    self.assertEqual(1, 1)

            class OldTest(unittest.TestCase):

                def test_old(me):
                    me.assertTrue(True)
                    with me.assertRaisesRegex(KeyError, 'x'):
                        {}['x']
        """,
    ),
    Edit(
        # Object detection's tests derive from tf.test.TestCase.
        "tf.test.TestCase",
        before="""
            import tensorflow as tf

            class HierarchyTest(tf.test.TestCase):

                def test_labels(self):
                    with self.test_session():
                        self.assertItemsEqual([1], [1])
        """,
        after="""
            import tensorflow as tf

            class HierarchyTest(tf.test.TestCase):

                def test_labels(self):
                    with self.test_session():
                        self.assertCountEqual([1], [1])
        """,
    ),
    Edit(
        "a base of another module, in a tree that defines no such method",
        before="""
            from object_detection.utils import test_case

            class T(test_case.TestCase):
                def test(self):
                    self.assertItemsEqual([1], [1])
        """,
        after="""
            from object_detection.utils import test_case

            class T(test_case.TestCase):
                def test(self):
                    self.assertCountEqual([1], [1])
        """,
        options={"tree_methods": frozenset({"test"})},
    ),
    Reported(
        "a base of another module, the tree not known",
        "from helpers import Base\nclass T(Base):\n    def test(self):\n"
        "        self.assertItemsEqual([1], [1])\n",
        [attention(4, "self.assertItemsEqual", fix="self.assertCountEqual")],
    ),
    # The class (or the tree) defines the name itself: it is that.
    Noop("a class that defines the old name",
         "import unittest\nclass T(unittest.TestCase):\n"
         "    def assertRaisesWithRegexpMatch(self, msg, func):\n        pass\n"
         "    def test(self):\n        self.assertRaisesWithRegexpMatch('x', f)\n"),
    Noop("a base of another module that the tree defines it in",
         "from helpers import Base\nclass T(Base):\n    def test(self):\n"
         "        self.assertItemsEqual([1], [1])\n",
         options={"tree_methods": frozenset({"assertItemsEqual"})}),
    Noop("not a test case, or not the instance",
         "class Helper(object):\n    def check(self):\n        self.assertEquals(1, 1)\n"
         "import unittest\nclass T(unittest.TestCase):\n    def test(self):\n"
         "        other.assertEquals(1, 1)\n"),
    Noop("python 3 names", "import unittest\nclass T(unittest.TestCase):\n"
         "    def test(self):\n        self.assertCountEqual([1], [1])\n"),
]
