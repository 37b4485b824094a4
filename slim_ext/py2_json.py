"""Python 2's ``json.encoder.FLOAT_REPR`` hook, for ported Python 2 code.

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
"""
from __future__ import annotations

import json.encoder
from typing import Any, Callable, Iterator

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
  # Python 3's own pure-Python encoder, given Python 2's float writer.
  return json.encoder._make_iterencode(  # pylint: disable=protected-access
      markers, self.default, text, self.indent, _floatstr(self, float_repr),
      self.key_separator, self.item_separator, self.sort_keys, self.skipkeys,
      _one_shot)(o, 0)


_iterencode.python3_iterencode = _PYTHON3_ITERENCODE  # type: ignore[attr-defined]


def install() -> None:
  """Gives ``json.encoder`` Python 2's ``FLOAT_REPR`` (once; importing this module does
  it)."""
  if not hasattr(json.encoder, "FLOAT_REPR"):
    json.encoder.FLOAT_REPR = float.__repr__
  json.encoder.JSONEncoder.iterencode = _iterencode


install()
