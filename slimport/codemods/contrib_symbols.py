"""tf.contrib symbols other than slim -> tf_slim, tf.compat.v1, or a slim_ext stand-in.

Every spelling is resolved through the file's import bindings (``_names.py``):
``tf.contrib.framework.arg_scope``, ``contrib_layers.xavier_initializer`` after
``from tensorflow.contrib import layers as contrib_layers``, deep source paths such as
``from tensorflow.contrib.framework.python.ops import arg_scope``, and
``import tensorflow.contrib.layers as layers``. Attribute uses are rewritten in place;
``from <contrib module> import <symbol>`` becomes an import from the symbol's new home.
A contrib module alias is dropped once nothing uses it any more, because the import
alone would break the ported file. tf.contrib.slim is left to contrib_slim.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set, Union

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from slimport.codemods._base import SlimportCodemod, StatementFilter, chain_filter
from slimport.codemods._names import (
    Bindings,
    collect_bindings,
    dotted_expression,
    dotted_parts,
    local_name,
    variable_names,
)
from slimport.codemods.contrib_table import (
    COMPAT_V1,
    STAND_INS,
    TABLE,
    TF_SLIM,
    Home,
    contrib_key,
    deep_module,
    is_module_key,
)

_CONTRIB = "tensorflow.contrib"
# TF 1.13-1.15 code ported by hand halfway reaches contrib through compat.v1.
_V1_CONTRIB = "tensorflow.compat.v1.contrib"


def _normalize(qualified: Optional[str]) -> Optional[str]:
    if qualified is not None and (qualified + ".").startswith(_V1_CONTRIB + "."):
        return _CONTRIB + qualified[len(_V1_CONTRIB):]
    return qualified


def _is_ours(qualified: Optional[str]) -> bool:
    """True for tensorflow.contrib names this codemod handles (everything but slim)."""
    if qualified is None or not (qualified == _CONTRIB or qualified.startswith(_CONTRIB + ".")):
        return False
    return not (qualified + ".").startswith(_CONTRIB + ".slim.")


def _heads(bindings: Bindings) -> Set[str]:
    """The local names a chain must start with to reach tensorflow.contrib."""
    return {
        local for local, target in bindings.names.items()
        if target in ("tensorflow", "tensorflow.compat.v1") or _is_ours(_normalize(target))
    }


def _is_contrib_module(qualified: str) -> bool:
    if not _is_ours(qualified) or qualified == _CONTRIB:
        return False
    key = contrib_key(qualified)
    return deep_module(qualified) or (key is not None and key not in TABLE and is_module_key(key))


class _DropModuleAliases(cst.CSTTransformer):
    """Remove imports/assignments of contrib module aliases that nothing uses now."""

    def __init__(self, bindings: Bindings, unused: Set[str]) -> None:
        super().__init__()
        self.bindings = bindings
        self.unused = unused

    def _drop(self, qualified: str, local: str) -> bool:
        return local in self.unused and _is_contrib_module(qualified)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import
                     ) -> Union[cst.Import, cst.RemovalSentinel]:
        kept = []
        for alias in updated_node.names:
            qualified = get_full_name_for_node(alias.name) or ""
            if alias.asname is None and _is_contrib_module(qualified):
                # ``import tensorflow.contrib.layers`` binds ``tensorflow``.
                if "tensorflow" in self.unused:
                    continue
                alias = alias.with_changes(name=cst.Name("tensorflow"))
            elif alias.asname is not None:
                if self._drop(qualified, local_name(alias)):
                    continue
            kept.append(alias)
        return _with_aliases(updated_node, kept)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> Union[cst.ImportFrom, cst.RemovalSentinel]:
        if isinstance(updated_node.names, cst.ImportStar) or updated_node.module is None:
            return updated_node
        module = get_full_name_for_node(updated_node.module) or ""
        kept = [alias for alias in updated_node.names
                if not self._drop(f"{module}.{alias.evaluated_name}", local_name(alias))]
        return _with_aliases(updated_node, kept)

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign
                     ) -> Union[cst.Assign, cst.RemovalSentinel]:
        qualified = _normalize(self.bindings.resolve(original_node.value))
        targets = original_node.targets
        if (qualified is not None and len(targets) == 1
                and isinstance(targets[0].target, cst.Name)
                and self._drop(qualified, targets[0].target.value)):
            return cst.RemoveFromParent()
        return updated_node

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine
                                  ) -> Union[cst.SimpleStatementLine, cst.RemovalSentinel]:
        if not updated_node.body:
            return cst.RemoveFromParent()
        return updated_node

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock,
                            updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        if not updated_node.body:
            # The block held only the dropped import (``try:`` around it).
            return updated_node.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated_node


def _with_aliases(node: Union[cst.Import, cst.ImportFrom], aliases: List[cst.ImportAlias]
                  ) -> Union[cst.Import, cst.ImportFrom, cst.RemovalSentinel]:
    if not aliases:
        return cst.RemoveFromParent()
    if len(aliases) == len(node.names):
        return node.with_changes(names=aliases)
    aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(names=aliases)


class ContribSymbolsCommand(SlimportCodemod):
    """Port tf.contrib.{framework,layers,losses,metrics,training,...} uses."""

    NAME = "contrib_symbols"
    DESCRIPTION = ("tf.contrib.* (except slim) -> tf_slim / tf.compat.v1, "
                   "or a slim_ext.contrib stand-in")
    TRIGGERS = ("contrib",)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        heads = _heads(bindings)
        return chain_filter(lambda parts: parts[0] in heads
                            and _is_ours(_normalize(bindings.resolve_parts(parts))))

    def start_file(self, tree: cst.Module) -> bool:
        self.bindings = collect_bindings(self.file_ast(tree))
        self.heads = _heads(self.bindings)
        # Local name of a contrib module alias -> the import/assignment binding it.
        self.module_aliases: Dict[str, cst.CSTNode] = {}
        self._tree = tree
        self._taken: Optional[Set[str]] = None
        # Modules this pass imports: module -> the dotted prefix that reaches it.
        self._imported: Dict[str, str] = {}
        return bool(self.heads)

    # -- pass structure -------------------------------------------------------------

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = tree.visit(self)
        if self.module_aliases:
            tree = self._drop_unused_aliases(tree)
        return tree

    def _drop_unused_aliases(self, tree: cst.Module) -> cst.Module:
        used = variable_names(tree, include_bindings=False)
        for local, node in self.module_aliases.items():
            if local in used and local != "tensorflow":
                self.needs_attention(
                    node, f"tf.contrib module alias `{local}` is still used after the "
                    "rewrite, so its import stays and will fail on TensorFlow 2",
                    "port the remaining uses reported for this file, then delete the import")
        unused = set(self.module_aliases) - used
        if not unused and "tensorflow" not in self.module_aliases:
            return tree
        return tree.visit(_DropModuleAliases(self.bindings, unused))

    # -- bindings of contrib modules --------------------------------------------------

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            qualified = get_full_name_for_node(alias.name) or ""
            if _is_contrib_module(qualified):
                local = local_name(alias) if alias.asname is not None else "tensorflow"
                self.module_aliases[local] = node

    def visit_Assign(self, node: cst.Assign) -> None:
        targets = node.targets
        if len(targets) == 1 and isinstance(targets[0].target, cst.Name):
            qualified = _normalize(self.resolve_name(node.value))
            if qualified is not None and _is_contrib_module(qualified):
                self.module_aliases[targets[0].target.value] = node

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> Union[cst.ImportFrom, cst.FlattenSentinel]:
        if (original_node.relative or original_node.module is None
                or isinstance(original_node.names, cst.ImportStar)):
            return updated_node
        module = get_full_name_for_node(original_node.module) or ""
        if not _is_ours(module):
            return updated_node
        kept: List[cst.ImportAlias] = []
        moved: List[cst.ImportFrom] = []
        for alias in original_node.names:
            qualified = f"{module}.{alias.evaluated_name}"
            local = local_name(alias)
            key = contrib_key(qualified)
            if not _is_ours(qualified) or _is_contrib_module(qualified):
                if _is_ours(qualified):
                    self.module_aliases[local] = original_node
                kept.append(alias)
            elif key in TABLE:
                moved.append(self._import_from_home(TABLE[key], local, original_node, key))
            else:
                self._unknown(original_node, key or qualified)
                kept.append(alias)
        if not moved:
            return updated_node
        statements: List[cst.ImportFrom] = []
        if kept:
            statements.append(_with_aliases(updated_node, kept))  # type: ignore[arg-type]
        statements.extend(moved)
        if len(statements) == 1:
            return statements[0]
        return cst.FlattenSentinel(statements)

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine
                                  ) -> Union[cst.SimpleStatementLine, cst.FlattenSentinel]:
        # One contrib import can move to several homes: one line per new import.
        if len(updated_node.body) <= 1 or len(original_node.body) != 1:
            return updated_node
        lines = [
            cst.SimpleStatementLine(
                body=[statement.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)])
            for statement in updated_node.body
        ]
        lines[0] = lines[0].with_changes(leading_lines=updated_node.leading_lines)
        lines[-1] = lines[-1].with_changes(trailing_whitespace=updated_node.trailing_whitespace)
        return cst.FlattenSentinel(lines)

    # -- attribute uses -----------------------------------------------------------------

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        parts = dotted_parts(original_node)
        if parts is None or parts[0] not in self.heads:
            return updated_node
        qualified = _normalize(self.resolve_name(original_node))
        if not _is_ours(qualified):
            return updated_node
        key = contrib_key(qualified)  # type: ignore[arg-type]
        if key is None or _is_contrib_module(qualified):  # type: ignore[arg-type]
            return updated_node
        home = TABLE.get(key)
        if home is None:
            parent = key.rsplit(".", 1)[0]
            if "." in key and is_module_key(parent):
                self._unknown(original_node, key)
            return updated_node
        replacement = self._expression_for(home)
        self._record(original_node, key, home)
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    # -- homes ----------------------------------------------------------------------------

    def _expression_for(self, home: Home) -> Union[cst.Name, cst.Attribute]:
        if home.package == TF_SLIM:
            return dotted_expression(f"{self._tf_slim()}.{home.attribute}")
        if home.package == COMPAT_V1:
            return dotted_expression(f"{self._compat_v1()}.{home.attribute}")
        AddImportsVisitor.add_needed_import(self.context, STAND_INS)
        return dotted_expression(home.dotted)

    def _tf_slim(self) -> str:
        """The name that reaches tf_slim here: a slim alias bound by now, or an import."""
        existing = self.alias_here(lambda target: target == TF_SLIM, prefer="slim")
        if existing is not None:
            return existing
        if TF_SLIM not in self._imported:
            AddImportsVisitor.add_needed_import(self.context, TF_SLIM)
            self._imported[TF_SLIM] = TF_SLIM
        return self._imported[TF_SLIM]

    def _compat_v1(self) -> str:
        """The dotted prefix that reaches tf.compat.v1 here (adding an import if needed)."""
        for target, suffix in ((COMPAT_V1, ""), ("tensorflow", ".compat.v1")):
            existing = self.alias_here(lambda bound, target=target: bound == target,
                                       prefer="tf")
            if existing is not None:
                return existing + suffix
        if COMPAT_V1 not in self._imported:
            if self._taken is None:
                self._taken = variable_names(self._tree, include_bindings=True)
            if "tf" not in self._taken:
                AddImportsVisitor.add_needed_import(self.context, COMPAT_V1, asname="tf")
                self._imported[COMPAT_V1] = "tf"
            else:
                AddImportsVisitor.add_needed_import(self.context, "tensorflow")
                self._imported[COMPAT_V1] = COMPAT_V1
        return self._imported[COMPAT_V1]

    def _import_from_home(self, home: Home, local: str, original: cst.ImportFrom,
                          key: str) -> cst.ImportFrom:
        asname = None if local == home.name else cst.AsName(name=cst.Name(local))
        self._record(original, key, home)
        return cst.ImportFrom(module=dotted_expression(home.import_from),
                              names=[cst.ImportAlias(name=cst.Name(home.name), asname=asname)])

    # -- findings -------------------------------------------------------------------------

    def _record(self, node: cst.CSTNode, key: str, home: Home) -> None:
        if home.is_stand_in:
            self.needs_attention(
                node, f"tf.contrib.{key} has no TensorFlow 2 replacement; now "
                f"{home.dotted}, which raises when called",
                f"use {home.alternative}")
        else:
            self.record_edit(node, f"tf.contrib.{key} -> {home.dotted}")

    def _unknown(self, node: cst.CSTNode, key: str) -> None:
        self.needs_attention(
            node, f"tf.contrib.{key} is not in slimport's contrib table; left unchanged "
            "(tf.contrib does not exist in TensorFlow 2)",
            "find its TF2 / tf_slim equivalent and rewrite by hand, or drop the feature")
