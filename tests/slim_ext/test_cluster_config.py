"""slim_ext.cluster_config: every TF_CONFIG / CLUSTER_SPEC / flag spelling, every bad input.

The fixtures in tf_configs/ are the values orchestrators write (Kubeflow TFJob,
AI Platform, Vertex AI); see tf_configs/README.md.
"""
import json
import pathlib
import subprocess
import sys

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
import pytest

from slim_ext import cluster_config
from slim_ext.cluster_config import ClusterConfig

pytestmark = pytest.mark.tf  # importing slim_ext applies its TensorFlow shims

M, W0, W1, P0, P1, E = ("m:2220", "w0:2221", "w1:2222", "p0:2223", "p1:2224",
                        "e:2225")


def _tf_config(cluster_def, task_type, index, **extra):
  return {"cluster": cluster_def, "task": {"type": task_type, "index": index},
          **extra}


PLATFORM = {"master": [M], "worker": [W0, W1], "ps": [P0, P1]}
TF2 = {"chief": [M], "worker": [W0, W1], "ps": [P0, P1]}
TF1_WORKERS = [M, W0, W1]


# (cluster, task type, index) -> (TF1 task, is_chief, TF2 task type)
@pytest.mark.parametrize(("cluster_def", "task_type", "index", "tf1_task",
                          "is_chief", "tf2_type"), [
    (PLATFORM, "master", 0, ("worker", 0), True, "chief"),
    (PLATFORM, "worker", 0, ("worker", 1), False, "worker"),
    (PLATFORM, "worker", 1, ("worker", 2), False, "worker"),
    (PLATFORM, "ps", 1, ("ps", 1), False, "ps"),
    (TF2, "chief", 0, ("worker", 0), True, "chief"),
    (TF2, "worker", 1, ("worker", 2), False, "worker"),
    (TF2, "ps", 0, ("ps", 0), False, "ps"),
    ({"worker": [W0, W1], "ps": [P0]}, "worker", 0, ("worker", 0), True,
     "worker"),
    ({"worker": [W0, W1], "ps": [P0]}, "worker", 1, ("worker", 1), False,
     "worker"),
])
def test_roles_in_tf1_and_tf2_views(cluster_def, task_type, index, tf1_task,
                                    is_chief, tf2_type):
  config = ClusterConfig.from_tf_config(json.dumps(
      _tf_config(cluster_def, task_type, index)))
  assert (config.task_type, config.task_index) == (task_type, index)
  assert config.tf1_task() == tf1_task
  assert config.is_chief is is_chief
  tf2 = config.to_tf2_tf_config()
  assert tf2["task"] == {"type": tf2_type, "index": index}
  assert "master" not in tf2["cluster"]


def test_master_is_worker_zero_in_tf1_view():
  config = ClusterConfig.from_tf_config(_tf_config(PLATFORM, "ps", 0))
  assert config.tf1_cluster_dict() == {"worker": TF1_WORKERS,
                                       "ps": [P0, P1]}
  assert (config.num_workers, config.num_ps) == (3, 2)


def test_tf2_view_renames_master_and_keeps_environment():
  config = ClusterConfig.from_tf_config(
      _tf_config({"master": [M], "worker": [W0], "evaluator": [E]}, "worker",
                 0, environment="cloud"))
  assert config.to_tf2_tf_config() == {
      "cluster": {"chief": [M], "worker": [W0], "evaluator": [E]},
      "task": {"type": "worker", "index": 0}, "environment": "cloud"}
  assert config.environment == "cloud"
  assert config.tf1_cluster_dict() == {"worker": [M, W0]}


@pytest.mark.parametrize("cluster_def", [
    {"chief": [M], "worker": [W0], "evaluator": [E]},
    {"chief": [M], "worker": [W0]},  # evaluator left out of the cluster
])
def test_evaluator(cluster_def):
  config = ClusterConfig.from_tf_config(_tf_config(cluster_def, "evaluator", 0))
  assert not config.is_chief
  assert config.num_workers == 2
  for view in (config.tf1_task, config.tf1_address, config.device_filters):
    with pytest.raises(ValueError, match="evaluator task has no place"):
      view()


