"""A codemod base part for calls that move to a function of slim_ext: each is marked
while visiting and rewritten on the way out, with the function's module imported."""
from __future__ import annotations

from typing import ClassVar, Dict, Optional, Sequence

import libcst as cst


class RuntimeCalls:
    """Mixed into a ``SlimportCodemod`` before its base; ``start_runtime_calls`` goes in
    ``start_file``, ``send_to_runtime`` marks a call."""

    # The module to import and the function's dotted name (``slim_ext.stdlib`` and
    # ``slim_ext.stdlib.fractions_gcd``); a codemod with several functions in RUNTIME
    # names each call's (``send_to_runtime``'s ``home``).
    RUNTIME: ClassVar[str]
    HOME: ClassVar[str] = ""

    def start_runtime_calls(self) -> None:
        # id of an original call -> the function it calls instead.
        self._runtime_calls: Dict[int, str] = {}

    def send_to_runtime(self, node: cst.Call, home: Optional[str] = None) -> None:
        """Have the (original) call ``node`` call ``home`` instead.

        Args:
          node: a call of the tree as the codemod was given it (not an updated node).
          home: the dotted name of a function of ``RUNTIME`` (default ``HOME``).
        """
        self._runtime_calls[id(node)] = home or self.HOME

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
        home = self._runtime_calls.pop(id(original_node), None)
        if home is None:
            return updated_node
        self.add_needed_import(self.RUNTIME)  # type: ignore[attr-defined]
        return updated_node.with_changes(func=cst.parse_expression(home),
                                         args=self.runtime_args(updated_node))
