"""Every install line a user is shown works from what they have, in a fresh virtualenv.

slimport is not on PyPI: a user has a clone of this repository, or a wheel built from
one. The module's fixture copies the files a clone installs from, makes a virtualenv,
and runs the README's install lines there (``pip install --dry-run`` where a line
would pull TensorFlow in: the ``tf`` extra is resolved against the package index in
full once, the wheel's line with ``--no-deps``, its metadata being checked); the
wheel it builds is installed without the extra, so the same virtualenv then shows
that ``--help``, argument and path errors, ``slimport doctor`` and the README's
``python -m libcst.tool`` line work where TensorFlow is missing. The ``pip install``
lines slimport and slim_ext print are resolved the same way.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence

import pytest
from packaging.requirements import Requirement

from slim_facts.requirements import GAN, PROBABILITY, TENSORBOARD, TF_EXTRA, pip_install_line
from slimport.cli import arguments
from tests.documented import documented
from tests.slimport.conftest import REPO_ROOT
from slimport.cli.config import tomllib

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
# What a clone holds that installing it reads.
CLONE_FILES = ("slimport", "slim_ext", "slim_facts", "pyproject.toml", "README.md", "LICENSE")
WHEEL = "dist/slimport-0.1.0-py3-none-any.whl"
INSTALL_LINES = [
    "pip install '.[tf]'",
    "pip install .",
    "pip wheel --no-deps -w dist .",
    "pip install 'dist/slimport-0.1.0-py3-none-any.whl[tf]'",
]
assert all(documented(line) for line in INSTALL_LINES)
assert INSTALL_LINES[3] == f"pip install '{WHEEL}[tf]'"
# pip resolves against the package index: bounded, generously for a loaded machine.
PIP_TIMEOUT = 900
TF1_FLAGS = ("import tensorflow as tf\n\n"
             "tf.app.flags.DEFINE_integer('batch_size', 32, 'Images per batch.')\n"
             "FLAGS = tf.app.flags.FLAGS\n")


def _code_block_after(heading: str, page: str = "README.md") -> List[str]:
    """The commands of the first code block after ``heading`` of ``page``, comments dropped."""
    text = (REPO_ROOT / page).read_text(encoding="utf-8")
    section = text[text.index(f"\n{heading}\n"):]
    block = re.search(r"```\n(.*?)```", section, re.DOTALL)
    assert block is not None, heading
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines()
            if line.strip()]


@dataclass
class Fresh:
    """A copy of a clone, and a virtualenv with the wheel built from it installed."""

    clone: Path
    venv: Path
    work: Path
    env: Dict[str, str]

    def run(self, command: Sequence[str], cwd: Path, timeout: float = 120
            ) -> subprocess.CompletedProcess:
        return subprocess.run(list(command), cwd=cwd, env=self.env, capture_output=True,
                              text=True, timeout=timeout, check=False)

    def pip(self, line: str, *options: str, cwd: Path) -> subprocess.CompletedProcess:
        """A README-style ``pip ...`` line with this virtualenv's pip, plus ``options``
        after the subcommand."""
        words = shlex.split(line)
        assert words[0] == "pip", line
        done = self.run([str(self.venv / "bin" / "pip"), words[1], *options, *words[2:]],
                        cwd, PIP_TIMEOUT)
        assert done.returncode == 0, f"{line}:\n{done.stdout}\n{done.stderr}"
        return done

    def resolved(self, line: str, cwd: Path, *options: str) -> Dict[str, str]:
        """``line`` with ``--dry-run``: name -> version of what pip would install."""
        report = self.work / "resolved.json"
        self.pip(line, "--dry-run", "--report", str(report), *options, cwd=cwd)
        return {item["metadata"]["name"].lower().replace("_", "-"): item["metadata"]["version"]
                for item in json.loads(report.read_text())["install"]}


def make_fresh(work: Path) -> Fresh:
    """A copy of what a clone installs from under ``work``, and a new virtualenv beside
    it that knows nothing of this checkout or of the test's own virtualenv."""
    clone = work / "clone"
    for name in CLONE_FILES:
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, clone / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            clone.mkdir(exist_ok=True)
            shutil.copy2(source, clone / name)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # Nothing of the test's own environment: not this checkout, not its virtualenv.
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return Fresh(clone, venv, work, env)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Fresh:
    return make_fresh(tmp_path_factory.mktemp("install"))


