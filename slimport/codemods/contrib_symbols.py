"""tf.contrib other than slim -> tf_slim, tf.compat.v1, or slim_ext; what is gone is reported.

Every spelling is resolved through the file's import bindings and scopes
(``slimport/analysis/names.py``, ``scopes.py``): ``tf.contrib.framework.arg_scope``,
``contrib_layers.xavier_initializer`` after ``from tensorflow.contrib import layers as
contrib_layers``, deep source paths such as ``from tensorflow.contrib.framework.python.ops
import add_arg_scope``, and ``import tensorflow.contrib.layers as layers``; where each
name went is ``contrib_table.lookup``'s answer.

- A contrib *file* module with a home (``tensorflow.contrib.layers.python.layers.utils``
  is ``tf_slim.layers.utils``) is moved where it is imported: ``from
  tensorflow.contrib.layers.python.layers import layers, utils`` becomes ``from
  tf_slim.layers import layers, utils``, and its uses stay as they are.
- A symbol with a home is rewritten where it is used (the outermost ``a.b.c`` chain,
  once) or imported (``from <contrib module> import <symbol>`` imports it from its home).
- Other contrib module aliases (packages, modules with no home) are dropped once
  nothing uses them any more, because the import alone would break the ported file; never
  silently. A module-level alias is a name other modules may import from this one
  (``tfd = tf.contrib.distributions``): when the module has a home as a value it is kept,
  bound to that home, and reported; when it has none it is dropped and reported as
  needing attention (the importing modules break).
- A successor's renamed keyword is renamed in the call (``percentile(..., keep_dims=)``
  -> ``tfp.stats.percentile(..., keepdims=)``); a call that passes one the successor
  dropped is left and reported with what to do instead (``contrib_table.KEYWORDS``).
- A gone name, and a name TF 1.15 did not have, is left and reported.
tf.contrib.slim is left to contrib_slim.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, List, Optional, Set, Tuple, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node

from slim_facts.requirements import SUCCESSORS, pip_install_line
from slimport.analysis.ast_index import nodes_of
from slimport.codemods._statements import keep_lines_of_removed
from slimport.codemods.base import SlimportCodemod, StatementFilter, chain_filter
from slimport.analysis.names import (
    Bindings,
    collect_bindings,
    dotted_expression,
    dotted_parts,
    is_under,
    local_name,
    variable_names,
)
from slimport.tables.tf_api import COMPAT_V1
from slimport.tables.contrib_table import (
    KEYWORD_FIXES,
    KEYWORDS,
    MODULE_HOMES,
    NAMED_FIXES,
    TF_SLIM,
    Found,
    Home,
    chain_end,
    gone_fix,
    lookup,
    module_value_home,
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
    if not is_under(qualified, _CONTRIB):
        return False
    return not (qualified + ".").startswith(_CONTRIB + ".slim.")


def _heads(bindings: Bindings) -> Set[str]:
    """The local names a chain must start with to reach tensorflow.contrib."""
    return {
        local for local, target in bindings.names.items()
        if target in ("tensorflow", "tensorflow.compat.v1") or _is_ours(_normalize(target))
    }


def _key(qualified: str) -> str:
    """``tensorflow.contrib.a.b`` -> ``a.b`` (``qualified`` is under tensorflow.contrib)."""
    return qualified[len(_CONTRIB) + 1:]


def _found(qualified: Optional[str]) -> Optional[Found]:
    """``lookup`` of a qualified name under tensorflow.contrib (not slim), else None."""
    if not _is_ours(qualified) or qualified == _CONTRIB:
        return None
    return lookup(_key(qualified))  # type: ignore[arg-type]


def _is_contrib_module(qualified: str) -> bool:
    found = _found(qualified)
    return found is not None and found.is_module


def _moved_module(qualified: str) -> Optional[str]:
    """The home of a contrib module that moves as a whole where it is imported: a file
    module with a home, or a module slim_ext mirrors."""
    found = _found(qualified)
    if found is None or found.module is None:
        return None
    return found.module if found.kind != "package" or found.listed in MODULE_HOMES else None


def _moved_import_names(tree: ast.Module) -> Set[str]:
    """Local names that imports in ``tree`` bind to modules that move as a whole."""
    names = set()
    for node in nodes_of(tree, (ast.Import, ast.ImportFrom)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and _moved_module(_normalize(alias.name) or ""):
                    names.add(alias.asname)
        elif node.module and not node.level:  # type: ignore[attr-defined]
            for alias in node.names:
                if _moved_module(_normalize(f"{node.module}.{alias.name}") or ""):
                    names.add(alias.asname or alias.name)
    return names


class _DropModuleAliases(cst.CSTTransformer):
    """Remove imports/assignments of contrib module aliases that nothing uses now; an
    assignment in ``kept`` gets its new value instead."""

    def __init__(self, bindings: Bindings, unused: Set[str],
                 kept: Dict[str, cst.BaseExpression]) -> None:
        super().__init__()
        self.bindings = bindings
        self.unused = unused
        self.kept = kept
        # id() of the statement lines emptied: their body removes them.
        self._emptied: Set[int] = set()

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
            value = self.kept.get(targets[0].target.value)
            if value is not None:
                return updated_node.with_changes(value=value)
            return cst.RemoveFromParent()
        return updated_node

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine
                                  ) -> cst.SimpleStatementLine:
        # An emptied line is removed by its body (``keep_lines_of_removed``), whose
        # next statement keeps the comments and blank lines above it; till then it
        # holds a ``pass`` (libcst drops a line with an empty body as it leaves it).
        if updated_node.body:
            return updated_node
        stand_in = updated_node.with_changes(body=[cst.Pass()])
        self._emptied.add(id(stand_in))
        return stand_in

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock,
                            updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        body, left = keep_lines_of_removed(updated_node.body, self._emptied)
        if not body:
            # The block held only the dropped import (``try:`` around it).
            body = [cst.SimpleStatementLine([cst.Pass()], leading_lines=left)]
            left = []
        return updated_node.with_changes(body=body, footer=[*left, *updated_node.footer])

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body, left = keep_lines_of_removed(updated_node.body, self._emptied)
        return updated_node.with_changes(body=body, footer=[*left, *updated_node.footer])


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

    NAME: ClassVar[str] = "contrib_symbols"
    DESCRIPTION: ClassVar[str] = (
        "tf.contrib.* (except slim) -> tf_slim / tf.compat.v1, "
        "or a slim_ext.contrib stand-in"
    )
    # tf0_names ports tf.contrib.deprecated.scalar_summary's arguments too; this would
    # move it by name alone.
    RUNS_AFTER: ClassVar[Tuple[str, ...]] = ("tf0_names",)
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("contrib",)

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
        # Local name of a contrib module alias -> the contrib module it names.
        self._alias_targets: Dict[str, str] = {}
        self._tree = tree
        self._taken: Optional[Set[str]] = None
        # Modules this pass imports: module -> the dotted prefix that reaches it.
        self._imported: Dict[str, str] = {}
        self._replacements: Dict[cst.CSTNode, cst.CSTNode] = {}
        # Names bound by imports of contrib modules that move as a whole.
        self.moved_names = _moved_import_names(self.file_ast(tree))
        # Values of ``alias = tf.contrib.x`` (the alias is handled as a binding), and
        # first arguments of ``f(<value>, 'member', ...)`` with the member they name.
        self._alias_values: Set[cst.CSTNode] = set()
        self._value_members: Dict[cst.CSTNode, str] = {}
        # The statements at module level (in ``if``/``try`` blocks too): what binds a
        # name other modules may import; the names the file uses before the rewrite.
        # Each is a walk of the tree, made when an alias is dropped (few files).
        self._module_level: Optional[Set[cst.CSTNode]] = None
        self._used_before: Optional[Set[str]] = None
        # Calls by their callee, and the keyword renames due in each.
        self._calls: Dict[cst.CSTNode, cst.Call] = {}
        self._renames: Dict[cst.Call, Dict[str, str]] = {}
        # The successors (TFP, TF-GAN) whose install line the report gave already.
        self._named_requirements: Set[str] = set()
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
        kept = {local: value for local in sorted(unused)
                if (value := self._report_dropped(local)) is not None}
        return tree.visit(_DropModuleAliases(self.bindings, unused, kept))

    def _statements_at_module_level(self) -> Set[cst.CSTNode]:
        """``_module_level_statements`` of the tree this pass started from (one walk)."""
        if self._module_level is None:
            self._module_level = _module_level_statements(self._tree)
        return self._module_level

    def _names_used_before(self) -> Set[str]:
        """The names the tree this pass started from reads (one walk)."""
        if self._used_before is None:
            self._used_before = variable_names(self._tree, include_bindings=False)
        return self._used_before

    def _report_dropped(self, local: str) -> Optional[cst.BaseExpression]:
        """Reports what becomes of the alias ``local``, unused now; the value a
        module-level alias keeps, or None when it goes."""
        node = self.module_aliases[local]
        key = _key(self._alias_targets.get(local, _CONTRIB + ".?"))
        if local == "tensorflow":
            self.record_edit(node, f"import of tf.contrib.{key} -> import tensorflow "
                             "(tf.contrib is gone; the name `tensorflow` stays bound)")
            return None
        module_level = node in self._statements_at_module_level()
        home = module_value_home(key) if module_level and isinstance(node, cst.Assign) \
            else None
        if home is not None:
            value = dotted_expression(".".join(filter(None, (self._reach(home[0]), home[1]))))
            self.record_edit(node, f"module-level alias `{local}` = tf.contrib.{key} kept, "
                             f"as {'.'.join(filter(None, home))}: another module may import "
                             f"`{local}` from this one")
            return value
        if module_level and local not in self._names_used_before():
            # Nothing in this file ever used it: it is there for the modules that import it.
            self.needs_attention(
                node, f"module-level alias `{local}` of tf.contrib.{key} removed: the "
                "import fails on TensorFlow 2, and this file never uses it, but a module "
                f"that imports `{local}` from this one fails",
                f"port that module's uses of `{local}` (reported there as tf.contrib "
                "names once it imports tf.contrib itself)")
            return None
        self.record_edit(node, f"tf.contrib module alias `{local}` removed: every use of "
                         "it was ported")
        return None

    # -- bindings of contrib modules --------------------------------------------------

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            qualified = _normalize(get_full_name_for_node(alias.name)) or ""
            if alias.asname is None and _is_ours(qualified) and qualified != _CONTRIB:
                # ``import tensorflow.contrib.x`` binds ``tensorflow``.
                self.module_aliases["tensorflow"] = node
                self._alias_targets["tensorflow"] = qualified
            elif alias.asname is not None and _is_contrib_module(qualified) \
                    and not _moved_module(qualified):
                self.module_aliases[local_name(alias)] = node
                self._alias_targets[local_name(alias)] = qualified
        return False

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        """``import tensorflow.contrib.<moved module> as m`` -> ``import <home> as m``."""
        aliases = []
        for alias in updated_node.names:
            qualified = _normalize(get_full_name_for_node(alias.name)) or ""
            home = _moved_module(qualified) if alias.asname is not None else None
            if home is not None:
                self.record_edit(original_node, f"tf.contrib.{_key(qualified)} -> {home}"
                                 + self._installed_by(home))
                alias = alias.with_changes(name=dotted_expression(home))
            aliases.append(alias)
        return updated_node.with_changes(names=aliases)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        targets = node.targets
        if len(targets) == 1 and isinstance(targets[0].target, cst.Name):
            qualified = _normalize(self.resolve_name(node.value))
            # ``lookup = contrib_lookup``, where the import of ``contrib_lookup`` moves to
            # the module's mirror: the name is the mirror then, and so is the alias.
            through_mirror = isinstance(node.value, cst.Name) and \
                self._through_moved_import(node.value.value)
            if qualified is not None and _is_contrib_module(qualified) and not through_mirror:
                self.module_aliases[targets[0].target.value] = node
                self._alias_targets[targets[0].target.value] = qualified
                self._alias_values.add(node.value)

    def visit_Call(self, node: cst.Call) -> None:
        self._calls[node.func] = node
        # getattr / hasattr / mock.patch.object(<module>, 'member'): the attribute
        # the call reads from its first argument is named.
        if len(node.args) >= 2 and isinstance(node.args[1].value, cst.SimpleString):
            member = node.args[1].value.evaluated_value
            if isinstance(member, str) and member.isidentifier():
                self._value_members[node.args[0].value] = member

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> Union[cst.ImportFrom, cst.FlattenSentinel]:
        if (original_node.relative or original_node.module is None
                or isinstance(original_node.names, cst.ImportStar)):
            return updated_node
        module = _normalize(get_full_name_for_node(original_node.module)) or ""
        if not _is_ours(module):
            return updated_node
        kept: List[cst.ImportAlias] = []
        moved: List[cst.ImportFrom] = []
        for alias in original_node.names:
            qualified = f"{module}.{alias.evaluated_name}"
            local = local_name(alias)
            found = _found(qualified)
            new_module = _moved_module(qualified)
            if new_module is not None:
                self.record_edit(original_node, f"tf.contrib.{_key(qualified)} -> {new_module}"
                                 + self._installed_by(new_module))
                moved.append(_import_from(new_module, local))
            elif found is not None and found.home is not None:
                self._record(original_node, found.listed, found.home)
                moved.append(_import_from(found.home.import_from, local, found.home.name))
            else:
                if found is not None and found.is_module:
                    self.module_aliases[local] = original_node
                    self._alias_targets[local] = qualified
                elif _is_ours(qualified):
                    self._not_ported(original_node, _key(qualified), found)
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

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        """Port the outermost ``a.b.c`` chain that reaches into tf.contrib, once."""
        parts = dotted_parts(node)
        if parts is None:
            return True  # ``f(x).y``: the chain is broken by a call; look inside it
        if parts[0] not in self.heads:
            return False
        qualified = _normalize(self.resolve_name(node))
        if not _is_ours(qualified) or qualified == _CONTRIB:
            return False
        end = chain_end(_key(qualified))  # type: ignore[arg-type]
        if end is None:
            return False
        key, found = end.key, end.found
        if self._through_moved_import(parts[0]):
            # The import itself moved; report what the new module lacks.
            if not end.is_module and (found is None or found.is_gone):
                self._not_ported(node, key, found)
            return False
        if end.is_module:
            if key == _key(qualified) and node not in self._alias_values:  # type: ignore[arg-type]
                self._port_module_value(node, key)
            return False
        if found is None or found.home is None:
            self._not_ported(node, key, found)
            return False
        if not found.home.attribute_reaches:
            self.needs_attention(
                node, f"tf.contrib.{key} is {found.home.dotted} now, which no "
                "attribute chain from tf_slim reaches; left unchanged",
                f"from {found.home.import_from} import {found.home.name}, and use that")
            return False
        if not self._keywords_port(node, key, found.home):
            return False
        rest = _key(qualified)[len(key):]  # type: ignore[arg-type]
        replacement = self._expression_for(found.home)
        if rest:
            replacement = dotted_expression(_chain_text(replacement) + rest)
        self._replacements[node] = replacement.with_changes(lpar=node.lpar, rpar=node.rpar)
        self._record(node, key, found.home)
        return False

    def _port_module_value(self, node: cst.Attribute, key: str) -> None:
        """A contrib module used as a value becomes the module its members went to."""
        home = module_value_home(key, self._value_members.get(node, ""))
        if home is None:
            return  # left as it is; compat_v1 reports the tf.contrib left in the file
        package, attribute = home
        replacement = dotted_expression(".".join(filter(None, (self._reach(package), attribute))))
        self._replacements[node] = replacement.with_changes(lpar=node.lpar, rpar=node.rpar)
        self.record_edit(node, f"tf.contrib.{key} (a module used as a value) -> "
                         f"{'.'.join(filter(None, (package, attribute)))}")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        return self._replacements.pop(original_node, updated_node)

    def _keywords_port(self, node: cst.CSTNode, key: str, home: Home) -> bool:
        """Whether the call of ``node`` can go to ``home`` with its keywords: renamed ones
        are scheduled for renaming; one the home dropped leaves the call, reported."""
        rules = KEYWORDS.get(key)
        call = self._calls.get(node)
        if not rules or call is None:
            return True
        passed = [arg.keyword.value for arg in call.args if arg.keyword is not None]
        dropped = [name for name in passed if name in rules and rules[name] is None]
        if dropped:
            self.needs_attention(
                node, f"tf.contrib.{key} is {home.dotted} now, which has no "
                f"{', '.join(f'`{name}`' for name in dropped)} argument; left unchanged",
                "; ".join(KEYWORD_FIXES[name] for name in dropped))
            return False
        renames = {name: rules[name] for name in passed if rules.get(name)}
        if renames:
            self._renames[call] = renames  # type: ignore[assignment]
            self.record_edit(node, f"tf.contrib.{key}: " + ", ".join(
                f"{old}= -> {new}=" for old, new in renames.items()))
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        renames = self._renames.pop(original_node, None)
        if not renames:
            return updated_node
        return updated_node.with_changes(args=[
            arg.with_changes(keyword=cst.Name(renames[arg.keyword.value]))
            if arg.keyword is not None and arg.keyword.value in renames else arg
            for arg in updated_node.args])

    def _through_moved_import(self, head: str) -> bool:
        return head in self.moved_names and _moved_module(
            _normalize(self.target_of(head)) or "") is not None

    # -- homes ----------------------------------------------------------------------------

    def _expression_for(self, home: Home) -> Union[cst.Name, cst.Attribute]:
        return dotted_expression(f"{self._reach(home.package)}.{home.attribute}")

    def _reach(self, package: str) -> str:
        """The dotted prefix that reaches ``package`` here (adding an import if needed)."""
        if package == TF_SLIM:
            return self._tf_slim()
        if package == COMPAT_V1:
            return self._compat_v1()
        self.add_needed_import(package)
        return package

    def _tf_slim(self) -> str:
        """The name that reaches tf_slim here: a slim alias bound by now, or an import."""
        existing = self.alias_here(lambda target: target == TF_SLIM, prefer="slim")
        if existing is not None:
            return existing
        if TF_SLIM not in self._imported:
            self.add_needed_import(TF_SLIM)
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
                self.add_needed_import(COMPAT_V1, asname="tf")
                self._imported[COMPAT_V1] = "tf"
            else:
                self.add_needed_import("tensorflow")
                self._imported[COMPAT_V1] = COMPAT_V1
        return self._imported[COMPAT_V1]

    # -- findings -------------------------------------------------------------------------

    def _record(self, node: cst.CSTNode, key: str, home: Home) -> None:
        if home.is_stand_in:
            self.needs_attention(
                node, f"tf.contrib.{key} has no TensorFlow 2 replacement; now "
                f"{home.dotted}, which raises when called",
                f"use {home.alternative}")
        else:
            note = f" ({home.note})" if home.note else ""
            self.record_edit(node, f"tf.contrib.{key} -> {home.dotted}{note}"
                             + self._installed_by(home.package))

    def _installed_by(self, module: str) -> str:
        """What installs ``module``'s package, the first time the file uses a successor."""
        package = module.split(".")[0]
        if package not in SUCCESSORS or package in self._named_requirements:
            return ""
        self._named_requirements.add(package)
        return f" (install it: {pip_install_line(SUCCESSORS[package])})"

    def _not_ported(self, node: cst.CSTNode, key: str, found: Optional[Found]) -> None:
        if key in NAMED_FIXES:
            self.needs_attention(
                node, f"tf.contrib.{key} is not a name of TensorFlow 1.15's tf.contrib; left "
                "unchanged (tf.contrib does not exist in TensorFlow 2)", gone_fix(key))
        elif found is None:
            self.needs_attention(
                node, f"tf.contrib.{key} is not a public name of tf.contrib in TensorFlow "
                "1.15; left unchanged (tf.contrib does not exist in TensorFlow 2)",
                "check the name; find its TF2 / tf_slim equivalent and rewrite by hand")
        else:
            self.needs_attention(
                node, f"tf.contrib.{key} was removed with tf.contrib and has no home in "
                "TensorFlow 2.21 or tf_slim 1.1.0; left unchanged",
                gone_fix(key))


class _ModuleLevel(cst.CSTVisitor):
    """Collects the small statements outside functions and classes."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.found: Set[cst.CSTNode] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.depth += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.depth -= 1

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if not self.depth:
            self.found.update(node.body)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        if not self.depth:
            self.found.update(node.body)


def _module_level_statements(tree: cst.Module) -> Set[cst.CSTNode]:
    """The small statements at module level (in ``if``/``try`` blocks too): what binds
    the names other modules may import."""
    visitor = _ModuleLevel()
    tree.visit(visitor)
    return visitor.found


def _chain_text(node: Union[cst.Name, cst.Attribute]) -> str:
    return ".".join(dotted_parts(node) or [])


def _import_from(module: str, local: str, name: str = "") -> cst.ImportFrom:
    """``from <module> import <name> as <local>``; ``name`` defaults to the last part of
    ``module`` (which is then imported from its package)."""
    if not name:
        module, _, name = module.rpartition(".")
    asname = None if local == name else cst.AsName(name=cst.Name(local))
    return cst.ImportFrom(module=dotted_expression(module),
                          names=[cst.ImportAlias(name=cst.Name(name), asname=asname)])
