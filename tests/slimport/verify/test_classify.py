"""slimport.verify.classify: a finished check -> kind, failing statement, message, fix.

A table of exceptions as the worker reports them (type, message, frames), each
with the row it must become. The frames point into a small planted tree, so the
"inside the tree" and "next to the importing file" decisions are real.
"""
import pytest

from slimport.verify import classify, known
from slimport.verify import tree as tree_lib
from tests.slimport.conftest import write_tree


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    top = write_tree(tmp_path_factory.mktemp("tree"), {
        "pkg/__init__.py": "", "pkg/model.py": "", "pkg/sibling.py": "", "pkg/torch.py": "",
        "pkg/jax/__init__.py": "",
        "pkg/protos/__init__.py": "", "src/__init__.py": "", "src/facenet.py": "",
        "facenet/__init__.py": "", "facenet/src/__init__.py": "", "scripts/lfw.py": "",
    })
    return tree_lib.discover(str(top))


def _error(tree, kind, message, line=3, source="x = 1", **extra):
    frames = [["<frozen importlib._bootstrap>", 1, "_call", ""],
              [f"{tree.top}/pkg/model.py", line, "<module>", source],
              ["/usr/lib/python3/site-packages/thing.py", 9, "inner", "raise"]]
    return dict({"type": kind, "message": message, "frames": frames}, **extra)


def _row(tree, error, check="import"):
    return classify.classify(check, "pkg.model", "pkg/model.py",
                             {"status": "error", "error": error, "seconds": 0.1}, "", 1, 123,
                             tree, 60.0)