@pytest.fixture(scope="module")
def installed(fresh: Fresh) -> Fresh:
    """``fresh`` after the README's install lines, with the wheel installed without TF."""
    assert _code_block_after("## Install") == INSTALL_LINES
    tf_extra = fresh.resolved(INSTALL_LINES[0], fresh.clone)
    assert tf_extra["slimport"] == "0.1.0"
    tf_minor = tf_extra["tensorflow"].split(".")[:2]
    assert ["2", "15"] <= [tf_minor[0], tf_minor[1].zfill(2)] <= ["2", "21"], tf_extra
    assert tf_extra["tf-keras"].split(".")[:2] == tf_minor, tf_extra
    assert tf_extra["tf-slim"] == "1.1.0"
    assert tf_extra["tensorflow-estimator"].startswith("2.15.")
    assert "grpcio-tools" in tf_extra, "the protoc the rewrite regenerates stale *_pb2.py with"
    rewrite_only = fresh.resolved(INSTALL_LINES[1], fresh.clone)
    assert "libcst" in rewrite_only and "tensorflow" not in rewrite_only
    fresh.pip(INSTALL_LINES[2], cwd=fresh.clone)
    assert (fresh.clone / WHEEL).is_file()
    assert fresh.resolved(INSTALL_LINES[3], fresh.clone, "--no-deps") == {"slimport": "0.1.0"}
    fresh.pip(f"pip install {WHEEL}", cwd=fresh.clone)
    return fresh


def _normalized(requirement: str) -> str:
    return str(Requirement(requirement))


def _metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        return archive.read("slimport-0.1.0.dist-info/METADATA").decode("utf-8")


def test_the_wheel_says_what_a_package_index_expects(installed: Fresh) -> None:
    wheel = installed.clone / WHEEL
    metadata = _metadata(wheel)
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    assert "License-Expression: Apache-2.0\n" in metadata
    assert "License-File: LICENSE\n" in metadata
    assert "Requires-Python: >=3.10\n" in metadata
    # Python 3.10 has no tomllib ([tool.slimport]): tomli stands in there, and only there.
    assert "Requires-Dist: tomli>=1.1; python_version < \"3.11\"\n" in metadata
    assert "Project-URL" not in metadata and "Home-page" not in metadata
    classifiers = re.findall(r"^Classifier: (.*)$", metadata, re.MULTILINE)
    assert classifiers == project["classifiers"]
    assert [c.rpartition(" ")[2] for c in classifiers if c.startswith(
        "Programming Language :: Python :: 3.")] == ["3.10", "3.11", "3.12", "3.13"]
    assert f"Programming Language :: Python :: {sys.version_info[0]}.{sys.version_info[1]}" \
        in classifiers, "the Python the tests run on"
    assert not [c for c in classifiers if c.startswith("License ::")], \
        "a licence classifier next to an SPDX expression is refused by current setuptools"
    extra = sorted(re.findall(r"^Requires-Dist: (.*); extra == \"tf\"$", metadata, re.MULTILINE))
    assert sorted(map(_normalized, extra)) == sorted(map(_normalized, TF_EXTRA))
    with zipfile.ZipFile(wheel) as archive:
        licence = archive.read("slimport-0.1.0.dist-info/licenses/LICENSE")
    assert licence == (REPO_ROOT / "LICENSE").read_bytes()
    assert b"Apache License\n                           Version 2.0, January 2004" in licence


def test_the_tf_extra_is_the_runtime_the_messages_name() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    assert tuple(project["project"]["optional-dependencies"]["tf"]) == TF_EXTRA
    # The contrib successors' extras are what the rewrite's report names (issue 30).
    extras = project["project"]["optional-dependencies"]
    assert (tuple(extras["probability"]), tuple(extras["gan"]), tuple(extras["tensorboard"])) \
        == (PROBABILITY, GAN, TENSORBOARD)
    assert "setuptools>=77" in project["build-system"]["requires"]


def test_no_install_line_names_a_package_the_index_does_not_have() -> None:
    # `pip install 'slimport[tf]'` fails: "No matching distribution found for slimport".
    offenders = []
    for folder in ("slimport", "slim_ext", "slim_facts", "tools", "examples", "docs"):
        for path in (REPO_ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".md", ".txt", ".yaml") or path.name == "Dockerfile":
                text = path.read_text(encoding="utf-8", errors="replace")
                offenders += [f"{path}: {match}" for match in
                              re.findall(r"pip install ['\"]?slimport\b[^\n]*", text)]
    offenders += re.findall(r"pip install ['\"]?slimport\b[^\n]*", README)
    assert offenders == []


