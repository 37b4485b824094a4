"""replica_device: DeploymentConfig's worker device names the replica's task.

Also checks that patches/model_deploy-per-replica-task.patch applies to upstream's
shape and makes the same edit as the codemod, byte for byte.
"""
from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import pytest
from libcst.codemod import CodemodTest

from slimport.codemods.replica_device import ReplicaDeviceCommand
from tests.slimport.codemods._helpers import run_codemod

ROOT = Path(__file__).resolve().parents[3]
PATCH = ROOT / "patches" / "model_deploy-per-replica-task.patch"
EXAMPLE_COPY = ROOT / "examples" / "slim_tf1" / "deployment" / "model_deploy.py"

# Upstream's DeploymentConfig, cut to what places ops: the lines around
# _worker_device are upstream's, so the patch's context must match them.
UPSTREAM_SHAPE = '''\
class DeploymentConfig(object):
  """Where clones, inputs, optimizer and variables of one replica go."""

  def __init__(self,
               num_clones=1,
               clone_on_cpu=False,
               replica_id=0,
               num_replicas=1,
               num_ps_tasks=0,
               worker_job_name='worker',
               ps_job_name='ps'):
    if replica_id >= num_replicas:
      raise ValueError('replica_id must be less than num_replicas')
    self._num_clones = num_clones
    self._clone_on_cpu = clone_on_cpu
    self._replica_id = replica_id
    self._num_replicas = num_replicas
    self._num_ps_tasks = num_ps_tasks
    self._ps_device = '/job:' + ps_job_name if num_ps_tasks > 0 else ''
    self._worker_device = '/job:' + worker_job_name if num_ps_tasks > 0 else ''

  @property
  def num_clones(self):
    return self._num_clones

  def clone_device(self, clone_index):
    device = ''
    if self._num_ps_tasks > 0:
      device += self._worker_device
    if self._clone_on_cpu:
      device += '/device:CPU:0'
    else:
      device += '/device:GPU:%d' % clone_index
    return device

  def optimizer_device(self):
    if self._num_ps_tasks > 0 or self._num_clones > 0:
      return self._worker_device + '/device:CPU:0'
    else:
      return ''

  def inputs_device(self):
    device = ''
    if self._num_ps_tasks > 0:
      device += self._worker_device
    device += '/device:CPU:0'
    return device
'''

FIXED_LINES = (
    "    self._worker_device = ('/job:%s/task:%d' % (worker_job_name, replica_id)\n"
    "                           if num_ps_tasks > 0 else '')\n"
)


run = functools.partial(run_codemod, ReplicaDeviceCommand)


def deployment_config(source: str) -> type:
    namespace: dict = {}
    exec(compile(source, "model_deploy.py", "exec"), namespace)
    return namespace["DeploymentConfig"]


class TestReplicaDevice(CodemodTest):
    TRANSFORM = ReplicaDeviceCommand

    def test_unconditional_shape_is_fixed_in_place(self) -> None:
        before = """
            class DeploymentConfig:
                def __init__(self, replica_id=0, worker_job_name="worker"):
                    self._worker_device = "/job:" + worker_job_name
        """
        after = """
            class DeploymentConfig:
                def __init__(self, replica_id=0, worker_job_name="worker"):
                    self._worker_device = "/job:%s/task:%d" % (worker_job_name, replica_id)
        """
        self.assertCodemod(before, after)

    def test_short_conditional_stays_on_one_line(self) -> None:
        before = """
            class DeploymentConfig:
              def __init__(self, replica_id, job, ps):
                self._worker_device = '/job:' + job if ps else ''
        """
        after = """
            class DeploymentConfig:
              def __init__(self, replica_id, job, ps):
                self._worker_device = '/job:%s/task:%d' % (job, replica_id) if ps else ''
        """
        self.assertCodemod(before, after)


def test_upstream_shape_gets_the_wrapped_fix() -> None:
    code, findings = run(UPSTREAM_SHAPE)
    old_line = "    self._worker_device = '/job:' + worker_job_name if num_ps_tasks > 0 else ''\n"
    assert code == UPSTREAM_SHAPE.replace(old_line, FIXED_LINES)
    [finding] = findings
    assert (finding.kind, finding.line) == ("edit", 20)


def test_fixed_devices_carry_the_replica_task() -> None:
    code, _ = run(UPSTREAM_SHAPE)
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


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(UPSTREAM_SHAPE.replace(
            "    self._worker_device = '/job:' + worker_job_name if num_ps_tasks > 0 else ''\n",
            FIXED_LINES,
        ), id="already-fixed"),
        pytest.param(
            """\
class DeploymentConfig:
  def __init__(self, worker_job_name, replica_id):
    self._worker_device = '/job:%s/task:%d' % (worker_job_name, replica_id)
""",
            id="already-fixed-one-line",
        ),
        pytest.param(
            """\
@dataclasses.dataclass
class DeploymentConfig:
  learning_rate: float = 0.1
  devices: int = 1
""",
            id="DeploymentConfig-of-another-shape",
        ),
        pytest.param(
            """\
class Deployment:
  def __init__(self, worker_job_name):
    self._worker_device = '/job:' + worker_job_name
""",
            id="other-class-with-the-same-line",
        ),
        pytest.param(
            """\
def make():
  class DeploymentConfig:
    def __init__(self, worker_job_name, replica_id):
      self._worker_device = '/job:' + worker_job_name
  return DeploymentConfig
""",
            id="not-a-module-level-class",
        ),
    ],
)
def test_noop(source: str) -> None:
    assert run(source) == (source, [])


