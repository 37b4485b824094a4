"""TF1 files switch to ``tensorflow.compat.v1``; TF2 files stay exactly as they are.

A file is TF1 code when it uses, through TensorFlow's public ``tf`` namespace, a name
that only the TF1 API has (``tf.placeholder``, ``tf.train.Saver``, ``tf.layers``,
``tf.contrib``), a keyword only TF1's version of a function takes (``keep_dims=``), a
positional argument named for TF1's parameter (``tf.nn.dropout(x, keep_prob)``),
tf_slim, or a ``tf.app.run`` (also once flags_to_absl made it an absl ``app.run``
that keeps TF1's flag parsing); and when the file shows neither TF1 nor TF2 signs
after the earlier codemods, but was TF1 code before them (``tf.flags``, MoXing).
It is TF2 code when it uses a name or a keyword only TF2 has
(``tf.image.resize(..., antialias=True)``). The tables come from TensorFlow 2.21
(``tf_api``), so the rewrite never imports TensorFlow.

- TF1 only: ``import tensorflow as tf`` becomes ``import tensorflow.compat.v1 as tf``
  and every ``tf.X`` keeps its TF1 meaning; ``import tensorflow`` keeps binding the
  package (``tensorflow.python...`` still works) and its API uses become
  ``tensorflow.compat.v1.X``; ``from tensorflow import X`` imports X from compat.v1
  (``keras`` and names compat.v1 lacks stay where they were); ``tf.compat.v1.X``
  on a converted ``tf`` becomes ``tf.X``. An entry point gets graph mode, as TF1 had:
  ``tf.disable_v2_behavior()`` first in its ``if __name__ == "__main__":`` block, or,
  for a script that builds its graph at module level, right after TensorFlow is
  imported. A library module never switches the mode of whoever imports it. Code
  already on ``tensorflow.compat.v1`` keeps its mode, unless it starts a run (a test
  module, a script, a ``__main__`` block) and needs TF1's graph mode (a placeholder, a
  session, the graph's collections, ``self.test_session()``) without choosing it, as
  TF 1.15-era code did: then it gets the switch too. TF 2-era code on compat.v1 picks its
  mode per test (``test_util``'s decorators) or switches it itself, and is left as it is.
- TF1 and TF2 mixed: each TF1 use goes through ``tf.compat.v1`` explicitly.
- TF2 only, or neither: untouched, and nothing is reported.

A name the TF1 API lacks (a leftover ``tf.contrib``, ``tf.train.NoSuchThing``) is
reported in TF1 files; ``tf.estimator`` is tensorflow-estimator 2.15's, which slim_ext
revives on TF 2.16+ (``tf_api``). Names reached through TensorFlow's own packages
(``from tensorflow.core.protobuf import saver_pb2``) are not API uses at all.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node

from slimport.codemods.base import SlimportCodemod, StatementFilter
from slimport.codemods._entry_script import main_block
from slimport.codemods._statements import is_docstring, without_trailing_comma
from slimport.analysis.names import (
    Bindings,
    collect_bindings,
    dotted_expression,
    dotted_parts,
    is_under,
    local_name,
    variable_names,
)
from slimport.tables.tf_api import COMPAT_V1, TF, TF1, tf_api
from slimport.analysis.tf_code import (
    MODE_SWITCHES,
    api_use,
    call_signal,
    defines_test_case,
    imports_tf1_neighbour,
    last_name,
    name_signal,
    relies_on_tf1_graph_mode,
    relies_on_tf1_semantics,
    signal_scan,
    tf1_before_porting,
)
from slim_facts.tf1_modules import ABSL_APP

# Module-level calls of these make a file a script whose graph is built on import.
SCRIPT_CALLS = frozenset({"Session", "InteractiveSession", "placeholder",
                          "placeholder_with_default", "app.run"})
# ``from tensorflow import keras`` is the same lazily loaded Keras under compat.v1.
SAME_UNDER_V1 = frozenset({"keras"})
# absl's app.run with this keyword is flags_to_absl's port of tf.app.run.
_TF1_RUN_KEYWORD = "flags_parser"
_REMOVED_FIXES = {
    "contrib": "tf.contrib is gone and the contrib codemods did not port this use: "
               "run them (contrib_slim, contrib_symbols) or port it by hand "
               "(tf_slim, tf.compat.v1, or a TF2 library)",
    "estimator": "tf.compat.v1.estimator is tensorflow-estimator 2.15's TF1 API (slim_ext "
                 "revives it on TF 2.16+), which lacks this name: use its TF2 name, "
                 "tf.compat.v2.estimator.<name>",
}


class _Usage:
    """What one file's TensorFlow uses say, gathered during the visit."""

    def __init__(self) -> None:
        self.signals: Set[str] = set()
        # Each use is kept with the module-level statement it is in.
        # Chains of TF1 uses through the ``tensorflow`` root, for a mixed file.
        self.tf1_uses: List[Tuple[cst.Attribute, str, cst.CSTNode]] = []
        self.missing: List[Tuple[cst.CSTNode, str, str]] = []
        # ``tf.compat.v1`` on a converted name, and ``tensorflow.X`` on the package.
        self.collapsible: List[Tuple[cst.Attribute, cst.CSTNode]] = []
        self.package_uses: List[Tuple[cst.Attribute, str, cst.CSTNode]] = []
        self.sets_mode = False
        # TF1's app.run (ported by flags_to_absl or not): the file is a TF1 program's start.
        self.tf1_run = False
        self.script_call: Optional[cst.Call] = None
        self.run_in_main = False

    @property
    def tf1_only(self) -> bool:
        return self.signals == {TF1}


