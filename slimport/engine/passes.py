"""Run codemods in registry order over one libcst tree of a file's skeleton.

``run_pass`` parses a skeleton (``slimport.engine.skeleton``) that keeps what every codemod
that applies needs, runs them in order on that one tree, checks that libcst gives
back the very text it parsed before the first edit is kept, and maps each finding's
line back to the text the run started from (``slimport.engine.line_map``). It stops before
a codemod that applies only after the edits before it (the next run cuts a skeleton
that serves it too), and raises ``NeedsWholeFile`` when a skeleton cannot serve.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache, partial
from typing import (AbstractSet, Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence,
                    Tuple)

import libcst as cst
from libcst.codemod import CodemodContext, SkipFile

from slimport.engine import line_map
from slimport.engine import skeleton, statement_texts
from slimport.analysis.lines import ModuleCodes, SourceTexts
from slimport.analysis.names import Bindings, collect_bindings, identifiers, parse_source
from slimport.codemods.context import AST_KEY, CODES_KEY, ORIGINAL_AST_KEY, SOURCE_LINE_KEY
from slimport.analysis.findings import ATTENTION, EDIT, WARNING, Finding
from slimport.engine.source_checks import TOO_DEEP, libcst_error


def options_for(codemod: type, options: Mapping[str, Any],
                tree_facts: Mapping[str, Any]) -> Dict[str, Any]:
    """The keyword arguments ``codemod`` gets: the user's options it declares in
    ``OPTIONS``, and the tree facts it declares in ``TREE_FACTS`` that were gathered.

    Args:
      codemod: a codemod class.
      options: the user's codemod options.
      tree_facts: fact name -> value, from the engine's pre-pass.

    Returns:
      Keyword name -> value.
    """
    accepted = getattr(codemod, "OPTIONS", ())
    given = {name: value for name, value in options.items() if name in accepted}
    given.update({fact.name: tree_facts[fact.name] for fact in codemod.TREE_FACTS
                  if fact.name in tree_facts})
    return given


# text -> {codemod class: its text pre-check's answer}, for the last few texts: a file's
# text is checked against every codemod two or three times in a port (some pre-checks
# are regular expressions that cost more than a small file's walk).
_TEXT_CHECKS: Dict[str, Dict[type, bool]] = {}
# text -> {codemod class: whether the text has one of its ``text_words``}, kept alike.
_WORD_CHECKS: Dict[str, Dict[type, bool]] = {}
_TEXTS_KEPT = 4


def _asked_once(checks: Dict[str, Dict[type, bool]], codemod: type, text: str,
                ask: Callable[[], bool]) -> bool:
    """``ask()``, or its answer kept in ``checks`` for ``text`` and ``codemod``."""
    answers = checks.get(text)
    if answers is None:
        if len(checks) >= _TEXTS_KEPT:
            checks.clear()
        answers = checks[text] = {}
    answer = answers.get(codemod)
    if answer is None:
        answer = answers[codemod] = ask()
    return answer


def applies(codemod: type, text: str) -> bool:
    """``codemod.applies_to(text)``, asked once per text.

    Args:
      codemod: a codemod class.
      text: a source text.

    Returns:
      Its text pre-check's answer.
    """
    return _asked_once(_TEXT_CHECKS, codemod, text, lambda: codemod.applies_to(text))


def _has_a_word(codemod: type, words: FrozenSet[str], text: str) -> bool:
    """Whether ``text`` contains one of ``words`` (``codemod.text_words()``), asked once."""
    if _TEXT_CHECKS.get(text, {}).get(codemod):
        return True  # the pre-check passed: a word is there
    return _asked_once(_WORD_CHECKS, codemod, text, lambda: any(word in text for word in words))


class EditedText:
    """The pre-checks of the texts a run's edits make from the text it started from.

    Most codemods' pre-check needs one of their words (``text_words``). A word that is
    not in the starting text and spans no line break can be in an edited text only on
    a line that is not one of the starting text's lines: for such a codemod only those
    lines are searched, not the whole text again after every edit.
    """

    def __init__(self, start: str) -> None:
        self.start = start
        self._start_lines: Optional[AbstractSet[str]] = None
        # The newest text asked about and its new lines (the older texts are not asked).
        self._newest: Tuple[Optional[str], str] = (None, "")

    def new_lines(self, text: str) -> str:
        """The lines of ``text`` that are not lines of the starting text, joined."""
        if self._newest[0] is not text:
            if self._start_lines is None:
                self._start_lines = set(self.start.split("\n"))
            self._newest = (text, "\n".join(
                line for line in text.split("\n") if line not in self._start_lines))
        return self._newest[1]

    def applies(self, codemod: type, text: str) -> bool:
        """``applies(codemod, text)``, for ``text`` made from the starting text by edits.

        Args:
          codemod: a codemod class.
          text: the starting text or an edit of it.

        Returns:
          The text pre-check's answer.
        """
        words = codemod.text_words()
        if text is not self.start and words and not any("\n" in word for word in words) \
                and not _has_a_word(codemod, words, self.start):
            new = self.new_lines(text)
            if not any(word in new for word in words):
                return False
        return applies(codemod, text)


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


class Unported(Exception):
    """The file is left as it is: ``reason`` at ``line`` of the text being ported."""

    def __init__(self, reason: str, line: Optional[int] = None) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


class NeedsWholeFile(Exception):
    """The skeleton cannot serve: a codemod rewrote a placeholder line, or libcst does
    not give the skeleton's text back."""


