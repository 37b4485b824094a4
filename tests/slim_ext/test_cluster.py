"""Tests for slim_ext.cluster: servers, sessions, strategies, task life-cycle.

The parsing of every TF_CONFIG / flag spelling is tested in
test_cluster_config.py; here the TensorFlow side and bootstrap.
"""
import json
import os
import pathlib
import signal
import socket
import sys
import threading
import time

from absl import flags
import pytest

from slim_ext import cluster
from tests._procs import LOCALHOST
from tests._procs import ProcessSet
from tests._procs import free_ports

pytestmark = pytest.mark.tf  # importing slim_ext applies its TensorFlow shims

M, W0, W1, P0, P1 = ("m:2220", "w0:2221", "w1:2222", "p0:2223", "p1:2224")
PLATFORM = {"master": [M], "worker": [W0, W1], "ps": [P0, P1]}


def _tf_config(cluster_def, task_type, index, **extra):
  return {"cluster": cluster_def, "task": {"type": task_type, "index": index},
          **extra}


def test_parsers_give_the_tensorflow_class():
  for config in (cluster.parse_tf_config(_tf_config(PLATFORM, "ps", 0)),
                 cluster.from_env({"TF_CONFIG": json.dumps(
                     _tf_config(PLATFORM, "ps", 0))}),
                 cluster.from_moxing_flags(P0, [W0, W1], "ps", 0)):
    assert type(config) is cluster.ClusterConfig  # pylint: disable=unidiomatic-typecheck


def test_tf1_cluster_spec_has_the_master_as_worker_zero():
  spec = cluster.parse_tf_config(_tf_config(PLATFORM, "ps", 0)
                                 ).tf1_cluster_spec()
  assert sorted(spec.jobs) == ["ps", "worker"]
  assert spec.task_address("worker", 0) == M
  assert spec.task_address("worker", 2) == W1


@pytest.mark.parametrize(("task_type", "index", "tf2", "job", "task",
                          "jobs"), [
    ("master", 0, False, "worker", 0, {"worker": [M, W0, W1], "ps": [P0, P1]}),
    ("worker", 1, False, "worker", 2, {"worker": [M, W0, W1], "ps": [P0, P1]}),
    ("ps", 1, False, "ps", 1, {"worker": [M, W0, W1], "ps": [P0, P1]}),
    ("master", 0, True, "chief", 0,
     {"chief": [M], "worker": [W0, W1], "ps": [P0, P1]}),
    ("worker", 1, True, "worker", 1,
     {"chief": [M], "worker": [W0, W1], "ps": [P0, P1]}),
])
def test_server_def_names_this_task_in_its_view(task_type, index, tf2, job,
                                                task, jobs):
  server_def = cluster.parse_tf_config(
      _tf_config(PLATFORM, task_type, index)).server_def(tf2=tf2)
  assert (server_def.job_name, server_def.task_index) == (job, task)
  assert server_def.protocol == "grpc"
  assert {job_def.name: [job_def.tasks[i] for i in sorted(job_def.tasks)]
          for job_def in server_def.cluster.job} == jobs


def test_session_config_carries_the_device_filters():
  config = cluster.parse_tf_config(_tf_config(PLATFORM, "worker", 1))
  assert list(config.session_config().device_filters) == [
      "/job:ps", "/job:worker/task:2"]
  with pytest.raises(ValueError, match="device filters are for workers"):
    cluster.parse_tf_config(_tf_config(PLATFORM, "ps", 0)).session_config()


def test_import_defines_moxing_flags_unless_defined():
  flag_values = flags.FlagValues()
  flags.DEFINE_integer("job_name", 7, "script's own", flag_values=flag_values)
  cluster.define_flags(flag_values)
  assert flag_values["job_name"].default == 7
  for name in ("ps_hosts", "worker_hosts", "task_index"):
    assert name in flag_values
  for name in ("ps_hosts", "worker_hosts", "job_name", "task_index"):
    assert name in flags.FLAGS


