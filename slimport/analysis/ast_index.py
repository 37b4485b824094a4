"""One walk of a stdlib ``ast`` node, shared by every question asked of it.

The pre-checks and statement filters of a dozen codemods each walked the same module
(and the same statements) for their own few node kinds: on a generated 90-file corpus
``ast.walk`` was a fifth of the rewrite's CPU (benchmarks/profile_rewrite.py). Here the
first question walks the node once and files what it finds by exact type, on the node
itself (as ``names.identifiers`` keeps its answer); later questions read the lists.

The trees are read, never changed, once parsed: the engine parses a new tree after each
codemod that edits the text, so an index never outlives the code it describes.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Tuple, Type

_BY_KIND = "_slimport_nodes_by_kind"

NodeKinds = Dict[Type[ast.AST], List[ast.AST]]


def _descendants_by_kind(node: ast.AST) -> NodeKinds:
    """Every node under ``node`` (not itself), by exact type, each list in ``ast.walk``
    order. Kept on ``node``: an index holding ``node`` itself would be a reference
    cycle, which only the cyclic collector frees (the engine pauses it while porting)."""
    known = getattr(node, _BY_KIND, None)
    if known is None:
        known = {}
        walked = ast.walk(node)
        next(walked)
        for found in walked:
            kind = type(found)
            nodes = known.get(kind)
            if nodes is None:
                known[kind] = [found]
            else:
                nodes.append(found)
        setattr(node, _BY_KIND, known)
    return known


def nodes_of(node: ast.AST, kinds: Tuple[Type[ast.AST], ...]) -> Iterator[ast.AST]:
    """``node`` and the nodes under it whose exact type is one of ``kinds``, each kind in
    ``ast.walk`` order: all of the first kind, then all of the next.

    Args:
      node: a stdlib ``ast`` node (the walk's index is kept on it).
      kinds: concrete node classes (``ast.Call``, not ``ast.expr``: a base class matches
        nothing here).

    Returns:
      The nodes.
    """
    index = _descendants_by_kind(node)
    own_kind = type(node)
    for kind in kinds:
        if kind is own_kind:
            yield node
        yield from index.get(kind, ())


def kinds_under(node: ast.AST) -> Iterator[Tuple[Type[ast.AST], List[ast.AST]]]:
    """(type, nodes of that type) for ``node`` and every node under it, as ``nodes_of``
    would give them, for a question about many kinds at once.

    Args:
      node: a stdlib ``ast`` node.

    Returns:
      The pairs, in no particular order.
    """
    own_kind = type(node)
    index = _descendants_by_kind(node)
    yield from ((kind, [node, *nodes] if kind is own_kind else nodes)
                for kind, nodes in index.items())
    if own_kind not in index:
        yield own_kind, [node]
