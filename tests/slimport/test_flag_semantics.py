"""TF1's flag behaviours survive the absl port: each script runs unported (tf.compat.v1's
flags and app.run are still TF1's on TF 2.21) and ported, and both print the same."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List

import pytest

from slimport import engine
from slimport.codemods import CODEMODS

pytestmark = pytest.mark.tf

SCRIPTS = {
    # The first read of a flag parses sys.argv, even at module level.
    "module_level_read": (
        """\
        import tensorflow.compat.v1 as tf
        tf.app.flags.DEFINE_integer('batch', 32, 'Batch size.')
        FLAGS = tf.app.flags.FLAGS
        BATCH = FLAGS.batch
        print('batch', BATCH)
        """,
        ["--batch=7"],
    ),
    # tf.app.run hands flags the script does not define on to main.
    "unknown_flags_reach_main": (
        """\
        import tensorflow.compat.v1 as tf
        tf.app.flags.DEFINE_string('x', 'a', 'X.')
        FLAGS = tf.app.flags.FLAGS

        def main(argv):
            print('x', FLAGS.x, 'rest', argv[1:])

        if __name__ == '__main__':
            tf.app.run()
        """,
        ["--x=b", "--data_url=s3://bucket", "--num_gpus=2"],
    ),
    # tf.app.run(argv=...) runs main with those arguments.
    "run_with_argv": (
        """\
        import tensorflow.compat.v1 as tf
        tf.app.flags.DEFINE_integer('steps', 1, 'Steps.')

        def main(argv):
            print('steps', tf.app.flags.FLAGS.steps, 'rest', argv[1:])

        tf.app.run(argv=['prog', '--steps=5', 'extra'])
        """,
        [],
    ),
    # A script that calls a flag-reading function at import time.
    "function_called_at_module_level": (
        """\
        import tensorflow.compat.v1 as tf
        tf.app.flags.DEFINE_integer('batch_size', 90, 'Batch.')
        FLAGS = tf.app.flags.FLAGS

        def run_train():
            return FLAGS.batch_size * 2

        print('twice', run_train())
        """,
        ["--batch_size=4"],
    ),
    # A __main__ block that calls main() directly: its reads parse sys.argv.
    "main_called_directly": (
        """\
        import tensorflow.compat.v1 as tf
        flags = tf.flags
        flags.DEFINE_string('name', 'none', 'Name.')
        FLAGS = flags.FLAGS

        def main():
            print('name', FLAGS.name)

        if __name__ == '__main__':
            main()
        """,
        ["--name=slim"],
    ),
}


def _run(path: Path, args: List[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                          timeout=180, env={"TF_CPP_MIN_LOG_LEVEL": "3", "PATH": ""})


@pytest.mark.parametrize("name", SCRIPTS)
def test_ported_script_behaves_as_tf1(name: str, tmp_path: Path) -> None:
    source, args = SCRIPTS[name]
    original = tmp_path / "original.py"
    original.write_text(textwrap.dedent(source))
    ported_source = engine.port_source(original.read_bytes(), str(original), CODEMODS, {})
    assert ported_source.error is None
    ported = tmp_path / "ported.py"
    ported.write_bytes(ported_source.data)
    assert b"tf.app" not in ported_source.data and b"tf.flags" not in ported_source.data

    expected, got = _run(original, args), _run(ported, args)
    assert expected.returncode == 0, expected.stderr
    assert (got.returncode, got.stdout) == (0, expected.stdout), got.stderr