def test_second_run_changes_nothing() -> None:
    once, _ = run(UPSTREAM_SHAPE)
    assert run(once) == (once, [])


def test_unrecognised_worker_device_needs_attention() -> None:
    source = """\
class DeploymentConfig(object):
  def __init__(self, replica_id=0, worker_job_name='worker'):
    self._worker_device = '/job:{}'.format(worker_job_name)
"""
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert (finding.kind, finding.line) == ("attention", 3)
    assert "'/job:%s/task:%d' % (worker_job_name, replica_id)" in finding.fix


def test_no_replica_id_parameter_needs_attention() -> None:
    source = """\
class DeploymentConfig(object):
  def __init__(self, worker_job_name='worker'):
    self._worker_device = '/job:' + worker_job_name
"""
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention"
    assert "replica_id" in finding.message


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
    codemodded, _ = run(UPSTREAM_SHAPE)
    assert target.read_text() == codemodded


def test_patch_applies_to_the_example_trees_copy(tmp_path: Path) -> None:
    """The example tree's model_deploy.py is upstream's design; -p3 maps the path."""
    target = tmp_path / "deployment" / "model_deploy.py"
    target.parent.mkdir()
    shutil.copyfile(EXAMPLE_COPY, target)
    applied = _git_apply(tmp_path, "-p3")
    assert applied.returncode == 0, applied.stderr
    codemodded, findings = run(EXAMPLE_COPY.read_text())
    assert [f.kind for f in findings] == ["edit"]
    assert target.read_text() == codemodded
    assert FIXED_LINES in codemodded


# --- a copy someone already fixed their own way (the platform's model_deploy)

# The end of upstream's clone_device, then each spelling of the same fix.
_CLONE_DEVICE_END = (
    "      device += '/device:GPU:%d' % clone_index\n"
    "    return device\n"
)
PATCHED_SPELLINGS = {
    "percent_guarded_by_num_ps_tasks": (
        "    if self._num_ps_tasks > 0:\n"
        "      device = '%s/task:%d' % (device, self._replica_id)\n"),
    "augmented_assignment": (
        "    if self._num_ps_tasks > 0:\n"
        "      device += '/task:%d' % self._replica_id\n"),
    "f_string": (
        "    if self._num_ps_tasks > 0:\n"
        "      device = f'{device}/task:{self._replica_id}'\n"),
    "format": (
        "    if self._num_ps_tasks > 0:\n"
        "      device = '{}/task:{}'.format(device, self._replica_id)\n"),
    "returned": (
        "    if self._num_ps_tasks > 0:\n"
        "      return device + '/task:' + str(self._replica_id)\n"),
}


def _patched(spelling: str) -> str:
    fixed_end = _CLONE_DEVICE_END.replace(
        "    return device\n", PATCHED_SPELLINGS[spelling] + "    return device\n")
    assert UPSTREAM_SHAPE.count(_CLONE_DEVICE_END) == 1
    return UPSTREAM_SHAPE.replace(_CLONE_DEVICE_END, fixed_end)


@pytest.mark.parametrize("spelling", PATCHED_SPELLINGS)
def test_a_copy_fixed_its_own_way_is_left_and_reported(spelling: str) -> None:
    source = _patched(spelling)
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention"
    assert finding.message.startswith(
        "DeploymentConfig already places each replica's clones on its worker task (")
    assert finding.message.endswith("); _worker_device was left as it is")
    assert "/task:" in source.splitlines()[finding.line - 1]
    assert finding.fix == "nothing to do: the tree's own fix stays"


@pytest.mark.parametrize("spelling", PATCHED_SPELLINGS)
def test_the_copy_fixed_its_own_way_places_each_clone_once(spelling: str) -> None:
    # What the report says: the tree's own fix puts the clone on its task, once.
    config = deployment_config(_patched(spelling))(
        num_clones=2, replica_id=1, num_replicas=2, num_ps_tasks=1)
    assert config.clone_device(1) == "/job:worker/device:GPU:1/task:1"


def test_our_own_fix_is_left_silently() -> None:
    # A second run over slimport's own output: nothing to do, nothing to report.
    once, _ = run(UPSTREAM_SHAPE)
    assert run(once) == (once, [])


@pytest.mark.parametrize("line", [
    # A task without the replica, the replica without a task: no per-replica fix.
    "    logging.info('placing on /task:0')\n",
    "    self._last = self._replica_id\n",
])
def test_other_task_or_replica_uses_are_no_fix(line: str) -> None:
    source = UPSTREAM_SHAPE.replace(_CLONE_DEVICE_END,
                                    _CLONE_DEVICE_END.replace("    return device\n",
                                                              line + "    return device\n"))
    code, findings = run(source)
    assert [f.kind for f in findings] == ["edit"]
    assert FIXED_LINES in code
