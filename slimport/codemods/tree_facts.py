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

import re
from dataclasses import dataclass
from typing import Any, Callable, FrozenSet, Sequence

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


# A ``def`` (or ``async def``) at the start of a line, and the name it defines.
_DEFINITION = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
# ``import a.b, c as d`` and ``from a.b import ...`` at the start of a line.
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w.]+"
                     r"(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*))",
                     re.MULTILINE)


def methods_defined(texts: Sequence[str]) -> FrozenSet[str]:
    """Every name a ``def`` of the tree defines (functions and methods alike).

    Args:
      texts: the text of every Python file of the tree.

    Returns:
      The names. Read off the text: a ``def`` in a string counts too, which only makes
      a codemod that asks more careful.
    """
    return frozenset(match[1] for text in texts for match in _DEFINITION.finditer(text))


def modules_imported(texts: Sequence[str]) -> FrozenSet[str]:
    """Every module an ``import`` or ``from ... import`` of the tree names.

    Args:
      texts: the text of every Python file of the tree.

    Returns:
      Dotted module names (``scipy.spatial.transform``); relative imports are left out.
    """
    found = set()
    for text in texts:
        for match in _IMPORT.finditer(text):
            names = [match[1]] if match[1] else [alias.split()[0]
                                                 for alias in match[2].split(",")]
            found.update(name for name in names if not name.startswith("."))
    return frozenset(found)


# Is ``x.iteritems()`` / ``x.next()`` / ``self.assertItemsEqual`` Python 2's or a
# library's old name, or a method the tree itself defines?
TREE_METHODS = TreeFact("tree_methods", lambda tree: methods_defined(tree.texts))
# Which libraries the tree uses at all (is ``x.as_matrix()`` pandas' or SciPy's?).
TREE_IMPORTS = TreeFact("tree_imports", lambda tree: modules_imported(tree.texts))
