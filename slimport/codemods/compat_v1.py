"""``import tensorflow as tf`` -> ``tensorflow.compat.v1``; v2 behaviour off in entry scripts.

After this rewrite the TF1 names that survive in ``tf.compat.v1`` (``tf.logging``,
``tf.train.Saver``, ``tf.FixedLenFeature``, ...) keep working unchanged. Whether a name
survives is looked up in ``tf_compat_v1_names.txt``, generated from TensorFlow 2.21 by
tools/gen_compat_v1_names.py, so the rewrite never imports TensorFlow. Every
``tf.X.Y`` the file uses that is not there (tf.contrib leftovers, tf.estimator, ...)
is reported with its line.

Decisions: ``import tensorflow`` without an alias becomes ``import tensorflow.compat.v1
as tensorflow`` (in TF1 code ``tensorflow.train.Saver`` means the TF1 API);
``from tensorflow import keras`` is left alone because tf.compat.v1.keras is the same
lazily loaded Keras; ``tf.compat.v1.X`` on a converted ``tf`` becomes ``tf.X``.
Entry scripts (they call ``app.run`` in any spelling) get ``tf.disable_v2_behavior()``
once, after their module-level imports.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst
from libcst.helpers import get_full_name_for_node

from slimport.codemods._base import SlimportCodemod, StatementFilter, chain_filter
from slimport.contract import APP_RUN
from slimport.codemods._names import (
    Bindings,
    collect_bindings,
    dotted_expression,
    dotted_parts,
    local_name,
)

NAMES_FILE = Path(__file__).with_name("tf_compat_v1_names.txt")
TF = "tensorflow"
COMPAT_V1 = "tensorflow.compat.v1"
DISABLE_V2 = frozenset({
    "tensorflow.disable_v2_behavior", "tensorflow.compat.v1.disable_v2_behavior",
})
# ``from tensorflow import <these>`` is the same object under compat.v1: left as is.
SAME_UNDER_V1 = frozenset({"keras"})
_REMOVED_FIXES = {
    "contrib": "tf.contrib is gone and the contrib codemods did not port this use: "
               "run them (contrib_slim, contrib_symbols) or port it by hand "
               "(tf_slim, tf.compat.v1, or a TF2 library)",
    "estimator": "tf.estimator is gone in TF 2.21: use tf_slim.learning.train or a "
                 "tf.distribute strategy",
}


@lru_cache(maxsize=1)
def compat_v1_names() -> Tuple[FrozenSet[str], FrozenSet[str]]:
    """(every public tf.compat.v1 name, the names that have listed members)."""
    names = frozenset(
        line.strip() for line in NAMES_FILE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    )
    parents = frozenset(name.rsplit(".", 1)[0] for name in names if "." in name)
    return names, parents | {""}


def missing_prefix(relative: str) -> Optional[str]:
    """The first prefix of ``relative`` (``train.Saver.restore``) absent from compat.v1.

    Members of classes, functions and unlisted modules (keras) are not listed, so
    only a name inside a module whose members are listed can be missing.
    """
    names, parents = compat_v1_names()
    parent = ""
    for part in relative.split("."):
        current = f"{parent}.{part}" if parent else part
        if current not in names:
            return current if parent in parents else None
        parent = current
    return None


class CompatV1Command(SlimportCodemod):
    """Switch a TF1 file to tensorflow.compat.v1 and report what compat.v1 lacks."""

    NAME = "compat_v1"
    DESCRIPTION = ("import tensorflow as tf -> tensorflow.compat.v1 "
                   "(+ disable_v2_behavior in entry scripts)")
    TRIGGERS = ("tensorflow",)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        v1_heads, converted = _heads(bindings)

        def touched(parts: List[str]) -> bool:
            qualified = bindings.resolve_parts(parts)
            if qualified in APP_RUN or qualified in DISABLE_V2:
                return True
            if parts[0] not in converted and parts[0] not in v1_heads:
                return False
            if parts[0] in converted and parts[1:3] == ["compat", "v1"]:
                return True
            relative = _relative_to_v1(qualified)
            return (relative is not None and not _reported_by_contrib_symbols(relative)
                    and missing_prefix(relative) is not None)
        return chain_filter(touched)

    def start_file(self, tree: cst.Module) -> bool:
        self.bindings = collect_bindings(self.file_ast(tree))
        self.v1_heads, self.converted = _heads(self.bindings)
        # ``tensorflow`` is also bound by ``import tensorflow.python.x``, which is not
        # converted: ``tensorflow.compat.v1`` collapses only after a plain import.
        self.plain_import_seen = False
        self.checked: Set[int] = set()
        self.app_run: Optional[cst.Call] = None
        self.has_disable_v2 = False
        return self.bindings.is_used_as(TF)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = tree.visit(self)
        if self.app_run is not None and not self.has_disable_v2:
            tree = self._disable_v2(tree)
        return tree

    # -- imports ---------------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> None:
        if any(alias.asname is None and get_full_name_for_node(alias.name) == TF
               for alias in node.names):
            self.plain_import_seen = True

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        aliases = []
        for alias in updated_node.names:
            if get_full_name_for_node(alias.name) == TF:
                asname = alias.asname or cst.AsName(name=cst.Name(TF))
                alias = alias.with_changes(name=dotted_expression(COMPAT_V1), asname=asname)
                self.record_edit(original_node, "import tensorflow -> import tensorflow.compat.v1")
            aliases.append(alias)
        return updated_node.with_changes(names=aliases)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> cst.ImportFrom:
        if (original_node.relative or original_node.module is None
                or get_full_name_for_node(original_node.module) != TF
                or isinstance(original_node.names, cst.ImportStar)):
            return updated_node
        imported = [alias.evaluated_name for alias in original_node.names]
        names, _ = compat_v1_names()
        missing = [name for name in imported if name not in names]
        for name in missing:
            self._report_missing(original_node, f"tensorflow.{name}", name)
        if missing or any(name in SAME_UNDER_V1 for name in imported):
            if not missing and len(set(imported) - SAME_UNDER_V1) > 0:
                self.needs_attention(
                    original_node, "`from tensorflow import` mixes keras with TF1 names; "
                    "left on the TF2 API", "import keras on its own line and the rest "
                    "from tensorflow.compat.v1")
            for alias in original_node.names:
                self.v1_heads.discard(local_name(alias))
            return updated_node
        self.record_edit(original_node,
                         "from tensorflow import -> from tensorflow.compat.v1 import")
        return updated_node.with_changes(module=dotted_expression(COMPAT_V1))

    # -- uses ------------------------------------------------------------------------

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if id(node) in self.checked:
            return
        parts = dotted_parts(node)
        if parts is None or parts[0] not in self.v1_heads and parts[0] not in self.converted:
            return
        # Outermost chain first (pre-order): its inner chains need no second check.
        inner: cst.BaseExpression = node
        while isinstance(inner, cst.Attribute):
            self.checked.add(id(inner))
            inner = inner.value
        qualified = self.bindings.resolve(node)
        relative = _relative_to_v1(qualified)
        if relative is None:
            return
        if _reported_by_contrib_symbols(relative):
            return
        missing = missing_prefix(relative)
        if missing is not None:
            self._report_missing(node, ".".join(parts), missing)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        # ``tf.compat.v1`` on a tf that is now compat.v1 is just ``tf``.
        if (original_node.attr.value == "v1" and isinstance(original_node.value, cst.Attribute)
                and original_node.value.attr.value == "compat"
                and isinstance(original_node.value.value, cst.Name)
                and original_node.value.value.value in self.converted
                and (original_node.value.value.value != TF or self.plain_import_seen)):
            self.record_edit(original_node, "tf.compat.v1.X -> tf.X (tf is compat.v1 now)")
            return cst.Name(original_node.value.value.value, lpar=updated_node.lpar,
                            rpar=updated_node.rpar)
        return updated_node

    def visit_Call(self, node: cst.Call) -> None:
        parts = dotted_parts(node.func)
        if parts is None or parts[0] not in self.bindings.names:
            return
        qualified = self.bindings.resolve(node.func)
        if qualified in APP_RUN and self.app_run is None:
            self.app_run = node
        elif qualified in DISABLE_V2:
            self.has_disable_v2 = True

    # -- entry scripts ---------------------------------------------------------------

    def _disable_v2(self, tree: cst.Module) -> cst.Module:
        body = list(tree.body)
        position, module_level = _module_level_imports(body)
        name = _v1_module_name(module_level, self.bindings.names)
        if position == 0 or name is None:
            self.needs_attention(
                self.app_run, "entry script: no module-level import to put "
                "disable_v2_behavior() after, or no free name for tensorflow.compat.v1",
                "call `tf.compat.v1.disable_v2_behavior()` after the imports, before any "
                "graph is built")
            return tree
        disable = cst.Call(func=dotted_expression(f"{name}.disable_v2_behavior"))
        lines = [cst.SimpleStatementLine([cst.Expr(disable)])]
        if name not in module_level:
            # Added here, not by AddImportsVisitor, so that it lands before the call.
            lines.insert(0, cst.SimpleStatementLine([cst.Import(
                [cst.ImportAlias(dotted_expression(COMPAT_V1),
                                 asname=cst.AsName(cst.Name(name)))])]))
        body[position:position] = lines
        self.record_edit(self.app_run,
                         f"entry script: {name}.disable_v2_behavior() after the imports")
        return tree.with_changes(body=body)

    def _report_missing(self, node: cst.CSTNode, spelled: str, missing: str) -> None:
        head = missing.split(".")[0]
        fix = _REMOVED_FIXES.get(head, f"find the TensorFlow 2 replacement for `{missing}` "
                                       "(tf_upgrade_v2's rename list) and rewrite by hand")
        self.needs_attention(node, f"{spelled}: `{missing}` is not in TensorFlow 2.21's "
                                   "tf.compat.v1", fix)


def _heads(bindings: Bindings) -> Tuple[Set[str], Set[str]]:
    """(local names that stand for something under tf.compat.v1 after this pass,
    local names bound to the tensorflow package, which this pass converts)."""
    v1_heads: Set[str] = set()
    converted: Set[str] = set()
    for local, target in bindings.names.items():
        if target == TF:
            converted.add(local)
        if target == COMPAT_V1 or target.startswith(COMPAT_V1 + "."):
            v1_heads.add(local)
        elif target.startswith(TF + ".") and target.split(".")[1] not in ("compat", "python"):
            v1_heads.add(local)
    return v1_heads, converted


def _reported_by_contrib_symbols(relative: str) -> bool:
    """contrib_symbols, which runs earlier, already reported tf.contrib.<module>.X leftovers.

    One finding per leftover keeps the report a to-do list; tf.contrib.slim leftovers
    (contrib_slim's part) and a bare ``tf.contrib`` are still reported here.
    """
    parts = relative.split(".")
    return len(parts) > 2 and parts[0] == "contrib" and parts[1] != "slim"


def _relative_to_v1(qualified: Optional[str]) -> Optional[str]:
    if qualified is None:
        return None
    if qualified.startswith(COMPAT_V1 + "."):
        return qualified[len(COMPAT_V1) + 1:]
    private_or_compat = (TF + ".compat.", TF + ".python.")
    if qualified.startswith(TF + ".") and not qualified.startswith(private_or_compat):
        return qualified[len(TF) + 1:]
    return None


def _module_level_imports(body: List[cst.BaseStatement]) -> Tuple[int, Dict[str, str]]:
    """(index after the last module-level import before the first def/class, what
    those import lines bind: local name -> module).

    Only these names exist when the inserted call runs: a ``tf`` imported inside a
    function does not.
    """
    position, bound = 0, {}
    for index, statement in enumerate(body):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            break
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                position = index + 1
                for alias in small.names:
                    module = get_full_name_for_node(alias.name) or ""
                    local = local_name(alias) if alias.asname else module.split(".")[0]
                    bound[local] = module if alias.asname else local
            elif isinstance(small, cst.ImportFrom):
                position = index + 1
    return position, bound


def _v1_module_name(module_level: Dict[str, str], anywhere: Dict[str, str]) -> Optional[str]:
    """A module-level name for tensorflow.compat.v1, or ``tf`` if it can be added."""
    candidates = sorted(local for local, module in module_level.items() if module == COMPAT_V1)
    if candidates:
        return "tf" if "tf" in candidates else candidates[0]
    return None if "tf" in anywhere or "tf" in module_level else "tf"
