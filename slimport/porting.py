"""Port one file's bytes in memory: decode, check, run the codemods, map the lines.

``port_source`` is built to stay well under ``tf_upgrade_v2``'s time on a whole tree
(DESIGN.md, performance notes). CPython's parser checks every file first (cheap,
and it reports Python 2 and broken files whether or not they mention TensorFlow);
then each codemod's ``applies_to`` text check runs, and a file no codemod applies
to is never handed to libcst. Otherwise the codemods that apply run in registry
order on one libcst tree of a skeleton of the file (``slimport.skeleton``), parsed
from text decoded with the file's own encoding, so BOM, coding line and line
endings survive.

Nothing is ever written that differs from the input outside the edited nodes:
libcst must give back the very text it parsed before any codemod runs (it drops a
comment in a few shapes), placeholders must come back as they were, and the only
change made after the codemods is moving continuation lines along with their
bracket (``slimport.realign``). A file where any of that fails is reported, with
its line, and left as it was.

Nothing here imports TensorFlow or names a particular codemod; the codemods come in
as classes with ``NAME``, ``applies_to``, ``findings``, ``statement_filter`` and,
optionally, ``OPTIONS`` (the keyword arguments the class accepts).
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import libcst as cst
from libcst.codemod import CodemodContext, SkipFile

from slimport import line_map, realign, skeleton
from slimport.codemods._scratch import AST_KEY, ORIGINAL_AST_KEY, SOURCE_LINE_KEY
from slimport.codemods._names import (
    Bindings,
    collect_bindings,
    parse_source,
    with_source_facts,
)
from slimport.report import ATTENTION, EDIT, WARNING, Finding

# PEP 263's pattern for an encoding declaration.
_CODING_DECLARATION = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")

# CPython's messages for Python 2 syntax, and Python 2 forms on the line it
# rejects that it reports only as "invalid syntax" or "invalid decimal literal".
_PYTHON2_MESSAGES = (
    "Missing parentheses in call to 'print'",
    "Missing parentheses in call to 'exec'",
    "multiple exception types must be parenthesized",
    "leading zeros in decimal integer literals are not permitted",
)
_PYTHON2_LINE = re.compile(
    r"`|<>|\bur['\"]|^\s*raise\s+[\w.]+\s*,|\b\d+[lL]\b|^\s*exec\s+['\"\w]"
)
PYTHON2_FIX = ("this is Python 2 code: port it to Python 3 first (e.g. `2to3 -w FILE`, "
               "shipped with Python up to 3.12), then run slimport again")
TOO_DEEP = ("nested too deeply for {who} (RecursionError{where}; e.g. a very long "
            "`a + b + ...` expression, as generated code has); left untouched: split the "
            "expression or port this file by hand")


@dataclass(frozen=True)
class Ported:
    """The outcome of porting one source text in memory."""

    data: bytes
    before: str = ""
    after: str = ""
    codemods: Tuple[str, ...] = ()
    # Each finding's ``line`` is its line in the input.
    findings: Tuple[Finding, ...] = ()
    # For each finding, its line in ``data`` (the ported text; 0: unknown).
    output_lines: Tuple[int, ...] = ()
    error: Optional[str] = None
    error_line: Optional[int] = None
    # Why the file was not ported although a codemod applies (too large).
    skipped: Optional[str] = None


def options_for(codemod: type, options: Mapping[str, Any]) -> Dict[str, Any]:
    """The keyword arguments ``codemod`` declares in ``OPTIONS`` and the user gave."""
    accepted = getattr(codemod, "OPTIONS", ())
    return {name: value for name, value in options.items() if name in accepted}


def _line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _python_parse(data: bytes, filename: str) -> Tuple[Optional[ast.Module],
                                                     Optional[Tuple[str, Optional[int]]]]:
    """The stdlib ``ast`` of ``data``, or the reason and line this Python rejects it.

    Every file is checked, not only those a codemod applies to: a file that does not
    parse does not run either, and the user should hear about it. libcst's grammar
    also accepts some Python 2 forms (``except E, e:``), and CPython's message is
    the clearer one (``Missing parentheses in call to 'print'``). The tree is what
    the skeletons are cut from.
    """
    try:
        with warnings.catch_warnings():
            # "'int' object is not callable" and the like: the user's business, not ours.
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = compile(data, filename, "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except SyntaxError as error:
        reason = f"does not parse: {error.msg}"
        if _looks_like_python2(data, error):
            reason += f" \u2014 {PYTHON2_FIX}"
        return None, (reason, error.lineno or _null_byte_line(data))
    except ValueError as error:  # null bytes, on some Python versions
        return None, (f"does not parse: {error}", _null_byte_line(data))
    except RecursionError as error:
        return None, (TOO_DEEP.format(who="CPython's parser", where=f": {error}"), None)
    return tree, None


def _looks_like_python2(data: bytes, error: SyntaxError) -> bool:
    if error.msg.startswith(_PYTHON2_MESSAGES):
        return True
    lines = data.splitlines()
    if not error.lineno or error.lineno > len(lines):
        return False
    return bool(_PYTHON2_LINE.search(lines[error.lineno - 1].decode("utf-8", "replace")))


def _null_byte_line(data: bytes) -> Optional[int]:
    offset = data.find(b"\0")
    return _line_of_offset(data, offset) if offset >= 0 else None


def _libcst_error(parse_error: Exception) -> Tuple[str, Optional[int]]:
    """Reason and line for code CPython accepts but libcst cannot parse."""
    line = getattr(parse_error, "editor_line", None)
    message = getattr(parse_error, "message", str(parse_error))
    return f"libcst cannot parse it: {message}", line


def _decode_failure(data: bytes, error: Exception) -> Tuple[str, Optional[int]]:
    if isinstance(error, UnicodeDecodeError):
        line = _line_of_offset(data, error.start)
        return (f"cannot be decoded as {error.encoding} (byte {data[error.start]:#04x}); "
                f"declare its encoding with a '# -*- coding: ... -*-' line"), line
    if isinstance(error, SyntaxError):  # from tokenize.detect_encoding
        return (f"bad encoding declaration: {error.msg}; name a Python codec, e.g. "
                f"'# -*- coding: latin-1 -*-'"), error.lineno or _coding_line(data)
    return f"unknown encoding: {error}", _coding_line(data)


def _coding_line(data: bytes) -> Optional[int]:
    """The line (1 or 2, as PEP 263 allows) holding the ``coding:`` declaration."""
    for number, line in enumerate(data.splitlines()[:2], start=1):
        if _CODING_DECLARATION.match(line):
            return number
    return None


def size_text(size: int) -> str:
    """``5.0 MB``, ``1 MB``, ``12 KB``, ``100 bytes``."""
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"


def _reported(codemod_name: str, command: Any, context: CodemodContext) -> List[Finding]:
    """The command's findings, plus any libcst warning that is not one of them."""
    findings = list(command.findings)
    # SlimportCodemod.needs_attention also warns, in this form; do not list those twice.
    echoed = {f.as_warning() for f in findings if f.kind == ATTENTION}
    findings += [
        Finding(codemod_name, 0, warning, "", WARNING)
        for warning in context.warnings if warning not in echoed
    ]
    return findings


