"""Python 2's json, for ported Python 2 code: the ``FLOAT_REPR`` hook, and ``str`` written.

Python 2.7's json wrote floats with ``json.encoder.FLOAT_REPR`` (``repr`` unless code
set it) wherever it encoded in Python: ``json.dump``, and ``json.dumps`` with an
``indent``, ``sort_keys=True`` or the C encoder switched off (``encoder.c_make_encoder =
None``). TF1-era code rounded its output through it (object detection's ``json_utils``:
``encoder.FLOAT_REPR = lambda o: format(o, '.2f')``). Python 3 removed the name: a read
fails, a write has no effect.

Importing this module gives the name back (``float.__repr__``, what Python 3 writes
with) and makes ``JSONEncoder.iterencode`` honour it where Python 2.7 did. While
``FLOAT_REPR`` is ``float.__repr__`` every encoding is Python 3's own, unchanged; only a
value code set is used, and only where Python 2.7 used it (its C encoder, used by a
one-shot ``dumps`` without ``indent`` or ``sort_keys``, wrote ``repr`` whatever
``FLOAT_REPR`` was).

``dump`` and ``dumps`` are json's own, given what Python 2.7's json wrote: its ``str`` was
bytes, and json decoded it (with its ``encoding`` argument, UTF-8 unless given) wherever it
was a value or a key; Python 3's json refuses bytes (``Object of type bytes is not JSON
serializable``), and its ``encoding`` argument. Bytes in dicts, lists and tuples are
decoded as Python 2 decoded them (an undecodable one raises ``UnicodeDecodeError`` as
there) and the rest is left to json: without bytes the call is json's own, on the same
object. Two calls Python 2 failed now write: non-ASCII bytes with ``ensure_ascii=False``
(Python 2's join of its bytes and text raised ``UnicodeDecodeError``); and a cycle raises
json's ``ValueError`` also with ``check_circular=False`` (Python 2 recursed to its limit).
"""
from __future__ import annotations

import json.encoder
from typing import Any, Callable, IO, Iterator, Set

# Python 3's own (also when this module is loaded again over an installed hook).
_PYTHON3_ITERENCODE = getattr(json.encoder.JSONEncoder.iterencode, "python3_iterencode",
                              json.encoder.JSONEncoder.iterencode)


def _python2_path(encoder: json.JSONEncoder, one_shot: bool) -> bool:
  """Whether Python 2.7 encoded with its Python code (which read ``FLOAT_REPR``)."""
  return not (one_shot and json.encoder.c_make_encoder is not None and
              encoder.indent is None and not encoder.sort_keys)


def _floatstr(encoder: json.JSONEncoder, float_repr: Callable[[float], str]
              ) -> Callable[[float], str]:
  """Python 2.7's float writer: NaN and the infinities by name (or refused, as
  ``allow_nan`` says), every other float through ``float_repr``."""
  def floatstr(value: float) -> str:
    if value != value:
      text = "NaN"
    elif value == float("inf"):
      text = "Infinity"
    elif value == float("-inf"):
      text = "-Infinity"
    else:
      return float_repr(value)
    if not encoder.allow_nan:
      raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    return text
  return floatstr


def _iterencode(self: json.JSONEncoder, o: Any, _one_shot: bool = False) -> Iterator[str]:
  float_repr = getattr(json.encoder, "FLOAT_REPR", float.__repr__)
  if float_repr is float.__repr__ or not _python2_path(self, _one_shot):
    return _PYTHON3_ITERENCODE(self, o, _one_shot)
  markers = {} if self.check_circular else None
  text = (json.encoder.encode_basestring_ascii if self.ensure_ascii
          else json.encoder.encode_basestring)
  # Python 3.13's iterencode makes an int indent spaces before _make_iterencode, which
  # no longer does (3.10-3.12's did both): done here, for every version.
  indent = self.indent if self.indent is None or isinstance(self.indent, str) \
      else " " * self.indent
  # Python 3's own pure-Python encoder, given Python 2's float writer.
  return json.encoder._make_iterencode(  # pylint: disable=protected-access
      markers, self.default, text, indent, _floatstr(self, float_repr),
      self.key_separator, self.item_separator, self.sort_keys, self.skipkeys,
      _one_shot)(o, 0)


_iterencode.python3_iterencode = _PYTHON3_ITERENCODE  # type: ignore[attr-defined]


def _python2_strs(value: Any, encoding: str, open_containers: Set[int]) -> Any:
  """``value`` with each bytes in it decoded as Python 2's json did; ``value`` itself when
  it holds none.

  Raises:
    ValueError: ``value`` holds itself (json's own error for a cycle, which it would
      raise on the decoded object).
  """
  if isinstance(value, bytes):
    return value.decode(encoding)
  if not isinstance(value, (dict, list, tuple)):
    return value
  if id(value) in open_containers:
    raise ValueError("Circular reference detected")
  open_containers.add(id(value))
  try:
    if isinstance(value, dict):
      pairs = [(_python2_strs(key, encoding, open_containers),
                _python2_strs(item, encoding, open_containers))
               for key, item in value.items()]
      same = all(new[0] is old[0] and new[1] is old[1]
                 for new, old in zip(pairs, value.items()))
      return value if same else dict(pairs)
    items = [_python2_strs(item, encoding, open_containers) for item in value]
    if all(new is old for new, old in zip(items, value)):
      return value
    return items if isinstance(value, list) else tuple(items)
  finally:
    open_containers.discard(id(value))


def dumps(obj: Any, *args: Any, encoding: str = "utf-8", **kwargs: Any) -> str:
  """``json.dumps`` as Python 2.7's: the bytes in ``obj`` written as text.

  Args:
    obj: what to encode.
    *args: json.dumps's other arguments.
    encoding: how the bytes are decoded (Python 2's json's argument; UTF-8 by default).
    **kwargs: json.dumps's other arguments.

  Returns:
    The JSON text.

  Raises:
    UnicodeDecodeError: a bytes value that ``encoding`` does not decode (as Python 2's).
  """
  return json.dumps(_python2_strs(obj, encoding, set()), *args, **kwargs)


def dump(obj: Any, fp: IO[str], *args: Any, encoding: str = "utf-8", **kwargs: Any) -> None:
  """``json.dump`` as Python 2.7's: the bytes in ``obj`` written as text.

  Args:
    obj: what to encode.
    fp: the file written.
    *args: json.dump's other arguments.
    encoding: how the bytes are decoded (Python 2's json's argument; UTF-8 by default).
    **kwargs: json.dump's other arguments.

  Raises:
    UnicodeDecodeError: a bytes value that ``encoding`` does not decode (as Python 2's).
  """
  json.dump(_python2_strs(obj, encoding, set()), fp, *args, **kwargs)


def install() -> None:
  """Gives ``json.encoder`` Python 2's ``FLOAT_REPR`` (once; importing this module does
  it)."""
  if not hasattr(json.encoder, "FLOAT_REPR"):
    json.encoder.FLOAT_REPR = float.__repr__
  json.encoder.JSONEncoder.iterencode = _iterencode


install()
