"""Python 2's ``StringIO.StringIO`` and ``cStringIO.StringIO``, for ported Python 2 code.

Python 2's in-memory file held ``str``, which was bytes, and ``unicode`` as well: the
same buffer took the PNG bytes PIL wrote into it, or the lines of a CSV. Python 3 has
no such module; it splits the buffer into ``io.BytesIO`` (bytes) and ``io.StringIO``
(text), and which one a line of code needs depends on the data it writes at run time
(2to3 always chose ``io.StringIO``, which fails on the first bytes). ``slimport
rewrite`` points ``import StringIO`` / ``import cStringIO`` (and ``from ... import
StringIO``) of Python 2 code here, keeping the names they bound.

``StringIO`` here holds what is written to it, as Python 2's did: bytes when bytes come
(``getvalue()`` gives bytes), text when text comes. Where a Python 2 buffer mixed the
two, ``str`` and ``unicode`` joined through ASCII (a non-ASCII byte raised
``UnicodeDecodeError``): so here bytes written to a text buffer, or text written to a
bytes buffer, make it text, decoded as ASCII. What is neither is written as ``str()``
of it (``StringIO.StringIO.write`` did that). Reading a buffer nothing was written to
gives ``''``. Everything else (``read``, ``readline``, iteration, ``seek``, ``tell``,
``truncate``, ``close``, ``closed``) is ``io``'s.
"""
from __future__ import annotations

import io
from typing import Any, Iterator, Optional, Union

_BYTES = (bytes, bytearray, memoryview)


class StringIO(object):
  """An in-memory file for text or bytes, as Python 2's ``StringIO.StringIO`` was.

  Args:
    buf: the initial content (text or bytes); the position starts at 0, as Python 2's
      did.
  """

  def __init__(self, buf: Union[str, bytes, None] = None) -> None:
    # io.StringIO or io.BytesIO, chosen by the first data (None until then).
    self._buffer: Optional[Union[io.StringIO, io.BytesIO]] = None
    if buf:
      self.write(buf)
      self._buffer.seek(0)

  def write(self, data: Any) -> int:
    """Writes ``data`` at the current position.

    Args:
      data: text, bytes, or anything else (written as ``str(data)``).

    Returns:
      What ``io``'s ``write`` returns.

    Raises:
      UnicodeDecodeError: non-ASCII bytes meet text in one buffer (Python 2 raised
        it too, in ``getvalue``).
    """
    if not isinstance(data, (str, *_BYTES)):
      data = str(data)
    as_bytes = isinstance(data, _BYTES)
    buffer = self._buffer
    if buffer is None or (buffer.tell() == 0 and not buffer.getvalue()):
      # Nothing written yet: the data chooses.
      self._buffer = buffer = io.BytesIO() if as_bytes else io.StringIO()
    elif isinstance(buffer, io.BytesIO) and not as_bytes:
      position = buffer.tell()
      self._buffer = buffer = io.StringIO(buffer.getvalue().decode("ascii"))
      buffer.seek(position)
    elif isinstance(buffer, io.StringIO) and as_bytes:
      data = bytes(data).decode("ascii")
    return buffer.write(data)

  def writelines(self, lines: Any) -> None:
    """Writes each of ``lines`` (``write``'s rules for each)."""
    for line in lines:
      self.write(line)

  def getvalue(self) -> Union[str, bytes]:
    """The whole content: bytes or text, as written; ``''`` when nothing was."""
    return "" if self._buffer is None else self._buffer.getvalue()

  def _file(self) -> Union[io.StringIO, io.BytesIO]:
    if self._buffer is None:
      # Read before any write: Python 2's empty buffer read as '' (text here).
      self._buffer = io.StringIO()
    return self._buffer

  def __getattr__(self, name: str) -> Any:
    if name == "_buffer":  # before __init__ set it (copy, pickle)
      raise AttributeError(name)
    return getattr(self._file(), name)

  def __iter__(self) -> Iterator[Union[str, bytes]]:
    return iter(self._file())

  def __enter__(self) -> "StringIO":
    return self

  def __exit__(self, *exc_info: Any) -> None:
    self._file().close()
