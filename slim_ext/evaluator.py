"""The evaluator task: evaluates each new checkpoint of a training job.

research/slim's ``eval_image_classifier.py`` evaluates the latest checkpoint
once and exits. On a cluster with an ``evaluator`` task (Kubeflow TFJob's
``Evaluator`` replicas, Vertex AI's fourth worker pool) that task must keep
evaluating while the others train, and never join their cluster. So the
evaluator runs the unchanged eval script under this loop::

  python -m slim_ext.evaluator eval_image_classifier.py \\
      --data_dir /data --output_dir /shared/train --log_dir /shared/eval \\
      --max_step 2000 --dataset_name ... --model_name ...

Every ``--eval_interval_secs`` it looks at the checkpoint directory; when
there is a checkpoint it has not evaluated, it runs the script once (a fresh
process; the script evaluates the latest checkpoint, so one saved while the
script starts is evaluated by that run and again by the next). It stops with
status 0 after evaluating a checkpoint whose global step has reached the
job's target, or on SIGTERM/SIGINT; it stops with the script's status when an
evaluation fails. The directory and the target are read from the script's own
flags (``--checkpoint_path`` or the platform's ``--output_dir``, and the
platform's ``--max_step``) unless given before the script.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
from typing import List, Optional, Sequence, Tuple

from absl import flags
from absl import logging
import tensorflow as tf

from slim_facts import platform_flags

# The eval script's flags that name the checkpoint directory, slim's first,
# then the platform flag mapped onto it; and the platform flag for the target.
CHECKPOINT_FLAGS = ("checkpoint_path", *(
    platform for platform, slim in platform_flags.EVAL_MAPPING.items()
    if slim == "checkpoint_path"))
TARGET_FLAG = next(platform for platform, slim in platform_flags.TRAIN_MAPPING.items()
                   if slim == "max_number_of_steps")

DEFAULT_EVAL_INTERVAL_SECS = 60.0


def flags_from_script_args(script_args: Sequence[str]
                           ) -> Tuple[Optional[str], Optional[int]]:
  """The checkpoint directory and the target step among the script's flags.

  Args:
    script_args: the eval script's command line, without the script.

  Returns:
    (directory or None, target step or None), as the script would parse
    them: ``--checkpoint_path`` wins over ``--output_dir``.

  Raises:
    ValueError: a value does not parse (e.g. ``--max_step=ten``).
  """
  flag_values = flags.FlagValues()
  for name in CHECKPOINT_FLAGS:
    flags.DEFINE_string(name, None, "", flag_values=flag_values)
  flags.DEFINE_integer(TARGET_FLAG, None, "", flag_values=flag_values)
  try:
    flag_values(["script", *script_args], known_only=True)
  except flags.Error as error:
    raise ValueError(f"the eval script's flags: {error}") from None
  directory = next((flag_values[name].value for name in CHECKPOINT_FLAGS
                    if flag_values[name].value), None)
  return directory, flag_values[TARGET_FLAG].value


def latest_checkpoint(directory: str) -> Optional[Tuple[str, int]]:
  """The newest checkpoint in `directory` and its global step, or None.

  None also when the checkpoint is gone by the time it is read (the saver
  keeps only the last few).
  """
  path = tf.train.latest_checkpoint(directory)
  if path is None:
    return None
  try:
    return path, int(tf.train.load_variable(path, "global_step"))
  except tf.errors.NotFoundError:
    return None


class Evaluator:
  """Runs an eval script once per new checkpoint until the job is done.

  Attributes:
    evaluated: (checkpoint, global step) of each checkpoint seen new when an
      evaluation started, in order.
  """

  def __init__(self, command: Sequence[str], checkpoint_dir: str,
               target_step: Optional[int], eval_interval_secs: float):
    """Creates the loop; `run()` starts it.

    Args:
      command: the eval script's full command line.
      checkpoint_dir: where the training job writes its checkpoints.
      target_step: the job's last global step; None or 0 to evaluate until
        stopped.
      eval_interval_secs: seconds between looks at the checkpoint directory.
    """
    self._command = list(command)
    self._checkpoint_dir = checkpoint_dir
    self._target_step = target_step
    self._interval = eval_interval_secs
    self._stop = threading.Event()
    self._child: Optional[subprocess.Popen] = None
    self.evaluated: List[Tuple[str, int]] = []

  def stop(self) -> None:
    """Ends `run()`: stops a running evaluation (by its pid) and returns 0."""
    self._stop.set()
    child = self._child
    if child is not None and child.poll() is None:
      child.terminate()

  def run(self) -> int:
    """Evaluates new checkpoints until the job is done or `stop()`.

    Returns:
      0 when the job's last checkpoint was evaluated or on `stop()`; the eval
      script's exit status when an evaluation failed.
    """
    while not self._stop.is_set():
      latest = latest_checkpoint(self._checkpoint_dir)
      if latest is not None and (not self.evaluated
                                 or latest != self.evaluated[-1]):
        self.evaluated.append(latest)
        logging.info("evaluator: evaluating %s (step %d).", *latest)
        self._child = subprocess.Popen(self._command)
        code = self._child.wait()
        if self._stop.is_set():
          break
        if code:
          logging.error("evaluator: %s exited %d evaluating %s.",
                        " ".join(self._command), code, latest[0])
          return code
        if self._target_step and latest[1] >= self._target_step:
          logging.info("evaluator: step %d reached the target %d; done.",
                       latest[1], self._target_step)
          return 0
      self._stop.wait(self._interval)
    logging.info("evaluator: stopped.")
    return 0


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
  parser = argparse.ArgumentParser(
      prog="python -m slim_ext.evaluator",
      description="Evaluate each new checkpoint of a training job with an "
      "evaluate-once script (research/slim's eval_image_classifier.py), "
      "until the job's last checkpoint; the evaluator task of a cluster.",
      epilog="The checkpoint directory and the target step are read from the "
      "script's flags (--checkpoint_path or --output_dir, --max_step) unless "
      "given here. Exit status: 0 when the last checkpoint was evaluated or "
      "on SIGTERM; the script's status when an evaluation failed; 2 on a "
      "usage error.")
  parser.add_argument("--checkpoint_dir",
                      help="directory the training job writes checkpoints to")
  parser.add_argument("--max_step", type=int,
                      help="the job's last global step (0: until stopped)")
  parser.add_argument("--eval_interval_secs", type=float,
                      default=DEFAULT_EVAL_INTERVAL_SECS,
                      help="seconds between looks for a new checkpoint "
                      "(default %(default)g)")
  parser.add_argument("script", help="the evaluation script")
  parser.add_argument("script_args", nargs=argparse.REMAINDER,
                      help="its flags, passed on unchanged")
  args = parser.parse_args(argv)
  try:
    script_dir, script_target = flags_from_script_args(args.script_args)
  except ValueError as error:
    parser.error(str(error))
  args.checkpoint_dir = args.checkpoint_dir or script_dir
  if args.max_step is None:
    args.max_step = script_target
  if not args.checkpoint_dir:
    parser.error("no checkpoint directory: give the script --output_dir (or "
                 "--checkpoint_path), or give --checkpoint_dir before the "
                 "script.")
  if os.path.exists(args.checkpoint_dir) and not os.path.isdir(
      args.checkpoint_dir):
    parser.error(f"{args.checkpoint_dir} is a file, not the training "
                 "directory; the evaluator watches the directory.")
  if not args.eval_interval_secs > 0:
    parser.error("--eval_interval_secs must be > 0.")
  return args


def main(argv: Optional[Sequence[str]] = None) -> int:
  args = _parse_args(sys.argv[1:] if argv is None else argv)
  logging.set_verbosity(logging.INFO)
  evaluator = Evaluator([sys.executable, args.script, *args.script_args],
                        args.checkpoint_dir, args.max_step,
                        args.eval_interval_secs)
  for signum in (signal.SIGTERM, signal.SIGINT):
    signal.signal(signum, lambda *_: evaluator.stop())
  logging.info("evaluator: watching %s%s; never joins the training "
               "cluster.", args.checkpoint_dir,
               f" until step {args.max_step}" if args.max_step else "")
  return evaluator.run()


if __name__ == "__main__":
  sys.exit(main())