class CompatV1Command(SlimportCodemod):
    """Switch a TF1 file to tensorflow.compat.v1 (TF2 files untouched); report what
    compat.v1 lacks."""

    NAME: ClassVar[str] = "compat_v1"
    DESCRIPTION: ClassVar[str] = (
        "TF1 files: import tensorflow as tf -> tensorflow.compat.v1, graph mode "
        "at entry points; TF2 files untouched"
    )
    # Last of those that touch TensorFlow names: it sees which TensorFlow uses remain
    # (contrib and flags rewrites resolve names through the tensorflow bindings it
    # edits), and collapses the tf.compat.v1.X that estimator_ps_strategy and
    # device_spec write.
    RUNS_AFTER: ClassVar[Tuple[str, ...]] = (
        "contrib_slim", "tf0_names", "contrib_symbols", "moxing", "moved_modules",
        "sdk_imports", "flags_to_absl", "uai_flags", "cluster_bootstrap", "own_server",
        "replica_device", "device_spec", "legacy_keras", "estimator_ps_strategy",
        "train_and_evaluate", "slim_ext_import")
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("tensorflow",)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        keep = signal_scan(tree, bindings).statements_to_keep()
        return lambda statement: id(statement) in keep

    def start_file(self, tree: cst.Module) -> bool:
        self.flat_names = collect_bindings(self.file_ast(tree)).names
        self.api = tf_api()
        self.usage = _Usage()
        self.checked: Set[int] = set()
        # ids of the module-level statements the edit pass must walk.
        self.touched: Set[int] = set()
        # id() of an edited module-level statement -> the statement it replaced.
        self._edited: Dict[int, cst.BaseStatement] = {}
        self._main = main_block(tree)
        self._in_main = False
        return any(is_under(target, TF) or target.startswith("tf_slim")
                   for target in self.module_names.names.values()) or any(
            is_under(target, TF)
            for target in self.flat_names.values())

    # -- the visit gathers ------------------------------------------------------------

    def visit_If(self, node: cst.If) -> None:
        if node is self._main:
            self._in_main = True

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.If:
        if original_node is self._main:
            self._in_main = False
        return updated_node

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if id(node) in self.checked:
            return
        parts = dotted_parts(node)
        if parts is None:
            return
        # Outermost chain first (pre-order): its inner chains need no second check.
        inner: cst.BaseExpression = node
        while isinstance(inner, cst.Attribute):
            self.checked.add(id(inner))
            inner = inner.value
        head_target = self.target_of(parts[0])
        top = self.scopes.top_statement or node
        usage = self.usage
        if head_target == TF and parts[1:3] == ["compat", "v1"]:
            if parts[0] != TF:
                usage.collapsible.append((node, top))
            return
        use = api_use(self.resolve_name(node), head_target)
        if use is None:
            return
        root, relative = use
        signal = name_signal(self.api, relative) if root == TF else None
        if signal is not None:
            usage.signals.add(signal)
            if signal == TF1 and head_target == TF:
                usage.tf1_uses.append((node, relative, top))
        if root == TF and parts[0] == TF and head_target == TF:
            usage.package_uses.append((node, relative, top))
        missing = self.api.missing_from_v1(relative)
        if missing is not None and not _reported_by_contrib_symbols(relative):
            usage.missing.append((node, ".".join(parts), missing))

    def visit_Call(self, node: cst.Call) -> None:
        parts = dotted_parts(node.func)
        if parts is None:
            return
        qualified = self.resolve_name(node.func)
        if qualified == f"{ABSL_APP}.run":
            if any(arg.keyword is not None and arg.keyword.value == _TF1_RUN_KEYWORD
                   for arg in node.args):
                self.usage.signals.add(TF1)
                self.usage.tf1_run = True
            self._note_immediate("app.run", node)
            return
        use = api_use(qualified, self.target_of(parts[0]))
        if use is None:
            return
        root, relative = use
        if relative.split(".")[-1] in MODE_SWITCHES:
            self.usage.sets_mode = True
        if relative == "app.run":
            self.usage.tf1_run = True
        if root == TF:
            if isinstance(node.func, cst.Name):
                # ``placeholder(...)`` after ``from tensorflow import placeholder``.
                named = name_signal(self.api, relative)
                if named is not None:
                    self.usage.signals.add(named)
            keywords = [arg.keyword.value for arg in node.args if arg.keyword is not None]
            positional = [last_name(dotted_parts(arg.value)) for arg in node.args
                          if arg.keyword is None and not arg.star]
            signal = call_signal(self.api, relative, keywords, positional)
            if signal is not None:
                self.usage.signals.add(signal)
                if signal == TF1 and isinstance(node.func, cst.Attribute) \
                        and self.target_of(parts[0]) == TF:
                    self.usage.tf1_uses.append(
                        (node.func, relative, self.scopes.top_statement or node))
        self._note_immediate(relative, node)

    def _note_immediate(self, relative: str, call: Optional[cst.Call] = None) -> None:
        """Remember a script-making call run at import time (not in a def, not in main)."""
        if call is None or relative not in SCRIPT_CALLS:
            return
        if self._in_main:
            if relative == "app.run":
                self.usage.run_in_main = True
            return
        if not self.in_deferred_code and self.usage.script_call is None:
            self.usage.script_call = call

    # -- then decides and edits -------------------------------------------------------

    # An import names modules; it uses none of them: its dotted names are no uses to
    # check (after a plain ``import tensorflow``, ``from tensorflow.python.framework
    # import ops`` would read as a use of ``tensorflow.python``, which compat.v1 lacks).

    def visit_Import(self, node: cst.Import) -> bool:
        if any(get_full_name_for_node(alias.name) == TF and alias.asname is not None
               for alias in node.names):
            self._touch(node)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if not node.relative and node.module is not None \
                and get_full_name_for_node(node.module) == TF:
            self._touch(node)
        return False

    def _touch(self, node: cst.CSTNode) -> None:
        """Note that the module-level statement around ``node`` has something to edit."""
        self.touched.add(id(self.scopes.top_statement or node))

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        self._in_main = False
        if any(target.startswith("tf_slim") for target in self.module_names.names.values()):
            self.usage.signals.add(TF1)
        # The visit only gathers; edits are made on ``tree`` itself, whose nodes the
        # findings' lines are found in.
        tree.visit(self)
        usage = self.usage
        whole = self.original_ast or self.file_ast(tree)
        # Code on tensorflow.compat.v1 written for TF 1.x's graph mode (TF 2-era code on
        # compat.v1 picks its mode per test or switches it itself): where a run starts,
        # it gets TF 1.x's mode back.
        starts_tf1_graph_run = not usage.sets_mode and (
            self._main is not None or usage.script_call is not None
            or defines_test_case(whole)) and relies_on_tf1_graph_mode(
                whole, frozenset(name for name, target in self.flat_names.items()
                                 if target == COMPAT_V1))
        if starts_tf1_graph_run or relies_on_tf1_semantics(whole) or (not usage.signals and (
                tf1_before_porting(self.original_ast)
                or imports_tf1_neighbour(whole, self.context.filename))):
            usage.signals.add(TF1)
        self._test_module = defines_test_case(whole)
        if TF1 not in usage.signals:
            return tree
        for node, spelled, missing in usage.missing:
            self._report_missing(node, spelled, missing)
        if not usage.tf1_only:
            return self._explicit_v1_uses(tree)
        replacements: Dict[int, cst.CSTNode] = {}
        for node, top in usage.collapsible:
            replacements[id(node)] = self._collapsed(node)
            self.touched.add(id(top))
        for node, relative, top in usage.package_uses:
            first = relative.split(".")[0]
            if first in SAME_UNDER_V1 or TF1 not in self.api.apis.get(first, "") \
                    or self.api.missing_from_v1(relative) is not None:
                continue
            replacements[id(node)] = dotted_expression(f"{COMPAT_V1}.{relative}").with_changes(
                lpar=node.lpar, rpar=node.rpar)
            self.touched.add(id(top))
            self.record_edit(node, f"tensorflow.{relative} -> tensorflow.compat.v1.{relative}")
        tree = self._edit(tree, _Edit(self, replacements, convert_imports=True))
        # A file that reaches TensorFlow only through tensorflow.compat.v1 (and tf_slim)
        # was ported already: its mode is its own business, unless it starts a TF1 run
        # (TF1's app.run, or code written for TF 1.x's graph mode).
        binds_tf2_api = any(self._is_tf2_api(target) for target in self.flat_names.values())
        if not usage.sets_mode and (binds_tf2_api or usage.tf1_run or starts_tf1_graph_run):
            tree = self._graph_mode(tree)
        return tree

    def _edit(self, tree: cst.Module, edit: "_Edit") -> cst.Module:
        """``tree`` with ``edit`` run over the module-level statements that need it; each
        edited statement is noted with the original it replaces (``_given``)."""
        body: List[cst.BaseStatement] = []
        for statement in tree.body:
            if id(statement) not in self.touched:
                body.append(statement)
                continue
            result = statement.visit(edit)
            if isinstance(result, cst.FlattenSentinel):
                body.extend(result)
            elif not isinstance(result, cst.RemovalSentinel):
                self._edited[id(result)] = statement
                body.append(result)
        return tree.with_changes(body=body)

    def _given(self, statement: cst.BaseStatement) -> cst.BaseStatement:
        """The statement of the tree this pass was given that ``statement`` replaced (a
        finding's line is found on those), or ``statement`` itself when it was not edited."""
        return self._edited.get(id(statement), statement)

    def _is_tf2_api(self, target: str) -> bool:
        """``tensorflow`` or one of its public names (not compat, not its own packages)."""
        if target == TF:
            return True
        first = target[len(TF) + 1:]
        return (target.startswith(TF + ".") and "." not in first and first != "compat"
                and first in self.api.apis)

    def _collapsed(self, node: cst.Attribute) -> cst.BaseExpression:
        """``tf.compat.v1.X`` -> ``tf.X``, ``tf.compat.v1`` -> ``tf`` (tf is compat.v1 now)."""
        parts = dotted_parts(node) or []
        self.record_edit(node, "tf.compat.v1.X -> tf.X (tf is compat.v1 now)")
        rest = parts[3:]
        return dotted_expression(".".join([parts[0], *rest])).with_changes(
            lpar=node.lpar, rpar=node.rpar)

    def _explicit_v1_uses(self, tree: cst.Module) -> cst.Module:
        """A file mixing TF1 and TF2: each TF1 use goes through tf.compat.v1."""
        replacements: Dict[int, cst.CSTNode] = {}
        for node, relative, top in self.usage.tf1_uses:
            parts = dotted_parts(node) or []
            if self.api.missing_from_v1(relative) is not None:
                continue
            text = ".".join([parts[0], "compat", "v1", *parts[1:]])
            replacements[id(node)] = dotted_expression(text).with_changes(
                lpar=node.lpar, rpar=node.rpar)
            self.touched.add(id(top))
            self.record_edit(node, f"{'.'.join(parts)} -> {text} (the file also uses "
                                   "TF2-only API, so its import stays on TF2)")
        if self._main is not None or self.usage.script_call is not None:
            self.needs_attention(
                self._main or self.usage.script_call,
                "entry point of a file that uses both TF1-only and TF2-only API: graph mode "
                "was not switched on", "decide the mode: add tf.compat.v1.disable_v2_behavior()"
                " at the start if the TF1 parts build a graph, or port them to TF2")
        if not replacements:
            return tree
        return self._edit(tree, _Edit(self, replacements, convert_imports=False))

    # -- graph mode -------------------------------------------------------------------

    def _graph_mode(self, tree: cst.Module) -> cst.Module:
        usage = self.usage
        main = main_block(tree)
        if usage.script_call is None and main is None and not self._test_module:
            return tree
        name = _v1_module_name(tree)
        if name is None:
            self.needs_attention(
                usage.script_call or main, "entry point: no free name to import "
                "tensorflow.compat.v1 as, so graph mode was not switched on",
                "call `tf.compat.v1.disable_v2_behavior()` before any graph is built")
            return tree
        call_text, imported = name
        disable = cst.parse_statement(f"{call_text}.disable_v2_behavior()\n")
        assert isinstance(disable, cst.SimpleStatementLine)
        # A test module is started by a test runner that imports it first (pytest never
        # runs its __main__ block): its mode is set when it is imported, as a script's.
        if usage.script_call is not None or self._test_module:
            body = list(tree.body)
            position = _after_v1_import(body)
            lines: List[cst.BaseStatement] = [disable]
            if imported is not None:
                lines.insert(0, imported)
            body[position:position] = lines
            kind = "script" if usage.script_call is not None else "test module"
            self.record_edit(usage.script_call or self._given(tree.body[max(position - 1, 0)]),
                             f"{kind}: {call_text}.disable_v2_behavior() after TensorFlow "
                             "is imported")
            return tree.with_changes(body=body)
        assert main is not None
        new_main = _first_in_block(main, disable.body[0],
                                   imported.body[0] if imported is not None else None)
        self.record_edit(self._main, f"entry point: {call_text}.disable_v2_behavior() first "
                                     "in the __main__ block")
        return tree.with_changes(body=[new_main if statement is main else statement
                                       for statement in tree.body])

    def _report_missing(self, node: cst.CSTNode, spelled: str, missing: str) -> None:
        head = missing.split(".")[0]
        fix = _REMOVED_FIXES.get(head, f"find the TensorFlow 2 replacement for `{missing}` "
                                       "(tf_upgrade_v2's rename list) and rewrite by hand")
        self.needs_attention(node, f"{spelled}: `{missing}` is not in TensorFlow 2.21's "
                                   "tf.compat.v1", fix)


