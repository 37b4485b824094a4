"""slim_ext.tf1_flags: TF1's flag semantics on absl.

Two groups of tests:

* Parse on first read, in-process on a FlagValues of the test's own, and as
  scripts run side by side with TF1's module (TF 2.21's ``tf.compat.v1.flags``
  is TF 1.15's ``tf.flags``) where that shows the original behaviour; under
  pytest as the foreign command line.
* Names absl owns, in processes of their own (they change absl's global
  FLAGS): the class of names is read from the installed absl, not listed here.
"""
import json
import os
import pathlib
import subprocess
import sys
import sysconfig
import types

from absl import flags as absl_flags
import pytest

from slim_ext import tf1_flags
from tests._procs import run_side_by_side

pytestmark = pytest.mark.tf  # importing slim_ext applies its TensorFlow shims

TASK = pathlib.Path(__file__).with_name("_tf1_flags_task.py")
TIMEOUT_SECS = 240

TF1_FLAGS = "import tensorflow.compat.v1 as tf\nflags = tf.app.flags\n"
PORTED_FLAGS = "from slim_ext import tf1_flags as flags\n"


# --- parse on first read, in-process ----------------------------------------------

@pytest.fixture
def flag_values():
  """A TF1-style FLAGS over a FlagValues of this test's own, with two flags."""
  own = absl_flags.FlagValues()
  tf1_flags.DEFINE_integer("batch", 32, "Batch size.", flag_values=own)
  tf1_flags.DEFINE_string(flag_name="name", default_value="none",
                          docstring="Name.", flag_values=own)
  return tf1_flags.TF1FlagValues(own)


def _main_module(monkeypatch, path):
  main = types.ModuleType("__main__")
  if path is not None:
    main.__file__ = str(path)
  monkeypatch.setitem(sys.modules, "__main__", main)


@pytest.fixture
def own_program(monkeypatch, tmp_path):
  _main_module(monkeypatch, tmp_path / "train.py")


@pytest.fixture
def under_test_runner(monkeypatch):
  _main_module(monkeypatch, pathlib.Path(sysconfig.get_paths()["purelib"]) /
               "pytest" / "__main__.py")


def test_first_read_parses_sys_argv_known_flags_only(flag_values, monkeypatch,
                                                     own_program):
  monkeypatch.setattr(sys, "argv",
                      ["train.py", "--batch=7", "--data_url=s3://b", "pos"])
  assert not flag_values.is_parsed()
  assert flag_values.batch == 7
  assert flag_values.is_parsed()
  assert (flag_values.name, flag_values["name"].present) == ("none", False)


def test_reads_of_flag_objects_do_not_parse(flag_values, monkeypatch):
  monkeypatch.setattr(sys, "argv", ["train.py", "--batch=7"])
  # As with TF1's FLAGS: only a flag value read parses.
  assert flag_values["batch"].value == 32
  assert "batch" in flag_values and not flag_values.is_parsed()


def test_bad_value_on_the_programs_own_command_line_raises(
    flag_values, monkeypatch, own_program):
  monkeypatch.setattr(sys, "argv", ["train.py", "--batch=abc"])
  with pytest.raises(absl_flags.IllegalFlagValueError):
    _ = flag_values.batch


@pytest.mark.parametrize("argv", [
    ["pytest", "-q", "-v", "tests/x_test.py"],  # -v reads as absl's --v
    ["pytest", "--batch=abc"],
])
def test_foreign_command_line_leaves_defaults(flag_values, monkeypatch,
                                              under_test_runner, argv):
  monkeypatch.setattr(sys, "argv", argv)
  assert (flag_values.batch, flag_values.name) == (32, "none")
  assert flag_values.is_parsed()


def test_foreign_command_line_that_parses_is_taken(flag_values, monkeypatch,
                                                   under_test_runner):
  monkeypatch.setattr(sys, "argv", ["pytest", "-q", "--batch=5", "x_test.py"])
  assert flag_values.batch == 5


def test_parsed_flags_are_not_parsed_again(flag_values, monkeypatch):
  assert flag_values(["train.py", "--batch=3"]) == ["train.py"]
  monkeypatch.setattr(sys, "argv", ["train.py", "--batch=9"])
  assert flag_values.batch == 3
  flag_values.batch = 4  # assignment goes to the flag, as in TF1
  assert flag_values["batch"].value == 4


