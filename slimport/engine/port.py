"""Port one file's bytes in memory: decode, check, run the codemods, map the lines.

``port_source`` is built to stay well under ``tf_upgrade_v2``'s time on a whole tree
(docs/architecture.md, "The speed path"). CPython's parser checks every file first
(``slimport.engine.source_checks``: cheap, and it reports Python 2 and broken files whether
or not they mention TensorFlow); then each codemod's ``applies_to`` text check runs,
and a file no codemod applies to is never handed to libcst. Otherwise the codemods
that apply run in registry order on one libcst tree of a skeleton of the file
(``slimport.engine.passes``), parsed from text decoded with the file's own encoding, so
BOM, coding line and line endings survive.

Nothing is ever written that differs from the input outside the edited nodes:
libcst must give back the very text it parsed before any codemod runs (it drops a
comment in a few shapes), placeholders must come back as they were, and the only
change made after the codemods is moving continuation lines along with their
bracket (``slimport.engine.realign``). A file where any of that fails is reported, with
its line, and left as it was.

Nothing here imports TensorFlow or names a particular codemod; the codemods come in
as classes with ``NAME``, ``applies_to``, ``findings``, ``statement_filter`` and,
optionally, ``OPTIONS`` (the keyword arguments the class accepts).
"""
from __future__ import annotations

import ast
import functools
import gc
import io
import re
import tokenize
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Iterator, List, Mapping, Optional, Sequence, Tuple

from slimport.engine import line_map
from slimport.engine import realign
from slimport.engine.passes import Located, NeedsWholeFile, Unported, applies, run_pass
from slimport.engine.ported import Ported
from slimport.analysis.names import parse_source, with_source_facts
from slimport.engine.source_checks import TOO_DEEP, decode_failure, python_parse, size_text


_REST_OF_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _blank_tail(text: str) -> int:
    """Where the whitespace-only lines at the end of ``text`` start.

    libcst gives such a tail back shortened in some shapes (``"x\\n\\n \\n "`` comes
    back as ``"x\\n "``); holding it out of the codemods' text and putting it back
    afterwards keeps it exactly.
    """
    return _REST_OF_LINE.match(text, len(text.rstrip(" \t\f\r\n"))).end()


def port_source(data: bytes, filename: str, codemods: Sequence[type],
                options: Mapping[str, Any], max_bytes: int = 0, sparse: bool = True,
                tree_facts: Optional[Mapping[str, Any]] = None) -> Ported:
    """Run ``codemods`` over one file's bytes, in memory.

    Args:
      data: the file's bytes.
      filename: its path, given to the codemods' CodemodContext and used in messages.
      codemods: codemod classes in registry order.
      options: the user's codemod options; each class gets those in its ``OPTIONS``.
      max_bytes: when > 0, a file longer than this is not parsed: ``skipped`` says
        why if some codemod applies to it (otherwise it is simply unchanged).
      sparse: run the codemods on a skeleton of the file (``slimport.engine.skeleton``)
        when their ``statement_filter`` allows; False runs them over the whole file,
        as ``python -m libcst.tool codemod`` does (the tests compare the two).
      tree_facts: the facts about the tree the file is ported with, for the codemods
        that declared them (``slimport.engine.facts``); None: the file on its own.

    Returns:
      Ported with the new bytes (``data`` itself when nothing changed), the codemods
      that recorded an edit, their findings, or ``error`` (and ``error_line``) when
      the file cannot be decoded or parsed, libcst cannot port it exactly, or a
      codemod crashed, or ``skipped``. On error or skip ``data`` is the input, and
      ``would_apply`` names the codemods whose text pre-check matches it.
    """
    with _cyclic_gc_paused():
        ported = _port_source(data, filename, codemods, options, max_bytes, sparse,
                              tree_facts)
    if ported.error is None and ported.skipped is None:
        return ported
    # Only the text pre-check: the file could not be parsed, or is too big to. Every
    # trigger is ASCII, so bytes that do not decode are read as Latin-1.
    text = ported.before or data.decode("latin-1")
    return replace(ported, would_apply=tuple(
        codemod.NAME for codemod in codemods if applies(codemod, text)))


def _any_applies(codemods: Sequence[type], text: str) -> bool:
    """Whether some codemod's text pre-check matches ``text``: those that search for
    plain strings are asked before those that match a pattern (tf0_names' is a
    1.5k-character one), which most files that need porting are never asked then (the
    answer is the same in any order; the run asks the rest later, most after the cheaper
    check of their names)."""
    return any(applies(codemod, text) for codemod in _plain_first(tuple(codemods)))


