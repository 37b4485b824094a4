"""What tools/peer_suite.py runs in each forked child of slimport verify's fork server.

slimport/verify/worker.py imports this module instead of its own checks (config ``checks``):
``preload`` imports TensorFlow and pytest once in the worker, then ``run`` runs one
test module in a child forked from it, so a suite's modules (121 of object detection's)
do not pay TensorFlow's import (about 3.5 s of CPU each) once each. Each child is one
module's own process, as with one ``python -m pytest MODULE`` (or ``python MODULE``) per
module; only the preloaded imports are shared, made before any test code runs. Like verify's checks,
this imports nothing of slim_ext (the tests' own imports decide what they load).

Jobs: ``{"check": "pytest" | "script", "module": "object_detection/x_test.py",
"tree": PORTED, "junit": FILE, "progress": FILE, "arguments": [...], "tests": [node ids,
or none for the whole module], "timeout": S}``.
"""
import faulthandler
import importlib
import json
import os
import runpy
import sys
import time
import traceback


def preload(config):
    try:
        for name in config["preload"]:
            importlib.import_module(name)
    except BaseException as error:  # pylint: disable=broad-except
        return {"error": {"type": type(error).__name__, "message": str(error)}}
    return {"error": None, "versions": {}, "shadowed": []}


class _Progress:
    """A pytest plugin: each test's start and outcome, a line each as it happens, so the
    tests of a module that crashes or runs out of time are not lost with its junit report."""

    def __init__(self, path):
        self.file = open(path, "w", buffering=1)  # pylint: disable=consider-using-with

    def pytest_runtest_logstart(self, nodeid, location):  # pylint: disable=unused-argument
        self.file.write(json.dumps({"event": "start", "test": nodeid}) + "\n")

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            self.file.write(json.dumps({"event": report.outcome, "test": report.nodeid,
                                        "text": report.longreprtext}) + "\n")


def _pytest(job):
    import pytest  # pylint: disable=import-outside-toplevel

    sys.argv = ["pytest"]
    targets = job.get("tests") or [job["module"]]  # node ids, or the whole module
    return pytest.main([*job["arguments"], f"--junitxml={job['junit']}", *targets],
                       plugins=[_Progress(job["progress"])])


def _script(job):
    # `python X_test.py`: the script's directory first on sys.path, __name__ == "__main__";
    # absltest writes its XML report where XML_OUTPUT_FILE says.
    os.environ["XML_OUTPUT_FILE"] = job["junit"]
    sys.path.insert(0, os.path.dirname(os.path.abspath(job["module"])))
    sys.argv = [job["module"]]
    try:
        runpy.run_path(job["module"], run_name="__main__")
    except SystemExit as exit_:
        return exit_.code
    except BaseException:  # pylint: disable=broad-except
        traceback.print_exc()  # what `python X_test.py` prints when it does not start
        return 1
    return 0


def run(job, config):  # pylint: disable=unused-argument
    """Runs the job's module; its stack is dumped to the log if it outlives its time."""
    # pytest captures fd 2 while a test runs: the stack of a hung test must go to the log.
    log = os.fdopen(os.dup(2), "w")
    faulthandler.enable(file=log)
    faulthandler.dump_traceback_later(job["timeout"], exit=True, file=log)
    os.chdir(job["tree"])
    sys.path.insert(0, job["tree"])  # what `python -m pytest` run in the tree puts first
    started = time.monotonic()
    code = {"pytest": _pytest, "script": _script}[job["check"]](job)
    return {"status": "ok", "seconds": time.monotonic() - started, "error": None,
            "details": {"exit_code": code if isinstance(code, int) else 1}}
