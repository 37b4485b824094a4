"""``scipy.misc`` names SciPy removed -> where the same functions live now.

TF1-era input pipelines, dataset tools and evaluation code read images with
``scipy.misc.imread`` / ``imsave`` / ``imresize`` and took ``logsumexp`` or ``comb``
from ``scipy.misc``. SciPy 1.2 - 1.12 removed them all:

- ``logsumexp``, ``comb``, ``factorial``, ``factorial2``, ``factorialk`` and ``pade``
  had moved to ``scipy.special`` / ``scipy.interpolate`` before: the same functions.
- The image helpers (``imread``, ``imsave``, ``imresize``, ``toimage``, ``fromimage``,
  ``bytescale``) have no successor that does what they did (imageio's ``imwrite``
  scales floats by 255 where SciPy rescaled an image's own range to 0-255; Pillow
  refuses floats): they go to ``slim_ext.scipy_misc``, SciPy 1.1's behaviour on
  Pillow (which they needed before as well).

Every spelling is ported: ``scipy.misc.imread(...)`` -> ``slim_ext.scipy_misc.imread(...)``
(``import slim_ext.scipy_misc`` added), ``from scipy.misc import imread`` -> ``from
slim_ext.scipy_misc import imread``, ``misc.logsumexp`` -> ``scipy.special.logsumexp``;
an import whose every use moved is dropped. The names with no home (``imrotate``,
``imfilter``, ``imshow``, ``derivative``, ``central_diff_weights``, the sample images
``face`` / ``ascent`` / ``electrocardiogram``) are reported with what replaces them.
Only TF1-era code and plain Python are ported (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, List, Optional, Pattern, Set

import libcst as cst

from slimport.analysis.names import Bindings, is_under
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.codemods.base import StatementFilter, code_of

MISC = "scipy.misc"
STAND_IN = "slim_ext.scipy_misc"
# scipy.misc name -> its home.
HOMES: Dict[str, str] = {
    **{name: f"scipy.special.{name}" for name in
       ("logsumexp", "comb", "factorial", "factorial2", "factorialk")},
    "pade": "scipy.interpolate.pade",
    **{name: f"{STAND_IN}.{name}" for name in
       ("imread", "imsave", "imresize", "toimage", "fromimage", "bytescale")},
}
# scipy.misc names with no home -> what to use instead.
GONE: Dict[str, str] = {
    "imrotate": "PIL.Image.fromarray(arr).rotate(angle, resample=...)",
    "imfilter": "PIL.ImageFilter (image.filter(ImageFilter.BLUR), ...)",
    "imshow": "matplotlib.pyplot.imshow",
    "derivative": "numpy.gradient, or a finite difference of the function",
    "central_diff_weights": "the finite difference weights written out",
    "face": "scipy.datasets.face() (needs pooch and a download)",
    "ascent": "scipy.datasets.ascent() (needs pooch and a download)",
    "electrocardiogram": "scipy.datasets.electrocardiogram() (needs pooch and a download)",
}
_TRIGGER_TEXT = re.compile(r"\bmisc\b")


class ScipyMiscCommand(LeftoverCodemod, ModuleMoveCodemod):
    """Moves scipy.misc's removed names to scipy.special / interpolate / slim_ext.scipy_misc."""

    NAME: ClassVar[str] = "scipy_misc"
    DESCRIPTION: ClassVar[str] = (
        "scipy.misc names SciPy removed: logsumexp, comb, factorial -> scipy.special; "
        "imread, imsave, imresize -> slim_ext.scipy_misc (SciPy 1.1's behaviour on Pillow)"
    )
    TRIGGER: ClassVar[Pattern[str]] = _TRIGGER_TEXT

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "scipy" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        def reaches_misc(node: ast.AST) -> bool:
            parts = _parts(node) if isinstance(node, ast.Attribute) else None
            return parts is not None and is_under(bindings.resolve_parts(parts), MISC)

        return lambda statement: any(
            isinstance(node, (ast.Import, ast.ImportFrom)) or reaches_misc(node)
            for node in ast.walk(statement))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        ModuleMoveCodemod.start_file(self, tree)
        self._reported: Set[int] = set()
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = super().transform_module_impl(tree)
        if self.rewritten_roots:
            # ``import scipy.misc`` binds ``scipy``, which the base cannot tell from an
            # ``import scipy``: asked by its own name, it goes when nothing uses it
            # (SciPy 2 drops the module).
            self.remove_unused_import(MISC)
        return tree

    def home_of(self, qualified: str) -> Optional[str]:
        """``scipy.misc.imread`` -> ``slim_ext.scipy_misc.imread``; another name of
        scipy.misc stays where it is (itself); anything else None."""
        if not is_under(qualified, MISC) or qualified == MISC:
            return None
        name, _, rest = qualified[len(MISC) + 1:].partition(".")
        if name not in HOMES:
            return qualified
        return HOMES[name] + (f".{rest}" if rest else "")

    def stays(self, node: cst.ImportFrom, qualified: str, home: Optional[str]) -> bool:
        name = qualified[len(MISC) + 1:] if is_under(qualified, MISC) else ""
        if name in GONE and id(node) not in self._reported:
            self._gone(node, name)
        return super().stays(node, qualified, home)

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        if home == qualified:  # a name with no home
            name = qualified[len(MISC) + 1:].split(".")[0]
            if name in GONE:
                self._gone(node, name)
            self.used_names.add(parts[0])
            return False
        module = home.rpartition(".")[0]
        root = module.split(".")[0]
        if self.target_of(root) not in (None, root):
            self.used_names.add(parts[0])
            self.needs_attention(node, f"{code_of(node)} was removed from SciPy; its home "
                                 f"{home} cannot be reached here (the file uses the name "
                                 f"{root} for something else)", f"use {home}")
            return False
        self.add_needed_import(module)
        self.replace_chain(node, home)
        self.rewritten_roots.add(parts[0])
        self.record_edit(node, f"{'.'.join(parts)} -> {home} (removed from scipy.misc)")
        return False

    def _gone(self, node: cst.CSTNode, name: str) -> None:
        self._reported.add(id(node))
        self.needs_attention(node, f"scipy.misc.{name} was removed from SciPy and has no "
                             "successor that does the same; left unchanged",
                             f"use {GONE[name]}")


def _parts(node: ast.Attribute) -> Optional[List[str]]:
    """``a.b.c`` of an ast chain, split; None if it is not a plain chain."""
    names = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        names.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return None
    return [current.id, *reversed(names)]

