"""slimport.verify.tree: import names, sys.path roots and entry scripts of a tree."""
import pytest

from slimport.verify import tree as tree_lib
from tests.slimport.conftest import write_tree

ABSL_SCRIPT = ("from absl import app\ndef main(_):\n  pass\n"
               "if __name__ == '__main__':\n  app.run(main)\n")


def _names(found):
    return {module.relpath: (module.name, module.root) for module in found.modules}


def test_packages_are_named_from_the_tree_root(tmp_path):
    write_tree(tmp_path, {"nets/__init__.py": "", "nets/lenet.py": "", "train.py": "",
                          "nets/sub/__init__.py": "", "nets/sub/deep.py": ""})
    found = tree_lib.discover(str(tmp_path))
    root = str(tmp_path.resolve())
    assert _names(found) == {
        "nets/__init__.py": ("nets", root), "nets/lenet.py": ("nets.lenet", root),
        "nets/sub/__init__.py": ("nets.sub", root), "nets/sub/deep.py": ("nets.sub.deep", root),
        "train.py": ("train", root)}
    assert found.roots == [root]


@pytest.mark.parametrize("init", [
    "from tf_slim.layers import layers\n",   # imports itself by its package name
    "from .layers import layers\n",          # a relative import: only a package does that
])
def test_a_tree_that_imports_itself_as_a_package_is_that_package(tmp_path, init):
    write_tree(tmp_path, {"tf_slim/__init__.py": init, "tf_slim/layers/__init__.py": "",
                          "tf_slim/layers/layers.py": ""})
    found = tree_lib.discover(str(tmp_path / "tf_slim"))
    assert {m.name for m in found.modules} == {"tf_slim", "tf_slim.layers",
                                               "tf_slim.layers.layers"}
    assert found.roots == [str(tmp_path.resolve())]
    assert "the tree is a package" in found.reasons[found.roots[0]]
    assert found.top_level_names() == ["tf_slim"]


def test_a_root_init_does_not_make_research_slim_a_package(tmp_path):
    # research/slim has an __init__.py at its root; its scripts import `from nets import`.
    write_tree(tmp_path / "slim_tf2", {
        "__init__.py": "", "nets/__init__.py": "", "nets/lenet.py": "",
        "nets/nets_factory.py": "from nets import lenet\n",
        "train_image_classifier.py": "import os\n\nfrom nets import nets_factory\n"})
    found = tree_lib.discover(str(tmp_path / "slim_tf2"))
    top = str((tmp_path / "slim_tf2").resolve())
    assert found.roots == [top]
    assert {m.name for m in found.modules} >= {"nets.nets_factory", "train_image_classifier"}
    assert found.reasons[top] == (
        "2 imports of the tree's own modules name them from here, e.g. "
        "train_image_classifier.py:3 `from nets import nets_factory`")


def test_a_python2_relative_import_inside_a_package_makes_no_root(tmp_path):
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/good.py": "",
                          "pkg/relative.py": "import good\n",
                          "pkg/user.py": "from pkg import good\n"})
    found = tree_lib.discover(str(tmp_path))
    assert found.roots == [str(tmp_path.resolve())]
    assert {m.name for m in found.modules} >= {"pkg.good", "pkg.relative"}


def test_the_directory_a_script_imports_its_neighbours_from_is_a_root(tmp_path):
    write_tree(tmp_path, {"tools/train.py": "import helpers\n", "tools/helpers.py": "",
                          "lib/model/__init__.py": "",
                          "lib/model/net.py": "from model import config\n",
                          "lib/model/config.py": ""})
    found = tree_lib.discover(str(tmp_path))
    top = tmp_path.resolve()
    assert found.roots == [str(top / "lib"), str(top / "tools"), str(top)]
    assert _names(found)["lib/model/net.py"] == ("model.net", str(top / "lib"))


def test_setup_py_names_a_root(tmp_path):
    write_tree(tmp_path, {"setup.py": ("from setuptools import setup, find_packages\n"
                                       "setup(name='x', package_dir={'': 'src'},\n"
                                       "      packages=find_packages('src'))\n"),
                          "src/mypkg/__init__.py": "", "src/mypkg/core.py": ""})
    found = tree_lib.discover(str(tmp_path))
    src = str((tmp_path / "src").resolve())
    assert found.roots[0] == src
    assert found.reasons[src] == "setup.py: package_dir={'': 'src'}"
    assert _names(found)["src/mypkg/core.py"] == ("mypkg.core", src)


