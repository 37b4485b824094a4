"""A call given one more keyword argument, as the codemods that add one write it."""
from __future__ import annotations

import libcst as cst


def with_keyword_argument(call: cst.Call, keyword: str, value: cst.BaseExpression) -> cst.Call:
    """``call`` with ``keyword=value`` after its arguments (``f(x)`` -> ``f(x, key=v)``).

    Args:
      call: the call (an updated node).
      keyword: the parameter's name.
      value: what it is given.

    Returns:
      The call with the argument added, its other arguments and spacing as they were.
    """
    args = list(call.args)
    if args and args[-1].comma is cst.MaybeSentinel.DEFAULT:
        args[-1] = args[-1].with_changes(comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" ")))
    return call.with_changes(args=[*args, cst.Arg(value, keyword=cst.Name(keyword),
                                                  equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))])
