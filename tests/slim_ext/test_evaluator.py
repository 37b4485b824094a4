"""slim_ext.evaluator: the evaluator task's loop over new checkpoints.

The loop runs real child processes on checkpoints a real tf.train.Saver
writes; the children here are small scripts that record their runs, so each
test takes seconds. The ported eval_image_classifier.py runs under the loop
in tests/regression/test_start_order.py.
"""
import os
import signal
import sys
import textwrap
import threading
import time

import pytest

from tests._procs import ProcessSet

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def evaluator(tf):  # pylint: disable=unused-argument
  from slim_ext import evaluator as module  # pylint: disable=g-import-not-at-top
  return module


def _save_checkpoint(tf, directory, step):
  with tf.Graph().as_default():
    global_step = tf.Variable(step, dtype=tf.int64, name="global_step")
    with tf.Session() as session:
      session.run(global_step.initializer)
      tf.train.Saver().save(session, str(directory / "model.ckpt"),
                            global_step=step)


def _recorder(tmp_path, exit_code=0, sleep_secs=0.0):
  """A child script that appends one line per run to runs.txt."""
  script = tmp_path / "record.py"
  script.write_text(textwrap.dedent(f"""\
      import os, sys, time
      with open({str(tmp_path / 'runs.txt')!r}, "a") as runs:
        runs.write(" ".join([str(os.getpid()), *sys.argv[1:]]) + "\\n")
      time.sleep({sleep_secs})
      sys.exit({exit_code})
      """))
  return script


def _runs(tmp_path):
  path = tmp_path / "runs.txt"
  return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize(("args", "expected"), [
    (["--output_dir", "/out", "--max_step", "40"], ("/out", 40)),
    (["--output_dir=/out", "--checkpoint_path", "/ckpt"], ("/ckpt", None)),
    (["--model_name", "lenet", "--clone_on_cpu", "--max_step=7",
      "--log_dir", "/eval", "--data_dir", "/data"], (None, 7)),
    ([], (None, None)),
    # As absl would: flags after "--" are the script's positional arguments.
    (["--output_dir", "/out", "--", "--max_step", "9"], ("/out", None)),
])
def test_reads_the_directory_and_target_from_the_scripts_flags(
    evaluator, args, expected):
  assert evaluator.flags_from_script_args(args) == expected


def test_a_bad_target_value_names_the_flag(evaluator):
  with pytest.raises(ValueError, match="max_step"):
    evaluator.flags_from_script_args(["--max_step=ten"])


@pytest.mark.parametrize(("args", "message"), [
    (["eval.py", "--model_name", "lenet"], "no checkpoint directory"),
    (["--eval_interval_secs", "0", "eval.py", "--output_dir", "/x"],
     "--eval_interval_secs must be > 0"),
    (["eval.py", "--output_dir", "/x", "--max_step", "many"], "max_step"),
    (["--checkpoint_dir", "{file}", "eval.py"], "is a file, not the training "
     "directory"),
])
def test_usage_errors_exit_2_with_a_message(evaluator, tmp_path, capsys,
                                            args, message):
  checkpoint_file = tmp_path / "model.ckpt-5.index"
  checkpoint_file.write_text("")
  with pytest.raises(SystemExit) as raised:
    evaluator.main([arg.format(file=checkpoint_file) for arg in args])
  assert raised.value.code == 2
  assert message in capsys.readouterr().err


def test_evaluates_each_new_checkpoint_until_the_target(evaluator, tf,
                                                        tmp_path):
  train_dir = tmp_path / "train"
  loop = evaluator.Evaluator(
      [sys.executable, str(_recorder(tmp_path)), "--flag"], str(train_dir),
      target_step=30, eval_interval_secs=0.1)

  def train():
    # The next checkpoint comes once the loop has taken the last one.
    for step in (10, 20, 30):
      _save_checkpoint(tf, train_dir, step)
      deadline = time.monotonic() + 60
      while len(loop.evaluated) < step // 10 and time.monotonic() < deadline:
        time.sleep(0.05)

  trainer = threading.Thread(target=train)
  trainer.start()
  try:
    assert loop.run() == 0
  finally:
    trainer.join()
  assert [step for _, step in loop.evaluated] == [10, 20, 30]
  assert loop.evaluated[-1][0] == str(train_dir / "model.ckpt-30")
  assert [run.split()[1:] for run in _runs(tmp_path)] == [["--flag"]] * 3


def test_waits_for_the_first_checkpoint_and_skips_seen_ones(evaluator, tf,
                                                            tmp_path,
                                                            monkeypatch):
  train_dir = tmp_path / "train"  # does not exist yet
  loop = evaluator.Evaluator([sys.executable, str(_recorder(tmp_path))],
                             str(train_dir), target_step=None,
                             eval_interval_secs=0.01)
  looked = []
  look = evaluator.latest_checkpoint

  def latest_checkpoint(directory):
    # Each of the loop's looks, in order, whatever the machine's speed: two
    # find nothing, then the checkpoint is saved; the next finds it, three
    # more see it again; then the loop is stopped.
    found = look(directory)
    looked.append(found)
    if len(looked) == 2:
      _save_checkpoint(tf, train_dir, 3)
    if len(looked) == 6:
      loop.stop()
    return found

  monkeypatch.setattr(evaluator, "latest_checkpoint", latest_checkpoint)
  assert loop.run() == 0  # no target: runs until stopped
  assert looked[:2] == [None, None]
  assert [step for _, step in looked[2:]] == [3] * 4
  assert [step for _, step in loop.evaluated] == [3]
  assert len(_runs(tmp_path)) == 1


def test_a_failed_evaluation_ends_the_loop_with_its_status(evaluator, tf,
                                                           tmp_path):
  _save_checkpoint(tf, tmp_path / "train", 4)
  loop = evaluator.Evaluator(
      [sys.executable, str(_recorder(tmp_path, exit_code=3))],
      str(tmp_path / "train"), target_step=10, eval_interval_secs=0.1)
  assert loop.run() == 3
  assert len(_runs(tmp_path)) == 1


@pytest.mark.cluster
def test_sigterm_stops_the_running_evaluation_and_exits_0(tf, tmp_path):
  _save_checkpoint(tf, tmp_path / "train", 4)
  script = _recorder(tmp_path, sleep_secs=120)
  with ProcessSet() as procs:
    proc = procs.start_python(
        ["-m", "slim_ext.evaluator", "--eval_interval_secs", "0.2",
         str(script), "--output_dir", str(tmp_path / "train"),
         "--max_step", "10"], tmp_path / "evaluator.log", name="evaluator")
    deadline = time.monotonic() + 120
    while not _runs(tmp_path) and time.monotonic() < deadline:
      assert proc.returncode() is None, proc.log()[-3000:]
      time.sleep(0.2)
    child_pid = int(_runs(tmp_path)[0].split()[0])
    proc.popen.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0, proc.log()[-3000:]
  assert "evaluator: stopped." in proc.log()
  with pytest.raises(ProcessLookupError):  # its evaluation was stopped too
    os.kill(child_pid, 0)
