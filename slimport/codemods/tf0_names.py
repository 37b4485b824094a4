"""TensorFlow 0.x names still in TF1-era trees -> the TF1 names they became.

(Also the few short names of Google's internal TensorFlow that code published from it
kept, ``tf.ReplicaDeviceSetter`` -> ``tf.train.replica_device_setter``: public TensorFlow
never had them, and each stood for one public name.)

TensorFlow 1.0 renamed a set of functions (``tf.mul`` -> ``tf.multiply``,
``tf.pack`` -> ``tf.stack``, ``tf.scalar_summary`` -> ``tf.summary.scalar``,
``tf.train.SummaryWriter`` -> ``tf.summary.FileWriter``, ...) and changed the
arguments of a few. Code written against 0.12 and never updated still uses them;
on TensorFlow 2 (and already on 1.0) the old names are gone. A use is renamed where the
call means the same under the new name; where the arguments changed, the call is
rewritten only when what the old call meant can be read off the call itself:

- positional arguments whose meaning moved become keywords, in the order written (so
  they are still evaluated in that order): ``tf.nn.softmax_cross_entropy_with_logits
  (logits, labels)`` -> ``(logits=logits, labels=labels)``;
- ``tf.concat(0, [a, b])`` (``concat_dim`` first) -> ``tf.concat([a, b], 0)`` when
  the first argument is an int literal or the second a list or tuple display, and
  ``tf.split(1, 2, x)`` -> ``tf.split(x, 2, 1)`` when the first is an int literal;
- ``tf.reverse(x, [False, True])`` (a mask) -> ``tf.reverse(x, [1])`` (axes).

Other calls of those (``tf.concat(dim, tensors)`` in a file that also uses 0.x names)
and arguments with no TF1 counterpart (the summaries' ``name=``) are reported. The
new name goes through the same ``tf`` the old one did; where TF2's ``tf`` has the name
with other parameters (``summary.scalar``), through ``tf.compat.v1``, which
compat_v1 shortens again once it switches the file to ``tensorflow.compat.v1``.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import (Callable, ClassVar, Dict, FrozenSet, List, Optional, Pattern, Sequence, Set,
                    Tuple)

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.codemods.base import SlimportCodemod, StatementFilter, chain_filter, code_of
from slimport.analysis.names import Bindings, dotted_expression, dotted_parts
from slimport.tables.tf_api import BOTH, COMPAT_V1, TF, tf_api

# tf.contrib.deprecated kept the 0.x summary functions through TF 1.x.
_DEPRECATED = "contrib.deprecated."
# Summary tags: what the TF1 functions do differently, said in their edits.
_TAG_NOTE = ("the event tag is now the summary's name scope path (tf.name_scope prefixes "
             "it, characters a name cannot hold become '_')")


@dataclass(frozen=True)
class Rename:
    """A TF 0.x function and the TF1 function that replaced it.

    Attributes:
      new: the TF1 name, relative to ``tf``.
      params: the 0.x positional parameters, in order.
      same_positions: how many leading positional arguments mean the same to ``new``;
        later ones are passed by their 0.x name (then ``keywords`` renames them).
      keywords: 0.x keyword -> the TF1 keyword for the same argument.
      dropped: 0.x parameters ``new`` has no counterpart for: a call passing one is
        reported, not ported.
      note: how the TF1 function behaves differently, for the edit message.
    """

    new: str
    params: Tuple[str, ...] = ()
    same_positions: int = 99
    keywords: Dict[str, str] = field(default_factory=dict)
    dropped: Tuple[str, ...] = ()
    note: str = ""

    @property
    def same_signature(self) -> bool:
        return self.same_positions >= len(self.params) and not self.keywords \
            and not self.dropped


def _same(new: str) -> Rename:
    return Rename(new)


def _by_keyword(name: str, params: Tuple[str, ...], **renamed: str) -> Rename:
    """TF1 made these keyword-only (a ``_sentinel`` first): 0.x positional calls fail."""
    return Rename(name, params, same_positions=0, keywords=renamed)


_SUMMARY = ("collections", "name")
_INTERNAL_NOTE = ("a short name of Google's internal TensorFlow: public TensorFlow 1.x never "
                  "had it")

RENAMES: Dict[str, Rename] = {
    "mul": _same("multiply"),
    "sub": _same("subtract"),
    "neg": _same("negative"),
    "inv": _same("reciprocal"),
    "complex_abs": _same("abs"),
    "pack": _same("stack"),
    "unpack": _same("unstack"),
    "select": Rename("where", ("condition", "t", "e", "name"),
                     keywords={"t": "x", "e": "y"}),
    "batch_matmul": Rename("matmul", ("x", "y", "adj_x", "adj_y", "name"), same_positions=2,
                           keywords={"x": "a", "y": "b", "adj_x": "adjoint_a",
                                     "adj_y": "adjoint_b"}),
    "listdiff": Rename("setdiff1d", ("x", "y", "out_idx", "name"), same_positions=2,
                       keywords={"out_idx": "index_dtype"}),
    **{f"batch_{name}": _same(name) for name in (
        "matrix_determinant", "matrix_inverse", "cholesky", "matrix_solve",
        "matrix_triangular_solve", "matrix_diag", "matrix_diag_part", "matrix_band_part",
        "fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d")},
    "scalar_summary": Rename("summary.scalar", ("tags", "values", *_SUMMARY), same_positions=3,
                             keywords={"tags": "name", "values": "tensor"},
                             dropped=("name",), note=_TAG_NOTE),
    "histogram_summary": Rename("summary.histogram", ("tag", "values", *_SUMMARY),
                                same_positions=3, keywords={"tag": "name"},
                                dropped=("name",), note=_TAG_NOTE),
    "image_summary": Rename("summary.image", ("tag", "tensor", "max_images", *_SUMMARY),
                            same_positions=4, keywords={"tag": "name", "max_images": "max_outputs"},
                            dropped=("name",), note=_TAG_NOTE),
    "audio_summary": Rename("summary.audio",
                            ("tag", "tensor", "sample_rate", "max_outputs", *_SUMMARY),
                            same_positions=5, keywords={"tag": "name"}, dropped=("name",),
                            note=_TAG_NOTE),
    "merge_summary": _same("summary.merge"),
    "merge_all_summaries": _same("summary.merge_all"),
    "train.SummaryWriter": _same("summary.FileWriter"),
    "train.SummaryWriterCache": _same("summary.FileWriterCache"),
    "image.per_image_whitening": _same("image.per_image_standardization"),
    "nn.rnn": _same("nn.static_rnn"),
    "nn.bidirectional_rnn": _same("nn.static_bidirectional_rnn"),
    "nn.state_saving_rnn": _same("nn.static_state_saving_rnn"),
    # Same names, but TF1 takes these by keyword only: 0.x positional calls.
    "nn.softmax_cross_entropy_with_logits": _by_keyword(
        "nn.softmax_cross_entropy_with_logits", ("logits", "labels", "dim", "name")),
    "nn.sparse_softmax_cross_entropy_with_logits": _by_keyword(
        "nn.sparse_softmax_cross_entropy_with_logits", ("logits", "labels", "name")),
    "nn.sigmoid_cross_entropy_with_logits": _by_keyword(
        "nn.sigmoid_cross_entropy_with_logits", ("logits", "targets", "name"),
        targets="labels"),
    "nn.weighted_cross_entropy_with_logits": _by_keyword(
        "nn.weighted_cross_entropy_with_logits", ("logits", "targets", "pos_weight", "name"),
        targets="labels"),
    "sparse_split": _by_keyword("sparse_split", ("split_dim", "num_split", "sp_input", "name")),
    # Short names of Google's internal TensorFlow, which code published from there still
    # uses: public TensorFlow never exported them (such a line never ran on it); each is
    # the public name it stood for.
    **{internal: Rename(public, note=_INTERNAL_NOTE) for internal, public in (
        ("ReplicaDeviceSetter", "train.replica_device_setter"),
        ("SequenceExample", "train.SequenceExample"),
        ("gfile.OpenFast", "gfile.GFile"))},
}
# The 0.x summaries tf.contrib.deprecated kept.
for _old in ("scalar_summary", "histogram_summary", "image_summary", "audio_summary",
             "merge_summary", "merge_all_summaries"):
    RENAMES[_DEPRECATED + _old] = RENAMES[_old]

# Same name, new argument order or meaning: ported only when the call shows which.
REORDERED = ("concat", "split", "reverse", "image.resize_images")


# Last parts of the names above: what a use must end in (cheap to test first).
_RENAMED_ENDS = frozenset(name.rpartition(".")[2] for name in RENAMES)
_REORDERED_ENDS = frozenset(name.rpartition(".")[2] for name in REORDERED)
# The text pre-check: a use is an attribute (``tf.mul``, also uncalled: ``{'mul':
# tf.mul}``) or a call of a name imported bare (``mul(``).
_ENDS = "|".join(sorted(_RENAMED_ENDS | _REORDERED_ENDS))
_TRIGGER_TEXT = re.compile(rf"\.(?:{_ENDS})\b|\b(?:{_ENDS})\s*\(")


def _ast_int(node: Optional[ast.expr]) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _looks_0x(call: ast.Call) -> bool:
    """True for a REORDERED call whose arguments could be the 0.x order (stdlib ast):
    an int axis first, a display second (a concat list, a reverse mask), an int height
    second (resize_images), or a 0.x keyword."""
    first, second = (list(call.args) + [None, None])[:2]
    return _ast_int(first) or isinstance(second, (ast.List, ast.Tuple, ast.ListComp)) or (
        call.func.attr == "resize_images" and _ast_int(second)) or any(  # type: ignore[attr-defined]
        keyword.arg in ("concat_dim", "split_dim", "num_split") for keyword in call.keywords)


def _might_need(tree: ast.Module) -> bool:
    """False when ``tree`` has no use of a 0.x name and no call that could be 0.x-ordered:
    then the pass is skipped (most TF1 files call tf.concat / tf.split the 1.x way)."""
    known = getattr(tree, "_slimport_tf0", None)
    if known is None:
        known = tree._slimport_tf0 = _has_0x_use(tree)  # type: ignore[attr-defined]
    return known


def _has_0x_use(tree: ast.Module) -> bool:
    if any(node.attr in _RENAMED_ENDS  # type: ignore[attr-defined]
           for node in nodes_of(tree, (ast.Attribute,))):
        return True
    return any(isinstance(node.func, ast.Attribute)  # type: ignore[attr-defined]
               and node.func.attr in _REORDERED_ENDS  # type: ignore[attr-defined]
               and _looks_0x(node) for node in nodes_of(tree, (ast.Call,)))


def _relative(qualified: Optional[str]) -> Optional[str]:
    """``tensorflow[.compat.v1].X`` -> ``X``; None for anything else."""
    for root in (COMPAT_V1, TF):
        if qualified is not None and qualified.startswith(root + "."):
            return qualified[len(root) + 1:]
    return None


def _is_ours(relative: Optional[str]) -> bool:
    return relative is not None and (relative in RENAMES or relative in REORDERED)


def _int_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.Integer)


def _sequence_display(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.List, cst.Tuple, cst.ListComp))


def _pure(node: cst.BaseExpression) -> bool:
    """Evaluating it has no effect, so moving it past other arguments changes nothing."""
    return _int_literal(node) or isinstance(node, (cst.Name, cst.SimpleString, cst.Float))


def _bool_mask(node: cst.BaseExpression) -> Optional[List[int]]:
    """``[False, True]`` -> ``[1]``; None unless a display of True/False only."""
    if not isinstance(node, (cst.List, cst.Tuple)):
        return None
    flags = [element.value for element in node.elements]
    if not flags or not all(isinstance(f, cst.Name) and f.value in ("True", "False")
                            for f in flags):
        return None
    return [index for index, flag in enumerate(flags) if flag.value == "True"]


def _keyword(arg: cst.Arg, keyword: str) -> cst.Arg:
    """``arg`` passed as ``keyword=``, its value and spacing as they were."""
    return arg.with_changes(keyword=cst.Name(keyword), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))


def _with_commas(args: Sequence[cst.Arg], like: Sequence[cst.Arg]) -> List[cst.Arg]:
    """``args`` separated where the original call's arguments were separated."""
    out = []
    for index, arg in enumerate(args):
        if index == len(args) - 1:
            comma = like[-1].comma if like else cst.MaybeSentinel.DEFAULT
        else:
            comma = like[index].comma if index < len(like) - 1 else cst.MaybeSentinel.DEFAULT
            if not isinstance(comma, cst.Comma):
                comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        out.append(arg.with_changes(comma=comma))
    return out


