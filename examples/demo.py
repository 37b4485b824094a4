"""The main job, end to end: port the bundled TF1 slim tree, then train and evaluate it.

Run by ``tox -e demo`` (the README's first command). Steps, each printed as it runs:
  1. ``slimport rewrite examples/slim_tf1 --out WORK/ported`` (+ JSON report)
  2. ``slimport verify WORK/ported --build nets.nets_factory``: every module imports,
     every entry script starts, every network builds and trains a step
  3. the ported ``make_synthetic_data.py`` writes a small TFRecord set (no downloads)
  4. the ported ``train_image_classifier.py`` trains LeNet for a few hundred steps
  5. the ported ``eval_image_classifier.py`` evaluates the final checkpoint
  6. ``python -m slim_ext.export`` saves it as a TF 2 SavedModel (its serving_default
     signature takes the data set's uint8 images and returns logits, probabilities, classes)
and finally where the checkpoint, the SavedModel, the event files and the report are.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE_TREE = REPO / "examples" / "slim_tf1"
# The synthetic data set's classes and image size (make_synthetic_data.py).
NUM_CLASSES, IMAGE_SIZE = 10, 32


def _run(title: str, argv: list, log: Path, show_all: bool = False) -> str:
    """Run one step, echoing its progress live; return its output (also kept in ``log``)."""
    print(f"\n=== {title}\n$ {' '.join(str(a) for a in argv)}", flush=True)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONUNBUFFERED="1")
    started = time.monotonic()
    lines = []
    with open(log, "w", encoding="utf-8") as copy:
        process = subprocess.Popen(
            [str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=env,
        )
        assert process.stdout is not None
        for line in process.stdout:
            copy.write(line)
            lines.append(line)
            if (show_all and not _NATIVE_LOG.match(line)) or _worth_showing(line):
                print("   " + line.rstrip(), flush=True)
        code = process.wait()
    elapsed = time.monotonic() - started
    if code != 0:
        sys.exit(f"demo: step '{title}' failed with exit code {code} after "
                 f"{elapsed:.0f} s; full output in {log}")
    print(f"--- done in {elapsed:.1f} s (log: {log})", flush=True)
    return "".join(lines)


# TF and absl log every line twice and add pages of deprecation notes; a person
# following the run wants progress, results and errors.
_PROGRESS = re.compile(
    r"^INFO:tensorflow:(global step|Saving|Finished|Evaluation \[|eval/|Wrote)"
    r"|^eval/|^SavedModel written|^Traceback|Error|^\s+File ")


# TensorFlow's native start-up lines, printed whatever TF_CPP_MIN_LOG_LEVEL says.
_NATIVE_LOG = re.compile(r"^(?:[IWE]\d{4} [\d:.]+\s+\d+ \S+:\d+\] "
                         r"|WARNING: All log messages before absl::InitializeLog)")


def _worth_showing(line: str) -> bool:
    return bool(_PROGRESS.search(line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", type=Path, default=REPO / ".demo",
                        help="where the ported tree, data, checkpoints and logs go "
                             "(default: .demo/ in the repository; recreated each run)")
    parser.add_argument("--steps", type=int, default=300, help="training steps (default 300)")
    parser.add_argument("--model", default="lenet", help="lenet or cifarnet_bn (default lenet)")
    args = parser.parse_args()

    work = args.workdir.resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ported, data = work / "ported", work / "data"
    train_dir, eval_dir, report = work / "train", work / "eval", work / "report.json"
    py = sys.executable

    _run("1/6 port the TF1 tree with slimport",
         [py, "-m", "slimport", "rewrite", SOURCE_TREE, "--out", ported, "--report", report],
         work / "rewrite.log", show_all=True)
    _run("2/6 verify the port: import every module, start every script, build every net",
         [py, "-m", "slimport", "verify", ported, "--build", "nets.nets_factory",
          "--report", work / "verify.json"],
         work / "verify.log", show_all=True)
    _run("3/6 generate the synthetic TFRecord data set",
         [py, ported / "make_synthetic_data.py", "--dataset_dir", data], work / "data.log")
    train_output = _run(f"4/6 train {args.model} for {args.steps} steps on TF 2 (CPU)",
         [py, ported / "train_image_classifier.py", "--train_dir", train_dir,
          "--dataset_dir", data, "--dataset_name", "synthetic",
          "--dataset_split_name", "train", "--model_name", args.model,
          "--max_number_of_steps", args.steps, "--batch_size", 32,
          "--learning_rate", 0.05, "--optimizer", "sgd",
          "--learning_rate_decay_type", "fixed", "--log_every_n_steps", 25,
          "--clone_on_cpu", "--save_interval_secs", 600],
         work / "train.log")
    eval_output = _run("5/6 evaluate the final checkpoint on the validation split",
         [py, ported / "eval_image_classifier.py", "--checkpoint_path", train_dir,
          "--eval_dir", eval_dir, "--dataset_dir", data, "--dataset_name", "synthetic",
          "--dataset_split_name", "validation", "--model_name", args.model],
         work / "eval.log")
    saved_model = work / "saved_model"
    _run("6/6 export the trained model as a TF 2 SavedModel",
         [py, "-m", "slim_ext.export", "--tree", ported, "--model_name", args.model,
          "--num_classes", NUM_CLASSES, "--checkpoint_path", train_dir,
          "--export_dir", saved_model, "--preprocessing_name", args.model,
          "--input_size", IMAGE_SIZE],
         work / "export.log")

    losses = re.findall(r"global step \d+: loss = ([0-9.]+)", train_output)
    accuracy = re.findall(r"eval/Accuracy\[([0-9.]+)\]", eval_output)
    print("\nslimport demo finished.")
    if losses:
        print(f"  training loss: {losses[0]} (first log) -> {losses[-1]} (last log)")
    if accuracy:
        print(f"  validation accuracy: {accuracy[-1]} (chance: 0.1)")
    print(f"  ported tree:  {ported}")
    print(f"  port report:  {report}")
    print(f"  verify report: {work / 'verify.json'}")
    print(f"  checkpoint:   {train_dir} (latest: model.ckpt-{args.steps}*)")
    print(f"  SavedModel:   {saved_model} (serving_default: uint8 images "
          f"[n, {IMAGE_SIZE}, {IMAGE_SIZE}, 3] -> logits, probabilities, classes; "
          f"saved_model_cli show --dir {saved_model} --all)")
    print(f"  eval events:  {eval_dir}")
    print(f"  step logs:    {work}/*.log")


if __name__ == "__main__":
    main()
