"""Skeletons: what they keep, that they expand back byte for byte, and that porting on
skeletons gives what whole-file passes give (the fuzz tests in tests/reliability check
the same on 500 generated programs)."""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Callable, List, Optional

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from libcst.matchers._visitors import (
    _gather_constructed_leave_funcs,
    _gather_constructed_visit_funcs,
    _gather_matchers,
)
from libcst.codemod import CodemodContext
from libcst.metadata import MetadataWrapper, PositionProvider

from slimport import engine
from slimport.engine import skeleton
from slimport.codemods import CODEMODS, SlimportCodemod
from slimport.analysis.lines import ModuleCodes, lines_of
from slimport.analysis.names import collect_bindings, statement_chains
from slimport.analysis.source_tree import SourceTree
from tests.examples import _platform_tree

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_FILES = sorted((REPO / "examples" / "slim_tf1").rglob("*.py")) + sorted(
    path for example in ("estimator_tf1", "cifar10_estimator_tf1", "estimator_tf2",
                         "keras_estimator_tf2")
    for path in (REPO / "examples" / example).glob("*.py"))
sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic_tree  # noqa: E402  (benchmarks/ is not a package)
from tests.slimport.test_ported_tf1_runs import LEGACY_MODEL  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

NET = '''\
import tensorflow as tf
slim = tf.contrib.slim


def net(inputs, scope=None):
    """Doc."""
    with tf.variable_scope(scope, 'Net', [inputs]):
        x = slim.conv2d(inputs, 8, [3, 3])  # keep me
        y = tf.nn.relu(x); z = y
        if z is not None: w = tf.contrib.layers.flatten(z)
        for i in range(2):
            x = x + 1
        return tf.contrib.layers.flatten(x)


class Model(object):

    @property
    def size(self):
        return 3
'''


def _build(text: str, needed: Callable[[ast.stmt], bool]) -> skeleton.Skeleton:
    tree = ast.parse(text)
    return skeleton.build(text, tree, collect_bindings(tree), needed)


def _mentions(word: str) -> Callable[[ast.stmt], bool]:
    return lambda statement: any(word in parts for parts in statement_chains(statement))


def test_keeps_needed_statements_their_blocks_and_shared_lines() -> None:
    # The class has nothing needed: it goes whole, into a placeholder definition.
    cut = _build(NET, _mentions("contrib"))
    assert cut.text == '''\
import tensorflow as tf
slim = tf.contrib.slim


def net(inputs, scope=None):
    __slimport_elided_0__()
    with tf.variable_scope(scope, 'Net', [inputs]):
        __slimport_elided_1__(inputs, slim, x)
        y = tf.nn.relu(x); z = y
        if z is not None: w = tf.contrib.layers.flatten(z)
        __slimport_elided_2__(i, range, x)
        return tf.contrib.layers.flatten(x)


def __slimport_elided_3__(): __slimport_elided_3__(Model, object, property, self, size)
'''
    assert cut.expand(cut.text) == NET
    # Each kept line is the source line it says it is; a placeholder points at the
    # first line it hides.
    lines = skeleton.source_lines(NET)
    for line, origin in zip(skeleton.source_lines(cut.text), cut.origins):
        assert line == lines[origin - 1] or cut.elided[line].startswith(lines[origin - 1])
    assert cut.origins[5] == 6  # the docstring's line, elided


def test_expand_refuses_a_changed_or_repeated_placeholder() -> None:
    cut = _build(NET, lambda statement: False)
    placeholder = next(iter(cut.elided))
    changed = placeholder.replace("__(", "__(added, ")
    assert cut.expand(cut.text.replace(placeholder, changed)) is None
    assert cut.expand(cut.text + placeholder) is None


@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hypothesmith.from_grammar())
def test_any_program_cut_to_nothing_parses_and_expands_back(source: str) -> None:
    cut = _build(source, lambda statement: False)
    ast.parse(cut.text)
    cst.parse_module(cut.text)
    assert cut.expand(cut.text) == source


