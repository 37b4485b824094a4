"""The rewrite's cache (slimport.engine.cache): a cached port is the fresh port.

Each run here is ``slimport rewrite ... -j 1`` in this process, with the ports made
counted (``engine.port.port_source`` calls): a second run over an unchanged tree
ports nothing and gives the same tree and report; a changed file, a changed tree fact
or a changed neighbour the port read is ported again, and gives what a run without
the cache gives.
"""
from __future__ import annotations

import ast
import importlib.machinery
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Dict


from slimport.analysis import file_reads, tf_code
from slimport.cli import main
from slimport.engine import cache as port_cache

from tests.slimport.conftest import snapshot, write_tree

TREE = {
    "train.py": "import tensorflow as tf\n\nflags = tf.app.flags\n"
                "flags.DEFINE_string('data_dir', '/tmp', 'data')\nFLAGS = flags.FLAGS\n\n\n"
                "def main(_):\n    x = tf.placeholder(tf.float32, [None, 3])\n"
                "    for i in xrange(3):\n        print(i, FLAGS.data_dir)\n"
                "    return x\n\n\nif __name__ == '__main__':\n    tf.app.run()\n",
    "model.py": "import tensorflow as tf\nslim = tf.contrib.slim\n\n\ndef net(x, table):\n"
                "    for key, value in table.iteritems():\n        print(key, value)\n"
                "    return slim.fully_connected(x, 3)\n",
    "util.py": "def double(x):\n    return 2 * x\n",
}


def _rewrite(source: Path, out: Path, cache: Path, *extra: str) -> Dict[str, object]:
    """``slimport rewrite SOURCE --out OUT -j 1 --report``: the exit code, the ported
    tree and the report (its paths made relative to OUT)."""
    # A neighbour's verdict is kept for the process's life (one run, outside tests).
    tf_code._NEIGHBOURS.clear()
    report = out.with_name(out.name + ".json")
    code = main(["rewrite", str(source), "--out", str(out), "-j", "1", "-q",
                 "--report", str(report), "--cache-dir", str(cache), *extra])
    text = report.read_text().replace(str(out), "OUT")
    return {"exit": code, "tree": snapshot(out), "report": json.loads(text)}


def test_a_second_run_over_an_unchanged_tree_ports_nothing(tmp_path: Path,
                                                           ports_made) -> None:
    source = write_tree(tmp_path / "src", TREE)
    cache = tmp_path / "cache"
    fresh = _rewrite(source, tmp_path / "fresh", cache, "--no-cache")
    assert sorted(ports_made) == sorted(TREE)
    assert not cache.exists()  # --no-cache neither reads nor writes it
    first = _rewrite(source, tmp_path / "first", cache)
    second = _rewrite(source, tmp_path / "second", cache)
    assert sorted(ports_made) == sorted([*TREE, *TREE])  # the second run: every file a hit
    assert fresh == first == second
    assert b"import tensorflow.compat.v1 as tf" in fresh["tree"]["train.py"]  # it ported
    # The cache is tagged (tools skip it, a rewrite never walks it) and ignored by git.
    assert (cache / "CACHEDIR.TAG").read_text().startswith(port_cache.CACHEDIR_TAG)
    assert (cache / ".gitignore").read_text() == "*\n"


def test_a_changed_file_alone_is_ported_again(tmp_path: Path, ports_made) -> None:
    source = write_tree(tmp_path / "src", TREE)
    cache = tmp_path / "cache"
    _rewrite(source, tmp_path / "first", cache)
    ports_made.clear()
    (source / "util.py").write_text("def double(x):\n    return 2 * x  # twice\n")
    cached = _rewrite(source, tmp_path / "cached", cache)
    assert ports_made == ["util.py"]
    assert cached == _rewrite(source, tmp_path / "fresh", cache, "--no-cache")