@functools.lru_cache(maxsize=8)
def _plain_first(codemods: Tuple[type, ...]) -> Tuple[type, ...]:
    return tuple(sorted(codemods, key=lambda codemod: codemod.TRIGGER is not None))


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a file is ported.

    libcst's trees hold no reference cycles (reference counting frees them), but a
    big file keeps millions of nodes alive, and every full collection walks them
    all: collections come with allocations, so on a 20,000-line file they made the
    time per line grow with the file. What cycles a port leaves are collected after.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _port_source(data: bytes, filename: str, codemods: Sequence[type],
                 options: Mapping[str, Any], max_bytes: int, sparse: bool,
                 tree_facts: Optional[Mapping[str, Any]]) -> Ported:
    """``port_source``, with the garbage collector paused."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (UnicodeDecodeError, SyntaxError, LookupError) as error:
        reason, line = decode_failure(data, error)
        return Ported(data, error=reason, error_line=line)

    if 0 < max_bytes < len(data):
        if not _any_applies(codemods, text):
            return Ported(data, before=text, after=text)
        return Ported(data, before=text, after=text, skipped=(
            f"{size_text(len(data))} is over the {size_text(max_bytes)} limit for porting; "
            f"probably generated. Port it anyway with --max-size 0, or regenerate it from "
            f"ported code"))
    tree, syntax_error = python_parse(data, filename)
    if syntax_error is not None:
        return Ported(data, error=syntax_error[0], error_line=syntax_error[1])
    with_source_facts(tree, text)
    if not _any_applies(codemods, text):
        return Ported(data, before=text, after=text)
    try:
        if "\r" in text and "\n" not in text:
            return _back_to_cr(data, text, encoding, _run_passes(
                data, text.replace("\r", "\n"), encoding, tree, filename, codemods, options,
                sparse, tree_facts))
        return _run_passes(data, text, encoding, tree, filename, codemods, options, sparse,
                          tree_facts)
    except NeedsWholeFile:
        return _port_source(data, filename, codemods, options, max_bytes, sparse=False,
                            tree_facts=tree_facts)
    except RecursionError:  # in libcst's parser or code generation
        return Ported(data, error=TOO_DEEP.format(who="libcst", where=""))


def _back_to_cr(data: bytes, text: str, encoding: str, ported: Ported) -> Ported:
    """A CR-only file, ported as LF lines (libcst drops such a file's last line
    ending), given its CRs back; no CR or LF is in a line's text, so it is exact."""
    if ported.error is not None or ported.skipped is not None or ported.after == ported.before:
        return replace(ported, data=data, before=text, after=text)
    after = ported.after.replace("\n", "\r")
    return replace(ported, data=after.encode(encoding), before=text, after=after)


def _run_passes(data: bytes, text: str, encoding: str, tree: Optional[ast.Module],
               filename: str, codemods: Sequence[type], options: Mapping[str, Any],
               sparse: bool, tree_facts: Optional[Mapping[str, Any]]) -> Ported:
    """``port_source`` once the text has been decoded and checked."""
    applied: List[str] = []
    located: List[Located] = []
    original = tree
    # Edits of the whole text, one per run of codemods.
    edits = line_map.History()
    end = _blank_tail(text)
    current, tail = text[:end], text[end:]
    index = 0
    while index < len(codemods):
        if tree is None:
            tree = parse_source(current)
        try:
            run = run_pass(codemods, index, current, tree, filename, options, sparse,
                            to_source=edits.oldest_line, original=original,
                            tree_facts=tree_facts)
        except Unported as error:
            return Ported(data, error=error.reason,
                          error_line=edits.oldest_line(error.line or 0) or None)
        found = [Located(place.finding, edits.oldest_line(place.source), place.current)
                 for place in run.findings]
        applied += run.applied
        if run.text != current:
            edits.add(current, run.text)
            for place in located:
                place.current = edits.steps[-1].new_line(place.current)
            current, tree = run.text, None
        located += found
        index = run.next_index
    findings = tuple(replace(place.finding, line=place.source) for place in located)
    output_lines = tuple(place.current for place in located)
    if current == text[:end]:
        return Ported(data, text, text, tuple(applied), findings, output_lines)
    # One run of codemods (the usual case): its line diff is the whole file's.
    opcodes = edits.steps[0].opcodes if len(edits.steps) == 1 else None
    current = realign.realign(text[:end], current, opcodes) + tail
    return Ported(current.encode(encoding), text, current, tuple(applied), findings,
                  output_lines)
