"""The tf.contrib homes TF1 Estimator trainers need: device-setter strategy, learn RunConfig.

``slim_ext.contrib.training.GreedyLoadBalancingStrategy`` / ``byte_size_load_fn``
place variables as tf.contrib.training's did (checked through
``replica_device_setter``), and ``slim_ext.contrib.learn.run_config.RunConfig``
reads TF_CONFIG by tf.contrib.learn's rules (the table of TF 1.x's own
run_config tests) while being a tf.estimator.RunConfig.
"""

import pytest

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def training(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib import training as training_module  # pylint: disable=g-import-not-at-top
  return training_module


@pytest.fixture(scope="module")
def learn(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib.learn import run_config  # pylint: disable=g-import-not-at-top
  return run_config


@pytest.mark.parametrize("resource", [False, True])
def test_byte_size_of_ref_and_resource_variables(tf, training, resource):
  with tf.Graph().as_default():
    variable = tf.get_variable("v", [3, 5], dtype=tf.float64, use_resource=resource)
    assert variable.op.type == ("VarHandleOp" if resource else "VariableV2")
    assert training.byte_size_load_fn(variable.op) == 3 * 5 * 8


def test_byte_size_needs_one_output_of_known_shape(tf, training):
  with tf.Graph().as_default():
    split = tf.split(tf.zeros([4]), 2)[0].op
    with pytest.raises(ValueError, match="must have a single output"):
      training.byte_size_load_fn(split)
    unknown = tf.placeholder(tf.float32, [None, 2]).op
    with pytest.raises(ValueError):
      training.byte_size_load_fn(unknown)


def test_greedy_strategy_picks_the_least_loaded_task(training):
  loads = {"a": 100, "b": 10, "c": 10, "d": 5}
  strategy = training.GreedyLoadBalancingStrategy(2, loads.__getitem__)
  assert [strategy(name) for name in ("a", "b", "c", "d")] == [0, 1, 1, 1]


def test_replica_device_setter_balances_variables_by_bytes(tf, training):
  cluster = tf.train.ClusterSpec({"ps": ["h:1", "h:2"], "worker": ["h:3"]})
  setter = tf.train.replica_device_setter(
      cluster=cluster, ps_strategy=training.GreedyLoadBalancingStrategy(
          2, training.byte_size_load_fn))
  with tf.Graph().as_default(), tf.device(setter):
    big = tf.get_variable("big", [100, 100])
    small = [tf.get_variable(f"small{i}", [10]) for i in range(3)]
    result = tf.matmul(big, big)
  assert big.device == "/job:ps/task:0"
  assert {v.device for v in small} == {"/job:ps/task:1"}
  assert result.device == "/job:worker"


_CLUSTER = {"ps": ["host1:1", "host2:2"], "worker": ["host3:3", "host4:4", "host5:5"]}
_WITH_MASTER = {"ps": ["host1:1", "host2:2"], "master": ["host3:3"],
                "worker": ["host4:4", "host5:5", "host6:6"]}


def test_defaults_without_tf_config(tf, learn, tf_config):
  del tf_config
  config = learn.RunConfig()
  assert (config.master, config.task_id, config.num_ps_replicas) == ("", 0, 0)
  assert config.task_type is None and config.is_chief
  assert config.evaluation_master == "" and config.environment == "local"
  assert config.save_checkpoints_secs == 600 and config.save_checkpoints_steps is None
  assert isinstance(config, tf.estimator.RunConfig)


def test_values_from_tf_config(learn, tf_config):
  tf_config({"cluster": _CLUSTER, "task": {"type": "worker", "index": 1}})
  config = learn.RunConfig()
  assert config.master == "grpc://host4:4"
  assert (config.task_id, config.num_ps_replicas, config.num_worker_replicas) == (1, 2, 3)
  assert config.cluster_spec.as_dict() == _CLUSTER
  assert config.task_type == "worker" and not config.is_chief
  assert list(config.session_config.device_filters) == ["/job:ps", "/job:worker/task:1"]


@pytest.mark.parametrize("task_type, index, filters", [
    ("master", 0, ["/job:ps", "/job:master"]),
    ("worker", 1, ["/job:ps", "/job:worker/task:1"]),
])
def test_a_given_session_config_gets_the_device_filters(tf, learn, tf_config, task_type,
                                                        index, filters):
  # cifar10_estimator passes its own ConfigProto (soft placement, threads): without
  # the filters its chief waited for workers not yet started, and a worker for a
  # chief that had finished.
  tf_config({"cluster": _WITH_MASTER, "environment": "cloud",
             "task": {"type": task_type, "index": index}})
  given = tf.ConfigProto(allow_soft_placement=True, intra_op_parallelism_threads=3)
  config = learn.RunConfig(session_config=given)
  assert list(config.session_config.device_filters) == filters
  assert config.session_config.allow_soft_placement
  assert config.session_config.intra_op_parallelism_threads == 3
  assert not given.device_filters  # the trainer's own proto is left as it was


@pytest.mark.parametrize("cluster, task, session_filters", [
    # The trainer's own filters are its choice.
    (_WITH_MASTER, {"type": "worker", "index": 0}, ["/job:ps"]),
    # Not distributed, or a task type with no filters (evaluator): nothing added.
    ({}, {}, []),
    ({**_WITH_MASTER, "evaluator": ["host7:7"]}, {"type": "evaluator", "index": 0}, []),
], ids=["own-filters", "local", "evaluator"])
def test_session_configs_left_as_given(tf, learn, tf_config, cluster, task,
                                       session_filters):
  tf_config({"cluster": cluster, "task": task, "environment": "cloud"})
  given = tf.ConfigProto(allow_soft_placement=True, device_filters=session_filters)
  assert learn.RunConfig(session_config=given).session_config == given


def test_explicit_masters_win(learn, tf_config):
  tf_config({"cluster": _CLUSTER, "task": {"type": "worker", "index": 2}})
  config = learn.RunConfig(master="localhost:0", evaluation_master="localhost:9991")
  assert (config.master, config.evaluation_master) == ("localhost:0", "localhost:9991")


def test_single_node_cluster_is_local(learn, tf_config):
  tf_config({"cluster": {"worker": ["host1:1"]}, "task": {"type": "worker", "index": 0}})
  assert learn.RunConfig().master == ""


@pytest.mark.parametrize("environment, task_type, chief", [
    ("cloud", "master", True),     # platforms write "cloud": the master is chief
    ("cloud", "worker", False),
    ("random", "worker", True),    # elsewhere TF1's legacy rule: worker 0
    ("random", "master", False),
])
def test_is_chief_by_environment(learn, tf_config, environment, task_type, chief):
  tf_config({"cluster": _WITH_MASTER, "environment": environment,
             "task": {"type": task_type, "index": 0}})
  assert learn.RunConfig().is_chief is chief


def test_estimator_uses_the_contrib_config(tf, learn, tf_config, tmp_path):
  del tf_config
  config = learn.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5,
                           tf_random_seed=3, num_cores=2)
  assert config.tf_config.inter_op_parallelism_threads == 2
  replaced = config.replace(save_summary_steps=7)
  assert replaced.save_summary_steps == 7 and replaced.tf_config == config.tf_config
  assert "save_summary_steps" not in config.uid() and "_model_dir=" in config.uid()
  assert config.uid() == replaced.uid()

  def model_fn(features, labels, mode):
    del features, labels
    step = tf.train.get_or_create_global_step()
    return tf.estimator.EstimatorSpec(mode, loss=tf.constant(1.0),
                                      train_op=tf.assign_add(step, 1))

  estimator = tf.estimator.Estimator(model_fn, config=config)
  estimator.train(lambda: (tf.zeros([1]), tf.zeros([1])), steps=5)
  assert tf.train.latest_checkpoint(str(tmp_path)).endswith("-5")


def test_cifar10_estimator_style_subclass_reads_the_white_list(learn, tf_config):
  del tf_config

  class RunConfig(learn.RunConfig):
    def uid(self, whitelist=None):
      return super().uid(whitelist or learn._DEFAULT_UID_WHITE_LIST)  # pylint: disable=protected-access

  assert RunConfig().uid() == learn.RunConfig().uid()
