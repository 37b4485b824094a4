"""The platform's slim tree, both forms, ported with zero hand edits and run as the platform
runs it (issue 20).

The tree (examples/platform_slim over examples/slim_tf1) imports the platform SDK,
maps the platform flags by hand, starts its own servers and carries its own
per-replica fix in model_deploy. Assembled with the SDK's ``uaitrain/`` folder and
without it, each form is ported with ``slimport rewrite --out``, then trained with the
platform's flags only, and on a master + ps + worker cluster started from a platform
TF_CONFIG: every process must end by itself with status 0 and the checkpoint reach the
target step. The report must name each hand-made form the port recognised and left,
and a second rewrite must change nothing.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from tests.examples import _platform_runs as runs
from tests.examples import _platform_tree

pytestmark = [pytest.mark.regression, pytest.mark.tf]

FORMS = {"sdk": True, "no_sdk": False}
TRAIN_STEPS = 20
# Enough that the worker, which polls for the chief every second, trains too.
CLUSTER_STEPS = 150
REWRITE_TIMEOUT_SECS = 300


class PortedForm:
    """One form of the platform tree: its source, its port and the rewrite report."""

    def __init__(self, root: Path, with_sdk: bool) -> None:
        self.source = _platform_tree.assemble(root / "source", with_sdk)
        self.ported = root / "ported"
        report_path = root / "report.json"
        rewrite = _slimport("rewrite", str(self.source), "--out", str(self.ported),
                            "--report", str(report_path))
        assert rewrite.returncode == 0, rewrite.stdout + rewrite.stderr
        self.files = {Path(entry["path"]).relative_to(self.source).as_posix(): entry
                      for entry in json.loads(report_path.read_text())["files"]}

    def findings(self, path: str, codemod: str, kind: str) -> List[str]:
        return [finding["message"] for finding in self.files[path]["findings"]
                if finding["codemod"] == codemod and finding["kind"] == kind]


def _slimport(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slimport", *args], capture_output=True,
                          text=True, timeout=REWRITE_TIMEOUT_SECS)


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, PortedForm]:
    return {form: PortedForm(tmp_path_factory.mktemp(form), with_sdk)
            for form, with_sdk in FORMS.items()}


@pytest.fixture(scope="module")
def data_dir(forms: Dict[str, PortedForm], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The platform's --data_dir: the synthetic set, made by a ported tree's generator."""
    work = tmp_path_factory.mktemp("data")
    runs.make_data(forms["no_sdk"].ported, work / "data", work)
    return work / "data"


TRAIN = "train_image_classifier.py"
MODEL_DEPLOY = "deployment/model_deploy.py"


@pytest.mark.parametrize("form", FORMS)
def test_the_report_names_each_hand_made_form_it_left(forms, form: str) -> None:
    ported = forms[form]
    assert not [path for path, entry in ported.files.items() if entry["status"] == "failed"]
    # main maps the platform flags itself: no uflag.apply.
    [hand_mapping] = ported.findings(TRAIN, "uai_flags", "attention")
    assert hand_mapping.startswith("the script maps the platform flags onto slim's by hand "
                                   "(data_dir->dataset_dir, output_dir->train_dir, "
                                   "num_gpus->num_clones)")
    assert ported.findings(TRAIN, "uai_flags", "edit") == []
    # Its own cluster code stays, its servers become slim_ext's.
    [own_cluster] = ported.findings(TRAIN, "cluster_bootstrap", "attention")
    assert "the script starts its own server" in own_cluster
    assert len(ported.findings(TRAIN, "own_server", "edit")) == 2
    [latent_bug] = ported.findings(TRAIN, "own_server", "attention")
    assert latent_bug.startswith("os.exit does not exist")
    # model_deploy already places each replica on its task.
    [fixed] = ported.findings(MODEL_DEPLOY, "replica_device", "attention")
    assert fixed.startswith("DeploymentConfig already places each replica's clones")
    assert ported.findings(MODEL_DEPLOY, "replica_device", "edit") == []


def test_sdk_imports_move_only_without_the_sdk_folder(forms) -> None:
    assert forms["sdk"].findings(TRAIN, "sdk_imports", "edit") == []
    assert forms["no_sdk"].findings(TRAIN, "sdk_imports", "edit") == [
        "from uaitrain.arch.tensorflow import uflag -> from slim_ext.uai import uflag",
        "from uaitrain.arch.tensorflow import uai_dist -> from slim_ext.uai import uai_dist"]
    # The SDK's own flag module keeps TF1's flags: its --log_dir is absl.logging's name.
    sdk_flags = (forms["sdk"].ported / "uaitrain" / "arch" / "tensorflow" / "uflag.py")
    assert "from slim_ext import tf1_flags as flags\n" in sdk_flags.read_text()


@pytest.mark.parametrize("form", FORMS)
def test_a_second_rewrite_changes_nothing(forms, form: str) -> None:
    check = _slimport("rewrite", str(forms[form].ported), "--check")
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize("form", FORMS)
def test_trains_from_the_platform_flags_alone(forms, data_dir: Path, tmp_path: Path,
                                              form: str) -> None:
    output_dir = tmp_path / "output"
    log = runs.train_with_platform_flags(forms[form].ported, data_dir, output_dir, tmp_path,
                                         TRAIN_STEPS)
    assert runs.global_step_of(output_dir) == TRAIN_STEPS
    steps = runs.logged_steps(log)
    # One process, one seed of synchronous SGD: a loss that is not finite is a bug here.
    assert steps and all(math.isfinite(loss) for _, loss in steps), log[-3000:]


@pytest.mark.parametrize("form", FORMS)
def test_trains_on_a_platform_cluster_and_every_task_ends(forms, data_dir: Path,
                                                          tmp_path: Path, form: str) -> None:
    run = runs.run_platform_cluster(forms[form].ported, data_dir, tmp_path, CLUSTER_STEPS)
    logs = "\n".join(f"--- {task}\n{log[-3000:]}" for task, log in run.logs.items())
    assert run.ps_ended_by_itself, logs
    assert run.codes == {"master": 0, "worker": 0, "ps": 0}, logs
    assert runs.global_step_of(run.output_dir) >= CLUSTER_STEPS
    # Both workers trained: the master (the chief) and the worker.
    assert runs.logged_steps(run.logs["master"]), logs
    assert runs.logged_steps(run.logs["worker"]), logs
