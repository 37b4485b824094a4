"""The lines nodes start on, for findings, at the cost of one plain codegen.

libcst's ``PositionProvider`` records a start and end position for every node of
the module; on a skeleton it cost twice the parse, although a codemod reports only a
handful of nodes. ``lines_of`` generates the module's code with a codegen state that
notes the current line only when it reaches one of the nodes asked about, and stops
once it has them all (findings are mostly at the imports), with
``PositionProvider``'s meaning of "start": where the node's own syntax begins
(after the blank lines and comments it owns, or where the child libcst hoists the
start from begins).

``LineIndex`` answers for any node of a module, one node at a time (a line inside a
message, asked while the visit goes on): its first question notes the line of every
node in one codegen, and the others are looked up. Asking ``lines_of`` once per
question instead costs a codegen up to each node, which on a file with a question
every few lines is quadratic in its size.
"""
from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from itertools import repeat
from typing import (Callable, ContextManager, Dict, Iterable, Iterator, List, Mapping,
                    Optional, Sequence, Set, Tuple)

import libcst as cst
from libcst._nodes.internal import CodegenState


# The first version of a module, and the text and start line of each of its top-level
# statements in the source it was parsed from.
SourceTexts = Tuple[cst.Module, Sequence[str], Sequence[int]]


def _line_breaks(tokens: Sequence[str], code: str) -> int:
    """The line breaks in ``tokens`` (joined: ``code``), counted token by token: a CR
    that ends one token and an LF that starts the next are two breaks.

    Single characters add up across the join; only a CRLF inside one token is one break,
    and ``map`` counts those in C (a Python call per token cost more than the codegen).
    """
    breaks = code.count("\n")
    if "\r" not in code:
        return breaks
    return breaks + code.count("\r") - sum(map(str.count, tokens, repeat("\r\n")))


class _AllFound(Exception):
    """Raised out of the codegen once every node asked about has its line."""


# A context manager that does nothing, reused: libcst's CodegenState makes a new
# generator-based one at every node that has a position, which is a fifth of a codegen.
_NOTHING = nullcontext()


class _Plain(CodegenState):
    """libcst's codegen state, without the position bookkeeping nobody reads here."""

    def record_syntactic_position(self, node: cst.CSTNode, *,
                                  start_node: Optional[cst.CSTNode] = None,
                                  end_node: Optional[cst.CSTNode] = None) -> nullcontext:
        return _NOTHING


def module_code(module: cst.Module) -> str:
    """``module.code``, made faster (the same text).

    Args:
      module: a libcst module.

    Returns:
      Its source code.
    """
    state = _Plain(default_indent=module.default_indent, default_newline=module.default_newline)
    module._codegen(state)
    return "".join(state.tokens)


