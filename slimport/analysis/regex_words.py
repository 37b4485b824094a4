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


def _sequence_words(items: Sequence[Tuple[object, object]],
                    ignore_case: bool) -> Optional[Words]:
    """Words every match of a sequence of parsed items contains: the best of its
    literal runs and of its items' own words."""
    if ignore_case:
        return None
    candidates: List[Words] = []
    run: List[str] = []
    for op, argument in items:
        if op is sre_constants.LITERAL:
            run.append(chr(argument))  # type: ignore[arg-type]
            continue
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        words = _item_words(op, argument, ignore_case)
        if words:
            candidates.append(words)
    if run:
        candidates.append(frozenset({"".join(run)}))
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
