"""The tree a rewrite ports, as the codemods see it: which modules sit where.

Most codemods judge a file by its own text. One needs more: a platform SDK import is
ported to slim_ext's stand-in only when the tree does not hold the SDK's own folder
(``sdk_imports``). ``plan`` records every path it walks; the engine hands the codemods
a ``SourceTree`` of them (``codemods._scratch.TREE_KEY``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import FrozenSet

PYTHON_SUFFIX = ".py"


def tree_path(path: Path) -> str:
    """How ``SourceTree`` names ``path``: absolute, a Python file without ``.py``.

    Args:
      path: a directory, file or symlink of the tree.

    Returns:
      The name, e.g. ``/src/tree/uaitrain`` or ``/src/tree/train``.
    """
    name = os.path.abspath(path)
    return name[:-len(PYTHON_SUFFIX)] if name.endswith(PYTHON_SUFFIX) else name


@dataclass(frozen=True)
class SourceTree:
    """The directories, Python modules and symlinks of the tree being ported.

    ``paths`` are ``tree_path`` names.
    """

    paths: FrozenSet[str] = frozenset()

    def has_near(self, filename: str, name: str) -> bool:
        """Whether the tree holds a top-level module or package ``name`` where an
        import in ``filename`` finds it: in the file's directory or one above it (the
        directories a script of the tree runs from or puts on ``sys.path``).

        Args:
          filename: a file of the tree.
          name: a top-level module name, e.g. ``uaitrain``.

        Returns:
          True when such a directory, module or symlink is in the tree.
        """
        directory = os.path.dirname(os.path.abspath(filename))
        while True:
            if os.path.join(directory, name) in self.paths:
                return True
            parent = os.path.dirname(directory)
            if parent == directory:
                return False
            directory = parent