class _Unportable(Exception):
    """A call whose 0.x meaning cannot be carried over exactly; the message says why."""


def _port_arguments(rename: Rename, args: Sequence[cst.Arg]) -> List[cst.Arg]:
    """The arguments ``rename.new`` needs for a 0.x call with ``args``.

    Raises:
      _Unportable: the call passes something the TF1 function cannot take as meant.
    """
    if rename.same_signature:
        return list(args)
    if any(arg.star for arg in args):
        raise _Unportable("*args / **kwargs hide which parameter each argument is")
    if rename.params and sum(arg.keyword is None for arg in args) > len(rename.params):
        raise _Unportable("more positional arguments than the 0.x function took")
    new: List[cst.Arg] = []
    for index, arg in enumerate(args):
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword is None and index >= rename.same_positions:
            keyword = rename.params[index]
        if keyword in rename.dropped:
            raise _Unportable(f"`{keyword}=` has no counterpart in tf.{rename.new}")
        if keyword is None:
            new.append(arg)
        else:
            new.append(_keyword(arg, rename.keywords.get(keyword, keyword)))
    return _with_commas(new, args)


def _moves_arguments(rename: Rename, args: Sequence[cst.Arg]) -> bool:
    """True if ``_port_arguments`` changes anything about ``args``."""
    return not rename.same_signature and any(
        (arg.keyword is None and index >= rename.same_positions)
        or (arg.keyword is not None and arg.keyword.value in rename.keywords)
        for index, arg in enumerate(args))


