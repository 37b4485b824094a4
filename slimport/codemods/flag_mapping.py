"""``--map FROM=TO``: platform flag -> script flag entries for uai_flags' ``mapping``
option, as ``slimport rewrite --map`` and ``python -m libcst.tool codemod`` take them.

FROM must be a flag of the platform flag contract (``slim_facts.platform_flags``): the
ported script hands the mapping to ``slim_ext.uflag.apply``, which defines and
reads only those. TO must be a flag name, and a flag some Python file of the run
defines: a script never gets a mapping onto a flag it does not define, so such an
entry would do nothing, and the run says so (``undefined_targets``).
"""
from __future__ import annotations

import argparse
import re
from typing import Dict, Iterable, List, Mapping, Set

from slim_facts.platform_flags import PLATFORM_FLAGS

_FLAG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# A flag definition in any spelling: flags.DEFINE_string('name', ...), tf.app.flags.
# DEFINE_integer(name="name", ...). A text search: enough to tell "no file defines it".
_DEFINITION = re.compile(
    r"""DEFINE_\w+\s*\(\s*(?:name\s*=\s*)?[rRuU]?(['"])([A-Za-z_][A-Za-z0-9_]*)\1""")


def parse_entries(value: str) -> Dict[str, str]:
    """``FROM=TO[,FROM=TO...]`` -> {FROM: TO}.

    Args:
      value: the entries as given.

    Returns:
      {FROM: TO} of the entries, in order.

    Raises:
      ValueError: an entry is not FROM=TO, FROM is not a platform flag, or TO is not
        a flag name; the message says which and what is accepted.
    """
    pairs: Dict[str, str] = {}
    for item in (part.strip() for part in value.split(",")):
        if not item:
            continue
        source, target = (part.strip() for part in item.partition("=")[::2])
        if item.count("=") != 1 or not source or not target:
            raise ValueError(f"{item!r} is not FROM=TO (e.g. --map data_dir=dataset_dir)")
        if source not in PLATFORM_FLAGS:
            raise ValueError(f"{item!r}: {source!r} is not a platform flag; the platform "
                             f"flags are {', '.join(PLATFORM_FLAGS)}")
        if not _FLAG_NAME.match(target):
            raise ValueError(f"{item!r}: {target!r} is not a flag name (letters, digits "
                             f"and _, e.g. dataset_dir)")
        pairs[source] = target
    return pairs


def argument(value: str) -> Dict[str, str]:
    """``parse_entries`` as an argparse ``type``: a bad entry is a usage error (exit 2).

    Args:
      value: one ``--map`` value as given.

    Returns:
      {FROM: TO} of its entries.

    Raises:
      argparse.ArgumentTypeError: what ``parse_entries`` rejects, with its message.
    """
    try:
        return parse_entries(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def defined_flags(texts: Iterable[str]) -> Set[str]:
    """The names of the flags the ``texts`` define.

    Args:
      texts: Python files' texts.

    Returns:
      The flag names any ``DEFINE_*`` call in them defines.
    """
    return {match.group(2) for text in texts if "DEFINE_" in text
            for match in _DEFINITION.finditer(text)}


def undefined_targets(mapping: Mapping[str, str], texts: Iterable[str]) -> List[str]:
    """One warning per entry of ``mapping`` whose target none of ``texts`` defines.

    Args:
      mapping: {platform flag: script flag}.
      texts: the text of every Python file of the run.

    Returns:
      The warnings, each saying what to do.
    """
    defined = defined_flags(texts)
    return [f"--map {source}={target}: no Python file here defines a flag {target!r}, so "
            f"no script gets this mapping; check the spelling, or define --{target} in "
            f"the entry script"
            for source, target in mapping.items() if target not in defined]