class _Unported(Exception):
    """The file is left as it is: ``reason`` at ``line`` of the text being ported."""

    def __init__(self, reason: str, line: Optional[int] = None) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


class _NeedsWholeFile(Exception):
    """The skeleton cannot serve: a codemod rewrote a placeholder line, or libcst does
    not give the skeleton's text back."""


@dataclass
class _Located:
    """A finding and where it is, while the text it was found in is still edited."""

    finding: Finding
    # Line in the text the current run of codemods started from (the way back).
    source: int
    # Line in the newest text (the way forward).
    current: int


@dataclass
class _GroupRun:
    """What a run of codemods over one skeleton did."""

    text: str
    findings: List[_Located]
    applied: List[str]
    # Index of the codemod the next run starts at (len(codemods) when all ran).
    next_index: int


def _group_filter(group: Sequence[type], tree: ast.Module,
                  bindings: Bindings) -> Optional[skeleton.StatementFilter]:
    """A statement is needed if any codemod of ``group`` needs it; None: the whole file.

    Each codemod's filter sees the bindings as the codemods before it will leave them
    (``rebound``): after contrib_slim, a ``slim`` alias is tf_slim, not TensorFlow.
    """
    filters = []
    for codemod in group:
        needed = codemod.statement_filter(tree, bindings)
        if needed is None:
            return None
        filters.append(needed)
        bindings = codemod.rebound(bindings)
    return lambda statement: any(needed(statement) for needed in filters)


_REST_OF_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _blank_tail(text: str) -> int:
    """Where the whitespace-only lines at the end of ``text`` start.

    libcst gives such a tail back shortened in some shapes (``"x\\n\\n \\n "`` comes
    back as ``"x\\n "``); holding it out of the codemods' text and putting it back
    afterwards keeps it exactly.
    """
    return _REST_OF_LINE.match(text, len(text.rstrip(" \t\f\r\n"))).end()


