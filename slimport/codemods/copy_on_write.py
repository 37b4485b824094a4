"""libcst's walk, building a new node only where a child changed.

``CSTNode.visit`` calls every node's ``_visit_and_replace_children``, which visits its
children and builds a new node from them whether or not any changed (libcst's own
TODO: "provide traversal where children are not replaced"): a codemod that edits
three calls rebuilds the whole tree, and a visitor that edits nothing rebuilds it
too. That was the largest cost of a codemod's pass. ``install`` puts a walk in its
place that calls the visitor exactly as libcst does (``on_visit``, each child field's
``on_visit_attribute`` / ``on_leave_attribute``, ``on_leave``, in libcst's order, with
libcst's handling of removed and flattened children) and gives back the very node it
was given when nothing under it changed. The fields and their order come from libcst's
source (``slimport.tables.libcst_children``, checked against the installed libcst by
tests/slimport/test_copy_on_write.py); a node class the table does not know is walked
by libcst's own code.

Two more savings, for visitors that cannot tell: a visitor whose ``on_visit`` and
``on_leave`` only dispatch to its ``visit_<Node>`` / ``leave_<Node>`` methods (libcst's
own, or one ``dispatches_by_node_type`` names) and that handles no whitespace or
punctuation node does not see those nodes at all (``TRIVIA``: two thirds of a tree),
nor the names and literals it has no method for (nothing but trivia under them: a
visit there calls nothing and changes nothing; a third of the rest), nor any
expression when it has methods only for nodes no expression holds (statements and
their parts: an import codemod's walk is the statements'); a field whose type (libcst's
annotation) admits only such nodes is not even read (two thirds of the fields are
whitespace, parentheses and punctuation); and the attribute hooks are not called where
nothing listens to them.

What a visitor can notice: an unchanged node is handed to ``on_leave`` as both the
original and the updated node (libcst hands it an equal copy), and a tree after a walk
shares its unchanged parts with the tree before. libcst's trees are immutable, and a
node is still never in one tree twice, so nothing that reads them can tell otherwise.
"""
from __future__ import annotations

import re
import typing
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Set, Tuple, Union

import libcst as cst
from libcst import CSTValidationError, FlattenSentinel, MaybeSentinel, RemovalSentinel
from libcst._nodes.base import CSTNode
from libcst.matchers import MatcherDecoratableTransformer, MatcherDecoratableVisitor
from libcst.matchers._decorators import (
    CONSTRUCTED_LEAVE_MATCHER_ATTR,
    CONSTRUCTED_VISIT_MATCHER_ATTR,
    VISIT_NEGATIVE_MATCHER_ATTR,
    VISIT_POSITIVE_MATCHER_ATTR,
)

from slimport.tables.libcst_children import BODY, CHILDREN, OPTIONAL, SENTINEL, SEQUENCE, TRIVIA

Fields = Tuple[Tuple[str, str], ...]

# libcst's own walk, which ``install`` replaces.
LIBCST_VISIT = CSTNode.visit
_TRIVIA_TYPES: FrozenSet[type] = frozenset(getattr(cst, name) for name in TRIVIA)
# Names and literals: nodes whose only children are their parentheses (trivia).
_LEAF_TYPES: FrozenSet[type] = frozenset(
    getattr(cst, name) for name, fields in CHILDREN.items()
    if name not in TRIVIA and all(field in ("lpar", "rpar") for field, _ in fields))


def _derives(kind: type, *bases: type) -> bool:
    """``issubclass`` by the MRO: libcst's node classes are ABCs, whose ``issubclass``
    walks every subclass the first time it is asked (a tenth of a second over the table)."""
    return any(base in kind.__mro__ for base in bases)


# Expressions: what a visitor with methods only for ``_STATEMENT_PARTS`` never sees.
_EXPRESSION_TYPES: FrozenSet[type] = frozenset(
    kind for kind in (getattr(cst, name) for name in CHILDREN)
    if _derives(kind, cst.BaseExpression))
