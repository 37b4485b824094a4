"""Estimator jobs on 127.0.0.1 from a platform TF_CONFIG: every process exits 0.

Each task is a process (``_estimator_task.py``, Estimator code as it runs once
ported) started as a platform starts it (``tests/_platform_job.py``):

* the TF1 between-graph job (contrib.learn RunConfig, own servers, variables on
  the ps by GreedyLoadBalancingStrategy): master + worker + ps started together
  with the ps last, and master + ps with the worker started only after the
  chief has finished and exited; the ps ends through ``slim_ext.cluster.Server``'s join;
* ``train_and_evaluate`` with tf.compat.v1's ParameterServerStrategy (master
  renamed chief, the re-implemented ``estimator_training`` on TF >= 2.16) with an
  evaluator, and with MultiWorkerMirroredStrategy on master + worker.
"""
from __future__ import annotations

import json
import pathlib

import pytest

from tests._platform_job import PlatformJob
from tests._procs import ProcessSet

pytestmark = [pytest.mark.tf, pytest.mark.cluster]

TASK = pathlib.Path(__file__).with_name("_estimator_task.py")
MAX_STEPS = 40


def _job(procs, tmp_path, mode, jobs):
    model_dir = tmp_path / "model"
    command = [str(TASK), "--mode", mode, "--model_dir", str(model_dir),
               "--max_steps", str(MAX_STEPS)]
    repo = str(pathlib.Path(__file__).resolve().parents[3])
    return PlatformJob(procs, command, jobs, tmp_path, timeout_secs=240,
                       env={"PYTHONPATH": repo})


def _reported(log: str) -> dict:
    return json.loads([line for line in log.splitlines() if line.startswith("{")][-1])


def test_between_graph_job_ps_started_last(tmp_path):
    with ProcessSet() as procs:
        job = _job(procs, tmp_path, "between_graph", {"master": 1, "worker": 1, "ps": 1})
        job.start_all(order=("master", "worker", "ps"))
        job.finish()
        report = _reported(job.log("master"))
    assert report["global_step"] >= MAX_STEPS
    assert report["weight"] == pytest.approx(3.0, abs=0.3)


def test_between_graph_worker_started_after_the_chief_finished(tmp_path):
    with ProcessSet() as procs:
        job = _job(procs, tmp_path, "between_graph", {"master": 1, "worker": 1, "ps": 1})
        job.start("ps")
        job.start("master")
        assert job.wait("master") == 0, job.logs()
        job.start("worker")
        job.finish()
        assert _reported(job.log("master"))["global_step"] >= MAX_STEPS


def test_parameter_server_strategy_with_an_evaluator(tmp_path):
    with ProcessSet() as procs:
        job = _job(procs, tmp_path, "train_and_evaluate",
                   {"master": 1, "worker": 1, "ps": 1, "evaluator": 1})
        job.start_all(order=("ps", "evaluator", "worker", "master"))
        job.finish()
        report = _reported(job.log("evaluator"))
    assert report["global_step"] >= MAX_STEPS
    assert report["loss"] < 0.05


def test_multi_worker_mirrored_strategy_on_master_and_worker(tmp_path):
    with ProcessSet() as procs:
        job = _job(procs, tmp_path, "train_and_evaluate", {"master": 1, "worker": 1})
        job.start_all(order=("worker", "master"))
        job.finish()
    checkpoint = (tmp_path / "model" / "checkpoint").read_text()
    assert f"model.ckpt-{MAX_STEPS}" in checkpoint, checkpoint

