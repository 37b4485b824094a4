"""tools/tf1_env.py's choices that a wrong answer would skew without failing: every version
pinned (pip's legacy resolver on Python 2 takes a Python 3-only newest release), magenta's
environment apart from the other peers', and a pyenv shim that cannot run not taken for
Python 2.7. Making the environments themselves is `tox -e era`'s (network, minutes).
"""
import re
import sys

from tests.slimport.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tools"))
import tf1_env  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def test_every_requirement_is_pinned_once_per_group():
    for _, groups, _ in tf1_env.ENVIRONMENTS.values():
        for group in groups:
            names = [requirement.split("==")[0].lower().replace("_", "-")
                     for requirement in group if not requirement.startswith("--")]
            assert len(names) == len(set(names)), group
            for requirement in group:
                assert requirement.startswith("--") or re.fullmatch(
                    r"[A-Za-z0-9._-]+==[0-9][0-9A-Za-z.]*", requirement), requirement


def test_magenta_has_its_own_environment():
    default_dir, default_groups, _ = tf1_env.ENVIRONMENTS[None]
    magenta_dir, magenta_groups, check = tf1_env.ENVIRONMENTS["magenta"]
    assert magenta_dir != default_dir
    assert tf1_env.MAGENTA not in default_groups and tf1_env.MAGENTA in magenta_groups
    # Its check imports what its tests import, so a half-made environment is made again.
    assert "tensor2tensor" in check and "apache_beam" in check and tf1_env.CHECK in check


def test_a_shim_that_does_not_run_is_not_python27(tmp_path, monkeypatch):
    shim = tmp_path / "python2.7"
    shim.write_text("#!/bin/sh\necho 'pyenv: python2.7: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(tf1_env.Path, "home", classmethod(lambda cls: tmp_path))
    assert tf1_env.find_python27() is None


def test_a_missing_system_library_is_named_with_its_fix_before_anything_is_made():
    # A fresh Debian image has no libsndfile: magenta's environment was made (minutes of
    # pip) and then failed its import check with SoundFile's "sndfile library not found".
    missing = tf1_env.missing_libraries("magenta", find=lambda name: None)
    assert missing == ["librosa's SoundFile needs the sndfile library: install it first "
                       "(Debian/Ubuntu: apt-get install libsndfile1)"]
    assert tf1_env.missing_libraries("magenta", find=lambda name: "lib%s.so.1" % name) == []
    assert tf1_env.missing_libraries(None, find=lambda name: None) == []