# The node classes no expression holds at any depth (a lambda's parameters are in one).
_STATEMENT_PARTS: FrozenSet[str] = frozenset(
    name for name in CHILDREN
    if _derives(getattr(cst, name), cst.BaseStatement, cst.BaseSmallStatement,
                cst.BaseSuite, cst.Module)) | {
    "AsName", "AssignTarget", "Decorator", "Else", "ExceptHandler", "ExceptStarHandler",
    "Finally", "ImportAlias", "ImportStar", "NameItem", "WithItem"}
# on_visit / on_leave methods that do nothing but call visit_<Node> / leave_<Node>.
_DISPATCHERS: Set[Callable[..., Any]] = {
    cst.CSTTransformer.on_visit, cst.CSTTransformer.on_leave,
    cst.CSTVisitor.on_visit, cst.CSTVisitor.on_leave,
}
# on_visit_attribute / on_leave_attribute methods that only call visit_<Node>_<field>
# (libcst's), and those that do nothing at all (never called).
_ATTRIBUTE_DISPATCHERS: Set[Callable[..., Any]] = {
    cst.CSTTransformer.on_visit_attribute, cst.CSTTransformer.on_leave_attribute,
    cst.CSTVisitor.on_visit_attribute, cst.CSTVisitor.on_leave_attribute,
}
# libcst's matcher visitors (AddImportsVisitor, GatherImportsVisitor, ...) are such
# dispatchers in a class with no matcher decorator: nothing to match, nothing to gate.
_MATCHER_HOOKS: Set[Callable[..., Any]] = {
    MatcherDecoratableTransformer.on_visit, MatcherDecoratableTransformer.on_leave,
    MatcherDecoratableVisitor.on_visit, MatcherDecoratableVisitor.on_leave,
    MatcherDecoratableTransformer.on_visit_attribute,
    MatcherDecoratableTransformer.on_leave_attribute,
    MatcherDecoratableVisitor.on_visit_attribute, MatcherDecoratableVisitor.on_leave_attribute,
}
_MATCHER_MARKERS = (VISIT_POSITIVE_MATCHER_ATTR, VISIT_NEGATIVE_MATCHER_ATTR,
                    CONSTRUCTED_VISIT_MATCHER_ATTR, CONSTRUCTED_LEAVE_MATCHER_ATTR)
_ATTRIBUTE_NO_OPS: Set[Callable[..., Any]] = set()
_ATTRIBUTE_HANDLER = re.compile(r"(?:visit|leave)_([A-Za-z]+)_\w+\Z")

# libcst's visitor base classes: every visitor inherits their do-nothing methods.
_LIBCST_BASES: FrozenSet[type] = frozenset((*cst.CSTTransformer.__mro__, *cst.CSTVisitor.__mro__))
# The node classes the table knows.
_TABLE_CLASSES: FrozenSet[type] = frozenset(getattr(cst, name) for name in CHILDREN)
# Node class -> its fields (None: not in the table, libcst walks it).
_FIELDS: Dict[type, Optional[Fields]] = {}
# Node class -> per field of the table, the node classes its annotation admits.
_FIELD_CLASSES: Dict[type, Tuple[FrozenSet[type], ...]] = {}
# What a field the cache has not seen maps to.
_UNKNOWN = object()
# The nodes a walk skips -> node class -> the fields that may hold another node.
_WALKED_FIELDS: Dict[FrozenSet[type], Dict[type, Optional[Fields]]] = {}
# Visitor class -> (whether it hears of attributes, the node classes it never sees).
_VISITORS: Dict[type, Tuple[bool, FrozenSet[type]]] = {}


def install() -> None:
    """Walk every libcst tree of this process copy-on-write (calling it again does nothing)."""
    CSTNode.visit = visit  # type: ignore[method-assign]


