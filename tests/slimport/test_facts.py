"""The engine's pre-pass: each tree fact a selected codemod declared is gathered once,
reaches the codemods that declared it, and options are checked against the tree."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar, Dict, Iterable, List, Mapping, Optional, Tuple

import libcst as cst

from slimport import engine
from slimport.analysis.source_tree import SourceTree
from slimport.codemods.base import SlimportCodemod
from slimport.codemods.py2_str_equality import Py2StrEqualityCommand
from slimport.codemods.tree_facts import (PROCESS, TreeContents, TreeFact, python2_project,
                                          structured_dtype_names)
from tests.slimport.conftest import write_tree

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
    texts = engine.read_texts(job.source for job in plan.python_jobs)
    found = engine.survey(codemods, {}, plan.source_tree, texts)
    assert GATHERED == [2]
    assert found.facts.for_file(str(src / "a.py")) == {"file_count": 2}
    outcome = engine.run_plan(plan, engine.PortSettings(codemods, tree_facts=found.facts))
    assert [(r.status, r.codemods) for r in outcome.results] == [
        ("changed", ["notes_file_count", "also_counts"])] * 2
    assert (src / "a.py").read_text() == "x = 1\n# 2 files\n"


def test_a_file_on_its_own_gets_each_facts_alone_value() -> None:
    found = engine.survey((NotesFileCount,), {}, SourceTree(), {"<stdin>": "x = 1\n"},
                          gather_facts=False)
    assert found.facts.for_file("<stdin>") == {} and found.facts.sources_of("a.py") == ()
    ported = engine.port_source(b"x = 1\n", "a.py", (NotesFileCount,), {})
    assert ported.data == b"x = 1\n# -1 files\n"


def test_options_are_checked_against_the_tree() -> None:
    found = engine.survey((ChecksPrefix,), {"prefix": "zzz"}, SourceTree(), {"a": "x = 1\n"})
    assert found.warnings == ["--prefix zzz: no file has it"]
    assert engine.survey((ChecksPrefix,), {"prefix": "x ="}, SourceTree(),
                         {"a": "x = 1\n"}).warnings == []


def _count_in(tmp_path: Path, files: Dict[str, str], given: Iterable[str]) -> Dict[str, str]:
    """Port ``given`` (paths of ``files`` written under tmp_path) with NotesFileCount, as
    ``slimport rewrite --diff`` would: each file's count, from its scope's facts."""
    write_tree(tmp_path, files)
    plan = engine.make_plan([tmp_path / name for name in given], write=False)
    prepared = engine.prepare_run(plan, engine.Request(), lambda: ((NotesFileCount,), []))
    counts = {}
    for job in plan.python_jobs:
        facts = prepared.facts.for_file(str(job.source))
        counts[job.source.relative_to(tmp_path).as_posix()] = facts["file_count"]
    return counts


TWO_PROJECTS = {
    "a/pkg_a/__init__.py": "", "a/pkg_a/lua_table.py": "def iteritems(self): pass\n",
    "a/pkg_a/util.py": "x = 1\n",
    "b/pkg_b/__init__.py": "", "b/pkg_b/model.py": "import numpy\n",
    "b/train.py": "from pkg_b import model\n",
    "c/pkg_c/__init__.py": "", "c/pkg_c/reader.py": "from pkg_a import lua_table\n",
}


def test_a_projects_facts_are_read_only_from_what_it_can_import(tmp_path: Path) -> None:
    """Issue 42: one project's defs changed the port of 21 others ported beside it."""
    counts = _count_in(tmp_path, TWO_PROJECTS, ["."])
    assert counts == {
        # pkg_a alone (3 files); pkg_b (2); the scripts beside pkg_b import it (1 + 2);
        # pkg_c imports pkg_a, which another project of the tree provides (2 + 3): every
        # module of pkg_c can meet what pkg_a defines.
        "a/pkg_a/__init__.py": 3, "a/pkg_a/lua_table.py": 3, "a/pkg_a/util.py": 3,
        "b/pkg_b/__init__.py": 2, "b/pkg_b/model.py": 2, "b/train.py": 3,
        "c/pkg_c/__init__.py": 5, "c/pkg_c/reader.py": 5}


def test_a_folder_ported_alone_gets_the_facts_it_gets_in_the_whole_tree(tmp_path: Path) -> None:
    whole = _count_in(tmp_path / "whole", TWO_PROJECTS, ["."])
    for folder in ("a", "b", "a/pkg_a", "b/pkg_b"):
        alone = _count_in(tmp_path / folder.replace("/", "_"), TWO_PROJECTS, [folder])
        assert alone == {name: count for name, count in whole.items()
                         if name.startswith(folder + "/")}, folder
    # A file alone: the rest of its package is read from disk for its facts.
    assert _count_in(tmp_path / "one", TWO_PROJECTS, ["a/pkg_a/util.py"]) == {
        "a/pkg_a/util.py": 3}
    # What it imports of the bigger tree is the difference, and the report says so.
    assert _count_in(tmp_path / "c", TWO_PROJECTS, ["c"]) == {
        "c/pkg_c/__init__.py": 2, "c/pkg_c/reader.py": 2}


class NotesProcessCount(NotesFileCount):
    """``NotesFileCount`` of a fact that holds for a whole process (importers too)."""

    NAME: ClassVar[str] = "notes_process_count"
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = (
        TreeFact("file_count", lambda tree: len(tree.texts), alone=-1, reach=PROCESS),)


