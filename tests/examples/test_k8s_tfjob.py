"""examples/k8s/tfjob.yaml: every replica gets the right role, server and devices.

Reads the manifest, builds the TF_CONFIG Kubeflow's operator gives each replica
(tests/examples/_tfjob.py, from the operator's code), and checks what slim_ext
makes of it: the role, the between-graph task and the server it starts, the
flags bootstrap sets, the device strings model_deploy then uses and the device
filters of its sessions. tests/regression/test_k8s_tfjob.py runs the same
replicas as processes on this machine.
"""
from __future__ import annotations

import pytest

from slim_facts import platform_flags
from tests.examples import _tfjob

pytestmark = pytest.mark.tf

NAMESPACE = "research"
NUM_WORKERS = 3  # the chief and two workers


@pytest.fixture(scope="module")
def tf():
    import slim_ext  # noqa: F401  (applies its shims before tf_slim loads)
    import tensorflow.compat.v1 as tf1
    return tf1


@pytest.fixture(scope="module")
def manifest():
    return _tfjob.load_manifest()


@pytest.fixture(scope="module")
def tfjob(manifest):
    return manifest["TFJob"]


def _host(replica_type: str, index: int) -> str:
    return f"slim-lenet-{replica_type.lower()}-{index}.{NAMESPACE}.svc:2222"


TRAINING_HOSTS = [_host("Chief", 0), _host("Worker", 0), _host("Worker", 1)]

# (replica type, index) -> (role, TF1 task or None, is_chief)
ROLES = {
    ("Chief", 0): ("chief", ("worker", 0), True),
    ("Worker", 0): ("worker", ("worker", 1), False),
    ("Worker", 1): ("worker", ("worker", 2), False),
    ("PS", 0): ("ps", ("ps", 0), False),
    ("Evaluator", 0): ("evaluator", None, False),
}


def test_the_job_has_the_replicas_the_example_promises(tfjob):
    assert sorted(_tfjob.replicas(tfjob)) == sorted(ROLES)
    assert tfjob["apiVersion"] == "kubeflow.org/v1"
    assert tfjob["spec"]["runPolicy"]["cleanPodPolicy"] == "None"


@pytest.mark.parametrize("evaluator_in_cluster", [True, False],
                         ids=["training-operator", "tf-operator"])
@pytest.mark.parametrize("replica", sorted(ROLES), ids="{0[0]}-{0[1]}".format)
def test_every_replica_maps_onto_its_role_server_and_devices(
        tf, tfjob, replica, evaluator_in_cluster):
    from slim_ext import cluster, model_deploy

    tf_config = _tfjob.tf_configs(tfjob, _tfjob.service_address(tfjob, NAMESPACE),
                                  evaluator_in_cluster)[replica]
    config = cluster.from_env({"TF_CONFIG": tf_config})
    role, tf1_task, is_chief = ROLES[replica]
    assert (config.task_type, config.task_index) == (role, replica[1])
    assert config.environment == "cloud"
    assert config.is_chief is is_chief
    assert (config.num_workers, config.num_ps) == (NUM_WORKERS, 1)
    assert config.tf1_cluster_dict() == {"worker": TRAINING_HOSTS,
                                         "ps": [_host("PS", 0)]}
    if tf1_task is None:
        # The evaluator starts no server and is in no training session.
        with pytest.raises(ValueError, match="slim_ext.evaluator"):
            config.server_def()
        return

    # The server: this replica's own service address, in the TF1 cluster.
    server_def = config.server_def()
    assert (server_def.job_name, server_def.task_index) == tf1_task
    assert config.tf1_address() == _host(*replica)
    assert {job.name: [job.tasks[i] for i in sorted(job.tasks)]
            for job in server_def.cluster.job} == config.tf1_cluster_dict()
    if role == "ps":
        return

    # The flags bootstrap sets, and the devices model_deploy derives from them
    # (--num_gpus 0 in the manifest: clones on the CPU).
    task = tf1_task[1]
    deploy = model_deploy.DeploymentConfig(
        num_clones=1, clone_on_cpu=True, replica_id=task,
        num_replicas=config.num_workers, num_ps_tasks=config.num_ps)
    own_cpu = f"/job:worker/task:{task}/device:CPU:0"
    assert deploy.clone_device(0) == own_cpu
    assert deploy.inputs_device() == deploy.optimizer_device() == own_cpu
    with tf.Graph().as_default():
        with tf.device(deploy.variables_device()):
            variable = tf.Variable(0.0, name="weight")
    device = tf.DeviceSpec.from_string(variable.device)
    assert (device.job, device.task) == ("ps", 0)
    assert list(config.session_config().device_filters) == [
        "/job:ps", f"/job:worker/task:{task}"]


def test_training_replicas_get_platform_flags_only(tfjob):
    for replica_type in ("Chief", "Worker", "PS"):
        argv = _tfjob.command(tfjob["spec"]["tfReplicaSpecs"][replica_type])
        assert argv[:2] == ["python", "/app/ported/train_image_classifier.py"]
        flags = [arg[2:] for arg in argv[2:] if arg.startswith("--")]
        assert flags and set(flags) <= set(platform_flags.PLATFORM_FLAGS), flags


def test_the_evaluator_loops_over_the_shared_checkpoints(tfjob):
    specs = tfjob["spec"]["tfReplicaSpecs"]
    argv = _tfjob.command(specs["Evaluator"])
    script = argv.index("/app/ported/eval_image_classifier.py")
    assert argv[:3] == ["python", "-m", "slim_ext.evaluator"]
    script_flags = dict(zip(argv[script + 1::2], argv[script + 2::2]))
    assert {flag[2:] for flag in script_flags} <= set(platform_flags.PLATFORM_FLAGS)
    train_flags = _tfjob.command(specs["Chief"])
    train_flags = dict(zip(train_flags[2::2], train_flags[3::2]))
    # It reads the checkpoints the chief writes, and stops at the same step.
    assert script_flags["--output_dir"] == train_flags["--output_dir"]
    assert script_flags["--max_step"] == train_flags["--max_step"]


def test_every_replica_mounts_the_shared_volume_at_the_output_dir(manifest):
    tfjob = manifest["TFJob"]
    claim = manifest["PersistentVolumeClaim"]
    assert "ReadWriteMany" in claim["spec"]["accessModes"]
    for replica_type, spec in tfjob["spec"]["tfReplicaSpecs"].items():
        pod = spec["template"]["spec"]
        volumes = {v["name"]: v["persistentVolumeClaim"]["claimName"]
                   for v in pod["volumes"]}
        mounts = {m["mountPath"]: volumes[m["name"]]
                  for m in _tfjob.container(spec)["volumeMounts"]}
        argv = _tfjob.command(spec)
        output_dir = argv[argv.index("--output_dir") + 1]
        mount = next(path for path in mounts if output_dir.startswith(path + "/"))
        assert mounts[mount] == claim["metadata"]["name"], replica_type