def dispatches_by_node_type(on_visit: Callable[..., Any], on_leave: Callable[..., Any],
                            on_visit_attribute: Callable[..., Any],
                            on_leave_attribute: Callable[..., Any]) -> None:
    """Declare a visitor base's hooks: ``on_visit`` / ``on_leave`` act on a node only
    through its ``visit_<Node>`` / ``leave_<Node>`` methods (whatever else they do
    depends on no whitespace or punctuation node, nor on a name or literal node the
    visitor has no method for), and the attribute hooks do nothing.

    Args:
      on_visit: the base's ``on_visit`` function.
      on_leave: its ``on_leave``.
      on_visit_attribute: its ``on_visit_attribute`` (a no-op).
      on_leave_attribute: its ``on_leave_attribute`` (a no-op).
    """
    _DISPATCHERS.update((on_visit, on_leave))
    _ATTRIBUTE_NO_OPS.update((on_visit_attribute, on_leave_attribute))
    _VISITORS.clear()


def _fields(kind: type) -> Optional[Fields]:
    if kind not in _FIELDS:
        name = kind.__name__
        _FIELDS[kind] = CHILDREN[name] if getattr(cst, name, None) is kind \
            and name in CHILDREN else None
    return _FIELDS[kind]


def _admitted(annotation: Any) -> FrozenSet[type]:
    """The node classes of the table a field annotated ``annotation`` may hold (libcst's
    trees hold no others; ``__subclasses__`` would also list the classes libcst's
    ``add_slots`` replaced, which nothing makes)."""
    if typing.get_origin(annotation) is not None:  # Sequence[...], Union[...], Optional
        return frozenset().union(*(_admitted(part) for part in typing.get_args(annotation)))
    if not (isinstance(annotation, type) and _derives(annotation, CSTNode)):
        return frozenset()  # MaybeSentinel, None: nothing to visit
    return frozenset(kind for kind in _TABLE_CLASSES if _derives(kind, annotation))


def _walked_fields(kind: type, skipped: FrozenSet[type]) -> Optional[Fields]:
    """``_fields(kind)`` without the fields that can hold only nodes in ``skipped``."""
    known = _WALKED_FIELDS.setdefault(skipped, {})
    if kind in known:
        return known[kind]
    fields = _fields(kind)
    if fields is not None:
        if kind not in _FIELD_CLASSES:
            hints = typing.get_type_hints(kind)
            _FIELD_CLASSES[kind] = tuple(_admitted(hints[name]) for name, _ in fields)
        fields = tuple(field for field, admitted in zip(fields, _FIELD_CLASSES[kind])
                       if not admitted <= skipped)
    known[kind] = fields
    return fields


def _visitor_facts(kind: type) -> Tuple[bool, FrozenSet[type]]:
    """Whether a visitor of class ``kind`` hears of attributes, and the nodes it skips."""
    found = _VISITORS.get(kind)
    if found is not None:
        return found
    dispatchers, attribute_dispatchers = _DISPATCHERS, _ATTRIBUTE_DISPATCHERS
    if not _matcher_decorated(kind):
        dispatchers = dispatchers | _MATCHER_HOOKS
        attribute_dispatchers = attribute_dispatchers | _MATCHER_HOOKS
    hooks = (kind.on_visit_attribute, kind.on_leave_attribute)
    if all(hook in _ATTRIBUTE_NO_OPS for hook in hooks):
        attributes = False
    else:
        attributes = not all(hook in attribute_dispatchers for hook in hooks) \
            or _has_field_handlers(kind)
    skipped: FrozenSet[type] = frozenset()
    if not attributes and kind.on_visit in dispatchers and kind.on_leave in dispatchers:
        skipped = frozenset(leaf for leaf in _LEAF_TYPES if not _handles(kind, leaf.__name__))
        if not any(_handles(kind, name) for name in TRIVIA):
            skipped |= _TRIVIA_TYPES
        if not any(_handles(kind, name) for name in CHILDREN if name not in _STATEMENT_PARTS):
            skipped |= _EXPRESSION_TYPES
    _VISITORS[kind] = found = (attributes, skipped)
    return found


