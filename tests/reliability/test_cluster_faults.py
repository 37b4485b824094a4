"""A failing cluster task: TF_CONFIG fuzzing, and kills on a live async PS cluster.

The live test trains the ported examples/slim_tf1 LeNet on 1 ps + 2 workers
(separate processes on 127.0.0.1, MoXing-style flags) and injects, in order:

1. kill -9 the non-chief worker  -> the chief keeps training, the global step rises;
2. restart it                    -> it rejoins and logs steps from where the job is,
                                    not from 0;
3. kill -9 the chief             -> the other worker keeps training;
4. restart the chief             -> it restores the last checkpoint (written at most
                                    one save interval before the kill) and training
                                    runs to the end;
5. both workers finish           -> the ps exits by itself with status 0.

While a process starts up (2, 4), the worker that would train meanwhile is paused
(SIGSTOP, then SIGCONT once the new one trains): on a busy machine a start-up can take
longer than the step target leaves, and the test would then depend on the machine's load.
Every process is started through ProcessSet and stopped by pid whatever happens.
"""
from __future__ import annotations

import json
import re
import string
import time
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slim_ext import cluster
from tests._procs import Proc, ProcessSet, free_ports

SAVE_INTERVAL_SECS = 2
PHASE_TIMEOUT_SECS = 90
TRAIN_ARGS = ["--dataset_name", "synthetic", "--model_name", "lenet", "--batch_size", "16",
              "--optimizer", "sgd", "--learning_rate", "0.01",
              "--learning_rate_decay_type", "fixed", "--log_every_n_steps", "5",
              "--save_interval_secs", str(SAVE_INTERVAL_SECS), "--save_summaries_secs", "600",
              "--clone_on_cpu"]
STEP = re.compile(r"global step (\d+)")


# --- TF_CONFIG fuzzing (extends tests/slim_ext/test_cluster.py's JSON fuzzing) -----

_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=16)
_JOB = st.sampled_from(["worker", "ps", "master", "chief", "evaluator", "Worker", "",
                        "workerpool0", "workerpool1", "workerpool3", "workerpool4"])
_ADDRESS = st.one_of(
    st.from_regex(r"[a-z0-9.\[\]:]{0,12}:[0-9]{0,6}", fullmatch=True),
    st.text(alphabet=string.printable, max_size=12), st.integers(), st.none())
# Shaped like TF_CONFIG, so the checks past the top-level ones are reached.
_TF_CONFIG_LIKE = st.fixed_dictionaries(
    {"cluster": st.dictionaries(_JOB, st.lists(_ADDRESS, max_size=3) | _ADDRESS, max_size=4),
     "task": st.fixed_dictionaries({}, optional={"type": _JOB | _ANY_JSON,
                                                 "index": st.integers(-2, 4) | _ANY_JSON})},
    optional={"environment": st.sampled_from(["cloud", "google"]) | _ANY_JSON})
FIELD = re.compile(r"^(TF_CONFIG|CLUSTER_SPEC)(\.cluster(\.\w+(\[\d+\])?)?"
                   r"|\.task(\.type|\.index)?|\.environment|\.sparseCluster)?: ")


def _assert_parses_or_names_the_field(tf_config_text: str,
                                      variable: str = "TF_CONFIG") -> None:
    try:
        config = cluster.from_env({variable: tf_config_text})
    except ValueError as error:
        assert FIELD.match(str(error)), str(error)
        assert str(error).startswith(variable), str(error)
        return
    if config is not None:
        assert config.task_type in cluster.KNOWN_JOBS
        config.to_tf2_tf_config()
        if config.task_type != "evaluator":
            config.tf1_task()
            config.tf1_cluster_dict()


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(_ANY_JSON | _TF_CONFIG_LIKE)
def test_from_env_with_arbitrary_json_raises_only_value_error_naming_a_field(value) -> None:
    _assert_parses_or_names_the_field(json.dumps(value))


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(_TF_CONFIG_LIKE | st.fixed_dictionaries(
    {"sparseCluster": _ANY_JSON, "task": _ANY_JSON}))
