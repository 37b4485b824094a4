"""removed_stdlib: a ported FLOAT_REPR save-and-restore runs on Python 3 and rounds as on
Python 2.7 (cases/removed_stdlib.py has the before/after, no-op and reported cases)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from slimport.codemods.removed_stdlib import RemovedStdlibCommand
from tests.slimport.codemods._helpers import run_codemod

# Object detection 0.1.1's json_utils.Dumps, in short; then what a test of it prints.
DUMPS = """\
import json
from json import encoder

def dumps(obj, float_digits):
  original_encoder = encoder.FLOAT_REPR
  original_c_make_encoder = encoder.c_make_encoder
  encoder.FLOAT_REPR = lambda o: format(o, '.%df' % float_digits)
  encoder.c_make_encoder = None
  try:
    return json.dumps(obj)
  finally:
    encoder.FLOAT_REPR = original_encoder
    encoder.c_make_encoder = original_c_make_encoder

print(dumps([1.0, 1 / 3.0], 2))
print(json.dumps([1 / 3.0]))
"""


def _run(program: Path) -> subprocess.CompletedProcess:
    # A process of its own: the ported module's import changes json in its process.
    return subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                          timeout=60, check=False)


def test_a_float_repr_save_and_restore_rounds_as_on_python_2(tmp_path: Path) -> None:
    code, findings = run_codemod(RemovedStdlibCommand, DUMPS)
    assert [f.kind for f in findings] == ["edit"] * 3
    (tmp_path / "original.py").write_text(DUMPS)
    (tmp_path / "ported.py").write_text(code)
    assert "AttributeError: module 'json.encoder' has no attribute 'FLOAT_REPR'" in \
        _run(tmp_path / "original.py").stderr
    ran = _run(tmp_path / "ported.py")
    # What Python 2.7.18 printed for the original.
    assert (ran.returncode, ran.stdout) == (0, "[1.00, 0.33]\n[0.3333333333333333]\n"), \
        ran.stderr