def test_a_changed_tree_fact_ports_every_file_again(tmp_path: Path, ports_made) -> None:
    # ``table.iteritems()`` on an unknown receiver is ported only while no class of the
    # tree defines iteritems (tree fact tree_methods): util.py's new method changes
    # model.py's port, whose own bytes did not change.
    source = write_tree(tmp_path / "src", TREE)
    cache = tmp_path / "cache"
    before = _rewrite(source, tmp_path / "first", cache)
    assert b"table.items()" in before["tree"]["model.py"]
    ports_made.clear()
    (source / "util.py").write_text(
        "class Table(object):\n    def iteritems(self):\n        return iter(())\n")
    cached = _rewrite(source, tmp_path / "cached", cache)
    assert sorted(ports_made) == sorted(TREE)
    assert b"table.iteritems()" in cached["tree"]["model.py"]
    assert cached == _rewrite(source, tmp_path / "fresh", cache, "--no-cache")


NEIGHBOURS = {
    "pkg/__init__.py": "",
    "pkg/core.py": "import tensorflow as tf\n\n\ndef scores(x):\n"
                   "    return tf.placeholder_with_default(x, [None])\n",
    "pkg/builder.py": "import tensorflow as tf\nfrom pkg import core\n\n\ndef build():\n"
                      "    return core.scores, tf.nn.softmax\n",
}


def test_a_changed_neighbour_the_port_read_ports_the_file_again(tmp_path: Path,
                                                                 ports_made) -> None:
    # builder.py is TF1 code because the module it imports is (analysis.file_reads).
    source = write_tree(tmp_path / "src", NEIGHBOURS)
    cache = tmp_path / "cache"
    before = _rewrite(source, tmp_path / "first", cache)
    assert before["tree"]["pkg/builder.py"].startswith(b"import tensorflow.compat.v1 as tf")
    ports_made.clear()
    (source / "pkg/core.py").write_text(
        "import tensorflow as tf\n\n\ndef scores(x):\n    return tf.nn.relu(x)\n")
    cached = _rewrite(source, tmp_path / "cached", cache)
    assert sorted(ports_made) == ["builder.py", "core.py"]
    assert cached["tree"]["pkg/builder.py"] == NEIGHBOURS["pkg/builder.py"].encode()
    assert cached == _rewrite(source, tmp_path / "fresh", cache, "--no-cache")


def test_the_neighbour_question_is_answered_once_a_port(tmp_path: Path) -> None:
    # Every codemod of a file asks it of the same tree: the files are looked at (and
    # recorded for the cache) the first time only; another file's question is its own.
    source = write_tree(tmp_path / "src", NEIGHBOURS)
    builder = source / "pkg/builder.py"
    tree = ast.parse(builder.read_text())
    tf_code._NEIGHBOURS.clear()
    with file_reads.recorded() as first:
        assert tf_code.imports_tf1_neighbour(tree, str(builder))
    with file_reads.recorded() as again:
        assert tf_code.imports_tf1_neighbour(tree, str(builder))
    assert any(kind == file_reads.CONTENT and path.endswith("core.py")
               for kind, path, _ in first)
    assert again == []
    with file_reads.recorded() as elsewhere:
        assert not tf_code.imports_tf1_neighbour(tree, str(tmp_path / "script.py"))
    assert elsewhere


def test_other_settings_are_other_entries(tmp_path: Path, ports_made) -> None:
    source = write_tree(tmp_path / "src", TREE)
    cache = tmp_path / "cache"
    everything = _rewrite(source, tmp_path / "all", cache)
    ports_made.clear()
    only = _rewrite(source, tmp_path / "only", cache, "--only", "py2_leftovers")
    assert sorted(ports_made) == sorted(TREE)
    assert b"tf.placeholder" in only["tree"]["train.py"]
    assert everything["tree"] != only["tree"]
    assert only == _rewrite(source, tmp_path / "fresh", cache, "--no-cache",
                            "--only", "py2_leftovers")


