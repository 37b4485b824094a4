"""Async PS training of the ported example, its tasks started in any order.

On real clusters tasks start minutes apart. The ported train_image_classifier.py
(unchanged ``slim.learning.train`` call, platform TF_CONFIG with master + worker
+ ps on 127.0.0.1) must end with every process exiting 0 and the checkpoint at
the target whatever the order: the master first, a worker first (it polls for
the master's initialisation every 30 s, Supervisor's default, kept here), the
ps last (the others wait for it), and a worker started after the master has
finished and exited. The job is short (the master alone finishes it in
seconds), so a worker that joins late finds the master gone.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests._procs import Proc, ProcessSet, free_ports
from tests.regression.test_port_and_train import CLUSTER_TRAIN, global_step_of

pytestmark = [pytest.mark.regression, pytest.mark.tf, pytest.mark.cluster]

TARGET_STEPS = 20
SCENARIO_TIMEOUT_SECS = 300
# Every task logs this with its role once its server is up (or it leaves).
BOOTSTRAPPED = "cluster: TF_CONFIG {} 0"


class _Cluster:
    """A master + worker + ps job whose tasks a test starts one by one."""

    def __init__(self, procs: ProcessSet, ported_tree, tmp_path: Path) -> None:
        self.procs = procs
        self.tmp_path = tmp_path
        self.train_dir = tmp_path / "train"
        self.deadline = time.monotonic() + SCENARIO_TIMEOUT_SECS
        self.started: dict[str, Proc] = {}
        self._args = [ported_tree.script("train_image_classifier.py"),
                      "--train_dir", str(self.train_dir),
                      "--dataset_dir", str(ported_tree.data),
                      "--max_number_of_steps", str(TARGET_STEPS), "--clone_on_cpu",
                      *CLUSTER_TRAIN]
        self._cluster = {task: [f"127.0.0.1:{port}"] for task, port in
                         zip(("master", "worker", "ps"), free_ports(3))}

    def start(self, task_type: str) -> Proc:
        tf_config = {"cluster": self._cluster, "environment": "cloud",
                     "task": {"type": task_type, "index": 0}}
        proc = self.procs.start_python(self._args, self.tmp_path / f"{task_type}.log",
                                       env={"TF_CONFIG": json.dumps(tf_config)},
                                       name=task_type)
        self.started[task_type] = proc
        return proc

    def wait_until_bootstrapped(self, task_type: str) -> None:
        proc = self.started[task_type]
        while BOOTSTRAPPED.format(task_type) not in proc.log():
            assert proc.returncode() is None, proc.log()[-4000:]
            assert time.monotonic() < self.deadline, self.logs()
            time.sleep(0.25)

    def wait_for_exit(self, task_type: str) -> int:
        return self.started[task_type].wait(max(0.0, self.deadline - time.monotonic()))

    def logs(self) -> str:
        return "\n".join(f"--- {name}:\n{proc.log()[-3000:]}"
                         for name, proc in self.started.items())

    def start_one_by_one(self, *task_types: str) -> None:
        """Starts each task once the one before has its server up."""
        for previous, task_type in zip((None, *task_types), task_types):
            if previous:
                self.wait_until_bootstrapped(previous)
            self.start(task_type)

    def finish(self) -> dict[str, str]:
        """Waits for every task; checks each exited 0 and the job reached the target."""
        codes = self.procs.wait_all(list(self.started.values()), self.deadline)
        assert codes == {name: 0 for name in self.started}, self.logs()
        assert global_step_of(self.train_dir) >= TARGET_STEPS
        logs = {name: proc.log() for name, proc in self.started.items()}
        assert "cluster: ps 0 stops:" in logs["ps"], logs["ps"][-3000:]
        return logs


def test_master_first(ported_tree, tmp_path):
    with ProcessSet() as procs:
        job = _Cluster(procs, ported_tree, tmp_path)
        job.start_one_by_one("master", "ps", "worker")
        job.finish()


def test_worker_first(ported_tree, tmp_path):
    with ProcessSet() as procs:
        job = _Cluster(procs, ported_tree, tmp_path)
        job.start_one_by_one("worker", "ps", "master")
        logs = job.finish()
    # The worker polled before the master had initialised the model, and its
    # next session, after the master had gone, did not need the master.
    assert "Waiting for model to be ready" in logs["worker"], logs["worker"][-3000:]


def test_ps_last(ported_tree, tmp_path):
    with ProcessSet() as procs:
        job = _Cluster(procs, ported_tree, tmp_path)
        for task_type in ("master", "worker"):
            job.start(task_type)
        for task_type in ("master", "worker"):
            job.wait_until_bootstrapped(task_type)
        time.sleep(5)  # both are now waiting for the ps
        job.start("ps")
        job.finish()


def test_worker_started_after_the_master_exited(ported_tree, tmp_path):
    with ProcessSet() as procs:
        job = _Cluster(procs, ported_tree, tmp_path)
        job.start("ps")
        job.start("master")
        assert job.wait_for_exit("master") == 0, job.logs()
        job.start("worker")
        logs = job.finish()
    assert (f"cluster: TF_CONFIG worker 0: the job is done (the checkpoint in "
            f"--train_dir is at step {global_step_of(tmp_path / 'train')}, target "
            f"{TARGET_STEPS}); nothing to do.") in logs["worker"], logs["worker"][-3000:]
