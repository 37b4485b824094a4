"""replica_device: DeploymentConfig's worker device names the replica's task."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

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


def patched(spelling: str) -> str:
    """UPSTREAM_SHAPE with its clone_device fixed in ``spelling`` (a PATCHED_SPELLINGS key)."""
    fixed_end = _CLONE_DEVICE_END.replace(
        "    return device\n", PATCHED_SPELLINGS[spelling] + "    return device\n")
    assert UPSTREAM_SHAPE.count(_CLONE_DEVICE_END) == 1
    return UPSTREAM_SHAPE.replace(_CLONE_DEVICE_END, fixed_end)


def _with_clone_device_line(line: str) -> str:
    return UPSTREAM_SHAPE.replace(_CLONE_DEVICE_END, _CLONE_DEVICE_END.replace(
        "    return device\n", line + "    return device\n"))


# The line upstream's shape has, and the fix of it.
_UPSTREAM_LINE = "    self._worker_device = '/job:' + worker_job_name if num_ps_tasks > 0 else ''\n"

CASES = [
    Edit(
        "unconditional shape is fixed in place",
        before="""
            class DeploymentConfig:
                def __init__(self, replica_id=0, worker_job_name="worker"):
                    self._worker_device = "/job:" + worker_job_name
        """,
        after="""
            class DeploymentConfig:
                def __init__(self, replica_id=0, worker_job_name="worker"):
                    self._worker_device = "/job:%s/task:%d" % (worker_job_name, replica_id)
        """,
    ),
    Edit(
        "upstream's shape gets the wrapped fix",
        before=UPSTREAM_SHAPE,
        after=UPSTREAM_SHAPE.replace(_UPSTREAM_LINE, FIXED_LINES),
        findings=[edit(20, "DeploymentConfig._worker_device now carries /task:<replica_id>")],
    ),
    Edit(
        "short conditional stays on one line",
        before="""
            class DeploymentConfig:
              def __init__(self, replica_id, job, ps):
                self._worker_device = '/job:' + job if ps else ''
        """,
        after="""
            class DeploymentConfig:
              def __init__(self, replica_id, job, ps):
                self._worker_device = '/job:%s/task:%d' % (job, replica_id) if ps else ''
        """,
    ),
    # A task without the replica, the replica without a task: no per-replica fix.
    *[Edit(
        title,
        before=_with_clone_device_line(line),
        after=_with_clone_device_line(line).replace(_UPSTREAM_LINE, FIXED_LINES),
        findings=[edit(20)],
    ) for title, line in [
        ("another use of a task", "    logging.info('placing on /task:0')\n"),
        ("another use of the replica", "    self._last = self._replica_id\n"),
    ]],
    Reported(
        "an unrecognised worker device",
        """\
class DeploymentConfig(object):
  def __init__(self, replica_id=0, worker_job_name='worker'):
    self._worker_device = '/job:{}'.format(worker_job_name)
""",
        [attention(3, "has no task", fix="'/job:%s/task:%d' % (worker_job_name, replica_id)")],
    ),
    Reported(
        "no replica_id parameter",
        """\
class DeploymentConfig(object):
  def __init__(self, worker_job_name='worker'):
    self._worker_device = '/job:' + worker_job_name
""",
        [attention(3, "replica_id")],
    ),
    # A copy someone already fixed their own way (the platform's model_deploy): left,
    # and reported at its fix.
    *[Reported(
        f"a copy fixed its own way: {spelling}",
        patched(spelling),
        [attention(35, "DeploymentConfig already places each replica's clones on its worker "
                       f"task ({PATCHED_SPELLINGS[spelling].strip().splitlines()[-1].strip()}); "
                       "_worker_device was left as it is",
                   fix="nothing to do: the tree's own fix stays")],
    ) for spelling in PATCHED_SPELLINGS],
    # slimport's own fix: a second run over its output has nothing to do or report.
    Noop("already fixed", UPSTREAM_SHAPE.replace(_UPSTREAM_LINE, FIXED_LINES)),
    Noop(
        "already fixed on one line",
        """\
class DeploymentConfig:
  def __init__(self, worker_job_name, replica_id):
    self._worker_device = '/job:%s/task:%d' % (worker_job_name, replica_id)
""",
    ),
    Noop(
        "a DeploymentConfig of another shape",
        """\
@dataclasses.dataclass
class DeploymentConfig:
  learning_rate: float = 0.1
  devices: int = 1
""",
    ),
    Noop(
        "another class with the same line",
        """\
class Deployment:
  def __init__(self, worker_job_name):
    self._worker_device = '/job:' + worker_job_name
""",
    ),
    Noop(
        "not a module-level class",
        """\
def make():
  class DeploymentConfig:
    def __init__(self, worker_job_name, replica_id):
      self._worker_device = '/job:' + worker_job_name
  return DeploymentConfig
""",
    ),
]
