"""tensorflow.python.distribute.estimator_training: RunConfig's coordinator set-up.

On TF >= 2.16 the module is slim_ext's re-implementation; on TF 2.15 (this file
runs in the regression-tf215 env too) it is TensorFlow's own. The same table
holds for both: that is the proof that the re-implementation behaves as TF
2.15's did. The coordinator runs themselves are in test_clusters.py.
"""
import collections
import json

import pytest

pytestmark = pytest.mark.tf

# tf.contrib.distribute.DistributeConfig, what experimental_distribute took.
DistributeConfig = collections.namedtuple(
    "DistributeConfig", ["train_distribute", "eval_distribute", "remote_cluster"],
    defaults=(None, None, None))
CHIEF_AND_WORKER = {"chief": ["127.0.0.1:2001"], "worker": ["127.0.0.1:2002"]}


@pytest.fixture(scope="module")
def training(tf):  # pylint: disable=unused-argument
  from tensorflow.python.distribute import estimator_training  # pylint: disable=g-import-not-at-top
  return estimator_training


@pytest.fixture()
def run_config(tf, monkeypatch):
  """Builds tf.estimator.RunConfig under a TF_CONFIG."""

  def build(tf_config=None, **kwargs):
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config or {}))
    return tf.estimator.RunConfig(**kwargs)

  return build


@pytest.fixture(scope="module")
def mirrored(tf):
  return tf.distribute.MirroredStrategy(["/cpu:0"])


def _mode(config):
  return config._distribute_coordinator_mode  # pylint: disable=protected-access


@pytest.mark.parametrize("cluster, task, expected_mode", [
    (CHIEF_AND_WORKER, {"type": "worker", "index": 0}, "independent_worker"),
    (CHIEF_AND_WORKER, {"type": "chief", "index": 0}, "independent_worker"),
    ({**CHIEF_AND_WORKER, "ps": ["127.0.0.1:2003"]}, {"type": "ps", "index": 0},
     "independent_worker"),
    # A `master` job is TF1's between-graph form: no coordinator.
    ({"master": ["127.0.0.1:2001"], "worker": ["127.0.0.1:2002"]},
     {"type": "master", "index": 0}, None),
    (None, None, None),
])
def test_coordinator_mode_from_tf_config(training, run_config, mirrored, cluster, task,
                                         expected_mode):
  tf_config = {"cluster": cluster, "task": task} if cluster else None
  config = run_config(tf_config, train_distribute=mirrored)
  assert _mode(config) == expected_mode
  assert training.should_run_distribute_coordinator(config) is bool(expected_mode)


def test_no_strategy_means_no_coordinator(training, run_config):
  config = run_config({"cluster": CHIEF_AND_WORKER, "task": {"type": "chief", "index": 0}},
                      experimental_max_worker_delay_secs=1)
  assert training.should_run_distribute_coordinator(config) is False


def test_between_graph_master_keeps_its_tf1_settings(run_config, mirrored):
  cluster = {"master": ["127.0.0.1:2001"], "worker": ["127.0.0.1:2002"],
             "ps": ["127.0.0.1:2003"]}
  config = run_config({"cluster": cluster, "task": {"type": "worker", "index": 0}},
                      train_distribute=mirrored)
  assert (config.task_type, config.task_id, config.is_chief) == ("worker", 0, False)
  assert config.master == "grpc://127.0.0.1:2002"
  assert (config.num_ps_replicas, config.num_worker_replicas) == (1, 2)
  assert list(config.session_config.device_filters) == ["/job:ps", "/job:worker/task:0"]


def test_independent_worker_config_keeps_the_whole_cluster(run_config, mirrored):
  config = run_config({"cluster": CHIEF_AND_WORKER, "task": {"type": "worker", "index": 0}},
                      train_distribute=mirrored)
  assert config.cluster_spec.as_dict() == CHIEF_AND_WORKER
  # No between-graph device filters: the coordinator configures the sessions.
  assert config.session_config is None


def test_experimental_distribute_strategies_are_taken(run_config, mirrored):
  config = run_config(experimental_distribute=DistributeConfig(
      train_distribute=mirrored, eval_distribute=mirrored))
  assert config.train_distribute is mirrored and config.eval_distribute is mirrored
  with pytest.raises(ValueError, match="Either `train_distribute` or"):
    run_config(train_distribute=mirrored,
               experimental_distribute=DistributeConfig(train_distribute=mirrored))


def test_remote_cluster_is_a_standalone_client(tf, run_config, mirrored):
  remote = tf.train.ClusterSpec(CHIEF_AND_WORKER)
  config = run_config(train_distribute=mirrored,
                      experimental_distribute=DistributeConfig(remote_cluster=remote))
  assert _mode(config) == "standalone_client"
  assert config.cluster_spec is remote
  with pytest.raises(ValueError, match="Cannot set both"):
    run_config({"cluster": CHIEF_AND_WORKER, "task": {"type": "chief", "index": 0}},
               train_distribute=mirrored,
               experimental_distribute=DistributeConfig(remote_cluster=remote))


class _Context:
  """The fields of a distribute-coordinator worker context the config reads."""

  def __init__(self, cluster, task_type, task_id, is_chief):
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    self.cluster_spec = tf.train.ClusterSpec(cluster) if cluster else None
    self.task_type, self.task_id, self.is_chief = task_type, task_id, is_chief
    self.master_target = f"grpc://{cluster[task_type][task_id]}" if cluster else ""


_FULL = {"chief": ["c:1"], "worker": ["w:1", "w:2"], "evaluator": ["e:1"],
         "ps": ["p:1", "p:2"]}


@pytest.mark.parametrize("task_type, task_id, global_id, workers, ps", [
    ("chief", 0, 0, 3, 2),
    ("worker", 1, 3, 3, 2),   # after chief (1) and evaluator (1): 2 + 1
    ("ps", 1, 5, 3, 2),       # ps last
])
def test_worker_context_sets_the_task(training, run_config, task_type, task_id, global_id,
                                      workers, ps):
  config = run_config()
  context = _Context(_FULL, task_type, task_id, task_type == "chief")
  training._init_run_config_from_worker_context(config, context)  # pylint: disable=protected-access
  assert (config.task_type, config.task_id, config.is_chief) == (
      task_type, task_id, task_type == "chief")
  assert config.global_id_in_cluster == global_id
  assert (config.num_worker_replicas, config.num_ps_replicas) == (workers, ps)
  assert config.master == config.evaluation_master == context.master_target


def test_evaluator_context_sees_no_cluster(training, run_config):
  config = run_config()
  training._init_run_config_from_worker_context(  # pylint: disable=protected-access
      config, _Context(_FULL, "evaluator", 0, False))
  assert not config.cluster_spec.as_dict()
  assert config.global_id_in_cluster is None
  assert (config.num_worker_replicas, config.num_ps_replicas) == (0, 0)


def test_local_context_is_one_worker(training, run_config):
  config = run_config()
  training._init_run_config_from_worker_context(  # pylint: disable=protected-access
      config, _Context(None, None, None, True))
  assert (config.global_id_in_cluster, config.num_worker_replicas,
          config.num_ps_replicas) == (0, 1, 0)


def test_estimator_train_needs_a_standalone_client(tf, training, run_config, mirrored):
  estimator = tf.estimator.Estimator(
      lambda features, labels, mode: None,
      config=run_config({"cluster": CHIEF_AND_WORKER, "task": {"type": "chief", "index": 0}},
                        train_distribute=mirrored))
  with pytest.raises(ValueError, match="Only `STANDALONE_CLIENT` mode is supported"):
    training.estimator_train(estimator, lambda *args: None, [])
