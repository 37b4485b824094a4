"""A flag defined twice on one path: TF1 code that absl rejects with DuplicateFlagError.

Only a second definition on the very same path through the ``if`` / ``try`` branches
is sure to run after the first: one in each branch of an ``if``, or in a ``try`` and
its ``except``, are alternatives, and one under another ``if`` may be guarded (``if
'x' not in FLAGS``). ``DefinedOnce`` keeps the branch path while the visit walks and
checks each ``DEFINE_*`` call its codemod hands it.
"""
from __future__ import annotations

from typing import Dict, List, Tuple, Union

import libcst as cst

from slimport.codemods import copy_on_write
from slimport.codemods.base import SlimportCodemod

# (id of an if / try statement, number of its branch).
Branch = Tuple[int, int]


class DefinedOnce(SlimportCodemod):
    """Mixin for a codemod that reports flags defined twice (``check_defined_once``)."""

    def start_file(self, tree: cst.Module) -> bool:
        needed = super().start_file(tree)
        self._defined: Dict[str, List[Tuple[cst.Call, Tuple[Branch, ...]]]] = {}
        # The if/try branches the visit is in.
        self._branches: Dict[int, Branch] = {}
        self._path: List[Branch] = []
        return needed

    def visit_If(self, node: cst.If) -> None:
        self._branches[id(node.body)] = (id(node), 0)
        if node.orelse is not None:
            self._branches[id(node.orelse)] = (id(node), 1)

    def visit_Try(self, node: cst.Try) -> None:
        # A definition in ``try`` and another in its ``except`` are alternatives.
        self._branches[id(node.body)] = (id(node), 0)
        for index, handler in enumerate(node.handlers, start=1):
            self._branches[id(handler)] = (id(node), index)

    def on_visit(self, node: cst.CSTNode) -> bool:
        branch = self._branches.get(id(node))
        if branch is not None:
            self._path.append(branch)
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode
                 ) -> Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]:
        result = super().on_leave(original_node, updated_node)
        if self._path and self._branches.get(id(original_node)) == self._path[-1]:
            self._path.pop()
        return result

    def check_defined_once(self, node: cst.Call) -> None:
        """Report ``node``, a ``DEFINE_*`` call, if the flag it defines was defined before
        on the same path through the module's ``if`` / ``try`` branches.

        Args:
          node: a ``DEFINE_*`` call (its first argument, or ``name=``, is the flag).
        """
        name = None
        for position, arg in enumerate(node.args):
            named = arg.keyword.value if arg.keyword is not None else None
            if (named is None and position == 0) or named in ("name", "flag_name"):
                if isinstance(arg.value, cst.SimpleString):
                    name = arg.value.evaluated_value
                break
        if not isinstance(name, str):
            return
        path = tuple(self._path)
        earlier = self._defined.setdefault(name, [])
        # Only a second definition on the very same path is sure to run after the
        # first; one under another ``if`` may be guarded (``if 'x' not in FLAGS``).
        first = next((call for call, where in earlier if where == path), None)
        earlier.append((node, path))
        if first is not None:
            self.needs_attention(
                node,
                f"flag {name!r} is defined twice (first at line {self.source_line_of(first)})",
                "delete one definition: absl raises DuplicateFlagError on the second",
            )


# Besides dispatching, the hooks follow the branch path by the ids of ``if`` / ``try``
# blocks and handlers: no name, literal or trivia node.
copy_on_write.dispatches_by_node_type(DefinedOnce.on_visit, DefinedOnce.on_leave,
                                      DefinedOnce.on_visit_attribute,
                                      DefinedOnce.on_leave_attribute)