# Python's line breaks are \r\n, \r and \n; str.splitlines breaks at more.
PYTHON_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
LINE_BREAK_TEXTS = ["", "a", "a\n", "a\r\nb", "a\rb\r", "\n\n", "x\r\n\r\n", "\r", "a\n\rb",
                    "a\x0cb\n", "a\x0bb\x1cc\x1dd\x1e", "\u00e9\u2028x\n", "y\x85z\u2029\r\n"]


@pytest.mark.parametrize("text", LINE_BREAK_TEXTS)
def test_source_lines_breaks_where_python_does(text: str) -> None:
    assert skeleton.source_lines(text) == PYTHON_LINES.findall(text)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet="ab\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\u00e9"))
def test_source_lines_of_any_mix_of_breaks(text: str) -> None:
    assert "".join(skeleton.source_lines(text)) == text
    assert skeleton.source_lines(text) == PYTHON_LINES.findall(text)


def _port_both_ways(data: bytes, name: str,
                    source_tree: Optional[SourceTree] = None) -> engine.Ported:
    facts = None if source_tree is None else {"source_tree": source_tree}
    ported = engine.port_source(data, name, CODEMODS, {}, tree_facts=facts)
    whole = engine.port_source(data, name, CODEMODS, {}, sparse=False, tree_facts=facts)
    assert ported.error is None, (name, ported.error)
    assert ported.data == whole.data, name
    assert ported.findings == whole.findings, name
    return ported


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_example_tree_ports_the_same_on_skeletons(path: Path) -> None:
    _port_both_ways(path.read_bytes(), str(path))


@pytest.mark.parametrize("with_sdk", [True, False], ids=["sdk", "no_sdk"])
def test_platform_tree_ports_the_same_on_skeletons(tmp_path: Path, with_sdk: bool) -> None:
    # The files the platform wrote or changed (SDK imports, hand mapping, own servers, a
    # fixed model_deploy), with the tree the engine hands the codemods.
    tree = _platform_tree.assemble(tmp_path / "platform", with_sdk)
    source_tree = engine.make_plan([tree]).source_tree
    for path in sorted(tree.rglob("*.py")):
        if path.name in ("train_image_classifier.py", "model_deploy.py", "uflag.py"):
            _port_both_ways(path.read_bytes(), str(path), source_tree)


# What the leftover codemods (tf0_names, py2_leftovers, numpy_aliases, slim_ext_import,
# moved_modules, the deep contrib paths) decide from bindings a skeleton could elide.
LEFTOVERS = [LEGACY_MODEL, '''\
import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers.python.layers import layers as layers_lib
from tensorflow.examples.tutorials.mnist import input_data


def steps(n):
    total = 0
    table = {}
    for i in xrange(n):
        total += i
    return table.iteritems(), tf.mul(total, 2)


def shadowed(xrange, float):
    unused = 1
    other = 2
    return xrange(3), np.float(float), layers_lib.conv2d


def rebinds():
    d = {}
    d = load()
    x = 1
    return d.iteritems(), tf.concat(1, [x, x])


def late():
    value = 3
    import tf_slim as slim
    return slim.conv2d(tf.nn.rnn_cell.LSTMCell(value), 1, 1)
''', '''\
import tensorflow as tf


def inputs():
    unused = 1
    return tf.placeholder(tf.float32, [None, 4])


def head(x):
    other = 2
    return tf.keras.layers.Dense(3)(x)


def compiled(lr):
    opt = tf.train.AdamOptimizer(lr)
    model = build()
    model.compile(opt, 'mse')
    return tf.estimator.train_and_evaluate(model, 1, 2)


def strategy():
    step = 0
    return tf.distribute.experimental.ParameterServerStrategy()
''', '''\
from __future__ import print_function
import pickle
import tensorflow as tf
from tensorflow.python.util import nest


def apply(fn, x):
    unused = 1
    out = map(fn, nest.flatten(x))
    other = 2
    return nest.pack_sequence_as(x, out)


def swap(n):
    dims = range(n)
    skipped = 3
    dims[0], dims[1] = dims[1], dims[0]
    return tf.zeros(dims)


def vocab(path):
    with tf.gfile.Open(path, 'r') as f:
        unused = 1
        header = f.readline()
        table = pickle.load(f)
    with open(path) as g:
        other = 2
        names = pickle.load(g)
    conv_list = [k if k[:4] == 'conv' else None for k in names]
    more = 3
    conv_list.sort()
    return table, conv_list
''']


