"""own_server: a TF1 script's own tf.train.Server becomes slim_ext.cluster.Server."""
from __future__ import annotations

import functools
import textwrap

import pytest

from slimport.codemods.own_server import OwnServerCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, OwnServerCommand)


class TestOwnServer(IdempotentCodemodTest):
    TRANSFORM = OwnServerCommand

    def test_the_platform_scripts_ps_and_worker(self) -> None:
        before = """
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
        """
        after = """
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
        """
        self.assertCodemod(before, after)

    def test_every_spelling_of_the_server(self) -> None:
        before = """
            import tensorflow as tf
            import tensorflow.compat.v1 as tf1
            from tensorflow.train import Server

            config = tf.ConfigProto()
            a = tf.distribute.Server(spec, job_name='ps', config=config)
            b = tf1.train.Server(spec, job_name='worker')
            c = tf1.distribute.Server(spec, job_name='worker', task_index=1)
            d = Server(spec, job_name='worker', task_index=2)
        """
        after = """
            import tensorflow as tf
            import tensorflow.compat.v1 as tf1
            from slim_ext import cluster

            config = tf.ConfigProto()
            a = cluster.Server(spec, job_name='ps', config=config)
            b = cluster.Server(spec, job_name='worker')
            c = cluster.Server(spec, job_name='worker', task_index=1)
            d = cluster.Server(spec, job_name='worker', task_index=2)
        """
        self.assertCodemod(before, after)

    def test_a_name_cluster_of_the_scripts_own_moves_the_import(self) -> None:
        before = """
            import tensorflow as tf

            cluster = tf.train.ClusterSpec({'ps': ['b:1']})
            tf.train.Server(cluster, job_name='ps').join()
        """
        after = """
            import tensorflow as tf
            from slim_ext import cluster as slim_ext_cluster

            cluster = tf.train.ClusterSpec({'ps': ['b:1']})
            slim_ext_cluster.Server(cluster, job_name='ps').join()
        """
        self.assertCodemod(before, after)

    def test_an_existing_import_is_used(self) -> None:
        before = """
            import tensorflow as tf
            from slim_ext import cluster as slim_cluster

            server = tf.train.Server(spec, job_name='worker')
            slim_cluster.strategy_for(None)
        """
        after = """
            import tensorflow as tf
            from slim_ext import cluster as slim_cluster

            server = slim_cluster.Server(spec, job_name='worker')
            slim_cluster.strategy_for(None)
        """
        self.assertCodemod(before, after)


NOOP = {
    "local_server": (
        "import tensorflow as tf\nserver = tf.train.Server.create_local_server()\n"
        "sess = tf.Session(server.target)\n"),
    "cluster_spec_and_server_def": (
        "import tensorflow as tf\nspec = tf.train.ClusterSpec({'ps': ['b:1']})\n"
        "definition = tf.train.ServerDef(cluster=spec.as_cluster_def())\n"
        "sess = tf.Session()\n"),
    "server_not_called": (
        "import tensorflow as tf\nsess = tf.Session()\n\n"
        "def is_server(x):\n  return isinstance(x, tf.train.Server)\n"),
    # slim_ext starts this script's servers.
    "script_using_bootstrap": (
        "import tensorflow as tf\nfrom slim_ext import cluster\n\n"
        "def main(_):\n  cluster.bootstrap(FLAGS)\n  if FLAGS.local:\n"
        "    tf.train.Server(spec, job_name='worker').join()\n"),
    # TF2 code: tf.distribute.Server is TF2's API too.
    "tf2_code": (
        "import tensorflow as tf\n\nserver = tf.distribute.Server(\n"
        "    resolver.cluster_spec(), job_name='ps', protocol='grpc')\n"
        "strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)\n"
        "server.join()\n"),
    "local_tf": (
        "import tensorflow as tf\nsess = tf.Session()\n\n"
        "def start(tf):\n  return tf.train.Server(spec)\n"),
    "already_ported": (
        "import tensorflow as tf\nfrom slim_ext import cluster\n\n"
        "cluster.Server(tf.train.ClusterSpec({'ps': ['b:1']}), job_name='ps').join()\n"),
}


@pytest.mark.parametrize("source", NOOP.values(), ids=list(NOOP))
def test_noop(source: str) -> None:
    assert run(source) == (source, [])


def test_each_server_is_an_edit_at_its_line() -> None:
    source = ("import tensorflow as tf\n\n"
              "server = tf.train.Server(spec, job_name='worker')\n")
    _, [finding] = run(source)
    assert (finding.kind, finding.line) == ("edit", 3)
    assert finding.message.startswith("tf.train.Server( -> cluster.Server(: a ps task's join()")


def test_os_exit_after_join_is_reported_as_a_latent_bug() -> None:
    source = textwrap.dedent("""\
        import os
        import tensorflow as tf

        def serve(spec):
          tf.train.Server(spec, job_name='ps').join()
          os.exit(0)
        """)
    code, findings = run(source)
    assert "  os.exit(0)\n" in code
    [attention] = [f for f in findings if f.kind == "attention"]
    assert attention.line == 6
    assert attention.message == (
        "os.exit does not exist: reached, it raises AttributeError; after join(), which "
        "never returns, it never was (nor is it with slim_ext.cluster.Server, which ends a "
        "ps's process itself)")
    assert attention.fix == "delete it, or call sys.exit(...) if the process must end there"


def test_os_exit_elsewhere_is_reported_too() -> None:
    source = ("import os\nimport tensorflow as tf\n\n"
              "server = tf.train.Server(spec, job_name='worker')\nif done:\n  os.exit(1)\n")
    _, findings = run(source)
    [attention] = [f for f in findings if f.kind == "attention"]
    assert (attention.line, attention.message) == (
        6, "os.exit does not exist: reached, it raises AttributeError")