class ModuleCodes:
    """``module_code`` for the versions of one module a run of codemods makes, each
    top-level statement generated once, and where each statement starts.

    A codemod hands back the statements it did not change as they were (a libcst walk
    rebuilds only what changed: ``slimport.codemods.copy_on_write``), so after an edit
    of two imports the rest of the module's code is known already. A statement's code
    does not depend on what is around it (module-level code starts unindented). Given
    ``source``, the first version's statements are not even generated: their code is
    their text in the source (``_take_texts``).
    """

    def __init__(self, source: Optional[Callable[[], Optional[SourceTexts]]] = None) -> None:
        # id(statement) -> (the statement, its code, its line breaks); holding the
        # statement keeps its id from being reused by another node.
        self._codes: Dict[int, Tuple[cst.CSTNode, str, int]] = {}
        # Gives the source's texts of the first version's statements, when first a
        # statement's code is asked for (then None).
        self._source = source
        # The module whose statements' code was taken from the source, and those
        # statements not yet checked against libcst's code: id -> (the statement, the
        # line it starts on).
        self._source_module: Optional[cst.Module] = None
        self._unchecked: Dict[int, Tuple[cst.CSTNode, int]] = {}

    @property
    def took_texts(self) -> bool:
        """Whether the first version's statements' code was taken from the source."""
        return self._source_module is not None

    def _take_texts(self) -> None:
        """Take the code of the first version's top-level statements from the source
        libcst parsed (``source``: slimport.engine.statement_texts), instead of
        generating it: a statement a version keeps is the source's text whenever libcst
        gives back what it parsed, and one a version drops is checked then
        (``lost_text``)."""
        source, self._source = self._source, None
        found = source() if source is not None else None
        if found is None:
            return
        module, texts, starts = found
        self._source_module = module
        for statement, text, start in zip(module.body, texts, starts):
            self._codes[id(statement)] = (statement, text, _line_breaks([text], text))
            self._unchecked[id(statement)] = (statement, start)

    def lost_text(self, module: cst.Module) -> Optional[Tuple[int, str, str]]:
        """Of the statements whose code was taken from the source, the first that
        ``module`` (a later version) no longer has and that libcst does not give back as
        it was: where it starts, its text and libcst's code of it. Each is checked once.

        Args:
          module: a later version of the first module.

        Returns:
          None when libcst gives back every such statement.
        """
        if not self._unchecked:
            return None
        kept = {id(statement) for statement in module.body}
        for key in [key for key in self._unchecked if key not in kept]:
            statement, start = self._unchecked.pop(key)
            text = self._codes[key][1]
            code = code_of_nodes(self._source_module or module, [statement])[0]
            if code != text:
                return start, text, code
        return None

    def _statement(self, module: cst.Module, statement: cst.CSTNode) -> Tuple[str, int]:
        if self._source is not None:
            self._take_texts()
        known = self._codes.get(id(statement))
        if known is None or known[0] is not statement:
            known = self._codes[id(statement)] = (statement, *code_of_nodes(module, [statement]))
        return known[1], known[2]

    def code(self, module: cst.Module) -> str:
        """``module.code``.

        Args:
          module: a libcst module.

        Returns:
          Its source code.
        """
        if not module.has_trailing_newline:
            return module_code(module)  # its last token is dropped: the rare case, whole
        parts = [code_of_nodes(module, module.header)[0]]
        parts += [self._statement(module, statement)[0] for statement in module.body]
        parts.append(code_of_nodes(module, module.footer)[0])
        text = "".join(parts)
        return text or module.default_newline

    def starts(self, module: cst.Module) -> List[int]:
        """The 1-based line each top-level statement of ``module`` starts on (its
        leading blank lines and comments included), counted as ``lines_of`` counts."""
        line = 1 + code_of_nodes(module, module.header)[1]
        starts = []
        for statement in module.body:
            starts.append(line)
            line += self._statement(module, statement)[1]
        return starts


def code_of_nodes(module: cst.Module, nodes: Sequence[cst.CSTNode]) -> Tuple[str, int]:
    """The code of ``nodes`` where ``module`` has them (at its top level), and the line
    breaks in it, counted token by token.

    Args:
      module: a libcst module.
      nodes: nodes of its top level (statements, header or footer lines).

    Returns:
      The code, and its line breaks.
    """
    state = _Plain(default_indent=module.default_indent, default_newline=module.default_newline)
    for node in nodes:
        node._codegen(state)
    code = "".join(state.tokens)
    return code, _line_breaks(state.tokens, code)