def test_empty_job_lists_mean_no_such_job():
  config = ClusterConfig.from_tf_config(
      _tf_config({"master": [M], "worker": [W0], "ps": []}, "master", 0))
  assert config.num_ps == 0
  assert "ps" not in config.tf1_cluster_dict()


def test_ipv6_and_hostname_addresses():
  config = ClusterConfig.from_tf_config(
      _tf_config({"worker": ["[::1]:2222", "job-worker-1.svc:2222"]},
                 "worker", 1))
  assert config.num_workers == 2


@pytest.mark.parametrize(("tf_config", "message"), [
    ("{not json", "TF_CONFIG: not valid JSON"),
    ("[1, 2]", "TF_CONFIG: expected a JSON object, got [1, 2]"),
    ('"worker"', "TF_CONFIG: expected a JSON object"),
    (_tf_config({}, "worker", 0), "TF_CONFIG.cluster: no training tasks"),
    (_tf_config({"evaluator": [E]}, "evaluator", 0),
     "TF_CONFIG.cluster: no training tasks"),
    (_tf_config({"worker": []}, "worker", 0),
     "TF_CONFIG.cluster: no training tasks"),
    (_tf_config([W0], "worker", 0), "TF_CONFIG.cluster: expected an object"),
    ({"task": {"type": "worker", "index": 0}}, "TF_CONFIG.cluster: missing"),
    ({"cluster": {"worker": [W0, W1]}}, "TF_CONFIG.task: expected an object"),
    ({"cluster": {"worker": [W0, W1]}, "task": {"index": 0}},
     "TF_CONFIG.task.type: missing"),
    ({"cluster": {"worker": [W0, W1]}, "task": {"type": "worker"}},
     "TF_CONFIG.task.index: missing"),
    (_tf_config({"worker": [W0], "trainer": [W1]}, "worker", 0),
     "TF_CONFIG.cluster: unknown job 'trainer'"),
    (_tf_config({"master": [M], "chief": [W0]}, "master", 0),
     "TF_CONFIG.cluster: has both 'master' and 'chief'"),
    (_tf_config({"chief": [M, W0]}, "chief", 0),
     "TF_CONFIG.cluster.chief: 2 tasks; a cluster has at most one chief"),
    (_tf_config({"worker": [W0, W1]}, "worker", 3),
     "TF_CONFIG.task.index: 3 is out of range for job 'worker' with 2 tasks"),
    (_tf_config({"worker": [W0, W1]}, "worker", -1),
     "TF_CONFIG.task.index: -1 is out of range"),
    (_tf_config({"worker": [W0, W1]}, "worker", "1"),
     "TF_CONFIG.task.index: expected an integer, got '1'"),
    (_tf_config({"worker": [W0, W1]}, "worker", True),
     "TF_CONFIG.task.index: expected an integer, got True"),
    (_tf_config({"worker": [W0, W1]}, "evaluator", 1),
     "TF_CONFIG.task.index: 1 is out of range for job 'evaluator' with 1 task"),
    (_tf_config({"worker": [W0, W1]}, "ps", 0),
     "TF_CONFIG.task.type: 'ps' is not a job of TF_CONFIG.cluster"),
    (_tf_config({"worker": [W0, W1]}, "boss", 0),
     "TF_CONFIG.task.type: 'boss' is not one of"),
    (_tf_config({"worker": W0}, "worker", 0),
     "TF_CONFIG.cluster.worker: expected a list"),
    (_tf_config({"worker": [W0, "w1"]}, "worker", 0),
     "TF_CONFIG.cluster.worker[1]: 'w1' is not \"host:port\""),
    (_tf_config({"worker": [W0, "w1:http"]}, "worker", 0),
     "TF_CONFIG.cluster.worker[1]: 'w1:http' is not"),
    (_tf_config({"worker": [W0, ":2222"]}, "worker", 0),
     "TF_CONFIG.cluster.worker[1]: ':2222' is not"),
    (_tf_config({"worker": [W0, "w1:70000"]}, "worker", 0),
     "TF_CONFIG.cluster.worker[1]: 'w1:70000' is not"),
    (_tf_config({"worker": [W0, 2222]}, "worker", 0),
     "TF_CONFIG.cluster.worker[1]: expected a \"host:port\" string"),
    (_tf_config({"worker": [W0], "ps": [W0]}, "worker", 0),
     "TF_CONFIG.cluster.ps[0]: w0:2221 is also TF_CONFIG.cluster.worker[0]"),
    (_tf_config({"ps": [P0], "evaluator": [E]}, "ps", 0),
     "TF_CONFIG.cluster: ps tasks but no workers"),
    (_tf_config(PLATFORM, "worker", 0, environment=3),
     "TF_CONFIG.environment: expected a string"),
    (_tf_config({"workerpool0": [M], "worker": [W0]}, "worker", 0),
     "TF_CONFIG.cluster: unknown job 'worker'; jobs are workerpool0, "
     "workerpool1, workerpool2, workerpool3 (worker pools and role names do "
     "not mix)."),
    (_tf_config({"workerpool0": [M], "workerpool1": [W0]}, "worker", 0),
     "TF_CONFIG.task.type: 'worker' is not one of workerpool0"),
    (_tf_config({"workerpool0": [M, W0]}, "workerpool0", 0),
     "TF_CONFIG.cluster.workerpool0: 2 tasks; a cluster has at most one "
     "chief."),
    (_tf_config({"workerpool0": [M], "workerpool1": [W0]}, "workerpool2", 0),
     "TF_CONFIG.task.type: 'workerpool2' is not a job of TF_CONFIG.cluster "
     "(jobs: workerpool0, workerpool1)."),
    ({"sparseCluster": {"worker": {"1": W1}, "ps": [P0]},
      "task": {"type": "worker", "index": 1}},
     "TF_CONFIG.sparseCluster: this is the TF_CONFIG of a Kubeflow TFJob with "
     "enableDynamicWorker: true"),
])
def test_invalid_tf_config_names_the_field(tf_config, message):
  with pytest.raises(ValueError) as raised:
    ClusterConfig.from_tf_config(tf_config)
  assert message in str(raised.value)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.floats()
    | st.sampled_from(["worker", "ps", "master", "chief", "evaluator",
                       "workerpool0", "workerpool1", "workerpool3", "type",
                       "index", "h:1", "h:99999", ""]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["cluster", "task", "type", "index", "worker", "ps",
                         "master", "chief", "evaluator", "environment",
                         "workerpool0", "workerpool2", "sparseCluster", "job",
                         "x"]),
        children, max_size=4),
    max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(_JSON)