def test_vertex_cluster_spec_raises_only_value_error_naming_a_field(value) -> None:
    _assert_parses_or_names_the_field(json.dumps(value), "CLUSTER_SPEC")


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=40) | st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
def test_from_env_with_arbitrary_text(text: str) -> None:
    _assert_parses_or_names_the_field(text)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.one_of(st.none(), st.text(max_size=30), st.lists(st.text(max_size=10), max_size=3)),
       st.one_of(st.none(), st.text(max_size=30), st.lists(st.text(max_size=10), max_size=3)),
       st.one_of(st.none(), st.text(max_size=8), st.sampled_from(["ps", "worker"])),
       st.one_of(st.none(), st.integers(-3, 5)))
def test_moxing_flags_raise_only_value_error_naming_the_flag(ps_hosts, worker_hosts,
                                                             job_name, task_index) -> None:
    try:
        cluster.from_moxing_flags(ps_hosts, worker_hosts, job_name, task_index)
    except ValueError as error:
        assert str(error).startswith("--"), str(error)


# --- live async PS cluster ----------------------------------------------------------

def _steps(proc: Proc) -> list:
    return [int(step) for step in STEP.findall(proc.log())]


def _last_step(proc: Proc) -> Optional[int]:
    steps = _steps(proc)
    return steps[-1] if steps else None


