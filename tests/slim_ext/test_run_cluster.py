"""Module-level MoXing scripts on slim_ext.mox, as separate processes.

tests/slim_ext/_mox_task.py is a MoXing script in the shape slimport gives it:
everything at module level, no app.run, its flags parsed before slim_ext.mox
defines --num_gpus and the cluster flags. It runs here with --num_gpus=2 in
one process, and as 2 ps + 2 workers on 127.0.0.1 from --ps_hosts
--worker_hosts --job_name --task_index: the workers train asynchronously to a
shared global step with the variables on the ps tasks, the ps tasks exit 0
once their workers are gone, and the same script with --run_mode=EVAL
evaluates the chief's checkpoint. What is checked is what a user sees on the
console.
"""
import re
import time
from pathlib import Path

import pytest

from tests import _procs

pytestmark = [pytest.mark.tf, pytest.mark.cluster]

REPO_ROOT = Path(__file__).resolve().parents[2]
TASK = Path(__file__).resolve().parent / "_mox_task.py"
GENERATOR = REPO_ROOT / "examples" / "moxing_tf1" / "make_mnist_data.py"
NUM_PS = 2
NUM_WORKERS = 2
NUM_EPOCHS = 3
STEPS_PER_WORKER = NUM_EPOCHS * 5000 // 100 + 1  # the reader's epoch count lags a batch
DEADLINE_SECS = 300  # generous: other jobs may share the 2 cores
TRAINED_ACCURACY = 0.8  # chance is 0.1
ENV = {"PYTHONPATH": str(REPO_ROOT), "SLIM_EXT_RECOVERY_WAIT_SECS": "1"}


def _run(args, log_path, name):
  with _procs.ProcessSet() as procs:
    proc = procs.start_python([str(TASK), *args], log_path, env=ENV, name=name)
    code = proc.wait(DEADLINE_SECS)
  log = proc.log()
  assert code == 0, f"{name} exited {code}:\n{log[-4000:]}"
  return log


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
  data_dir = tmp_path_factory.mktemp("mnist")
  make = _procs.start_python([str(GENERATOR), "--data_dir", str(data_dir)],
                             data_dir / "make.log", name="make_mnist_data")
  assert make.wait(60) == 0, make.log()
  return data_dir


def test_one_process_two_clones_from_the_command_line(data_dir, tmp_path):
  log = _run([f"--data_url={data_dir}", f"--train_url={tmp_path / 'train'}",
              "--num_gpus=2", "--num_epochs=1"], tmp_path / "train.log", "train")
  assert "run: TRAIN, 2 clone(s) on the CPU, replica 0 of 1, 0 ps task(s)" in log
  assert "run: step 25 (global step 25): loss = " in log
  assert "run: TRAIN done at global step 51 after 51 steps of this worker" in log
  graph = (tmp_path / "train" / "graph.pbtxt").read_text()
  assert 'name: "clone_1/MatMul"' in graph


@pytest.fixture(scope="module")
def cluster_run(tmp_path_factory, data_dir):
  tmp = tmp_path_factory.mktemp("mox_cluster")
  hosts = [f"{_procs.LOCALHOST}:{port}"
           for port in _procs.free_ports(NUM_PS + NUM_WORKERS)]
  common = [f"--ps_hosts={','.join(hosts[:NUM_PS])}",
            f"--worker_hosts={','.join(hosts[NUM_PS:])}",
            f"--data_url={data_dir}", f"--train_url={tmp / 'train'}",
            f"--num_epochs={NUM_EPOCHS}"]
  deadline = time.monotonic() + DEADLINE_SECS
  with _procs.ProcessSet() as procs:
    tasks = [procs.start_python(
        [str(TASK), *common, f"--job_name={job}", f"--task_index={index}"],
        tmp / f"{job}{index}.log", env=ENV, name=f"{job}{index}")
             for job, count in (("ps", NUM_PS), ("worker", NUM_WORKERS))
             for index in range(count)]
    exit_codes = procs.wait_all(tasks, deadline)
  return {"exit_codes": exit_codes, "train_dir": tmp / "train",
          "logs": {task.name: task.log() for task in tasks}}


def test_every_task_exits_cleanly(cluster_run):
  failed = {name: code for name, code in cluster_run["exit_codes"].items()
            if code != 0}
  assert not failed, "\n".join(
      f"--- {name} exited {code}:\n{cluster_run['logs'][name][-3000:]}"
      for name, code in failed.items())


@pytest.mark.parametrize("index", range(NUM_WORKERS))
def test_each_worker_joined_as_its_own_replica(cluster_run, index):
  log = cluster_run["logs"][f"worker{index}"]
  assert f"replica {index} of {NUM_WORKERS}, {NUM_PS} ps task(s)" in log


def test_workers_shared_one_global_step_on_the_ps(cluster_run):
  done = [re.search(r"run: TRAIN done at global step (\d+) after (\d+) steps",
                    cluster_run["logs"][f"worker{index}"])
          for index in range(NUM_WORKERS)]
  assert all(done), [log[-2000:] for log in cluster_run["logs"].values()]
  # Each worker went through its own data until it ended (sys.maxsize)...
  assert [int(match.group(2)) for match in done] == [STEPS_PER_WORKER] * 2
  # ...and each of its steps moved the one global step on the ps.
  assert max(int(match.group(1)) for match in done) == 2 * STEPS_PER_WORKER


def test_chief_checkpoint_evaluates_above_chance(cluster_run, data_dir,
                                                 tmp_path):
  assert list(cluster_run["train_dir"].glob("model.ckpt-*.index")), (
      cluster_run["logs"]["worker0"][-3000:])
  log = _run([f"--data_url={data_dir}",
              f"--train_url={cluster_run['train_dir']}", "--run_mode=EVAL"],
             tmp_path / "eval.log", "eval")
  accuracy = float(re.search(r"run: EVAL of .*: accuracy = ([0-9.]+)",
                             log).group(1))
  assert accuracy > TRAINED_ACCURACY, log[-3000:]
