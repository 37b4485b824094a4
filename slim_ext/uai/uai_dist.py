"""``uaitrain.arch.tensorflow.uai_dist``: the platform's TF_CONFIG, for own cluster code.

A platform job's tasks find their cluster in TF_CONFIG, with the chief as
``master``::

  {"cluster": {"master": ["h0:2222"], "worker": ["h1:2222"],
               "ps": ["h2:2222"]},
   "task": {"type": "worker", "index": 0}, "environment": "cloud"}

Scripts read it with the SDK's ``UAITensorFlowDistRunConfigParser`` and build
a between-graph cluster of jobs ``worker`` (the master first) and ``ps``.
Here TF_CONFIG is parsed and validated by ``slim_ext.cluster_config``, so a
bad one fails with the same ``ValueError`` naming the field as under
``slim_ext.cluster.bootstrap``.

Where the SDK failed, this parser does what the rest of slim_ext does: a
``chief`` is read like ``master``, a cluster with no master or chief makes
worker 0 the chief and keeps worker indexes as they are, a cluster without
ps tasks has an empty ps list.
"""
import os

from slim_ext import cluster_config

ENV_VAR = "TF_CONFIG"
_LOADED_ATTRIBUTES = ("task_type", "task_id", "ps_list", "wk_list", "_cluster")


class UAITensorFlowDistRunConfigParser(object):
  """Reads this task's place in the platform cluster from TF_CONFIG.

  Attributes:
    env: TF_CONFIG's text, or None when it is not set.
    task_type: this task's job in TF_CONFIG ("master", "worker", "ps");
      set by ``load_cluster_config``, like the next three.
    task_id: this task's index in the between-graph cluster: a worker's
      TF_CONFIG index + 1 (the master is worker 0), else the index.
    ps_list: the ps tasks' "host:port" addresses.
    wk_list: the workers' addresses, the master first.
  """

  def __init__(self):
    self.env = os.environ.get(ENV_VAR)

  def __getattr__(self, name):
    if name in _LOADED_ATTRIBUTES:
      raise AttributeError(
          f"UAITensorFlowDistRunConfigParser has no {name} until "
          "load_cluster_config() is called.")
    raise AttributeError(name)

  def is_dist(self):
    """Whether this is a distributed job: TF_CONFIG is set (and not blank)."""
    return bool(self.env and self.env.strip())

  def load_cluster_config(self):
    """Parses TF_CONFIG into this task's place in the between-graph cluster.

    Raises:
      ValueError: TF_CONFIG is not valid JSON, or a field is missing or
        invalid (the message names it), or the task is an evaluator, which
        is not part of the training cluster.
    """
    config = cluster_config.ClusterConfig.from_tf_config(self.env or "",
                                                         source=ENV_VAR)
    view = config.tf1_cluster_dict()
    self.task_type = config.task_type
    self.task_id = config.tf1_task()[1]
    self.ps_list = view.get(cluster_config.PS, [])
    self.wk_list = view[cluster_config.WORKER]
    self._cluster = config

  def is_chief(self):
    """Whether this task is the chief (the ``master``)."""
    return self._cluster.is_chief

  def is_ps(self):
    """Whether this task is a parameter server."""
    return self.task_type == cluster_config.PS

  def num_ps(self):
    """Number of ps tasks."""
    return len(self.ps_list)

  def num_worker(self):
    """Number of workers, the master included."""
    return len(self.wk_list)

  def get_ps_list(self):
    """The ps tasks' addresses."""
    return self.ps_list

  def get_worker_list(self):
    """The workers' addresses, the master first."""
    return self.wk_list

  def get_task_id(self):
    """This task's index in its between-graph job (see ``task_id``)."""
    return self.task_id
