"""A codemod base part that follows the classes a visit is in (``ClassTracker``): for
codemods that port ``self.<name>`` by what the class derives from."""
from __future__ import annotations

import ast
from typing import AbstractSet, Callable

import libcst as cst

from slimport.analysis.instances import BaseTest, ClassTracker
from slimport.codemods._leftovers import reads_attribute


class ClassesFollowed:
    """Mixed into a ``SlimportCodemod`` before its base: ``self.classes`` follows the
    visit once ``follow_classes`` set it up (in ``start_file``)."""

    classes: ClassTracker

    def follow_classes(self, is_base: BaseTest) -> None:
        """Start following the classes of a file.

        Args:
          is_base: whether a base, by its qualified name, is one the codemod ports for.
        """
        self.classes = ClassTracker(is_base)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.enter_class(node, self.resolve_name,  # type: ignore[attr-defined]
                                 not self.in_deferred_code)  # type: ignore[attr-defined]

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> cst.ClassDef:
        self.classes.leave_class()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.classes.enter_function(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef,
                          updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self.classes.leave_function()
        return updated_node


def method_statements(names: AbstractSet[str]) -> Callable[[ast.stmt], bool]:
    """The statements a skeleton must keep for a codemod that follows classes and ports
    the methods ``names``: those that read one (``x.<name>``), and what its
    ``ClassTracker`` reads. That is every class statement (kept as its header: what the
    class derives from) and what makes one of ``names`` the class's own (a ``def`` of
    that name, an assignment ``self.<name> = ...``): elided, they would hide that a class
    defines the method the codemod renames or reroutes. (A method that holds a statement
    the codemod edits is kept with it, instance parameter and all.)

    Args:
      names: the method names the codemod ports.

    Returns:
      A predicate on top-level and nested statements, for ``statement_filter``.
    """
    reads = reads_attribute(names)

    def needed(statement: ast.stmt) -> bool:
        if isinstance(statement, ast.ClassDef):
            return True
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and statement.name in names:
            return True
        if isinstance(statement, ast.Assign) and any(
                isinstance(target, ast.Attribute) and target.attr in names
                for target in statement.targets):
            return True
        return reads(statement)
    return needed
