"""Code `slimport rewrite` regenerates for stale *_pb2.py imports on this TensorFlow's protobuf.

The fixture is what the rewrite's protos step writes with the grpcio-tools tox pins
(tests/slimport/test_protos.py checks it is exactly that). grpcio-tools cannot be
installed beside TensorFlow 2.15 (its protobuf 4.25 is older than any protoc that writes
the builder API with a version check), so this is how the code a rewrite made elsewhere
is shown to import on it: regression-tf215 runs this test on protobuf 4.25,
regression-tf221 on TF 2.21's, each with the C (upb) and the pure-Python implementation.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parent / "data" / "regenerated_protos"
PROGRAM = (
    "from pkg.protos import model_pb2\n"
    "from google.protobuf import text_format\n"
    "model = text_format.Parse('name: \"m\" units {size: 3} units {}', model_pb2.Model())\n"
    "print(model.name, [unit.size for unit in model.units], model.SerializeToString())\n")


@pytest.mark.parametrize("implementation", ["upb", "python"])
def test_regenerated_modules_import_and_parse(implementation):
    env = dict(os.environ, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=implementation,
               PYTHONDONTWRITEBYTECODE="1")
    ran = subprocess.run([sys.executable, "-W", "error", "-c", PROGRAM], cwd=FIXTURE,
                         env=env, capture_output=True, text=True, timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "m [3, 7] b'\\n\\x01m\\x12\\x02\\x08\\x03\\x12\\x00'"