@pytest.mark.parametrize("kind, message, source, extra, expected, fix, install", [
    ("ModuleNotFoundError", "No module named 'cv2'", "import cv2", {"name": "cv2"},
     "blocked", "pip install opencv-python-headless", "opencv-python-headless"),
    ("ModuleNotFoundError", "No module named 'PIL'", "import PIL.Image", {"name": "PIL"},
     "blocked", "pip install pillow", "pillow"),
    ("ModuleNotFoundError", "No module named 'sklearn'", "from sklearn.svm import SVC",
     {"name": "sklearn"}, "blocked", "pip install scikit-learn", "scikit-learn"),
    ("ModuleNotFoundError", "No module named 'yaml'", "import yaml", {"name": "yaml"},
     "blocked", "pip install PyYAML", "PyYAML"),
    ("ModuleNotFoundError", "No module named 'nets'", "from nets import mobilenet_v1",
     {"name": "nets"}, "blocked", "research/slim", None),
    ("ModuleNotFoundError", "No module named 'pkg.protos.box_pb2'",
     "from pkg.protos import box_pb2", {"name": "pkg.protos.box_pb2"}, "blocked",
     None, None),
    ("ModuleNotFoundError", "No module named 'urllib2'", "import urllib2",
     {"name": "urllib2"}, "python2", "urllib.request", None),
    # A module next to the importer: a script's own directory, or Python 2.
    ("ModuleNotFoundError", "No module named 'sibling'", "import sibling",
     {"name": "sibling"}, "blocked", "--path pkg", None),
    # ... unless the name is a known package: then it is that package (keras has
    # keras/src/export/torch.py beside a test that imports the real torch).
    ("ModuleNotFoundError", "No module named 'torch'", "import torch", {"name": "torch"},
     "blocked", "pip install torch", "torch"),
    ("ModuleNotFoundError", "No module named 'jax'", "import jax", {"name": "jax"},
     "blocked", "pip install jax", "jax"),
    # A module of the tree whose directory is not on sys.path.
    ("ModuleNotFoundError", "No module named 'lfw'", "import lfw", {"name": "lfw"},
     "blocked", "--path scripts", None),
    ("ModuleNotFoundError", "No module named 'tensorflow.contrib'",
     "from tensorflow.contrib.framework import arg_scope", {"name": "tensorflow.contrib"},
     "fails", "tf_slim.arg_scope", None),
    ("ModuleNotFoundError", "No module named 'tensorflow.contrib'",
     "from tensorflow.contrib.image.python.ops import image_ops",
     {"name": "tensorflow.contrib"}, "fails", "slimport maps", None),
    ("ModuleNotFoundError", "No module named 'tensorflow.contrib'",
     "from tensorflow.contrib.layers.python.layers import layers",
     {"name": "tensorflow.contrib"}, "fails", "to tf_slim.layers.layers", None),
    ("ModuleNotFoundError", "No module named 'tensorflow.contrib'",
     "from tensorflow.contrib import nccl", {"name": "tensorflow.contrib"}, "fails",
     "removed with tf.contrib", None),
    ("ModuleNotFoundError", "No module named 'tf_keras.legacy_tf_layers'",
     "net = slim.conv2d(images, 32)", {"name": "tf_keras.legacy_tf_layers"}, "fails",
     "import slim_ext", None),
    # TensorFlow's own package, ported: its public API imported while it loads.
    ("ModuleNotFoundError", "No module named 'tensorflow.compat'",
     "import tensorflow.compat.v1 as tf", {"name": "tensorflow.compat"}, "fails",
     "circular import", None),
    ("AttributeError", "module 'tensorflow._api.v2.compat.v1.__internal__.types' has no "
     "attribute 'Tensor'", "Tensor = tf.__internal__.types.Tensor", {}, "fails",
     "TF2 code and needs `import tensorflow as tf`", None),
    ("AttributeError", "module 'tensorflow.python.framework.ops' has no attribute 'Tensor'",
     "net = slim.conv2d(x, 3)", {}, "fails", "import slim_ext", None),
    ("AttributeError", "module 'tensorflow' has no attribute 'placeholder'",
     "x = tf.placeholder(tf.float32)", {}, "fails", "tensorflow.compat.v1", None),
    ("AttributeError", "module 'tensorflow' has no attribute 'estimator'",
     "tf.estimator.Estimator", {}, "fails", "removed in TensorFlow 2.16", None),
    ("AttributeError", "module 'tensorflow' has no attribute 'app'",
     "flags = tf.app.flags", {}, "fails", "absl.flags", None),
    ("AttributeError", "module 'tensorflow.compat.v1' has no attribute 'mul'",
     "y = tf.mul(a, b)", {}, "fails", "renamed or removed", None),
    ("AttributeError", "module 'numpy' has no attribute 'float'", "np.float(3)", {},
     "fails", "use float", None),
    ("AttributeError", "module 'sys' has no attribute 'maxint'", "sys.maxint", {},
     "python2", "sys.maxsize", None),
    ("AttributeError", "'dict' object has no attribute 'iteritems'", "d.iteritems()", {},
     "python2", "items()", None),
    ("AttributeError", "module 'json' has no attribute 'frobnicate'", "json.frobnicate()",
     {}, "blocked", "another version of json", None),
    ("NameError", "name 'unicode' is not defined", "unicode(x)", {}, "python2", "str", None),
    ("NameError", "name 'undefined_thing' is not defined", "undefined_thing()", {}, "fails",
     None, None),
    ("ImportError", "cannot import name 'imread' from 'scipy.misc' (/x/scipy/misc.py)",
     "from scipy.misc import imread", {"name": "scipy.misc"}, "blocked",
     "another version of scipy", None),
    ("ImportError", "cannot import name 'Tensor' from 'tensorflow.python.framework.ops'",
     "from tensorflow.python.framework.ops import Tensor",
     {"name": "tensorflow.python.framework.ops"}, "fails", "import slim_ext", None),
    ("ImportError", "cannot import name 'a' from partially initialized module 'pkg.model' "
     "(most likely due to a circular import)", "from pkg.model import a",
     {"name": "pkg.model"}, "fails", None, None),
    ("UnparsedFlagAccessError", "Trying to access flag --batch_size before flags were "
     "parsed.", "BATCH = FLAGS.batch_size", {}, "fails", "read the flag inside main()", None),
    ("IllegalFlagValueError", "flag --alpha=0.2: Expect argument to be a string or int",
     "flags.DEFINE_integer('alpha', 0.2, 'a')", {}, "tree-bug", "its own type", None),
    ("DuplicateFlagError", "The flag 'data_dir' is defined twice. First from "
     "slim_ext.uflag, Second from train.py.", "flags.DEFINE_string('data_dir', '', '')",
     {}, "fails", None, None),
    ("DuplicateFlagError", "The flag 'lr' is defined twice. First from a.py, Second from "
     "b.py.", "flags.DEFINE_float('lr', 0.1, '')", {}, "tree-bug", "define each flag once",
     None),
    ("RemovedInTF2Error", "tf.contrib.training.HParams was removed ...; use a dict",
     "HPARAMS = HParams(a=1)", {}, "fails", "use a dict", None),
    ("TypeError", "Descriptors cannot be created directly.", "_descriptor.FieldDescriptor(",
     {}, "blocked", "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python", None),
    ("FileNotFoundError", "[Errno 2] No such file or directory: 'labels.txt'",
     "LABELS = open('labels.txt').read()", {}, "import-work", None, None),
    ("SystemExit", "2", "ARGS = parser.parse_args()", {"code": "2"}, "import-work", None,
     None),
    ("ValueError", "something else entirely", "x = f()", {}, "fails", None, None),
])
def test_classification(tree, kind, message, source, extra, expected, fix, install):
    row = _row(tree, _error(tree, kind, message, source=source, **extra))
    assert row.kind == expected, row
    assert row.where == "pkg/model.py:3"
    assert row.statement == source
    if fix is None:
        assert row.fix is None, row
    else:
        assert fix in (row.fix or ""), row
    assert row.install == install