@dataclass
class _LineFinder(CodegenState):
    targets: Set[int] = field(default_factory=set)
    # Note every node, not only the targets.
    every_node: bool = False
    # The nodes asked about whose codegen has not finished (then their line is final).
    pending: Set[int] = field(default_factory=set)
    syntactic: Dict[int, int] = field(default_factory=dict)
    inclusive: Dict[int, int] = field(default_factory=dict)
    line: int = 1
    counted: int = 0

    def current_line(self) -> int:
        new = self.tokens[self.counted:]
        self.line += _line_breaks(new, "".join(new))
        self.counted += len(new)
        return self.line

    def before_codegen(self, node: cst.CSTNode) -> None:
        if self.every_node or id(node) in self.targets:
            self.inclusive[id(node)] = self.current_line()

    def after_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.pending:
            self.pending.discard(id(node))
            if not self.pending:
                raise _AllFound

    def record_syntactic_position(self, node: cst.CSTNode, *,
                                  start_node: Optional[cst.CSTNode] = None,
                                  end_node: Optional[cst.CSTNode] = None
                                  ) -> ContextManager[None]:
        if not self.every_node and id(node) not in self.targets:
            return _NOTHING
        return self._recording(node, start_node)

    @contextmanager
    def _recording(self, node: cst.CSTNode, start_node: Optional[cst.CSTNode]
                   ) -> Iterator[None]:
        if start_node is None:
            self.syntactic[id(node)] = self.current_line()
            yield
            return
        self.targets.add(id(start_node))
        yield
        self.syntactic[id(node)] = self.start_of(start_node)

    def start_of(self, node: cst.CSTNode) -> int:
        return self.start_of_id(id(node))

    def start_of_id(self, key: int) -> int:
        return self.syntactic.get(key) or self.inclusive.get(key) or 0


def lines_of(module: cst.Module, nodes: Iterable[cst.CSTNode],
             codes: Optional[ModuleCodes] = None,
             tops: Optional[Mapping[int, Optional[cst.CSTNode]]] = None) -> Dict[int, int]:
    """``id(node)`` -> the 1-based line ``node`` starts on, for the ``nodes`` in ``module``.

    Nodes that are not in ``module`` are not in the result. Given ``codes`` and ``tops``,
    only the top-level statements that hold a node are generated: each from the line
    ``codes`` says it starts on.

    Args:
      module: the module the nodes are in.
      nodes: the nodes to place.
      codes: the statement codes of the run the module is from.
      tops: ``id(node)`` -> the top-level statement a walk of ``module`` found it in.

    Returns:
      ``id(node)`` -> its start line.
    """
    asked = {id(node) for node in nodes}
    if codes is None or tops is None:
        return _lines_in(module, asked)
    index = {id(statement): number for number, statement in enumerate(module.body)}
    by_statement: Dict[int, Set[int]] = {}
    rest: Set[int] = set()
    for key in asked:
        # A top-level statement is its own; other nodes are where the walk found them.
        number = index[key] if key in index else index.get(id(tops.get(key)))
        if number is None:
            rest.add(key)
        else:
            by_statement.setdefault(number, set()).add(key)
    found: Dict[int, int] = {}
    starts = codes.starts(module) if by_statement else []
    for number, keys in by_statement.items():
        within = _lines_in(module, keys, module.body[number], starts[number])
        found.update(within)
        rest |= keys - within.keys()
    if rest:
        found.update(_lines_in(module, rest))
    return found


def _lines_in(module: cst.Module, asked: Set[int], node: Optional[cst.CSTNode] = None,
              line: int = 1) -> Dict[int, int]:
    """``lines_of`` the nodes ``asked`` by one codegen of ``node`` (default: the module)
    starting at ``line``, stopped once it has them all."""
    finder = _LineFinder(default_indent=module.default_indent,
                         default_newline=module.default_newline,
                         targets=set(asked), pending=set(asked), line=line)
    try:
        (module if node is None else node)._codegen(finder)
    except _AllFound:
        pass  # the rest of the module need not be generated
    return {key: finder.start_of_id(key) for key in asked if finder.start_of_id(key)}


class LineIndex:
    """The start line of any node of one module, from one codegen made on first use."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self._finder: Optional[_LineFinder] = None

    def line_of(self, node: cst.CSTNode) -> int:
        """The 1-based line ``node`` starts on in the module; 0 if it is not in it.

        Args:
          node: a node of the module.

        Returns:
          Its start line, or 0.
        """
        if self._finder is None:
            self._finder = _LineFinder(default_indent=self.module.default_indent,
                                       default_newline=self.module.default_newline,
                                       every_node=True)
            self.module._codegen(self._finder)
        return self._finder.start_of_id(id(node))
