"""A training job on 127.0.0.1 as a platform starts it: one process per task, TF_CONFIG each.

Platforms (AI Platform, UAI, Kubeflow's tf-operator) start the same command on
every task and tell each one its role in ``TF_CONFIG`` with a ``master`` (or
``chief``), ``worker``, ``ps`` and ``evaluator`` jobs and ``"environment":
"cloud"``. ``PlatformJob`` does that with free ports on 127.0.0.1, starts the
tasks in the order a test asks (all at once, one after another, one after
another has exited), and checks that every process exits 0 within the job's
bound, with the logs of all tasks in the failure message. Every process is
stopped by pid when the surrounding ``ProcessSet`` exits.

  with ProcessSet() as procs:
      job = PlatformJob(procs, [script, "--output_dir", out], {"master": 1, "ps": 1}, tmp)
      job.start("ps"); job.start("master")
      job.finish()
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Mapping, Sequence

from tests._procs import LOCALHOST, Proc, ProcessSet, free_ports


class PlatformJob:
    """The tasks of one job: a platform TF_CONFIG each, started as processes.

    Args:
      procs: the ProcessSet that stops every task in the end.
      command: the Python command line every task runs (script and flags).
      jobs: job name -> number of tasks, e.g. {"master": 1, "worker": 1, "ps": 1}.
      log_dir: where each task's output goes (``<job><index>.log``).
      timeout_secs: the bound for the whole job, from now.
      env: extra environment for every task.
    """

    def __init__(self, procs: ProcessSet, command: Sequence[str], jobs: Mapping[str, int],
                 log_dir: Path, timeout_secs: float = 300.0,
                 env: Mapping[str, str] | None = None) -> None:
        self.procs = procs
        self.command = list(command)
        self.log_dir = Path(log_dir)
        self.deadline = time.monotonic() + timeout_secs
        self.env = dict(env or {})
        ports = iter(free_ports(sum(jobs.values())))
        self.cluster = {job: [f"{LOCALHOST}:{next(ports)}" for _ in range(count)]
                        for job, count in jobs.items()}
        self.started: dict[str, Proc] = {}

    def tf_config(self, job: str, index: int = 0) -> dict:
        """The TF_CONFIG the platform gives task `index` of `job`."""
        return {"cluster": self.cluster, "environment": "cloud",
                "task": {"type": job, "index": index}}

    def start(self, job: str, index: int = 0) -> Proc:
        """Starts one task."""
        name = f"{job}{index}"
        proc = self.procs.start_python(
            self.command, self.log_dir / f"{name}.log", name=name,
            env={**self.env, "TF_CONFIG": json.dumps(self.tf_config(job, index))})
        self.started[name] = proc
        return proc

    def start_all(self, order: Sequence[str] | None = None) -> None:
        """Starts every task at once, jobs in `order` (default: as given)."""
        for job in order or self.cluster:
            for index in range(len(self.cluster[job])):
                self.start(job, index)

    def wait(self, job: str, index: int = 0) -> int:
        """Waits for one task to exit; returns its exit code."""
        return self.started[f"{job}{index}"].wait(self._left())

    def finish(self) -> dict[str, int]:
        """Waits for every started task; asserts each exited 0 within the bound.

        Returns:
          Exit codes by task name (all 0).
        """
        try:
            codes = self.procs.wait_all(list(self.started.values()), self.deadline)
        except TimeoutError as error:
            raise AssertionError(f"{error}\n{self.logs()}") from None
        assert all(code == 0 for code in codes.values()), f"{codes}\n{self.logs()}"
        return codes

    def log(self, job: str, index: int = 0) -> str:
        return self.started[f"{job}{index}"].log()

    def logs(self, chars: int = 3000) -> str:
        return "\n".join(f"--- {name}:\n{proc.log()[-chars:]}"
                         for name, proc in self.started.items())

    def _left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())
