"""compat_v1: the TF1/TF2 signals it reads off names, calls and the API table, its run after
contrib_symbols, and modules judged by their TF1 neighbours in the tree (cases/compat_v1.py has
the before/after and no-op cases)."""
from __future__ import annotations

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from slimport.tables.tf_api import TF1, TF2, tf_api
from slimport.codemods.compat_v1 import CompatV1Command, api_use, call_signal, name_signal


@pytest.mark.parametrize("relative, missing", [
    ("train.Saver", None),
    ("train.Saver.restore", None),  # class members are not listed: not judged
    ("logging.info", None),
    ("FixedLenFeature", None),
    ("keras.layers.Dense", None),  # keras is listed by name only
    ("compat.v2.function", None),
    ("contrib.layers.conv2d", "contrib"),
    ("train.NoSuchThing", "train.NoSuchThing"),
    ("estimator.Estimator", None),  # tensorflow-estimator 2.15's, revived by slim_ext
    ("estimator.inputs.numpy_input_fn", None),
    ("estimator.experimental.RNNClassifier", "estimator.experimental.RNNClassifier"),
])
def test_missing_from_v1(relative: str, missing: str) -> None:
    assert tf_api().missing_from_v1(relative) == missing


@pytest.mark.parametrize("relative, signal", [
    ("placeholder", TF1), ("train.Saver", TF1), ("layers.dense", TF1), ("app.run", TF1),
    ("contrib.layers.conv2d", TF1), ("nn.relu", None), ("keras.layers.Dense", None),
    ("train.Checkpoint", None), ("autodiff.ForwardAccumulator", TF2), ("estimator", None),
    ("estimator.Estimator", None), ("estimator.inputs.numpy_input_fn", TF1),
    ("estimator.tpu.TPUEstimator", TF1), ("estimator.experimental.RNNClassifier", TF2),
])
def test_name_signal(relative: str, signal: str) -> None:
    assert name_signal(tf_api(), relative) == signal


@pytest.mark.parametrize("relative, keywords, positional, signal", [
    ("reduce_sum", ["keep_dims"], [None], TF1),
    ("reduce_sum", ["keepdims"], [None], None),
    ("image.resize", ["antialias"], [None, None], TF2),
    ("nn.dropout", [], ["x", "keep_prob"], TF1),
    ("nn.dropout", [], ["x", "rate"], None),
    ("nn.dropout", [], ["x", None], None),
    ("nn.relu", ["name"], [None], None),
    # TF1's name_scope(name, default_name, values): more than TF2's one positional.
    ("name_scope", [], ["scope", None, "values"], TF1),
    ("name_scope", [], ["scope"], None),
])
def test_call_signal(relative, keywords, positional, signal) -> None:  # type: ignore[no-untyped-def]
    assert call_signal(tf_api(), relative, keywords, positional) == signal


@pytest.mark.parametrize("qualified, head, expected", [
    ("tensorflow.train.Saver", "tensorflow", ("tensorflow", "train.Saver")),
    ("tensorflow.compat.v1.train.Saver", "tensorflow.compat.v1",
     ("tensorflow.compat.v1", "train.Saver")),
    ("tensorflow.logging.info", "tensorflow.logging", ("tensorflow", "logging.info")),
    ("tensorflow.core.protobuf.saver_pb2.SaverDef", "tensorflow.core.protobuf.saver_pb2", None),
    ("tensorflow.__version__", "tensorflow", None),
    ("tensorflow.compat.v1.X", "tensorflow", None),
    ("numpy.zeros", "numpy", None),
])
def test_api_use(qualified, head, expected) -> None:  # type: ignore[no-untyped-def]
    assert api_use(qualified, head) == expected


@pytest.mark.parametrize("source, expected", [
    # The file is TF1 (tf.train.Saver): compat_v1 shortens the detour contrib_symbols wrote.
    ("import tensorflow as tf\nsaver = tf.train.Saver()\n"
     "step = tf.contrib.framework.get_global_step()\n",
     "import tensorflow.compat.v1 as tf\nsaver = tf.train.Saver()\n"
     "step = tf.train.get_global_step()\n"),
    # Nothing else is TF1: the explicit tf.compat.v1 use already runs on TF2.
    ("import tensorflow as tf\nstep = tf.contrib.framework.get_global_step()\n",
     "import tensorflow as tf\nstep = tf.compat.v1.train.get_global_step()\n"),
])
def test_after_contrib_symbols(source: str, expected: str) -> None:
    from slimport.codemods.contrib_symbols import ContribSymbolsCommand

    tree = cst.parse_module(source)
    for command in (ContribSymbolsCommand, CompatV1Command):
        tree = command(CodemodContext()).transform_module(tree)
    assert tree.code == expected


# -- modules built on TF1 neighbours ------------------------------------------------

NEIGHBOURS = {
    "pkg/__init__.py": "",
    "pkg/core.py": "import tensorflow as tf\n\ndef scores(x):\n"
                   "    return tf.placeholder_with_default(x, [None])\n",
    "pkg/plain.py": "import tensorflow as tf\n\ndef relu(x):\n    return tf.nn.relu(x)\n",
    "other/__init__.py": "",
    "other/legacy.py": "import tensorflow as tf\nSESSION = tf.Session\n",
}


