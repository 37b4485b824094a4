"""A TF1 entry script that starts its own cluster tasks, as platform scripts did.

It builds its ClusterSpec from its flags and starts its server with
``slim_ext.cluster.Server`` (what the port writes for ``tf.train.Server``):
a ps joins it, a worker trains ``slim.learning.train`` against it, as
research/slim calls it (no session_config), to --max_number_of_steps and
prints one JSON line: the device filters and poll interval its Supervisor
got, and the final global step it saw.
"""
import json

from absl import app
from absl import flags
import tensorflow.compat.v1 as tf

import _slim_replica
from slim_ext import cluster
from slim_ext import supervisor

tf.disable_v2_behavior()

flags.DEFINE_string("ps_address", "", "host:port of the one ps task.")
flags.DEFINE_list("worker_addresses", [], "host:port of each worker.")
flags.DEFINE_enum("role", "worker", ["ps", "worker"], "This task's job.")
flags.DEFINE_integer("index", 0, "This task's index in its job.")
flags.DEFINE_string("train_dir", "", "Checkpoint directory.")
flags.DEFINE_integer("max_number_of_steps", None, "Steps to train to.")
FLAGS = flags.FLAGS

# Exit status of a ps whose join() returned: TensorFlow's never does.
JOIN_RETURNED = 3


def main(_):
  cluster_spec = tf.train.ClusterSpec({"worker": FLAGS.worker_addresses,
                                       "ps": [FLAGS.ps_address]})
  if FLAGS.role == "ps":
    cluster.Server(cluster_spec, job_name="ps", task_index=FLAGS.index,
                   config=tf.ConfigProto(device_count={"GPU": 0})).join()
    raise SystemExit(JOIN_RETURNED)
  server = cluster.Server(cluster_spec, job_name="worker",
                          task_index=FLAGS.index)
  final_step = _slim_replica.train(FLAGS.index, server.target,
                                   FLAGS.train_dir, FLAGS.max_number_of_steps)
  print(json.dumps({
      "device_filters": supervisor.device_filters(),
      "recovery_wait_secs": supervisor.recovery_wait_secs(),
      "final_step": final_step,
  }))


if __name__ == "__main__":
  app.run(main)
