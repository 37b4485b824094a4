"""What the live cluster task scripts train: research/slim's learning.train call.

One weight and the global step on the ps, the loss on the replica's own worker
task, and ``slim.learning.train`` called as research/slim's script calls it
(no session_config), so the Supervisor's sessions are what slim_ext sets up.
Imported by ``_bootstrap_task.py`` and ``_own_server_task.py``, which run as
scripts from this directory.
"""
import tensorflow.compat.v1 as tf
import tf_slim as slim


def train(task, master, train_dir, number_of_steps):
  """Trains replica `task` against `master` until the global step's target.

  Returns:
    The global step of the latest checkpoint in `train_dir`.
  """
  with tf.Graph().as_default():
    with tf.device("/job:ps/task:0"):
      global_step = slim.create_global_step()
      weight = tf.Variable(0.0, name="weight")
    with tf.device(f"/job:worker/task:{task}"):
      loss = tf.square(weight - 1.0)
      train_op = slim.learning.create_train_op(
          loss, tf.train.GradientDescentOptimizer(0.1),
          global_step=global_step)
    slim.learning.train(
        train_op, logdir=train_dir, master=master, is_chief=(task == 0),
        number_of_steps=number_of_steps, save_summaries_secs=600,
        save_interval_secs=600)
  return int(tf.train.load_variable(tf.train.latest_checkpoint(train_dir),
                                    "global_step"))