def _first_difference(expected: str, got: str) -> int:
    """The 1-based line where ``got`` first differs from ``expected``."""
    for number, (want, have) in enumerate(zip(skeleton.source_lines(expected),
                                              skeleton.source_lines(got)), start=1):
        if want != have:
            return number
    return min(len(skeleton.source_lines(expected)), len(skeleton.source_lines(got))) + 1


def _parse(cut: skeleton.Skeleton) -> cst.Module:
    """libcst's tree of ``cut``.

    Raises:
      _Unported: libcst rejects the text.
    """
    try:
        return cst.parse_module(cut.text)
    except RecursionError:
        raise
    except Exception as error:  # ParserSyntaxError, and anything else libcst raises
        reason, line = _libcst_error(error)
        raise _Unported(reason, cut.source_line(line or 0) or line) from error


def _check_round_trip(cut: skeleton.Skeleton, parsed: cst.Module) -> None:
    """Make sure libcst gives back exactly the text it parsed before any edit is kept.

    Checked only once a codemod changed something: an unchanged file is handed back
    as it was read, whatever libcst would have made of it.

    Raises:
      _Unported: libcst would change the text of a whole file.
      _NeedsWholeFile: libcst would change a skeleton's text.
    """
    if parsed.code == cut.text:
        return
    if not cut.is_whole:
        raise _NeedsWholeFile
    line = _first_difference(cut.text, parsed.code)
    raise _Unported(
        f"libcst cannot round-trip it: it would change line {line} (e.g. drop a "
        f"comment after a one-line block) before any edit; left untouched: move the "
        f"block's body onto its own line, or port this file by hand", line)


def _skeleton_to_text(cut: skeleton.Skeleton, code: str) -> List[int]:
    """For each line of ``code`` (a skeleton after edits), its line in ``cut.expand(code)``."""
    lines: List[int] = []
    number = 1
    for line in skeleton.source_lines(code):
        lines.append(number)
        hidden = cut.elided.get(line)
        number += len(skeleton.source_lines(hidden)) if hidden is not None else 1
    return lines


def _run_group(codemods: Sequence[type], start: int, text: str, tree: ast.Module,
               filename: str, options: Mapping[str, Any], sparse: bool,
               to_source: Callable[[int], int], original: Optional[ast.Module]) -> _GroupRun:
    """Run ``codemods[start:]`` in order over one libcst tree of ``text``'s skeleton.

    The skeleton keeps what any codemod that applies to ``text`` needs. The run
    stops before a codemod that did not apply to ``text`` but applies after the
    edits before it: the next run cuts a skeleton that serves it too. ``to_source``
    maps lines of ``text`` to lines of the user's file.

    Raises:
      _Unported: libcst cannot parse or round-trip the text, or a codemod crashed or
        found the code nested too deeply.
      _NeedsWholeFile: the skeleton does not serve (see the class).
      RecursionError: libcst's parser or code generation found it nested too deeply.
    """
    group = [codemod for codemod in codemods[start:] if codemod.applies_to(text)]
    cut = skeleton.Skeleton(text, [])
    if sparse and skeleton.PLACEHOLDER_PREFIX not in text:
        bindings = collect_bindings(tree)
        needed = _group_filter(group, tree, bindings)
        if needed is not None:
            cut = skeleton.build(text, tree, bindings, needed)
    module = parsed = _parse(cut)
    module_ast = tree if cut.is_whole else parse_source(cut.text)
    code, full = cut.text, text
    # The edits of this run, on the skeleton.
    edits = line_map.History()
    located: List[_Located] = []
    applied: List[str] = []
    index = start
    while index < len(codemods):
        codemod = codemods[index]
        if not codemod.applies_to(full):
            index += 1
            continue
        if codemod not in group:
            break
        index += 1

        def to_text(line: int, done: int = len(edits.steps)) -> int:
            """A line of the tree this codemod gets -> a line of ``text``."""
            return cut.source_line(edits.oldest_line(line, upto=done))

        context = CodemodContext(filename=filename, scratch={
            AST_KEY: (module, module_ast),
            ORIGINAL_AST_KEY: original,
            SOURCE_LINE_KEY: lambda line, to_text=to_text: to_source(to_text(line))})
        command = codemod(context, **options_for(codemod, options))
        try:
            new_module = command.transform_module(module)
        except SkipFile:
            continue
        except RecursionError as error:
            raise _Unported(TOO_DEEP.format(who="libcst", where=f" in codemod {codemod.NAME}")
                            ) from error
        except Exception as error:
            raise _Unported(f"codemod {codemod.NAME} crashed: "
                            f"{type(error).__name__}: {error}") from error
        reported = _reported(codemod.NAME, command, context)
        located += [_Located(finding, to_text(finding.line), finding.line)
                    for finding in reported]
        if any(finding.kind == EDIT for finding in reported):
            applied.append(codemod.NAME)
        # A codemod that found nothing to do hands back the very tree it was given.
        new_code = code if new_module is module else new_module.code
        if new_code != code:
            if not edits.steps:
                _check_round_trip(cut, parsed)
            expanded = cut.expand(new_code)
            if expanded is None:
                raise _NeedsWholeFile
            edits.add(code, new_code)
            for place in located:
                place.current = edits.steps[-1].new_line(place.current)
            code, full, module_ast = new_code, expanded, parse_source(new_code)
        module = new_module
    if not cut.is_whole:
        in_text = _skeleton_to_text(cut, code)
        for place in located:
            if 0 < place.current <= len(in_text):
                place.current = in_text[place.current - 1]
    return _GroupRun(full, located, applied, index)