@dataclass
class Located:
    """A finding and where it is, while the text it was found in is still edited."""

    finding: Finding
    # Line in the text the current run of codemods started from (the way back).
    source: int
    # Line in the newest text (the way forward).
    current: int


@dataclass
class PassResult:
    """What a run of codemods over one skeleton did."""

    text: str
    findings: List[Located]
    applied: List[str]
    # Index of the codemod the next run starts at (len(codemods) when all ran).
    next_index: int


def _pass_filter(group: Sequence[type], tree: ast.Module,
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


def _first_difference(expected: str, got: str) -> int:
    """The 1-based line where ``got`` first differs from ``expected``."""
    for number, (want, have) in enumerate(zip(skeleton.source_lines(expected),
                                              skeleton.source_lines(got)), start=1):
        if want != have:
            return number
    return min(len(skeleton.source_lines(expected)), len(skeleton.source_lines(got))) + 1


def _source_texts(parsed: cst.Module, text: str, tree: Callable[[], ast.Module]
                  ) -> Optional[SourceTexts]:
    """``parsed``'s statements' texts in ``text`` (parsed as ``tree()``), for
    ``ModuleCodes``; None where they cannot be cut for certain."""
    try:
        found = statement_texts.cut(parsed, text, tree())
    except (SyntaxError, ValueError, RecursionError):
        return None  # (a skeleton parses where its file did: not met)
    return None if found is None else (parsed, found.texts, found.starts)


def _parse(cut: skeleton.Skeleton) -> cst.Module:
    """libcst's tree of ``cut``.

    Raises:
      Unported: libcst rejects the text.
    """
    try:
        return cst.parse_module(cut.text)
    except RecursionError:
        raise
    except Exception as error:  # ParserSyntaxError, and anything else libcst raises
        reason, line = libcst_error(error)
        raise Unported(reason, cut.source_line(line or 0) or line) from error


def _check_round_trip(cut: skeleton.Skeleton, parsed: cst.Module, codes: ModuleCodes,
                      edited: cst.Module, first: bool) -> None:
    """Make sure libcst gives back exactly the text it parsed before an edit is kept.

    Checked only once a codemod changed something: an unchanged file is handed back
    as it was read, whatever libcst would have made of it. Where the statements' code
    is their text in the source (``ModuleCodes.took_texts``), a statement an edit keeps
    is the source's text whatever libcst would make of it, and each the edits replace
    or drop is checked (``ModuleCodes.lost_text``); otherwise the whole text is, at the
    first edit.

    Args:
      cut: the text libcst parsed.
      parsed: libcst's tree of it.
      codes: the statements' code.
      edited: the tree after the edit.
      first: the edit is the first of the run.

    Raises:
      Unported: libcst would change the text of a whole file.
      NeedsWholeFile: libcst would change a skeleton's text.
    """
    if codes.took_texts:
        lost = codes.lost_text(edited)
        if lost is None:
            return
        start, text, code = lost
        line = start + _first_difference(text, code) - 1
    elif not first:
        return
    else:
        given_back = codes.code(parsed)
        if given_back == cut.text:
            return
        line = _first_difference(cut.text, given_back)
    if not cut.is_whole:
        raise NeedsWholeFile
    raise Unported(
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


def _identifiers_now(tree: ast.Module, module_ast: Callable[[], ast.Module], changed: bool
                     ) -> AbstractSet[str]:
    """The identifiers the text may spell now: ``tree``'s (the text the run started
    from), and after edits also those of the edited skeleton (``module_ast()``); what a
    skeleton hides is ``tree``'s, unchanged."""
    if not changed:
        return identifiers(tree)
    return identifiers(tree) | identifiers(module_ast())


def run_pass(codemods: Sequence[type], start: int, text: str, tree: ast.Module,
             filename: str, options: Mapping[str, Any], sparse: bool,
             to_source: Callable[[int], int], original: Optional[ast.Module],
             tree_facts: Optional[Mapping[str, Any]] = None) -> PassResult:
    """Run ``codemods[start:]`` in order over one libcst tree of ``text``'s skeleton.

    The skeleton keeps what any codemod that applies to ``text`` needs. The run
    stops before a codemod that did not apply to ``text`` but applies after the
    edits before it: the next run cuts a skeleton that serves it too. ``to_source``
    maps lines of ``text`` to lines of the user's file; ``tree_facts`` reach the
    codemods that declared them as keyword arguments (``options_for``).

    Raises:
      Unported: libcst cannot parse or round-trip the text, or a codemod crashed or
        found the code nested too deeply.
      NeedsWholeFile: the skeleton does not serve (see the class).
      RecursionError: libcst's parser or code generation found it nested too deeply.
    """
    def declined(codemod: type) -> bool:
        """The codemod does nothing in the user's file (``applies_to_file``)."""
        return original is not None and not codemod.applies_to_file(original)

    # Codemods whose text pre-check matches; those the identifiers or the user's file rule
    # out get no libcst work (their statement filters are not even asked). The identifiers
    # are asked first: a set lookup, where a text pre-check searches the whole text.
    names = identifiers(tree)
    group = [codemod for codemod in codemods[start:] if codemod.applies_to_names(names)
             and applies(codemod, text) and not declined(codemod)]
    cut = skeleton.Skeleton(text, [])
    if sparse and skeleton.PLACEHOLDER_PREFIX not in text:
        bindings = collect_bindings(tree)
        needed = _pass_filter(group, tree, bindings)
        if needed is not None:
            cut = skeleton.build(text, tree, bindings, needed)
    module = parsed = _parse(cut)
    # The stdlib ast of the newest skeleton text, parsed when first asked for: after a
    # run's last edit nobody may ask.
    module_ast: Callable[[], ast.Module] = (lambda: tree) if cut.is_whole \
        else cache(partial(parse_source, cut.text))
    code, full = cut.text, text
    edited = EditedText(text)
    # The edits of this run, on the skeleton.
    edits = line_map.History()
    # Each top-level statement's code, generated once (the first version's, its text).
    codes = ModuleCodes(partial(_source_texts, parsed, cut.text, module_ast))
    located: List[Located] = []
    applied: List[str] = []
    index = start
    while index < len(codemods):
        codemod = codemods[index]
        if not edited.applies(codemod, full) or declined(codemod) or (
                codemod not in group and not codemod.applies_to_names(
                    _identifiers_now(tree, module_ast, changed=full is not text))):
            index += 1
            continue
        if codemod not in group:
            break
        index += 1

        def to_text(line: int, done: int = len(edits.steps)) -> int:
            """A line of the tree this codemod gets -> a line of ``text``."""
            return cut.source_line(edits.oldest_line(line, upto=done))

        scratch = {AST_KEY: (module, module_ast), ORIGINAL_AST_KEY: original, CODES_KEY: codes,
                   SOURCE_LINE_KEY: lambda line, to_text=to_text: to_source(to_text(line))}
        context = CodemodContext(filename=filename, scratch=scratch)
        command = codemod(context, **options_for(codemod, options, tree_facts or {}))
        try:
            new_module = command.transform_module(module)
        except SkipFile:
            continue
        except RecursionError as error:
            raise Unported(TOO_DEEP.format(who="libcst", where=f" in codemod {codemod.NAME}")
                            ) from error
        except Exception as error:
            raise Unported(f"codemod {codemod.NAME} crashed: "
                           f"{type(error).__name__}: {error}") from error
        reported = _reported(codemod.NAME, command, context)
        located += [Located(finding, to_text(finding.line), finding.line)
                    for finding in reported]
        if any(finding.kind == EDIT for finding in reported):
            applied.append(codemod.NAME)
        # A codemod that found nothing to do hands back the very tree it was given.
        new_code = code if new_module is module else codes.code(new_module)
        if new_code != code:
            _check_round_trip(cut, parsed, codes, new_module, first=not edits.steps)
            expanded = cut.expand(new_code)
            if expanded is None:
                raise NeedsWholeFile
            edits.add(code, new_code)
            for place in located:
                place.current = edits.steps[-1].new_line(place.current)
            code, full, module_ast = new_code, expanded, cache(partial(parse_source, new_code))
        module = new_module
    if not cut.is_whole:
        in_text = _skeleton_to_text(cut, code)
        for place in located:
            if 0 < place.current <= len(in_text):
                place.current = in_text[place.current - 1]
    return PassResult(full, located, applied, index)
