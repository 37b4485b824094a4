"""Op types TensorFlow renamed, still matched by their TF 1.x names.

TF1 code finds ops in a graph by their type: ``op.type == 'FusedBatchNorm'``,
``node.op in ('Add', 'Mul')``, a whitelist of types. For the same API calls TensorFlow
builds ops of new types since 1.14 / 1.15, in the ``compat.v1`` API too (measured on
TF 1.15 and 2.21): ``tf.add`` and ``a + b`` build ``AddV2``; every fused batch norm
(``tf.nn.fused_batch_norm``, slim's, ``tf.layers``', Keras') ``FusedBatchNormV3`` and
its gradient ``FusedBatchNormGradV3``; a batched ``tf.matmul`` ``BatchMatMulV2``. The old
name then matches nothing: an ``any(...)`` is False, a whitelist refuses the op.

Where the match is a comparison of an op's type (``X.type``, an Operation's; ``X.op``,
a NodeDef's) with the old name -- ``==``, ``!=``, ``in`` / ``not in`` a tuple, list or set
written out -- it is ported to match both names: ``op.type == 'Add'`` -> ``op.type in
('Add', 'AddV2')``, ``op.type in ('Add', 'Mul')`` -> ``op.type in ('Add', 'AddV2',
'Mul')``. The new op is the old one under a new name (the same inputs and attributes),
and a graph saved by TF <= 1.13 still has the old types: both then match, as the code
meant. Where the file names the new type itself it tells the two apart on purpose, and
is left alone. Any other use of an old name as a string -- a whitelist kept in a
variable, another library's pattern, a comparison of something else --
cannot be ported blindly and is reported at the string, with the TF 2 name (a string
that is no such operand, element, key or pattern -- a ``name='Add'`` -- is no op type).
Only TF1-era code and plain Python are ported (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, List, Optional, Pattern, Set

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

# TF 1.x op type -> the type TensorFlow builds for the same call now.
RENAMED: Dict[str, str] = {
    "Add": "AddV2",
    "FusedBatchNorm": "FusedBatchNormV3",
    "FusedBatchNormV2": "FusedBatchNormV3",
    "FusedBatchNormGrad": "FusedBatchNormGradV3",
    "FusedBatchNormGradV2": "FusedBatchNormGradV3",
    "BatchMatMul": "BatchMatMulV2",
}
# The attributes that hold an op's type: Operation.type, NodeDef.op.
TYPE_ATTRIBUTES = frozenset({"type", "op"})
_COLLECTIONS = (cst.Tuple, cst.List, cst.Set)
# contrib.quantize's graph matcher (or slim_ext's): op types separated by ``|``.
GRAPH_MATCHER_PATTERN = "graph_matcher.OpTypePattern"
_TRIGGER_TEXT = re.compile(r"""['"](?:%s)['"]""" % "|".join(RENAMED))


def _string_value(node: cst.CSTNode) -> Optional[str]:
    """The value of a plain string literal (no f-string, no implicit concatenation)."""
    if isinstance(node, cst.SimpleString) and node.prefix.lower() in ("", "u"):
        return node.evaluated_value if isinstance(node.evaluated_value, str) else None
    return None


