"""slim_ext.model_deploy: device strings, clones, and the per-replica task fix."""
import numpy as np
import pytest

from tests import _procs

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def model_deploy(tf):
    from slim_ext import model_deploy as module

    return module


def _config(model_deploy, **kwargs):
    return model_deploy.DeploymentConfig(**kwargs)


# (DeploymentConfig kwargs, clone devices, inputs == optimizer device, ps device)
DEVICE_TABLE = [
    ({}, ["/device:GPU:0"], "/device:CPU:0", ""),
    ({"clone_on_cpu": True}, ["/device:CPU:0"], "/device:CPU:0", ""),
    ({"num_clones": 2}, ["/device:GPU:0", "/device:GPU:1"], "/device:CPU:0", ""),
    ({"num_clones": 2, "clone_on_cpu": True},
     ["/device:CPU:0", "/device:CPU:0"], "/device:CPU:0", ""),
    ({"num_replicas": 2, "replica_id": 0, "num_ps_tasks": 1},
     ["/job:worker/task:0/device:GPU:0"], "/job:worker/task:0/device:CPU:0",
     "/job:ps"),
    ({"num_replicas": 2, "replica_id": 1, "num_ps_tasks": 1},
     ["/job:worker/task:1/device:GPU:0"], "/job:worker/task:1/device:CPU:0",
     "/job:ps"),
    ({"num_replicas": 2, "replica_id": 1, "num_ps_tasks": 2, "clone_on_cpu": True},
     ["/job:worker/task:1/device:CPU:0"], "/job:worker/task:1/device:CPU:0",
     "/job:ps"),
    ({"num_replicas": 3, "replica_id": 2, "num_ps_tasks": 2, "num_clones": 2},
     ["/job:worker/task:2/device:GPU:0", "/job:worker/task:2/device:GPU:1"],
     "/job:worker/task:2/device:CPU:0", "/job:ps"),
    # A single process may still keep its variables on a ps job.
    ({"num_ps_tasks": 1, "clone_on_cpu": True},
     ["/job:worker/task:0/device:CPU:0"], "/job:worker/task:0/device:CPU:0",
     "/job:ps"),
    ({"num_replicas": 2, "replica_id": 1, "num_ps_tasks": 1,
      "worker_job_name": "trainer", "ps_job_name": "params"},
     ["/job:trainer/task:1/device:GPU:0"], "/job:trainer/task:1/device:CPU:0",
     "/job:params"),
]


@pytest.mark.parametrize(("kwargs", "clone_devices", "host_device", "ps_device"),
                         DEVICE_TABLE)
def test_device_strings(model_deploy, kwargs, clone_devices, host_device, ps_device):
    config = _config(model_deploy, **kwargs)
    assert [config.clone_device(i) for i in range(config.num_clones)] == clone_devices
    assert config.inputs_device() == host_device
    assert config.optimizer_device() == host_device
    assert config.ps_device == ps_device


@pytest.mark.parametrize(
    ("kwargs", "worker_device"),
    [({}, ""),
     ({"num_replicas": 2, "replica_id": 1, "num_ps_tasks": 1}, "/job:worker/task:1")],
)
def test_worker_device_names_the_replica_task(model_deploy, kwargs, worker_device):
    assert _config(model_deploy, **kwargs).worker_device == worker_device


def test_variables_device_without_ps_is_local_cpu(model_deploy):
    assert _config(model_deploy).variables_device() == "/device:CPU:0"


def test_clone_scopes(model_deploy):
    assert _config(model_deploy).clone_scope(0) == ""
    config = _config(model_deploy, num_clones=3)
    assert [config.clone_scope(i) for i in range(3)] == ["clone_0", "clone_1", "clone_2"]


def test_caching_device_reads_on_the_reading_op_device(model_deploy, tf):
    assert _config(model_deploy).caching_device() is None
    caching = _config(model_deploy, num_ps_tasks=1).caching_device()
    with tf.Graph().as_default():
        with tf.device("/job:worker/task:3"):
            op = tf.no_op()
    assert caching(op) == "/job:worker/task:3"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"num_replicas": 2}, "num_ps_tasks"),
     ({"replica_id": 2, "num_replicas": 2, "num_ps_tasks": 1}, "replica_id"),
     ({"num_ps_tasks": 1, "worker_job_name": ""}, "worker_job_name"),
     ({"num_ps_tasks": 1, "ps_job_name": ""}, "ps_job_name"),
     ({"num_clones": 0}, "num_clones")],
)
def test_invalid_config_names_the_argument(model_deploy, kwargs, message):
    with pytest.raises(ValueError, match=message):
        _config(model_deploy, **kwargs)