@pytest.mark.parametrize("source", LEFTOVERS)
def test_leftover_codemods_port_the_same_on_skeletons(source: str) -> None:
    ported = _port_both_ways(source.encode("utf-8"), "leftovers.py")
    assert ported.data != source.encode("utf-8")


# A TF 1.4 map's receiver is traced through every binding of its name: a skeleton that
# elided ``dataset = reader.open(files)`` would make it look like a certain dataset.
TRACED_DATASETS = '''\
import tensorflow as tf


def prepare(files, reader, parse):
    size = 4
    dataset = tf.data.TFRecordDataset(files)
    size = size * 2
    if reader:
        dataset = reader.open(files)
    size = size + 1
    return dataset.map(parse, num_threads=size)


def certain(files, parse):
    size = 4
    dataset = tf.data.TFRecordDataset(files).repeat()
    size = size * 2
    dataset = dataset.shuffle(size)
    return dataset.map(parse, num_threads=size, output_buffer_size=size)
'''


def test_dataset_receivers_are_traced_the_same_on_skeletons() -> None:
    ported = _port_both_ways(TRACED_DATASETS.encode("utf-8"), "inputs.py")
    text = ported.data.decode("utf-8")
    assert "dataset.map(parse, num_threads=size)\n" in text
    assert "dataset.map(parse, num_parallel_calls=size).prefetch(size)\n" in text


def test_a_codemod_that_declines_the_users_file_gets_no_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # py2_division's / is Python 2's only in Python 2 code: in a Python 3 file (most) it
    # is never made, and the statements that divide are kept for no one.
    from slimport.codemods.py2_division import Py2DivisionCommand

    started: List[str] = []
    start = Py2DivisionCommand.start_leftovers
    monkeypatch.setattr(Py2DivisionCommand, "start_leftovers",
                        lambda self, tree, parsed: started.append(self.context.filename)
                        or start(self, tree, parsed))
    python3 = "import numpy as np\n\n\ndef half(x):\n    return np.ones(3) / 2\n"
    assert _port_both_ways(python3.encode("utf-8"), "py3.py").data == python3.encode("utf-8")
    python2 = python3.replace("np.ones(3)", "len(xrange(3))")
    assert b"len(range(3)) // 2" in _port_both_ways(python2.encode("utf-8"), "py2.py").data
    assert set(started) == {"py2.py"}


# The codemods a skeleton does not serve, and why. Any other codemod without a statement
# filter makes each file it applies to a whole-file pass for every codemod of its run
# (structured_array_asserts did, on 52 object detection test files: a fifth more CPU).
WHOLE_FILE_CODEMODS = {
    # one file a tree (slim's model_deploy.py), read as a whole class
    "replica_device": "edits the DeploymentConfig class of model_deploy.py as a whole",
    # rare (a private Keras method); its class checks read every base of the file
    "tf_internals": "follows a class and the file's classes between it and Keras",
    # the order of all TensorFlow work before the strategy decides
    "late_collective_strategy": "reads everything a program runs before its strategy",
}


def test_only_the_listed_codemods_need_whole_files() -> None:
    whole = {codemod.NAME for codemod in CODEMODS
             if codemod.statement_filter.__func__  # type: ignore[attr-defined]
             is SlimportCodemod.statement_filter.__func__}  # type: ignore[attr-defined]
    assert whole == set(WHOLE_FILE_CODEMODS)