def _slim_flags(argv=(), training=True):
  """A fresh FlagValues with slim's flags, as train_image_classifier (or, not
  training, eval_image_classifier) defines them."""
  flag_values = flags.FlagValues()
  flags.DEFINE_string("master", "", "", flag_values=flag_values)
  if training:
    flags.DEFINE_integer("task", 0, "", flag_values=flag_values)
    flags.DEFINE_integer("worker_replicas", 1, "", flag_values=flag_values)
    flags.DEFINE_integer("num_ps_tasks", 0, "", flag_values=flag_values)
    flags.DEFINE_string("train_dir", "", "", flag_values=flag_values)
    flags.DEFINE_integer("max_number_of_steps", None, "",
                         flag_values=flag_values)
  cluster.define_flags(flag_values)
  flag_values(["train.py", *argv])
  return flag_values


def test_bootstrap_without_cluster_changes_nothing(monkeypatch):
  monkeypatch.delenv("TF_CONFIG", raising=False)
  monkeypatch.delenv("CLUSTER_SPEC", raising=False)
  flag_values = _slim_flags()
  before = flag_values.flag_values_dict()
  assert cluster.bootstrap(flag_values) is None
  assert flag_values.flag_values_dict() == before


@pytest.mark.parametrize("tf_config, argv, chief", [
    (None, [], True),  # alone
    (_tf_config(PLATFORM, "master", 0), [], True),
    (_tf_config(PLATFORM, "worker", 0), [], False),  # the master is the chief
    (_tf_config({"worker": [W0, W1], "ps": [P0]}, "worker", 0), [], True),
    (None, [f"--ps_hosts={P0}", f"--worker_hosts={W0},{W1}", "--job_name=worker",
            "--task_index=1"], False),
    (None, [f"--ps_hosts={P0}", f"--worker_hosts={W0},{W1}", "--job_name=worker",
            "--task_index=0"], True),
])
def test_is_chief_reads_the_cluster_and_starts_nothing(monkeypatch, tf_config, argv, chief):
  monkeypatch.delenv("CLUSTER_SPEC", raising=False)
  if tf_config is None:
    monkeypatch.delenv("TF_CONFIG", raising=False)
  else:
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
  flag_values = _slim_flags(argv)
  before = flag_values.flag_values_dict()
  assert cluster.is_chief(flag_values) is chief
  assert flag_values.flag_values_dict() == before


def test_bootstrap_evaluator_starts_nothing_for_an_eval_script(monkeypatch):
  monkeypatch.setenv("TF_CONFIG", json.dumps(
      _tf_config({"master": [M], "worker": [W0]}, "evaluator", 0)))
  flag_values = _slim_flags(training=False)
  before = flag_values.flag_values_dict()
  config = cluster.bootstrap(flag_values)
  assert config.task_type == "evaluator"
  assert flag_values.flag_values_dict() == before


def test_bootstrap_refuses_a_training_script_on_the_evaluator(monkeypatch):
  monkeypatch.setenv("TF_CONFIG", json.dumps(
      _tf_config({"master": [M], "worker": [W0]}, "evaluator", 0)))
  with pytest.raises(ValueError, match=r"^TF_CONFIG: this task is the "
                     r"evaluator, but this script trains .* python -m "
                     r"slim_ext\.evaluator eval_image_classifier\.py"):
    cluster.bootstrap(_slim_flags())


def test_bootstrap_rejects_invalid_flags(monkeypatch):
  monkeypatch.delenv("TF_CONFIG", raising=False)
  monkeypatch.delenv("CLUSTER_SPEC", raising=False)
  flag_values = _slim_flags(["--ps_hosts", P0, "--worker_hosts", W0,
                             "--job_name", "worker", "--task_index", "4"])
  with pytest.raises(ValueError, match="--task_index: 4 is out of range"):
    cluster.bootstrap(flag_values)


def test_strategy_refuses_on_serving_tasks_of_a_ps_cluster():
  config = cluster.parse_tf_config(_tf_config(PLATFORM, "ps", 0))
  with pytest.raises(ValueError, match="only serves"):
    config.strategy()
  no_chief = cluster.from_moxing_flags(P0, f"{W0},{W1}", "worker", 0)
  with pytest.raises(ValueError, match="needs a chief"):
    no_chief.strategy()


