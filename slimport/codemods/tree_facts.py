"""What a codemod may know about the whole tree being ported, besides its own file.

Most codemods judge a file by its own text. A few need the tree around it: whether any
module of it needs Keras 2 (one process runs the tree: one Keras for all of it),
which methods the tree itself defines (is ``d.itervalues()`` Python 2's, or the tree's
own method?), which flags it defines (a ``--map`` target nobody defines does nothing),
whether it holds the platform SDK's folder. A codemod declares each such fact in its
``TREE_FACTS``; the engine reads every Python file of the run once, before porting any
(``slimport.engine.facts``), gathers the facts the selected codemods declared over
each file's scope (its import root and the roots it imports: a project's defs do not
change the port of a project that cannot import it), and passes their values to the
codemods as keyword arguments. A codemod ported on its own (``python -m libcst.tool
codemod``, ``port_source`` of one file) gets each fact's ``alone`` value and says in its
findings what it could not know.
"""
from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, Optional, Sequence, Tuple

from slimport.analysis.per_text import PerTexts, per_text
from slimport.analysis.py2_code import describe, may_be_python2_only, python2_evidence
from slimport.analysis.source_tree import SourceTree

# context.scratch key: {fact name: value} for the facts the engine gathered.
FACTS_KEY = "slimport.tree_facts"


@dataclass(frozen=True)
class TreeContents:
    """What a fact is gathered from: the tree's paths and its Python files' texts."""

    # The paths the run ports; None when they are not known (standard input).
    source: Optional[SourceTree]
    # The text of every Python file of the scope the fact is gathered over (UTF-8,
    # undecodable bytes replaced): ``slimport.engine.facts``.
    texts: Sequence[str]
    # Their paths, in the same order (empty where not known): for a fact's report.
    paths: Sequence[str] = ()


# How far a fact reaches: the code a module can meet through what it imports (its
# scope), or every module that can run in one process with it (its component: importers
# too, for what is one per process, such as which Keras ``tf.keras`` is).
IMPORTS, PROCESS = "imports", "process"


@dataclass(frozen=True)
class TreeFact:
    """One fact about the whole tree a codemod reads.

    Attributes:
      name: the fact's key in ``FACTS_KEY``; unique among the registered codemods'.
      gather: the fact's value for a tree (called once per run and scope, in the engine).
      alone: its value when no tree is known (a file ported on its own).
      reach: IMPORTS or PROCESS: which files of the tree it is gathered over.
      per_text: the functions of one file's text whose answer ``gather`` asks for every
        file (as a rule: where it stops at the first file that shows something, for
        most trees none does); a ``-j`` run works them out in its processes at once.
    """

    name: str
    gather: Callable[[TreeContents], Any]
    alone: Any = None
    reach: str = IMPORTS
    per_text: PerTexts = ()


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
    return frozenset().union(*map(_definitions_in, texts))


@per_text
def _definitions_in(text: str) -> FrozenSet[str]:
    return frozenset(match[1] for match in _DEFINITION.finditer(text))


def modules_imported(texts: Sequence[str]) -> FrozenSet[str]:
    """Every module an ``import`` or ``from ... import`` of the tree names.

    Args:
      texts: the text of every Python file of the tree.

    Returns:
      Dotted module names (``scipy.spatial.transform``); relative imports are left out.
    """
    return frozenset().union(*map(_imports_in, texts))


@per_text
def _imports_in(text: str) -> FrozenSet[str]:
    found = set()
    for match in _IMPORT.finditer(text):
        names = [match[1]] if match[1] else [alias.split()[0] for alias in match[2].split(",")]
        found.update(name for name in names if not name.startswith("."))
    return frozenset(found)


# TensorFlow's own record dtypes (``np.dtype([("qint8", np.int8)])``, ...): tf.as_dtype
# names them, so they are no dtype TF 2's assertions fail on.
TF_RECORDS = frozenset({"qint8", "quint8", "qint16", "quint16", "qint32", "resource"})


def structured_dtype(node: ast.AST, numpy_names: FrozenSet[str]) -> bool:
    """Whether ``node`` is certainly a NumPy structured (record) dtype spelled out, and
    not one of TensorFlow's: ``[('name', 'f4'), ...]`` or ``np.dtype([...])`` with ``np``
    one of ``numpy_names``.

    Args:
      node: an expression.
      numpy_names: the names the module binds to ``numpy``.

    Returns:
      True for a list of ``(field name, ...)`` tuples, bare or in ``np.dtype``.
    """
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "dtype" and isinstance(node.func.value, ast.Name) and \
            node.func.value.id in numpy_names and len(node.args) == 1:
        node = node.args[0]
    if not isinstance(node, ast.List) or not node.elts:
        return False
    names = [field.elts[0].value for field in node.elts
             if isinstance(field, ast.Tuple) and field.elts
             and isinstance(field.elts[0], ast.Constant) and isinstance(field.elts[0].value, str)]
    return len(names) == len(node.elts) and not (len(names) == 1 and names[0] in TF_RECORDS)


