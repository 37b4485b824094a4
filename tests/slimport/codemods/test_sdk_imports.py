"""sdk_imports: the platform SDK's uflag / uai_dist -> slim_ext.uai, only when the tree
lacks the SDK's uaitrain/ folder."""
from __future__ import annotations

import textwrap
from typing import List, Optional, Tuple

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from slimport.codemods import Finding
from slimport.codemods.sdk_imports import SdkImportsCommand, stand_in
from slimport.analysis.source_tree import SourceTree

SCRIPT = "/src/tree/train_image_classifier.py"
# The tree of the train script, without and with the SDK's folder.
WITHOUT_SDK = SourceTree(frozenset({"/src/tree", "/src/tree/train_image_classifier",
                                    "/src/tree/nets"}))
WITH_SDK = SourceTree(WITHOUT_SDK.paths | {"/src/tree/uaitrain",
                                           "/src/tree/uaitrain/arch/tensorflow/uflag"})


def run(source: str, tree: Optional[SourceTree] = WITHOUT_SDK,
        filename: str = SCRIPT) -> Tuple[str, List[Finding]]:
    """The codemod over ``source`` (dedented) as the engine runs it on a file of ``tree``
    (None: a file on its own, as under libcst.tool)."""
    command = SdkImportsCommand(CodemodContext(filename=filename), source_tree=tree)
    module = command.transform_module(cst.parse_module(textwrap.dedent(source)))
    return module.code, command.findings


# (before, after) without the SDK folder; every after is also a no-op row.
BEFORE_AFTER = {
    "from_package_import_modules": (
        """\
        from uaitrain.arch.tensorflow import uflag      # defines the platform flags
        from uaitrain.arch.tensorflow import uai_dist   # reads the platform TF_CONFIG
        """,
        """\
        from slim_ext.uai import uflag      # defines the platform flags
        from slim_ext.uai import uai_dist   # reads the platform TF_CONFIG
        """,
    ),
    "both_modules_on_one_line": (
        "from uaitrain.arch.tensorflow import uflag, uai_dist as dist\n",
        "from slim_ext.uai import uflag, uai_dist as dist\n",
    ),
    "import_module_as": (
        "import uaitrain.arch.tensorflow.uflag as uflag\n",
        "import slim_ext.uai.uflag as uflag\n",
    ),
    "from_module_import_parser": (
        """\
        from uaitrain.arch.tensorflow.uai_dist import UAITensorFlowDistRunConfigParser

        config = UAITensorFlowDistRunConfigParser()
        """,
        """\
        from slim_ext.uai.uai_dist import UAITensorFlowDistRunConfigParser

        config = UAITensorFlowDistRunConfigParser()
        """,
    ),
    "bare_dotted_imports_spelled_out_at_their_uses": (
        """\
        import uaitrain.arch.tensorflow.uflag
        import uaitrain.arch.tensorflow.uai_dist

        def main(_):
          parser = uaitrain.arch.tensorflow.uai_dist.UAITensorFlowDistRunConfigParser()
          return parser, uaitrain.arch.tensorflow.uflag.FLAGS.data_dir
        """,
        """\
        import slim_ext.uai.uflag
        import slim_ext.uai.uai_dist

        def main(_):
          parser = slim_ext.uai.uai_dist.UAITensorFlowDistRunConfigParser()
          return parser, slim_ext.uai.uflag.FLAGS.data_dir
        """,
    ),
    "import_in_a_function": (
        """\
        def start():
          from uaitrain.arch.tensorflow import uai_dist
          return uai_dist.UAITensorFlowDistRunConfigParser()
        """,
        """\
        def start():
          from slim_ext.uai import uai_dist
          return uai_dist.UAITensorFlowDistRunConfigParser()
        """,
    ),
}


@pytest.mark.parametrize("name", BEFORE_AFTER)
def test_before_after_without_the_sdk_folder(name: str) -> None:
    before, after = (textwrap.dedent(text) for text in BEFORE_AFTER[name])
    code, findings = run(before)
    assert code == after
    assert findings and all(finding.kind == "edit" for finding in findings), findings
    assert run(after) == (after, [])


def test_the_edit_names_the_mapping_at_its_line() -> None:
    _, findings = run("import os\nfrom uaitrain.arch.tensorflow import uflag\n")
    assert [(f.line, f.message) for f in findings] == [
        (2, "from uaitrain.arch.tensorflow import uflag -> from slim_ext.uai import uflag")]


