"""Port examples/slim_tf1 with slimport, then train it every way a user would.

Order follows the user story: slim's own flags, the platform's flags only, two CPU
clones, evaluation, and async parameter-server training as separate processes on
127.0.0.1, configured first by a platform TF_CONFIG (with ``master``) and then by
the MoXing-style ``--ps_hosts/--worker_hosts/--job_name/--task_index`` flags.
"""
from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path

import pytest

from tests._procs import ProcessSet, free_ports

pytestmark = [pytest.mark.regression, pytest.mark.tf]


def train_flags(learning_rate: float) -> list:
    """The flags every training run here shares, with plain SGD at `learning_rate`."""
    return ["--dataset_name", "synthetic", "--model_name", "lenet",
            "--batch_size", "32", "--optimizer", "sgd", "--learning_rate", str(learning_rate),
            "--learning_rate_decay_type", "fixed", "--log_every_n_steps", "10",
            "--save_interval_secs", "600", "--save_summaries_secs", "600"]


# One process: LeNet on this data learns well within 120 steps at 0.05; it wobbles
# at 0.1 and reaches nan within 10 steps at 0.2.
COMMON_TRAIN = train_flags(0.05)
# Async ps training applies gradients a worker computed on weights several steps
# old, more of them the busier the machine is, and two workers update at once: at
# 0.05 that once pushed a CI run to nan (the worker logged nan from its first
# line). 0.01 leaves a wide margin to the rate that diverges with no staleness.
CLUSTER_TRAIN = train_flags(0.01)

STEP_TIMEOUT_SECS = 300
CLUSTER_TIMEOUT_SECS = 300
# Long enough that the non-chief worker, which polls for the chief's initialisation
# every SLIM_EXT_RECOVERY_WAIT_SECS, joins before the chief alone reaches the target
# (60 steps took the chief under 3 s on an idle machine and the worker logged none).
CLUSTER_TARGET_STEPS = 400


def run_script(tree, tmp_path: Path, name: str, args: list, env: dict = None,
               expected_code: int = 0) -> str:
    """Run one ported script to completion and return its output."""
    log = tmp_path / (Path(name).stem + ".log")
    with ProcessSet() as procs:
        proc = procs.start_python([tree.script(name), *args], log, env=env)
        code = proc.wait(STEP_TIMEOUT_SECS)
    output = proc.log()
    assert code == expected_code, f"{name} exited {code}:\n{output[-6000:]}"
    return output


def global_step_of(checkpoint_dir: Path) -> int:
    import tensorflow as tf

    latest = tf.train.latest_checkpoint(str(checkpoint_dir))
    found = sorted(p.name for p in checkpoint_dir.iterdir())
    assert latest, f"no checkpoint in {checkpoint_dir}: {found}"
    return int(tf.train.load_variable(latest, "global_step"))


def logged_losses(output: str) -> list:
    """The losses tf_slim's train loop logged, nan and inf included."""
    return [float(x) for x in re.findall(r"loss = (nan|-?inf|-?[0-9.]+)", output)]


def assert_finite_losses_logged(output: str) -> None:
    losses = logged_losses(output)
    assert losses and all(math.isfinite(x) for x in losses), (losses, output[-3000:])


def test_report_lists_every_ported_entry_script(ported_tree):
    report = ported_tree.report
    by_path = {Path(f["path"]).name: f for f in report["files"]}
    for script in ("train_image_classifier.py", "eval_image_classifier.py",
                   "make_synthetic_data.py"):
        assert by_path[script]["status"] == "changed", by_path[script]
    assert not [f for f in report["files"] if f["status"] == "failed"]


def test_ported_train_script_has_no_tf1_only_spellings(ported_tree):
    text = Path(ported_tree.script("train_image_classifier.py")).read_text()
    assert "tf.contrib" not in text and "tf.app." not in text
    assert "uflag.apply(FLAGS" in text and "cluster.bootstrap(FLAGS)" in text


@pytest.mark.parametrize("script, expected", [
    ("train_image_classifier.py",
     ["--dataset_dir", "--train_dir", "--num_clones", "--worker_replicas", "--num_ps_tasks",
      "--data_dir", "--output_dir", "--num_gpus", "--ps_hosts", "--task_index"]),
    ("eval_image_classifier.py", ["--checkpoint_path", "--eval_dir", "--data_dir", "--log_dir"]),
    ("make_synthetic_data.py", ["--dataset_dir"]),
])
def test_ported_entry_scripts_import_and_list_their_flags(ported_tree, tmp_path, script, expected):
    # absl's help flags print the help and exit 1, as they always have.
    output = run_script(ported_tree, tmp_path, script, ["--helpfull"], expected_code=1)
    assert "Traceback" not in output, output[-4000:]
    missing = [flag for flag in expected if flag + ":" not in output and flag + "=" not in output]
    assert not missing, f"{script} --helpfull lacks {missing}:\n{output[-4000:]}"


def test_train_with_slim_flags(ported_tree, tmp_path):
    train_dir = tmp_path / "train"
    output = run_script(ported_tree, tmp_path, "train_image_classifier.py", [
        "--train_dir", str(train_dir), "--dataset_dir", str(ported_tree.data),
        "--max_number_of_steps", "120", "--clone_on_cpu", *COMMON_TRAIN])
    assert global_step_of(train_dir) == 120
    losses = logged_losses(output)
    assert len(losses) >= 5, output[-3000:]
    assert min(losses[-3:]) < losses[0], losses

    accuracy_output = run_script(ported_tree, tmp_path, "eval_image_classifier.py", [
        "--checkpoint_path", str(train_dir), "--eval_dir", str(tmp_path / "eval"),
        "--dataset_dir", str(ported_tree.data), "--dataset_name", "synthetic",
        "--dataset_split_name", "validation", "--model_name", "lenet"])
    accuracy = float(re.findall(r"eval/Accuracy\[([0-9.]+)\]", accuracy_output)[-1])
    # 10 balanced classes: chance is 0.1; 120 steps of LeNet on this data get far above.
    assert accuracy > 0.3, accuracy_output[-3000:]


