"""TF 1.4's ``dataset.map(f, num_threads=, output_buffer_size=)`` -> ``num_parallel_calls=``
and ``.prefetch()``.

``tf.contrib.data.Dataset.map`` (TensorFlow 1.2-1.4) took ``num_threads`` (how many
elements to map in parallel) and ``output_buffer_size`` (how many mapped elements to
buffer); TF 1.4's own code ran it as a parallel map with ``num_threads`` calls followed
by ``prefetch(output_buffer_size)``. TensorFlow 1.5 removed both keywords for those two
steps, and TensorFlow 2 has only them:

    dataset.map(parse, num_threads=4, output_buffer_size=64)
    -> dataset.map(parse, num_parallel_calls=4).prefetch(64)

The rename is made only where the receiver certainly is a tf.data dataset: a chain of
dataset methods (``batch``, ``shuffle``, ``map``, ...) that starts at a dataset
constructor of ``tf.data`` or ``tf.contrib.data`` (``TFRecordDataset(files)``,
``Dataset.from_tensor_slices(x)``), or a name every binding of which, in its scope, is
an assignment of such a chain (``dataset = dataset.map(...)`` counts). Another
receiver, in a file that uses TensorFlow, is reported: an object of the project's own
with a ``map(num_threads=)`` is its own API. The buffer size is then evaluated after
the map call rather than before it, so it is moved only when evaluating it has no
effect (a literal, a name, an attribute, arithmetic of those); a call there is
reported. ``output_buffer_size=None`` buffered nothing in TF 1.4 and adds no
``prefetch``.
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Set

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.binding_values import binding_scope, only_bound_to
from slimport.analysis.builtin_names import module_bound_names
from slimport.analysis.names import Bindings, dotted_parts
from slimport.codemods.base import SlimportCodemod, StatementFilter, code_of

# Where tf.data's dataset classes were, in TF 1.x and 2.
_DATA_MODULES = ("tensorflow.data", "tensorflow.compat.v1.data", "tensorflow.compat.v2.data",
                 "tensorflow.contrib.data", "tensorflow.compat.v1.contrib.data",
                 "tensorflow.data.experimental", "tensorflow.compat.v1.data.experimental")
_DATASET_CLASSES = ("TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset",
                    "CsvDataset", "SqlDataset")
_CONSTRUCTORS = ("from_tensor_slices", "from_tensors", "from_generator",
                 "from_sparse_tensor_slices", "range", "zip", "list_files")
# Qualified names whose call makes a dataset.
DATASET_MAKERS = frozenset(
    [f"{module}.{name}" for module in _DATA_MODULES for name in _DATASET_CLASSES]
    + [f"{module}.Dataset.{name}" for module in _DATA_MODULES for name in _CONSTRUCTORS])
# Dataset methods that return a dataset (TF 1.4's contrib.data ones included).
DATASET_METHODS = frozenset((
    "map", "flat_map", "interleave", "filter", "batch", "padded_batch", "shuffle", "repeat",
    "prefetch", "take", "skip", "shard", "cache", "concatenate", "apply", "enumerate",
    "ignore_errors", "unbatch", "dense_to_sparse_batch", "group_by_window", "with_options",
    "window", "unique"))
# TF 1.4's Dataset.map(map_func, num_threads, output_buffer_size, num_parallel_calls).
_PARAMETERS = ("map_func", "num_threads", "output_buffer_size", "num_parallel_calls")
_TF14_KEYWORDS = ("num_threads", "output_buffer_size")


def _is_none(node: Optional[cst.BaseExpression]) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _without_effects(node: cst.BaseExpression) -> bool:
    """Evaluating ``node`` later than it was changes nothing: a literal, a name, an
    attribute chain, or arithmetic of those."""
    if isinstance(node, (cst.Integer, cst.Name)) or dotted_parts(node) is not None:
        return True
    if isinstance(node, cst.UnaryOperation):
        return _without_effects(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return _without_effects(node.left) and _without_effects(node.right)
    return False


def _is_tf14_map(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "map" and any(
        keyword.arg in _TF14_KEYWORDS for keyword in call.keywords)


def _root_name(node: ast.expr) -> Optional[str]:
    """The name a chain of calls and attributes starts from (``d`` of ``d.map(f).batch``)."""
    while isinstance(node, (ast.Call, ast.Attribute)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _traced_names(tree: ast.Module) -> Set[str]:
    """The names a TF 1.4 map's receiver may be traced through: its chain's root name,
    and the roots of what those names are assigned, again and again."""
    names = {root for call in nodes_of(tree, (ast.Call,)) if _is_tf14_map(call)  # type: ignore
             for root in [_root_name(call.func.value)] if root}  # type: ignore[attr-defined]
    sources: Dict[str, Set[str]] = {}
    for assign in nodes_of(tree, (ast.Assign,)):
        root = _root_name(assign.value)  # type: ignore[attr-defined]
        for target in assign.targets:  # type: ignore[attr-defined]
            if isinstance(target, ast.Name) and root:
                sources.setdefault(target.id, set()).add(root)
    pending = list(names)
    while pending:
        for root in sources.get(pending.pop(), ()):
            if root not in names:
                names.add(root)
                pending.append(root)
    return names


def _tf2_map(call: cst.Call) -> cst.BaseExpression:
    """``call`` (a TF 1.4 map, its keywords checked) with TensorFlow 2's arguments."""
    values = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    threads, buffer = values.get("num_threads"), values.get("output_buffer_size")
    moving = threads is not None and not _is_none(threads)
    kept = ("map_func",) if moving else ("map_func", "num_parallel_calls")
    args = [arg for arg in call.args if arg.keyword is None or arg.keyword.value in kept]
    if moving:
        args.append(cst.Arg(threads, keyword=cst.Name("num_parallel_calls"),
                            equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                  cst.SimpleWhitespace(""))))
    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    ported: cst.BaseExpression = call.with_changes(args=args)
    if buffer is not None and not _is_none(buffer):
        ported = cst.Call(cst.Attribute(ported, cst.Name("prefetch")), [cst.Arg(buffer)])
    return ported


