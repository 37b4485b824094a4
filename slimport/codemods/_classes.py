"""A codemod base part that follows the classes a visit is in (``ClassTracker``): for
codemods that port ``self.<name>`` by what the class derives from."""
from __future__ import annotations

import ast

import libcst as cst

from slimport.analysis.instances import BaseTest, ClassTracker


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


def tracked_class_statement(statement: ast.stmt) -> bool:
    """Whether a skeleton must keep ``statement`` for the ``ClassTracker`` of a codemod
    that follows classes: a class or function statement (kept as its header: what a
    class derives from, which methods it defines, a method's instance parameter), or an
    assignment to an attribute (``self.x = ...``: a name its class defines). Elided,
    they would hide that a class defines the method a codemod renames or reroutes.

    Args:
      statement: a stdlib ``ast`` statement.

    Returns:
      True when the skeleton keeps it.
    """
    if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    return isinstance(statement, ast.Assign) and any(
        isinstance(target, ast.Attribute) for target in statement.targets)