def _wait_for(what: str, condition, procs: list, timeout: float = PHASE_TIMEOUT_SECS):
    """Polls ``condition`` until it returns a truthy value; fails with the logs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        for proc in procs:
            code = proc.returncode()
            assert code is None, f"{proc.name} exited {code} while waiting for {what}:\n" \
                                 f"{proc.log()[-4000:]}"
        time.sleep(0.25)
    logs = "\n".join(f"--- {p.name}:\n{p.log()[-3000:]}" for p in procs)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}\n{logs}")


def _wait_while_training(procs: list, stall_secs: float = PHASE_TIMEOUT_SECS) -> dict:
    """Waits for ``procs`` to exit while they train; their exit codes by name.

    No deadline for the whole: a busy machine trains the same steps slower (a fixed
    deadline once failed a run whose chief was still stepping, 0.1-0.3 s a step beside a
    CI run). It fails when none of them logs a new step for ``stall_secs``.
    """
    last_step, moved_at = None, time.monotonic()
    while any(proc.returncode() is None for proc in procs):
        step = max((_last_step(proc) or 0) for proc in procs)
        if step != last_step:
            last_step, moved_at = step, time.monotonic()
        elif time.monotonic() - moved_at > stall_secs:
            logs = "\n".join(f"--- {p.name}:\n{p.log()[-3000:]}" for p in procs)
            raise AssertionError(f"no new training step for {stall_secs:g} s (the last "
                                 f"was {last_step})\n{logs}")
        time.sleep(0.25)
    return {proc.name: proc.returncode() for proc in procs}


def _latest_checkpoint(train_dir: Path) -> tuple:
    """(global step saved in it, path prefix) of the newest checkpoint, or (None, None).

    With async replicas the step in the file name can trail the saved global_step:
    another worker steps between the chief reading it and saving the variables.
    """
    import tensorflow as tf

    latest = tf.train.latest_checkpoint(str(train_dir))
    if not latest:
        return None, None
    return int(tf.train.load_variable(latest, "global_step")), latest


@pytest.mark.tf
@pytest.mark.cluster
def test_async_ps_cluster_survives_killed_and_restarted_workers(ported_tree, tmp_path: Path):
    ps, chief, worker = (f"127.0.0.1:{port}" for port in free_ports(3))
    train_dir = tmp_path / "train"
    hosts = ["--ps_hosts", ps, "--worker_hosts", f"{chief},{worker}"]
    script = ported_tree.script("train_image_classifier.py")
    env = {"SLIM_EXT_RECOVERY_WAIT_SECS": "1"}

    def start(procs: ProcessSet, name: str, job: str, index: int, max_steps: int) -> Proc:
        args = [script, "--train_dir", str(train_dir), "--dataset_dir", str(ported_tree.data),
                "--max_number_of_steps", str(max_steps), *TRAIN_ARGS, *hosts,
                "--job_name", job, "--task_index", str(index)]
        return procs.start_python(args, tmp_path / f"{name}.log", env=env, name=name)

    unbounded = 10 ** 7
    with ProcessSet() as procs:
        ps_proc = start(procs, "ps", "ps", 0, unbounded)
        chief_proc = start(procs, "chief", "worker", 0, unbounded)
        worker_proc = start(procs, "worker", "worker", 1, unbounded)
        everyone = [ps_proc, chief_proc, worker_proc]
        _wait_for("both workers to train", lambda: _steps(chief_proc) and _steps(worker_proc),
                  everyone, timeout=150)

        # 1. Kill the non-chief worker: the chief keeps training.
        worker_proc.popen.kill()
        worker_proc.wait(10)
        at_kill = _last_step(chief_proc)
        kill_time = time.monotonic()
        rising = _wait_for("the chief's global step to rise without the other worker",
                           lambda: (_last_step(chief_proc) or 0) >= at_kill + 25,
                           [ps_proc, chief_proc])
        assert rising
        steps_per_sec = (_last_step(chief_proc) - at_kill) / (time.monotonic() - kill_time)

        # 2. Restart it: it rejoins where the job is. From here on every worker has a
        # step target, about a minute of training. A process's start-up on a busy machine
        # can take longer than that: whoever trains meanwhile is paused (SIGSTOP), so
        # that only the few steps between the waits below count against the target.
        now = _last_step(chief_proc)
        target = now + max(150, int(steps_per_sec * 60))
        chief_proc.pause()
        worker_proc = start(procs, "worker_restarted", "worker", 1, target)
        first = _wait_for("the restarted worker to train", lambda: _steps(worker_proc),
                          [ps_proc, worker_proc])[0]
        chief_proc.resume()
        assert first >= now, f"the restarted worker started over at step {first} (job at {now})"

        # 3. Kill the chief once it has saved since it was paused (a checkpoint of a step
        # past the restarted worker's first); the other worker keeps training.
        _wait_for("a checkpoint", lambda: (_latest_checkpoint(train_dir)[0] or 0) > first,
                  [ps_proc, chief_proc, worker_proc])
        chief_proc.popen.kill()
        chief_proc.wait(10)
        chief_killed_at = time.time()
        saved_step, prefix = _latest_checkpoint(train_dir)
        last_save = Path(prefix + ".index").stat().st_mtime
        assert chief_killed_at - last_save <= SAVE_INTERVAL_SECS + 5, \
            "the last checkpoint is older than the save interval allows"
        at_chief_kill = _last_step(worker_proc)
        _wait_for("the other worker to keep training without the chief",
                  lambda: (_last_step(worker_proc) or 0) > at_chief_kill,
                  [ps_proc, worker_proc])

        # 4. Restart the chief: it restores the last checkpoint and trains on. The other
        # worker is paused meanwhile: had it reached the target while the chief started,
        # the ps would have left with both workers down (its job), before the chief came.
        worker_proc.pause()
        chief_proc = start(procs, "chief_restarted", "worker", 0, target)
        resumed = _wait_for("the restarted chief to train",
                            lambda: _steps(chief_proc) or chief_proc.returncode() == 0,
                            [ps_proc, chief_proc])
        worker_proc.resume()
        log = chief_proc.log()
        assert f"Restoring parameters from {prefix}\n" in log, log[-4000:]
        if resumed is not True:
            assert resumed[0] >= saved_step, (resumed[0], saved_step)

        # 5. Both workers reach the target; the ps leaves by itself.
        codes = _wait_while_training([chief_proc, worker_proc])
        assert codes == {"chief_restarted": 0, "worker_restarted": 0}, \
            "\n".join(p.log()[-3000:] for p in (chief_proc, worker_proc))
        assert ps_proc.wait(30) == 0, ps_proc.log()[-3000:]

    final_step, _ = _latest_checkpoint(train_dir)
    assert final_step >= target, (final_step, target)
