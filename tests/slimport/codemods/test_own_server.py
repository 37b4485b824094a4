"""own_server: an os.exit away from a ps's join() is reported without the join's story
(cases/own_server.py has the before/after and no-op cases)."""
from __future__ import annotations

from slimport.codemods.own_server import OwnServerCommand
from tests.slimport.codemods._helpers import run_codemod


def test_os_exit_elsewhere_is_reported_without_the_join() -> None:
    source = ("import os\nimport tensorflow as tf\n\n"
              "server = tf.train.Server(spec, job_name='worker')\nif done:\n  os.exit(1)\n")
    _, findings = run_codemod(OwnServerCommand, source)
    [attention] = [f for f in findings if f.kind == "attention"]
    assert (attention.line, attention.message) == (
        6, "os.exit does not exist: reached, it raises AttributeError")
