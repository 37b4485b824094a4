"""The literal words one of which every match of a regular expression contains.

A pattern that starts with ``\\b``, ``\\.`` or a choice gives ``re`` no literal prefix to
search for: it tries the pattern at every position of the text. Codemod triggers are
such patterns (``\\bInt64List\\(``), and on object detection 0.1.1 (4 MB of source)
the search costs up to 60 times what ``"Int64List(" in text`` costs. Asking first
whether a word every match must contain is in the text rules most files out at the
cost of that substring search; the answer is the pattern's own, as a match without
one of the words cannot exist.

The words are read off ``re``'s own parse of the pattern, so they are right for any
pattern; where the parse is one this module does not follow (a character class, a
back reference, a case-insensitive part), that part contributes no word and the
answer is None: search with the pattern alone.
"""
from __future__ import annotations

import functools
import re
from typing import FrozenSet, List, Optional, Sequence, Tuple

try:  # Python 3.11 and later
    from re import _constants as sre_constants
    from re import _parser as sre_parser
except ImportError:  # Python 3.10
    import sre_constants  # type: ignore[no-redef]
    import sre_parse as sre_parser  # type: ignore[no-redef]

Words = FrozenSet[str]

# Opcodes of a repeat and of an atomic group (the last two are Python 3.11's).
_REPEATS = tuple(getattr(sre_constants, name) for name in
                 ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(sre_constants, name))
_ATOMIC_GROUP = getattr(sre_constants, "ATOMIC_GROUP", None)


def _shortest_first(words: Words) -> Words:
    """``words`` without those that contain another of them: a text that contains
    ``vstack`` contains ``stack``, so asking for ``stack`` alone is the same question."""
    return frozenset(word for word in words
                     if not any(other != word and other in word for other in words))


def _best(candidates: Sequence[Words]) -> Optional[Words]:
    """The candidate whose shortest word is longest (the rarest in text), or None."""
    if not candidates:
        return None
    return max(candidates, key=lambda words: (min(map(len, words)), -len(words)))


def _branch_words(branches: Sequence[object], ignore_case: bool) -> Optional[Words]:
    """A match of a choice contains one of its branches' words: all branches must
    have some (one without any could match without a word)."""
    union: set = set()
    for branch in branches:
        words = _sequence_words(branch, ignore_case)
        if words is None:
            return None
        union |= words
    return frozenset(union)


def _item_words(op: object, argument: object, ignore_case: bool) -> Optional[Words]:
    """Words every match of one non-literal item of a parsed pattern contains."""
    if op is sre_constants.SUBPATTERN:
        _, added, _, inner = argument  # type: ignore[misc]
        return _sequence_words(inner, ignore_case or bool(added & re.IGNORECASE))
    if op is sre_constants.BRANCH:
        return _branch_words(argument[1], ignore_case)  # type: ignore[index]
    if op in _REPEATS:
        minimum, _, inner = argument  # type: ignore[misc]
        return _sequence_words(inner, ignore_case) if minimum >= 1 else None
    if _ATOMIC_GROUP is not None and op is _ATOMIC_GROUP:
        return _sequence_words(argument, ignore_case)  # type: ignore[arg-type]
    return None


# A run's spellings are kept while there are at most this many.
_MAX_SPELLINGS = 512


def _followed_by(texts: FrozenSet[str], more: FrozenSet[str]) -> Optional[FrozenSet[str]]:
    """Each of ``texts`` followed by each of ``more``; None when that is too many."""
    joined = frozenset(text + after for text in texts for after in more)
    return joined if len(joined) <= _MAX_SPELLINGS else None