def test_arbitrary_json_gives_config_or_value_error(value):
  try:
    config = ClusterConfig.from_tf_config(json.dumps(value))
  except ValueError as error:
    assert str(error).startswith("TF_CONFIG")
  else:
    assert config.task_type in cluster_config.KNOWN_JOBS
    config.to_tf2_tf_config()


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({
    "cluster": st.dictionaries(
        st.sampled_from(["worker", "ps", "master", "chief", "evaluator"]),
        st.lists(st.sampled_from(["a:1", "b:2", "c:3", "d:4"]), max_size=3),
        max_size=4),
    "task": st.fixed_dictionaries({
        "type": st.sampled_from(["worker", "ps", "master", "chief",
                                 "evaluator"]),
        "index": st.integers(-1, 3)}),
}))
def test_near_valid_tf_config_keeps_tf1_invariants(tf_config):
  try:
    config = ClusterConfig.from_tf_config(tf_config)
  except ValueError:
    return
  if config.task_type == "evaluator":
    return
  job, index = config.tf1_task()
  tf1 = config.tf1_cluster_dict()
  own_address = config.cluster[config.task_type][config.task_index]
  assert tf1[job][index] == own_address
  assert set(tf1) <= {"worker", "ps"}


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, None),
    ({"TF_CONFIG": ""}, None),
    ({"TF_CONFIG": "  "}, None),
    ({"TF_CONFIG": "{}"}, None),
    ({"TF_CONFIG": json.dumps(_tf_config({"master": [M]}, "master", 0))},
     None),
    ({"TF_CONFIG": json.dumps(_tf_config({"chief": [M], "evaluator": [E]},
                                         "chief", 0))}, None),
    ({"TF_CONFIG": json.dumps(_tf_config({"chief": [M], "evaluator": [E]},
                                         "evaluator", 0))}, ("evaluator", 0)),
    ({"TF_CONFIG": json.dumps(_tf_config(PLATFORM, "worker", 1))},
     ("worker", 1)),
    ({"TF_CONFIG": json.dumps(_tf_config({"worker": [W0], "ps": [P0]},
                                         "ps", 0))}, ("ps", 0)),
    # Vertex AI's CLUSTER_SPEC, read when TF_CONFIG is not set.
    ({"CLUSTER_SPEC": json.dumps(_tf_config(
        {"workerpool0": [M], "workerpool1": [W0]}, "workerpool1", 0))},
     ("worker", 0)),
    ({"TF_CONFIG": " ", "CLUSTER_SPEC": json.dumps(_tf_config(
        {"workerpool0": [M], "workerpool2": [P0]}, "workerpool2", 0))},
     ("ps", 0)),
    ({"TF_CONFIG": json.dumps(_tf_config(PLATFORM, "master", 0)),
      "CLUSTER_SPEC": "not read"}, ("master", 0)),
    ({"CLUSTER_SPEC": "{}"}, None),
])
def test_from_env(environ, expected):
  config = ClusterConfig.from_env(environ)
  if expected is None:
    assert config is None
  else:
    assert (config.task_type, config.task_index) == expected
    assert config.source == next(name for name in ("TF_CONFIG", "CLUSTER_SPEC")
                                 if environ.get(name, "").strip())