def test_an_entry_that_does_not_check_out_is_ported_again(tmp_path: Path,
                                                          ports_made) -> None:
    source = write_tree(tmp_path / "src", TREE)
    cache = tmp_path / "cache"
    first = _rewrite(source, tmp_path / "first", cache)
    entries = [path for path in cache.rglob("*") if path.is_file()
               and len(path.parent.name) == 2 and path.parent.parent.name != "tmp"]
    assert entries
    for entry in entries:  # a torn write, a disk error: cut each entry short
        entry.write_bytes(entry.read_bytes()[:-5])
    ports_made.clear()
    assert _rewrite(source, tmp_path / "again", cache) == first
    assert sorted(ports_made) == sorted(TREE)


def test_two_runs_at_once_share_the_cache(tmp_path: Path, ports_made) -> None:
    # Two processes (each with two workers) write the same entries at the same time;
    # whichever write lands last, every entry is whole, and a third run hits them all.
    source = write_tree(tmp_path / "src", TREE)
    cache = tmp_path / "cache"
    runs = [subprocess.Popen([sys.executable, "-m", "slimport", "rewrite", str(source),
                              "--out", str(tmp_path / f"run{index}"), "-j", "2", "-q",
                              "--cache-dir", str(cache)])
            for index in range(2)]
    try:
        assert [run.wait(timeout=120) for run in runs] == [0, 0]
    finally:
        for run in runs:
            if run.poll() is None:
                run.kill()
                run.wait()
    third = _rewrite(source, tmp_path / "third", cache)
    assert ports_made == []
    assert snapshot(tmp_path / "run0") == snapshot(tmp_path / "run1") == third["tree"]
    assert not list((cache.rglob("tmp/*")))  # no temporary file left behind


def test_check_twice_over_a_ported_tree(tmp_path: Path, ports_made) -> None:
    # The CI gate: rewrite --check over a ported tree, then again with nothing changed.
    source = write_tree(tmp_path / "src", TREE)
    cache = tmp_path / "cache"
    _rewrite(source, tmp_path / "ported", cache)
    ports_made.clear()
    for _ in range(2):
        assert main(["rewrite", str(tmp_path / "ported"), "--check", "-j", "1", "-q",
                     "--cache-dir", str(cache)]) == 0
    assert sorted(ports_made) == sorted(TREE)  # the first check only


def test_the_settings_file_places_the_cache(tmp_path: Path, slimport_cli) -> None:
    # ``cache-dir`` in [tool.slimport] is relative to that file, wherever the command runs;
    # ``no-cache = true`` there turns it off.
    project = write_tree(tmp_path / "project", {
        **{f"src/{name}": text for name, text in TREE.items()},
        "pyproject.toml": "[tool.slimport]\ncache-dir = \"build/cache\"\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = slimport_cli("rewrite", str(project / "src"), "--check", cwd=elsewhere)
    assert done.returncode == 1, done.stderr
    assert (project / "build/cache/CACHEDIR.TAG").is_file()
    assert not (elsewhere / port_cache.CACHE_DIR).exists()
    (project / "pyproject.toml").write_text("[tool.slimport]\nno-cache = true\n")
    done = slimport_cli("rewrite", str(project / "src"), "--check", cwd=elsewhere)
    assert done.returncode == 1, done.stderr
    assert not (elsewhere / port_cache.CACHE_DIR).exists()


def test_the_fingerprint_follows_libcsts_version_file(tmp_path: Path, monkeypatch) -> None:
    # Found beside libcst's package, never imported; without it, libcst's metadata.
    fingerprints = []
    for version in ("1.9.0", "1.9.1", None):
        package = tmp_path / str(version) / "libcst"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("")
        if version is not None:
            (package / "_version.py").write_text(f"version = {version!r}\n")
        found = types.ModuleType("libcst")
        found.__spec__ = importlib.machinery.ModuleSpec(
            "libcst", None, origin=str(package / "__init__.py"))
        monkeypatch.setitem(sys.modules, "libcst", found)
        monkeypatch.setattr(port_cache, "_fingerprint", None)
        fingerprints.append(port_cache.tool_fingerprint())
    assert len(set(fingerprints)) == 3
