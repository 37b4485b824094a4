"""What TensorFlow's two public APIs hold, read from ``tf_api.txt`` without importing TF.

``tf_api.txt`` is generated from TensorFlow 2.21 by tools/gen_tf_api.py: every public
name of ``tf.compat.v1`` (the TF1 API) and of TF2's ``tf``, and for a function or class
in both whose parameters differ, how. From it the compat_v1 codemod tells TF1 code
from TF2 code: ``tf.placeholder`` exists only in the TF1 API, ``tf.reduce_sum(x,
keep_dims=True)`` passes a keyword only TF1's version takes, ``tf.image.resize(x,
size, antialias=True)`` one only TF2's takes.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, Optional, Tuple

API_FILE = Path(__file__).with_name("tf_api.txt")
# The package, and the TF1 API inside it, as qualified names start.
TF = "tensorflow"
COMPAT_V1 = "tensorflow.compat.v1"
# Which API has a name: tf_api.txt's second column.
TF1 = "1"
TF2 = "2"
BOTH = "12"


@dataclass(frozen=True)
class Signatures:
    """How the TF1 and TF2 versions of one function (or class constructor) differ."""

    v1_only: FrozenSet[str]
    v2_only: FrozenSet[str]
    # The first position where the two name different parameters, and TF1's name there.
    position: Optional[int]
    v1_name: str
    # How many arguments TF2's version takes by position; None: any (``*args``).
    v2_positional: Optional[int]


@dataclass(frozen=True)
class Api:
    """The names of both APIs, relative to ``tf`` (``train.Saver``)."""

    apis: Dict[str, str]
    signatures: Dict[str, Signatures]
    # Names with listed members: only a name inside one of these can be missing.
    v1_parents: FrozenSet[str]

    def listed_prefix(self, relative: str) -> Optional[str]:
        """The longest prefix of ``relative`` that is a listed name, or None.

        Args:
          relative: a name relative to ``tf``.

        Returns:
          The prefix, or None.
        """
        found = None
        current = ""
        for part in relative.split("."):
            current = f"{current}.{part}" if current else part
            if current not in self.apis:
                break
            found = current
        return found

    def kind(self, relative: str) -> Optional[str]:
        """``TF1``, ``TF2`` or ``BOTH``: which APIs have ``relative`` (by its longest
        listed prefix); None if not even its first part is listed.

        Args:
          relative: a name relative to ``tf``.

        Returns:
          ``TF1``, ``TF2``, ``BOTH`` or None.
        """
        prefix = self.listed_prefix(relative)
        return None if prefix is None else self.apis[prefix]

    def missing_from_v1(self, relative: str) -> Optional[str]:
        """The first prefix of ``relative`` (``train.Saver.restore``) absent from
        tf.compat.v1, or None.

        Members of classes, functions and unlisted modules (keras) are not listed, so
        only a name inside a module whose members are listed can be missing.

        Args:
          relative: a name relative to ``tf``.

        Returns:
          The prefix tf.compat.v1 lacks, or None.
        """
        parent = ""
        for part in relative.split("."):
            current = f"{parent}.{part}" if parent else part
            if TF1 not in self.apis.get(current, ""):
                return current if parent in self.v1_parents else None
            parent = current
        return None


def _signatures(columns: Tuple[str, ...]) -> Signatures:
    v1_only, v2_only, position, v2_positional = columns
    index, _, name = position.partition(":")
    return Signatures(frozenset(filter(None, v1_only.split(","))),
                      frozenset(filter(None, v2_only.split(","))),
                      None if position == "-" else int(index), name,
                      None if v2_positional == "*" else int(v2_positional))


@lru_cache(maxsize=1)
def tf_api() -> Api:
    """The API tables (read once per process).

    Returns:
      The Api of tf_api.txt.
    """
    apis: Dict[str, str] = {}
    signatures: Dict[str, Signatures] = {}
    for line in API_FILE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        name, kind, *rest = line.split("\t")
        apis[name] = kind
        if rest:
            signatures[name] = _signatures(tuple(rest))  # type: ignore[arg-type]
    parents = frozenset(name.rsplit(".", 1)[0] for name, kind in apis.items()
                        if "." in name and TF1 in kind)
    return Api(apis, signatures, parents | {""})