def test_without_evidence_the_tree_itself_is_the_root(tmp_path):
    write_tree(tmp_path, {"__init__.py": "", "a.py": "import os\n"})
    found = tree_lib.discover(str(tmp_path))
    assert found.roots == [str(tmp_path.resolve())]
    assert found.reasons[found.roots[0]] == "the tree's own directory"


def test_a_standard_library_import_is_no_evidence_for_a_root(tmp_path):
    # TensorFlow's own package has _api/v2/random/__init__.py, and its modules
    # `import random`: taking that as a root put _api/v2 on sys.path, and the standard
    # library's random (absl imports it) was that package.
    write_tree(tmp_path, {"__init__.py": "", "api/random/__init__.py": "",
                          "ops.py": "import random\nfrom random import Random\n"})
    found = tree_lib.discover(str(tmp_path))
    assert found.roots == [str(tmp_path.resolve())]


def test_the_deepest_root_names_a_file(tmp_path):
    # facenet's layout: facenet/src is a package under the sdist root and also the
    # root its scripts expect on sys.path.
    write_tree(tmp_path, {"facenet/__init__.py": "", "facenet/src/__init__.py": "",
                          "facenet/src/facenet.py": "", "facenet/src/models/__init__.py": "",
                          "facenet/src/models/inception_resnet_v1.py": ""})
    found = tree_lib.discover(str(tmp_path), paths=["facenet/src"])
    src, top = str((tmp_path / "facenet/src").resolve()), str(tmp_path.resolve())
    assert found.roots == [src, top]
    assert _names(found) == {
        "facenet/__init__.py": ("facenet", top), "facenet/src/__init__.py": ("facenet.src", top),
        "facenet/src/facenet.py": ("facenet", src),
        "facenet/src/models/__init__.py": ("models", src),
        "facenet/src/models/inception_resnet_v1.py": ("models.inception_resnet_v1", src)}


def test_a_file_no_root_reaches_is_named_as_a_script_would_be(tmp_path):
    write_tree(tmp_path, {"scripts/run.py": "", "scripts/lib/__init__.py": "",
                          "scripts/lib/util.py": "", "my-tool.py": ""})
    found = tree_lib.discover(str(tmp_path))
    scripts = str((tmp_path / "scripts").resolve())
    names = _names(found)
    assert names["scripts/run.py"] == ("run", scripts)
    assert names["scripts/lib/util.py"] == ("lib.util", scripts)
    assert not [m for m in found.modules if m.relpath == "my-tool.py"][0].importable_by_name


def test_excludes_and_skipped_directories(tmp_path):
    write_tree(tmp_path, {"a.py": "", "a_test.py": "", "setup.py": "", "__pycache__/x.py": "",
                          ".git/y.py": "", "build.egg-info/z.py": "", "sub/b_test.py": ""})
    found = tree_lib.discover(str(tmp_path), excludes=["*_test.py", "setup.py"])
    assert [m.relpath for m in found.modules] == ["a.py"]


@pytest.mark.parametrize("source, help_option", [
    (ABSL_SCRIPT, "--helpfull"),
    ("import tensorflow as tf\nflags = tf.app.flags\nflags.DEFINE_integer('n', 1, 'n')\n"
     "if __name__ == '__main__':\n  tf.app.run()\n", "--helpfull"),
    ("import argparse\nif __name__ == '__main__':\n  argparse.ArgumentParser().parse_args()\n",
     "--help"),
    ("if '__main__' == __name__:\n  import argparse\n", "--help"),
    # An entry script that reads no command line is not run: it might start its work.
    ("def train():\n  pass\nif __name__ == '__main__':\n  train()\n", None),
])
def test_entry_scripts_and_how_they_print_their_flags(tmp_path, source, help_option):
    write_tree(tmp_path, {"script.py": source})
    (module,) = tree_lib.discover(str(tmp_path)).modules
    assert module.entry_script
    assert module.help_option == help_option


@pytest.mark.parametrize("source", [
    # Not module level: a function that happens to test __name__.
    "def run():\n  if __name__ == '__main__':\n    pass\n",
    "import argparse\nNAME = '__main__'\n",
    "print 'python 2', __name__ == '__main__'\n",
    "x = 1\n",
])
def test_not_entry_scripts(tmp_path, source):
    write_tree(tmp_path, {"lib.py": source})
    (module,) = tree_lib.discover(str(tmp_path)).modules
    assert not module.entry_script
    assert module.help_option is None


def test_errors_name_the_bad_directory(tmp_path):
    with pytest.raises(ValueError, match="not a directory"):
        tree_lib.discover(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="--path src"):
        tree_lib.discover(str(tmp_path), paths=["src"])