def test_cluster_resolver_has_tf2_view():
  config = cluster.parse_tf_config(_tf_config(PLATFORM, "master", 0))
  resolver = config.cluster_resolver()
  assert (resolver.task_type, resolver.task_id) == ("chief", 0)
  assert resolver.cluster_spec().as_dict() == {
      "chief": [M], "worker": [W0, W1], "ps": [P0, P1]}


def test_strategy_for_a_local_job_is_mirrored():
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  strategy = cluster.strategy_for(None)
  assert isinstance(strategy, tf.distribute.MirroredStrategy)
  assert strategy.num_replicas_in_sync == 1


def test_evaluator_strategy_is_the_default_one():
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  config = cluster.parse_tf_config(_tf_config(
      {"chief": [M], "worker": [W0]}, "evaluator", 0))
  assert cluster.strategy_for(config) is tf.distribute.get_strategy()


# --- is the job done? -----------------------------------------------------------


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory, tf):
  """Directories holding one checkpoint each: global step 5, 20, none."""
  root = tmp_path_factory.mktemp("checkpoints")
  for name, step in (("at5", 5), ("at20", 20)):
    with tf.Graph().as_default():
      global_step = tf.Variable(step, dtype=tf.int64, name="global_step")
      with tf.Session() as session:
        session.run(global_step.initializer)
        tf.train.Saver().save(session, str(root / name / "model.ckpt"),
                              global_step=step)
  with tf.Graph().as_default():
    weight = tf.Variable(1.0, name="weight")
    with tf.Session() as session:
      session.run(weight.initializer)
      tf.train.Saver().save(session, str(root / "no_step" / "model.ckpt"))
  return root


@pytest.mark.parametrize(("directory", "target", "expected"), [
    ("at20", 20, 20),
    ("at20", 10, 20),
    ("at20", 21, None),
    ("at5", 20, None),
    ("at20", None, None),   # no target: never done
    ("at20", 0, None),
    ("empty", 20, None),    # no checkpoint yet
    ("no_step", 20, None),  # a checkpoint without a global step
    ("", 20, None),         # no --train_dir
])
def test_finished_step(checkpoints, directory, target, expected):
  argv = ["--train_dir", str(checkpoints / directory) if directory else ""]
  if target is not None:
    argv += ["--max_number_of_steps", str(target)]
  assert cluster.finished_step(_slim_flags(argv)) == expected


def test_finished_step_needs_the_slim_flags(checkpoints):
  assert cluster.finished_step(_slim_flags(training=False)) is None


# --- the ps life-cycle ----------------------------------------------------------


def _listen(port):
  sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
  sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
  sock.bind((LOCALHOST, port))
  sock.listen()
  return sock


def _ps_of_two_workers():
  """The ps of a 2-worker cluster on free ports; the workers' ports."""
  ports = free_ports(3)
  config = cluster.from_moxing_flags(
      f"{LOCALHOST}:{ports[2]}", [f"{LOCALHOST}:{port}" for port in ports[:2]],
      "ps", 0)
  return config, ports[:2]


def test_ps_serves_until_every_worker_came_and_went():
  config, ports = _ps_of_two_workers()
  first = _listen(ports[0])
  events = []

  def workers_come_and_go():
    time.sleep(1.0)
    first.close()  # worker 0 gone before worker 1 shows up: keep serving
    events.append("w0 gone")
    second = _listen(ports[1])
    time.sleep(1.5)
    second.close()
    events.append("w1 gone")

  thread = threading.Thread(target=workers_come_and_go)
  start = time.monotonic()
  thread.start()
  try:
    why = cluster.serve_until_workers_exit(
        config, poll_secs=0.2, idle_exit_secs=0.5, job_done=lambda: False)
  finally:
    thread.join()
  assert why == "workers exited"
  assert events == ["w0 gone", "w1 gone"]
  assert 2.5 <= time.monotonic() - start < 10


def test_ps_stops_once_the_job_is_done_though_a_worker_never_came():
  config, ports = _ps_of_two_workers()
  chief = _listen(ports[0])
  asked = []

  def job_done():
    asked.append(time.monotonic())
    return len(asked) >= 3  # the chief's final checkpoint shows up

  timer = threading.Timer(1.0, chief.close)
  timer.start()
  start = time.monotonic()
  try:
    why = cluster.serve_until_workers_exit(config, poll_secs=0.2,
                                           idle_exit_secs=0.5,
                                           job_done=job_done)
  finally:
    timer.cancel()
    chief.close()
  assert why == "job done"
  # Asked only once every worker had been down for idle_exit_secs.
  assert asked[0] - start >= 1.5
  assert time.monotonic() - start < 10


