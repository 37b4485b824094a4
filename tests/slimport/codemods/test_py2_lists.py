"""py2_lists: Python 2 lists (dict views, range, zip, map, filter) where a list is needed."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.py2_lists import Py2ListsCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, Py2ListsCommand)


class TestPy2Lists(IdempotentCodemodTest):
    TRANSFORM = Py2ListsCommand

    def test_indexed_views(self) -> None:
        before = """
            first = features[features.keys()[0]]
            arguments = scope.values()[0]
            name = dtype.fields.keys()[0]
            head = zip(names, values)[:2]
        """
        after = """
            first = features[list(features.keys())[0]]
            arguments = list(scope.values())[0]
            name = list(dtype.fields.keys())[0]
            head = list(zip(names, values))[:2]
        """
        self.assertCodemod(before, after)

    def test_operands_of_plus_and_times(self) -> None:
        before = """
            pixels = range(1, 3 * 2 + 1) * 6
            names = defaults.keys() + ['extra']
            steps = [0] + range(10, 100, 10)
        """
        after = """
            pixels = list(range(1, 3 * 2 + 1)) * 6
            names = list(defaults.keys()) + ['extra']
            steps = [0] + list(range(10, 100, 10))
        """
        self.assertCodemod(before, after)

    def test_arguments_of_tensorflow_and_numpy(self) -> None:
        before = """
            import numpy as np
            import tensorflow as tf

            tensors = {'x': tf.placeholder(tf.float32)}
            stacked = tf.stack(tensors.values())
            mean = np.mean(precisions.values())
            image = tf.constant(range(1, 7) * 6, dtype=tf.float32)
        """
        after = """
            import numpy as np
            import tensorflow as tf

            tensors = {'x': tf.placeholder(tf.float32)}
            stacked = tf.stack(list(tensors.values()))
            mean = np.mean(list(precisions.values()))
            image = tf.constant(list(range(1, 7)) * 6, dtype=tf.float32)
        """
        self.assertCodemod(before, after)

    def test_a_range_stored_under_a_name_the_file_concatenates(self) -> None:
        before = """
            import tensorflow as tf

            def manual_stepping(boundaries, rates):
                warmup_steps = range(boundaries[0])
                boundaries = warmup_steps + boundaries
                return tf.train.piecewise_constant(tf.train.get_global_step(), boundaries, rates)
        """
        after = """
            import tensorflow as tf

            def manual_stepping(boundaries, rates):
                warmup_steps = list(range(boundaries[0]))
                boundaries = warmup_steps + boundaries
                return tf.train.piecewise_constant(tf.train.get_global_step(), boundaries, rates)
        """
        self.assertCodemod(before, after)

    def test_stored_and_returned_iterators_and_views(self) -> None:
        before = """
            import tf_slim

            def strides(heights, widths):
                anchor_strides = zip(heights, widths)
                sizes = map(int, widths)
                return anchor_strides, sizes

            def extract_features(feature_maps):
                names = feature_maps.keys()
                return feature_maps.values()
        """
        after = """
            import tf_slim

            def strides(heights, widths):
                anchor_strides = list(zip(heights, widths))
                sizes = list(map(int, widths))
                return anchor_strides, sizes

            def extract_features(feature_maps):
                names = list(feature_maps.keys())
                return list(feature_maps.values())
        """
        self.assertCodemod(before, after)


NOOP = [
    # Iterating, measuring, membership: views and iterators do all of it.
    "for k in d.keys():\n    pass\nn = len(d.values())\nok = 'a' in d.keys()\n",
    "pairs = [a + b for a, b in zip(xs, ys)]\ntotal = sum(map(int, xs))\n",
    "ordered = sorted(d.items())\nfirst = list(d.keys())[0]\nsteps = range(10)\n",
    "kept = set(d.keys()) - {'a'}\nboth = d.keys() & other.keys()\n",
    # Builtins rebound, or list rebound, or a * import.
    "def range(n):\n    return [n]\nx = range(3) * 2\n",
    "from six.moves import zip\nhead = zip(a, b)[0]\n",
    "from helpers import *\nhead = zip(a, b)[0]\n",
    # A star argument is iterated; a method call with arguments is no view.
    "import tensorflow as tf\ngroup = tf.group(*updates.values())\nv = cfg.values('a')[0]\n",
    # Calls of other libraries, and range stored or returned (a range indexes and
    # measures like a list); a view stored inside another expression.
    "import json\ntext = json.dumps(d.keys)\nr = range(5)\nlabel = r[0]\n",
    "def steps(n):\n    return range(n)\n\npairs = sorted(d.items())\nn = len(d.keys())\n",
    # Plain Python (tf_keras' object_identity.py): a stored or returned view may be meant.
    "def keys(self):\n    keys = self._storage.keys()\n    return self._storage.values()\n",
    # TF2 code's leftovers are its authors' business.
    "import tensorflow as tf\nx = tf.image.resize(y, (2, 2), antialias=True)\n"
    "first = d.keys()[0]\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_list_rebound_is_reported() -> None:
    source = "list = []\nfirst = d.keys()[0]\n"
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention" and "`list` is rebound" in finding.message
