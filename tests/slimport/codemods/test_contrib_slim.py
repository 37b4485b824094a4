"""contrib_slim: every spelling of tf.contrib.slim becomes tf_slim, keeping local names."""
from __future__ import annotations

import functools
import pytest

from slimport.codemods.contrib_slim import ContribSlimCommand, tf_slim_path
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod


run = functools.partial(run_codemod, ContribSlimCommand)


class ContribSlimTest(IdempotentCodemodTest):
    TRANSFORM = ContribSlimCommand

    def test_alias_assignment_becomes_import_in_place(self) -> None:
        before = """
            import tensorflow as tf

            # TF-Slim, the TF1 way.
            slim = tf.contrib.slim  # the usual alias

            def net(x):
                return slim.conv2d(tf.identity(x), 8, [3, 3])
        """
        after = """
            import tensorflow as tf

            # TF-Slim, the TF1 way.
            import tf_slim as slim  # the usual alias

            def net(x):
                return slim.conv2d(tf.identity(x), 8, [3, 3])
        """
        self.assertCodemod(before, after)

    def test_alias_assignment_drops_tensorflow_import_left_unused(self) -> None:
        before = """
            import tensorflow as tf

            slim = tf.contrib.slim
            net = slim.fully_connected
        """
        after = """
            import tf_slim as slim
            net = slim.fully_connected
        """
        self.assertCodemod(before, after)

    def test_from_contrib_import_slim(self) -> None:
        before = """
            from tensorflow.contrib import slim

            net = slim.conv2d
        """
        after = """
            import tf_slim as slim

            net = slim.conv2d
        """
        self.assertCodemod(before, after)

    def test_from_the_inner_python_package_import_slim(self) -> None:
        # contrib kept the library in python/slim/; tf_slim has no python package.
        before = """
            from tensorflow.contrib.slim.python import slim

            net = slim.conv2d
        """
        after = """
            import tf_slim as slim

            net = slim.conv2d
        """
        self.assertCodemod(before, after)

    def test_from_contrib_import_slim_as_other_name(self) -> None:
        before = """
            from tensorflow.contrib import slim as contrib_slim

            net = contrib_slim.conv2d
        """
        after = """
            import tf_slim as contrib_slim

            net = contrib_slim.conv2d
        """
        self.assertCodemod(before, after)

    def test_import_contrib_slim_as(self) -> None:
        before = """
            import os
            import tensorflow.contrib.slim as slim
        """
        after = """
            import os
            import tf_slim as slim
        """
        self.assertCodemod(before, after)

    def test_import_contrib_slim_without_alias(self) -> None:
        before = """
            import tensorflow.contrib.slim

            net = tensorflow.contrib.slim.conv2d
        """
        after = """
            import tf_slim

            net = tf_slim.conv2d
        """
        self.assertCodemod(before, after)

    def test_nets_attribute_through_tf(self) -> None:
        before = """
            import tensorflow as tf

            slim = tf.contrib.slim

            def build(images):
                return tf.contrib.slim.nets.resnet_v1.resnet_v1_50(images)
        """
        after = """
            import tf_slim as slim
            import tf_slim.nets

            def build(images):
                return slim.nets.resnet_v1.resnet_v1_50(images)
        """
        self.assertCodemod(before, after)

    def test_nets_attribute_through_alias_imports_nets(self) -> None:
        before = """
            from tensorflow.contrib import slim

            vgg = slim.nets.vgg
        """
        after = """
            import tf_slim as slim
            import tf_slim.nets

            vgg = slim.nets.vgg
        """
        self.assertCodemod(before, after)

    def test_from_nets_import(self) -> None:
        before = """
            from tensorflow.contrib.slim.nets import resnet_v1, vgg  # nets
        """
        after = """
            from tf_slim.nets import resnet_v1, vgg  # nets
        """
        self.assertCodemod(before, after)

    def test_deep_python_slim_path(self) -> None:
        before = """
            from tensorflow.contrib.slim.python.slim.data import dataset_data_provider
            from tensorflow.contrib.slim.python.slim import learning
            import tensorflow.contrib.slim.python.slim.nets.resnet_utils as resnet_utils
        """
        after = """
            from tf_slim.data import dataset_data_provider
            from tf_slim import learning
            import tf_slim.nets.resnet_utils as resnet_utils
        """
        self.assertCodemod(before, after)

    def test_from_contrib_slim_import_names(self) -> None:
        before = """
            from tensorflow.contrib.slim import arg_scope, nets
        """
        after = """
            from tf_slim import arg_scope, nets
        """
        self.assertCodemod(before, after)

    def test_inline_use_without_alias_imports_tf_slim(self) -> None:
        before = """
            import tensorflow as tf

            def net(x):
                with tf.contrib.slim.arg_scope([tf.contrib.slim.conv2d], padding='SAME'):
                    return tf.nn.relu(x)
        """
        after = """
            import tensorflow as tf
            import tf_slim

            def net(x):
                with tf_slim.arg_scope([tf_slim.conv2d], padding='SAME'):
                    return tf.nn.relu(x)
        """
        self.assertCodemod(before, after)

    def test_inline_use_goes_through_existing_alias(self) -> None:
        before = """
            import tensorflow as tf
            from tensorflow.contrib import slim

            def net(x):
                with tf.contrib.slim.arg_scope([slim.conv2d]):
                    return x
        """
        after = """
            import tf_slim as slim

            def net(x):
                with slim.arg_scope([slim.conv2d]):
                    return x
        """
        self.assertCodemod(before, after)

    def test_alias_defined_in_a_function_is_not_used_elsewhere(self) -> None:
        before = """
            import tensorflow as tf

            def a():
                slim = tf.contrib.slim
                return slim.conv2d

            def b():
                return tf.contrib.slim.fully_connected
        """
        after = """
            import tf_slim

            def a():
                import tf_slim as slim
                return slim.conv2d

            def b():
                return tf_slim.fully_connected
        """
        self.assertCodemod(before, after)

    def test_compat_v1_spelling(self) -> None:
        before = """
            import tensorflow.compat.v1 as tf

            slim = tf.contrib.slim
            x = tf.zeros([1])
        """
        after = """
            import tensorflow.compat.v1 as tf

            import tf_slim as slim
            x = tf.zeros([1])
        """
        self.assertCodemod(before, after)

    def test_contrib_module_binding(self) -> None:
        before = """
            from tensorflow import contrib

            conv = contrib.slim.conv2d
            layers = contrib.layers
        """
        after = """
            from tensorflow import contrib
            import tf_slim

            conv = tf_slim.conv2d
            layers = contrib.layers
        """
        self.assertCodemod(before, after)

    def test_mixed_from_import_is_split(self) -> None:
        before = """
            from tensorflow.contrib import layers, slim  # contrib
            x = 1
        """
        after = """
            from tensorflow.contrib import layers  # contrib
            import tf_slim as slim
            x = 1
        """
        self.assertCodemod(before, after)

    def test_mixed_from_import_on_one_line_suite(self) -> None:
        before = """
            try: from tensorflow.contrib import layers, slim
            except ImportError: pass
        """
        after = """
            try: from tensorflow.contrib import layers; import tf_slim as slim
            except ImportError: pass
        """
        self.assertCodemod(before, after)

    def test_star_import(self) -> None:
        self.assertCodemod(
            "from tensorflow.contrib.slim import *\n", "from tf_slim import *\n"
        )

    def test_assignment_of_a_member_keeps_the_assignment(self) -> None:
        before = """
            import tensorflow as tf
            arg_scope = tf.contrib.slim.arg_scope
            nets = tf.contrib.slim.python.slim.nets
        """
        after = """
            import tf_slim
            import tf_slim.nets

            arg_scope = tf_slim.arg_scope
            nets = tf_slim.nets
        """
        self.assertCodemod(before, after)


