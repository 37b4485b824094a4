"""removed_stdlib: a ported FLOAT_REPR save-and-restore runs on Python 3 (cases/removed_stdlib.py
has the before/after, no-op and reported cases)."""
from __future__ import annotations

import pytest

from slimport.codemods.removed_stdlib import RemovedStdlibCommand
from tests.slimport.codemods._helpers import run_codemod


def test_a_float_repr_save_and_restore_keeps_running_on_python_3() -> None:
    source = ("from json import encoder\noriginal = encoder.FLOAT_REPR\n"
              "encoder.FLOAT_REPR = lambda o: format(o, '.2f')\nencoder.FLOAT_REPR = original\n")
    code, findings = run_codemod(RemovedStdlibCommand, source)
    assert [f.kind for f in findings] == ["edit", "attention", "attention"]
    with pytest.raises(AttributeError):
        exec(compile(source, "original.py", "exec"), {})
    namespace: dict = {}
    try:
        exec(compile(code, "ported.py", "exec"), namespace)
    finally:
        import json.encoder  # pylint: disable=import-outside-toplevel
        vars(json.encoder).pop("FLOAT_REPR", None)  # the program set it in this process
    assert namespace["original"] is float.__repr__
