"""One walk of a stdlib ``ast`` tree, shared by every question asked of it.

The pre-checks and statement filters of a dozen codemods each walked the same module
(and the same statements) for their own few node kinds: on a generated 90-file corpus
``ast.walk`` was a fifth of the rewrite's CPU (benchmarks/profile_rewrite.py). Here the
first question about a node walks it once, in source order (pre-order), numbering the
nodes under it and filing them by exact type; each statement under it gets the span of
numbers its own nodes have. A later question about the node, or about any statement in
it, reads the lists: a statement's nodes of a kind are a slice found by bisection, so a
function's body is not walked again for every statement in it.

The trees are read, never changed, once parsed: the engine parses a new tree after each
codemod that edits the text, so an index never outlives the code it describes.
"""
from __future__ import annotations

import ast
import sys
import weakref
from bisect import bisect_left
from collections import deque
from typing import Dict, Iterator, List, Tuple, Type

# On the node a walk started from: its _Index.
_INDEX = "_slimport_index"
# On each statement under that node: (a weak reference to the _Index, the statement's
# own number, the number after its last node).
_SPAN = "_slimport_span"

NodeKinds = Dict[Type[ast.AST], List[ast.AST]]


class _Index:
    """The nodes under one node (not itself), by exact type, in pre-order, each kind's
    nodes beside their numbers in the walk.

    Statements hold it only weakly: an index is held by the node it was made for, and
    a statement holding its index would be a reference cycle (the index holds the
    statement), which only the cyclic collector frees (the engine pauses it while
    porting).
    """

    __slots__ = ("nodes", "numbers", "__weakref__")

    def __init__(self) -> None:
        self.nodes: NodeKinds = {}
        self.numbers: Dict[Type[ast.AST], List[int]] = {}


# What a parse makes of a node's ``ctx``, ``op`` and ``ops`` fields: load / store / delete,
# ``+``, ``and``, ``<``, ``not`` ... are one shared instance each per process, with no
# fields. No question here asks about them, and they were a third of the nodes walked.
TOKEN_FIELDS = frozenset({"ctx", "op", "ops"})
# Node class -> its fields but TOKEN_FIELDS.
_CHILD_FIELDS: Dict[Type[ast.AST], Tuple[str, ...]] = {}


def child_nodes(node: ast.AST) -> List[ast.AST]:
    """``list(ast.iter_child_nodes(node))`` without the operators and expression
    contexts (``TOKEN_FIELDS``), and without its two generators per node (a walk's
    largest cost).

    Args:
      node: a stdlib ``ast`` node.

    Returns:
      Its direct children, in field order.
    """
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(
            name for name in kind._fields if name not in TOKEN_FIELDS)
    children: List[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            children.append(value)
        elif isinstance(value, list):
            for item in value:  # (a loop, not a generator: this is every node's cost)
                if isinstance(item, ast.AST):
                    children.append(item)
    return children


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk(node)``, in its order (breadth first), without the operators and
    expression contexts (``child_nodes``): for a question whose answer depends on which
    node comes first, and is asked once of a tree (the index files nodes in pre-order).

    Args:
      node: a stdlib ``ast`` node.

    Returns:
      ``node`` and the nodes under it.
    """
    pending = deque([node])
    while pending:
        node = pending.popleft()
        pending.extend(child_nodes(node))
        yield node


class _Filed:
    """On the walk's stack after a statement's nodes: they are all filed once it is popped."""

    __slots__ = ("statement", "first")

    def __init__(self, statement: ast.stmt, first: int) -> None:
        self.statement, self.first = statement, first


def _walked(root: ast.AST) -> _Index:
    index = _Index()
    nodes, numbers = index.nodes, index.numbers
    reference = weakref.ref(index)
    number = 0
    # Nodes to file, and a _Filed after each statement's (nodes alone, not in tuples: this
    # loop runs for every node of every file).
    pending: List[object] = child_nodes(root)
    pending.reverse()
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind is _Filed:
            setattr(node.statement, _SPAN, (reference, node.first, number))  # type: ignore[attr-defined]
            continue
        filed = nodes.get(kind)
        if filed is None:
            nodes[kind] = [node]  # type: ignore[list-item]
            numbers[kind] = [number]
        else:
            filed.append(node)  # type: ignore[arg-type]
            numbers[kind].append(number)
        if isinstance(node, ast.stmt):
            pending.append(_Filed(node, number))
        number += 1
        children = child_nodes(node)  # type: ignore[arg-type]
        children.reverse()
        pending += children
    setattr(root, _INDEX, index)
    return index


def _located(node: ast.AST) -> Tuple[_Index, int, int, bool]:
    """The index that holds ``node``'s nodes, the span of their numbers in it, and
    whether ``node`` is the node the walk started from (then it is not in the index)."""
    span = getattr(node, _SPAN, None)
    if span is not None:
        index = span[0]()
        if index is not None:
            return index, span[1], span[2], False
    index = getattr(node, _INDEX, None) or _walked(node)
    return index, 0, sys.maxsize, True


def _slice(index: _Index, kind: Type[ast.AST], first: int, end: int) -> List[ast.AST]:
    numbers = index.numbers.get(kind)
    if numbers is None:
        return []
    start = bisect_left(numbers, first)
    return index.nodes[kind][start:bisect_left(numbers, end, start)]


def nodes_of(node: ast.AST, kinds: Tuple[Type[ast.AST], ...]) -> Iterator[ast.AST]:
    """``node`` and the nodes under it whose exact type is one of ``kinds``, each kind in
    source order (pre-order: ``node`` first of its kind): all of the first kind, then
    all of the next. Operators and expression contexts are not filed (``child_nodes``).

    Args:
      node: a stdlib ``ast`` node (the walk's index is kept on it, or on the tree it
        is a statement of).
      kinds: concrete node classes (``ast.Call``, not ``ast.expr``: a base class matches
        nothing here).

    Returns:
      The nodes.
    """
    index, first, end, walked_from = _located(node)
    own_kind = type(node)
    for kind in kinds:
        if walked_from and kind is own_kind:
            yield node
        yield from _slice(index, kind, first, end)


def kinds_under(node: ast.AST) -> Iterator[Tuple[Type[ast.AST], List[ast.AST]]]:
    """(type, nodes of that type) for ``node`` and every node under it but operators and
    expression contexts, as ``nodes_of`` would give them, for a question about many kinds
    at once.

    Args:
      node: a stdlib ``ast`` node.

    Returns:
      The pairs, in no particular order (only the types that have some).
    """
    index, first, end, walked_from = _located(node)
    own_kind = type(node)
    for kind in index.numbers:
        nodes = _slice(index, kind, first, end)
        if walked_from and kind is own_kind:
            nodes.insert(0, node)
        if nodes:
            yield kind, nodes
    if walked_from and own_kind not in index.numbers:
        yield own_kind, [node]