def test_from_env_reports_invalid_tf_config():
  with pytest.raises(ValueError, match=r"TF_CONFIG\.task\.index: 5"):
    ClusterConfig.from_env({"TF_CONFIG": json.dumps(_tf_config(PLATFORM, "ps", 5))})
  with pytest.raises(ValueError, match="TF_CONFIG: not valid JSON"):
    ClusterConfig.from_env({"TF_CONFIG": "master"})
  with pytest.raises(ValueError, match=r"^CLUSTER_SPEC\.task\.index: 2 is out"):
    ClusterConfig.from_env({"CLUSTER_SPEC": json.dumps(_tf_config(
        {"workerpool0": [M], "workerpool1": [W0]}, "workerpool1", 2))})


@pytest.mark.parametrize(("args", "expected"), [
    (("", "", "", 0), None),
    ((None, None, "", 0), None),
    (("", W0, "worker", 0), None),  # one worker, no ps: local training
    ((P0, f"{W0},{W1}", "worker", 1), (("worker", 1), False, 2, 1)),
    ((P0, f"{W0}, {W1}", "worker", 0), (("worker", 0), True, 2, 1)),
    ((f"{P0},{P1}", W0, "ps", 1), (("ps", 1), False, 1, 2)),
    (([P0], [W0, W1], "ps", 0), (("ps", 0), False, 2, 1)),
    (("", f"{W0},{W1}", "worker", 1), (("worker", 1), False, 2, 0)),
])
def test_from_moxing_flags(args, expected):
  config = ClusterConfig.from_moxing_flags(*args)
  if expected is None:
    assert config is None
    return
  assert (config.tf1_task(), config.is_chief, config.num_workers,
          config.num_ps) == expected
  assert config.source == "flags"
  assert config.to_tf2_tf_config()["task"]["type"] == args[2]