class _Edit(cst.CSTTransformer):
    """Puts new nodes in place of the original nodes with the given ids and, in a
    TF1-only file, moves its TensorFlow imports to tensorflow.compat.v1."""

    def __init__(self, command: CompatV1Command, replacements: Dict[int, cst.CSTNode],
                 convert_imports: bool) -> None:
        super().__init__()
        self.command = command
        self.replacements = replacements
        self.convert_imports = convert_imports

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode
                 ) -> Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]:
        replacement = self.replacements.get(id(original_node))
        if replacement is not None:
            return replacement
        return super().on_leave(original_node, updated_node)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        if not self.convert_imports:
            return updated_node
        aliases = []
        for alias in updated_node.names:
            if get_full_name_for_node(alias.name) == TF and alias.asname is not None:
                alias = alias.with_changes(name=dotted_expression(COMPAT_V1))
                self.command.record_edit(original_node, "import tensorflow as ... -> "
                                                        "import tensorflow.compat.v1 as ...")
            aliases.append(alias)
        return updated_node.with_changes(names=aliases)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
                         ) -> Union[cst.ImportFrom, cst.FlattenSentinel]:
        if (not self.convert_imports or original_node.relative or original_node.module is None
                or get_full_name_for_node(original_node.module) != TF
                or isinstance(original_node.names, cst.ImportStar)):
            return updated_node
        api = self.command.api
        moved, kept = [], []
        for alias in updated_node.names:
            name = alias.evaluated_name
            missing = api.missing_from_v1(name)
            if missing is not None:
                self.command._report_missing(original_node, f"tensorflow.{name}", missing)
            if name in SAME_UNDER_V1 or missing is not None or TF1 not in api.apis.get(name, ""):
                kept.append(alias)
            else:
                moved.append(alias)
        if not moved:
            return updated_node
        self.command.record_edit(original_node,
                                 "from tensorflow import -> from tensorflow.compat.v1 import")
        v1 = updated_node.with_changes(module=dotted_expression(COMPAT_V1),
                                       names=without_trailing_comma(moved))
        if not kept:
            return v1
        return cst.FlattenSentinel([updated_node.with_changes(
            names=without_trailing_comma(kept)), v1])

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine
                                  ) -> Union[cst.SimpleStatementLine, cst.FlattenSentinel]:
        # A split ``from tensorflow import keras, logging``: one line per import.
        if len(updated_node.body) == len(original_node.body):
            return updated_node
        lines = [cst.SimpleStatementLine(body=[small.with_changes(
            semicolon=cst.MaybeSentinel.DEFAULT)]) for small in updated_node.body]
        lines[0] = lines[0].with_changes(leading_lines=updated_node.leading_lines)
        lines[-1] = lines[-1].with_changes(trailing_whitespace=updated_node.trailing_whitespace)
        return cst.FlattenSentinel(lines)


