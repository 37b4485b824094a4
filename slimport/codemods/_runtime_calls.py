"""A codemod base part for calls that move to a function of slim_ext: each is marked
while visiting and rewritten on the way out, with the function's module imported."""
from __future__ import annotations

from typing import ClassVar, Sequence, Set

import libcst as cst


class RuntimeCalls:
    """Mixed into a ``SlimportCodemod`` before its base; ``start_runtime_calls`` goes in
    ``start_file``, ``send_to_runtime`` marks a call."""

    # The module to import and the function's dotted name (``slim_ext.stdlib`` and
    # ``slim_ext.stdlib.fractions_gcd``).
    RUNTIME: ClassVar[str]
    HOME: ClassVar[str]

    def start_runtime_calls(self) -> None:
        self._runtime_calls: Set[int] = set()

    def send_to_runtime(self, node: cst.Call) -> None:
        """Have the (original) call ``node`` call ``HOME`` instead.

        Args:
          node: a call of the tree as the codemod was given it (not an updated node).
        """
        self._runtime_calls.add(id(node))

    def runtime_args(self, call: cst.Call) -> Sequence[cst.Arg]:
        """The arguments ``HOME`` gets for ``call`` (by default the call's own).

        Args:
          call: the updated call, on the way out.

        Returns:
          The arguments of the call of ``HOME``.
        """
        return call.args

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        if id(original_node) not in self._runtime_calls:
            return updated_node
        self._runtime_calls.discard(id(original_node))
        self.add_needed_import(self.RUNTIME)  # type: ignore[attr-defined]
        return updated_node.with_changes(func=cst.parse_expression(self.HOME),
                                         args=self.runtime_args(updated_node))
