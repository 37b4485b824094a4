"""Runs a ported platform tree the way the platform starts it: processes on 127.0.0.1.

The platform starts ``train_image_classifier.py`` with its own flags only
(``--data_dir --output_dir --num_gpus``), and a distributed job as one
process per task of a platform TF_CONFIG (``master`` as the chief,
``"environment": "cloud"``), whose own cluster code starts the servers.
Every process is bounded in time and stopped by pid (tests/_procs.py); a ps
that does not end by itself is reported as such, not waited for forever.
"""
from __future__ import annotations

import dataclasses
import json
import re
import time
from pathlib import Path
from typing import Mapping, Optional

from tests._procs import LOCALHOST, ProcessSet, free_ports

TRAIN_SCRIPT = "train_image_classifier.py"
DATA_SCRIPT = "make_synthetic_data.py"
# Slim flags the platform's users pass besides the platform's own.
TRAIN_ARGS = ("--model_name", "lenet", "--batch_size", "32", "--optimizer", "sgd",
              "--learning_rate", "0.05", "--learning_rate_decay_type", "fixed",
              "--log_every_n_steps", "10", "--save_interval_secs", "600",
              "--save_summaries_secs", "600")
RUN_TIMEOUT_SECS = 300
# A ps checks its workers every 0.5 s and stops 2 s after the last one left.
PS_END_TIMEOUT_SECS = 30
# Non-chief workers poll for the chief's initialisation this often (Supervisor's
# default is 30 s); slim_ext.cluster.Server applies it to the script's workers.
RECOVERY_WAIT_ENV = {"SLIM_EXT_RECOVERY_WAIT_SECS": "1"}
# A step's loss as slim.learning.train logs it ("%.4f"): a number, or nan / inf when a
# run diverged. Two asynchronous workers on the untuned LeNet sometimes do (a TF 2.15 CI
# run's chief logged steps 39-149 at loss nan, its worker 7e15 at step 8): the steps still
# ran, which is what the cluster tests count; none of them asserts the loss.
_STEP_LOG = re.compile(r"global step (\d+): loss = ([0-9.]+|nan|-?inf)")


def make_data(tree: Path, data_dir: Path, work_dir: Path) -> None:
    """Writes the synthetic TFRecords and labels.txt with the tree's own generator."""
    with ProcessSet() as procs:
        proc = procs.start_python([str(tree / DATA_SCRIPT), "--dataset_dir", str(data_dir)],
                                  work_dir / "make_data.log")
        code = proc.wait(RUN_TIMEOUT_SECS)
    assert code == 0, proc.log()[-4000:]


def logged_steps(log: str) -> list[tuple[int, float]]:
    """(global step, loss) of every training step slim.learning.train logged."""
    return [(int(step), float(loss)) for step, loss in _STEP_LOG.findall(log)]


def global_step_of(checkpoint_dir: Path) -> int:
    """The global step of the latest checkpoint in `checkpoint_dir`."""
    import tensorflow as tf  # pylint: disable=g-import-not-at-top

    latest = tf.train.latest_checkpoint(str(checkpoint_dir))
    assert latest, f"no checkpoint in {checkpoint_dir}"
    return int(tf.train.load_variable(latest, "global_step"))


def train_with_platform_flags(tree: Path, data_dir: Path, output_dir: Path,
                              work_dir: Path, steps: int) -> str:
    """Trains `steps` steps with the platform's flags only; returns the log."""
    with ProcessSet() as procs:
        proc = procs.start_python(
            [str(tree / TRAIN_SCRIPT), "--data_dir", str(data_dir), "--output_dir",
             str(output_dir), "--num_gpus", "0", "--max_number_of_steps", str(steps),
             *TRAIN_ARGS],
            work_dir / "train.log")
        code = proc.wait(RUN_TIMEOUT_SECS)
    assert code == 0, proc.log()[-6000:]
    return proc.log()


def platform_tf_config(cluster: Mapping[str, list], task_type: str, index: int = 0) -> str:
    """TF_CONFIG as the platform writes it for one task."""
    return json.dumps({"cluster": dict(cluster), "environment": "cloud",
                       "task": {"type": task_type, "index": index}})


@dataclasses.dataclass
class ClusterRun:
    """What a master + worker + ps run did.

    Attributes:
      codes: exit code by task ("master", "worker", and "ps" when it ended by
        itself within PS_END_TIMEOUT_SECS of the workers).
      ps_ended_by_itself: whether the ps exited on its own.
      logs: each task's output.
      output_dir: the job's --output_dir (its checkpoints).
    """
    codes: dict
    ps_ended_by_itself: bool
    logs: dict
    output_dir: Path


def run_platform_cluster(tree: Path, data_dir: Path, work_dir: Path, steps: int,
                         env: Optional[Mapping[str, str]] = None) -> ClusterRun:
    """Starts ps, master and worker from a platform TF_CONFIG; waits for every one.

    The master and worker must exit by themselves within RUN_TIMEOUT_SECS
    (TimeoutError otherwise); the ps is given PS_END_TIMEOUT_SECS more, then
    stopped by pid if it still runs.
    """
    master, worker, ps = (f"{LOCALHOST}:{port}" for port in free_ports(3))
    cluster = {"master": [master], "worker": [worker], "ps": [ps]}
    output_dir = work_dir / "output"
    args = [str(tree / TRAIN_SCRIPT), "--data_dir", str(data_dir), "--output_dir",
            str(output_dir), "--num_gpus", "0", "--max_number_of_steps", str(steps),
            *TRAIN_ARGS]
    with ProcessSet() as procs:
        started = {
            task: procs.start_python(
                args, work_dir / f"{task}.log", name=task,
                env={**RECOVERY_WAIT_ENV, **(env or {}),
                     "TF_CONFIG": platform_tf_config(cluster, task)})
            for task in ("ps", "master", "worker")
        }
        training = [started["master"], started["worker"]]
        codes = procs.wait_all(training, time.monotonic() + RUN_TIMEOUT_SECS)
        try:
            codes["ps"] = started["ps"].wait(PS_END_TIMEOUT_SECS)
            ps_ended_by_itself = True
        except TimeoutError:
            ps_ended_by_itself = False
    logs = {task: proc.log() for task, proc in started.items()}
    return ClusterRun(codes, ps_ended_by_itself, logs, output_dir)