def test_help_errors_and_doctor_need_no_tensorflow(installed: Fresh) -> None:
    slimport = str(installed.venv / "bin" / "slimport")
    cwd = installed.work
    assert installed.run([str(installed.venv / "bin" / "python"), "-c",
                          "import tensorflow"], cwd).returncode != 0
    commands = list(arguments.build_parser()._subparsers._group_actions[0].choices)
    assert {"rewrite", "list", "doctor", "verify"} <= set(commands)
    for words in ([], *([command] for command in commands)):
        shown = installed.run([slimport, *words, "--help"], cwd)
        assert shown.returncode == 0, (words, shown.stderr)
        assert shown.stdout.startswith("usage: slimport"), (words, shown.stdout)
    for words, message in [
            (["verify", str(cwd / "nonexistent")], "nonexistent: not a directory"),
            (["verify", str(cwd), "--path", "nowhere"], "--path nowhere:"),
            (["verify", str(cwd), "--timeout", "soon"], "'soon' is not a positive number"),
            (["rewrite", str(cwd / "nonexistent")], "no such file or directory"),
            (["rewrite", str(cwd), "--only", "no_such_codemod"], "no_such_codemod"),
            (["rewrite"], "the following arguments are required: PATH")]:
        failed = installed.run([slimport, *words], cwd)
        assert failed.returncode == 2, (words, failed.stderr)
        assert message in failed.stderr, (words, failed.stderr)
        assert "TensorFlow" not in failed.stderr and "Traceback" not in failed.stderr
    (cwd / "tree").mkdir()
    (cwd / "tree" / "m.py").write_text("x = 1\n")
    verify = installed.run([slimport, "verify", str(cwd / "tree")], cwd)
    doctor = installed.run([slimport, "doctor"], cwd)
    assert (verify.returncode, doctor.returncode) == (2, 1), verify.stderr + doctor.stderr
    for shown in (verify, doctor):
        assert "TensorFlow is not installed" in shown.stderr
        assert f"\n  {pip_install_line()}\n" in shown.stderr
    # The rewrite itself runs.
    (cwd / "train.py").write_text(TF1_FLAGS)
    ported = installed.run([slimport, "rewrite", "train.py"], cwd)
    assert ported.returncode == 0, ported.stderr
    assert "from slim_ext import tf1_flags as flags" in (cwd / "train.py").read_text()


def test_readme_libcst_tool_line_runs_on_the_installed_package(installed: Fresh) -> None:
    [line] = [line for line in _code_block_after("## The codemods", "docs/rewrite.md")
              if line.startswith("python -m libcst.tool") and "-x" in line]
    tree = installed.work / "libcst_tool"
    tree.mkdir()
    (tree / "train.py").write_text(TF1_FLAGS)
    words = shlex.split(line.replace("PATH", "train.py"))
    done = installed.run([str(installed.venv / "bin" / "python"), *words[1:]], tree, 300)
    assert done.returncode == 0, done.stderr
    ported = (tree / "train.py").read_text()
    assert "tf.app.flags" not in ported and "from slim_ext import tf1_flags as flags" in ported


def _runtime_fix_lines() -> List[str]:
    """Every ``pip install`` line slim_ext prints when something is missing."""
    from slim_ext import __main__ as doctor
    from slim_ext import compat

    versions = {"TensorFlow": "2.21.0", "tf_keras": "2.21.0", "tf_slim": "1.1.0",
                "absl-py": "2.1.0", "numpy": "2.1.0"}
    lines = doctor.find_problems({label: None for label in versions})
    for label in versions:
        lines += doctor.find_problems({**versions, label: None})
    lines += doctor.find_problems({**versions, "TensorFlow": "2.13.0", "tf_keras": "2.15.0",
                                   "tf_slim": "1.0"})
    original = compat.importlib.util.find_spec
    try:
        compat.importlib.util.find_spec = lambda name, *args: None
        compat._check_requirements()
    except ImportError as error:
        lines.append(str(error))
    finally:
        compat.importlib.util.find_spec = original
    return [match for line in lines for match in re.findall(r"pip install .*$", line)]


@pytest.mark.tf
def test_every_line_the_runtime_prints_names_packages_on_the_index(installed: Fresh) -> None:
    # slimport's own line is among them (its requirements are the tf extra, which the
    # README's first line resolved in full).
    fixes = _runtime_fix_lines()
    assert len(fixes) >= 8 and pip_install_line() in fixes
    requirements = sorted({word for fix in fixes for word in shlex.split(fix)[2:]})
    assert "tf-keras==2.21.*" in requirements
    resolved = installed.resolved("pip install " + shlex.join(requirements), installed.work,
                                  "--no-deps")
    assert {"tensorflow", "tf-keras", "tf-slim", "absl-py", "numpy"} <= set(resolved)