def _is_op_type(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value in TYPE_ATTRIBUTES


def _quoted_like(string: cst.SimpleString, value: str) -> cst.SimpleString:
    """``value`` as a literal with ``string``'s quotes."""
    quote = string.quote
    return cst.SimpleString(f"{string.prefix}{quote}{value}{quote}")


class OpTypeNamesCommand(LeftoverCodemod):
    """Widens op-type comparisons with TF 1.x names to the names TF 2 builds; reports the
    other uses of those names."""

    NAME: ClassVar[str] = "op_type_names"
    DESCRIPTION: ClassVar[str] = (
        "op types TF 2 renamed ('Add' -> 'AddV2', 'FusedBatchNorm' -> 'FusedBatchNormV3', "
        "...): op.type comparisons match both names; other uses reported"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return lambda statement: any(
            isinstance(node, ast.Constant) and node.value in RENAMED
            for node in ast.walk(statement))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        # New names the file spells itself (from the whole file: a skeleton elides code).
        named = {node.value for node in ast.walk(self.original_ast or parsed)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        self._aware = {old for old, new in RENAMED.items() if new in named}
        self._replacements: Dict[cst.CSTNode, cst.BaseExpression] = {}
        # Strings a comparison ported or judged.
        self._seen: Set[int] = set()
        # Strings where an op type is likely meant, reported unless ported: elements of
        # a collection, dict keys, comparison operands, a graph matcher pattern's type.
        self._op_type_places: Set[int] = set()
        return True

    def visit_Element(self, node: cst.Element) -> None:
        self._op_type_places.add(id(node.value))

    def visit_DictElement(self, node: cst.DictElement) -> None:
        self._op_type_places.add(id(node.key))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else \
            func.value if isinstance(func, cst.Name) else ""
        if not name.endswith("Pattern"):
            return
        types = [arg.value for index, arg in enumerate(node.args)
                 if (arg.keyword is None and index == 0)
                 or (arg.keyword is not None and arg.keyword.value == "op_type")]
        types += [element.value for arg in node.args
                  if arg.keyword is not None and arg.keyword.value == "inputs"
                  and isinstance(arg.value, (cst.List, cst.Tuple))
                  for element in arg.value.elements]
        self._op_type_places.update(id(value) for value in types)
        if (self.resolve_name(func) or "").endswith(GRAPH_MATCHER_PATTERN):
            for value in types:
                self._port_pattern(value)

    def _port_pattern(self, value: cst.BaseExpression) -> None:
        """A graph matcher's ``'Add'`` (or ``'Add|Sub'``) -> ``'Add|AddV2'``."""
        text = _string_value(value)
        if text is None:
            return
        types = text.split("|")
        if not any(old in RENAMED for old in types):
            return
        self._seen.add(id(value))
        ported = []
        for op_type in types:
            ported.append(op_type)
            new = RENAMED.get(op_type)
            if new is not None and new not in types and op_type not in self._aware:
                ported.append(new)
        if ported == types:
            return
        assert isinstance(value, cst.SimpleString)
        self._replacements[value] = _quoted_like(value, "|".join(ported))
        self.record_edit(value, f"op type pattern {code_of(value)} -> "
                                f"{code_of(self._replacements[value])} (TF 2 builds the "
                                "new types)")

    def leave_SimpleString(self, original_node: cst.SimpleString,
                           updated_node: cst.SimpleString) -> cst.BaseExpression:
        return self._replacements.pop(original_node, updated_node)

    def leave_Comparison(self, original_node: cst.Comparison,
                         updated_node: cst.Comparison) -> cst.BaseExpression:
        return self._replacements.pop(original_node, updated_node)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self._op_type_places.add(id(node.left))
        self._op_type_places.update(id(target.comparator) for target in node.comparisons)
        if len(node.comparisons) != 1:
            return
        target = node.comparisons[0]
        operator, right, left = target.operator, target.comparator, node.left
        if isinstance(operator, (cst.Equal, cst.NotEqual)):
            self._port_equality(node, left, right)
        elif isinstance(operator, (cst.In, cst.NotIn)) and _is_op_type(left) \
                and isinstance(right, _COLLECTIONS):
            self._port_membership(node, right)

    def _port_equality(self, node: cst.Comparison, left: cst.BaseExpression,
                       right: cst.BaseExpression) -> None:
        """``op.type == 'Add'`` (either side) -> ``op.type in ('Add', 'AddV2')``."""
        string, other = (right, left) if _string_value(right) is not None else (left, right)
        old = _string_value(string)
        if old not in RENAMED or not _is_op_type(other):
            return
        self._seen.add(id(string))
        if old in self._aware:
            return
        assert isinstance(string, cst.SimpleString)
        names = cst.Tuple([cst.Element(string, comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" "))),
            cst.Element(_quoted_like(string, RENAMED[old]))])
        operator = cst.In() if isinstance(node.comparisons[0].operator, cst.Equal) \
            else cst.NotIn()
        new = cst.Comparison(other, [cst.ComparisonTarget(operator, names)],
                             lpar=node.lpar, rpar=node.rpar)
        self._replacements[node] = new
        self.record_edit(node, f"{code_of(node)} -> {code_of(new)} (TF 2 builds "
                               f"{RENAMED[old]} where TF 1.x built {old})")

    def _port_membership(self, node: cst.Comparison, names: cst.BaseExpression) -> None:
        """``op.type in ('Add', 'Mul')`` -> ``op.type in ('Add', 'AddV2', 'Mul')``."""
        assert isinstance(names, _COLLECTIONS)
        present = {_string_value(element.value) for element in names.elements}
        elements: List[cst.BaseElement] = []
        added = []
        for element in names.elements:
            old = _string_value(element.value)
            if old not in RENAMED:
                elements.append(element)
                continue
            self._seen.add(id(element.value))
            new = RENAMED[old]
            if old in self._aware or new in present or isinstance(element, cst.StarredElement):
                elements.append(element)
                continue
            assert isinstance(element.value, cst.SimpleString)
            comma = element.comma
            if not isinstance(comma, cst.Comma) or comma.whitespace_after.empty:
                comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            elements += [element.with_changes(comma=comma),
                         cst.Element(_quoted_like(element.value, new), comma=element.comma)]
            added.append(new)
        if not added:
            return
        new_names = names.with_changes(elements=elements)
        new_node = node.with_changes(comparisons=[node.comparisons[0].with_changes(
            comparator=new_names)])
        self._replacements[node] = new_node
        self.record_edit(node, f"{code_of(node)} -> {code_of(new_node)} (TF 2 builds "
                               f"{', '.join(added)} too)")

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        old = _string_value(node)
        if old not in RENAMED or id(node) in self._seen or old in self._aware \
                or id(node) not in self._op_type_places:
            return
        new = RENAMED[old]
        self.needs_attention(
            node, f"op type {code_of(node)}: TF 2 (its compat.v1 API too) builds {new} "
            f"where TF 1.x built {old}; a match by the old name finds none of the ops this "
            "TensorFlow builds",
            f"match both names: {old!r} or {new!r} (op.type in ({old!r}, {new!r}); "
            f"a graph matcher's pattern '{old}|{new}')")