def numpy_names_of(tree: ast.Module) -> FrozenSet[str]:
    """The names a module's top-level imports bind to ``numpy`` itself.

    Args:
      tree: a module's stdlib ``ast``.

    Returns:
      ``numpy`` and ``np`` where ``import numpy`` / ``import numpy as np`` bind them.
    """
    return frozenset(alias.asname or alias.name for statement in tree.body
                     if isinstance(statement, ast.Import) for alias in statement.names
                     if alias.name == "numpy")


# A module-level ``name = X.dtype([``: the only files the fact parses.
_RECORD_DTYPE_BINDING = re.compile(r"^\w+[ \t]*=[ \t]*\w+\.dtype\([ \t]*\[", re.MULTILINE)
# A name bound at the start of a line (a module-level ``name =`` or ``name: T =``).
_MODULE_BINDING = re.compile(r"^(\w+)[ \t]*(?::[^=\n]*)?=(?!=)", re.MULTILINE)


def structured_dtype_names(texts: Sequence[str]) -> FrozenSet[str]:
    """The module-level names the tree binds to a structured dtype and to nothing else.

    Args:
      texts: the text of every Python file of the tree.

    Returns:
      Names such as ``label_data_type`` (``label_data_type = np.dtype([('subject',
      'i4'), ...])``) of which every module-level binding in the tree is a structured
      dtype spelled out in ``np.dtype`` (a bare list of tuples may be anything):
      ``module.label_data_type`` is then one, whichever module of the tree it is read
      from.
    """
    structured: Dict[str, int] = {}
    for text in texts:
        for name in _structured_dtypes_bound(text):
            structured[name] = structured.get(name, 0) + 1
    if not structured:
        return frozenset()
    bindings: Dict[str, int] = {}
    for text in texts:
        for match in _MODULE_BINDING.finditer(text):
            if match[1] in structured:
                bindings[match[1]] = bindings.get(match[1], 0) + 1
    return frozenset(name for name, count in structured.items() if bindings.get(name) == count)


@per_text
def _structured_dtypes_bound(text: str) -> Tuple[str, ...]:
    """The names one file's module-level ``name = np.dtype([...])`` bind, once each binding."""
    if not _RECORD_DTYPE_BINDING.search(text):
        return ()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return ()
    numpy_names = numpy_names_of(tree)
    return tuple(statement.targets[0].id for statement in tree.body
                 if isinstance(statement, ast.Assign) and len(statement.targets) == 1
                 and isinstance(statement.targets[0], ast.Name)
                 and isinstance(statement.value, ast.Call)
                 and structured_dtype(statement.value, numpy_names))


@per_text
def python2_only_evidence(text: str) -> Optional[str]:
    """What in one file's text fails on Python 3 as written (``is_python2_only``), as a
    report names it, or None.

    Args:
      text: a Python file's text.

    Returns:
      ``import StringIO (line 17)`` and the like; None for a file with no such evidence
      or that does not parse.
    """
    if not may_be_python2_only(text):
        return None
    try:
        evidence = [e for e in python2_evidence(ast.parse(text)) if e.only]
    except (SyntaxError, ValueError):
        return None
    return describe(evidence, shown=1) if evidence else None


def python2_project(tree: TreeContents) -> Optional[str]:
    """Whether the tree is a Python 2 project, and what shows it: a module of it that
    fails on Python 3 as written (a Python 2 builtin, module or removed name, outside
    any version guard). Such a project ran on Python 2, so its other modules did too:
    their string literals were bytes, their ``map`` a list, whatever TF API they use.

    Args:
      tree: the texts (and paths) of the tree's Python files.

    Returns:
      The first such file and its evidence (``proj/utils/io.py: import StringIO (line
      17)``, from the folder above the scope's files), or None for a tree none of whose
      files shows it.
    """
    for index, text in enumerate(tree.texts):
        found = python2_only_evidence(text)
        if found:
            if index >= len(tree.paths):
                return found
            # Named from the folder that holds the scope's files: the same words
            # wherever the run starts and whichever part of the tree it was given.
            top = os.path.dirname(os.path.commonpath(tree.paths))
            return f"{os.path.relpath(tree.paths[index], top)}: {found}"
    return None


# Is ``x.iteritems()`` / ``x.next()`` / ``self.assertItemsEqual`` Python 2's or a
# library's old name, or a method the tree itself defines?
TREE_METHODS = TreeFact("tree_methods", lambda tree: methods_defined(tree.texts),
                        per_text=(_definitions_in,))
# Which libraries the tree uses at all (is ``x.as_matrix()`` pandas' or SciPy's?).
TREE_IMPORTS = TreeFact("tree_imports", lambda tree: modules_imported(tree.texts),
                        per_text=(_imports_in,))
# Is ``module.label_data_type`` a NumPy structured dtype (``np.array(..., dtype=...)``
# then makes an array TF 2's assertions cannot name the dtype of)?
TREE_STRUCTURED_DTYPES = TreeFact("tree_structured_dtypes",
                                  lambda tree: structured_dtype_names(tree.texts),
                                  per_text=(_structured_dtypes_bound,))
# Is the file part of a Python 2 project (its string literals bytes, its ``map`` a list)
# though it shows no Python 2 sign of its own?
TREE_PYTHON2 = TreeFact("tree_python2", python2_project, per_text=(python2_only_evidence,))
