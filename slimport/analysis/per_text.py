"""Answers about one file's text, each worked out once per text, which other processes
can work out and hand in.

The tree facts (``slimport.codemods.tree_facts``) are read off every file of a tree
before any port starts, and mostly file by file: the ``def`` names of each file, its
imports, its Python 2 evidence. A file is in several scopes (each fact is gathered per
scope), so each answer is remembered per text. A ``-j N`` run has them worked out by N
processes at once (``slimport.engine.text_pool``) and hands the answers in here, so that
gathering the facts in the run's own process only looks them up.
"""
from __future__ import annotations

import functools
from typing import Callable, Dict, Generic, Tuple, TypeVar

Answer = TypeVar("Answer")

# How many texts each function's answers are remembered for (the oldest go first): a
# run asks about each file a few times, and a process may run many (the tests do).
TEXTS_REMEMBERED = 4096


class PerText(Generic[Answer]):
    """``function`` of one text, its answers remembered for the newest
    ``TEXTS_REMEMBERED`` texts.

    Args:
      function: a function of a text alone (the same text gives the same answer in any
        process), whose answers pickle.
    """

    def __init__(self, function: Callable[[str], Answer]) -> None:
        functools.update_wrapper(self, function)
        self.function = function
        self._answers: Dict[str, Answer] = {}

    def __call__(self, text: str) -> Answer:
        try:
            return self._answers[text]
        except KeyError:
            answer = self.function(text)
            self.remember(text, answer)
            return answer

    def knows(self, text: str) -> bool:
        """Whether the answer for ``text`` is remembered."""
        return text in self._answers

    def remember(self, text: str, answer: Answer) -> None:
        """Hand in ``function(text)``, worked out elsewhere.

        Args:
          text: a text.
          answer: ``function``'s answer for it.
        """
        if text not in self._answers and len(self._answers) >= TEXTS_REMEMBERED:
            del self._answers[next(iter(self._answers))]  # the oldest
        self._answers[text] = answer


def per_text(function: Callable[[str], Answer]) -> PerText[Answer]:
    """Decorator: ``function`` as a PerText.

    Args:
      function: a function of one text alone.

    Returns:
      The PerText.
    """
    return PerText(function)


# The functions whose answers a tree's facts need for every file (``TreeFact.per_text``).
PerTexts = Tuple[PerText, ...]
