"""slimport verify on a tree with every kind of outcome planted, one module each.

One verify run (a subprocess, as users run it) serves every test of this file:
each test reads that module's row from the JSON report and checks the kind, the
failing statement (file:line), the message and the fix. The run is also checked
for what it leaves behind: no process, including one a module started and left
running, and none when verify itself is killed mid-run.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.slimport.conftest import write_tree
from tests.slimport.verify._helpers import alive, pids_in, run_verify

pytestmark = pytest.mark.tf

TIME_LIMIT = 4

FACTORY = """\
import tensorflow.compat.v1 as tf


def tiny(images, num_classes, is_training=False):
  flat = tf.reshape(images, [tf.shape(images)[0], -1])
  weights = tf.get_variable('w', [8 * 8 * 3, num_classes])
  return tf.matmul(flat, weights), {}
tiny.default_image_size = 8


def video(clips, num_classes, is_training=False):
  filters = tf.get_variable('filters', [2, 3, 3, 3, num_classes])
  net = tf.nn.conv3d(clips, filters, [1, 2, 4, 4, 1], 'SAME')
  return tf.reduce_mean(net, [1, 2, 3]), {}
video.default_image_size = 8


def endpoints(images, num_classes, is_training=False):
  weights = tf.get_variable('kernel', [3, 3, 3, 4])
  return {'Conv2d_0': tf.nn.conv2d(images, weights, 1, 'SAME'), 'step': tf.constant(1)}
endpoints.default_image_size = 8


def sized(images, num_classes, is_training=False):
  flat = tf.reshape(images, [2, 8 * 8 * 3])
  return tf.matmul(flat, tf.get_variable('dense', [8 * 8 * 3, num_classes])), {}


networks_map = {'tiny': tiny, 'video': video, 'endpoints': endpoints, 'sized': sized}


def get_network_fn(name, num_classes, weight_decay=0.0, is_training=False):
  def network_fn(images):
    return networks_map[name](images, num_classes, is_training=is_training)
  if hasattr(networks_map[name], 'default_image_size'):
    network_fn.default_image_size = networks_map[name].default_image_size
  return network_fn
"""

CALL_TIME = """\
import tensorflow.compat.v1 as tf
from tensorflow.python import pywrap_tensorflow


def read(path):
  return pywrap_tensorflow.NewCheckpointReader(path)


def batches(dataset):
  return dataset.apply(tf.contrib.data.batch_and_drop_remainder(4))


def averaged(optimizer):
  return tf.contrib.opt.MovingAverageOptimizer(optimizer)


def learning_phase():
  tf.keras.backend.set_learning_phase(1)


def mixed_precision():
  tf.compat.v2.keras.mixed_precision.experimental.set_policy('mixed_float16')


def fine(x):
  return tf.nn.relu(x) + tf.float32.max


def guarded():
  if hasattr(tf, 'contrib'):
    return tf.contrib.slim


def not_tensorflow(tf):
  return tf.contrib.anything
