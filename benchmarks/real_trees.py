"""Real TF1 trees for the rewrite benchmark, beside the generated one.

The generated tree shows what we thought of; these are code nobody wrote for us, from
the sdists the corpus and object-detection envs already download and cache
(tools/corpus.py: pip download, hash-checked): research/slim as of 2022 (the held-out
tree issue 33 names; it is tf_slim code with ``compat.v1``) and object detection 0.1.1
(TF 1.x code, with its generated ``*_pb2.py`` modules, as a user's tree has them).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))

import _harness  # noqa: E402
import corpus  # noqa: E402
import magenta_suite  # noqa: E402
import tensorlayer_suite  # noqa: E402

# The tree whose port `rewrite --check` is also measured on (issue 33's held-out tree).
RESEARCH_SLIM = "research/slim (2022, tf-models-research-object-detection 2.8.0.post1)"
# label -> (sdist, the directory under its top that is the tree)
TREES = {
    RESEARCH_SLIM: (corpus.RESEARCH_SLIM, "slim"),
    "object detection 0.1.1 (tensorflow-object-detection-api)":
        (next(c for c in corpus.CORPORA if c.name == "object_detection"), "."),
}
OBJECT_DETECTION = TREES["object detection 0.1.1 (tensorflow-object-detection-api)"][0]
# The large tree: four PyPI TF1 distributions side by side, whole (1,375 files, 408k
# lines), as a monorepo of TF1 projects is. facenet is left out: tf_upgrade_v2 stops on
# one of its files (pasta's AnnotationError on a slice) and would have no row.
LARGE = ("large: magenta 1.1.7 + object detection 0.1.1 + tensorlayer 1.11.1 + "
         "models-research 2.8.0.post1")
LARGE_PARTS = (magenta_suite.MAGENTA, OBJECT_DETECTION, tensorlayer_suite.TENSORLAYER,
               corpus.RESEARCH_SLIM)
# pip download of an sdist not yet cached (a minute or two on a slow mirror).
FETCH_SECONDS = 600


def unpack_all(work: Path) -> Dict[str, Path]:
    """Each real tree unpacked under ``work``, downloaded first if not cached.

    Args:
      work: scratch directory.

    Returns:
      Label -> the tree's directory.

    Raises:
      RuntimeError: pip could not download an sdist, or it does not have its pinned hash.
    """
    trees = {}
    for label, (sdist, under) in TREES.items():
        archive = corpus.fetch(sdist, corpus.default_cache(), _harness.Deadline(FETCH_SECONDS))
        into = work / f"real-{sdist.name}"
        if not into.exists():
            into.mkdir(parents=True)
            corpus.unpack(archive, into)
        (top,) = [path for path in into.iterdir() if path.is_dir()]
        trees[label] = top / under
    return trees


def unpack_large(work: Path) -> Path:
    """The large tree (``LARGE_PARTS``, each in a folder of its name) under ``work``.

    Raises:
      RuntimeError: pip could not download a distribution, or it is not the pinned one.
    """
    into = work / "real-large"
    if not into.exists():
        for part in LARGE_PARTS:
            archive = corpus.fetch(part, corpus.default_cache(), _harness.Deadline(FETCH_SECONDS))
            (into / part.name).mkdir(parents=True)
            corpus.unpack(archive, into / part.name)
    return into