def test_foreign_command_line(monkeypatch, tmp_path):
  scripts = pathlib.Path(sysconfig.get_paths()["scripts"])
  stdlib = pathlib.Path(sysconfig.get_paths()["stdlib"])
  for main_file, foreign in [
      (tmp_path / "train.py", False),
      (scripts / "pytest", True),
      (stdlib / "unittest" / "__main__.py", True),
      (None, True),  # python -c, pytest-xdist's workers
  ]:
    _main_module(monkeypatch, main_file)
    assert tf1_flags.foreign_command_line() is foreign, main_file


def test_every_absl_flags_name_resolves():
  assert tf1_flags.FlagValues is absl_flags.FlagValues
  assert tf1_flags.mark_flag_as_required is absl_flags.mark_flag_as_required
  assert tf1_flags.DEFINE_string.__name__ == "DEFINE_string"


# --- TF1's module and this one, side by side (processes) ----------------------------

FIRST_READ = """\
flags.DEFINE_integer('batch', 32, 'Batch size.')
flags.DEFINE_string(flag_name='name', default_value='none', docstring='Name.')
FLAGS = flags.FLAGS
BATCH = FLAGS.batch


def describe():
  return 'batch %d name %s' % (BATCH, FLAGS.name)


print(describe())
"""
APP_RUN = """\
flags.DEFINE_integer('steps', 1, 'Steps.')
FLAGS = flags.FLAGS
print('before', FLAGS.steps)


def main(argv):
  print('main', FLAGS.steps, argv[1:])


if __name__ == '__main__':
  {run}
"""
TF1_RUN = "tf.app.run()"
PORTED_RUN = ("from absl import app\n  app.run(main, flags_parser=lambda argv: "
              "FLAGS(argv, known_only=True))")
PYTEST_MODULE = """\
flags.DEFINE_bool('tpu_test', False, 'Whether the test runs on a TPU.')
FLAGS = flags.FLAGS


def on_tpu():
  return FLAGS.tpu_test


def test_reads_a_flag_in_a_helper():
  assert on_tpu() is False


def test_reads_absltest_own_flag():
  # absltest's --test_tmpdir, read as TF1 tests read it (a pruning project's
  # tests through `from tensorflow.python.platform import flags`).
  assert FLAGS.test_tmpdir.endswith('absl_testing')
"""

# name -> (script, argv, or None to run the file under pytest); each runs with
# TF1's flags module and with the ported one.
SCRIPTS = {
    "known": (FIRST_READ, ["--batch=7", "--name=slim"]),
    "unknown": (FIRST_READ, ["--batch=7", "--data_url=s3://bucket"]),
    "app_run": (APP_RUN, ["--steps=3", "pos"]),
    "pytest": (PYTEST_MODULE, None),
}
FLAG_MODULES = {"tf1": TF1_FLAGS, "ported": PORTED_FLAGS}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
  """Every (script, flag module) pair, run side by side: name -> result."""
  commands = {}
  for name, module in ((name, module) for name in SCRIPTS
                       for module in FLAG_MODULES):
    source, argv = SCRIPTS[name]
    source = source.replace(
        "{run}", TF1_RUN if module == "tf1" else PORTED_RUN)
    directory = tmp_path_factory.mktemp(f"{name}_{module}")
    path = directory / f"{name}_test.py"
    path.write_text(FLAG_MODULES[module] + source)
    command = ([sys.executable, str(path), *argv] if argv is not None else
               [sys.executable, "-m", "pytest", "-q", "-v", "-p",
                "no:cacheprovider", str(path)])
    commands[name, module] = (command, directory)
  return run_side_by_side(commands, {**_env(), "TF_CPP_MIN_LOG_LEVEL": "3"},
                          timeout=TIMEOUT_SECS)


def _env():
  return {**os.environ, "PYTHONPATH": ":".join(sys.path)}


@pytest.mark.parametrize("name", ["known", "app_run"])
def test_ported_reads_as_tf1_does(runs, name):
  tf1, ported = runs[name, "tf1"], runs[name, "ported"]
  assert tf1.returncode == 0, tf1.stderr[-3000:]
  assert (ported.returncode, ported.stdout) == (0, tf1.stdout), ported.stderr
  assert tf1.stdout.strip()