def test_a_fact_of_one_per_process_is_read_from_importers_too(tmp_path: Path) -> None:
    """Which Keras tf.keras is holds for every module of a process: pkg_c imports pkg_a,
    so pkg_a's modules count pkg_c's; pkg_b shares no process with either."""
    write_tree(tmp_path, TWO_PROJECTS)
    plan = engine.make_plan([tmp_path], write=False)
    prepared = engine.prepare_run(plan, engine.Request(), lambda: ((NotesProcessCount,), []))
    counts = {job.source.relative_to(tmp_path).as_posix():
              prepared.facts.for_file(str(job.source))["file_count"]
              for job in plan.python_jobs}
    assert counts == {
        "a/pkg_a/__init__.py": 5, "a/pkg_a/lua_table.py": 5, "a/pkg_a/util.py": 5,
        "b/pkg_b/__init__.py": 3, "b/pkg_b/model.py": 3, "b/train.py": 3,
        "c/pkg_c/__init__.py": 5, "c/pkg_c/reader.py": 5}


def test_the_report_names_the_roots_a_files_facts_came_from(tmp_path: Path) -> None:
    write_tree(tmp_path, TWO_PROJECTS)
    plan = engine.make_plan([tmp_path], write=False)
    prepared = engine.prepare_run(plan, engine.Request(), lambda: ((NotesFileCount,), []))
    reader = str(tmp_path / "c" / "pkg_c" / "reader.py")
    assert prepared.facts.sources_of(reader) == (f"{tmp_path / 'a' / 'pkg_a'}{os.sep}",)
    # Facts of one per process (which Keras) are read from the roots that import it too.
    assert prepared.facts.sources_of(str(tmp_path / "a" / "pkg_a" / "util.py")) == (
        f"{tmp_path / 'c' / 'pkg_c'}{os.sep}",)
    assert prepared.facts.sources_of(str(tmp_path / "b" / "pkg_b" / "model.py")) == (
        os.path.join(tmp_path, "b", "*.py"),)
    outcome = engine.run_plan(plan, engine.PortSettings(
        (NotesFileCount,), tree_facts=prepared.facts, write=False))
    by_path = {Path(result.path): result for result in outcome.results}
    assert by_path[Path(reader)].as_dict()["facts_from"] == [f"{tmp_path / 'a' / 'pkg_a'}{os.sep}"]


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


PYTHON2_AND_3 = {
    # A Python 2 project: one module fails on Python 3 as written; its test module does
    # not show it. A Python 3 project beside it, and a module guarded for both.
    "od/pkg/__init__.py": "", "od/pkg/io_utils.py": "import os\nimport StringIO\n",
    "od/pkg/io_test.py": "import tensorflow as tf\n\nclass T(tf.test.TestCase):\n  pass\n",
    "new/lib/__init__.py": "",
    "new/lib/compat.py": "try:\n  import cPickle as pickle\nexcept ImportError:\n  import pickle\n",
    "new/lib/lib_test.py": "import tensorflow as tf\n\nclass T(tf.test.TestCase):\n  pass\n",
}


def test_a_python2_project_is_known_by_any_module_of_it(tmp_path: Path) -> None:
    """Issue 40: a module of a Python 2 project shows no sign of its own (object detection
    0.1.1's test modules), yet its literals were bytes: the tree fact tree_python2 says
    which module shows it; a project written for both (a guarded import) is not one."""
    write_tree(tmp_path, PYTHON2_AND_3)
    plan = engine.make_plan([tmp_path], write=False)
    prepared = engine.prepare_run(plan, engine.Request(), lambda: ((Py2StrEqualityCommand,), []))
    facts = {job.source.relative_to(tmp_path).as_posix():
             prepared.facts.for_file(str(job.source))["tree_python2"] for job in plan.python_jobs}
    od = "pkg/io_utils.py: import StringIO (line 2)"  # from the folder above the package
    assert facts == {"od/pkg/__init__.py": od, "od/pkg/io_utils.py": od, "od/pkg/io_test.py": od,
                     "new/lib/__init__.py": None, "new/lib/compat.py": None,
                     "new/lib/lib_test.py": None}
    # The same words when the test module's folder is ported alone.
    alone = engine.make_plan([tmp_path / "od" / "pkg"], write=False)
    prepared = engine.prepare_run(alone, engine.Request(), lambda: ((Py2StrEqualityCommand,), []))
    assert prepared.facts.for_file(str(tmp_path / "od/pkg/io_test.py"))["tree_python2"] == od
    outcome = engine.run_plan(plan, engine.PortSettings((Py2StrEqualityCommand,),
                                                        tree_facts=prepared.facts))
    assert [Path(r.path).relative_to(tmp_path).as_posix() for r in outcome.results
            if r.status == "changed"] == ["od/pkg/io_test.py"]


def test_python2_project_reads_only_what_may_show_it() -> None:
    texts = ["x = 1\n" * 50, "def long_name(): pass  # reduce, apply\n",
             "import six\nif six.PY2:\n  range = xrange\n", "x = unicode(y)\n"]
    assert python2_project(TreeContents(None, texts)) == "unicode (line 1)"
    assert python2_project(TreeContents(None, texts[:3])) is None
