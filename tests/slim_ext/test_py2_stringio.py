"""slim_ext.py2_stringio: Python 2's StringIO buffer, bytes or text as written.

The expected values are what Python 2.7.18 printed for the same calls on
``StringIO.StringIO`` and ``cStringIO.StringIO`` (its ``str`` is bytes, which ported
code writes as text or bytes; its ``unicode`` is text).
"""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from slim_ext.py2_stringio import StringIO

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow


def test_an_image_saved_into_it_reads_back_as_bytes() -> None:
  # Object detection 0.1.1's detection_inference_test: PIL writes a PNG into the buffer.
  image = Image.fromarray(np.array([[[123, 0, 0]]], dtype=np.uint8), "RGB")
  buffer, expected = StringIO(), io.BytesIO()
  image.save(buffer, format="png")
  image.save(expected, format="png")
  assert buffer.getvalue() == expected.getvalue()
  assert buffer.getvalue().startswith(b"\x89PNG")


def test_text_reads_as_python_2_read_it() -> None:
  lines = StringIO("a\nb\r\nc")
  assert list(lines) == ["a\n", "b\r\n", "c"]
  assert lines.getvalue() == "a\nb\r\nc"
  buffer = StringIO()
  buffer.write("abc\n")
  buffer.write("def")
  buffer.seek(0)
  assert (buffer.readline(), buffer.readlines()) == ("abc\n", ["def"])
  buffer = StringIO()
  buffer.write("hello")
  buffer.seek(1)
  assert (buffer.read(2), buffer.tell()) == ("el", 3)


def test_bytes_given_at_first_read_back_as_bytes() -> None:
  buffer = StringIO(b"\x00\x01rest")
  assert (buffer.read(2), buffer.tell()) == (b"\x00\x01", 2)
  assert buffer.getvalue() == b"\x00\x01rest"


@pytest.mark.parametrize("first, second", [("x", b"y"), (b"x", "y")],
                         ids=["text then bytes", "bytes then text"])
def test_ascii_bytes_and_text_join_as_text(first, second) -> None:
  # Python 2: str and unicode in one buffer joined through ASCII, to unicode.
  buffer = StringIO()
  buffer.write(first)
  buffer.write(second)
  assert (buffer.getvalue(), buffer.tell()) == ("xy", 2)


def test_non_ascii_bytes_beside_text_raise_as_in_python_2() -> None:
  buffer = StringIO()
  buffer.write("x")
  with pytest.raises(UnicodeDecodeError, match="ordinal not in range"):
    buffer.write(b"\xff")


def test_what_is_neither_is_written_as_its_str_and_nothing_reads_empty() -> None:
  buffer = StringIO()
  assert (buffer.read(), buffer.tell(), buffer.getvalue()) == ("", 0, "")
  buffer.write(5)
  assert buffer.getvalue() == "5"
  # An empty buffer read before any write still takes bytes afterwards.
  bytes_later = StringIO()
  bytes_later.read()
  bytes_later.write(b"\x89")
  assert bytes_later.getvalue() == b"\x89"


def test_it_closes_as_a_file() -> None:
  with StringIO() as buffer:
    buffer.writelines(["a", "b"])
    assert buffer.getvalue() == "ab"
  assert buffer.closed