def test_unknown_flags_are_left_as_tf_1_4_left_them(runs):
  # TF 1.5-1.15 parsed every flag on the first read; TF 1.4's argparse (and
  # the ported entry scripts' app.run) only the ones defined.
  tf1 = runs["unknown", "tf1"]
  assert tf1.returncode == 1
  assert "UnrecognizedFlagError: Unknown command line flag 'data_url'" in (
      tf1.stderr)
  ported = runs["unknown", "ported"]
  assert (ported.returncode, ported.stdout) == (0, "batch 7 name none\n"), (
      ported.stderr[-3000:])


def test_under_pytest_flags_take_their_defaults(runs):
  ported = runs["pytest", "ported"]
  assert ported.returncode == 0, ported.stdout[-3000:]
  assert "2 passed" in ported.stdout
  # TF1's FLAGS parses pytest's command line as its own, and "-v -p" reads
  # as absl's --v (--verbosity) with the value "-p".
  assert runs["pytest", "tf1"].returncode == 1
  assert "IllegalFlagValueError: flag --verbosity=-p" in (
      runs["pytest", "tf1"].stdout)


# --- names absl owns (processes: they change absl's global FLAGS) ------------------

def _task(*args, cwd):
  result = subprocess.run([sys.executable, str(TASK), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=TIMEOUT_SECS,
                          env={**_env(), "TF_CPP_MIN_LOG_LEVEL": "3"})
  assert result.returncode == 0, result.stderr[-4000:]
  return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def absl_names(tmp_path_factory):
  """Flag name -> the absl module that defines it, from the installed absl."""
  return _task("absl_names", cwd=tmp_path_factory.mktemp("absl_names"))


def test_absl_names_read_from_absl_match_the_late_ones(absl_names):
  assert len(absl_names) >= 25  # absl 2.x: app, logging, absltest, parser
  late = {name for name, module in absl_names.items()
          if module == "absl.flags (parser)"}
  assert late == tf1_flags.PARSER_FLAGS
  assert tf1_flags.HELP_FLAGS <= set(absl_names)
  assert {"log_dir", "v", "verbosity", "test_tmpdir", "helpfull"} <= set(
      absl_names)


def test_every_absl_name_is_taken_over(absl_names, tmp_path):
  names = sorted(absl_names)
  argv = [f"--{name}=cli {name}" for name in names] + ["--other"]
  report = _task("take_over", *names, "--", *argv, cwd=tmp_path)
  assert all(report["owned_before"].values()), report["owned_before"]
  assert report["rest"] == ["prog", "--other"]
  for name in names:
    assert report["flags"][name] == {
        "default": f"script {name}", "help": f"script help {name}",
        "value": f"cli {name}", "module": "_tf1_flags_defs"}, name


def test_absl_keeps_its_own_flags_for_its_own_use(tmp_path):
  profile = tmp_path / "profile.out"
  argv = ["--verbosity=loud", "--v", "--log_dir=/script/logs",
          "--logtostderr=yes", "--stderrthreshold=7", "--logger_levels=3",
          "--only_check_args=x", "--run_with_profiling=yes",
          f"--profile_file={profile}", "--run_with_pdb=yes", "--pdb=yes",
          "--helpfull=h", "--flagfile=/no/such/file", "--undefok=zz",
          "positional"]
  report = _task("absl_keeps_its_own", *argv, cwd=tmp_path)
  assert report["script"] == {
      "verbosity": "loud", "v": True, "log_dir": "/script/logs",
      "logtostderr": "yes", "stderrthreshold": 7, "logger_levels": 3,
      "only_check_args": "x", "run_with_profiling": "yes",
      "profile_file": str(profile), "run_with_pdb": "yes", "pdb": "yes",
      "helpfull": "h", "flagfile": "/no/such/file", "undefok": "zz"}
  # app.run parsed with absl's own parser, ran main (no --only_check_args
  # exit, no help, no flag file read) and raised absl's verbosity to INFO.
  assert report["argv"] == ["prog", "positional"]
  assert report["absl_verbosity"] == 0
  assert report["absl_only_check_args"] is False
  assert report["absl_log_dir"] != "/script/logs"
  assert not profile.exists()