def _reordered_arguments(name: str, args: Sequence[cst.Arg]) -> Optional[List[cst.Arg]]:
    """TF1 arguments for a call of a REORDERED name whose 0.x form is certain; None when
    the call is TF1 already or could be either."""
    if any(arg.star for arg in args):
        return None
    count = 0
    while count < len(args) and args[count].keyword is None:
        count += 1
    positional, rest = list(args[:count]), list(args[count:])
    keywords = {arg.keyword.value for arg in rest if arg.keyword is not None}
    values = [arg.value for arg in positional]
    if name == "concat":
        if "concat_dim" in keywords:
            return _with_commas([_keyword(arg, "axis") if arg.keyword is not None
                                 and arg.keyword.value == "concat_dim" else arg
                                 for arg in args], args)
        if count >= 2 and (_int_literal(values[0]) or _sequence_display(values[1])):
            if _pure(values[0]):
                moved = [positional[1], positional[0]]
            else:
                moved = [_keyword(positional[0], "axis"), _keyword(positional[1], "values")]
            return _with_commas([*moved, *positional[2:], *rest], args)
        return None
    if name == "split":
        if count >= 3 and _int_literal(values[0]):
            axis, number, value = positional[:3]
            if _pure(values[1]):
                moved = [value, number, axis]
            else:
                moved = [_keyword(axis, "axis"), _keyword(number, "num_or_size_splits"),
                         _keyword(value, "value")]
            return _with_commas([*moved, *positional[3:], *rest], args)
        return None
    if name == "reverse":
        mask = _bool_mask(values[1]) if count >= 2 else None
        if mask is None:
            return None
        axes = positional[1].with_changes(value=cst.parse_expression(repr(mask)))
        return _with_commas([positional[0], axes, *positional[2:], *rest], args)
    # image.resize_images(images, new_height, new_width, ...)
    if count >= 3 and _int_literal(values[1]):
        size = cst.List([cst.Element(values[1], comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" "))), cst.Element(values[2])])
        return _with_commas([positional[0], positional[1].with_changes(value=size),
                             *positional[3:], *rest], args)
    return None