def test_syntax_error_points_at_the_file_that_does_not_parse(tree):
    error = {"type": "SyntaxError", "message": "Missing parentheses in call to 'print'. "
             "Did you mean print(...)?", "frames": [], "filename": f"{tree.top}/pkg/sibling.py",
             "lineno": 7, "text": 'print "x"'}
    row = _row(tree, error)
    assert (row.kind, row.where, row.statement) == ("python2", "pkg/sibling.py:7", 'print "x"')
    assert "the print statement" in row.fix


def test_a_name_two_modules_share_is_not_blamed_on_the_port(tree):
    # `import facenet.src.x` with src/ first on sys.path finds src/facenet.py.
    tree = tree_lib.Tree(tree.top, [f"{tree.top}/src", tree.top], tree.modules)
    error = _error(tree, "ModuleNotFoundError",
                   "No module named 'facenet.src'; 'facenet' is not a package",
                   source="import facenet.src.facenet as fc", name="facenet.src")
    row = _row(tree, error)
    assert row.kind == "blocked", row
    assert "src/facenet.py" in row.message and "facenet/src/__init__.py" in row.message


def test_errors_outside_the_tree_point_at_the_deepest_outside_frame(tree):
    error = {"type": "ValueError", "message": "bad", "frames": [
        ["/probes/corpus_probes.py", 12, "build", "return net(x)"],
        ["/site-packages/lib.py", 40, "net", "raise ValueError('bad')"]]}
    assert _row(tree, error, check="build").where == "/site-packages/lib.py:40"


@pytest.mark.parametrize("status, check, exit_code, output, kind, message", [
    ("timeout", "import", 1, "", "import-work", "did not finish in 60 s"),
    ("timeout", "build", 1, "", "fails", "did not finish in 60 s"),
    ("crashed", "import", -11, "", "fails", "the process died (signal 11)"),
    ("crashed", "import", 3, "", "fails", "the process exited with status 3 and no result"),
])
def test_time_limits_and_crashes(tree, status, check, exit_code, output, kind, message):
    row = classify.classify(check, "t", "", {"status": status, "seconds": 60.0}, output,
                            exit_code, 1, tree, 60.0)
    assert (row.kind, row.message) == (kind, message)


def test_stack_dump_gives_where_a_hang_was(tree):
    dump = ("Timeout (0:01:00)!\nThread 0x01 (most recent call first):\n"
            '  File "/usr/lib/python3.11/threading.py", line 320 in wait\n'
            f'  File "{tree.top}/pkg/model.py", line 2 in <module>\n')
    row = classify.classify("import", "pkg.model", "pkg/model.py",
                            {"status": "timeout", "seconds": 60.0}, dump, 1, 1, tree, 60.0)
    assert row.where == "pkg/model.py:2"


@pytest.mark.parametrize("module, install, elsewhere", [
    ("cv2", "opencv-python-headless", None),
    ("google.protobuf.text_format", "protobuf", None),
    ("tf_slim", "tf-slim", None),
    ("slim_ext", None, known.ELSEWHERE["slim_ext"]),
    ("deployment.model_deploy", None, known.ELSEWHERE["deployment"]),
    ("requests", "requests", None),
])
def test_distribution_names(module, install, elsewhere):
    assert known.distribution(module) == (install, elsewhere)


def test_ok_rows_say_what_was_done(tree):
    build = classify.classify("build", "f:lenet", "", {
        "status": "ok", "seconds": 2.0, "details": {
            "loss": 2.3, "trainable_variables": 8, "parameters": 1234}}, "", 0, 1, tree, 60)
    assert build.message == "built; one training step, loss 2.3 (1,234 parameters)"
    script = classify.classify("script", "train", "train.py", {
        "status": "ok", "details": {"stopped_at_help": True, "flags": ["a", "b"]}}, "", 0, 1,
        tree, 60)
    assert script.message == "printed its flags (2 defined)"
