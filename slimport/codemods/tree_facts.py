"""What a codemod may know about the whole tree being ported, besides its own file.

Most codemods judge a file by its own text. A few need the tree around it: whether any
module of it needs Keras 2 (one process runs the tree: one Keras for all of it),
which methods the tree itself defines (is ``d.itervalues()`` Python 2's, or the tree's
own method?), which flags it defines (a ``--map`` target nobody defines does nothing),
whether it holds the platform SDK's folder. A codemod declares each such fact in its
``TREE_FACTS``; the engine reads every Python file of the run once, before porting any
(``slimport.engine.facts``), gathers the facts the selected codemods declared, and
hands their values to every codemod in ``context.scratch`` (``FACTS_KEY``). A codemod
ported on its own (``python -m libcst.tool codemod``, ``port_source`` of one file) gets
each fact's ``alone`` value and says in its findings what it could not know.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from slimport.analysis.source_tree import SourceTree

# context.scratch key: {fact name: value} for the facts the engine gathered.
FACTS_KEY = "slimport.tree_facts"


@dataclass(frozen=True)
class TreeContents:
    """What a fact is gathered from: the tree's paths and its Python files' texts."""

    source: SourceTree
    # The text of every Python file the run ports (UTF-8, undecodable bytes replaced).
    texts: Sequence[str]


@dataclass(frozen=True)
class TreeFact:
    """One fact about the whole tree a codemod reads.

    Attributes:
      name: the fact's key in ``FACTS_KEY``; unique among the registered codemods'.
      gather: the fact's value for a tree (called once per run, in the engine).
      alone: its value when no tree is known (a file ported on its own).
    """

    name: str
    gather: Callable[[TreeContents], Any]
    alone: Any = None