# Test classes that define, inherit or assign the assertions the class-following
# codemods port: a skeleton that hid a method definition had them rename a call to the
# class's own method (test_case_asserts, on its own, before the tracker's statements
# were kept).
CLASS_FOLLOWING = {
    "test_case_asserts": ("""\
import tensorflow as tf


class OwnAssertions(tf.test.TestCase):

  def setUp(self):
    self.session = tf.Session()

  def assertItemsEqual(self, a, b):
    return sorted(a) == sorted(b)

  def helper(self):
    return 2

  def test_own(self):
    self.assertItemsEqual([1], [1])


class Assigned(tf.test.TestCase):

  def setUp(self):
    self.assertItemsEqual = lambda a, b: None

  def test_assigned(self):
    self.assertItemsEqual([1], [1])


class Inherits(tf.test.TestCase):
  pass


class Derived(Inherits):

  def test_renamed(self):
    self.assertItemsEqual([1], [1])
""", ["self.assertItemsEqual([1], [1])", "self.assertItemsEqual([1], [1])",
      "self.assertCountEqual([1], [1])"]),
    "structured_array_asserts": ("""\
import numpy as np
import tensorflow as tf

RECORD = [('a', 'i4'), ('b', 'i4')]


class OwnAssertion(tf.test.TestCase):

  def assertAllEqual(self, a, b):
    return (a == b).all()

  def helper(self):
    return 2

  def test_own(self):
    self.assertAllEqual(np.array([(1, 2)], dtype=[('a', 'i4'), ('b', 'i4')]), 1)


class Ported(tf.test.TestCase):

  def helper(self):
    return 2

  def test_ported(self):
    self.assertAllEqual(np.array([(1, 2)], dtype=[('a', 'i4'), ('b', 'i4')]), 1)
""", ["self.assertAllEqual(np.array([(1, 2)], dtype=[('a', 'i4'), ('b', 'i4')]), 1)",
      "slim_ext.test_util.assert_all_equal(self, np.array([(1, 2)], "
      "dtype=[('a', 'i4'), ('b', 'i4')]), 1)"]),
}


@pytest.mark.parametrize("name", sorted(CLASS_FOLLOWING))
def test_a_class_following_codemod_ports_the_same_on_its_own_skeleton(name: str) -> None:
    source, calls = CLASS_FOLLOWING[name]
    codemod = [codemod for codemod in CODEMODS if codemod.NAME == name]
    ported = engine.port_source(source.encode(), "x_test.py", codemod, {})
    whole = engine.port_source(source.encode(), "x_test.py", codemod, {}, sparse=False)
    assert (ported.data, ported.findings) == (whole.data, whole.findings)
    assert [line.strip() for line in ported.data.decode().splitlines()
            if line.strip().startswith(("self.assert", "slim_ext."))
            and "lambda" not in line] == calls


