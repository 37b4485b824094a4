"""The platform SDK's modules become slim_ext's stand-ins when the tree lacks the SDK.

Scripts written for the UAI Train platform import its SDK: ``uflag`` defines the
platform flags, ``uai_dist`` reads the platform's TF_CONFIG. The SDK was never on
PyPI; users copied its ``uaitrain/`` folder into their tree, or did not. Without the
folder the script stops at its first line (``No module named 'uaitrain'``), so, only
then, the imports move to ``slim_ext.uai``, which has the SDK's names and behaviour
(``slim_facts.platform_sdk``), keeping the names they bind:

- ``from uaitrain.arch.tensorflow import uflag, uai_dist`` ->
  ``from slim_ext.uai import uflag, uai_dist``;
- ``import uaitrain.arch.tensorflow.uflag as uflag`` -> ``import slim_ext.uai.uflag as
  uflag``;
- ``from uaitrain.arch.tensorflow.uai_dist import UAITensorFlowDistRunConfigParser`` ->
  ``from slim_ext.uai.uai_dist import ...``;
- ``import uaitrain.arch.tensorflow.uai_dist`` -> ``import slim_ext.uai.uai_dist``, its
  uses spelled out (``slim_ext.uai.uai_dist.UAITensorFlowDistRunConfigParser()``).

With the folder in the tree (next to the file or in a directory above it, as Python
finds it) nothing changes: the tree's own SDK is ported like any other code. Which it
is, the codemod learns from the engine (its tree fact ``source_tree``); a file ported on its
own (``python -m libcst.tool codemod``) is left and reported. Other ``uaitrain`` names
(its other packages, a name a stand-in lacks, the package itself) are reported.
"""
from __future__ import annotations

import ast
from typing import Any, ClassVar, List, Optional, Sequence, Set, Tuple

import libcst as cst

from slim_facts.platform_sdk import SDK_MODULES, SDK_PACKAGE, SDK_TF_PACKAGE, STAND_IN_PACKAGE
from slimport.codemods.base import StatementFilter, chain_filter
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.analysis.names import Bindings, dotted_parts, is_under
from slimport.codemods._statements import small_statement
from slimport.codemods.tree_facts import TreeFact
from slimport.analysis.source_tree import SourceTree

_UNKNOWN_TREE = ("run `slimport rewrite` on the tree's root directory, which tells whether "
                 f"the SDK's {SDK_PACKAGE}/ folder is there")


def stand_in(qualified: str) -> Optional[str]:
    """Where an SDK module or name lives in slim_ext, if slim_ext has it.

    Args:
      qualified: a dotted name, e.g. ``uaitrain.arch.tensorflow.uai_dist.X``.

    Returns:
      ``slim_ext.uai.uai_dist.X`` for the SDK's modules and the names their stand-ins
      provide; ``slim_ext.uai`` for the package, as the module a ``from`` import takes
      them from; None for every other name.
    """
    if qualified == SDK_TF_PACKAGE:
        return STAND_IN_PACKAGE
    for module, names in SDK_MODULES.items():
        path = f"{SDK_TF_PACKAGE}.{module}"
        if is_under(qualified, path):
            rest = qualified[len(path) + 1:].split(".")
            if rest == [""] or rest[0] in names:
                return STAND_IN_PACKAGE + qualified[len(SDK_TF_PACKAGE):]
    return None


def _sdk_imports(statement: ast.stmt) -> bool:
    """Whether ``statement`` imports from the SDK (imports have no chains to filter by)."""
    if isinstance(statement, ast.Import):
        return any(is_under(alias.name, SDK_PACKAGE) for alias in statement.names)
    return isinstance(statement, ast.ImportFrom) and not statement.level \
        and is_under(statement.module, SDK_PACKAGE)


# Which folders and modules the tree holds (None: the file is ported on its own).
SOURCE_TREE = TreeFact("source_tree", lambda tree: tree.source)


