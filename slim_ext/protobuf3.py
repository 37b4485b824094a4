"""protobuf 3's conversions that protobuf >= 5 refuses, for TF1 code that relied on them.

TF1 ran on protobuf 3, whose int64 fields took a bool as 0 / 1 (``tf.train.Int64List(
value=[False, True])`` holds ``[0, 1]`` on TF 1.15's protobuf 3.20, and on TF 2.15's
4.25). TF1-era dataset tools fill such fields from annotations and flags that are
bools: object detection's COCO converter stores each annotation's ``iscrowd``, which
its tests write as ``False``. protobuf's upb runtime since 5.x (TF 2.21 installs 7.x)
refuses the bool (``Expected an int, got a boolean``). ``slimport rewrite``'s
protobuf_int64_bools passes such values through ``int64_values``; protobuf_bytes_strs
passes ``tf.train.BytesList``'s through ``bytes_values`` (Python 2's ``str`` was bytes).
"""
from __future__ import annotations

from typing import Any


def int64_values(values: Any) -> Any:
  """``values`` for a repeated int64 field, as protobuf 3 took them: a bool as 0 / 1.

  Args:
    values: what the code gives the field's ``value=`` (a list, a tuple, an array,
      any iterable).

  Returns:
    A list with each bool replaced by its int when ``values`` is a list or tuple holding
    a bool; otherwise ``values`` itself, unread (an array or an iterator goes to
    protobuf as it came, which takes or refuses it as before).
  """
  if isinstance(values, (list, tuple)) and any(isinstance(value, bool) for value in values):
    return [int(value) if isinstance(value, bool) else value for value in values]
  return values


def bytes_values(values: Any) -> Any:
  """``values`` for a repeated bytes field, as Python 2 gave them: a str as its bytes.

  Python 2's ``str`` was bytes, and TF1-era code fills ``tf.train.BytesList`` with
  strings (``'jpeg'``, file names); Python 3's protobuf refuses a ``str`` there.

  Args:
    values: what the code gives the field's ``value=`` (a list, a tuple, a NumPy array,
      any iterable).

  Returns:
    A list with each ``str`` encoded as UTF-8 when ``values`` is a list, tuple or NumPy
    array (of text or of objects: a pandas column) holding one; otherwise ``values``
    itself, unread.
  """
  if type(values).__module__ == "numpy" and getattr(values, "dtype", None) is not None \
      and values.dtype.kind in "UO":  # text, or objects (a pandas column of str)
    values = values.tolist()
  if isinstance(values, (list, tuple)) and any(isinstance(value, str) for value in values):
    return [value.encode("utf-8") if isinstance(value, str) else value for value in values]
  return values
