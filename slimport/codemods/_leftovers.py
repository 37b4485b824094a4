"""What the leftover codemods share: Python 2 and removed-library names, ported only in
TF1-era code (Python 2 code, TF1 code) and plain Python.

py2_leftovers, py2_lists, removed_stdlib, numpy_aliases and pandas_as_matrix each port
names that stopped working with Python 3 or a library's major version. Whether a file's
leftovers are slimport's to port is one rule for all of them (``leftovers_are_ours``:
Python 2 code, whatever TF API it uses; TF1 code; plain Python of a TF1-era tree; TF2
code written for Python 3 is its authors'), and the
statements that show it must reach the codemod beside its own (``tf1_era_file``'s
witnesses). Their text pre-checks are regular expressions: a substring such as ``long``
or ``map(`` is in too many files (``along``, ``tf.map_fn(``).
"""
from __future__ import annotations

import ast
from typing import AbstractSet, Any, ClassVar, Optional, Tuple

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.py2_code import describe, python2_evidence
from slimport.codemods.base import SlimportCodemod, StatementFilter
from slimport.analysis.names import Bindings
from slimport.analysis.tf_code import leftovers_are_ours, tf1_era_file
from slimport.codemods.tree_facts import TREE_PYTHON2, TreeFact


def reads_attribute(attributes: AbstractSet[str]) -> StatementFilter:
    """The statements that read an attribute named in ``attributes`` (``x.getargspec``):
    what most leftover codemods change is such a read, whatever it is read on.

    Args:
      attributes: the attribute names.

    Returns:
      A predicate on top-level and nested statements, for ``leftover_statements``.
    """
    return lambda statement: any(node.attr in attributes  # type: ignore[attr-defined]
                                 for node in nodes_of(statement, (ast.Attribute,)))


def reads_function(names: AbstractSet[str]) -> StatementFilter:
    """The statements that read a name in ``names`` as an attribute (``np.size``) or as a
    plain name (``from numpy import size``): the calls of a module's function.

    Args:
      names: the function names.

    Returns:
      A predicate on top-level and nested statements, for ``leftover_statements``.
    """
    attribute = reads_attribute(names)
    return lambda statement: attribute(statement) or any(
        node.id in names for node in nodes_of(statement, (ast.Name,)))  # type: ignore[attr-defined]


class LeftoverCodemod(SlimportCodemod):
    """Base of the leftover codemods; subclasses set ``TRIGGER`` (the pattern a file's
    text must match) and define ``leftover_statements`` and ``start_leftovers``."""

    # Is the file part of a Python 2 project? (Subclasses that read more facts add theirs
    # to these.)
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = (TREE_PYTHON2,)

    def __init__(self, context: Any, tree_methods: Optional[AbstractSet[str]] = None,
                 tree_imports: Optional[AbstractSet[str]] = None,
                 tree_python2: Optional[str] = None, **kwargs: Any) -> None:
        """
        Args:
          context: libcst's codemod context.
          tree_methods: the names the ``def`` statements of the whole tree being ported
            define, or None when the tree is not known (a receiver only the tree could
            tell about is then reported).
          tree_imports: the modules the whole tree imports, or None when not known.
          tree_python2: what shows that the file's project is Python 2 code (a module
            of its scope that fails on Python 3 as written), or None: not one, or the
            tree is not known.
          **kwargs: for the base class.
        """
        # (Set first: the base's __init__ starts an empty file.)
        self.tree_methods = tree_methods
        self.tree_imports = tree_imports
        self.tree_python2 = tree_python2
        super().__init__(context, **kwargs)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # A file that reads as TF2 code may still be ours: its original may have been
        # TF1 (``tf1_before_porting``), which only start_file can see.
        witnesses = tf1_era_file(tree, bindings)[1]
        needed = cls.leftover_statements(tree, bindings)
        return lambda statement: id(statement) in witnesses or needed(statement)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        """The statements this codemod reads or changes (the skeleton keeps them).

        Args:
          tree: the file's stdlib ``ast``.
          bindings: its import bindings.

        Returns:
          A predicate on top-level and nested statements.
        """
        raise NotImplementedError

    def start_file(self, tree: cst.Module) -> bool:
        parsed = self.file_ast(tree)
        if not self.leftovers_are_ours(parsed):
            return False
        return self.start_leftovers(tree, parsed)

    def leftovers_are_ours(self, parsed: ast.Module) -> bool:
        """Whether this file's leftovers are for this codemod to port: those of a Python 2
        project's modules (tree fact ``tree_python2``), else ``leftovers_are_ours`` (a
        codemod whose idiom dates a file by itself widens it).

        Args:
          parsed: the file's stdlib ``ast``.

        Returns:
          True to port the file.
        """
        return self.tree_python2 is not None or \
            leftovers_are_ours(parsed, self.original_ast, self.context.filename)

    def ran_on_python2_only(self, parsed: ast.Module) -> Optional[str]:
        """What shows that this file ran on Python 2 only, as a report says it, or None.

        For the codemods that carry over what Python 2 did where Python 3 raises: a file
        whose ``from __future__`` lines alone show Python 2 ran on Python 3 too, where
        its code raised as it does now.

        Args:
          parsed: the file's stdlib ``ast``.

        Returns:
          A module of its project that fails on Python 3 as written (tree fact
          ``tree_python2``), else what of this file does; None for neither.
        """
        if self.tree_python2 is not None:
            return f"a module of this project fails on Python 3 as written: {self.tree_python2}"
        evidence = [e for e in python2_evidence(self.original_ast or parsed) if e.only]
        if not evidence:
            return None
        return f"this file fails on Python 3 as written: {describe(evidence, 1)}"

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        """Set up this file's state, once its leftovers are known to be ours.

        Args:
          tree: the module (a skeleton's) the codemod transforms.
          parsed: its stdlib ``ast``.

        Returns:
          False to leave the file as it is.
        """
        raise NotImplementedError
