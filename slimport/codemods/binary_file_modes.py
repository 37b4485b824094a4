"""Pickles, NumPy files and serialized protobufs read or written through files opened in
text mode.

Python 2's text mode gave ``str``, which was bytes: ``pickle.load(open(path))`` and
``with tf.gfile.Open(path, 'r') as f: pickle.load(f)`` worked. Python 3's text mode
gives ``str`` and pickle refuses it (``a bytes-like object is required``); ``np.load``
and ``np.save`` likewise, and a protobuf message's ``ParseFromString``/``MergeFromString``
of a file's ``read()`` (object detection's frozen graphs: ``with tf.gfile.GFile(path) as
f: graph_def.ParseFromString(f.read())``, on Python 3 a ``UnicodeDecodeError`` or a
``TypeError`` whatever the file holds), and a ``write`` of a message's
``SerializeToString()`` to a file ``open``-ed for text. Where the file a call of
``pickle.load``/``dump`` (``cPickle``, six's), ``np.load``/``np.save``, such a parse or
such a write reads or writes is opened in the call (``pickle.load(open(path))``) or by the
``with`` around it (``with open(path, 'r') as f:``, the ``with``'s file used for nothing
else but ``text_format.Parse``/``Merge`` of its ``read()``, which takes bytes as it took
Python 2's ``str``), by ``open``, ``io.open`` or TensorFlow's ``gfile.Open``/``GFile``/
``FastGFile``, its mode gets the ``b`` Python 2 meant: ``'r'`` -> ``'rb'``, ``'w'`` ->
``'wb'``, no mode -> ``'rb'`` (``'U'``, which Python 3.11 refuses, goes). A mode that is
not a string literal, a text ``encoding=``, a ``with`` file also used otherwise, a write to
a file opened without a mode: reported.

In Python 2 code (``py2_code``) a ``pickle.load``/``loads`` also gets
``encoding='latin1'``: the pickles it reads were written by Python 2, whose ``str`` (a
NumPy array's buffer among them) Python 3's default ASCII decoding refuses; latin1 maps
each byte to the same code point (NumPy's advice for Python 2 pickles). Pickles Python 3
wrote load the same (the argument is read only for Python 2 strings).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Collection, Dict, List, Optional, Pattern, Set, Tuple

import libcst as cst

from slimport.analysis.ast_index import nodes_of
from slimport.analysis.builtin_names import bound_here, module_bound_names
from slimport.analysis.names import Bindings, dotted_parts
from slimport.analysis.py2_code import is_python2_code
from slimport.codemods._arguments import with_keyword_argument
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, code_of

PICKLE_MODULES = ("pickle", "cPickle", "_pickle", "six.moves.cPickle", "six.moves.pickle")
# Function -> the position of its file argument (also accepted as ``file=``).
SERIALIZERS: Dict[str, int] = {
    **{f"{module}.load": 0 for module in PICKLE_MODULES},
    **{f"{module}.dump": 1 for module in PICKLE_MODULES},
    "numpy.load": 0, "numpy.save": 0,
}
PICKLE_READS = frozenset({f"{module}.{function}" for module in PICKLE_MODULES
                          for function in ("load", "loads")})
# Openers whose second argument (or ``mode=``) is the mode, 'r' by default.
OPENERS = frozenset({"io.open", *(f"{root}.{opener}"
                                  for root in ("tensorflow.gfile", "tensorflow.io.gfile",
                                               "tensorflow.compat.v1.gfile",
                                               "tensorflow.compat.v1.io.gfile",
                                               "tensorflow.python.platform.gfile")
                                  for opener in ("Open", "GFile", "FastGFile"))})
# A protobuf message's methods that take its serialized bytes (a file's ``read()`` given
# to one must give bytes), and the one that makes them (``write`` it to a binary file).
PROTO_PARSERS = frozenset({"ParseFromString", "MergeFromString"})
PROTO_SERIALIZER = "SerializeToString"
# What reads a file's ``read()`` as well from bytes as from text (protobuf's text format
# decodes bytes as UTF-8): a ``with`` file used so too can still be made binary.
EITHER_READERS = frozenset({"google.protobuf.text_format.Parse",
                            "google.protobuf.text_format.Merge"})
LATIN1 = "'latin1'"
_TRIGGER_TEXT = re.compile(r"\b(?:load|dump|loads|save|ParseFromString|MergeFromString)\("
                           r"|\.SerializeToString\(")
_SINK_METHODS = ("load", "dump", "loads", "save", *PROTO_PARSERS, PROTO_SERIALIZER)


def _mode_of(call: cst.Call) -> Optional[cst.Arg]:
    """The mode argument of an opener's call (second positional, or ``mode=``)."""
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    keyword = next((arg for arg in call.args
                    if arg.keyword is not None and arg.keyword.value == "mode"), None)
    return keyword or (positional[1] if len(positional) > 1 else None)


