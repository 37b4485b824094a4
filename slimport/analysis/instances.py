"""The classes a visit is in: what they derive from, what they define, and which names
stand for their instance.

A codemod that ports ``self.<name>`` by the class's bases (a Keras convolution's
private op, a TestCase's old assertion) needs three things at the use: whether the
class derives from the bases it ports (through classes of the same file too), whether
the class or one of those defines ``<name>`` itself, and whether ``self`` is the
instance -- the first parameter of a method of the class, not of a static or class
method, nor of a function nested in a method (where the method's instance is still
seen by closure). ``ClassTracker`` follows a visit and answers all three.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set

import libcst as cst

_NOT_INSTANCE_METHODS = frozenset({"staticmethod", "classmethod"})
# Whether a base, by its qualified name, is one the codemod looks for (True), certainly
# not (False), or not known (None).
BaseTest = Callable[[str], Optional[bool]]


@dataclass
class ClassInfo:
    """A class of the file.

    Attributes:
      derives: from a base the codemod looks for (True), from none (False), or from a
        class not known here (None).
      defined: the names the class (or a class of the file it derives from) defines:
        its methods and the attributes it assigns (``self.x = ...``).
    """

    derives: Optional[bool]
    defined: Set[str]
    depth: int = 0  # how deep in functions the class statement is
    instances: Set[str] = field(default_factory=set)


class ClassTracker:
    """Follows a libcst visit; the codemod calls ``enter_class`` / ``leave_class`` /
    ``enter_function`` / ``leave_function`` from its visit and leave methods."""

    def __init__(self, is_base: BaseTest) -> None:
        self._is_base = is_base
        self._file_classes: Dict[str, ClassInfo] = {}
        self._stack: List[ClassInfo] = []
        self._depth = 0

    def enter_class(self, node: cst.ClassDef, resolve: Callable[[cst.CSTNode], Optional[str]],
                    module_level: bool) -> None:
        """A class statement starts.

        Args:
          node: the class.
          resolve: the codemod's ``resolve_name`` (None for a name no import binds).
          module_level: the class is a module-level one (later classes may derive from it).
        """
        kinds: List[Optional[bool]] = []
        defined = _defined_names(node)
        for base in node.bases:
            if base.keyword is not None:
                continue
            name = base.value.value if isinstance(base.value, cst.Name) else None
            qualified = resolve(base.value)
            known = self._file_classes.get(name) if name is not None else None
            if known is not None and qualified is None:
                kinds.append(known.derives)
                defined |= known.defined
            elif name == "object" and qualified is None:
                kinds.append(False)
            else:
                kinds.append(None if qualified is None else self._is_base(qualified))
        derives = True if True in kinds else None if None in kinds else False
        info = ClassInfo(derives, defined, self._depth)
        self._stack.append(info)
        if module_level:
            self._file_classes[node.name.value] = info

    def leave_class(self) -> None:
        self._stack.pop()

    def enter_function(self, node: cst.FunctionDef) -> None:
        params = node.params.posonly_params or node.params.params
        if self._stack and self._stack[-1].depth == self._depth and params and not any(
                isinstance(decorator.decorator, cst.Name)
                and decorator.decorator.value in _NOT_INSTANCE_METHODS
                for decorator in node.decorators):
            self._stack[-1].instances.add(params[0].name.value)
        self._depth += 1

    def leave_function(self) -> None:
        self._depth -= 1

    def instance_class(self, name: str) -> Optional[ClassInfo]:
        """The innermost class around the visit, if ``name`` is its instance there.

        Args:
          name: a bare name used where the visit is.

        Returns:
          The class, or None when ``name`` is no instance of it (or no class is around).
        """
        if self._stack and name in self._stack[-1].instances:
            return self._stack[-1]
        return None


def _defined_names(node: cst.ClassDef) -> Set[str]:
    found = _Definitions()
    node.body.visit(found)
    return found.names


class _Definitions(cst.CSTVisitor):
    """The methods a class body defines and the attributes it assigns anywhere in it."""

    def __init__(self) -> None:
        super().__init__()
        self.names: Set[str] = set()
        self._depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self._depth == 0:
            self.names.add(node.name.value)
        self._depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False  # a nested class's names are its own

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Attribute):
            self.names.add(node.target.attr.value)