@pytest.mark.parametrize(
    ("qualified", "expected"),
    [
        ("tensorflow.contrib.slim", "tf_slim"),
        ("tensorflow.contrib.slim.arg_scope", "tf_slim.arg_scope"),
        ("tensorflow.contrib.slim.nets.vgg", "tf_slim.nets.vgg"),
        ("tensorflow.contrib.slim.python.slim", "tf_slim"),
        (
            "tensorflow.contrib.slim.python.slim.data.tfexample_decoder",
            "tf_slim.data.tfexample_decoder",
        ),
        ("tensorflow.compat.v1.contrib.slim.learning", "tf_slim.learning"),
        ("tensorflow.contrib.slimmer", None),
        ("tensorflow.contrib.layers", None),
        ("tf_slim", None),
    ],
)
def test_tf_slim_path(qualified: str, expected: str) -> None:
    assert tf_slim_path(qualified) == expected


NOOP = {
    "absl_flags": "import absl.flags\nabsl.flags.DEFINE_string('x', '', 'contrib')\n",
    "local_variable_named_slim": (
        "import tensorflow as tf\n\ndef f(slim):\n    return slim.contrib.slim.x  # contrib\n"
    ),
    "tf_bound_to_something_else": (
        "import tensorflow as tf\ntf = load_plugin()\nnet = tf.contrib.slim.conv2d\n"
    ),
    "not_tensorflow_contrib": "from mylib import contrib\nnet = contrib.slim.conv2d\n",
    "already_ported": (
        "import tf_slim as slim\nfrom tf_slim.nets import vgg\n\n"
        "net = slim.conv2d  # was tf.contrib.slim\n"
    ),
    "other_contrib_module": (
        "import tensorflow as tf\nfrom tensorflow.contrib import layers\n"
        "init = tf.contrib.layers.xavier_initializer()\n"
    ),
    "contrib_in_strings_only": "HELP = 'tf.contrib.slim is gone'\n",
    "relative_import": "from .contrib import slim\nnet = slim.conv2d\n",
    "crlf_untouched": "import tensorflow as tf\r\nx = tf.contrib.layers.flatten\r\n",
}


