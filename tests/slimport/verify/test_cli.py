"""`slimport verify`: its own subcommand parser (the same as `python -m slimport.verify`),
usage errors, and no TensorFlow until the fork server starts."""
import os
import subprocess
import sys

import pytest

from slimport.verify import cli
from tests.slimport.conftest import REPO_ROOT

pytestmark = pytest.mark.tf


def _slimport(*arguments):
    return subprocess.run([sys.executable, "-m", "slimport", *arguments], capture_output=True,
                          text=True, timeout=300, cwd=REPO_ROOT, check=False,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))


def test_help_is_verify_own_help():
    result = _slimport("verify", "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: slimport verify")
    for option in ("--path DIR", "--build TARGET", "--report FILE.json", "-j N", "--timeout"):
        assert option in result.stdout
    assert "exit codes:" in result.stdout
    # TF 2.21 prints its native start-up lines whatever TF_CPP_MIN_LOG_LEVEL says.
    assert "InitializeLog" not in result.stderr and "oneDNN" not in result.stderr, result.stderr


def test_listed_in_slimport_help():
    assert "slimport verify DIR" in _slimport("--help").stdout


def test_module_help_is_the_same_help():
    module = subprocess.run([sys.executable, "-m", "slimport.verify", "--help"],
                            capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
                            check=False)
    assert module.returncode == 0, module.stderr
    assert module.stdout == _slimport("verify", "--help").stdout


NO_TENSORFLOW = """
import sys
from slimport import cli
codes = []
for argv in (["verify", "--help"], ["verify"], ["verify", "tree", "-j", "-1"],
             ["verify", sys.argv[1]]):
    try:
        codes.append(cli.main(argv))
    except SystemExit as exit_request:
        codes.append(exit_request.code)
print(codes, sorted(name for name in sys.modules if name.split(".")[0] == "tensorflow"))
"""


def test_help_and_usage_errors_do_not_import_tensorflow(tmp_path):
    done = subprocess.run([sys.executable, "-c", NO_TENSORFLOW, str(tmp_path / "missing")],
                          capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[0, 2, 2, 2] []"
    assert "the following arguments are required: PORTED_DIR" in done.stderr
    assert "'-1' is not 0 (one per CPU) or a positive number" in done.stderr
    assert "not a directory" in done.stderr


def test_usage_errors_exit_2_and_name_the_problem(tmp_path, capsys):
    assert cli.main([str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert cli.main([str(tmp_path)]) == 2
    assert "no Python modules" in capsys.readouterr().err
    (tmp_path / "a.py").write_text("")
    assert cli.main([str(tmp_path), "--path", "src"]) == 2
    assert "--path src" in capsys.readouterr().err
    assert cli.main([str(tmp_path), "--build", "nets.nets_factory"]) == 2
    assert "--build nets.nets_factory: no module of that name" in capsys.readouterr().err
    (tmp_path / "nets").mkdir()
    (tmp_path / "nets" / "nets_factory.py").write_text("")
    (tmp_path / "nets" / "__init__.py").write_text("")
    (tmp_path / "nets" / "user.py").write_text("from . import nets_factory\n")
    # nets is a package by its own import, and the tree has no root import evidence:
    # the message names what the tree does have, not the name the user gave.
    assert cli.main([str(tmp_path), "--build", "factory.nets_factory"]) == 2
    assert ("--build factory.nets_factory: no module of that name in the tree; the tree "
            "has nets.nets_factory") in capsys.readouterr().err
    assert cli.main([str(tmp_path), "--build", "probes.py:build"]) == 2
    assert "probes.py does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("option, value, message", [
    ("-j", "-1", "is not 0 (one per CPU) or a positive number"),
    ("--timeout", "0", "is not a positive number of seconds"),
    ("--build-timeout", "soon", "is not a positive number of seconds"),
    ("--env", "NOVALUE", "is not KEY=VALUE"),
    ("--image-size", "ssd_300=0", "is not H[,W] or NETWORK=H[,W]"),
    ("--image-size", "300,300,3", "is not H[,W] or NETWORK=H[,W]"),
])
def test_bad_option_values_are_usage_errors(tmp_path, capsys, option, value, message):
    with pytest.raises(SystemExit) as exit_request:
        cli.main([str(tmp_path), option, value])
    assert exit_request.value.code == 2
    assert message in capsys.readouterr().err


class _Terminal:
    """A stream that says it is a terminal and keeps what was written."""

    def __init__(self, tty: bool):
        self.tty = tty
        self.text = ""

    def isatty(self):
        return self.tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_progress_on_a_terminal_only():
    from slimport.output.progress import Progress  # pylint: disable=g-import-not-at-top

    for tty in (True, False):
        stream = _Terminal(tty)
        progress = Progress(stream=stream, threshold=0)  # verify's: its total grows
        progress.add(3)
        progress.show("nets.lenet")
        progress.advance("nets.lenet")
        progress.close()
        if tty:
            assert "[0/3] nets.lenet" in stream.text and "[1/3] nets.lenet" in stream.text
            assert stream.text.endswith("\r" + " " * len("[1/3] nets.lenet") + "\r")
        else:
            assert stream.text == ""