@pytest.mark.parametrize("method", ["clone_device", "clone_scope"])
def test_clone_index_out_of_range(model_deploy, method):
    with pytest.raises(ValueError, match="clone_index"):
        getattr(_config(model_deploy, num_clones=2), method)(2)


def _linear_model_fn(tf, slim):
    def model_fn(features, labels):
        logits = slim.fully_connected(
            features, 3, activation_fn=None, scope="logits",
            weights_regularizer=slim.l2_regularizer(0.1),
        )
        tf.losses.softmax_cross_entropy(labels, logits)
        return logits

    return model_fn


@pytest.mark.parametrize("use_resource", [True, False], ids=["resource", "ref"])
def test_variables_round_robin_over_ps_tasks_compute_on_replica(
    model_deploy, tf, slim, use_resource
):
    config = _config(model_deploy, num_replicas=2, replica_id=1, num_ps_tasks=2,
                     clone_on_cpu=True)

    def model_fn():
        with tf.variable_scope("net", use_resource=use_resource):
            weights = [slim.model_variable(f"w{i}", shape=[2]) for i in range(3)]
            return tf.add_n(weights, name="sum")

    with tf.Graph().as_default() as graph:
        clone = model_deploy.create_clones(config, model_fn)[0]
        variable_devices = [
            op.device for op in graph.get_operations()
            if op.type in ("VarHandleOp", "VariableV2")
        ]
    assert variable_devices == [
        "/job:ps/task:0/device:CPU:0",
        "/job:ps/task:1/device:CPU:0",
        "/job:ps/task:0/device:CPU:0",
    ]
    assert clone.outputs.op.device == "/job:worker/task:1/device:CPU:0"


def _batch(tf):
    features = tf.constant(np.random.RandomState(0).uniform(-1, 1, [8, 4]),
                           dtype=tf.float32)
    labels = tf.one_hot(tf.constant([0, 1, 2, 0, 1, 2, 0, 1]), 3)
    return features, labels


def test_deploy_two_cpu_clones_trains(model_deploy, tf, slim):
    config = _config(model_deploy, num_clones=2, clone_on_cpu=True)
    with tf.Graph().as_default():
        # The initial weights are drawn: a fixed seed makes the loss curve the same in
        # every run, whatever ran before in the process.
        tf.set_random_seed(0)
        with tf.device(config.inputs_device()):
            features, labels = _batch(tf)
        optimizer = tf.train.GradientDescentOptimizer(0.5)
        model = model_deploy.deploy(
            config, _linear_model_fn(tf, slim), [features, labels],
            optimizer=optimizer, summarize_gradients=True,
        )
        global_step = tf.train.get_global_step()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run(model.train_op) for _ in range(20)]
            assert sess.run(global_step) == 20
            assert sess.run(model.summary_op)
    assert [c.scope for c in model.clones] == ["clone_0/", "clone_1/"]
    assert [c.device for c in model.clones] == ["/device:CPU:0", "/device:CPU:0"]
    assert losses[-1] < 0.8 * losses[0]


def test_two_clones_on_the_same_batch_match_one_clone(model_deploy, tf, slim):
    """Clone losses are scaled by 1/num_clones, so summed gradients equal one
    clone's gradient, and regularization is counted once."""

    def loss_and_gradients(num_clones):
        config = _config(model_deploy, num_clones=num_clones, clone_on_cpu=True)
        with tf.Graph().as_default():
            tf.set_random_seed(7)
            features, labels = _batch(tf)
            clones = model_deploy.create_clones(
                config, _linear_model_fn(tf, slim), [features, labels]
            )
            total_loss, grads_and_vars = model_deploy.optimize_clones(
                clones, tf.train.GradientDescentOptimizer(0.1)
            )
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                return sess.run([total_loss, [g for g, _ in grads_and_vars]])

    one_loss, one_grads = loss_and_gradients(1)
    two_loss, two_grads = loss_and_gradients(2)
    np.testing.assert_allclose(two_loss, one_loss, rtol=1e-5)
    assert len(two_grads) == len(one_grads) == 2
    for two, one in zip(two_grads, one_grads):
        np.testing.assert_allclose(two, one, rtol=1e-5, atol=1e-6)