NOOP = {
    # The plain package import and other code.
    "no_sdk_import": "import os\nfrom nets import nets_factory  # uaitrain\n",
    "already_ported": "from slim_ext.uai import uflag, uai_dist\n",
    "a_module_of_the_same_name_elsewhere": "from mylib.arch.tensorflow import uflag\n",
    "local_uaitrain_variable": "def f(uaitrain):\n  return uaitrain.arch.tensorflow.uflag\n",
}


@pytest.mark.parametrize("source", NOOP.values(), ids=list(NOOP))
def test_noop(source: str) -> None:
    assert run(source) == (source, [])


@pytest.mark.parametrize("filename", [
    SCRIPT,
    # A module of the tree in a subdirectory: Python finds uaitrain/ above it.
    "/src/tree/nets/nets_factory.py",
])
@pytest.mark.parametrize("source", [before for before, _ in BEFORE_AFTER.values()])
def test_the_trees_own_sdk_is_kept(source: str, filename: str) -> None:
    source = textwrap.dedent(source)
    assert run(source, WITH_SDK, filename) == (source, [])


def test_sdk_beside_the_tree_is_not_the_trees() -> None:
    # A uaitrain/ folder in a sibling directory is not where the script's imports look.
    elsewhere = SourceTree(WITHOUT_SDK.paths | {"/src/other/uaitrain"})
    code, _ = run("from uaitrain.arch.tensorflow import uflag\n", elsewhere)
    assert code == "from slim_ext.uai import uflag\n"


def test_a_file_on_its_own_is_left_and_reported() -> None:
    source = "from uaitrain.arch.tensorflow import uflag\n\nprint(uflag.FLAGS.data_dir)\n"
    code, findings = run(source, tree=None)
    assert code == source
    [finding] = findings
    assert (finding.kind, finding.line) == ("attention", 1)
    assert "not known when a file is ported on its own" in finding.message
    assert "slimport rewrite" in finding.fix


@pytest.mark.parametrize(("source", "reported"), [
    # Other SDK packages and modules.
    ("import uaitrain.api.operation as operation\n", "uaitrain.api.operation"),
    ("from uaitrain.arch.tensorflow import uai_train_utils\n",
     "uaitrain.arch.tensorflow.uai_train_utils"),
    ("from uaitrain.arch.pytorch import uflag\n", "uaitrain.arch.pytorch.uflag"),
    # The package itself: its modules are attributes only once imported.
    ("import uaitrain.arch.tensorflow as uai\n", "uaitrain.arch.tensorflow"),
    ("from uaitrain.arch import tensorflow\n", "uaitrain.arch.tensorflow"),
    # A name the stand-in does not have.
    ("from uaitrain.arch.tensorflow.uflag import define_more\n",
     "uaitrain.arch.tensorflow.uflag.define_more"),
])
def test_other_sdk_names_are_reported_not_moved(source: str, reported: str) -> None:
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention"
    assert finding.message.startswith(f"{reported}: the tree has no uaitrain/ folder")
    assert "copy the SDK's uaitrain/ folder into the tree" in finding.fix


def test_a_use_the_stand_in_lacks_is_reported_and_the_rest_moves() -> None:
    source = textwrap.dedent("""\
        from uaitrain.arch.tensorflow import uflag

        uflag.register_extra_flags()
        print(uflag.FLAGS.data_dir)
        """)
    code, findings = run(source)
    assert code == source.replace("from uaitrain.arch.tensorflow", "from slim_ext.uai")
    assert [(f.kind, f.line) for f in findings] == [("edit", 1), ("attention", 3)]
    assert findings[1].message.startswith("uaitrain.arch.tensorflow.uflag.register_extra_flags")


@pytest.mark.parametrize(("qualified", "expected"), [
    ("uaitrain.arch.tensorflow.uflag", "slim_ext.uai.uflag"),
    ("uaitrain.arch.tensorflow.uflag.FLAGS.data_dir", "slim_ext.uai.uflag.FLAGS.data_dir"),
    ("uaitrain.arch.tensorflow.uai_dist.UAITensorFlowDistRunConfigParser",
     "slim_ext.uai.uai_dist.UAITensorFlowDistRunConfigParser"),
    ("uaitrain.arch.tensorflow", "slim_ext.uai"),
    ("uaitrain.arch.tensorflow.uflag.tf", None),
    ("uaitrain.arch.tensorflow.other", None),
    ("uaitrain", None),
    ("uaitrainer.arch.tensorflow.uflag", None),
])
def test_stand_in(qualified: str, expected: Optional[str]) -> None:
    assert stand_in(qualified) == expected
