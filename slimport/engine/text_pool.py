"""The per-file part of the tree facts, worked out by several processes at once.

A ``-j N`` run gathers its tree facts before its pool of porters starts: every file's
``def`` names, imports, Python 2 evidence ... (``slimport.analysis.per_text``). Done in
the run's own process, that was a serial second and a half of the bench's large tree
(1,375 files), while the other CPU waited. Here N processes forked from the run's work
those answers out for a share of the texts each, and the run's process is handed them:
gathering the facts then only looks them up, in the same order, so the facts are the
ones a ``-j 1`` run gathers.

Forked, the processes hold the texts and the functions already: nothing but the
answers crosses between processes. Where processes cannot be forked, or the texts are
too few to pay for the processes, nothing is worked out ahead.
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
from typing import Any, Dict, List, Optional, Sequence, Tuple

from slimport.analysis.per_text import PerText

# Below this many bytes of text the answers cost less than starting the processes (on
# the bench's large tree they take about 0.08 s of CPU a MB; two forks and the answers'
# way back, about 30 ms).
MIN_BYTES = 2 << 20
# Shares of the texts per process: a process that got the slow texts is not left
# working alone at the end.
SHARES_PER_PROCESS = 4

# In each forked process: the functions and the texts (set before the fork).
_held: Optional[Tuple[Sequence[PerText], Sequence[str]]] = None


def _answers(share: Sequence[int]) -> List[Dict[int, Any]]:
    """In a forked process: each function's answers for the texts ``share`` indexes, by
    index (not one it raised for: asked later, it raises where the run would have)."""
    assert _held is not None, "forked after work_out held the work"
    functions, texts = _held
    found: List[Dict[int, Any]] = []
    for function in functions:
        answers: Dict[int, Any] = {}
        for index in share:
            try:
                answers[index] = function.function(texts[index])
            except Exception:  # noqa: BLE001  the run's own process meets it, if it asks
                continue
        found.append(answers)
    return found


def _shares(texts: Sequence[str], parts: int) -> List[List[int]]:
    """The indexes of ``texts`` in ``parts`` lists of about equal bytes, largest first
    (each text goes to the lightest list so far)."""
    shares: List[List[int]] = [[] for _ in range(parts)]
    sizes = [0] * parts
    for index in sorted(range(len(texts)), key=lambda index: -len(texts[index])):
        lightest = sizes.index(min(sizes))
        shares[lightest].append(index)
        sizes[lightest] += len(texts[index])
    return [share for share in shares if share]


def work_out(functions: Sequence[PerText], texts: Sequence[str], processes: int) -> None:
    """Hand each of ``functions`` its answers for ``texts`` (those it does not know),
    worked out by ``processes`` forked processes at once.

    Nothing is worked out for fewer than two processes, fewer than ``MIN_BYTES`` of
    texts, or where processes cannot be forked; a process that dies leaves its
    answers to be worked out when asked. Either way the answers asked for later are
    the same.

    Args:
      functions: functions of one text alone.
      texts: the texts.
      processes: how many processes may work at once.
    """
    global _held
    if processes < 2 or not functions or "fork" not in multiprocessing.get_all_start_methods():
        return
    pending = [text for text in dict.fromkeys(texts)
               if not all(function.knows(text) for function in functions)]
    if sum(map(len, pending)) < MIN_BYTES:
        return
    _held = (tuple(functions), pending)
    try:
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=processes, mp_context=multiprocessing.get_context("fork")) as pool:
            shares = _shares(pending, processes * SHARES_PER_PROCESS)
            futures = [pool.submit(_answers, share) for share in shares]
            for future in concurrent.futures.as_completed(futures):
                for function, answers in zip(functions, future.result()):
                    for index, answer in answers.items():
                        function.remember(pending[index], answer)
    except concurrent.futures.process.BrokenProcessPool:
        pass  # a process died (killed, out of memory): the rest is asked for here
    finally:
        _held = None