class SdkImportsCommand(ModuleMoveCodemod):
    """Moves the platform SDK's imports to slim_ext.uai when the tree lacks the SDK."""

    NAME: ClassVar[str] = "sdk_imports"
    DESCRIPTION: ClassVar[str] = (
        "uaitrain.arch.tensorflow.uflag / uai_dist (the platform SDK) -> slim_ext.uai, "
        "when the tree has no uaitrain/ folder"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (SDK_PACKAGE,)

    # Does the tree hold the SDK's own folder? (None: the file is ported on its own.)
    TREE_FACTS: ClassVar[Tuple[TreeFact, ...]] = (SOURCE_TREE,)

    def __init__(self, context: Any, source_tree: Optional[SourceTree] = None,
                 **kwargs: Any) -> None:
        """
        Args:
          context: libcst's codemod context.
          source_tree: the tree being ported (None when the file is ported on its own).
          **kwargs: for the base class.
        """
        self.source_tree = source_tree  # start_file reads it, from the base's __init__ on
        super().__init__(context, **kwargs)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        uses = chain_filter(lambda parts: is_under(bindings.resolve_parts(parts), SDK_PACKAGE))
        return lambda statement: _sdk_imports(statement) or uses(statement)

    def start_file(self, tree: cst.Module) -> bool:
        super().start_file(tree)
        source_tree = self.source_tree
        self._tree_known = source_tree is not None
        # SDK modules imported bare (``import uaitrain.arch.tensorflow.uflag``), whose
        # uses are spelled out in full once the import is moved.
        self._bare: Set[str] = set()
        # The tree's own SDK is ported like the rest of the tree: nothing to move.
        return not (self._tree_known
                    and source_tree.has_near(self.context.filename or "", SDK_PACKAGE))

    def _report(self, node: cst.CSTNode, name: str) -> None:
        """Report the SDK name ``name``, which stays as it is."""
        if not self._tree_known:
            self.needs_attention(
                node, f"{name} is the platform SDK's; whether this tree has the SDK's "
                f"{SDK_PACKAGE}/ folder is not known when a file is ported on its own, so it "
                f"was not moved to slim_ext.uai", _UNKNOWN_TREE)
            return
        provided = ", ".join(f"{SDK_TF_PACKAGE}.{module} ({', '.join(sorted(names))})"
                             for module, names in sorted(SDK_MODULES.items()))
        self.needs_attention(
            node, f"{name}: the tree has no {SDK_PACKAGE}/ folder and slim_ext stands in "
            f"only for {provided}; left as it is",
            f"copy the SDK's {SDK_PACKAGE}/ folder into the tree, or write this part "
            "without it")

    def home_of(self, qualified: str) -> Optional[str]:
        if not self._tree_known:
            return None
        return stand_in(qualified)

    def import_home(self, node: cst.Import, alias: cst.ImportAlias) -> Optional[str]:
        name = alias.evaluated_name
        if not is_under(name, SDK_PACKAGE):
            return None
        home = self.home_of(name)
        if home is None or name == SDK_TF_PACKAGE:
            # The package itself: its modules are attributes of it only once imported.
            self._report(node, name)
            return None
        if alias.asname is None:
            self._bare.add(name)
        return home

    def stays(self, node: cst.ImportFrom, qualified: str, home: Optional[str]) -> bool:
        if is_under(qualified, SDK_PACKAGE) and (home is None or qualified == SDK_TF_PACKAGE):
            # The package itself: its modules are attributes of it only once imported.
            self._report(node, qualified)
            return True
        return super().stays(node, qualified, home)

    def from_imports(self, moved: Sequence[Tuple[str, str]]) -> List[cst.BaseSmallStatement]:
        # ``from uaitrain.arch.tensorflow import uflag, uai_dist`` keeps one line.
        names = [name if name == local else f"{name} as {local}"
                 for name, local in ((home.rpartition(".")[2], local) for home, local in moved)]
        packages = {home.rpartition(".")[0] for home, _ in moved}
        if len(packages) != 1:
            return super().from_imports(moved)
        return [small_statement(f"from {packages.pop()} import {', '.join(names)}")]

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        spelled = ".".join(parts)
        root_target = self.target_of(parts[0]) or ""
        if root_target != parts[0]:
            # Through a name an import binds: the import moved (or was reported).
            self.used_names.add(parts[0])
            return False
        module = next((f"{SDK_TF_PACKAGE}.{name}" for name in SDK_MODULES
                       if is_under(qualified, f"{SDK_TF_PACKAGE}.{name}")), None)
        if module not in self._bare:
            self.used_names.add(parts[0])
            self._report(node, spelled)
            return False
        self.replace_chain(node, home)
        self.record_edit(node, f"{spelled} -> {home}")
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        qualified = self.resolve_name(node)
        if self._tree_known and is_under(qualified, SDK_PACKAGE) \
                and self.home_of(qualified or "") is None:
            # A name no stand-in has (``uflag.some_helper``).
            self.used_names.update((dotted_parts(node) or [])[:1])
            self._report(node, qualified or "")
            return False
        return super().visit_Attribute(node)
