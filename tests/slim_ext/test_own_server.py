"""slim_ext.cluster.Server: a script's own tf.train.Server, with bootstrap's ending.

The port writes ``slim_ext.cluster.Server`` where a script started its own
``tf.train.Server``. A ps's ``join()`` then ends once its workers are done; a
worker's ``slim.learning.train`` sessions see only the ps and the worker.
"""
import json
import pathlib
import signal
import sys
import time

import pytest
import tensorflow.compat.v1 as tf

from slim_ext import cluster
from slim_ext import supervisor
from tests._procs import LOCALHOST
from tests._procs import ProcessSet
from tests._procs import free_ports

pytestmark = pytest.mark.tf

TASK = pathlib.Path(__file__).with_name("_own_server_task.py")
LIVE_TIMEOUT_SECS = 150
PS_END_SECS = 30


@pytest.fixture
def restore_supervisor():
  filters = supervisor.device_filters()
  wait = supervisor.recovery_wait_secs()
  yield
  supervisor.set_device_filters(filters)
  supervisor.set_recovery_wait_secs(wait)


def _addresses(count):
  return [f"{LOCALHOST}:{port}" for port in free_ports(count)]


@pytest.mark.parametrize(("jobs", "job", "index", "filters"), [
    ({"worker": 2, "ps": 1}, "worker", 1, ["/job:ps", "/job:worker/task:1"]),
    # The script's own job names, not the between-graph view's.
    ({"master": 1, "worker": 1, "ps": 1}, "master", 0,
     ["/job:ps", "/job:master/task:0"]),
    ({"worker": 2, "ps": 1}, "ps", 0, []),
    ({"worker": 2}, "worker", 0, []),  # no ps: not between-graph training
    ({"localhost": 1}, "localhost", 0, []),  # a layout slim_ext does not know
])
def test_server_filters_learning_sessions_of_a_ps_clusters_workers(
    restore_supervisor, monkeypatch, jobs, job, index, filters):
  monkeypatch.delenv("SLIM_EXT_RECOVERY_WAIT_SECS", raising=False)
  supervisor.set_device_filters([])
  spec = tf.train.ClusterSpec({name: _addresses(count)
                               for name, count in jobs.items()})
  server = cluster.Server(spec, job_name=job, task_index=index)
  assert isinstance(server, tf.train.Server)
  assert server.target.startswith("grpc://")
  assert supervisor.device_filters() == filters


def _start(procs, tmp_path, name, role, index, ps, workers, *extra):
  return procs.start_python(
      [str(TASK), "--role", role, "--index", str(index), "--ps_address", ps,
       "--worker_addresses", ",".join(workers), *extra],
      tmp_path / f"{name}.log", name=name,
      env={"PYTHONPATH": ":".join(sys.path), "SLIM_EXT_RECOVERY_WAIT_SECS": "1"})


def _report(proc):
  return json.loads([line for line in proc.log().splitlines()
                     if line.startswith("{")][-1])


@pytest.mark.cluster
def test_ps_join_ends_after_a_worker_that_came_after_the_chief(tmp_path):
  # The chief trains to the target and exits before worker 1 starts: worker 1
  # needs only the ps (no wait for the gone chief) and exits 0; then the ps
  # has seen both come and go, and its join() ends the process with 0.
  ps, *workers = _addresses(3)
  train = ["--train_dir", str(tmp_path / "train"), "--max_number_of_steps", "5"]
  with ProcessSet() as procs:
    ps_proc = _start(procs, tmp_path, "ps", "ps", 0, ps, workers, *train)
    chief = _start(procs, tmp_path, "chief", "worker", 0, ps, workers, *train)
    assert chief.wait(LIVE_TIMEOUT_SECS) == 0, chief.log()[-3000:]
    assert ps_proc.returncode() is None, ps_proc.log()[-3000:]
    worker = _start(procs, tmp_path, "worker", "worker", 1, ps, workers, *train)
    assert worker.wait(LIVE_TIMEOUT_SECS) == 0, worker.log()[-3000:]
    assert ps_proc.wait(PS_END_SECS) == 0, ps_proc.log()[-3000:]
  assert "cluster: ps 0 stops: workers exited." in ps_proc.log()
  for proc, index in ((chief, 0), (worker, 1)):
    report = _report(proc)
    assert report["device_filters"] == ["/job:ps", f"/job:worker/task:{index}"]
    assert report["recovery_wait_secs"] == 1.0
    assert report["final_step"] >= 5


@pytest.mark.cluster
def test_ps_join_ends_on_sigterm(tmp_path):
  ps, *workers = _addresses(3)
  with ProcessSet() as procs:
    ps_proc = _start(procs, tmp_path, "ps", "ps", 0, ps, workers)
    deadline = time.monotonic() + LIVE_TIMEOUT_SECS
    while "until its 2 workers exit" not in ps_proc.log():
      assert ps_proc.returncode() is None, ps_proc.log()[-3000:]
      assert time.monotonic() < deadline, ps_proc.log()[-3000:]
      time.sleep(0.2)
    ps_proc.popen.send_signal(signal.SIGTERM)
    assert ps_proc.wait(15) == 0, ps_proc.log()[-3000:]
  assert "cluster: ps 0 stops: SIGTERM." in ps_proc.log()