def _method_call(node: cst.BaseExpression, names: Collection[str]) -> Optional[cst.Call]:
    """``node`` when it is a call of a method named one of ``names`` (``x.read()``)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
            and node.func.attr.value in names:
        return node
    return None


def _file_read(node: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """The file whose ``read()`` ``node`` is, or None."""
    read = _method_call(node, ("read",))
    return read.func.value if read is not None else None  # type: ignore[attr-defined]


def _only_argument(call: cst.Call) -> Optional[cst.BaseExpression]:
    if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star:
        return call.args[0].value
    return None


def _binary(mode: str) -> str:
    """A text mode with Python 2's ``b`` (``'r'`` -> ``'rb'``; ``U`` dropped)."""
    letters = mode.replace("U", "") or "r"
    return letters[0] + "b" + letters[1:]


class BinaryFileModesCommand(LeftoverCodemod):
    """Opens the files pickle, NumPy and protobuf read or write in binary mode, as Python 2
    did."""

    NAME: ClassVar[str] = "binary_file_modes"
    DESCRIPTION: ClassVar[str] = (
        "pickle.load/dump, np.load/save and protobuf's ParseFromString(f.read()) on files "
        "opened in text mode (open, tf.gfile.Open/GFile) -> binary mode; Python 2 code's "
        "pickle.load -> encoding='latin1'"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Every use of a ``with``'s file counts (is it used for anything but pickle?).
        files = {item.optional_vars.id for node in nodes_of(tree, (ast.With, ast.AsyncWith))
                 for item in node.items  # type: ignore[attr-defined]
                 if isinstance(item.optional_vars, ast.Name)}

        def serializes(statement: ast.stmt) -> bool:
            return isinstance(statement, (ast.With, ast.AsyncWith)) or any(
                isinstance(node.func, ast.Attribute)  # type: ignore[attr-defined]
                and node.func.attr in _SINK_METHODS  # type: ignore[attr-defined]
                for node in nodes_of(statement, (ast.Call,))) or any(
                node.id in files for node in nodes_of(statement, (ast.Name,)))  # type: ignore[attr-defined]
        return serializes

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        whole = self.original_ast or parsed
        self._python2 = is_python2_code(whole)
        self._module_bound = module_bound_names(tree, parsed)
        self._binary: Dict[int, str] = {}  # opener call id -> its new mode
        self._latin1: Set[int] = set()
        return True

    def _opener(self, node: cst.BaseExpression) -> bool:
        if not isinstance(node, cst.Call):
            return False
        if isinstance(node.func, cst.Name) and node.func.value == "open":
            return not bound_here(self.scopes, self._module_bound, "open")
        return dotted_parts(node.func) is not None and self.resolve_name(node.func) in OPENERS

    def visit_With(self, node: cst.With) -> None:
        # (Before the items are visited: their openers are rewritten on the way out.)
        for item in node.items:
            if not self._opener(item.item) or item.asname is None \
                    or not isinstance(item.asname.name, cst.Name):
                continue
            name = item.asname.name.value
            calls = _CallsAndUses(name)
            node.body.visit(calls)
            files = [self._file_of(call) for call in calls.calls]
            serialized = [(call, writes) for call, (file, writes) in zip(calls.calls, files)
                          if isinstance(file, cst.Name) and file.value == name]
            if not serialized:
                continue
            writes = any(writes for _, writes in serialized)
            either = sum(1 for call in calls.calls if self._either_read_of(call, name))
            if len(serialized) + either < calls.uses:
                self.needs_attention(item.item, f"`{name}` is read or written by pickle, "
                                     "NumPy or protobuf, which need a binary file, and used "
                                     "otherwise too; left as it is", "open it in binary mode "
                                     f"('{'wb' if writes else 'rb'}') if the other uses read "
                                     "bytes: Python 2's text mode gave bytes")
                continue
            self._make_binary(item.item, writes)  # type: ignore[arg-type]

    def _function(self, call: cst.Call) -> str:
        return (self.resolve_name(call.func) or "") if dotted_parts(call.func) is not None else ""

    def _either_read_of(self, call: cst.Call, name: str) -> bool:
        """Whether ``call`` reads the ``read()`` of the file ``name`` as bytes or text."""
        if self._function(call) not in EITHER_READERS or not call.args:
            return False
        file = _file_read(call.args[0].value)
        return isinstance(file, cst.Name) and file.value == name

    def _file_of(self, call: cst.Call) -> Tuple[Optional[cst.BaseExpression], bool]:
        """The file a call needs binary reads or writes of, and whether it writes
        (None: a call that needs no binary file)."""
        if _method_call(call, PROTO_PARSERS) is not None:
            argument = _only_argument(call)
            return (_file_read(argument) if argument is not None else None), False
        written = _only_argument(call) if _method_call(call, ("write",)) is not None else None
        if written is not None and _method_call(written, (PROTO_SERIALIZER,)) is not None:
            return call.func.value, True  # type: ignore[attr-defined]
        function = self._function(call)
        position = SERIALIZERS.get(function)
        if position is None:
            return None, False
        positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
        return next((arg.value for arg in call.args
                     if arg.keyword is not None and arg.keyword.value == "file"),
                    positional[position].value if len(positional) > position else None
                    ), function.endswith(("dump", "save"))

    def visit_Call(self, node: cst.Call) -> None:
        function = self._function(node)
        if function in PICKLE_READS and self._python2 and not any(
                arg.keyword is not None and arg.keyword.value == "encoding" for arg in node.args):
            self._latin1.add(id(node))
            self.record_edit(node, f"{code_of(node.func)}(...) -> encoding={LATIN1} (Python 2 "
                             "code reads Python 2 pickles, whose str Python 3 decodes as ASCII)")
        file, writes = self._file_of(node)
        if file is not None and self._opener(file):
            self._make_binary(file, writes)  # type: ignore[arg-type]

    def _make_binary(self, opener: cst.Call, writes: bool) -> None:
        if id(opener) in self._binary:
            return
        mode = _mode_of(opener)
        fix = "open the file in binary mode ('rb' / 'wb'): Python 2's text mode gave bytes"
        if mode is None:
            positional = [arg for arg in opener.args if arg.keyword is None]
            if writes or len(positional) != 1 or positional[0].star:
                self.needs_attention(opener, f"{code_of(opener)}: opened in text mode for "
                                     "pickle, NumPy or protobuf, which need a binary file", fix)
                return
            self._binary[id(opener)] = "rb"
        elif isinstance(mode.value, cst.SimpleString) and isinstance(
                mode.value.evaluated_value, str) and not any(
                arg.keyword is not None and arg.keyword.value in ("encoding", "newline")
                for arg in opener.args):
            if "b" in mode.value.evaluated_value:
                return
            self._binary[id(opener)] = _binary(mode.value.evaluated_value)
        else:
            self.needs_attention(opener, f"{code_of(opener)}: pickle, NumPy and protobuf need "
                                 "a binary file, and the mode here is not a plain string (or a "
                                 "text encoding is given)", fix)
            return
        self.record_edit(opener, f"{code_of(opener)} -> mode '{self._binary[id(opener)]}' "
                         "(pickle, NumPy and protobuf need a binary file; Python 2's text mode "
                         "gave bytes)")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        mode = self._binary.pop(id(original_node), None)
        if mode is not None:
            quoted = cst.SimpleString(f"'{mode}'")
            old = _mode_of(updated_node)
            if old is None:
                first = updated_node.args[0].with_changes(comma=cst.Comma(
                    whitespace_after=cst.SimpleWhitespace(" ")))
                return updated_node.with_changes(args=[first, cst.Arg(quoted)])
            quote = old.value.value[-1]  # type: ignore[attr-defined]
            return updated_node.with_changes(args=[
                arg.with_changes(value=cst.SimpleString(f"{quote}{mode}{quote}"))
                if arg is old else arg for arg in updated_node.args])
        if id(original_node) in self._latin1:
            self._latin1.discard(id(original_node))
            return with_keyword_argument(updated_node, "encoding", cst.SimpleString(LATIN1))
        return updated_node


class _CallsAndUses(cst.CSTVisitor):
    """The calls in a block, and how many times it names one name."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.uses = 0
        self.calls: List[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.uses += 1
