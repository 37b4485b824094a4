"""cluster_bootstrap: cluster.bootstrap(FLAGS) at the top of between-graph trainers' main."""
from __future__ import annotations

import functools
import textwrap

import pytest
from libcst.codemod import CodemodTest

from slimport.codemods.cluster_bootstrap import ClusterBootstrapCommand
from slimport.codemods.uai_flags import UaiFlagsCommand
from tests.slimport.codemods._helpers import run_codemod


run = functools.partial(run_codemod, ClusterBootstrapCommand)


class TestClusterBootstrap(CodemodTest):
    TRANSFORM = ClusterBootstrapCommand

    def test_tf1_train_script(self) -> None:
        before = """
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
        """
        after = """
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
        """
        self.assertCodemod(before, after)

    def test_goes_after_uflag_apply(self) -> None:
        before = """
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
        """
        after = """
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
        """
        self.assertCodemod(before, after)

    def test_local_cluster_variable_moves_import_to_alias(self) -> None:
        before = """
            from tensorflow.compat.v1 import app, flags

            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            FLAGS = flags.FLAGS

            def main(_):
              cluster = make_cluster_spec()
              run(cluster)

            app.run(main)
        """
        after = """
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
        """
        self.assertCodemod(before, after)


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


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_string('master', '', '')
            flags.DEFINE_string('eval_dir', '', '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
            """,
            id="eval-script-with-master-only",
        ),
        pytest.param(
            """
            from tensorflow.compat.v1 import flags
            flags.DEFINE_string('master', '', '')
            flags.DEFINE_integer('task', 0, '')
            flags.DEFINE_integer('num_ps_tasks', 0, '')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            """,
            id="not-an-entry-script",
        ),
        pytest.param(
            """
            from tensorflow.compat.v1 import app, flags
            flags.DEFINE_integer('task', 0, 'Which task to run.')
            FLAGS = flags.FLAGS
            def main(_):
              pass
            app.run(main)
            """,
            id="task-flag-that-is-not-about-replicas",
        ),
        pytest.param(
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
            """,
            id="already-ported",
        ),
    ],
)
def test_noop(source: str) -> None:
    assert run(source) == (textwrap.dedent(source), [])


def test_second_run_changes_nothing() -> None:
    once, findings = run(TRAIN_SCRIPT)
    assert [f.kind for f in findings] == ["edit"]
    assert findings[0].line == 11  # def main
    assert run(once) == (once, [])


def test_after_uai_flags_in_registry_order() -> None:
    with_uflag, _ = run_codemod(UaiFlagsCommand, TRAIN_SCRIPT)
    code, _ = run(with_uflag)
    body = code.split("def main(_):\n")[1].splitlines()
    assert body[0] == '  """Trains."""'
    assert body[1] == "  uflag.apply(FLAGS, {"
    assert body[4] == "  cluster.bootstrap(FLAGS)"
    assert body[5] == "  if not FLAGS.train_dir:"
    assert "from slim_ext import cluster, uflag" in code


def test_ps_tasks_without_master_needs_attention() -> None:
    source = """
        from tensorflow.compat.v1 import app, flags
        flags.DEFINE_integer('task', 0, '')
        flags.DEFINE_integer('num_ps_tasks', 0, '')
        FLAGS = flags.FLAGS
        def main(_):
          pass
        app.run(main)
    """
    code, findings = run(source)
    assert code == textwrap.dedent(source)
    [finding] = findings
    assert finding.kind == "attention"
    assert finding.line == 4
    assert "master" in finding.message


def test_main_defined_elsewhere_needs_attention() -> None:
    source = """
        from tensorflow.compat.v1 import app, flags
        from trainer import main
        flags.DEFINE_string('master', '', '')
        flags.DEFINE_integer('task', 0, '')
        flags.DEFINE_integer('num_ps_tasks', 0, '')
        app.run(main)
    """
    code, findings = run(source)
    assert code == textwrap.dedent(source)
    [finding] = findings
    assert finding.kind == "attention"
    assert finding.line == 7
    assert "cluster.bootstrap(FLAGS)" in finding.fix


@pytest.mark.parametrize("server", [
    "tf.train.Server",
    # own_server's port of it: a second run leaves the script as the first did.
    "cluster.Server",
])
def test_script_that_starts_its_own_server_is_left_alone(server: str) -> None:
    source = textwrap.dedent("""\
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
    """).replace("tf.train.Server(", server + "(")
    if server == "cluster.Server":
        source = "from slim_ext import cluster\n" + source
    code, findings = run(source)
    assert code == source
    [attention] = findings
    line = 12 if server == "tf.train.Server" else 13
    assert (attention.line, "starts its own server" in attention.message) == (line, True)