def _handles(kind: type, node_name: str) -> bool:
    """Whether visitor class ``kind`` has a ``visit_`` or ``leave_`` method of its own for
    the node class named ``node_name``."""
    return own_method(kind, f"visit_{node_name}") or own_method(kind, f"leave_{node_name}")


def _matcher_decorated(kind: type) -> bool:
    """Whether some method of visitor class ``kind`` has a libcst matcher decorator."""
    return any(hasattr(getattr(kind, name, None), marker)
               for name in _names_defined_past_libcst(kind) for marker in _MATCHER_MARKERS)


def _has_field_handlers(kind: type) -> bool:
    """Whether visitor class ``kind`` has a ``visit_<Node>_<field>`` or
    ``leave_<Node>_<field>`` method of its own."""
    return any(match[1] in CHILDREN for name in _names_defined_past_libcst(kind)
               for match in [_ATTRIBUTE_HANDLER.match(name)] if match and own_method(kind, name))


def _names_defined_past_libcst(kind: type) -> List[str]:
    """The attribute names some class of visitor class ``kind``'s MRO defines, other than
    libcst's visitor bases (``CSTTransformer``, ``CSTVisitor`` and theirs).

    A name only those bases define is no method of ``kind``'s own (``own_method``), and
    carries no matcher decorator; they define a visit_ / leave_ method for every node
    and field (about 1,400), which ``dir`` lists for every visitor class.
    """
    return list(dict.fromkeys(name for base in kind.__mro__ if base not in _LIBCST_BASES
                              for name in vars(base)))


def own_method(kind: type, name: str) -> bool:
    """Whether visitor class ``kind`` has a method ``name`` of its own: libcst's visitor
    bases define a do-nothing ``visit_<Node>`` / ``leave_<Node>`` (and one per field) for
    every node.

    Args:
      kind: a visitor class.
      name: a method name, e.g. ``visit_Call``.

    Returns:
      True when the method is not one of libcst's.
    """
    method = getattr(kind, name, None)
    return method is not None and all(method is not getattr(base, name, None)
                                      for base in (cst.CSTTransformer, cst.CSTVisitor))


def visit(node: CSTNode, visitor: Any) -> Union[CSTNode, RemovalSentinel, FlattenSentinel]:
    """``node.visit(visitor)``, copy-on-write (installed as ``CSTNode.visit``).

    Args:
      node: the root of the walk.
      visitor: a libcst ``CSTVisitor`` or ``CSTTransformer``.

    Returns:
      What libcst's ``visit`` returns: for a visitor ``node``; for a transformer the
      new node, or a sentinel, sharing what did not change with ``node``.
    """
    attributes, skipped = _visitor_facts(type(visitor))
    if isinstance(visitor, cst.CSTVisitor):
        return _Walk(visitor, attributes, skipped).look(node)
    return _Walk(visitor, attributes, skipped).node(node)