def _reported_by_contrib_symbols(relative: str) -> bool:
    """contrib_symbols, which runs earlier, already reported tf.contrib.<module>.X leftovers.

    One finding per leftover keeps the report a to-do list; tf.contrib.slim leftovers
    (contrib_slim's part) and a bare ``tf.contrib`` are still reported here.
    """
    parts = relative.split(".")
    return len(parts) > 2 and parts[0] == "contrib" and parts[1] != "slim"


def _binds_v1(statement: cst.BaseStatement) -> Optional[str]:
    """The name a module-level ``import tensorflow.compat.v1 as X`` (or plain
    ``import tensorflow``) statement binds, or None."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    for small in statement.body:
        if isinstance(small, cst.Import):
            for alias in small.names:
                module = get_full_name_for_node(alias.name)
                if module == COMPAT_V1 and alias.asname is not None:
                    return local_name(alias)
                if module == TF and alias.asname is None:
                    return COMPAT_V1
    return None


def _v1_module_name(tree: cst.Module) -> Optional[Tuple[str, Optional[cst.SimpleStatementLine]]]:
    """How module-level code reaches tensorflow.compat.v1: (prefix, import to add or None)."""
    found = [name for name in map(_binds_v1, tree.body) if name is not None]
    if found:
        return ("tf" if "tf" in found else found[0]), None
    taken = variable_names(tree, include_bindings=True)
    for name in ("tf", "tf_v1", "tensorflow_v1"):
        if name not in taken:
            statement = cst.parse_statement(f"import {COMPAT_V1} as {name}\n")
            assert isinstance(statement, cst.SimpleStatementLine)
            return name, statement
    return None


def _after_v1_import(body: Sequence[cst.BaseStatement]) -> int:
    """Index after the module-level statement that imports TensorFlow (or after the
    leading imports when a name has to be imported)."""
    for index, statement in enumerate(body):
        if _binds_v1(statement) is not None:
            return index + 1
    position = 0
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and all(
                isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
            position = index + 1
        elif position or not is_docstring(statement):
            break
    return position


def _first_in_block(block: cst.If, call: cst.BaseSmallStatement,
                    imported: Optional[cst.BaseSmallStatement]) -> cst.If:
    """``block`` with ``call`` (after ``imported``) as its first statements."""
    smalls = [small for small in (imported, call) if small is not None]
    if isinstance(block.body, cst.SimpleStatementSuite):
        # ``if __name__ == '__main__': main()`` stays one line.
        joined = [small.with_changes(semicolon=cst.Semicolon(
            whitespace_after=cst.SimpleWhitespace(" "))) for small in smalls]
        return block.with_changes(body=block.body.with_changes(
            body=[*joined, *block.body.body]))
    lines = [cst.SimpleStatementLine(body=[small]) for small in smalls]
    return block.with_changes(body=block.body.with_changes(body=[*lines, *block.body.body]))