@pytest.mark.parametrize("source", list(NOOP.values()), ids=list(NOOP))
def test_noop_is_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_crlf_line_endings_survive_an_edit() -> None:
    source = (
        '"""Doc."""\r\nimport tensorflow as tf\r\n\r\n'
        "slim = tf.contrib.slim\r\nx = tf.contrib.slim.nets.vgg\r\n"
    )
    output, _ = run(source)
    assert output == (
        '"""Doc."""\r\n\r\nimport tf_slim as slim\r\nimport tf_slim.nets\r\n\r\n'
        "x = slim.nets.vgg\r\n"
    )


def test_every_edit_is_recorded_with_its_line() -> None:
    source = (
        "import tensorflow as tf\n"
        "from tensorflow.contrib.slim.nets import vgg\n"
        "\n"
        "slim = tf.contrib.slim\n"
        "scope = tf.contrib.slim.arg_scope\n"
    )
    _, findings = run(source)
    assert [(f.line, f.kind) for f in findings] == [(2, "edit"), (4, "edit"), (5, "edit")]
    assert findings[1].message == "slim = tf.contrib.slim -> import tf_slim as slim"
    assert all(f.codemod == "contrib_slim" for f in findings)


def test_skipped_by_the_cheap_precheck_without_contrib_text() -> None:
    assert not ContribSlimCommand.applies_to("import tensorflow as tf\nslim = None\n")
    assert not ContribSlimCommand.applies_to("import tf_slim as slim\nx = slim.conv2d\n")
    assert not ContribSlimCommand.applies_to("layers = tf.contrib.layers\n")
    assert ContribSlimCommand.applies_to("slim = tf.contrib.slim\n")
    assert ContribSlimCommand.applies_to("from tensorflow.contrib import layers, slim\n")


def test_names_tf_slim_lacks_are_reported_at_their_use() -> None:
    # contrib.slim re-exported all of contrib.layers; tf_slim kept the slim part.
    source = (
        "import tensorflow as tf\n"
        "slim = tf.contrib.slim\n"
        "emb = slim.safe_embedding_lookup_sparse(weights, ids)\n"
        "seq = tf.contrib.slim.embed_sequence(ids, 10, 4)\n"
        "net = slim.conv2d(x, 8, 3)\n"
    )
    output, findings = run(source)
    assert "slim.conv2d(x, 8, 3)" in output
    attention = [(f.line, f.message.split(" ")[0], f.fix)
                 for f in findings if f.kind == "attention"]
    assert attention == [
        (3, "tf.contrib.slim.safe_embedding_lookup_sparse",
         "use tensorflow.compat.v1.nn.safe_embedding_lookup_sparse"),
        (4, "tf.contrib.slim.embed_sequence",
         "find its TF2 / tf_slim equivalent and rewrite by hand, or drop the feature"),
    ]
