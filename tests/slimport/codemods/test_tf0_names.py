"""tf0_names: TensorFlow 0.x names -> TF1 names, changed arguments ported only when certain."""
from __future__ import annotations

import functools

import pytest

from slimport.tables.tf_api import TF1, tf_api
from slimport.codemods.tf0_names import RENAMES, Tf0NamesCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, Tf0NamesCommand)


class TestTf0Names(IdempotentCodemodTest):
    TRANSFORM = Tf0NamesCommand

    def test_renamed_math_ops_nest(self) -> None:
        before = """
            import tensorflow as tf

            y = tf.mul(tf.sub(a, b), tf.neg(c))
            s = tf.pack([a, b], axis=1)
            a2, b2 = tf.unpack(s, axis=1)
            z = tf.select(cond, a, e=b)
        """
        after = """
            import tensorflow as tf

            y = tf.multiply(tf.subtract(a, b), tf.negative(c))
            s = tf.stack([a, b], axis=1)
            a2, b2 = tf.unstack(s, axis=1)
            z = tf.where(cond, a, y=b)
        """
        self.assertCodemod(before, after)

    def test_summaries_and_writer_go_through_compat_v1(self) -> None:
        # TF2's tf.summary.scalar is another function; compat_v1 shortens the path
        # again when it switches the file to tensorflow.compat.v1.
        before = """
            import tensorflow as tf

            tf.scalar_summary('loss', loss)
            tf.image_summary('images', images, max_images=4)
            merged = tf.merge_all_summaries()
            writer = tf.train.SummaryWriter(logdir, sess.graph)
        """
        after = """
            import tensorflow as tf

            tf.compat.v1.summary.scalar('loss', loss)
            tf.compat.v1.summary.image('images', images, max_outputs=4)
            merged = tf.compat.v1.summary.merge_all()
            writer = tf.compat.v1.summary.FileWriter(logdir, sess.graph)
        """
        self.assertCodemod(before, after)

    def test_compat_v1_tf_stays_short(self) -> None:
        before = """
            import tensorflow.compat.v1 as tf

            tf.histogram_summary('w', w)
            tf.contrib.deprecated.scalar_summary('lr', lr)
        """
        after = """
            import tensorflow.compat.v1 as tf

            tf.summary.histogram('w', w)
            tf.summary.scalar('lr', lr)
        """
        self.assertCodemod(before, after)

    def test_positional_arguments_whose_meaning_moved_become_keywords(self) -> None:
        before = """
            import tensorflow as tf

            loss = tf.nn.softmax_cross_entropy_with_logits(logits, labels)
            xent = tf.nn.sigmoid_cross_entropy_with_logits(logits, targets, name='x')
            product = tf.batch_matmul(a, b, True)
        """
        after = """
            import tensorflow as tf

            loss = tf.compat.v1.nn.softmax_cross_entropy_with_logits(logits=logits, labels=labels)
            xent = tf.nn.sigmoid_cross_entropy_with_logits(logits=logits, labels=targets, name='x')
            product = tf.matmul(a, b, adjoint_a=True)
        """
        self.assertCodemod(before, after)

    def test_concat_and_split_in_the_0x_order(self) -> None:
        before = """
            import tensorflow as tf

            net = tf.concat(3, [branch_0, branch_1])
            flat = tf.concat(0, values, name='flat')
            both = tf.concat(axis_of(x), [a, b])
            h0, h1 = tf.split(1, 2, net)
            q, k = tf.split(2, num_heads(), x)
        """
        after = """
            import tensorflow as tf

            net = tf.concat([branch_0, branch_1], 3)
            flat = tf.concat(values, 0, name='flat')
            both = tf.concat(axis=axis_of(x), values=[a, b])
            h0, h1 = tf.split(net, 2, 1)
            q, k = tf.split(axis=2, num_or_size_splits=num_heads(), value=x)
        """
        self.assertCodemod(before, after)

    def test_reverse_mask_and_resize_sizes(self) -> None:
        before = """
            import tensorflow as tf

            flipped = tf.reverse(images, [False, False, True, False])
            small = tf.image.resize_images(images, 224, 224, method=1)
        """
        after = """
            import tensorflow as tf

            flipped = tf.reverse(images, [2])
            small = tf.image.resize_images(images, [224, 224], method=1)
        """
        self.assertCodemod(before, after)

    def test_uses_that_are_not_calls(self) -> None:
        before = """
            import tensorflow as tf

            ops = {'mul': tf.mul, 'rnn': tf.nn.rnn}
        """
        after = """
            import tensorflow as tf

            ops = {'mul': tf.multiply, 'rnn': tf.compat.v1.nn.static_rnn}
        """
        self.assertCodemod(before, after)


NOOP = [
    # TF1 and TF2 code.
    "import tensorflow as tf\ny = tf.multiply(a, b)\nz = tf.concat([a, b], 1)\n",
    "import tensorflow as tf\nh0, h1 = tf.split(x, 2, axis=1)\nr = tf.reverse(x, [1])\n",
    "import tensorflow as tf\nloss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)\n",
    "import tensorflow as tf\ntf.summary.scalar('loss', loss, step=3)\n",
    "import tensorflow as tf\nx = tf.concat(values, axis)\n",  # either order; no 0.x names
    # Not TensorFlow: other libraries' mul/concat, locals named tf.
    "import numpy as np\nx = np.concatenate([a, b], 0)\ny = np.mul(a, b)\n",
    "import operator\nz = operator.mul(a, b)\n",
    "import tensorflow as tf\ndef f(tf):\n    return tf.mul(a, b)\n",
    "import tensorflow as tf\ntf = MyFacade()\ntf.scalar_summary('x', 1)\n",
    "from my_lib import summaries\nsummaries.scalar_summary('x', 1)\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


@pytest.mark.parametrize("source, reason", [
    ("import tensorflow as tf\ntf.scalar_summary('loss', loss, name='s')\n",
     "`name=` has no counterpart"),
    ("import tensorflow as tf\ntf.mul(*pair)\ntf.nn.softmax_cross_entropy_with_logits(*xy)\n",
     "*args / **kwargs"),
    ("import tensorflow as tf\nop = tf.scalar_summary\n", "this use is not a call"),
    ("import tensorflow as tf\ny = tf.mul(a, b)\nz = tf.concat(dim, tensors)\n",
     "could be either"),
])
def test_calls_that_cannot_be_ported_exactly_are_reported(source: str, reason: str) -> None:
    code, findings = run(source)
    attention = [f for f in findings if f.kind == "attention"]
    assert len(attention) == 1 and reason in attention[0].message
    assert attention[0].fix
    # The reported call itself is left as it was.
    assert source.splitlines()[attention[0].line - 1] in code


def test_summary_edits_say_how_tags_differ() -> None:
    _, [edit] = run("import tensorflow as tf\ntf.scalar_summary('a b', x)\n")
    assert edit.line == 2 and "name scope" in edit.message


@pytest.mark.parametrize("old", sorted(RENAMES))
def test_every_new_name_is_in_tf_compat_v1(old: str) -> None:
    assert TF1 in (tf_api().kind(RENAMES[old].new) or ""), RENAMES[old].new
    assert tf_api().missing_from_v1(RENAMES[old].new) is None