def test_ps_stops_on_sigterm_while_a_worker_never_came():
  worker, ps = (f"{LOCALHOST}:{port}" for port in free_ports(2))
  config = cluster.from_moxing_flags(ps, worker + f",{LOCALHOST}:1", "ps", 0)
  before = signal.getsignal(signal.SIGTERM)
  timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGTERM))
  timer.start()
  try:
    assert cluster.serve_until_workers_exit(
        config, poll_secs=0.2, job_done=lambda: False) == "SIGTERM"
  finally:
    timer.cancel()
  assert signal.getsignal(signal.SIGTERM) is before


# --- live tasks (separate processes on 127.0.0.1) -------------------------------

_BOOTSTRAP_TASK = pathlib.Path(__file__).with_name("_bootstrap_task.py")
_LIVE_TIMEOUT_SECS = 150


def _wait_for_log(proc, text, timeout):
  deadline = time.monotonic() + timeout
  while time.monotonic() < deadline:
    if text in proc.log():
      return
    assert proc.returncode() is None, proc.log()[-3000:]
    time.sleep(0.2)
  raise TimeoutError(f"{proc.name} never logged {text!r}:\n{proc.log()[-3000:]}")


def _last_json_line(text):
  return json.loads([line for line in text.splitlines()
                     if line.startswith("{")][-1])


def _start_task(procs, tmp_path, cluster_def, task_type, *args, env=None):
  return procs.start_python(
      [str(_BOOTSTRAP_TASK), *args], tmp_path / f"{task_type}.log",
      name=task_type,
      env={"PYTHONPATH": ":".join(sys.path), **(env or {}),
           "TF_CONFIG": json.dumps(_tf_config(cluster_def, task_type, 0))})


@pytest.mark.cluster
def test_bootstrap_live_master_worker_and_ps(tmp_path):
  master, worker, ps = (f"{LOCALHOST}:{port}" for port in free_ports(3))
  cluster_def = {"master": [master], "worker": [worker], "ps": [ps]}
  env = {"SLIM_EXT_RECOVERY_WAIT_SECS": "1"}
  with ProcessSet() as procs:
    ps_proc = _start_task(procs, tmp_path, cluster_def, "ps", env=env)
    workers = [_start_task(procs, tmp_path, cluster_def, task_type, env=env)
               for task_type in ("master", "worker")]
    deadline = time.monotonic() + _LIVE_TIMEOUT_SECS
    assert procs.wait_all(workers, deadline) == {"master": 0, "worker": 0}
    # The ps stops by itself once both workers are gone.
    assert ps_proc.wait(max(0.0, deadline - time.monotonic())) == 0
    assert "stops: workers exited" in ps_proc.log()
    for proc, (task, address) in zip(workers, [(0, master), (1, worker)]):
      report = _last_json_line(proc.log())
      assert report["tf1_task"] == ["worker", task]
      assert report["master"] == f"grpc://{address}"
      assert (report["task"], report["task_index"]) == (task, task)
      assert (report["worker_replicas"], report["num_ps_tasks"]) == (2, 1)
      assert report["recovery_wait_secs"] == 1.0
      assert report["device_filters"] == ["/job:ps", f"/job:worker/task:{task}"]
      assert report["values"] == [1, 2, 3]
      assert report["devices"] == [
          "/job:ps/replica:0/task:0/device:CPU:0",
          f"/job:worker/replica:0/task:{task}/device:CPU:0"]


