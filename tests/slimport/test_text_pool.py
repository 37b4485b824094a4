"""The tree facts' per-file answers worked out by several processes (slimport.engine.text_pool):
the facts of a ``-j 2`` run are those of a ``-j 1`` run, and its own process did not work
them out; an answer a process could not give is worked out when asked, as before."""
from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import Dict, List

import pytest

from slimport import engine
from slimport.analysis.import_roots import imports_in
from slimport.analysis.per_text import PerText
from slimport.codemods import CODEMODS
from slimport.engine import text_pool
from tests.slimport.conftest import write_tree
from tests.slimport.test_facts import PYTHON2_AND_3

REPO = Path(__file__).resolve().parents[2]
# Every fact some file gives a value other than the default: a Python 2 project, a
# ``_shape`` bound, a structured dtype, defs and imports (the examples).
MORE = {**PYTHON2_AND_3,
        "od/pkg/shapes.py": "class Box(object):\n  def __init__(self):\n    self._shape = 1\n",
        "od/pkg/records.py": "import numpy as np\nROW = np.dtype([('x', 'f4')])\n"}


def _tree(root: Path) -> Path:
    """The examples and MORE under ``root``, every file's text new to this process."""
    shutil.copytree(REPO / "examples", root / "examples",
                    ignore=shutil.ignore_patterns("__pycache__"))
    write_tree(root, MORE)
    marker = f"# {uuid.uuid4().hex}\n"
    for path in root.rglob("*.py"):
        path.write_text(path.read_text() + marker)
    return root


def _facts(root: Path, jobs: int) -> Dict[str, dict]:
    plan = engine.make_plan([root], write=False)
    prepared = engine.prepare_run(plan, engine.Request(), lambda: (CODEMODS, []), jobs=jobs)
    facts = {}
    for job in plan.python_jobs:
        found = dict(prepared.facts.for_file(str(job.source)))
        # The paths the run was given, absolute: as the tree's own.
        found["source_tree"] = sorted(os.path.relpath(path, root)
                                      for path in found["source_tree"].paths)
        facts[job.source.relative_to(root).as_posix()] = found
    return facts


def _per_text_functions() -> List[PerText]:
    declared = [function for codemod in CODEMODS for fact in codemod.TREE_FACTS
                for function in fact.per_text]
    return [imports_in, *dict.fromkeys(declared)]


def test_facts_of_two_processes_are_those_of_one(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(text_pool, "MIN_BYTES", 0)
    functions = _per_text_functions()
    assert len(functions) == 6
    asked_here: List[str] = []
    for function in functions:
        def counted(text: str, function: PerText = function) -> object:
            asked_here.append(text)  # in this process; a forked one counts its own
            return counted.__wrapped__(text)
        counted.__wrapped__ = function.function  # type: ignore[attr-defined]
        monkeypatch.setattr(function, "function", counted)
    two = _facts(_tree(tmp_path / "two"), jobs=2)
    assert asked_here == []
    one = _facts(_tree(tmp_path / "one"), jobs=1)
    assert asked_here
    assert two == one
    # Not every fact is its default, so the comparison compares something.
    values = {name: value for facts in one.values() for name, value in facts.items()}
    assert values["tree_python2"] and values["tree_binds_private_shape"]
    assert values["tree_structured_dtypes"] and values["tree_methods"]


def _texts(count: int) -> List[str]:
    return [f"x = {index}  # {uuid.uuid4().hex}\n" for index in range(count)]


def test_an_answer_a_process_raised_for_is_worked_out_when_asked(monkeypatch) -> None:
    monkeypatch.setattr(text_pool, "MIN_BYTES", 0)

    def length(text: str) -> int:
        if text.startswith("x = 3 "):
            raise ValueError("three")
        return len(text)

    function = PerText(length)
    texts = _texts(8)
    text_pool.work_out([function], texts, processes=2)
    assert [function.knows(text) for text in texts] == [index != 3 for index in range(8)]
    assert function(texts[0]) == len(texts[0])
    with pytest.raises(ValueError, match="three"):
        function(texts[3])


def test_a_process_that_dies_leaves_its_answers_to_be_asked_for(monkeypatch) -> None:
    monkeypatch.setattr(text_pool, "MIN_BYTES", 0)
    parent = os.getpid()

    def dies_forked(text: str) -> int:
        if os.getpid() != parent:
            os._exit(3)
        return len(text)

    function = PerText(dies_forked)
    texts = _texts(4)
    text_pool.work_out([function], texts, processes=2)
    assert not any(function.knows(text) for text in texts)
    assert [function(text) for text in texts] == [len(text) for text in texts]


def test_nothing_is_forked_for_one_process_or_a_small_tree(monkeypatch) -> None:
    def refuses_to_fork() -> int:
        raise AssertionError("forked")

    monkeypatch.setattr(os, "fork", refuses_to_fork)
    function = PerText(len)
    texts = _texts(4)
    text_pool.work_out([function], texts, processes=1)
    text_pool.work_out([function], texts, processes=2)  # under MIN_BYTES
    assert not any(function.knows(text) for text in texts)