class _Walk:
    """One walk of one visitor (its hooks looked up once)."""

    def __init__(self, visitor: Any, attributes: bool, skipped: FrozenSet[type]) -> None:
        self.visitor = visitor
        self.on_visit = visitor.on_visit
        self.on_leave = visitor.on_leave
        self.attributes = attributes
        self.skipped = skipped
        # Node class -> the fields the walk reads (every field where attribute hooks
        # listen: they hear of each).
        self.fields_of = _FIELDS if attributes else _WALKED_FIELDS.setdefault(skipped, {})

    def _fields_of(self, kind: type) -> Optional[Fields]:
        fields = self.fields_of.get(kind, _UNKNOWN)
        if fields is _UNKNOWN:
            fields = _fields(kind) if self.attributes else _walked_fields(kind, self.skipped)
        return fields  # type: ignore[return-value]

    # -- a transformer: build only what changed -----------------------------------------

    def node(self, node: CSTNode) -> Union[CSTNode, RemovalSentinel, FlattenSentinel]:
        visitor = self.visitor
        if self.on_visit(node):
            fields = self._fields_of(type(node))
            if fields is None:
                updated = node._visit_and_replace_children(visitor)
            else:
                updated = self._children(node, fields)
        else:
            updated = node
        result = self.on_leave(node, updated)
        # The node handed back as it came is the common case: no isinstance test against
        # libcst's abstract classes, which is a lookup in their ABC caches at every node.
        if result is not updated and \
                not isinstance(result, (CSTNode, RemovalSentinel, FlattenSentinel)):
            raise CSTValidationError(
                "Expected a node of type CSTNode or a RemovalSentinel, "
                + f"but got a return value of {type(result).__name__}")
        return result

    def _children(self, node: CSTNode, fields: Fields) -> CSTNode:
        changes: Optional[Dict[str, Any]] = None
        attributes, skipped, visitor = self.attributes, self.skipped, self.visitor
        for name, kind in fields:
            value = getattr(node, name)
            # libcst leaves out the hooks only for a sequence that is None (format_spec).
            hooks = attributes and not (value is None and kind is SEQUENCE)
            if hooks:
                visitor.on_visit_attribute(node, name)
            if isinstance(value, (tuple, list)):
                new: Any = self._sequence(value, kind is BODY)
            elif value is None or isinstance(value, MaybeSentinel) or type(value) in skipped:
                new = value
            else:
                new = self._one(value, kind)
            if hooks:
                visitor.on_leave_attribute(node, name)
            if new is not value:
                if changes is None:
                    changes = {}
                changes[name] = new
        return node if changes is None else node.with_changes(**changes)

    def _one(self, child: CSTNode, kind: str) -> Any:
        result = self.node(child)
        if result is child:
            return result
        if isinstance(result, RemovalSentinel):
            if kind is OPTIONAL:
                return None
            if kind is SENTINEL:
                return MaybeSentinel.DEFAULT
            raise TypeError(
                f"We got a RemovalSentinel while visiting a {type(child).__name__}. This "
                + "node's parent does not allow it to be removed.")
        if isinstance(result, FlattenSentinel):
            raise TypeError(
                f"We got a FlattenSentinel while visiting a {type(child).__name__}. This "
                + "node's parent does not allow for it to be it to be replaced with a "
                + "sequence.")
        return result

    def _sequence(self, children: Any, body: bool) -> Tuple[Any, ...]:
        """libcst's ``visit_sequence`` / ``visit_body_sequence``; ``children`` itself when
        it is a tuple and nothing in it changed (libcst always makes a tuple)."""
        out: Optional[list] = None if type(children) is tuple else []
        skipped = self.skipped
        for index, child in enumerate(children):
            new = child if type(child) in skipped else self.node(child)
            if new is child and out is None:
                continue
            if out is None:
                out = list(children[:index])
            if isinstance(new, RemovalSentinel):
                continue
            if isinstance(new, FlattenSentinel):
                for part in new:
                    if not (body and not child._is_removable() and part._is_removable()):
                        out.append(part)
            elif not (body and not child._is_removable() and new._is_removable()):
                out.append(new)
        return children if out is None else tuple(out)

    # -- a visitor: nothing is built ----------------------------------------------------

    def look(self, node: CSTNode) -> CSTNode:
        visitor = self.visitor
        if self.on_visit(node):
            fields = self._fields_of(type(node))
            if fields is None:
                node._visit_and_replace_children(visitor)
            else:
                attributes, skipped = self.attributes, self.skipped
                for name, kind in fields:
                    value = getattr(node, name)
                    hooks = attributes and not (value is None and kind is SEQUENCE)
                    if hooks:
                        visitor.on_visit_attribute(node, name)
                    if isinstance(value, (tuple, list)):
                        for child in value:
                            if type(child) not in skipped:
                                self.look(child)
                    elif not (value is None or isinstance(value, MaybeSentinel)
                              or type(value) in skipped):
                        self.look(value)
                    if hooks:
                        visitor.on_leave_attribute(node, name)
        self.on_leave(node)
        return node
