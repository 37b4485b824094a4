"""Codemods that read the whole file before they edit any of it."""
from __future__ import annotations

import libcst as cst


class CollectsFirst:
    """A codemod mixin: ``transform_module_impl`` visits the module twice, first with
    ``self._collecting`` True (gather every binding and use, edit nothing), then False
    (edit): what is certain at a use may depend on code after it. ``start_file`` (or
    ``start_leftovers``) of the codemod sets ``self._collecting = False``."""

    _collecting: bool

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        """Reads ``tree`` whole, then transforms it.

        Args:
          tree: the module (a skeleton, or a whole file).

        Returns:
          The transformed module.
        """
        self._collecting = True
        tree.visit(self)  # type: ignore[arg-type]
        self._collecting = False
        return tree.visit(self)  # type: ignore[arg-type]