"""

PLANTED = {
    "pkg/__init__.py": "",
    "pkg/good.py": "import tensorflow as tf\nVALUE = tf.constant(1)\n",
    "pkg/missing.py": "import os\nimport slimport_verify_no_such_package\n",
    "pkg/known_missing.py": "import tensorflow_serving\n",
    # tmp/ is the tree's own, left out of this run with --exclude: never `pip install tmp`.
    "pkg/own_excluded.py": "import tmp.no_such_helper\n",
    "tmp/__init__.py": "",
    "tmp/helper.py": "",
    # Emptied by some tool: it imports, and defines nothing.
    "pkg/emptied.py": "",
    # Globs its data set at import and takes the first file (deeplab, facenet scripts).
    "pkg/data_glob.py": ("import glob\nimport os\n"
                         "RECORDS = sorted(glob.glob(os.path.join('no_such_data', '*.tfrecord')))\n"
                         "FIRST = RECORDS[0]\n"),
    # EAST's lanms: compiles its C++ extension when imported; here it cannot.
    "lanms/__init__.py": ("import os\nimport subprocess\n\n"
                          "BASE_DIR = os.path.dirname(os.path.realpath(__file__))\n\n"
                          "if subprocess.call(['make', '-C', BASE_DIR]) != 0:  # return value\n"
                          "    raise RuntimeError('Cannot compile lanms: {}'.format(BASE_DIR))\n"),
    "lanms/Makefile": ("adaptor.so: adaptor.cpp\n"
                       "\tg++ -shared -fPIC -o $@ $< -I no_such_pybind11_include\n"),
    "lanms/adaptor.cpp": "#include \"pybind11/pybind11.h\"\n",
    # TensorFlow names that exist at import but not when the functions run.
    "pkg/calltime.py": CALL_TIME,
    "pkg/uses_missing.py": "from pkg import good\nfrom pkg import missing\n",
    "pkg/py2.py": 'print "hello"\n',
    "pkg/py2_runtime.py": "for i in xrange(3):\n  pass\n",
    "pkg/relative.py": "import good\n",
    "pkg/raises.py": "def setup():\n  raise RuntimeError('boom at import')\n\n\nsetup()\n",
    "pkg/endless.py": "import time\nwhile True:\n  time.sleep(0.05)\n",
    "pkg/reads.py": "with open('no_such_config.json') as f:\n  CONFIG = f.read()\n",
    "pkg/exits.py": ("import argparse\nparser = argparse.ArgumentParser()\n"
                     "parser.add_argument('--data', required=True)\n"
                     "ARGS = parser.parse_args()\n"),
    "pkg/contrib.py": ("import tensorflow as tf\n"
                       "from tensorflow.contrib.framework import arg_scope\n"),
    "pkg/removed_tf1.py": "import tensorflow as tf\nX = tf.placeholder(tf.float32)\n",
    "pkg/flag_bug.py": ("from absl import flags\n"
                        "flags.DEFINE_integer('alpha', 0.2, 'A float default.')\n"),
    "pkg/spawns.py": ("import os, subprocess, sys\n"
                      "child = subprocess.Popen([sys.executable, '-c', "
                      "'import time; time.sleep(600)'])\n"
                      "with open(os.environ['PLANTED_PIDS'], 'a') as pids:\n"
                      "  pids.write('%d\\n' % child.pid)\n"),
    "pkg/crash.py": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    # A research/slim-style factory: an image net, a video net (i3d's input:
    # [batch, frames, h, w, c]), one that returns only its end points, and one
    # without a default_image_size that needs 8x8 input.
    "pkg/factory.py": FACTORY,
    "train.py": ("from absl import app, flags\n"
                 "flags.DEFINE_integer('steps', 10, 'Steps to train.')\n"
                 "flags.DEFINE_string('train_dir', '/tmp/train', 'Where to write.')\n"
                 "def main(_):\n  raise SystemExit('main ran: --helpfull did not stop it')\n"
                 "if __name__ == '__main__':\n  app.run(main)\n"),
    # A web app whose `app.run()` starts a server: no flags to print, so not run.
    "serve.py": ("import http.server\n\n"
                 "class App:\n"
                 "  def run(self):\n"
                 "    print(' * Running on http://127.0.0.1:0')\n"
                 "    http.server.HTTPServer(('127.0.0.1', 0), "
                 "http.server.BaseHTTPRequestHandler).serve_forever()\n\n"
                 "app = App()\n\n"
                 "if __name__ == '__main__':\n"
                 "  app.run()\n"),
    "convert.py": ("import argparse\n"
                   "def main():\n  parser = argparse.ArgumentParser()\n"
                   "  parser.add_argument('--input_dir')\n  parser.parse_args()\n"
                   "if __name__ == '__main__':\n  main()\n"),
}


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    base = tmp_path_factory.mktemp("planted")
    tree = write_tree(base / "tree", PLANTED)
    pids = base / "pids"
    started = time.monotonic()
    probes = write_tree(base, {"probes.py": (
        "import tensorflow.compat.v1 as tf\n"
        "def constant_loss():\n  return tf.constant(2.5)\n"
        "def broken():\n  from pkg import raises\n")}) / "probes.py"
    result = run_verify(tree, ["--timeout", str(TIME_LIMIT), "-j", "2", "--build", "pkg.factory",
                               "--networks", "tiny,missing,video,endpoints,sized",
                               "--build", f"{probes}:constant_loss",
                               "--build", f"{probes}:broken", "--exclude", "tmp/*"],
                        base / "report.json",
                        env={"PLANTED_PIDS": str(pids)})
    result.seconds = time.monotonic() - started
    result.planted_pids = pids_in(pids)
    return result


def test_exit_status_is_1_because_some_checks_fail(verified):
    assert verified.returncode == 1, verified.stderr
    assert verified.report["fails"] == len(
        [r for r in verified.report["rows"] if r["kind"] in ("fails", "fails-when-called")]) > 0


def test_every_module_has_a_row(verified):
    expected = {path[:-3].replace("/", ".").replace(".__init__", "") for path in PLANTED
                if path.endswith(".py") and not path.startswith("tmp/")}
    assert set(verified.rows()) == expected
    # Every module whose import did not fail: a failed import is its own row's.
    failed = {name for name, row in verified.rows().items() if row["kind"] == "fails"}
    assert failed and set(verified.rows("calls")) == expected - failed


@pytest.mark.parametrize("module, kind, where, message, fix", [
    ("pkg", "ok", None, "imported", None),
    ("pkg.good", "ok", None, "imported", None),
    # A name no table knows gets no pip line: PyPI may hold an unrelated project of that name.
    ("pkg.missing", "blocked", "pkg/missing.py:2", "slimport_verify_no_such_package is "
     "not installed", "slimport knows no distribution that provides "
     "`slimport_verify_no_such_package`"),
    # The deepest frame inside the tree: the import in missing.py, not uses_missing.py.
    ("pkg.uses_missing", "blocked", "pkg/missing.py:2", "is not installed",
     "slimport knows no distribution"),
    ("pkg.known_missing", "blocked", "pkg/known_missing.py:1", "tensorflow_serving is not "
     "installed", "pip install tensorflow-serving-api"),
    ("pkg.own_excluded", "blocked", "pkg/own_excluded.py:1", "tmp.no_such_helper is not in the "
     "tree (tmp is the tree's own: tmp)", None),
    ("pkg.emptied", "fails", None, "the file is empty (0 bytes)", None),
    ("pkg.data_glob", "import-work", "pkg/data_glob.py:4", "reads its data when imported (line "
     "3) and fails on what it found here: IndexError: list index out of range", None),
    ("lanms", "blocked", "lanms/__init__.py:7", "lanms/__init__.py builds a C/C++ extension "
     "when imported (`make`) and the build failed here: RuntimeError: Cannot compile lanms",
     "the tree or the toolchain, not the port"),
    ("pkg.calltime", "ok", None, "imported", None),
    ("pkg.py2", "python2", "pkg/py2.py:1", "does not parse as Python 3",
     "the print statement"),
    ("pkg.py2_runtime", "python2", "pkg/py2_runtime.py:1", "Python 2 builtin xrange",
     "range"),
    ("pkg.relative", "blocked", "pkg/relative.py:1", "good is next to the importing file",
     "--path pkg"),
    ("pkg.raises", "fails", "pkg/raises.py:2", "RuntimeError: boom at import", None),
    ("pkg.endless", "import-work", "pkg/endless.py:3", f"did not finish in {TIME_LIMIT} s",
     None),
    ("pkg.reads", "import-work", "pkg/reads.py:1", "reads files", None),
    ("pkg.exits", "import-work", "pkg/exits.py:4", "exits when imported (status 2)", None),
    ("pkg.contrib", "fails", "pkg/contrib.py:2", "No module named 'tensorflow.contrib'",
     "slimport maps tf.contrib.framework.arg_scope to tf_slim.arg_scope"),
    ("pkg.removed_tf1", "fails", "pkg/removed_tf1.py:2", "has no attribute 'placeholder'",
     "tensorflow.compat.v1"),
    ("pkg.flag_bug", "tree-bug", "pkg/flag_bug.py:2", "IllegalFlagValueError",
     "a default of its own type"),
    ("pkg.spawns", "ok", None, "imported", None),
    ("pkg.factory", "ok", None, "imported", None),
    ("pkg.crash", "fails", "pkg/crash.py:2", "the process died (signal 11)", None),
])
def test_outcome_of_each_planted_module(verified, module, kind, where, message, fix):
    row = verified.rows()[module]
    assert row["kind"] == kind, row
    assert row["where"] == where, row
    assert message in row["message"], row
    if fix is None:
        assert row["fix"] is None or kind == "fails", row
    else:
        assert fix in row["fix"], row


def test_names_that_fail_when_called_are_listed_with_file_and_line(verified):
    calls = verified.rows("calls")
    row = calls["pkg.calltime"]
    assert row["kind"] == "fails-when-called", row
    missing = {entry["name"]: entry for entry in row["details"]["missing"]}
    assert {name: entry["where"] for name, entry in missing.items()} == {
        "pywrap_tensorflow.NewCheckpointReader": "pkg/calltime.py:6",
        "tf.contrib.data.batch_and_drop_remainder": "pkg/calltime.py:10",
        "tf.contrib.opt.MovingAverageOptimizer": "pkg/calltime.py:14",
        "tf.keras.backend.set_learning_phase": "pkg/calltime.py:18",
        "tf.compat.v2.keras.mixed_precision.experimental.set_policy": "pkg/calltime.py:22",
    }
    assert "tf.compat.v1.train.NewCheckpointReader" in missing[
        "pywrap_tensorflow.NewCheckpointReader"]["fix"]
    assert "tf_keras.backend.set_learning_phase has it" in missing[
        "tf.keras.backend.set_learning_phase"]["fix"]
    assert "set_global_policy" in missing[
        "tf.compat.v2.keras.mixed_precision.experimental.set_policy"]["fix"]
    # A TF1 name whose import failed is the import row's, not listed twice.
    assert "pkg.removed_tf1" not in calls
    assert calls["pkg.good"]["kind"] == "ok" and calls["pkg.good"]["details"]["uses"] == 1
    out = verified.stdout
    assert "FAILS WHEN CALLED (5 names in 1 module" in out
    assert "  tf.contrib.opt.MovingAverageOptimizer: does not exist here" in out
    assert "      used at pkg/calltime.py:14" in out


def test_the_call_time_names_count_against_the_port(tmp_path):
    tree = write_tree(tmp_path / "tree", {"calltime.py": CALL_TIME})
    result = run_verify(tree, ["-j", "1"], tmp_path / "report.json")
    assert result.returncode == 1, result.stdout
    assert result.report["fails"] == 1
    assert result.report["summary"]["calls"]["fails-when-called"] == 1
    without = run_verify(tree, ["-j", "1", "--no-calls"], tmp_path / "without.json")
    assert without.returncode == 0, without.stdout
    assert without.rows("calls") == {} and "names used" not in without.stdout


def test_statement_of_the_failing_line_is_shown(verified):
    assert verified.rows()["pkg.raises"]["statement"] == "raise RuntimeError('boom at import')"
    # A time limit's stack dump has no source text: it is read from the file.
    assert verified.rows()["pkg.endless"]["statement"] == "time.sleep(0.05)"


def test_entry_scripts_print_their_flags_and_main_never_runs(verified):
    scripts = verified.rows("script")
    # serve.py's `app.run()` is a web server's, not absl's: it is not started.
    assert set(scripts) == {"train", "convert"}
    assert scripts["train"]["kind"] == "ok", scripts["train"]
    assert scripts["train"]["details"]["flags"] == ["steps", "train_dir"]
    assert scripts["convert"]["kind"] == "ok", scripts["convert"]
    assert scripts["convert"]["details"]["flags"] == ["input_dir"]


def test_builds_train_a_step_or_say_why_not(verified):
    builds = verified.rows("build")
    assert set(builds) == {"pkg.factory:tiny", "pkg.factory:missing", "pkg.factory:video",
                           "pkg.factory:endpoints", "pkg.factory:sized",
                           "probes.py:constant_loss", "probes.py:broken"}
    tiny = builds["pkg.factory:tiny"]
    assert tiny["kind"] == "ok", tiny
    assert tiny["details"]["trainable_variables"] == 1
    assert tiny["details"]["parameters"] == 8 * 8 * 3 * 10
    assert builds["pkg.factory:missing"]["kind"] == "fails"
    assert "not in networks_map (endpoints, sized, tiny, video)" in builds[
        "pkg.factory:missing"]["message"]
    constant = builds["probes.py:constant_loss"]
    assert (constant["kind"], constant["details"]["loss"]) == ("ok", 2.5)
    broken = builds["probes.py:broken"]
    assert (broken["kind"], broken["where"]) == ("fails", "pkg/raises.py:2"), broken


def test_a_video_network_is_built_on_clips(verified):
    video = verified.rows("build")["pkg.factory:video"]
    assert video["kind"] == "ok", video
    assert video["details"]["input_shape"] == [2, 16, 8, 8, 3]


def test_a_network_that_returns_its_end_points_trains(verified):
    endpoints = verified.rows("build")["pkg.factory:endpoints"]
    assert endpoints["kind"] == "ok", endpoints
    assert endpoints["details"]["trainable_variables"] == 1


def test_a_network_built_at_a_guessed_size_needs_image_size(verified, tmp_path):
    sized = verified.rows("build")["pkg.factory:sized"]
    assert sized["kind"] == "needs-image-size", sized
    assert sized["details"]["input_shape"] == [2, 224, 224, 3]
    assert sized["fix"] == "give its input size: --image-size sized=H[,W]"
    # ... and the fix line's flag works.
    tree = write_tree(tmp_path / "tree", {"pkg/__init__.py": "", "pkg/factory.py": FACTORY})
    fixed = run_verify(tree, ["--build", "pkg.factory", "--networks", "sized,video",
                              "--image-size", "sized=8", "--image-size", "4,6", "-j", "1"],
                       tmp_path / "report.json")
    assert fixed.returncode == 0, fixed.stdout
    builds = fixed.rows("build")
    assert builds["pkg.factory:sized"]["details"]["input_shape"] == [2, 8, 8, 3]
    # A size for every network overrides default_image_size.
    assert builds["pkg.factory:video"]["details"]["input_shape"] == [2, 16, 4, 6, 3]


def test_table_and_details_are_printed(verified):
    out = verified.stdout
    assert "fails on TF 1 too (tree bug)" in out
    assert "pkg/contrib.py:2: No module named 'tensorflow.contrib'" in out
    assert "pip install tensorflow-serving-api" in out
    assert "pip install slimport_verify_no_such_package" not in out
    assert "checks fail" in out


def test_time_limit_bounds_the_run(verified):
    endless = verified.rows()["pkg.endless"]
    assert TIME_LIMIT <= endless["seconds"] < TIME_LIMIT + 15
    assert verified.seconds < 240


def test_no_process_is_left_behind(verified):
    assert verified.planted_pids, "pkg/spawns.py did not start its process"
    leftovers = [pid for pid in verified.planted_pids + [verified.report["worker_pid"]]
                 + [row["pid"] for row in verified.report["rows"]] if alive(pid)]
    assert not leftovers


@pytest.mark.parametrize("stop, exit_code", [(signal.SIGKILL, -signal.SIGKILL),
                                              (signal.SIGTERM, 128 + signal.SIGTERM)])
def test_stopping_verify_stops_its_worker_and_children(tmp_path, stop, exit_code):
    pids = tmp_path / "pids"
    tree = write_tree(tmp_path / "tree", {
        "hangs.py": ("import os, time\n"
                     "with open(os.environ['PLANTED_PIDS'], 'a') as f:\n"
                     "  f.write('%d\\n%d\\n' % (os.getpid(), os.getppid()))\n"
                     "time.sleep(600)\n")})
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PLANTED_PIDS=str(pids),
               TMPDIR=str(scratch))
    verify = subprocess.Popen([sys.executable, "-m", "slimport.verify", str(tree), "--timeout",
                               "600"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while len(pids_in(pids)) < 2 and time.monotonic() < deadline and verify.poll() is None:
            time.sleep(0.2)
        child, worker = pids_in(pids)
        verify.send_signal(stop)
        assert verify.wait(timeout=60) == exit_code
    finally:
        verify.kill()
        verify.wait()
    # SIGKILL leaves the rest to PR_SET_PDEATHSIG: the worker and the job die with
    # their parents, a moment later.
    deadline = time.monotonic() + 20
    while (alive(child) or alive(worker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(child) and not alive(worker)
    if stop == signal.SIGTERM:  # a killed verify cannot remove its scratch directory
        assert list(scratch.iterdir()) == []


def test_thousands_of_modules_do_not_jam_the_pipes(tmp_path):
    # Every job is sent before any result is read, and a preloaded module's result
    # comes back at once: both pipes fill up unless the sender never blocks.
    count = 3000
    # (Not empty: an empty module is a row of its own, not "ok".)
    files = {f"big/m{i}.py": f"VALUE = {i}\n" for i in range(count)}
    files["big/__init__.py"] = "".join(f"from big import m{i}\n" for i in range(count))
    tree = write_tree(tmp_path / "tree", files)
    result = run_verify(tree, ["--preload", "big"], tmp_path / "report.json", timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    rows = result.rows()
    assert len(rows) == count + 1
    assert all(row["kind"] == "ok" and row["details"].get("preloaded") for row in rows.values())
