"""TensorFlow's native start-up lines, which ``slimport doctor`` and ``slimport verify``
keep out of their output unless ``-v``.

TensorFlow 2.21 prints them from C++ (absl logging) as it loads, whatever
``TF_CPP_MIN_LOG_LEVEL`` says, since absl::InitializeLog() has not run yet::

    WARNING: All log messages before absl::InitializeLog() is called are written to STDERR
    I0000 00:00:1795435671.421227   29927 port.cc:153] oneDNN custom operations are on. ...
    2025-01-01 12:00:00.000000: I tensorflow/core/util/port.cc:113] oneDNN custom ...

Only info, warning and error lines go: a fatal one (``F0000 ...``) is what a crash
says, and stays.
"""
from __future__ import annotations

import re

NATIVE_LOG_LINE = re.compile(
    r"(?:[IWE]\d{4} [\d:.]+\s+\d+ \S+:\d+\] "
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IWE] \S+:\d+\] "
    r"|WARNING: All log messages before absl::InitializeLog\(\) is called)")


def without_native_log(text: str) -> str:
    """``text`` without TensorFlow's native info/warning/error lines (see the module).

    Args:
      text: a process's standard error, lines ending in newlines.

    Returns:
      The other lines, as they were.
    """
    return "".join(line for line in text.splitlines(keepends=True)
                   if not NATIVE_LOG_LINE.match(line))
