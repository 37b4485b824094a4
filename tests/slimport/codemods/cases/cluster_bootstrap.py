"""cluster_bootstrap: cluster.bootstrap(FLAGS) at the top of between-graph trainers' main."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit, source_text

TRAIN_SCRIPT = """
    from tensorflow.compat.v1 import app
    from tensorflow.compat.v1 import flags
    flags.DEFINE_string('master', '', 'Session target.')
    flags.DEFINE_string('train_dir', None, 'Out.')
    flags.DEFINE_integer('task', 0, 'Task.')
    flags.DEFINE_integer('worker_replicas', 1, 'Replicas.')
    flags.DEFINE_integer('num_ps_tasks', 0, 'PS tasks.')
    FLAGS = flags.FLAGS

    def main(_):
      \"\"\"Trains.\"\"\"
      if not FLAGS.train_dir:
        raise ValueError('--train_dir')

    if __name__ == '__main__':
      app.run(main)
"""

# A script that starts its own server from the platform's TF_CONFIG.
OWN_SERVER = """
    import json
    import os
    from tensorflow.compat.v1 import app, flags
    import tensorflow.compat.v1 as tf
    flags.DEFINE_string('master', '', 'Master.')
    flags.DEFINE_integer('task', 0, 'Task.')
    flags.DEFINE_integer('num_ps_tasks', 0, 'PS tasks.')
    FLAGS = flags.FLAGS

    def start_server():
        config = json.loads(os.environ['TF_CONFIG'])
        return tf.train.Server(tf.train.ClusterSpec(config['cluster']))

    def main(_):
        server = start_server()

    if __name__ == '__main__':
        app.run(main)
"""

CASES = [
    Edit(
        "tf1 train script",
        before="""
            import tensorflow as tf

            tf.app.flags.DEFINE_string('master', '', 'Session target.')
            tf.app.flags.DEFINE_integer('task', 0, 'Task id of the replica.')
            tf.app.flags.DEFINE_integer('worker_replicas', 1, 'Replicas.')
            tf.app.flags.DEFINE_integer('num_ps_tasks', 0, 'Parameter servers.')

            FLAGS = tf.app.flags.FLAGS


            def main(_):
              \"\"\"Trains.\"\"\"
              tf.logging.set_verbosity(tf.logging.INFO)


            if __name__ == '__main__':
              tf.app.run()
        """,
        after="""
            import tensorflow as tf
            from slim_ext import cluster

            tf.app.flags.DEFINE_string('master', '', 'Session target.')
            tf.app.flags.DEFINE_integer('task', 0, 'Task id of the replica.')
            tf.app.flags.DEFINE_integer('worker_replicas', 1, 'Replicas.')
            tf.app.flags.DEFINE_integer('num_ps_tasks', 0, 'Parameter servers.')

            FLAGS = tf.app.flags.FLAGS


            def main(_):
              \"\"\"Trains.\"\"\"
              cluster.bootstrap(FLAGS)
              tf.logging.set_verbosity(tf.logging.INFO)


            if __name__ == '__main__':
              tf.app.run()
        """,
    ),
    Edit(
        "goes after uflag.apply",
        before="""
            from tensorflow.compat.v1 import app, flags
            from slim_ext import uflag

            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task_id', 0, '')
            flags.DEFINE_integer('ps_tasks', 0, '')
            FLAGS = flags.FLAGS

            def main(_):
              uflag.apply(FLAGS, {'work_dir': 'train_dir'})
              run()

            app.run(main)
        """,
        after="""
            from tensorflow.compat.v1 import app, flags
            from slim_ext import cluster, uflag

            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task_id', 0, '')
            flags.DEFINE_integer('ps_tasks', 0, '')
            FLAGS = flags.FLAGS

            def main(_):
              uflag.apply(FLAGS, {'work_dir': 'train_dir'})
              cluster.bootstrap(FLAGS)
              run()

            app.run(main)
        """,
    ),
    Edit(
        "local cluster variable moves import to alias",
        before="""
            from tensorflow.compat.v1 import app, flags

            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            FLAGS = flags.FLAGS

            def main(_):
              cluster = make_cluster_spec()
              run(cluster)

            app.run(main)
        """,
        after="""
            from tensorflow.compat.v1 import app, flags
            from slim_ext import cluster as slim_ext_cluster

            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            FLAGS = flags.FLAGS

            def main(_):
              slim_ext_cluster.bootstrap(FLAGS)
              cluster = make_cluster_spec()
              run(cluster)

            app.run(main)
        """,
    ),

    Edit(
        "a second run changes nothing",
        before=TRAIN_SCRIPT,
        after="""
            from tensorflow.compat.v1 import app
            from tensorflow.compat.v1 import flags
            from slim_ext import cluster

            flags.DEFINE_string('master', '', 'Session target.')
            flags.DEFINE_string('train_dir', None, 'Out.')
            flags.DEFINE_integer('task', 0, 'Task.')
            flags.DEFINE_integer('worker_replicas', 1, 'Replicas.')
            flags.DEFINE_integer('num_ps_tasks', 0, 'PS tasks.')
            FLAGS = flags.FLAGS

            def main(_):
              \"\"\"Trains.\"\"\"
              cluster.bootstrap(FLAGS)
              if not FLAGS.train_dir:
                raise ValueError('--train_dir')

            if __name__ == '__main__':
              app.run(main)
        """,
        # At the def main line.
        findings=[edit(10, "main calls cluster.bootstrap(FLAGS)")],
    ),
    Reported(
        "ps tasks without master",
        """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
        """,
        [attention(3, "but not master")],
    ),
    Reported(
        "main defined elsewhere",
        """
            from tensorflow.compat.v1 import app, flags
            from trainer import main
            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            app.run(main)
        """,
        [attention(6, fix="cluster.bootstrap(FLAGS)")],
    ),
    # A script that starts its own server is left alone; so is own_server's port of it, on
    # a second run.
    Reported("a script that starts its own tf.train.Server", OWN_SERVER,
             [attention(12, "starts its own server")]),
    Reported("a script that starts its own cluster.Server",
             "from slim_ext import cluster\n"
             + source_text(OWN_SERVER).replace("tf.train.Server(", "cluster.Server("),
             [attention(13, "starts its own server")]),
    Noop("an eval script with master only",
         """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('master', '', '')
            flags.DEFINE_string('eval_dir', '', '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
         """),
    Noop("not an entry script",
         """
            from tensorflow.compat.v1 import flags
            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
         """),
    Noop("a task flag that is not about replicas",
         """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_integer('task', 0, 'Which task to run.')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
         """),
    Noop("already ported",
         """
            from tensorflow.compat.v1 import app, flags
            from slim_ext import cluster
            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            FLAGS = flags.FLAGS
            def main(_):
              cluster.bootstrap(FLAGS)
            app.run(main)
         """),
]