class DatasetMapThreadsCommand(SlimportCodemod):
    """Ports TF 1.4's Dataset.map(num_threads=, output_buffer_size=) on a certain dataset."""

    NAME: ClassVar[str] = "dataset_map_threads"
    DESCRIPTION: ClassVar[str] = (
        "TF 1.4's dataset.map(f, num_threads=n, output_buffer_size=m) -> "
        "dataset.map(f, num_parallel_calls=n).prefetch(m), where the receiver is certainly "
        "a tf.data dataset"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\b(?:num_threads|output_buffer_size)\s*=")

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # The TF 1.4 maps, and every statement binding a name their receivers may be
        # traced through: an elided binding would hide that the name is not a dataset.
        traced = _traced_names(tree)

        def needed(statement: ast.stmt) -> bool:
            for node in nodes_of(statement, (ast.Call, ast.Name, ast.ExceptHandler)):
                if isinstance(node, ast.Call) and _is_tf14_map(node):
                    return True
                if isinstance(node, ast.Name) and node.id in traced \
                        and not isinstance(node.ctx, ast.Load):
                    return True
                if isinstance(node, ast.ExceptHandler) and node.name in traced:
                    return True
            return False

        return needed

    def start_file(self, tree: cst.Module) -> bool:
        self._module = tree
        self._module_bound = module_bound_names(tree, self.file_ast(tree))
        self._uses_tensorflow = any(
            target == "tensorflow" or target.startswith("tensorflow.")
            for target in self.module_names.names.values())
        self._ported: Set[cst.Call] = set()
        return True

    def visit_Call(self, node: cst.Call) -> None:
        if not (isinstance(node.func, cst.Attribute) and node.func.attr.value == "map"
                and any(arg.keyword is not None and arg.keyword.value in _TF14_KEYWORDS
                        for arg in node.args)):
            return
        if not self._is_dataset(node.func.value, set()):
            if self._uses_tensorflow:
                self.needs_attention(
                    node, f"{code_of(node.func)}(..., num_threads=/output_buffer_size=) is "
                    "TF 1.4's tf.contrib.data API, but the receiver could not be traced to a "
                    "tf.data dataset; left unchanged",
                    "if it is a dataset: map(f, num_parallel_calls=num_threads)"
                    ".prefetch(output_buffer_size)")
            return
        passed = self._arguments(node)
        if passed is None:
            return
        buffer = passed.get("output_buffer_size")
        if buffer is not None and not _is_none(buffer) and not _without_effects(buffer):
            self.needs_attention(node, f"{code_of(node.func)}(...): output_buffer_size= "
                                 "becomes a prefetch() after the map, which would evaluate "
                                 "it later; left unchanged",
                                 "assign the buffer size to a name first, then port")
            return
        self._ported.add(node)
        self.record_edit(node, f"{code_of(node.func)}(...): TF 1.4's num_threads= / "
                               "output_buffer_size= -> num_parallel_calls= / .prefetch()")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        if original_node not in self._ported:
            return updated_node
        self._ported.discard(original_node)
        return _tf2_map(updated_node)

    def _arguments(self, node: cst.Call) -> Optional[Dict[str, cst.BaseExpression]]:
        """TF 1.4's parameters of the call by name; None (reported) when unclear."""
        passed: Dict[str, cst.BaseExpression] = {}
        positional = [arg for arg in node.args if arg.keyword is None]
        if any(arg.star for arg in node.args) or len(positional) > 1:
            self.needs_attention(node, f"{code_of(node.func)}(...): which of TF 1.4's "
                                 "parameters each argument is cannot be read off the call; "
                                 "left unchanged",
                                 "pass num_threads= and output_buffer_size= by keyword")
            return None
        for arg in node.args:
            if arg.keyword is not None:
                passed[arg.keyword.value] = arg.value
        both = [passed.get(name) for name in ("num_threads", "num_parallel_calls")]
        if all(value is not None and not _is_none(value) for value in both):
            self.needs_attention(node, f"{code_of(node.func)}(...): both num_threads= and "
                                 "num_parallel_calls= (TF 1.4 used num_threads); left "
                                 "unchanged", "keep one of them")
            return None
        return passed

    # -- is it a dataset ---------------------------------------------------------------

    def _is_dataset(self, node: cst.BaseExpression, assuming: Set[str]) -> bool:
        """True if ``node`` certainly evaluates to a tf.data dataset here."""
        if isinstance(node, cst.Call):
            func = node.func
            if self.resolve_name(func) in DATASET_MAKERS:
                return True
            return (isinstance(func, cst.Attribute) and func.attr.value in DATASET_METHODS
                    and self._is_dataset(func.value, assuming))
        if isinstance(node, cst.Name):
            return node.value in assuming or self._name_is_dataset(node.value, assuming)
        return False

    def _name_is_dataset(self, name: str, assuming: Set[str]) -> bool:
        """Every binding of ``name`` in the scope a use here reads assigns a dataset
        (``dataset = dataset.map(...)`` among them)."""
        owner = binding_scope(self.scopes, self._module, self._module_bound, name)
        return owner is not None and only_bound_to(
            owner, name, lambda value: self._is_dataset(value, assuming | {name}))
