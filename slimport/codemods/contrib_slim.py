"""``tf.contrib.slim``, in every spelling TF1 code used, becomes the ``tf_slim`` package.

tf_slim 1.1.0 is contrib.slim moved out of TensorFlow with its layout flattened:
``tensorflow/contrib/slim/python/slim/data/...`` is ``tf_slim/data/...`` and
``tensorflow.contrib.slim.nets`` is ``tf_slim.nets``. So every qualified name under
``tensorflow.contrib.slim`` maps to one ``tf_slim`` path (see ``tf_slim_path``), and
the rewrite is the same for all spellings:

- statements that bind a name to contrib.slim (``import tensorflow.contrib.slim as
  slim``, ``from tensorflow.contrib import slim``, ``slim = tf.contrib.slim``) are
  rewritten where they stand, keeping the local name, so the rest of the file is
  untouched;
- uses that reach contrib.slim through another name (``tf.contrib.slim.arg_scope``)
  go through the file's module-level slim alias, or through an added
  ``import tf_slim``; the import they went through is removed if nothing else uses it.
"""
from __future__ import annotations

import ast
from typing import ClassVar, List, Optional, Tuple

import libcst as cst

from slimport.codemods.base import StatementFilter, chain_filter, code_of
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.codemods._statements import import_statement
from slimport.analysis.names import Bindings, dotted_parts, is_under
from slimport.tables.contrib_table import chain_end, gone_fix

# TF 1.13+ also exposed contrib under compat.v1 (``import tensorflow.compat.v1 as tf``).
_CONTRIB_SLIM_SPELLINGS = ("tensorflow.contrib.slim", "tensorflow.compat.v1.contrib.slim")
# contrib kept the library under python/slim/; tf_slim hoisted it to the top.
_CONTRIB_INNER = "python.slim"
# tf_slim/__init__.py does not import its nets subpackage, contrib.slim's did.
_NETS = "tf_slim.nets"


def tf_slim_path(qualified: str) -> Optional[str]:
    """Where a contrib.slim name lives in tf_slim.

    Args:
      qualified: a dotted name, e.g. ``tensorflow.contrib.slim.python.slim.learning``.

    Returns:
      The tf_slim dotted name (``tf_slim.learning``), or None when ``qualified`` is
      not contrib.slim or something under it.
    """
    for spelling in _CONTRIB_SLIM_SPELLINGS:
        if is_under(qualified, spelling):
            rest = qualified[len(spelling) + 1 :]
            break
    else:
        return None
    if is_under(rest, _CONTRIB_INNER):
        rest = rest[len(_CONTRIB_INNER) + 1 :]
    return "tf_slim." + rest if rest else "tf_slim"


def _gone(qualified: str) -> Optional[str]:
    """The contrib key of the name a contrib.slim chain reaches, if tf_slim lacks it
    (``slim.embed_sequence``: contrib.slim re-exported it from contrib.layers)."""
    for spelling in _CONTRIB_SLIM_SPELLINGS:
        if qualified.startswith(spelling + "."):
            end = chain_end("slim" + qualified[len(spelling):])
            if end is not None and end.found is not None and end.found.is_gone:
                return end.key
    return None


def _is_slim_target(target: Optional[str]) -> bool:
    """True if ``target`` is contrib.slim or something under it."""
    return target is not None and tf_slim_path(target) is not None


def _is_slim_alias(bindings: Bindings, name: str) -> bool:
    """True if ``name`` is bound to contrib.slim or something under it."""
    return _is_slim_target(bindings.names.get(name))


def _is_package(target: str) -> bool:
    return tf_slim_path(target) == "tf_slim" or target == "tf_slim"


def _is_nets(path: str) -> bool:
    return is_under(path, _NETS)


class ContribSlimCommand(ModuleMoveCodemod):
    """Rewrites every reach into ``tensorflow.contrib.slim`` to ``tf_slim``."""

    NAME: ClassVar[str] = "contrib_slim"
    DESCRIPTION: ClassVar[str] = (
        "tf.contrib.slim (every import spelling and attribute use) -> tf_slim"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("contrib",)

    @classmethod
    def applies_to(cls, source: str) -> bool:
        """Every spelling of contrib.slim has both words; tf_slim-only files have one."""
        return "contrib" in source and "slim" in source

    @classmethod
    def rebound(cls, bindings: Bindings) -> Bindings:
        # Every binding to contrib.slim is rewritten where it stands.
        return Bindings({name: tf_slim_path(target) or target
                         for name, target in bindings.names.items()})

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Uses through a slim alias (``slim.conv2d``) stay as they are: the alias's
        # own binding statement is what changes. ``slim.nets.x`` still adds an import.
        def touched(parts: List[str]) -> bool:
            qualified = bindings.resolve_parts(parts)
            path = tf_slim_path(qualified) if qualified is not None else None
            if path is None:
                return False
            return not _is_slim_alias(bindings, parts[0]) or _is_nets(path) \
                or _gone(qualified) is not None
        return chain_filter(touched)

    def home_of(self, qualified: str) -> Optional[str]:
        return tf_slim_path(qualified)

    # --- statements that bind a name to contrib.slim are rewritten where they stand
    # (the base's leave_Import / leave_ImportFrom), and so is ``slim = tf.contrib.slim``.

    def visit_Assign(self, node: cst.Assign) -> bool:
        """``slim = tf.contrib.slim`` becomes ``import tf_slim as slim`` in its place."""
        # Only the package itself: ``conv = tf.contrib.slim.conv2d`` stays an
        # assignment and its value is rewritten like any other use.
        if self._foreign_path(node.value) != "tf_slim" or len(node.targets) != 1:
            return True
        target = node.targets[0].target
        if not isinstance(target, cst.Name):
            return True
        statement = import_statement("tf_slim", target.value)
        self.replace(node, statement.with_changes(semicolon=node.semicolon))
        self.record_edit(node, f"{code_of(node)} -> {code_of(statement)}")
        self.rewritten_roots.add((dotted_parts(node.value) or [""])[0])
        return False

    # --- uses: ``tf.contrib.slim.X`` anywhere in an expression.

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        gone = _gone(qualified)
        if gone is not None:
            self.needs_attention(node, f"tf.contrib.{gone} is gone: tf_slim 1.1.0 does not "
                                 "have it, nor does TensorFlow 2", gone_fix(gone))
        head = self.target_of(parts[0])
        if _is_slim_target(head):
            self.used_names.add(parts[0])
            if tf_slim_path(head or "") == "tf_slim":
                self._note_nets_use(home)
            return False
        self._note_nets_use(home)
        local = self.alias_here(_is_package, prefer="slim")
        if local is None:
            local = "tf_slim"
            self.add_needed_import("tf_slim")
        text = local + home[len("tf_slim") :]
        self.replace_chain(node, text)
        self.record_edit(node, f"{'.'.join(parts)} -> {text}")
        self.rewritten_roots.add(parts[0])
        return False

    def _foreign_path(self, value: cst.BaseExpression) -> Optional[str]:
        """The tf_slim path of a chain into contrib.slim not made through a slim alias."""
        parts = dotted_parts(value)
        if parts is None or _is_slim_target(self.target_of(parts[0])):
            return None
        qualified = self.resolve_name(value)
        return tf_slim_path(qualified) if qualified else None

    def _note_nets_use(self, path: str) -> None:
        """``slim.nets.vgg`` needs ``import tf_slim.nets``: tf_slim does not load it."""
        if _is_nets(path):
            self.add_needed_import(_NETS)
