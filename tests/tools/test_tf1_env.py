"""tools/tf1_env.py's choices that a wrong answer would skew without failing: every version
pinned (pip's legacy resolver on Python 2 takes a Python 3-only newest release), magenta's
environment apart from the other peers', research/slim's in TF 1.15's time, and a pyenv
shim that cannot run not taken for Python 2.7. Making the environments themselves is
`tox -e era`'s (network, minutes).
"""
import re
import sys

from tests.slimport.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tools"))
import tf1_env  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def test_every_requirement_is_pinned_once_per_group():
    for environment in tf1_env.ENVIRONMENTS.values():
        for group in environment.groups:
            names = [requirement.split("==")[0].lower().replace("_", "-")
                     for requirement in group if not requirement.startswith("--")]
            assert len(names) == len(set(names)), group
            for requirement in group:
                assert requirement.startswith("--") or re.fullmatch(
                    r"[A-Za-z0-9._-]+==[0-9][0-9A-Za-z.]*", requirement), requirement


def test_magenta_has_its_own_environment():
    default, magenta = tf1_env.ENVIRONMENTS[None], tf1_env.ENVIRONMENTS["magenta"]
    assert magenta.dir != default.dir
    assert tf1_env.MAGENTA not in default.groups and tf1_env.MAGENTA in magenta.groups
    # Its check imports what its tests import, so a half-made environment is made again.
    assert "tensor2tensor" in magenta.check and "apache_beam" in magenta.check
    assert tf1_env.CHECK in magenta.check


def test_research_slim_runs_in_tensorflow_1_15s_time():
    # Its code imports tensorflow.compat.v1 and tf_slim beside tf.contrib: TF 1.15 only.
    research_slim = tf1_env.ENVIRONMENTS["research_slim"]
    assert research_slim.python == "3.7" and "tensorflow==1.15.5" in research_slim.groups[0]
    assert "tf_slim" in research_slim.check and "'1.15.5'" in research_slim.check
    assert research_slim.dir not in {env.dir for peer, env in tf1_env.ENVIRONMENTS.items()
                                     if peer != "research_slim"}


def test_a_shim_that_does_not_run_is_not_python27(tmp_path, monkeypatch):
    shim = tmp_path / "python2.7"
    shim.write_text("#!/bin/sh\necho 'pyenv: python2.7: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(tf1_env.Path, "home", classmethod(lambda cls: tmp_path))
    assert tf1_env.find_python("2.7") is None


def test_a_missing_system_library_is_named_with_its_fix_before_anything_is_made():
    # A fresh Debian image has no libsndfile: magenta's environment was made (minutes of
    # pip) and then failed its import check with SoundFile's "sndfile library not found".
    missing = tf1_env.missing_libraries("magenta", find=lambda name: None)
    assert missing == ["librosa's SoundFile needs the sndfile library: install it first "
                       "(Debian/Ubuntu: apt-get install libsndfile1)"]
    assert tf1_env.missing_libraries("magenta", find=lambda name: "lib%s.so.1" % name) == []
    assert tf1_env.missing_libraries(None, find=lambda name: None) == []
    assert tf1_env.missing_libraries("research_slim", find=lambda name: None) == []