@pytest.mark.parametrize(("args", "message"), [
    ((P0, "", "ps", 0), "--worker_hosts: empty"),
    ((P0, W0, "chief", 0), "--job_name: 'chief' is not 'ps' or 'worker'"),
    ((P0, W0, "", 0), "--job_name: '' is not 'ps' or 'worker'"),
    ((P0, f"{W0},{W1}", "worker", 2),
     "--task_index: 2 is out of range for job 'worker' with 2 tasks"),
    ((P0, f"{W0},w1", "worker", 0), "--worker_hosts[1]: 'w1' is not"),
    ((f"{P0},p1:x", W0, "ps", 0), "--ps_hosts[1]: 'p1:x' is not"),
    ((W0, W0, "ps", 0), "--worker_hosts[0]: w0:2221 is also --ps_hosts[0]"),
])
def test_invalid_moxing_flags_name_the_flag(args, message):
  with pytest.raises(ValueError) as raised:
    ClusterConfig.from_moxing_flags(*args)
  assert message in str(raised.value)




# --- recorded TF_CONFIGs of real orchestrators (tf_configs/README.md) -----------

FIXTURES = pathlib.Path(__file__).with_name("tf_configs")
KF_CHIEF, KF_W0, KF_W1, KF_PS = (f"slim-{name}.kubeflow.svc:2222" for name in
                                 ("chief-0", "worker-0", "worker-1", "ps-0"))
OLD_MASTER, OLD_W = ("mnist-master-0.default.svc.cluster.local:2222",
                     "mnist-worker-{}.default.svc.cluster.local:2222")
VERTEX = "cmle-training-workerpool{}-4c1f0a9b2d-{}:2222"


# file -> (variable, role, index, TF1 task, is_chief, TF1 workers, ps tasks)
@pytest.mark.parametrize(("fixture", "variable", "role", "index", "tf1_task",
                          "is_chief", "tf1_workers", "num_ps"), [
    ("kubeflow_tfjob_chief.json", "TF_CONFIG", "chief", 0, ("worker", 0),
     True, [KF_CHIEF, KF_W0, KF_W1], 1),
    ("kubeflow_tfjob_worker1.json", "TF_CONFIG", "worker", 1, ("worker", 2),
     False, [KF_CHIEF, KF_W0, KF_W1], 1),
    ("kubeflow_tfjob_ps0.json", "TF_CONFIG", "ps", 0, ("ps", 0), False,
     [KF_CHIEF, KF_W0, KF_W1], 1),
    ("kubeflow_tfjob_evaluator.json", "TF_CONFIG", "evaluator", 0, None,
     False, [KF_CHIEF, KF_W0, KF_W1], 1),
    ("tf_operator_master_custom_domain.json", "TF_CONFIG", "master", 0,
     ("worker", 0), True, [OLD_MASTER, *(OLD_W.format(i) for i in range(3))],
     2),
    ("tf_operator_worker2_custom_domain.json", "TF_CONFIG", "worker", 2,
     ("worker", 3), False,
     [OLD_MASTER, *(OLD_W.format(i) for i in range(3))], 2),
    ("tf_operator_evaluator_not_in_cluster.json", "TF_CONFIG", "evaluator", 0,
     None, False, [OLD_MASTER, *(OLD_W.format(i) for i in range(3))], 2),
    ("ai_platform_worker1_trial.json", "TF_CONFIG", "worker", 1,
     ("worker", 2), False,
     [f"cmle-training-{job}-e3a84d2ee4-{i}:2222"
      for job, i in (("master", 0), ("worker", 0), ("worker", 1))], 1),
    ("vertex_ai_tf_config_chief.json", "TF_CONFIG", "chief", 0,
     ("worker", 0), True,
     [VERTEX.format(0, 0), VERTEX.format(1, 0), VERTEX.format(1, 1)], 1),
    ("vertex_ai_cluster_spec_ps0.json", "CLUSTER_SPEC", "ps", 0, ("ps", 0),
     False, [VERTEX.format(0, 0), VERTEX.format(1, 0), VERTEX.format(1, 1)],
     1),
    ("vertex_ai_cluster_spec_evaluator.json", "CLUSTER_SPEC", "evaluator", 0,
     None, False,
     [VERTEX.format(0, 0), VERTEX.format(1, 0), VERTEX.format(1, 1)], 1),
])
def test_orchestrator_tf_configs(fixture, variable, role, index, tf1_task,
                                 is_chief, tf1_workers, num_ps):
  config = ClusterConfig.from_env(
      {variable: (FIXTURES / fixture).read_text()})
  assert (config.source, config.task_type, config.task_index) == (
      variable, role, index)
  assert config.environment == "cloud"
  assert config.is_chief is is_chief
  assert config.tf1_cluster_dict()[cluster_config.WORKER] == tf1_workers
  assert (config.num_workers, config.num_ps) == (len(tf1_workers), num_ps)
  assert "evaluator" not in config.tf1_cluster_dict()
  if tf1_task is None:  # the evaluator: no server, no training session
    with pytest.raises(ValueError, match="slim_ext.evaluator"):
      config.tf1_task()
    return
  assert config.tf1_task() == tf1_task
  job, task = tf1_task
  assert config.tf1_address() == config.tf1_cluster_dict()[job][task]
  if job == "worker":
    assert config.device_filters() == ["/job:ps", f"/job:worker/task:{task}"]
  tf2_task = config.to_tf2_tf_config()["task"]
  assert tf2_task == {"type": "chief" if is_chief else role, "index": index}


