"""Port examples/moxing_tf1 (a MoXing MNIST job) with slimport and run it, zero hand edits.

The user story: the TF1 MoXing scripts fail on TensorFlow 2; one `slimport rewrite`
makes them run as MoXing ran them: in one process, with `--num_gpus=2` clones, and as
2 ps + 2 workers on 127.0.0.1 from the cluster flags; the evaluation script then
prints the accuracy of the checkpoint. Only the console output, exit codes and files
are checked, as a user would. The training script ends by exporting the model
(``export_model=mox.ExportKeys.TF_SERVING``): the SavedModel, served eagerly, by
``saved_model_cli run`` and by the TFLite interpreter, scores the eval script's accuracy.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests._procs import LOCALHOST, ProcessSet, free_ports

pytestmark = [pytest.mark.regression, pytest.mark.tf]

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "examples" / "moxing_tf1"
ENTRY_SCRIPTS = ("train_mnist.py", "eval_mnist.py")
RUN_TIMEOUT_SECS = 300
CLUSTER_TIMEOUT_SECS = 400
# 5 epochs of 50 batches; TF1's reader counts an epoch one batch late.
STEPS = 251
TRAINED_ACCURACY = 0.8  # chance is 0.1
# A non-chief worker checks every second whether the chief has initialised the model.
ENV = {"SLIM_EXT_RECOVERY_WAIT_SECS": "1"}


class Ported:
    """The ported copy of the example, its data and the rewrite's report."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ported = root / "ported"
        self.data = root / "mnist"
        self.report_path = root / "report.json"
        self.rewrite_output = ""

    @property
    def report(self) -> dict:
        return json.loads(self.report_path.read_text())

    def run(self, script: str, args: list, log: Path, expected_code: int = 0) -> str:
        with ProcessSet() as procs:
            proc = procs.start_python([str(self.ported / script), *args], log,
                                      env=ENV, cwd=self.ported)
            code = proc.wait(RUN_TIMEOUT_SECS)
        output = proc.log()
        assert code == expected_code, f"{script} exited {code}:\n{output[-6000:]}"
        return output


@pytest.fixture(scope="module")
def ported(tmp_path_factory: pytest.TempPathFactory) -> Ported:
    tree = Ported(tmp_path_factory.mktemp("moxing"))
    rewrite = subprocess.run(
        [sys.executable, "-m", "slimport", "rewrite", str(SOURCE), "--out", str(tree.ported),
         "--report", str(tree.report_path)],
        capture_output=True, text=True, timeout=300,
    )
    tree.rewrite_output = rewrite.stdout + rewrite.stderr
    assert rewrite.returncode == 0, tree.rewrite_output
    data = subprocess.run(
        [sys.executable, str(tree.ported / "make_mnist_data.py"), "--data_dir", str(tree.data)],
        capture_output=True, text=True, timeout=300,
    )
    assert data.returncode == 0, data.stdout + data.stderr
    return tree


def accuracy_of(output: str) -> float:
    found = re.findall(r"run: EVAL of .*: accuracy = ([0-9.]+)", output)
    assert found, output[-4000:]
    return float(found[-1])


def test_the_unported_script_fails_on_tensorflow_2(tmp_path):
    with ProcessSet() as procs:
        proc = procs.start_python([str(SOURCE / "train_mnist.py"), "--help"],
                                  tmp_path / "tf1.log", cwd=SOURCE,
                                  env={"PYTHONDONTWRITEBYTECODE": "1"})
        assert proc.wait(RUN_TIMEOUT_SECS) == 1
    # The first TF1-only line it reaches: TF 2 has no tensorflow.examples.
    assert "ModuleNotFoundError: No module named 'tensorflow.examples'" in proc.log()


def test_the_rewrite_ports_every_script_and_needs_no_hand_edit(ported):
    by_name = {Path(f["path"]).name: f for f in ported.report["files"]}
    for script in ENTRY_SCRIPTS:
        assert by_name[script]["status"] == "changed", by_name[script]
        assert "moxing" in by_name[script]["codemods"], by_name[script]
    attention = [f"{name}:{finding['line']}: {finding['message']}"
                 for name, entry in by_name.items() for finding in entry["findings"]
                 if finding["kind"] == "attention"]
    assert not attention, "\n".join(attention)


@pytest.mark.parametrize("script", ENTRY_SCRIPTS)
def test_ported_scripts_have_no_tf1_or_moxing_left(ported, script):
    text = (ported.ported / script).read_text()
    assert "import slim_ext.mox as mox" in text
    for gone in ("import moxing", "tf.flags", "tensorflow.examples", "sys.maxint"):
        assert gone not in text, f"{script} still has {gone!r}:\n{text}"


