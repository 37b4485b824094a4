"""The ``[n/N] path`` progress line of ``slimport rewrite`` and ``slimport verify`` on a
terminal."""
from __future__ import annotations

import os
import sys
from typing import TextIO


def _columns(stream: TextIO) -> int:
    """The terminal's width: $COLUMNS if set, else the terminal's own, else 80."""
    try:
        return max(int(os.environ["COLUMNS"]), 1)
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 80


class Progress:
    """A single updating ``[n/N] path`` line on a terminal; silent otherwise.

    Shown only when the stream is a terminal and there are more than ``threshold``
    items, so piped output and small runs stay clean. The total may grow as work is
    found (``add``). The line never wraps: a path too long for the terminal is cut at
    the front.
    """

    def __init__(self, total: int = 0, stream: TextIO = sys.stderr, threshold: int = 5,
                 enabled: bool = True) -> None:
        self._total = total
        self._stream = stream
        self._threshold = threshold
        self._done = 0
        self._width = 0
        isatty = getattr(stream, "isatty", None)
        self._terminal = enabled and bool(isatty and isatty())
        # One column spare: writing the last one makes some terminals wrap.
        self._room = _columns(stream) - 1 if self._terminal else 0

    @property
    def enabled(self) -> bool:
        """Whether the line is drawn: on a terminal, for more than ``threshold`` items."""
        return self._terminal and self._total > self._threshold

    def add(self, count: int) -> None:
        """Count ``count`` more items to do."""
        self._total += count

    def show(self, path: str) -> None:
        """Redraw the line with ``path`` as the item in hand (started, not done)."""
        if not self.enabled:
            return
        head = f"[{self._done}/{self._total}] "
        room = self._room - len(head)
        if len(path) > room:
            path = "..." + path[len(path) - room + 3:] if room > 3 else ""
        text = (head + path)[:self._room]
        padding = " " * max(0, self._width - len(text))
        self._width = len(text)
        self._stream.write("\r" + text + padding)
        self._stream.flush()

    def advance(self, path: str) -> None:
        """Count one more item done (``path``) and redraw the line."""
        self._done += 1
        self.show(path)

    def close(self) -> None:
        """Erase the progress line so the summary starts on a clean line."""
        if self._terminal and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0