def port_source(data: bytes, filename: str, codemods: Sequence[type],
                options: Mapping[str, Any], max_bytes: int = 0, sparse: bool = True) -> Ported:
    """Run ``codemods`` over one file's bytes, in memory.

    Args:
      data: the file's bytes.
      filename: its path, given to the codemods' CodemodContext and used in messages.
      codemods: codemod classes in registry order.
      options: the user's codemod options; each class gets those in its ``OPTIONS``.
      max_bytes: when > 0, a file longer than this is not parsed: ``skipped`` says
        why if some codemod applies to it (otherwise it is simply unchanged).
      sparse: run the codemods on a skeleton of the file (``slimport.skeleton``)
        when their ``statement_filter`` allows; False runs them over the whole file,
        as ``python -m libcst.tool codemod`` does (the tests compare the two).

    Returns:
      Ported with the new bytes (``data`` itself when nothing changed), the codemods
      that recorded an edit, their findings, or ``error`` (and ``error_line``) when
      the file cannot be decoded or parsed, libcst cannot port it exactly, or a
      codemod crashed, or ``skipped``. On error or skip ``data`` is the input.
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (UnicodeDecodeError, SyntaxError, LookupError) as error:
        reason, line = _decode_failure(data, error)
        return Ported(data, error=reason, error_line=line)

    if 0 < max_bytes < len(data):
        if not any(codemod.applies_to(text) for codemod in codemods):
            return Ported(data, before=text, after=text)
        return Ported(data, before=text, after=text, skipped=(
            f"{size_text(len(data))} is over the {size_text(max_bytes)} limit for porting; "
            f"probably generated. Port it anyway with --max-size 0, or regenerate it from "
            f"ported code"))
    tree, syntax_error = _python_parse(data, filename)
    if syntax_error is not None:
        return Ported(data, error=syntax_error[0], error_line=syntax_error[1])
    with_source_facts(tree, text)
    if not any(codemod.applies_to(text) for codemod in codemods):
        return Ported(data, before=text, after=text)
    try:
        if "\r" in text and "\n" not in text:
            return _back_to_cr(data, text, encoding, _port_text(
                data, text.replace("\r", "\n"), encoding, tree, filename, codemods, options,
                sparse))
        return _port_text(data, text, encoding, tree, filename, codemods, options, sparse)
    except _NeedsWholeFile:
        return port_source(data, filename, codemods, options, max_bytes, sparse=False)
    except RecursionError:  # in libcst's parser or code generation
        return Ported(data, error=TOO_DEEP.format(who="libcst", where=""))


def _back_to_cr(data: bytes, text: str, encoding: str, ported: Ported) -> Ported:
    """A CR-only file, ported as LF lines (libcst drops such a file's last line
    ending), given its CRs back; no CR or LF is in a line's text, so it is exact."""
    if ported.error is not None or ported.skipped is not None or ported.after == ported.before:
        return replace(ported, data=data, before=text, after=text)
    after = ported.after.replace("\n", "\r")
    return replace(ported, data=after.encode(encoding), before=text, after=after)


def _port_text(data: bytes, text: str, encoding: str, tree: Optional[ast.Module],
               filename: str, codemods: Sequence[type], options: Mapping[str, Any],
               sparse: bool) -> Ported:
    """``port_source`` once the text has been decoded and checked."""
    applied: List[str] = []
    located: List[_Located] = []
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
            run = _run_group(codemods, index, current, tree, filename, options, sparse,
                             to_source=edits.oldest_line, original=original)
        except _Unported as error:
            return Ported(data, error=error.reason,
                          error_line=edits.oldest_line(error.line or 0) or None)
        found = [_Located(place.finding, edits.oldest_line(place.source), place.current)
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
