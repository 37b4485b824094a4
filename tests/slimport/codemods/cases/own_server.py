"""own_server: a TF1 script's own tf.train.Server becomes slim_ext.cluster.Server."""
from tests.slimport.codemods.cases import Edit, Noop, attention, edit

CASES = [
    Edit(
        "the platform script's ps and worker",
        before="""
            import os
            import tensorflow as tf

            def start(dist_config):
              cluster_spec = tf.train.ClusterSpec({'worker': ['a:1'], 'ps': ['b:1']})
              if dist_config.is_ps():
                tf.train.Server(cluster_spec,
                                job_name='ps',
                                config=tf.ConfigProto(device_count={'GPU': 0})).join()
                os.exit(0)
              server = tf.train.Server(cluster_spec, job_name='worker', task_index=1)
              return server.target
        """,
        after="""
            import os
            import tensorflow as tf
            from slim_ext import cluster

            def start(dist_config):
              cluster_spec = tf.train.ClusterSpec({'worker': ['a:1'], 'ps': ['b:1']})
              if dist_config.is_ps():
                cluster.Server(cluster_spec,
                                job_name='ps',
                                config=tf.ConfigProto(device_count={'GPU': 0})).join()
                os.exit(0)
              server = cluster.Server(cluster_spec, job_name='worker', task_index=1)
              return server.target
        """,
        findings=[attention(10, "os.exit does not exist", fix="delete it")],
    ),
    Edit(
        "every spelling of the server",
        before="""
            import tensorflow as tf
            import tensorflow.compat.v1 as tf1
            from tensorflow.train import Server

            config = tf.ConfigProto()
            a = tf.distribute.Server(spec, job_name='ps', config=config)
            b = tf1.train.Server(spec, job_name='worker')
            c = tf1.distribute.Server(spec, job_name='worker', task_index=1)
            d = Server(spec, job_name='worker', task_index=2)
        """,
        after="""
            import tensorflow as tf
            import tensorflow.compat.v1 as tf1
            from slim_ext import cluster

            config = tf.ConfigProto()
            a = cluster.Server(spec, job_name='ps', config=config)
            b = cluster.Server(spec, job_name='worker')
            c = cluster.Server(spec, job_name='worker', task_index=1)
            d = cluster.Server(spec, job_name='worker', task_index=2)
        """,
    ),
    Edit(
        "a name cluster of the script's own moves the import",
        before="""
            import tensorflow as tf

            cluster = tf.train.ClusterSpec({'ps': ['b:1']})
            tf.train.Server(cluster, job_name='ps').join()
        """,
        after="""
            import tensorflow as tf
            from slim_ext import cluster as slim_ext_cluster

            cluster = tf.train.ClusterSpec({'ps': ['b:1']})
            slim_ext_cluster.Server(cluster, job_name='ps').join()
        """,
    ),
    Edit(
        "an existing import is used",
        before="""
            import tensorflow as tf
            from slim_ext import cluster as slim_cluster

            server = tf.train.Server(spec, job_name='worker')
            slim_cluster.strategy_for(None)
        """,
        after="""
            import tensorflow as tf
            from slim_ext import cluster as slim_cluster

            server = slim_cluster.Server(spec, job_name='worker')
            slim_cluster.strategy_for(None)
        """,
    ),
    Edit(
        "each server is an edit at its line",
        before="import tensorflow as tf\n\nserver = tf.train.Server(spec, job_name='worker')\n",
        after="import tensorflow as tf\nfrom slim_ext import cluster\n\n"
              "server = cluster.Server(spec, job_name='worker')\n",
        findings=[edit(3, "tf.train.Server( -> cluster.Server(: a ps task's join()")],
    ),
    Edit(
        "os.exit after join is reported as a latent bug",
        before="""
            import os
            import tensorflow as tf

            def serve(spec):
              tf.train.Server(spec, job_name='ps').join()
              os.exit(0)
        """,
        after="""
            import os
            import tensorflow as tf
            from slim_ext import cluster

            def serve(spec):
              cluster.Server(spec, job_name='ps').join()
              os.exit(0)
        """,
        findings=[attention(
            6, "os.exit does not exist: reached, it raises AttributeError; after join(), which "
               "never returns, it never was (nor is it with slim_ext.cluster.Server, which ends "
               "a ps's process itself)",
            fix="delete it, or call sys.exit(...) if the process must end there")],
    ),
    Edit(
        "os.exit elsewhere is reported too",
        before="import os\nimport tensorflow as tf\n\n"
               "server = tf.train.Server(spec, job_name='worker')\nif done:\n  os.exit(1)\n",
        after="import os\nimport tensorflow as tf\nfrom slim_ext import cluster\n\n"
              "server = cluster.Server(spec, job_name='worker')\nif done:\n  os.exit(1)\n",
        findings=[attention(6, "os.exit does not exist: reached, it raises AttributeError",
                            fix="delete it")],
    ),
    # TF1's API through compat.v1, as object detection 2.x's legacy/train.py has it.
    Edit(
        "a script on compat.v1",
        before="import tensorflow.compat.v1 as tf\n\n"
               "server = tf.train.Server(spec, job_name='ps')\nserver.join()\n",
        after="import tensorflow.compat.v1 as tf\nfrom slim_ext import cluster\n\n"
              "server = cluster.Server(spec, job_name='ps')\nserver.join()\n",
    ),
    # TF 2's own server in TF 2 code.
    Noop("tf2 code with a strategy",
         "import tensorflow as tf\n"
         "server = tf.distribute.Server(spec, job_name='ps')\n"
         "strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)\n"),
    Noop("local server",
         "import tensorflow as tf\nserver = tf.train.Server.create_local_server()\n"
         "sess = tf.Session(server.target)\n"),
    Noop("cluster spec and server def",
         "import tensorflow as tf\nspec = tf.train.ClusterSpec({'ps': ['b:1']})\n"
         "definition = tf.train.ServerDef(cluster=spec.as_cluster_def())\nsess = tf.Session()\n"),
    Noop("server not called",
         "import tensorflow as tf\nsess = tf.Session()\n\ndef is_server(x):\n"
         "  return isinstance(x, tf.train.Server)\n"),
    # slim_ext starts this script's servers.
    Noop("script using bootstrap",
         "import tensorflow as tf\nfrom slim_ext import cluster\n\ndef main(_):\n"
         "  cluster.bootstrap(FLAGS)\n  if FLAGS.local:\n"
         "    tf.train.Server(spec, job_name='worker').join()\n"),
    # TF2 code: tf.distribute.Server is TF2's API too.
    Noop("tf2 code",
         "import tensorflow as tf\n\nserver = tf.distribute.Server(\n"
         "    resolver.cluster_spec(), job_name='ps', protocol='grpc')\n"
         "strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)\n"
         "server.join()\n"),
    Noop("local tf",
         "import tensorflow as tf\nsess = tf.Session()\n\ndef start(tf):\n"
         "  return tf.train.Server(spec)\n"),
    Noop("already ported",
         "import tensorflow as tf\nfrom slim_ext import cluster\n\n"
         "cluster.Server(tf.train.ClusterSpec({'ps': ['b:1']}), job_name='ps').join()\n"),
]