def test_deploy_without_optimizer_sums_losses(model_deploy, tf, slim):
    config = _config(model_deploy, clone_on_cpu=True)
    with tf.Graph().as_default():
        features, labels = _batch(tf)
        model = model_deploy.deploy(config, _linear_model_fn(tf, slim),
                                    [features, labels])
        expected = tf.add_n(tf.losses.get_losses()
                            + tf.losses.get_regularization_losses())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            total, want = sess.run([model.total_loss, expected])
    assert model.train_op is None
    assert total == pytest.approx(want)


def test_deploy_runs_first_clone_update_ops(model_deploy, tf, slim):
    config = _config(model_deploy, num_clones=2, clone_on_cpu=True)

    def model_fn(features, labels):
        counter = tf.get_variable("updates", initializer=0.0, trainable=False,
                                  use_resource=True)
        tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, counter.assign_add(1.0))
        return _linear_model_fn(tf, slim)(features, labels)

    with tf.Graph().as_default():
        features, labels = _batch(tf)
        model = model_deploy.deploy(config, model_fn, [features, labels],
                                    optimizer=tf.train.GradientDescentOptimizer(0.1))
        counter = tf.global_variables("updates")[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(model.train_op)
            assert sess.run(counter) == 3.0


def _in_process_cluster(tf):
    """1 ps + 2 worker servers inside this process (they live until it exits)."""
    ps_port, *worker_ports = _procs.free_ports(3)
    spec = tf.train.ClusterSpec({
        "ps": [f"{_procs.LOCALHOST}:{ps_port}"],
        "worker": [f"{_procs.LOCALHOST}:{p}" for p in worker_ports],
    })
    servers = [tf.distribute.Server(spec, job_name="ps", task_index=0)]
    servers += [tf.distribute.Server(spec, job_name="worker", task_index=k)
                for k in range(2)]
    return servers


@pytest.fixture(scope="module")
def in_process_cluster(tf):
    return _in_process_cluster(tf)


@pytest.mark.cluster
@pytest.mark.parametrize(("placement", "expected_task"),
                         [("fixed", 1), ("upstream", 0)])
def test_replica_compute_task_with_a_session_on_another_worker(
    model_deploy, tf, slim, in_process_cluster, placement, expected_task
):
    """Replica 1 runs a step through worker 0's server.

    Measured on TF 2.21: a device with the job but no task resolves to the task
    of the server the session talks to. With upstream's `/job:worker`, replica
    1's compute then runs on worker 0; with the fix it stays on task 1 whichever
    server the session uses (with each worker's own server as master, as in
    test_ps_cluster.py, both resolve to the replica's task).
    """
    from tests.slim_ext._ps_task import UpstreamPlacementConfig

    config_class = (model_deploy.DeploymentConfig if placement == "fixed"
                    else UpstreamPlacementConfig)
    config = config_class(num_replicas=2, replica_id=1, num_ps_tasks=1,
                          clone_on_cpu=True)
    _, worker0, _ = in_process_cluster
    with tf.Graph().as_default():
        with tf.device(config.inputs_device()):
            features, labels = _batch(tf)
        model = model_deploy.deploy(config, _linear_model_fn(tf, slim),
                                    [features, labels],
                                    optimizer=tf.train.GradientDescentOptimizer(0.1))
        run_metadata = tf.RunMetadata()
        session_config = tf.ConfigProto(operation_timeout_in_ms=30000)
        with tf.Session(worker0.target, config=session_config) as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(model.train_op,
                     options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                     run_metadata=run_metadata)
    # The forward matmul of a constant batch is folded away; the backward one
    # is real compute.
    matmul_devices = {
        dev_stats.device
        for dev_stats in run_metadata.step_stats.dev_stats
        for node in dev_stats.node_stats
        if "MatMul_grad/MatMul" in node.node_name
    }
    assert matmul_devices == {
        f"/job:worker/replica:0/task:{expected_task}/device:CPU:0"
    }