def _tf1_order(args: Sequence[cst.Arg]) -> bool:
    """True for a ``concat``/``split`` call that is certainly in the 1.x order: values
    first (a list display, or any keyword), or an int literal axis last."""
    positional = [arg.value for arg in args if arg.keyword is None]
    return len(positional) != len(args) or not positional or \
        _sequence_display(positional[0]) or _int_literal(positional[-1])


def _tf0_file(tree: ast.Module, bindings: Bindings) -> bool:
    """True if the file uses some renamed 0.x name: then a ``tf.concat`` that could
    be either order is worth a finding."""
    return any(_relative(bindings.resolve_parts(parts)) in RENAMES
               for node in nodes_of(tree, (ast.Attribute,))
               for parts in [dotted_parts(node)] if parts)


class Tf0NamesCommand(SlimportCodemod):
    """Renames TensorFlow 0.x functions to their TF1 names, porting changed arguments."""

    NAME: ClassVar[str] = "tf0_names"
    DESCRIPTION: ClassVar[str] = (
        "TensorFlow 0.x names (tf.mul, tf.pack, tf.scalar_summary, ...) -> TF1 names"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT
    # start_file declines a file without an attribute of these names (``_might_need``).
    NAME_TRIGGERS: ClassVar[FrozenSet[str]] = _RENAMED_ENDS | _REORDERED_ENDS

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        if not _might_need(tree):
            # start_file skips such a file, and so any skeleton of it: keep nothing.
            return lambda statement: False
        return chain_filter(lambda parts: _is_ours(_old_name(bindings.resolve_parts(parts))))

    def start_file(self, tree: cst.Module) -> bool:
        if not _might_need(self.file_ast(tree)):
            return False
        self._tree = tree
        # Call -> how to rewrite it on leaving (its arguments may change meanwhile).
        self._calls: Dict[cst.Call, Callable[[cst.Call], cst.Call]] = {}
        self._renamed: Dict[cst.Attribute, cst.BaseExpression] = {}
        self._handled: Set[int] = set()
        self._tf0_file: Optional[bool] = None
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        port = self._calls.pop(original_node, None)
        return port(updated_node) if port is not None else updated_node

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        return self._renamed.pop(original_node, updated_node)

    def visit_Call(self, node: cst.Call) -> None:
        old = self._old_name_of(node.func)
        if old is None:
            return
        self._handled.add(id(node.func))
        if old in REORDERED:
            self._port_reordered(node, old)
            return
        rename = RENAMES[old]
        try:
            _port_arguments(rename, node.args)
        except _Unportable as why:
            self.needs_attention(node, f"tf.{old}: the call cannot be ported to "
                                 f"tf.{rename.new} exactly ({why}); left unchanged",
                                 f"rewrite it with tf.{rename.new}'s parameters")
            return
        if rename.new == old and not _moves_arguments(rename, node.args):
            return  # keywords only already: a TF1 call
        func = self._new_chain(node.func, rename.new)  # type: ignore[arg-type]
        if func is None:
            return
        self._renamed[node.func] = func  # type: ignore[index]
        self._calls[node] = lambda call, rename=rename: call.with_changes(
            args=_port_arguments(rename, call.args))
        note = f" ({rename.note})" if rename.note else ""
        self.record_edit(node, f"{code_of(node.func)} -> {code_of(func)}{note}")

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        """A 0.x name used other than by calling it (``op = tf.mul``)."""
        if id(node) in self._handled:
            return False
        old = self._old_name_of(node)
        if old is None or old in REORDERED:
            return dotted_parts(node) is None
        rename = RENAMES[old]
        if not rename.same_signature:
            self.needs_attention(node, f"tf.{old} is gone; tf.{rename.new} takes other "
                                 "arguments, and this use is not a call to port",
                                 f"call tf.{rename.new} with its own parameters")
            return False
        func = self._new_chain(node, rename.new)
        if func is not None:
            self._renamed[node] = func
            self.record_edit(node, f"{code_of(node)} -> {code_of(func)}")
        return False

    # -- helpers --------------------------------------------------------------------

    def _old_name_of(self, func: cst.BaseExpression) -> Optional[str]:
        if not isinstance(func, cst.Attribute) or (
                func.attr.value not in _RENAMED_ENDS and func.attr.value not in _REORDERED_ENDS) \
                or dotted_parts(func) is None:
            return None
        old = _old_name(self.resolve_name(func))
        return old if _is_ours(old) else None

    def _new_chain(self, old: cst.Attribute, new: str) -> Optional[cst.BaseExpression]:
        """``new`` reached through the ``tf`` the old chain started from."""
        parts = dotted_parts(old) or []
        head = self.target_of(parts[0])
        if head == COMPAT_V1:
            text = f"{parts[0]}.{new}"
        elif head == TF:
            api = tf_api()
            same_in_tf2 = api.kind(new) == BOTH and new not in api.signatures
            text = f"{parts[0]}.{new}" if same_in_tf2 else f"{parts[0]}.compat.v1.{new}"
        else:
            self.needs_attention(old, f"{code_of(old)} is gone from TensorFlow; it is "
                                 f"tf.{new} now", f"use tf.{new}")
            return None
        return dotted_expression(text).with_changes(lpar=old.lpar, rpar=old.rpar)

    def _port_reordered(self, node: cst.Call, name: str) -> None:
        if _reordered_arguments(name, node.args) is None:
            if name in ("concat", "split") and not _tf1_order(node.args) \
                    and self._in_tf0_file():
                order = {"concat": "(concat_dim, values) to (values, axis)",
                         "split": "(split_dim, num_split, value) to "
                                  "(value, num_or_size_splits, axis)"}[name]
                self.needs_attention(
                    node, f"tf.{name} changed its argument order in TensorFlow 1.0 from "
                    f"{order}, and this file uses other 0.x names; this call could be "
                    "either", "if it is the 0.x order, write it in the 1.x order")
            return
        self._calls[node] = lambda call: call.with_changes(
            args=_reordered_arguments(name, call.args))
        self.record_edit(node, f"{code_of(node.func)}: TensorFlow 0.x arguments -> 1.x order")

    def _in_tf0_file(self) -> bool:
        if self._tf0_file is None:
            self._tf0_file = _tf0_file(self.file_ast(self._tree), self.module_names)
        return self._tf0_file


def _old_name(qualified: Optional[str]) -> Optional[str]:
    return _relative(qualified)
