"""replica_device: the fixed DeploymentConfig places each replica on its task when it runs,
and patches/model_deploy-per-replica-task.patch applies to upstream's shape and makes the same
edit as the codemod, byte for byte (cases/replica_device.py has the before/after, no-op and
reported cases)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from slimport.codemods.replica_device import ReplicaDeviceCommand
from tests.slimport.codemods._helpers import run_codemod
from tests.slimport.codemods.cases.replica_device import (
    FIXED_LINES,
    PATCHED_SPELLINGS,
    UPSTREAM_SHAPE,
    patched,
)

ROOT = Path(__file__).resolve().parents[3]
PATCH = ROOT / "patches" / "model_deploy-per-replica-task.patch"
EXAMPLE_COPY = ROOT / "examples" / "slim_tf1" / "deployment" / "model_deploy.py"


def deployment_config(source: str) -> type:
    namespace: dict = {}
    exec(compile(source, "model_deploy.py", "exec"), namespace)
    return namespace["DeploymentConfig"]


def test_fixed_devices_carry_the_replica_task() -> None:
    code, _ = run_codemod(ReplicaDeviceCommand, UPSTREAM_SHAPE)
    before = deployment_config(UPSTREAM_SHAPE)(
        num_clones=2, replica_id=1, num_replicas=2, num_ps_tasks=1
    )
    after = deployment_config(code)(num_clones=2, replica_id=1, num_replicas=2, num_ps_tasks=1)
    assert before.clone_device(1) == "/job:worker/device:GPU:1"
    assert after.clone_device(1) == "/job:worker/task:1/device:GPU:1"
    assert after.inputs_device() == "/job:worker/task:1/device:CPU:0"
    assert after.optimizer_device() == "/job:worker/task:1/device:CPU:0"
    single = deployment_config(code)(num_clones=1, clone_on_cpu=True)
    assert single.clone_device(0) == "/device:CPU:0"


def _git_apply(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "apply", *args, str(PATCH)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_patch_applies_to_upstream_shape_and_matches_the_codemod(tmp_path: Path) -> None:
    target = tmp_path / "research" / "slim" / "deployment" / "model_deploy.py"
    target.parent.mkdir(parents=True)
    target.write_text(UPSTREAM_SHAPE)
    checked = _git_apply(tmp_path, "--check")
    assert checked.returncode == 0, checked.stderr
    applied = _git_apply(tmp_path)
    assert applied.returncode == 0, applied.stderr
    codemodded, _ = run_codemod(ReplicaDeviceCommand, UPSTREAM_SHAPE)
    assert target.read_text() == codemodded


def test_patch_applies_to_the_example_trees_copy(tmp_path: Path) -> None:
    """The example tree's model_deploy.py is upstream's design; -p3 maps the path."""
    target = tmp_path / "deployment" / "model_deploy.py"
    target.parent.mkdir()
    shutil.copyfile(EXAMPLE_COPY, target)
    applied = _git_apply(tmp_path, "-p3")
    assert applied.returncode == 0, applied.stderr
    codemodded, findings = run_codemod(ReplicaDeviceCommand, EXAMPLE_COPY.read_text())
    assert [f.kind for f in findings] == ["edit"]
    assert target.read_text() == codemodded
    assert FIXED_LINES in codemodded


@pytest.mark.parametrize("spelling", PATCHED_SPELLINGS)
def test_the_copy_fixed_its_own_way_places_each_clone_once(spelling: str) -> None:
    # What the report says: the tree's own fix puts the clone on its task, once.
    config = deployment_config(patched(spelling))(
        num_clones=2, replica_id=1, num_replicas=2, num_ps_tasks=1)
    assert config.clone_device(1) == "/job:worker/device:GPU:1/task:1"
