"""What contrib_slim, moxing, moved_modules and flags_to_absl share: moving names to
their new home.

Each of them moves every name under some old modules to a new package
(``tensorflow.contrib.slim`` -> ``tf_slim``, ``moxing.tensorflow`` -> ``slim_ext.mox``,
``tensorflow.app.flags`` -> ``absl.flags``) the same way, and states only where things
went (``home_of``) and what a use of a moved name becomes (``moved_use``):

- import statements are rewritten where they stand, keeping the names they bind
  (``import a.b as x``, ``from a import b``; a ``from`` import whose names do not all
  keep their name in one module is split into one import per home);
- every ``a.b.c`` chain that resolves to a name with a home is handed to
  ``moved_use``, which rewrites it (``replace``) through a module-level name for the
  new home, or leaves it;
- an import whose every use was rewritten is then dropped.

This base keeps the bookkeeping for that: which nodes get which replacement, which
statements split off an import line, which names were rewritten and which are still
used.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from slimport.codemods.base import SlimportCodemod, code_of
from slimport.analysis.names import (
    collect_bindings,
    dotted_expression,
    dotted_parts,
    local_name,
)
from slimport.codemods._statements import import_statement, without_trailing_comma
from slimport.tables.tf_api import COMPAT_V1, TF


class ModuleMoveCodemod(SlimportCodemod):
    """Base for codemods that move names to a new home: imports in place, uses by alias.

    Subclasses define ``home_of`` and ``moved_use``; the hooks ``import_home``,
    ``stays`` and ``from_imports`` change how imports are rewritten. A ``moved_use``
    that rewrites a chain calls ``replace`` and says which first names it rewrote
    (``rewritten_roots``) and which it saw used otherwise (``used_names``).
    """

    def home_of(self, qualified: str) -> Optional[str]:
        """Where the module or name ``qualified`` lives after the move.

        Args:
          qualified: a dotted name, e.g. ``tensorflow.contrib.slim.arg_scope``.

        Returns:
          Its new dotted name (``tf_slim.arg_scope``); ``qualified`` itself for a name
          the codemod handles that stays where it is; None for a name it does not
          handle.
        """
        raise NotImplementedError

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        """Rewrite (``replace``) or report a chain that reaches a name with a home.

        Args:
          node: the outermost ``a.b.c`` chain, as the visit meets it.
          parts: its names (``["slim", "arg_scope"]``).
          qualified: what it resolves to where it stands.
          home: ``home_of(qualified)``.

        Returns:
          Whether the visit goes on into the chain (it never needs to: False).
        """
        raise NotImplementedError

    def import_home(self, node: cst.Import, alias: cst.ImportAlias) -> Optional[str]:
        """The path ``import <alias>`` imports instead; None keeps the alias as it is.

        Args:
          node: the import statement (for a subclass's report).
          alias: one of its names.

        Returns:
          ``home_of`` the imported module, unless that is the module itself.
        """
        home = self.home_of(alias.evaluated_name)
        return None if home == alias.evaluated_name else home

    def stays(self, node: cst.ImportFrom, qualified: str, home: Optional[str]) -> bool:
        """Whether a name of a ``from`` import stays where it is imported from.

        Args:
          node: the import statement (for a subclass's report).
          qualified: the module, or the module's name, the statement imports.
          home: ``home_of(qualified)``.

        Returns:
          True when it has no home elsewhere; a subclass may also keep (and report)
          names whose home lacks them.
        """
        return home is None or home == qualified

    def from_imports(self, moved: Sequence[Tuple[str, str]]) -> List[cst.BaseSmallStatement]:
        """The statements that import the names split off a ``from`` import.

        Args:
          moved: (home, local name) of each name, in the order written.

        Returns:
          One ``import_statement`` per name.
        """
        return [import_statement(home, local) for home, local in moved]

    def start_file(self, tree: cst.Module) -> bool:
        parsed = self.file_ast(tree)
        self.bindings = collect_bindings(parsed)
        self.module_bindings = collect_bindings(parsed, module_level_only=True)
        self.rewritten_roots: Set[str] = set()
        self.used_names: Set[str] = set()
        self._replacements: Dict[cst.CSTNode, cst.CSTNode] = {}
        # Imports split off a ``from tensorflow.contrib import slim, layers`` line,
        # emitted as their own statements right after it.
        self._split_off: List[cst.BaseSmallStatement] = []
        return True

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        tree = tree.visit(self)
        # RemoveImportsVisitor decides for itself whether an import is unused, but
        # costs a scope analysis of the whole file; names still seen here are not
        # worth asking about.
        for root in sorted(self.rewritten_roots - self.used_names):
            target = self.bindings.names.get(root)
            if target is not None:
                self.schedule_import_removal(root, target)
        return tree

    def replace(self, original: Union[cst.Assign, cst.Attribute], new: cst.CSTNode) -> None:
        """Put ``new`` in place of ``original`` when the visit leaves it.

        Args:
          original: the statement or chain as the visit meets it.
          new: its replacement.
        """
        self._replacements[original] = new

    def replace_chain(self, node: cst.Attribute, text: str) -> None:
        """Put the dotted name ``text`` in place of the chain ``node`` (keeping its
        parentheses).

        Args:
          node: the chain.
          text: the dotted name that replaces it.
        """
        self.replace(node, dotted_expression(text).with_changes(lpar=node.lpar, rpar=node.rpar))

    def move_to_runtime(self, node: cst.Attribute, parts: List[str], home: str, problem: str,
                        note: str) -> bool:
        """A ``moved_use`` to ``home``, a name of a slim_ext module: the chain becomes
        ``home`` (its module imported), or, where the file binds ``slim_ext`` to something
        else, stays and is reported.

        Args:
          node: the chain, as ``moved_use`` got it.
          parts: its names.
          home: the dotted slim_ext name (``slim_ext.tf1_nn.leaky_relu``).
          problem: what is wrong with the old name, for the report.
          note: how ``home`` does what the old name did, for the edit.

        Returns:
          False (the visit need not go into the chain).
        """
        runtime = home.rpartition(".")[0]
        root = runtime.split(".")[0]
        if self.target_of(root) not in (None, root):
            self.used_names.add(parts[0])
            self.needs_attention(node, f"{code_of(node)}: {problem}; left unchanged because "
                                 f"the file uses the name {root} for something else",
                                 f"use {home}")
            return False
        self.add_needed_import(runtime)
        self.replace_chain(node, home)
        self.rewritten_roots.add(parts[0])
        self.record_edit(node, f"{'.'.join(parts)} -> {home} ({note})")
        return False

    def move_import_from(
        self, original: cst.ImportFrom, updated: cst.ImportFrom, path: str
    ) -> cst.ImportFrom:
        """``from <old module> import ...`` becomes ``from <path> import ...``.

        Args:
          original: the statement as the visit met it (for the edit's line).
          updated: the statement to change.
          path: the new module.

        Returns:
          The new statement.
        """
        new = updated.with_changes(module=dotted_expression(path))
        self.record_edit(original, f"{code_of(original)} -> {code_of(new)}")
        return new

    def split_import(
        self,
        node: cst.ImportFrom,
        kept: List[cst.ImportAlias],
        moved: Sequence[cst.BaseSmallStatement],
    ) -> cst.BaseSmallStatement:
        """``node`` keeping only ``kept`` names, ``moved`` imports on lines after it.

        Args:
          node: the ``from`` import.
          kept: the names it keeps.
          moved: the imports of the others.

        Returns:
          The statement to leave in ``node``'s place: the first of ``moved`` when
          nothing is kept.
        """
        if not kept:
            self._split_off.extend(moved[1:])
            return moved[0]
        self._split_off.extend(moved)
        return node.with_changes(names=without_trailing_comma(kept))

    def compat_v1_prefix(self) -> str:
        """How code here reaches ``tensorflow.compat.v1``, for a name moved there.

        Returns:
          ``tf`` (a name bound to tensorflow.compat.v1), ``tf.compat.v1`` (bound to
          tensorflow), or ``tensorflow.compat.v1`` with ``import tensorflow`` added.
        """
        for target, suffix in ((COMPAT_V1, ""), (TF, ".compat.v1")):
            local = self.alias_here(lambda bound, target=target: bound == target, prefer="tf")
            if local is not None:
                return local + suffix
        self.add_needed_import(TF)
        return COMPAT_V1

    # --- statements that bind names to the old modules: rewritten where they stand.

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        aliases = []
        for alias in updated_node.names:
            path = self.import_home(original_node, alias)
            if path is not None:
                alias = alias.with_changes(name=dotted_expression(path))
            aliases.append(alias)
        if aliases == list(updated_node.names):
            return updated_node
        new = updated_node.with_changes(names=aliases)
        self.record_edit(original_node, f"{code_of(original_node)} -> {code_of(new)}")
        return new

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement:
        if updated_node.relative or updated_node.module is None:
            return updated_node
        module = ".".join(dotted_parts(updated_node.module) or [])
        home = self.home_of(module)
        if home == module:
            home = None
        if isinstance(updated_node.names, cst.ImportStar):
            if self.stays(original_node, module, home):
                return updated_node
            return self.move_import_from(original_node, updated_node, home)  # type: ignore
        kept: List[cst.ImportAlias] = []
        moved: List[Tuple[str, str]] = []
        for alias in updated_node.names:
            name = f"{module}.{alias.evaluated_name}"
            target = self.home_of(name)
            if self.stays(original_node, name, target):
                kept.append(alias)
            else:
                moved.append((target, local_name(alias)))  # type: ignore[arg-type]
        if not moved:
            return updated_node
        if home is not None and not kept and all(
                target == f"{home}.{name}" for (target, _), name in zip(
                    moved, (alias.evaluated_name for alias in updated_node.names))):
            # Every name keeps its name in one module: only the module changes.
            return self.move_import_from(original_node, updated_node, home)
        statements = self.from_imports(moved)
        self.record_edit(original_node, f"{code_of(original_node)} -> "
                                        f"{'; '.join(code_of(s) for s in statements)}")
        return self.split_import(updated_node, kept, statements)

    # --- uses: ``a.b.c`` chains anywhere in an expression.

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        parts = dotted_parts(node)
        if parts is None:
            # ``f(x).y``: the chain is broken by a call; look inside it.
            return True
        qualified = self.resolve_name(node)
        home = self.home_of(qualified) if qualified is not None else None
        if home is None:
            self.used_names.add(parts[0])
            return False
        return self.moved_use(node, parts, qualified, home)  # type: ignore[arg-type]

    # Names in import statements are bindings, not uses; leave_Import and
    # leave_ImportFrom rewrite them whole.

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.used_names.add(node.value)

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        replacement = self._replacements.pop(original_node, None)
        return replacement if isinstance(replacement, cst.BaseSmallStatement) else updated_node

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        replacement = self._replacements.pop(original_node, None)
        return replacement if isinstance(replacement, cst.BaseExpression) else updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> Union[cst.SimpleStatementLine, cst.FlattenSentinel[cst.SimpleStatementLine]]:
        if not self._split_off:
            return updated_node
        extra = [cst.SimpleStatementLine(body=[statement]) for statement in self._split_off]
        self._split_off = []
        return cst.FlattenSentinel([updated_node, *extra])

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        # ``try: from tensorflow.contrib import slim, layers`` has no line to add
        # after; the split-off imports join the same line.
        if not self._split_off:
            return updated_node
        body = list(updated_node.body)
        body[-1] = body[-1].with_changes(
            semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))
        )
        body.extend(self._split_off)
        self._split_off = []
        return updated_node.with_changes(body=body)
