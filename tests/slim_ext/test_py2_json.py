"""slim_ext.py2_json: json.encoder.FLOAT_REPR as Python 2.7 honoured it.

Every expected text below is what Python 2.7.18's json wrote for the same calls
(``tox -e era``'s interpreter), dictionaries with ``sort_keys`` or one key (Python 2's
dict order differs) and ``separators`` given where ``indent`` is (Python 2's default
item separator kept a trailing space there).
"""
import io
import json
from json import encoder

import pytest

from slim_ext import py2_json

@pytest.fixture
def python2_json():
  """The hook installed for one test, json as it was afterwards."""
  iterencode, c_make_encoder = json.JSONEncoder.iterencode, encoder.c_make_encoder
  float_repr = getattr(encoder, "FLOAT_REPR", None)
  py2_json.install()
  yield
  json.JSONEncoder.iterencode, encoder.c_make_encoder = iterencode, c_make_encoder
  if float_repr is None:
    del encoder.FLOAT_REPR
  else:
    encoder.FLOAT_REPR = float_repr


def _two_places():
  encoder.FLOAT_REPR = lambda value: format(value, ".2f")


CASES = [
    # (what, call, Python 2.7's text)
    ("dumps with sort_keys", lambda: json.dumps(
        {"a": 1.23456789, "b": [0.5, 2.0, float("nan")], "c": "x"}, sort_keys=True),
     '{"a": 1.23, "b": [0.50, 2.00, NaN], "c": "x"}'),
    ("dumps with indent", lambda: json.dumps(
        {"a": 1.23456789, "b": [0.5, 2.0, float("nan")]}, indent=2, sort_keys=True,
        separators=(",", ": ")),
     '{\n  "a": 1.23,\n  "b": [\n    0.50,\n    2.00,\n    NaN\n  ]\n}'),
    ("dumps with an int indent", lambda: json.dumps(
        [1.5, {"k": 1e-9}], indent=1, separators=(",", ": ")),
     '[\n 1.50,\n {\n  "k": 0.00\n }\n]'),
    ("an encoder's own iterencode", lambda: "".join(json.JSONEncoder().iterencode(1.005)),
     "1.00"),
    # Python 2.7's C encoder (a one-shot dumps, no indent, no sort_keys) wrote repr.
    ("one-shot dumps through the C encoder", lambda: json.dumps({"a": [1.23456789, 0.5]}),
     '{"a": [1.23456789, 0.5]}'),
]


@pytest.mark.parametrize("call,python2", [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_float_repr_is_honoured_where_python_2_honoured_it(python2_json, call, python2):
  _two_places()
  assert call() == python2


def test_dump_to_a_file_and_the_c_encoder_switched_off(python2_json):
  """What object detection's json_utils does: Dump writes through FLOAT_REPR; Dumps
  switches the C encoder off first."""
  _two_places()
  written = io.StringIO()
  json.dump([3.14159, {"k": 2.5}], written)
  assert written.getvalue() == '[3.14, {"k": 2.50}]'
  encoder.c_make_encoder = None
  assert json.dumps([1.23456, 7.0]) == "[1.23, 7.00]"
  with pytest.raises(ValueError, match="Out of range float values are not JSON "
                                       "compliant: inf"):
    json.dumps([float("inf")], allow_nan=False)


def test_unset_hook_leaves_python_3_json_as_it_is(python2_json):
  """FLOAT_REPR reads as Python 3 writes (float.__repr__), and then nothing differs."""
  assert encoder.FLOAT_REPR is float.__repr__
  value = {"b": 0.1, "a": [1e-7, float("nan"), 2.0]}
  assert json.dumps(value, sort_keys=True) == '{"a": [1e-07, NaN, 2.0], "b": 0.1}'
  assert json.dumps(value, indent=2) == json.JSONEncoder(indent=2).encode(value)
  _two_places()
  encoder.FLOAT_REPR = float.__repr__
  assert json.dumps(value, sort_keys=True) == '{"a": [1e-07, NaN, 2.0], "b": 0.1}'


def test_installing_twice_keeps_one_hook(python2_json):
  _two_places()
  py2_json.install()
  assert json.dumps([0.125], sort_keys=True) == "[0.12]"


# Python 2's str as text: (what, Python 2's object with its str as bytes, keywords,
# Python 2.7.18's json.dumps text for it).
STR_CASES = [
    ("a value and a nested value", {b"counts": b"ab\xc3\xa9", "size": [2, 3]},
     {"sort_keys": True}, '{"counts": "ab\\u00e9", "size": [2, 3]}'),
    ("a key and a tuple", {b"k\xc3\xa9": (b"x", "y", [b"z"])}, {"sort_keys": True},
     '{"k\\u00e9": ["x", "y", ["z"]]}'),
    ("Python 2's encoding argument", [b"\xe9"], {"encoding": "latin1"}, '["\\u00e9"]'),
    ("ASCII bytes with ensure_ascii off", {b"counts": b"abc"}, {"ensure_ascii": False},
     '{"counts": "abc"}'),
]


@pytest.mark.parametrize("obj,keywords,python2", [case[1:] for case in STR_CASES],
                         ids=[case[0] for case in STR_CASES])
def test_str_is_written_as_python_2_wrote_it(obj, keywords, python2):
  assert py2_json.dumps(obj, **keywords) == python2
  written = io.StringIO()
  py2_json.dump(obj, written, **keywords)
  assert written.getvalue() == python2


def test_undecodable_bytes_and_cycles_fail_as_on_python_2():
  with pytest.raises(UnicodeDecodeError):
    py2_json.dumps([b"\xff"])
  cycle = [b"a"]
  cycle.append(cycle)
  with pytest.raises(ValueError, match="Circular reference detected"):
    py2_json.dumps(cycle)


def test_without_bytes_json_gets_the_same_object(monkeypatch):
  given = []
  monkeypatch.setattr(json, "dumps", lambda obj, *args, **kwargs: given.append(obj) or "")
  results = {"boxes": [[0.5, 1.0]], "labels": ("a", 1)}
  py2_json.dumps(results, indent=2)
  assert given == [results] and given[0] is results