# Library APIs and TF internals the leftover codemods port by what a name is bound to in
# its scope, or by the whole tree's facts (given here as the engine's pre-pass would).
LIBRARY_LEFTOVERS = '''\
import csv
import fractions
import unittest

import librosa
import matplotlib.pyplot as plt
import numpy as np
import PIL.Image
import scipy.misc
import tensorflow as tf
from PIL import ImageFont


def label(draw, text):
    unused = 1
    try:
        font = ImageFont.truetype('arial.ttf', 24)
    except IOError:
        font = ImageFont.load_default()
    return font.getsize(text), tf.placeholder(tf.float32)


def plot(values):
    other = 2
    fig = plt.figure()
    fig.add_subplot('111')
    return np.fromstring(fig.canvas.tostring_rgb(), dtype='uint8')


def dummy(path):
    unused = 3
    data = np.random.rand(8, 8, 3)
    PIL.Image.fromarray(data, 'RGB').save(path)
    return scipy.misc.imread(path), csv.reader(open(path)).next()


def fused(graph):
    unused = 4
    return any(op.type == 'FusedBatchNorm' for op in graph.get_operations())


def frames(data):
    unused = 5
    return data[['a', 'b']].as_matrix(), data.tostring()


class Scaled(tf.keras.layers.Conv2D):
    def call(self, inputs):
        unused = 6
        return self._convolution_op(inputs, self.kernel * 2.0)


class Test(unittest.TestCase):
    def test(self):
        unused = 7
        self.assertItemsEqual([1], [1])


def is_crowd(flags):
    unused = 8
    return tf.train.Int64List(value=flags)


def audio(y, sr, t, axis):
    unused = 10
    s = [slice(None)] * t.ndim
    other = 9
    s[axis] = slice(0, 1)
    mel = librosa.feature.melspectrogram(y, sr)
    ramp = np.linspace(0, 1, sr * 0.5)
    return t[s], t._shape, np.stack(x for x in y), mel, fractions.gcd(sr, 2), ramp


def save(path, y, sr):
    unused = 11
    librosa.output.write_wav(path, y, sr, norm=True)


def controls(control):
    unused = 12
    if np.size(control):
        return control
'''


def test_library_leftovers_port_the_same_on_skeletons() -> None:
    facts = {"tree_methods": frozenset(), "tree_imports": frozenset({"pandas", "matplotlib"}),
             "tree_binds_private_shape": False}
    data = LIBRARY_LEFTOVERS.encode("utf-8")
    ported = engine.port_source(data, "library.py", CODEMODS, {}, tree_facts=facts)
    whole = engine.port_source(data, "library.py", CODEMODS, {}, sparse=False,
                               tree_facts=facts)
    assert ported.error is None and ported.data == whole.data
    assert ported.findings == whole.findings
    text = ported.data.decode("utf-8")
    for written in ("font.getbbox(text)[2:]", "add_subplot(111)", "buffer_rgba()",
                    "PIL.Image.frombuffer('RGB'", "slim_ext.scipy_misc.imread(path)",
                    "next(csv.reader(open(path)))", "('FusedBatchNorm', 'FusedBatchNormV3')",
                    "data[['a', 'b']].to_numpy()", "data.tobytes()",
                    "self.convolution_op(", "self.assertCountEqual(",
                    "value=slim_ext.protobuf3.int64_values(flags)", "t[tuple(s)], t.shape",
                    "np.stack([x for x in y])", "melspectrogram(y=y, sr=sr)",
                    "slim_ext.stdlib.fractions_gcd(sr, 2)", "np.linspace(0, 1, int(sr * 0.5))",
                    "slim_ext.librosa_output.write_wav(path, y, sr, norm=True)",
                    "if slim_ext.numpy1.size(control):"):
        assert written in text, written


def test_generated_slim_tree_ports_the_same_on_skeletons() -> None:
    sources = list(synthetic_tree.corpus_files(30, seed=7))
    changed = 0
    for source in sources:
        ported = _port_both_ways(source.text.encode("utf-8"), source.path)
        changed += ported.data != source.text.encode("utf-8")
    assert changed >= 20  # the corpus is TF1 code: most files need porting


class _RenamesEveryTf(SlimportCodemod):
    """Edits names inside elided code, so the engine must fall back to the whole file."""

    NAME = "renames_every_tf"
    DESCRIPTION = "tf -> tensorflow everywhere"
    TRIGGERS = ("tf",)

    @classmethod
    def statement_filter(cls, tree, bindings):  # type: ignore[no-untyped-def]
        return lambda statement: False

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if original_node.value != "tf":
            return updated_node
        self.record_edit(original_node, "tf -> tensorflow")
        return updated_node.with_changes(value="tensorflow")


def test_a_codemod_reaching_into_elided_code_gets_the_whole_file() -> None:
    data = NET.encode("utf-8")
    ported = engine.port_source(data, "net.py", [_RenamesEveryTf], {})
    whole = engine.port_source(data, "net.py", [_RenamesEveryTf], {}, sparse=False)
    assert ported.data == whole.data
    assert b"tf." not in ported.data
    assert [f.line for f in ported.findings] == [f.line for f in whole.findings]


