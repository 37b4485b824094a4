"""TF1's flags and ``tf.app.run`` become ``slim_ext.tf1_flags`` and ``absl.app.run``.

From TF 1.5 on, ``tf.app.flags`` / ``tf.flags`` were absl's flags module re-exported,
and ``tf.app.run`` a thin wrapper over ``absl.app.run``. Plain absl differs from what
TF1 code relied on, so flag names go to ``slim_ext.tf1_flags``, which stands in for
the whole module (every ``absl.flags`` name resolves there) and keeps TF1's meaning:

- a read of a flag before anything parsed (a module-level ``BATCH = FLAGS.batch``, a
  ``__main__`` block that calls ``main()`` itself, a helper read under pytest) parses
  ``sys.argv`` first, known flags only, as TF1's ``FLAGS`` did; absl raises;
- a flag whose name absl or TensorFlow already define (``--log_dir``, ``--v``, absl's
  help flags, ...) is the script's, in whatever module it is defined; absl raises
  DuplicateFlagError;
- TF1's keyword names (``flag_name=``, ``default_value=``, ``docstring=``) are taken.

In TF1 code the same holds for TensorFlow's own module, ``from tensorflow.python.platform
import flags`` (TF1's ``tf.flags`` is that module): its first read parses all of
``sys.argv``, so a test module that reads ``FLAGS.test_tmpdir`` under pytest dies on
pytest's ``-q``. TF2 code that uses it (TensorFlow's own) is left as it is.

The rewrite maps qualified names (``ported_name``) and, like contrib_slim, rewrites
binding statements where they stand (``flags = tf.app.flags`` -> ``from slim_ext import
tf1_flags as flags``) and other uses through the module-level ``flags`` / ``app`` name,
importing one when the file has none. Code already written against ``absl.flags`` is
absl code and stays as it is.

``tf.app.run`` differs from absl's too, and the port keeps the difference:

- ``tf.app.run()`` handed flags it did not know on to ``main``'s argv; absl stops with
  an error. ``app.run(main, flags_parser=lambda argv: flags.FLAGS(argv,
  known_only=True))`` is TF1's parsing in plain absl (training platforms add flags of
  their own).
- ``tf.app.run(argv=[...])`` (no main) ran ``__main__.main``: the port passes ``main``.

TF 1.4's private ``FLAGS.__flags`` (name -> value) reads become
``FLAGS.flag_values_dict()`` and ``FLAGS._parse_flags()`` becomes a parse of
``sys.argv`` (known flags only); what cannot be kept is reported: a write into
``FLAGS.__flags``, a flag defined twice on one path (a definition in each branch of an
``if`` is fine; absl raised on the second in TF 1.5-1.15 too), a ``tf.app.run()`` with
no ``main`` to run.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, List, Optional, Set, Tuple

import libcst as cst

from slim_facts.tf1_modules import ABSL_APP, TF1_FLAGS
from slimport.codemods.base import StatementFilter, chain_filter, code_of
from slimport.codemods._defined_once import DefinedOnce
from slimport.codemods.flag_names import (
    FLAGS_OBJECT,
    TF_INTERNALS,
    flags_attribute,
    is_define,
    is_tf_name,
    ported_name,
    through_alias,
    touched_chain,
)
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.analysis.names import (
    Bindings,
    dotted_expression,
    dotted_parts,
    is_under,
    variable_names,
)
from slimport.codemods._statements import import_statement
from slimport.analysis.tf_code import is_tf1_code

# The name a ported file reaches each module by, and the one it falls back to when the
# file uses that name for something else.
_LOCAL_NAMES = {TF1_FLAGS: ("flags", "tf1_flags"), ABSL_APP: ("app", "absl_app")}


def _parse_call(flags_object: cst.BaseExpression, argv: str) -> cst.Call:
    """``<flags_object>(<argv>, known_only=True)``: TF1's parsing of the command line."""
    return cst.Call(func=flags_object, args=[
        cst.Arg(dotted_expression(argv)),
        cst.Arg(cst.Name("True"), keyword=cst.Name("known_only"),
                equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                      whitespace_after=cst.SimpleWhitespace(""))),
    ])


def _defines_main(module: cst.Module, bindings: Bindings) -> bool:
    """True if ``module`` binds ``main`` at module level (what tf.app.run() calls)."""
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == "main":
            return True
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == "main"
                    for t in small.targets
                ):
                    return True
    return "main" in bindings.names