@pytest.fixture(scope="module")
def one_process(ported, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("one_process")
    train_dir = tmp / "train"
    output = ported.run("train_mnist.py", [f"--data_url={ported.data}",
                                           f"--train_url={train_dir}"], tmp / "train.log")
    return train_dir, output


def test_one_process_trains_until_its_data_ends(one_process):
    train_dir, output = one_process
    losses = [float(x) for x in re.findall(r"run: step \d+ \(global step \d+\): loss = "
                                           r"([0-9.]+)", output)]
    assert len(losses) == STEPS // 50, output[-4000:]
    assert losses[-1] < losses[0] < 2.3, losses
    assert f"run: TRAIN done at global step {STEPS} after {STEPS} steps" in output
    assert (train_dir / f"model.ckpt-{STEPS}.index").exists()


def test_eval_prints_the_accuracy_of_the_checkpoint(ported, one_process, tmp_path):
    train_dir, _ = one_process
    output = ported.run("eval_mnist.py", [f"--data_url={ported.data}",
                                          f"--train_url={train_dir}"], tmp_path / "eval.log")
    assert f"run: EVAL of {train_dir}/model.ckpt-{STEPS}: accuracy = " in output
    assert accuracy_of(output) > TRAINED_ACCURACY, output[-3000:]


def test_num_gpus_trains_two_clones(ported, tmp_path):
    train_dir = tmp_path / "train"
    output = ported.run("train_mnist.py", [f"--data_url={ported.data}",
                                           f"--train_url={train_dir}", "--num_gpus=2"],
                        tmp_path / "train.log")
    assert "run: TRAIN, 2 clone(s) on the CPU, replica 0 of 1" in output
    assert f"run: TRAIN done at global step {STEPS}" in output
    assert 'name: "clone_1/' in (train_dir / "graph.pbtxt").read_text()


@pytest.fixture(scope="module")
def cluster(ported, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cluster")
    hosts = [f"{LOCALHOST}:{port}" for port in free_ports(4)]
    common = [f"--ps_hosts={hosts[0]},{hosts[1]}", f"--worker_hosts={hosts[2]},{hosts[3]}",
              f"--data_url={ported.data}", f"--train_url={tmp / 'train'}"]
    deadline = time.monotonic() + CLUSTER_TIMEOUT_SECS
    with ProcessSet() as procs:
        tasks = [procs.start_python(
            [str(ported.ported / "train_mnist.py"), *common, f"--job_name={job}",
             f"--task_index={index}"],
            tmp / f"{job}{index}.log", env=ENV, cwd=ported.ported, name=f"{job}{index}")
            for job in ("ps", "worker") for index in range(2)]
        exit_codes = procs.wait_all(tasks, deadline)
    return {"train_dir": tmp / "train", "exit_codes": exit_codes,
            "logs": {task.name: task.log() for task in tasks}}


def test_two_ps_and_two_workers_all_exit_cleanly(cluster):
    failed = {name: code for name, code in cluster["exit_codes"].items() if code != 0}
    assert not failed, "\n".join(f"--- {name} exited {code}:\n{cluster['logs'][name][-3000:]}"
                                 for name, code in failed.items())
    for index in range(2):
        log = cluster["logs"][f"worker{index}"]
        assert f"replica {index} of 2, 2 ps task(s)" in log, log[-3000:]
        assert f"after {STEPS} steps of this worker" in log, log[-3000:]
    assert list(cluster["train_dir"].glob("model.ckpt-*.index"))
    # The chief alone exports, once.
    assert sorted(p.name for p in cluster["train_dir"].iterdir() if p.name.isdigit()) == ["1"]
    assert "as a TF Serving model" in cluster["logs"]["worker0"]
    assert "as a TF Serving model" not in cluster["logs"]["worker1"]


def test_cluster_checkpoint_evaluates_above_chance(ported, cluster, tmp_path):
    output = ported.run("eval_mnist.py", [f"--data_url={ported.data}",
                                          f"--train_url={cluster['train_dir']}"],
                        tmp_path / "eval.log")
    assert accuracy_of(output) > TRAINED_ACCURACY, output[-3000:]


def test_training_exports_a_saved_model_that_serves_the_eval_accuracy(ported, one_process,
                                                                      tmp_path):
    """export_model=mox.ExportKeys.TF_SERVING: train_url/1 scores what the eval script does."""
    import numpy as np
    import tensorflow as tf

    from slim_ext import mnist_input_data

    train_dir, output = one_process
    saved_model = train_dir / "1"
    assert f"run: exported {train_dir}/model.ckpt-{STEPS} as a TF Serving model to " \
           f"{saved_model}." in output, output[-3000:]
    evaluated = ported.run("eval_mnist.py", [f"--data_url={ported.data}",
                                             f"--train_url={train_dir}"], tmp_path / "eval.log")
    test = mnist_input_data.read_data_sets(str(ported.data), one_hot=True).test
    labels = test.labels.argmax(1)

    served = tf.saved_model.load(str(saved_model)).signatures["serving_default"]
    eager = served(images=tf.constant(test.images))["logits"].numpy()
    np.save(tmp_path / "images.npy", test.images)
    cli = subprocess.run(
        [str(Path(sys.executable).with_name("saved_model_cli")), "run", "--dir",
         str(saved_model), "--tag_set", "serve", "--signature_def", "serving_default",
         "--inputs", f"images={tmp_path / 'images.npy'}", "--outdir", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=RUN_TIMEOUT_SECS)
    assert cli.returncode == 0, cli.stderr[-3000:]
    lite = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_saved_model(
        str(saved_model)).convert()).get_signature_runner("serving_default")
    ways = {"eager": eager, "saved_model_cli": np.load(tmp_path / "out" / "logits.npy"),
            "tflite": lite(images=test.images)["logits"]}
    for name, logits in ways.items():
        np.testing.assert_allclose(logits, eager, rtol=1e-5, atol=1e-5, err_msg=name)
    # The eval script's mean over its 100-example batches of the 2,000: a multiple of 1/2000.
    accuracies = {name: round(float(np.mean(logits.argmax(1) == labels)), 4)
                  for name, logits in ways.items()}
    assert accuracies == dict.fromkeys(ways, accuracy_of(evaluated)), accuracies