def _port_file(tmp_path, relative: str, source: str) -> str:
    from slimport import engine  # pylint: disable=import-outside-toplevel
    from slimport.codemods import CODEMODS  # pylint: disable=import-outside-toplevel
    for name, text in {**NEIGHBOURS, relative: source}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    ported = engine.port_source(source.encode(), str(tmp_path / relative), CODEMODS, {})
    assert ported.error is None
    return ported.data.decode()


@pytest.mark.parametrize("relative, source, expected", [
    # A library that hands TF objects to a TF1 module of its package: TF1 code (no switch).
    ("pkg/builder.py",
     "import tensorflow as tf\nfrom pkg import core\n\ndef build():\n"
     "    return core.scores, tf.nn.softmax\n",
     "import tensorflow.compat.v1 as tf\nfrom pkg import core\n\ndef build():\n"
     "    return core.scores, tf.nn.softmax\n"),
    # Relative imports count too; a test module of such a package is switched when imported.
    ("pkg/builder_test.py",
     "import tensorflow as tf\nfrom . import core\n\n\nclass T(tf.test.TestCase):\n"
     "    def test(self):\n        self.assertEqual(tf.image.ResizeMethod.BICUBIC, 2)\n",
     "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nfrom . import core\n\n\n"
     "class T(tf.test.TestCase):\n"
     "    def test(self):\n        self.assertEqual(tf.image.ResizeMethod.BICUBIC, 2)\n"),
    # A script outside any package, beside the TF1 package it imports.
    ("run.py", "import tensorflow as tf\nimport pkg.core\nprint(tf.nn.relu)\n",
     "import tensorflow.compat.v1 as tf\nimport pkg.core\nprint(tf.nn.relu)\n"),
    # Its Python 2 leftovers are ported too (a Keras extractor returning a dict's values).
    ("pkg/extractor.py",
     "import tensorflow as tf\nfrom pkg import core\n\ndef extract(maps):\n"
     "    return maps.values()\n",
     "import tensorflow.compat.v1 as tf\nfrom pkg import core\n\ndef extract(maps):\n"
     "    return list(maps.values())\n"),
])
def test_a_module_built_on_tf1_neighbours_is_tf1_code(tmp_path, relative, source,
                                                     expected) -> None:
    assert _port_file(tmp_path, relative, source) == expected


@pytest.mark.parametrize("relative, source", [
    # Its neighbour is TF2-valid too; another package's TF1 module is not its tree.
    ("pkg/builder.py", "import tensorflow as tf\nfrom pkg import plain\nx = tf.nn.softmax\n"),
    ("pkg/builder.py", "import tensorflow as tf\nfrom other import legacy\nx = tf.nn.softmax\n"),
    # A TF2 name decides for itself; a module without TensorFlow stays plain Python.
    ("pkg/builder.py", "import tensorflow as tf\nfrom pkg import core\n"
                       "y = tf.image.resize(x, (2, 2), antialias=True)\n"),
])
def test_neighbours_of_other_kinds_decide_nothing(tmp_path, relative, source) -> None:
    assert _port_file(tmp_path, relative, source) == source


# A project's test module beside the TF1 library it tests (tflearn 0.3.2's layout), as a
# package (tests/__init__.py) or a folder of loose modules; then, the same files where the
# folder is no project's (an installed package's folder: site-packages).
_PROJECT_TEST = ("import tensorflow as tf\nimport lib\n\n\nclass T(tf.test.TestCase):\n"
                 "    def test(self):\n        with tf.Graph().as_default():\n"
                 "            lib.build()\n")
_PROJECT_FILES = {
    "lib/__init__.py": "from lib.core import build\n",
    "lib/core.py": "import tensorflow as tf\n\ndef build():\n"
                   "    return tf.placeholder(tf.float32)\n",
}


@pytest.mark.parametrize("marker", ["setup.py", "setup.cfg", "pyproject.toml"])
@pytest.mark.parametrize("tests_package", [True, False], ids=["package", "loose"])
def test_a_projects_test_of_its_tf1_library_is_tf1_code(tmp_path, marker,
                                                       tests_package) -> None:
    project = _project(tmp_path, {marker: "", **({"tests/__init__.py": ""}
                                                 if tests_package else {})})
    assert _port_in(project, "tests/test_lib.py") == _PROJECT_TEST.replace(
        "import tensorflow as tf\n",
        "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n")


@pytest.mark.parametrize("files", [
    {"tests/__init__.py": ""},  # no setup.py, setup.cfg or pyproject.toml above
    {"setup.py": "", "lib/__init__.py": "import os\n"},  # the library is no TF1 code
], ids=["no project", "TF2-valid library"])
def test_other_packages_beside_it_decide_nothing(tmp_path, files) -> None:
    project = _project(tmp_path, files)
    assert _port_in(project, "tests/test_lib.py") == _PROJECT_TEST


def _project(tmp_path, files):
    for name, text in {**_PROJECT_FILES, **files, "tests/test_lib.py": _PROJECT_TEST}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _port_in(project, relative: str) -> str:
    from slimport import engine  # pylint: disable=import-outside-toplevel
    from slimport.codemods import CODEMODS  # pylint: disable=import-outside-toplevel
    path = project / relative
    ported = engine.port_source(path.read_bytes(), str(path), CODEMODS, {})
    assert ported.error is None
    return ported.data.decode()
