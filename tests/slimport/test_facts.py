"""The engine's pre-pass: each tree fact a selected codemod declared is gathered once,
reaches the codemods that declared it, and options are checked against the tree."""
from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, List, Mapping, Optional, Tuple

import libcst as cst

from slimport import engine
from slimport.analysis.source_tree import SourceTree
from slimport.codemods.base import SlimportCodemod
from slimport.codemods.tree_facts import TreeContents, TreeFact, structured_dtype_names

GATHERED: List[int] = []


def _count_files(tree: TreeContents) -> int:
    GATHERED.append(len(tree.texts))
    return len(tree.texts)


FILE_COUNT = TreeFact("file_count", _count_files, alone=-1)


class NotesFileCount(SlimportCodemod):
    """Appends ``# N files`` to each file: N is the tree fact it declared."""

    NAME: ClassVar[str] = "notes_file_count"
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("x",)
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = (FILE_COUNT,)

    def __init__(self, context: Any, file_count: int = FILE_COUNT.alone, **kwargs: Any) -> None:
        super().__init__(context, **kwargs)
        self.file_count = file_count

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        self.record_edit(None, f"{self.file_count} files")
        return tree.with_changes(footer=[cst.EmptyLine(comment=cst.Comment(
            f"# {self.file_count} files"))])


class AlsoCounts(NotesFileCount):
    NAME: ClassVar[str] = "also_counts"
    RUNS_AFTER: ClassVar[Tuple[str, ...]] = ("notes_file_count",)


class ChecksPrefix(SlimportCodemod):
    """Warns when no file of the tree holds the ``prefix`` option's text."""

    NAME: ClassVar[str] = "checks_prefix"
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("x",)
    OPTIONS: ClassVar[Tuple[str, ...]] = ("prefix",)

    def __init__(self, context: Any, prefix: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(context, **kwargs)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], tree: TreeContents) -> List[str]:
        prefix = options.get("prefix")
        return [] if prefix is None or any(prefix in text for text in tree.texts) else [
            f"--prefix {prefix}: no file has it"]


def test_a_fact_is_gathered_once_and_reaches_every_codemod_that_declared_it(
        tmp_path: Path, make_tree) -> None:
    src = make_tree(tmp_path / "src", {"a.py": "x = 1\n", "b.py": "x = 2\n", "c.txt": "x"})
    plan = engine.make_plan([src])
    GATHERED.clear()
    codemods = (NotesFileCount, AlsoCounts)
    found = engine.survey(codemods, {}, plan.source_tree, engine.plan_texts(plan))
    assert GATHERED == [2] and found.facts == {"file_count": 2}
    outcome = engine.run_plan(plan, engine.PortSettings(codemods, tree_facts=found.facts))
    assert [(r.status, r.codemods) for r in outcome.results] == [
        ("changed", ["notes_file_count", "also_counts"])] * 2
    assert (src / "a.py").read_text() == "x = 1\n# 2 files\n"


def test_a_file_on_its_own_gets_each_facts_alone_value() -> None:
    found = engine.survey((NotesFileCount,), {}, SourceTree(), ["x = 1\n"],
                          gather_facts=False)
    assert found.facts == {}
    ported = engine.port_source(b"x = 1\n", "a.py", (NotesFileCount,), {})
    assert ported.data == b"x = 1\n# -1 files\n"


def test_options_are_checked_against_the_tree() -> None:
    found = engine.survey((ChecksPrefix,), {"prefix": "zzz"}, SourceTree(), ["x = 1\n"])
    assert found.warnings == ["--prefix zzz: no file has it"]
    assert engine.survey((ChecksPrefix,), {"prefix": "x ="}, SourceTree(),
                         ["x = 1\n"]).warnings == []


def test_texts_are_read_only_when_a_fact_or_an_option_needs_them() -> None:
    assert not engine.needs_texts((ChecksPrefix,), {})
    assert engine.needs_texts((ChecksPrefix,), {"prefix": "a"})
    assert engine.needs_texts((NotesFileCount,), {})


def test_structured_dtype_names_are_those_bound_to_records_only() -> None:
    """object detection's vrd_evaluation binds record dtypes; a name also bound to
    something else anywhere in the tree at module level proves nothing, nor does a bare
    list of tuples or one of TensorFlow's own record dtypes (tf.as_dtype names them)."""
    vrd = ("import numpy as np\n"
           "label_data_type = np.dtype([('subject', 'i4'), ('object', 'i4')])\n"
           "box_type = np.dtype([('box', 'f4', (4,))])\n"
           "ops = [('fft', 1)]\n"
           "_np_qint8 = np.dtype([('qint8', np.int8)])\n"
           "other_type = np.dtype([('x', 'i4')])\n"
           "plain_type = np.dtype('f4')\n"
           "def f():\n  label_data_type = 3\n")
    elsewhere = "other_type = 3\nnp = None\nrenamed_type = np.dtype([('x', 'i4')])\n"
    assert structured_dtype_names([vrd, elsewhere]) == {"label_data_type", "box_type"}
