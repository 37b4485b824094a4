"""TF1's flag behaviours survive the port: each program runs unported (tf.compat.v1's
flags and app.run are still TF 1.15's on TF 2.21) and ported by ``slimport rewrite``, and
both print the same; where TF 1.15 and TF 1.4 differ, the ported program does what TF
1.4 did and the row says what TF 1.15 did instead.

A program is one or more files; the first is run (as a script, or collected by pytest).
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

import pytest

from slimport import engine
from slimport.codemods import CODEMODS
from tests._procs import run_side_by_side

pytestmark = pytest.mark.tf

TIMEOUT_SECS = 240
# Processes started at once: each imports TensorFlow (~0.5 GB).
BATCH = 4


class Program(NamedTuple):
    """A TF1 program and how it is run.

    ``files``: name -> source (the first is the one run); ``args``: its command line,
    or None to collect it with pytest; ``tf1_differs``: None when the ported program
    must print what the unported one prints, else (what TF 1.15 printed to stderr or
    stdout, what TF 1.4 printed: the ported program's expected stdout).
    """

    files: Dict[str, str]
    args: Optional[List[str]]
    tf1_differs: Optional[Tuple[str, str]] = None


def _one(source: str, args: Optional[List[str]],
         tf1_differs: Optional[Tuple[str, str]] = None) -> Program:
    return Program({"program.py": source}, args, tf1_differs)


# The flags absl, absl.logging and absl.testing define, and the help and parser flags
# app.run and absl's parser add: TF 1.4's argparse flags had none of them
# (test_owned_names_are_absls_own checks the list against the installed absl).
OWNED_NAMES = (
    "?", "alsologtostderr", "flagfile", "help", "helpfull", "helpshort", "helpxml",
    "log_dir", "logger_levels", "logtostderr", "only_check_args", "only_check_flags", "pdb",
    "pdb_post_mortem", "profile_file", "run_with_pdb", "run_with_profiling",
    "showprefixforinfo", "stderrthreshold", "test_random_seed",
    "test_randomize_ordering_seed", "test_srcdir", "test_tmpdir", "undefok",
    "use_cprofile_for_profiling", "v", "verbosity", "xml_output_file",
)
# A script defining every owned name as TF 1.4 let it, reading each after tf.app.run.
OWNED_NAMES_SCRIPT = """\
import tensorflow.compat.v1 as tf
flags = tf.app.flags
NAMES = %r
for name in NAMES:
    flags.DEFINE_string(name, 'default ' + name, 'The script flag ' + name + '.')
FLAGS = flags.FLAGS

def main(argv):
    print(' | '.join('%%s=%%s' %% (name, getattr(FLAGS, name)) for name in NAMES))
    print('rest', argv[1:])

if __name__ == '__main__':
    tf.app.run()
""" % (OWNED_NAMES,)
GIVEN_OWNED = ("log_dir", "v", "verbosity", "flagfile", "helpfull", "test_tmpdir")

# The platform SDK's shape: a flag module of its own defines --log_dir (absl.logging's
# name) and the platform flags; the entry script imports it and reads them.
SDK_FLAGS = """\
import tensorflow.compat.v1 as tf
flags = tf.app.flags
flags.DEFINE_string('data_dir', '/data/data', 'Input data directory.')
flags.DEFINE_string('log_dir', '/data/output', 'Summary directory.')
flags.DEFINE_integer('num_gpus', 0, 'GPUs of this task.')
"""
SDK_ENTRY = """\
import tensorflow.compat.v1 as tf
import sdk_flags
FLAGS = tf.app.flags.FLAGS
tf.app.flags.DEFINE_string('dataset_dir', '', 'Where the data is.')
STARTED_WITH = FLAGS.num_gpus

def main(_):
    FLAGS.dataset_dir = FLAGS.data_dir
    print('gpus', STARTED_WITH, 'data', FLAGS.dataset_dir, 'logs', FLAGS.log_dir)

if __name__ == '__main__':
    tf.app.run()
"""

PROGRAMS = {
    # The first read of a flag parses sys.argv, even at module level.
    "module_level_read": _one(
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
    "unknown_flags_reach_main": _one(
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
    "run_with_argv": _one(
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
    "function_called_at_module_level": _one(
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
    "main_called_directly": _one(
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
    # An unknown flag at the first read: TF 1.4's argparse left it alone, TF 1.5-1.15
    # parsed every flag and stopped.
    "unknown_flag_at_first_read": _one(
        """\
        import tensorflow.compat.v1 as tf
        tf.app.flags.DEFINE_integer('batch', 32, 'Batch size.')
        FLAGS = tf.app.flags.FLAGS
        print('batch', FLAGS.batch)
        """,
        ["--batch=7", "--data_url=s3://bucket"],
        ("UnrecognizedFlagError: Unknown command line flag 'data_url'", "batch 7\n"),
    ),
    # Flags defined in a module the entry script imports (the platform SDK's), read at
    # the entry script's module level and in main; one is --log_dir, absl.logging's
    # name, which TF 1.4 did not have and TF 1.15 stopped at.
    "owned_name_in_an_imported_module": Program(
        {"program.py": SDK_ENTRY, "sdk_flags.py": SDK_FLAGS},
        ["--num_gpus=2", "--data_dir=/mnt/in"],
        ("DuplicateFlagError: The flag 'log_dir' is defined twice",
         "gpus 2 data /mnt/in logs /data/output\n"),
    ),
    # Every name a library owns, defined by the script: its default, its value.
    "every_owned_name": _one(
        OWNED_NAMES_SCRIPT,
        [f"--{name}=given {name}" for name in GIVEN_OWNED] + ["--platform_flag=1"],
        ("DuplicateFlagError: The flag '",
         " | ".join(f"{name}={'given' if name in GIVEN_OWNED else 'default'} {name}"
                    for name in OWNED_NAMES) + "\nrest ['--platform_flag=1']\n"),
    ),
    # A flag defined in two modules of one tree fails as it did in TF 1.5-1.15.
    "defined_in_two_modules": Program(
        {"program.py": "import tensorflow.compat.v1 as tf\nimport other\n"
                       "tf.app.flags.DEFINE_string('model', 'a', 'Model.')\n"
                       "print('model', tf.app.flags.FLAGS.model)\n",
         "other.py": "import tensorflow.compat.v1 as tf\n"
                     "tf.app.flags.DEFINE_string('model', 'b', 'Model.')\n"},
        [],
    ),
    # A test module collected by pytest reads a flag in a helper: nobody parsed, and
    # pytest's command line is not the program's (its -v reads as absl's --v).
    "read_under_pytest": Program(
        {"program_test.py": """\
        import tensorflow.compat.v1 as tf
        tf.app.flags.DEFINE_bool('tpu_test', False, 'Whether the test runs on a TPU.')
        FLAGS = tf.app.flags.FLAGS


        def on_tpu():
            return FLAGS.tpu_test


        def test_reads_a_flag_in_a_helper():
            assert on_tpu() is False
        """},
        None,
        ("IllegalFlagValueError: flag --verbosity=-p", "1 passed"),
    ),
}


def _write(directory: Path, files: Dict[str, str]) -> Path:
    directory.mkdir(parents=True)
    for name, source in files.items():
        (directory / name).write_text(textwrap.dedent(source))
    return directory / next(iter(files))


def _command(entry: Path, args: Optional[List[str]]) -> List[str]:
    if args is None:
        return [sys.executable, "-m", "pytest", "-q", "-v", "-p", "no:cacheprovider",
                str(entry)]
    return [sys.executable, str(entry), *args]


def _in_batches(commands: Dict, env: Dict[str, str]) -> Dict:
    keys = list(commands)
    results = {}
    for start in range(0, len(keys), BATCH):
        chunk = {key: commands[key] for key in keys[start:start + BATCH]}
        results.update(run_side_by_side(chunk, env, timeout=TIMEOUT_SECS))
    return results


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Dict[Tuple[str, str], object]:
    """Every program unported ("tf1") and ported ("ported"), by (name, form)."""
    commands = {}
    for name, program in PROGRAMS.items():
        root = tmp_path_factory.mktemp(name)
        original = _write(root / "tf1", program.files)
        ported = root / "ported"
        ported.mkdir()
        for source in sorted((root / "tf1").iterdir()):
            result = engine.port_source(source.read_bytes(), str(source), CODEMODS, {})
            assert result.error is None, (source, result.error)
            (ported / source.name).write_bytes(result.data)
            assert b"tf.app" not in result.data and b"tf.flags" not in result.data
        commands[name, "tf1"] = (_command(original, program.args), original.parent)
        commands[name, "ported"] = (_command(ported / original.name, program.args), ported)
    env = {"TF_CPP_MIN_LOG_LEVEL": "3", "PATH": os.environ.get("PATH", ""),
           "PYTHONPATH": os.pathsep.join(sys.path)}
    return _in_batches(commands, env)


@pytest.mark.parametrize("name", [name for name, program in PROGRAMS.items()
                                  if program.tf1_differs is None])
def test_ported_program_behaves_as_tf1(runs, name: str) -> None:
    expected, got = runs[name, "tf1"], runs[name, "ported"]
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout), (
        got.stderr[-3000:], expected.stderr[-3000:])
    if expected.returncode:
        # Both fail, the same way (a program that was broken in TF1 stays broken).
        assert _error(got.stderr) == _error(expected.stderr), got.stderr[-3000:]
    else:
        assert expected.stdout.strip()


@pytest.mark.parametrize("name", [name for name, program in PROGRAMS.items()
                                  if program.tf1_differs is not None])
def test_ported_program_behaves_as_tf_1_4(runs, name: str) -> None:
    tf1_15_error, tf1_4_output = PROGRAMS[name].tf1_differs
    tf1_15 = runs[name, "tf1"]
    assert tf1_15.returncode != 0
    assert tf1_15_error in tf1_15.stderr + tf1_15.stdout, tf1_15.stderr[-3000:]
    ported = runs[name, "ported"]
    assert ported.returncode == 0, ported.stderr[-3000:] + ported.stdout[-3000:]
    if PROGRAMS[name].args is None:
        assert tf1_4_output in ported.stdout, ported.stdout
    else:
        assert ported.stdout == tf1_4_output, ported.stderr[-3000:]


def test_defined_twice_fails_on_the_definition(runs) -> None:
    ported = runs["defined_in_two_modules", "ported"]
    assert "DuplicateFlagError: The flag 'model' is defined twice" in ported.stderr


def _error(stderr: str) -> str:
    """The exception a traceback ends with, up to its first full stop (the rest names
    the files)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[-1].split(". ")[0] if lines else ""


def _absl_names() -> Iterable[str]:
    task = Path(__file__).parents[1] / "slim_ext" / "_tf1_flags_task.py"
    result = subprocess.run([sys.executable, str(task), "absl_names"], capture_output=True,
                            text=True, timeout=TIMEOUT_SECS,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert result.returncode == 0, result.stderr
    import json  # pylint: disable=g-import-not-at-top

    return json.loads(result.stdout.strip().splitlines()[-1])


def test_owned_names_are_absls_own() -> None:
    assert sorted(_absl_names()) == sorted(OWNED_NAMES)