class FlagsToAbslCommand(DefinedOnce, ModuleMoveCodemod):
    """Rewrites tf.app.flags / tf.flags / tf.compat.v1.flags to slim_ext.tf1_flags and
    tf.app.run to absl."""

    NAME: ClassVar[str] = "flags_to_absl"
    DESCRIPTION: ClassVar[str] = (
        "tf.app.flags / tf.flags / tf.compat.v1.flags -> slim_ext.tf1_flags (absl with "
        "TF1's semantics); tf.app.run -> absl"
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("flags", "app.run")

    @classmethod
    def applies_to(cls, source: str) -> bool:
        """TF's flags are reached through an import naming ``tensorflow``; absl-only
        files (already ported) are skipped."""
        return "tensorflow" in source and super().applies_to(source)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        touched = chain_filter(lambda parts: touched_chain(bindings, parts))
        # ``tf.app.run()`` becomes ``app.run(main)`` only if the module defines main.
        mains = {id(s) for s in tree.body
                 if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "main"}
        return lambda statement: id(statement) in mains or touched(statement)

    @classmethod
    def rebound(cls, bindings: Bindings) -> Bindings:
        # Aliases of TF's flags and app modules become imports where they stand.
        return Bindings({name: ported_name(target) if is_tf_name(target)
                         and ported_name(target) in _LOCAL_NAMES else target
                         for name, target in bindings.names.items()})

    def start_file(self, tree: cst.Module) -> bool:
        super().start_file(tree)
        self._tree = tree
        self._taken: Optional[Set[str]] = None
        # Modules this pass imports: module -> the name it is imported as.
        self._imported: Dict[str, str] = {}
        self._call_args: Dict[cst.Call, List[cst.Arg]] = {}
        self._replaced_calls: Dict[cst.Call, cst.Call] = {}
        self._written: Set[int] = set()
        # TensorFlow's own flags modules are TF1's tf.flags in TF1 code (only there).
        self._internals = any(
            is_under(target, TF_INTERNALS) and ported_name(target, internals=True)
            for target in self.bindings.names.values()
        ) and is_tf1_code(self.file_ast(tree), self.original_ast, self.context.filename)
        return any(
            self._ported(target) is not None or is_under(target, "tensorflow")
            for target in self.bindings.names.values()
        )

    def _ported(self, qualified: str) -> Optional[str]:
        """``ported_name`` for this file (TensorFlow's own flags modules in TF1 code)."""
        return ported_name(qualified, self._internals)

    # --- which local name reaches slim_ext.tf1_flags / absl.app

    def _local_for(self, module: str) -> str:
        """A module-level name for ``module`` usable here, importing one if needed."""
        name, fallback = _LOCAL_NAMES[module]
        existing = self.alias_here(lambda target: self._ported(target) == module, prefer=name)
        if existing is not None:
            return existing
        if module not in self._imported:
            local = fallback if self._name_taken(name) else name
            package, _, module_name = module.rpartition(".")
            self.add_needed_import(package, module_name,
                                   None if local == module_name else local)
            self._imported[module] = local
        return self._imported[module]

    def _name_taken(self, name: str) -> bool:
        if self._taken is None:  # once per file: a walk of the whole tree
            self._taken = variable_names(self._tree, include_bindings=True)
        return name in self._taken

    # --- statements that bind a name to TF's flags/app module: rewritten in place
    # (the base's leave_Import / leave_ImportFrom; the assignment here).

    def home_of(self, qualified: str) -> Optional[str]:
        return self._ported(qualified)

    def import_home(self, node: cst.Import, alias: cst.ImportAlias) -> Optional[str]:
        # Without ``as`` the statement binds ``tensorflow``; leave it to the uses.
        return super().import_home(node, alias) if alias.asname is not None else None

    def visit_Assign(self, node: cst.Assign) -> bool:
        """``flags = tf.app.flags`` becomes ``from slim_ext import tf1_flags as flags``
        in its place."""
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return True
        parts = dotted_parts(node.value)
        qualified = self.resolve_name(node.value)
        if parts is None or not is_tf_name(qualified):
            return True
        target = self._ported(qualified or "")
        if target not in _LOCAL_NAMES:
            return True
        statement = import_statement(target, node.targets[0].target.value)
        self.replace(node, statement.with_changes(semicolon=node.semicolon))
        self.record_edit(node, f"{code_of(node)} -> {code_of(statement)}")
        self.rewritten_roots.add(parts[0])
        return False

    # --- uses

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._note_written(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._note_written(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._note_written(node.target)

    def _note_written(self, target: cst.BaseExpression) -> None:
        """Attribute chains written to (``FLAGS.__flags['x'] = 1``), as opposed to read."""
        while isinstance(target, (cst.Attribute, cst.Subscript)):
            self._written.add(id(target))
            target = target.value

    def moved_use(self, node: cst.Attribute, parts: List[str], qualified: str,
                  home: str) -> bool:
        if flags_attribute(home) == "__flags":
            return self._port_private_flags(node, parts)
        if not is_tf_name(qualified) or through_alias(self.target_of(parts[0]), home,
                                                      self._internals):
            self.used_names.add(parts[0])
            return False
        text = self._ported_text(home)
        self.replace_chain(node, text)
        self.record_edit(node, f"{'.'.join(parts)} -> {text}")
        self.rewritten_roots.add(parts[0])
        return False

    def _ported_text(self, ported: str) -> str:
        """``slim_ext.tf1_flags.FLAGS`` as this file reaches it here: ``flags.FLAGS``."""
        module = TF1_FLAGS if is_under(ported, TF1_FLAGS) else ABSL_APP
        return self._local_for(module) + ported[len(module) :]

    def _receiver_text(self, parts: List[str], length: int) -> str:
        """The first ``length`` parts of a chain reaching FLAGS, as the port spells them."""
        receiver = parts[:length]
        qualified = self.resolve_parts(receiver) or ""
        if is_tf_name(qualified) and not through_alias(self.target_of(parts[0]),
                                                          self._ported(qualified) or "",
                                                          self._internals):
            self.rewritten_roots.add(parts[0])
            return self._ported_text(self._ported(qualified) or "")
        self.used_names.add(parts[0])
        return ".".join(receiver)

    def _port_private_flags(self, node: cst.Attribute, parts: List[str]) -> bool:
        """TF 1.4's ``FLAGS.__flags`` (name -> value): read through flag_values_dict()."""
        index = parts.index("__flags")
        written = any(id(inner) in self._written for inner in _chain_nodes(node))
        if written:
            self.used_names.add(parts[0])
            self.needs_attention(
                node, "writes into FLAGS.__flags, TF 1.4's private flag dict; absl has none",
                "set the flag itself: FLAGS.<name> = value")
            return False
        text = f"{self._receiver_text(parts, index)}.flag_values_dict()"
        text += "".join(f".{part}" for part in parts[index + 1:])
        self.replace(node, cst.parse_expression(text).with_changes(lpar=node.lpar,
                                                                   rpar=node.rpar))
        self.record_edit(node, f"{'.'.join(parts)} -> {text}")
        return False

    def _sys_name(self) -> Optional[str]:
        existing = self.alias_here(lambda target: target == "sys", prefer="sys")
        if existing is not None:
            return existing
        if self._name_taken("sys"):
            return None
        self.add_needed_import("sys")
        return "sys"

    def visit_Call(self, node: cst.Call) -> bool:
        qualified = self.resolve_name(node.func)
        ported = self._ported(qualified) if qualified else None
        if ported is None:
            return True
        if ported == ABSL_APP + ".run":
            return self._plan_run(node, qualified or "")
        if ported == FLAGS_OBJECT + "._parse_flags":
            return self._port_parse_flags(node)
        if is_define(ported):
            self.check_defined_once(node)
        return True

    def _port_parse_flags(self, node: cst.Call) -> bool:
        """TF 1.4's ``FLAGS._parse_flags()`` parsed the known flags of sys.argv."""
        parts = dotted_parts(node.func) or []
        sys_name = self._sys_name() if not node.args else None
        if sys_name is None:
            self.used_names.add(parts[0])
            self.needs_attention(
                node, "FLAGS._parse_flags(...) is TF 1.4's private parser; absl has none",
                "parse with FLAGS(argv, known_only=True), argv starting with the program name")
            return False
        receiver = self._receiver_text(parts, len(parts) - 1)
        new = _parse_call(dotted_expression(receiver), f"{sys_name}.argv")
        self._replaced_calls[node] = new
        self.record_edit(node, f"{'.'.join(parts)}() -> {code_of(new)}")
        return False

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        replaced = self._replaced_calls.pop(original_node, None)
        if replaced is not None:
            return replaced.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        args = self._call_args.pop(original_node, None)
        return updated_node if args is None else updated_node.with_changes(args=args)

    def _plan_run(self, node: cst.Call, qualified: str) -> bool:
        """``tf.app.run(...)`` -> ``app.run(main, ..., flags_parser=<TF1's parsing>)``."""
        if not is_tf_name(qualified):
            return True
        args = list(node.args)
        main_index = next((index for index, arg in enumerate(args)
                           if (arg.keyword is None and index == 0)
                           or (arg.keyword is not None and arg.keyword.value == "main")), None)
        if main_index is None:
            if not _defines_main(self._tree, self.module_bindings):
                self.needs_attention(
                    node,
                    "tf.app.run() without a main runs __main__.main, and this file "
                    "defines no module-level main",
                    "define main(argv) here and call app.run(main), or pass the "
                    "function to run: app.run(my_main)",
                )
                self.used_names.update((dotted_parts(node.func) or [])[:1])
                return False
            main = cst.Arg(value=cst.Name("main"))
        else:
            main = args.pop(main_index).with_changes(keyword=None,
                                                     equal=cst.MaybeSentinel.DEFAULT)
        if any(arg.keyword is not None and arg.keyword.value == "flags_parser" for arg in args):
            return True
        flags_object = f"{self._local_for(TF1_FLAGS)}.FLAGS"
        parser = cst.parse_expression(
            f"lambda argv: {flags_object}(argv, known_only=True)")
        keyword = cst.Arg(parser, keyword=cst.Name("flags_parser"),
                          equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                whitespace_after=cst.SimpleWhitespace("")))
        self._call_args[node] = [*_with_commas([main, *args]), keyword]
        self.record_edit(node, "tf.app.run -> app.run(main, ..., flags_parser=...): flags the "
                               "script does not define still reach main, as in TF1")
        return True


def _chain_nodes(node: cst.BaseExpression) -> List[cst.BaseExpression]:
    nodes = []
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        nodes.append(node)
        node = node.value
    return nodes


def _with_commas(args: List[cst.Arg]) -> List[cst.Arg]:
    """``args`` each followed by ``, `` (they get another argument after them)."""
    return [arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            if arg.comma is cst.MaybeSentinel.DEFAULT else arg for arg in args]