@pytest.mark.cluster
def test_bootstrap_ps_from_flags_stops_on_sigterm(tmp_path):
  ps, absent_worker = (f"{LOCALHOST}:{port}" for port in free_ports(2))
  with ProcessSet() as procs:
    ps_proc = procs.start_python(
        [str(_BOOTSTRAP_TASK), "--ps_hosts", ps, "--worker_hosts",
         f"{absent_worker},{LOCALHOST}:1", "--job_name", "ps",
         "--task_index", "0"],
        tmp_path / "ps.log", name="ps", env={"TF_CONFIG": "",
                                             "PYTHONPATH": ":".join(sys.path)})
    _wait_for_log(ps_proc, "until its 2 workers exit", _LIVE_TIMEOUT_SECS)
    ps_proc.popen.send_signal(signal.SIGTERM)
    assert ps_proc.wait(15) == 0
    assert "ps 0 stops: SIGTERM" in ps_proc.log()


@pytest.mark.cluster
def test_master_trains_while_its_other_worker_never_comes(tmp_path):
  # The session's device filters: the master needs only the ps, not the
  # worker that never starts here.
  master, absent_worker, ps = (f"{LOCALHOST}:{port}"
                               for port in free_ports(3))
  cluster_def = {"master": [master], "worker": [absent_worker], "ps": [ps]}
  with ProcessSet() as procs:
    ps_proc, master_proc = (_start_task(procs, tmp_path, cluster_def, task)
                            for task in ("ps", "master"))
    assert master_proc.wait(_LIVE_TIMEOUT_SECS) == 0
    assert _last_json_line(master_proc.log())["values"] == [1, 2, 3]
    # Its other worker never came, so the ps still serves.
    assert ps_proc.returncode() is None


@pytest.mark.cluster
def test_unmodified_learning_train_needs_only_the_ps_and_itself(tmp_path):
  # slim.learning.train as research/slim calls it, with no session_config:
  # bootstrap's device filters reach its Supervisor, so the master trains to
  # the target although its other worker never starts; then, with the job
  # done, the ps stops by itself.
  master, absent_worker, ps = (f"{LOCALHOST}:{port}"
                               for port in free_ports(3))
  cluster_def = {"master": [master], "worker": [absent_worker], "ps": [ps]}
  train = ["--train_with", "learning", "--train_dir", str(tmp_path / "train"),
           "--max_number_of_steps", "5"]
  with ProcessSet() as procs:
    ps_proc, master_proc = (
        _start_task(procs, tmp_path, cluster_def, task, *train)
        for task in ("ps", "master"))
    deadline = time.monotonic() + _LIVE_TIMEOUT_SECS
    assert procs.wait_all([master_proc, ps_proc], deadline) == {
        "master": 0, "ps": 0}, master_proc.log()[-3000:]
  report = _last_json_line(master_proc.log())
  assert report["final_step"] == 5
  assert report["device_filters"] == ["/job:ps", "/job:worker/task:0"]
  assert "ps 0 stops: job done." in ps_proc.log()


@pytest.mark.cluster
def test_tasks_of_a_finished_job_exit_at_once(tmp_path):
  # Tasks (re)started after the chief reached the target: nothing to wait
  # for, nothing to serve, and no server is started.
  master, worker, ps = (f"{LOCALHOST}:{port}" for port in free_ports(3))
  cluster_def = {"master": [master], "worker": [worker], "ps": [ps]}
  import tensorflow.compat.v1 as tf  # pylint: disable=g-import-not-at-top
  with tf.Graph().as_default():
    global_step = tf.Variable(7, dtype=tf.int64, name="global_step")
    with tf.Session() as session:
      session.run(global_step.initializer)
      tf.train.Saver().save(session, str(tmp_path / "train" / "model.ckpt"),
                            global_step=7)
  task_types = ("worker", "ps", "master")
  with ProcessSet() as procs:
    tasks = [_start_task(procs, tmp_path, cluster_def, task_type,
                         "--train_dir", str(tmp_path / "train"),
                         "--max_number_of_steps", "7")
             for task_type in task_types]
    codes = procs.wait_all(tasks, time.monotonic() + _LIVE_TIMEOUT_SECS)
  for task_type, proc in zip(task_types, tasks):
    log = proc.log()
    assert codes[task_type] == 0, log[-3000:]
    assert (f"TF_CONFIG {task_type} 0: the job is done (the checkpoint in "
            "--train_dir is at step 7, target 7); nothing to do.") in log
    # bootstrap logs the target of every server it starts.
    assert "grpc://" not in log
