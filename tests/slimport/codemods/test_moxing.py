"""moxing: moxing.tensorflow becomes slim_ext.mox, keeping local names; MoXing names
slim_ext does not provide are reported, never rewritten."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from slimport import engine
from slimport.codemods import CODEMODS
from slimport.codemods.moxing import MoxingCommand, missing_name, mox_path
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, MoxingCommand)
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "moxing_tf1"


class MoxingTest(IdempotentCodemodTest):
    TRANSFORM = MoxingCommand

    def test_import_moxing_tensorflow_as_mox(self) -> None:
        before = """
            import tensorflow as tf
            import moxing.tensorflow as mox  # MoXing

            mox.run(input_fn=input_fn, model_fn=model_fn, run_mode=mox.ModeKeys.TRAIN)
        """
        after = """
            import tensorflow as tf
            import slim_ext.mox as mox  # MoXing

            mox.run(input_fn=input_fn, model_fn=model_fn, run_mode=mox.ModeKeys.TRAIN)
        """
        self.assertCodemod(before, after)

    def test_import_moxing_tensorflow_without_alias(self) -> None:
        before = """
            import moxing.tensorflow

            spec = moxing.tensorflow.ModelSpec(loss=loss)
            moxing.tensorflow.run(input_fn, model_fn, run_mode=moxing.tensorflow.ModeKeys.EVAL)
        """
        after = """
            import slim_ext.mox

            spec = slim_ext.mox.ModelSpec(loss=loss)
            slim_ext.mox.run(input_fn, model_fn, run_mode=slim_ext.mox.ModeKeys.EVAL)
        """
        self.assertCodemod(before, after)

    def test_from_moxing_import_tensorflow_as_mox(self) -> None:
        before = """
            from moxing import tensorflow as mox

            opt = mox.get_optimizer_fn('sgd', learning_rate=0.5)
        """
        after = """
            from slim_ext import mox

            opt = mox.get_optimizer_fn('sgd', learning_rate=0.5)
        """
        self.assertCodemod(before, after)

    def test_from_moxing_import_tensorflow_keeps_the_name(self) -> None:
        before = """
            from moxing import tensorflow

            tensorflow.run(input_fn, model_fn)
        """
        after = """
            from slim_ext import mox as tensorflow

            tensorflow.run(input_fn, model_fn)
        """
        self.assertCodemod(before, after)

    def test_from_moxing_tensorflow_import_names(self) -> None:
        before = """
            from moxing.tensorflow import ModelSpec, ModeKeys, run as mox_run
        """
        after = """
            from slim_ext.mox import ModelSpec, ModeKeys, run as mox_run
        """
        self.assertCodemod(before, after)

    def test_from_import_splits_off_what_slim_ext_lacks(self) -> None:
        before = """
            from moxing.tensorflow import ExportSpec, ModelSpec, run
        """
        after = """
            from moxing.tensorflow import ExportSpec
            from slim_ext.mox import ModelSpec
            from slim_ext.mox import run
        """
        self.assertCodemod(before, after)

    def test_star_import(self) -> None:
        self.assertCodemod(
            "from moxing.tensorflow import *\n", "from slim_ext.mox import *\n"
        )

    def test_import_moxing_as_mox_for_the_file_api(self) -> None:
        before = """
            import moxing as mox

            mox.file.copy_parallel('/cache/data', '/cache/copy')
            mox.tensorflow.run(input_fn, model_fn)
        """
        after = """
            import slim_ext.mox as mox

            mox.file.copy_parallel('/cache/data', '/cache/copy')
            mox.run(input_fn, model_fn)
        """
        self.assertCodemod(before, after)

    def test_file_module_imports(self) -> None:
        before = """
            from moxing.framework import file
            from moxing import file as mox_file
            import moxing.framework.file as obs

            file.copy(a, b); mox_file.exists(a); obs.read(a, binary=True)
        """
        after = """
            from slim_ext.mox import file
            from slim_ext.mox import file as mox_file
            import slim_ext.mox.file as obs

            file.copy(a, b); mox_file.exists(a); obs.read(a, binary=True)
        """
        self.assertCodemod(before, after)

    def test_alias_assignment_keeps_working(self) -> None:
        before = """
            import moxing.tensorflow

            mox = moxing.tensorflow
            mox.run(input_fn, model_fn)
        """
        after = """
            import slim_ext.mox

            mox = slim_ext.mox
            mox.run(input_fn, model_fn)
        """
        self.assertCodemod(before, after)

    def test_import_inside_a_function(self) -> None:
        before = """
            def main():
                import moxing.tensorflow as mox
                return mox.ModeKeys.TRAIN
        """
        after = """
            def main():
                import slim_ext.mox as mox
                return mox.ModeKeys.TRAIN
        """
        self.assertCodemod(before, after)

    def test_unprovided_use_is_left_and_reported(self) -> None:
        before = """
            import moxing.tensorflow as mox

            export_spec = mox.ExportSpec(inputs_dict={'images': x})
            mox.run(input_fn, model_fn)
        """
        after = """
            import slim_ext.mox as mox

            export_spec = mox.ExportSpec(inputs_dict={'images': x})
            mox.run(input_fn, model_fn)
        """
        self.assertCodemod(before, after)


NOOP = {
    "no_moxing": "import tensorflow as tf\nx = tf.zeros([1])  # moxing\n",
    "already_ported": (
        "import slim_ext.mox as mox\n\n# was moxing.tensorflow\nmox.run(input_fn, model_fn)\n"
    ),
    "mox_from_another_library": "from mylib import mox\nmox.run()  # not moxing\n",
    "moxing_in_strings_only": "HELP = 'import moxing.tensorflow as mox'\n",
    "relative_import": "from .moxing import tensorflow as mox\nmox.run()\n",
    "module_named_like_moxing": "import moxing_utils as mox\nmox.run()\n",
    "mox_rebound_at_module_level": (
        "import moxing.tensorflow as mox\nmox = load_plugin()\nmox.ExportSpec()\n"
    ),
}


@pytest.mark.parametrize("source", list(NOOP.values()), ids=list(NOOP))
def test_noop_is_byte_identical(source: str) -> None:
    output, findings = run(source)
    if source.startswith("import moxing.tensorflow as mox\nmox = "):
        # The import itself is ported; the rebound name is not MoXing any more.
        assert output == source.replace("moxing.tensorflow", "slim_ext.mox", 1)
        assert [f.kind for f in findings] == ["edit"]
    else:
        assert (output, findings) == (source, [])


def test_crlf_line_endings_survive_an_edit() -> None:
    source = "import sys\r\nimport moxing.tensorflow as mox\r\nmox.run(f, g)\r\n"
    output, _ = run(source)
    assert output == "import sys\r\nimport slim_ext.mox as mox\r\nmox.run(f, g)\r\n"


def test_every_edit_and_report_has_its_line_and_fix() -> None:
    source = (
        "import moxing.tensorflow\n"
        "from moxing.tensorflow import get_model_fn, ModelSpec\n"
        "\n"
        "spec = moxing.tensorflow.ModelSpec\n"
        "data = moxing.tensorflow.get_dataset('mnist')\n"
        "moxing.tensorflow.file.set_auth(ak='x', sk='y')\n"
    )
    output, findings = run(source)
    assert output == (
        "import slim_ext.mox\n"
        "from moxing.tensorflow import get_model_fn\n"
        "from slim_ext.mox import ModelSpec\n"
        "\n"
        "spec = slim_ext.mox.ModelSpec\n"
        "data = moxing.tensorflow.get_dataset('mnist')\n"
        "moxing.tensorflow.file.set_auth(ak='x', sk='y')\n"
    )
    attention = [(f.line, f.message.split(":")[0], f.fix)
                 for f in findings if f.kind == "attention"]
    assert [line for line, _, _ in attention] == [2, 5, 6]
    assert attention[0][1] == "moxing.tensorflow.get_model_fn"
    assert "tf_slim.nets" in attention[0][2]
    assert "tf.data" in attention[1][2]
    assert "no OBS credentials" in attention[2][2]
    message = next(f.message for f in findings if f.line == 5)
    assert "MoXing's get_dataset has no slim_ext counterpart" in message
    assert "slim_ext.mox provides ModeKeys, ModelSpec, file, get_flag" in message
    edits = [(f.line, f.message) for f in findings if f.kind == "edit"]
    assert edits == [
        (1, "import moxing.tensorflow -> import slim_ext.mox"),
        (2, "from moxing.tensorflow import get_model_fn, ModelSpec -> "
            "from slim_ext.mox import ModelSpec"),
        (4, "moxing.tensorflow.ModelSpec -> slim_ext.mox.ModelSpec"),
    ]
    assert all(f.codemod == "moxing" for f in findings)


def test_an_unprovided_import_stays_a_moxing_import() -> None:
    source = "import moxing.pytorch as mox_torch\nmodel = mox_torch.models()\n"
    output, findings = run(source)
    assert output == source
    assert [(f.line, f.kind) for f in findings] == [(1, "attention"), (2, "attention")]


@pytest.mark.parametrize(("qualified", "expected"), [
    ("moxing.tensorflow", "slim_ext.mox"),
    ("moxing.tensorflow.run", "slim_ext.mox.run"),
    ("moxing.tensorflow.file.copy", "slim_ext.mox.file.copy"),
    ("moxing.framework.file", "slim_ext.mox.file"),
    ("moxing.framework.file.exists", "slim_ext.mox.file.exists"),
    ("moxing.file", "slim_ext.mox.file"),
    ("moxing", "slim_ext.mox"),
    ("moxing_utils.run", None),
    ("tensorflow.moxing", None),
])
def test_mox_path(qualified: str, expected: str) -> None:
    assert mox_path(qualified) == expected


@pytest.mark.parametrize(("path", "expected"), [
    ("slim_ext.mox", None),
    ("slim_ext.mox.run", None),
    ("slim_ext.mox.ModeKeys.TRAIN", None),
    ("slim_ext.mox.file.copy_parallel", None),
    ("slim_ext.mox.file", None),
    ("slim_ext.mox.ExportSpec", "ExportSpec"),
    ("slim_ext.mox.file.stat", "file.stat"),
    ("slim_ext.mox.pytorch", "pytorch"),
])
def test_missing_name(path: str, expected: str) -> None:
    assert missing_name(path) == expected


def test_skipped_by_the_cheap_precheck_without_moxing_text() -> None:
    assert not MoxingCommand.applies_to("import mox\nmox.run()\n")
    assert MoxingCommand.applies_to("import moxing.tensorflow as mox\n")


@pytest.mark.parametrize("path", sorted(EXAMPLE.glob("*.py")), ids=lambda path: path.name)
def test_example_ports_the_same_on_skeletons_and_whole_files(path: Path) -> None:
    data = path.read_bytes()
    sparse = engine.port_source(data, str(path), CODEMODS, {})
    whole = engine.port_source(data, str(path), CODEMODS, {}, sparse=False)
    assert sparse.error is None, sparse.error
    assert (sparse.data, sparse.findings) == (whole.data, whole.findings)
    assert b"moxing" not in sparse.data.split(b'"""')[-1]  # docstrings may say MoXing
