"""verify on a tree nobody ported: one note at the top, the rewrite command, no blame.

Two research/slim-style nets, as TF1 wrote them (``slim = tf.contrib.slim``).
verify must not say "this spelling was not ported: report it to slimport" for code
the port never saw; it says once that the tree is not ported and which command
ports it, and that command, run as printed, gives a tree verify passes.
"""
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from tests.slimport.conftest import REPO_ROOT
from tests.slimport.verify._helpers import run_verify

pytestmark = pytest.mark.tf

NETS = REPO_ROOT / "examples" / "slim_tf1" / "nets"


def test_an_unported_tree_is_told_to_run_the_rewrite_first(tmp_path):
    tree = tmp_path / "nets_tf1"
    shutil.copytree(NETS, tree / "nets")
    unported = run_verify(tree, ["--build", "nets.nets_factory", "-j", "2"],
                          tmp_path / "unported.json")
    assert unported.returncode == 1, unported.stdout
    notes = [line for line in unported.stdout.splitlines() if "this tree is not ported" in line]
    assert len(notes) == 1 and unported.stdout.splitlines()[1] == notes[0], unported.stdout
    assert "report the spelling" not in unported.stdout
    assert unported.report["not_ported"] == notes[0][len("NOTE: "):]
    fixes = [row["fix"] for row in unported.report["rows"] if row["kind"] == "fails"]
    assert fixes and all("run slimport rewrite first" in (fix or "") for fix in fixes), fixes

    command = shlex.split(re.search(r"Run `([^`]+)` first", notes[0]).group(1))
    assert command[:2] == ["slimport", "rewrite"]
    rewrite = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True,
                             timeout=300, cwd=REPO_ROOT, check=False)
    assert rewrite.returncode == 0, rewrite.stdout + rewrite.stderr
    ported = run_verify(tmp_path / "nets_tf1_tf2", ["--build", "nets.nets_factory", "-j", "2"],
                        tmp_path / "ported.json")
    assert ported.returncode == 0, ported.stdout
    assert ported.report["not_ported"] is None
    assert {row["target"]: row["kind"] for row in ported.report["rows"]
            if row["check"] == "build"} == {"nets.nets_factory:lenet": "ok",
                                             "nets.nets_factory:cifarnet_bn": "ok"}