@pytest.mark.parametrize("path", EXAMPLE_FILES[:6], ids=lambda path: path.name)
def test_finding_lines_are_position_provider_lines(path: Path) -> None:
    module = cst.parse_module(path.read_bytes())
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = lines_of(module, list(positions))
    assert all(found[id(node)] == where.start.line for node, where in positions.items())


# Each of Python's line breaks throughout a file; "\r\n" is a CRLF tree's (research/slim's),
# where the line counts take their other route.
@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
@pytest.mark.parametrize("path", EXAMPLE_FILES[:3], ids=lambda path: path.name)
def test_lines_with_other_line_breaks_are_position_provider_lines(path: Path, newline: str
                                                                  ) -> None:
    text = path.read_text().replace("\n", newline)
    # And one statement split by a backslash at an LF, amid the other breaks.
    module = cst.parse_module(text + "x = 1 + \\\n    2" + newline)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = lines_of(module, list(positions))
    assert all(found[id(node)] == where.start.line for node, where in positions.items())
    starts = ModuleCodes().starts(module)
    own_lines = [positions[statement].start.line - len(statement.leading_lines)
                 for statement in module.body]
    assert starts == own_lines


@pytest.mark.parametrize("codemod", CODEMODS, ids=lambda codemod: codemod.NAME)
def test_codemods_use_no_matcher_decorators_or_field_visitors(codemod: type) -> None:
    # SlimportCodemod skips MatcherDecoratableTransformer's set-up, which only
    # matters to codemods that use its decorators.
    command = codemod(CodemodContext())
    # Nor visit_<Node>_<field> methods, which SlimportCodemod does not look up.
    ours = [name for cls in codemod.__mro__ if cls.__module__.startswith("slimport.")
            for name in vars(cls)]
    assert not [name for name in ours if name.startswith(("visit_", "leave_"))
                and "_" in name.split("_", 1)[1]]
    assert not _gather_matchers(command)
    assert not _gather_constructed_visit_funcs(command)
    assert not _gather_constructed_leave_funcs(command)


def test_skeletons_are_smaller_than_the_files() -> None:
    kept: List[int] = []
    total = 0
    for source in synthetic_tree.corpus_files(20, seed=3):
        tree = ast.parse(source.text)
        bindings = collect_bindings(tree)
        total += source.text.count("\n")
        for codemod in CODEMODS:
            needed = codemod.statement_filter(tree, bindings)
            if codemod.applies_to(source.text) and needed is not None:
                kept.append(skeleton.build(source.text, tree, bindings, needed).text.count("\n"))
    assert kept and sum(kept) / len(kept) < 0.8 * total / 20


def test_a_line_inside_a_message_is_a_line_of_the_file() -> None:
    # The helper's body is elided, so the flags sit higher up in the skeleton.
    source = (
        "import tensorflow as tf\n\n\n"
        "def helper(x):\n    a = 1\n    b = 2\n    return tf.nn.relu(x) + a + b\n\n\n"
        "tf.app.flags.DEFINE_string('train_dir', '', 'x')\n"
        "tf.app.flags.DEFINE_string('train_dir', '', 'y')\n"
    )
    ported = _port_both_ways(source.encode("utf-8"), "flags.py")
    [twice] = [f for f in ported.findings if f.kind == "attention"]
    assert (twice.line, twice.message) == (11, "flag 'train_dir' is defined twice "
                                               "(first at line 10)")


def test_a_file_that_spells_a_placeholder_ports_as_over_the_whole_file() -> None:
    # Such a file gets no skeleton: its own line could be taken for a placeholder.
    source = NET.replace("x = x + 1", "__slimport_elided_2__(i, range, x)")
    assert "__slimport_elided_2__" in source
    _port_both_ways(source.encode("utf-8"), "net.py")
