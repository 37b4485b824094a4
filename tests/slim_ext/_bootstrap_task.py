"""A slim-style entry script for the live bootstrap tests.

Defines slim's cluster flags (--master --task --worker_replicas --num_ps_tasks,
--train_dir --max_number_of_steps) and calls ``cluster.bootstrap(FLAGS)`` first
thing in ``main``, as a ported train_image_classifier.py does. A ps task never
returns from bootstrap, nor does a task whose job is already done.

``--train_with session`` (default): the worker increments its own counter on
/job:ps three times, computing on its own task, in a session that sees only
the ps and itself (``config.session_config()``).
``--train_with learning``: the worker runs ``slim.learning.train`` exactly as
research/slim's script calls it (no ``session_config``) until the global step
on /job:ps reaches --max_number_of_steps.

Either way it prints one JSON line: the flags bootstrap set, what it computed,
and the devices its steps ran on.
"""
import json

from absl import app
from absl import flags
import tensorflow.compat.v1 as tf

import _slim_replica
from slim_ext import cluster
from slim_ext import supervisor

tf.disable_v2_behavior()

flags.DEFINE_string("master", "", "The session target.")
flags.DEFINE_integer("task", 0, "Task id of this worker.")
flags.DEFINE_integer("worker_replicas", 1, "Number of workers.")
flags.DEFINE_integer("num_ps_tasks", 0, "Number of ps tasks.")
flags.DEFINE_string("train_dir", "", "Checkpoint directory (learning mode).")
flags.DEFINE_integer("max_number_of_steps", None, "Steps to train to.")
flags.DEFINE_enum("train_with", "session", ["session", "learning"],
                  "How the worker computes: its own session, or "
                  "slim.learning.train.")
FLAGS = flags.FLAGS


def _count_in_own_session(config):
  """Three increments of this worker's counter on the ps; the values seen."""
  with tf.Graph().as_default():
    with tf.device("/job:ps/task:0"):
      # One counter per worker: workers start and initialise independently.
      counter = tf.Variable(0, name=f"counter_{FLAGS.task}")
    with tf.device(f"/job:worker/task:{FLAGS.task}"):
      step = tf.cast(tf.reduce_sum(tf.ones([4, 4])), tf.int32) // 16
    increment = counter.assign_add(step)
    trace = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    devices = set()
    values = []
    with tf.Session(FLAGS.master,
                    config=config.session_config()) as session:
      session.run(counter.initializer)
      for _ in range(3):
        metadata = tf.RunMetadata()
        values.append(int(session.run(increment, options=trace,
                                      run_metadata=metadata)))
        devices.update(stats.device for stats in metadata.step_stats.dev_stats)
  return {"values": values, "devices": sorted(devices)}


def _train_with_learning():
  """slim.learning.train as research/slim calls it; the final global step."""
  final_step = _slim_replica.train(FLAGS.task, FLAGS.master, FLAGS.train_dir,
                                   FLAGS.max_number_of_steps)
  return {"final_step": final_step if FLAGS.task == 0 else None}


def main(_):
  config = cluster.bootstrap(FLAGS)
  if FLAGS.train_with == "session":
    result = _count_in_own_session(config)
  else:
    result = _train_with_learning()
  print(json.dumps({
      "tf1_task": list(config.tf1_task()),
      "master": FLAGS.master,
      "task": FLAGS.task,
      "task_index": FLAGS.task_index,
      "worker_replicas": FLAGS.worker_replicas,
      "num_ps_tasks": FLAGS.num_ps_tasks,
      "recovery_wait_secs": supervisor.recovery_wait_secs(),
      "device_filters": supervisor.device_filters(),
      **result,
  }))


if __name__ == "__main__":
  app.run(main)