def test_train_with_platform_flags_only(ported_tree, tmp_path):
    output_dir = tmp_path / "output"
    run_script(ported_tree, tmp_path, "train_image_classifier.py", [
        "--data_dir", str(ported_tree.data), "--output_dir", str(output_dir),
        "--num_gpus", "0", "--max_step", "20", *COMMON_TRAIN])
    assert global_step_of(output_dir) == 20


def test_train_with_two_cpu_clones(ported_tree, tmp_path):
    train_dir = tmp_path / "train"
    output = run_script(ported_tree, tmp_path, "train_image_classifier.py", [
        "--train_dir", str(train_dir), "--dataset_dir", str(ported_tree.data),
        "--num_clones", "2", "--clone_on_cpu", "--max_number_of_steps", "20",
        *COMMON_TRAIN])
    assert global_step_of(train_dir) == 20
    assert "clone_1" in output or (train_dir / "graph.pbtxt").exists()


def test_train_batch_norm_net(ported_tree, tmp_path):
    train_dir = tmp_path / "train"
    run_script(ported_tree, tmp_path, "train_image_classifier.py", [
        "--train_dir", str(train_dir), "--dataset_dir", str(ported_tree.data),
        "--max_number_of_steps", "10", "--clone_on_cpu",
        *[a if a != "lenet" else "cifarnet_bn" for a in COMMON_TRAIN]])
    assert global_step_of(train_dir) == 10


def _run_cluster(ported_tree, tmp_path: Path, tasks: dict, target_steps: int) -> dict:
    """Start every task of an async PS cluster; wait for the workers; stop the ps."""
    train_dir = tmp_path / "train"
    env_common = {"SLIM_EXT_RECOVERY_WAIT_SECS": "1"}
    args_common = ["--train_dir", str(train_dir), "--dataset_dir", str(ported_tree.data),
                   "--max_number_of_steps", str(target_steps), "--clone_on_cpu",
                   *CLUSTER_TRAIN]
    with ProcessSet() as procs:
        started = {
            name: procs.start_python(
                [ported_tree.script("train_image_classifier.py"), *args_common, *extra],
                tmp_path / f"{name}.log", env={**env_common, **env}, name=name)
            for name, (extra, env) in tasks.items()
        }
        workers = [p for name, p in started.items() if not name.startswith("ps")]
        deadline = time.monotonic() + CLUSTER_TIMEOUT_SECS
        codes = procs.wait_all(workers, deadline)
        for proc in workers:
            assert codes[proc.name] == 0, f"{proc.name}:\n{proc.log()[-6000:]}"
        ps_codes = {}
        for name, proc in started.items():
            if name.startswith("ps"):
                # A ps task leaves by itself once its workers are gone; give it a
                # moment, then it is stopped by pid like every other process.
                try:
                    ps_codes[name] = proc.wait(30)
                except TimeoutError:
                    ps_codes[name] = proc.stop()
    logs = {name: proc.log() for name, proc in started.items()}
    return {"train_dir": train_dir, "logs": logs, "ps_codes": ps_codes}


def test_async_ps_from_platform_tf_config(ported_tree, tmp_path):
    master, worker, ps = (f"127.0.0.1:{p}" for p in free_ports(3))
    cluster = {"master": [master], "worker": [worker], "ps": [ps]}

    def tf_config(task_type: str) -> dict:
        return {"TF_CONFIG": json.dumps({"cluster": cluster, "environment": "cloud",
                                         "task": {"type": task_type, "index": 0}})}

    result = _run_cluster(ported_tree, tmp_path, {
        "ps": ([], tf_config("ps")),
        "master": ([], tf_config("master")),
        "worker": ([], tf_config("worker")),
    }, target_steps=CLUSTER_TARGET_STEPS)
    assert global_step_of(result["train_dir"]) >= CLUSTER_TARGET_STEPS
    for task in ("master", "worker"):
        assert_finite_losses_logged(result["logs"][task])
    assert result["ps_codes"]["ps"] == 0, result["logs"]["ps"][-3000:]


def test_async_ps_from_moxing_flags(ported_tree, tmp_path):
    chief, worker, ps = (f"127.0.0.1:{p}" for p in free_ports(3))
    hosts = ["--ps_hosts", ps, "--worker_hosts", f"{chief},{worker}"]
    result = _run_cluster(ported_tree, tmp_path, {
        "ps": ([*hosts, "--job_name", "ps", "--task_index", "0"], {}),
        "worker0": ([*hosts, "--job_name", "worker", "--task_index", "0"], {}),
        "worker1": ([*hosts, "--job_name", "worker", "--task_index", "1"], {}),
    }, target_steps=CLUSTER_TARGET_STEPS)
    assert global_step_of(result["train_dir"]) >= CLUSTER_TARGET_STEPS
    for task in ("worker0", "worker1"):
        assert_finite_losses_logged(result["logs"][task])
    assert result["ps_codes"]["ps"] == 0, result["logs"]["ps"][-3000:]