def test_kubeflow_dynamic_worker_tf_config_is_refused_with_the_fix():
  text = (FIXTURES / "kubeflow_tfjob_dynamic_worker1.json").read_text()
  with pytest.raises(ValueError, match=r"^TF_CONFIG\.sparseCluster: .*"
                     r"set enableDynamicWorker: false\.$"):
    ClusterConfig.from_env({"TF_CONFIG": text})


def test_worker_pools_map_onto_roles_in_both_views():
  config = ClusterConfig.from_env({"CLUSTER_SPEC": (
      FIXTURES / "vertex_ai_cluster_spec_ps0.json").read_text()})
  assert set(config.cluster) == {"chief", "worker", "ps", "evaluator"}
  assert config.chief_job == "chief"
  assert config.to_tf2_tf_config()["cluster"]["ps"] == [VERTEX.format(2, 0)]


@pytest.mark.parametrize(("cluster_def", "task_type", "index", "filters"), [
    (PLATFORM, "master", 0, ["/job:ps", "/job:worker/task:0"]),
    (PLATFORM, "worker", 1, ["/job:ps", "/job:worker/task:2"]),
    ({"worker": [W0, W1], "ps": [P0]}, "worker", 1,
     ["/job:ps", "/job:worker/task:1"]),
])
def test_device_filters_name_the_ps_tasks_and_the_worker_itself(
    cluster_def, task_type, index, filters):
  config = ClusterConfig.from_tf_config(_tf_config(cluster_def, task_type,
                                                   index))
  assert config.device_filters() == filters


def test_device_filters_are_for_workers_only():
  with pytest.raises(ValueError, match="device filters are for workers; "
                     "this task is ps 1"):
    ClusterConfig.from_tf_config(_tf_config(PLATFORM, "ps", 1)).device_filters()


def test_module_imports_no_tensorflow():
  # Loaded on its own (not through the slim_ext package, whose shims import
  # TensorFlow), the parser needs only the standard library.
  code = (
      "import importlib.util, sys\n"
      f"spec = importlib.util.spec_from_file_location('cc', {cluster_config.__file__!r})\n"
      "module = sys.modules['cc'] = importlib.util.module_from_spec(spec)\n"
      "spec.loader.exec_module(module)\n"
      "assert module.ClusterConfig.from_moxing_flags('p:1', 'w:2', 'ps', 0)\n"
      "print(sorted(m for m in sys.modules if m.split('.')[0] in "
      "('tensorflow', 'absl', 'tf_slim', 'slimport', 'slim_ext')))\n")
  result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=60, check=True)
  assert result.stdout.strip() == "[]", result.stdout + result.stderr