def _spellings(op: object, argument: object) -> Optional[FrozenSet[str]]:
    """Every text one item of a parsed pattern can match, when they are few: a literal,
    a zero-width assertion (``\\b``: the empty text), a class of a few characters, a
    repeat of at most three, and groups and choices of those; None for anything else
    (a wider class, a longer repeat, a case-insensitive group)."""
    if op is sre_constants.LITERAL:
        return frozenset({chr(argument)})  # type: ignore[arg-type]
    if op is sre_constants.AT:
        return frozenset({""})
    if op is sre_constants.SUBPATTERN:
        _, added, _, inner = argument  # type: ignore[misc]
        return None if added & re.IGNORECASE else _sequence_spellings(inner)
    if _ATOMIC_GROUP is not None and op is _ATOMIC_GROUP:
        return _sequence_spellings(argument)  # type: ignore[arg-type]
    if op is sre_constants.IN:
        # A class of literals and short ranges (re's parse makes one of a choice of
        # single characters: ``2d|3d`` is ``[23]d``).
        characters: set = set()
        for kind, value in argument:  # type: ignore[union-attr]
            if kind is sre_constants.LITERAL:
                characters.add(chr(value))
            elif kind is sre_constants.RANGE and value[1] - value[0] < 16:
                characters.update(chr(code) for code in range(value[0], value[1] + 1))
            else:
                return None
        return frozenset(characters)
    if op in _REPEATS and argument[1] <= 3:  # type: ignore[index]
        # x? is "" or x; x{1,2} is x or xx.
        minimum, maximum, inner = argument  # type: ignore[misc]
        once = _sequence_spellings(inner)
        if once is None:
            return None
        texts: Optional[FrozenSet[str]] = frozenset({""})
        union: set = set()
        for count in range(maximum + 1):
            if count >= minimum:
                union |= texts
            if count < maximum:
                texts = _followed_by(texts, once)
                if texts is None:
                    return None
        return frozenset(union) if len(union) <= _MAX_SPELLINGS else None
    if op is sre_constants.BRANCH:
        union = set()
        for branch in argument[1]:  # type: ignore[index]
            spellings = _sequence_spellings(branch)
            if spellings is None:
                return None
            union |= spellings
        return frozenset(union) if len(union) <= _MAX_SPELLINGS else None
    return None


def _sequence_spellings(items: Sequence[Tuple[object, object]]) -> Optional[FrozenSet[str]]:
    """``_spellings`` of a sequence: its items' spellings one after another."""
    texts: Optional[FrozenSet[str]] = frozenset({""})
    for op, argument in items:
        spellings = _spellings(op, argument)
        if spellings is None:
            return None
        texts = _followed_by(texts, spellings)
        if texts is None:
            return None
    return texts


def _sequence_words(items: Sequence[Tuple[object, object]],
                    ignore_case: bool) -> Optional[Words]:
    """Words every match of a sequence of parsed items contains: the best of its runs'
    spellings (a run: items next to each other with few spellings, ``\\.(?:a|b)\\(``
    is spelt ``.a(`` or ``.b(``) and of its other items' own words."""
    if ignore_case:
        return None
    candidates: List[Words] = []
    run: FrozenSet[str] = frozenset({""})

    def end_run() -> None:
        # A run that can match the empty text promises no word.
        if "" not in run:
            candidates.append(run)

    for op, argument in items:
        spellings = _spellings(op, argument)
        if spellings is not None:
            longer = _followed_by(run, spellings)
            if longer is None:
                end_run()
            run = spellings if longer is None else longer
            continue
        end_run()
        run = frozenset({""})
        words = _item_words(op, argument, ignore_case)
        if words:
            candidates.append(words)
    end_run()
    return _best(candidates)


@functools.lru_cache(maxsize=None)
def required_words(pattern: "re.Pattern[str]") -> Optional[Words]:
    """Literal words one of which every match of ``pattern`` contains (computed once
    per pattern: the codemods' triggers are asked about every file).

    Args:
      pattern: a compiled pattern over ``str``.

    Returns:
      The words (none contains another), or None when the parse gives none for certain
      (the pattern is case-insensitive, or a match may be made of classes, optional
      parts and assertions alone).
    """
    parsed = sre_parser.parse(pattern.pattern, pattern.flags)
    words = _sequence_words(parsed, bool(parsed.state.flags & re.IGNORECASE))
    return _shortest_first(words) if words else None


def may_match(pattern: "re.Pattern[str]", words: Optional[Words], text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, asking first for ``words``.

    Args:
      pattern: a compiled pattern.
      words: ``required_words(pattern)`` (None: search at once).
      text: the text.

    Returns:
      ``pattern.search(text) is not None``.
    """
    if words is not None and not any(word in text for word in words):
        return False
    return pattern.search(text) is not None
