"""TF1's flags and ``tf.app.run`` become ``absl.flags`` and ``absl.app.run``.

From TF 1.5 on, ``tf.app.flags`` / ``tf.flags`` were absl's flags module re-exported,
so every name under them (``DEFINE_*``, ``FLAGS``, ``mark_flag_as_required``) has the
same meaning in ``absl.flags``; ``tf.app.run`` was a thin wrapper over ``absl.app.run``.
The rewrite therefore maps qualified names (``absl_equivalent``) and, like
contrib_slim, rewrites binding statements where they stand (``flags = tf.app.flags``
-> ``from absl import flags``) and other uses through the module-level ``flags`` /
``app`` name, importing one when the file has none.

absl differs from TF1 in three behaviours, which the port keeps:

- TF1's ``FLAGS`` parsed ``sys.argv`` on the first read of a flag (a module-level
  ``BATCH = FLAGS.batch`` worked); absl raises until something parses. Before the
  first module-level statement that reads a flag the port puts that parse::

      if not flags.FLAGS.is_parsed():
        flags.FLAGS(sys.argv, known_only=True)

  and a ``__main__`` block that calls no ``app.run`` starts with it (TF1 scripts
  often call ``main()`` there). ``known_only``: flags the script does not define, which
  training platforms add, are left for later parsers, as ``tf.app.run`` left them.
- ``tf.app.run()`` handed flags it did not know on to ``main``'s argv; absl stops with
  an error. ``app.run(main, flags_parser=lambda argv: flags.FLAGS(argv,
  known_only=True))`` is TF1's parsing in plain absl.
- ``tf.app.run(argv=[...])`` (no main) ran ``__main__.main``: the port passes ``main``.

TF 1.4's private ``FLAGS.__flags`` (name -> value) reads become
``FLAGS.flag_values_dict()`` and ``FLAGS._parse_flags()`` becomes the parse above;
what cannot be kept is reported: a write into ``FLAGS.__flags``, a flag defined twice
on one path (a definition in each branch of an ``if`` is fine), a ``tf.app.run()``
with no ``main`` to run.
"""
from __future__ import annotations

import ast
from typing import ClassVar, Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from slim_facts.tf1_modules import ABSL_APP, ABSL_FLAGS
from slimport.codemods._absl_names import (
    FLAG_VALUES_MEMBERS,
    FLAGS_OBJECT,
    absl_equivalent,
    first_flag_read,
    flags_attribute,
    is_tf_name,
    through_alias,
    touched_chain,
)
from slimport.codemods._base import StatementFilter, chain_filter, code_of
from slimport.codemods._defined_once import DefinedOnce
from slimport.codemods._entry_script import main_block
from slimport.codemods._module_move import ModuleMoveCodemod
from slimport.codemods._names import (
    Bindings,
    dotted_expression,
    dotted_parts,
    is_under,
    variable_names,
)
from slimport.codemods._statements import small_statement

# TF 1.x's DEFINE_* wrappers still accepted gflags' old keyword names; absl does not.
_RENAMED_KEYWORDS = {"flag_name": "name", "default_value": "default", "docstring": "help"}


def _parse_call(flags_object: cst.BaseExpression, argv: str) -> cst.Call:
    """``<flags_object>(<argv>, known_only=True)``: TF1's parsing of the command line."""
    return cst.Call(func=flags_object, args=[
        cst.Arg(dotted_expression(argv)),
        cst.Arg(cst.Name("True"), keyword=cst.Name("known_only"),
                equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                      whitespace_after=cst.SimpleWhitespace(""))),
    ])


def _from_absl(names: Sequence[tuple]) -> cst.BaseSmallStatement:
    """``from absl import app, flags as tf_flags`` for (name, local) pairs."""
    parts = [name if name == local else f"{name} as {local}" for name, local in names]
    return small_statement("from absl import " + ", ".join(parts))


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
    """Rewrites tf.app.flags / tf.flags / tf.compat.v1.flags and tf.app.run to absl."""

    NAME: ClassVar[str] = "flags_to_absl"
    DESCRIPTION: ClassVar[str] = (
        "tf.app.flags / tf.flags / tf.compat.v1.flags -> absl.flags; tf.app.run -> absl"
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
        # A module-level function's first flag read: a call of the function at import
        # time reads a flag too.
        reads = {first for first in (first_flag_read(s, bindings) for s in tree.body)
                 if first is not None}
        return lambda statement: (id(statement) in mains or id(statement) in reads
                                  or touched(statement))

    @classmethod
    def rebound(cls, bindings: Bindings) -> Bindings:
        # Aliases of TF's flags and app modules become absl imports where they stand.
        return Bindings({name: absl_equivalent(target) if is_tf_name(target)
                         and absl_equivalent(target) in (ABSL_FLAGS, ABSL_APP) else target
                         for name, target in bindings.names.items()})

    def start_file(self, tree: cst.Module) -> bool:
        super().start_file(tree)
        self._tree = tree
        self._taken: Optional[Set[str]] = None
        # absl modules this pass imports: module -> the name it is imported as.
        self._imported: Dict[str, str] = {}
        self._call_args: Dict[cst.Call, List[cst.Arg]] = {}
        self._replaced_calls: Dict[cst.Call, cst.Call] = {}
        self._written: Set[int] = set()
        # Where the parse goes: before the first module-level statement reading a flag.
        self._first_read: Optional[cst.CSTNode] = None
        # Module-level functions that read a flag of TF1's FLAGS.
        self._reading_functions: Set[str] = set()
        self._parse_guard: Optional[cst.If] = None
        self._main = main_block(tree)
        self._tf_flags_used = False
        self._runs = False
        return any(
            absl_equivalent(target) is not None or is_under(target, "tensorflow")
            for target in self.bindings.names.values()
        )

    # --- which local name reaches absl.flags / absl.app

    def _local_for(self, absl_module: str) -> str:
        """A module-level name for ``absl_module`` usable here, importing one if needed."""
        name = absl_module.rpartition(".")[2]
        existing = self.alias_here(lambda target: absl_equivalent(target) == absl_module,
                                   prefer=name)
        if existing is not None:
            return existing
        if absl_module not in self._imported:
            local = f"absl_{name}" if self._name_taken(name) else name
            self.add_needed_import("absl", name, None if local == name else local)
            self._imported[absl_module] = local
        return self._imported[absl_module]

    def _name_taken(self, name: str) -> bool:
        if self._taken is None:  # once per file: a walk of the whole tree
            self._taken = variable_names(self._tree, include_bindings=True)
        return name in self._taken


    # --- statements that bind a name to TF's flags/app module: rewritten in place
    # (the base's leave_Import / leave_ImportFrom; the assignment here).

    def home_of(self, qualified: str) -> Optional[str]:
        return absl_equivalent(qualified)

    def import_home(self, node: cst.Import, alias: cst.ImportAlias) -> Optional[str]:
        # Without ``as`` the statement binds ``tensorflow``; leave it to the uses.
        return super().import_home(node, alias) if alias.asname is not None else None

    def from_imports(self, moved: Sequence[Tuple[str, str]]) -> List[cst.BaseSmallStatement]:
        # ``from tensorflow import app, flags`` -> ``from absl import app, flags``.
        if all(home.rpartition(".")[0] == "absl" for home, _ in moved):
            return [_from_absl([(home.rpartition(".")[2], local) for home, local in moved])]
        return super().from_imports(moved)

    def visit_Assign(self, node: cst.Assign) -> bool:
        """``flags = tf.app.flags`` becomes ``from absl import flags`` in its place."""
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return True
        parts = dotted_parts(node.value)
        qualified = self.resolve_name(node.value)
        if parts is None or not is_tf_name(qualified):
            return True
        target = absl_equivalent(qualified or "")
        if target not in (ABSL_FLAGS, ABSL_APP):
            return True
        local = node.targets[0].target.value
        statement = _from_absl([(target.rpartition(".")[2], local)])
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
        self._tf_flags_used |= is_tf_name(qualified)
        attribute = flags_attribute(home)
        if attribute == "__flags":
            return self._port_private_flags(node, parts)
        if attribute is not None and attribute not in FLAG_VALUES_MEMBERS \
                and is_tf_name(qualified) and id(node) not in self._written:
            self._note_read()
        if not is_tf_name(qualified) or through_alias(self.target_of(parts[0]), home):
            self.used_names.add(parts[0])
            return False
        text = self._absl_text(home)
        self.replace_chain(node, text)
        self.record_edit(node, f"{'.'.join(parts)} -> {text}")
        self.rewritten_roots.add(parts[0])
        return False

    def _absl_text(self, absl_name: str) -> str:
        """``absl.flags.FLAGS`` as this file reaches it here: ``flags.FLAGS``."""
        module = ABSL_FLAGS if is_under(absl_name, ABSL_FLAGS) else ABSL_APP
        return self._local_for(module) + absl_name[len(module) :]

    def _receiver_text(self, parts: List[str], length: int) -> str:
        """The first ``length`` parts of a chain reaching FLAGS, in absl spelling."""
        receiver = parts[:length]
        qualified = self.resolve_parts(receiver) or ""
        if is_tf_name(qualified) and not through_alias(self.target_of(parts[0]),
                                                          absl_equivalent(qualified) or ""):
            self.rewritten_roots.add(parts[0])
            return self._absl_text(absl_equivalent(qualified) or "")
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

    def _note_read(self) -> None:
        """A flag read: if it runs at import time, the parse goes before its statement."""
        top = self.scopes.top_statement
        if self.in_deferred_code:
            if isinstance(top, cst.FunctionDef):
                self._reading_functions.add(top.name.value)
            return
        if self._first_read is not None or top is self._main:
            # The __main__ block parses first when it needs to (_needs_main_parse):
            # importing the module must not parse the importer's command line.
            return
        self._first_read = self.scopes.top_statement
        self._parse_guard = self._guard_statement()

    def _guard_statement(self) -> Optional[cst.If]:
        """``if not flags.FLAGS.is_parsed(): flags.FLAGS(sys.argv, known_only=True)``."""
        sys_name = self._sys_name()
        if sys_name is None:
            self.needs_attention(
                self.scopes.top_statement, "this statement reads a flag at import time, "
                "which TF1 allowed (it parsed sys.argv on the first read) and absl does not; "
                "the name `sys` is taken, so the parse was not added",
                "parse first: flags.FLAGS(sys.argv, known_only=True)")
            return None
        flags_object = f"{self._local_for(ABSL_FLAGS)}.FLAGS"
        statement = cst.parse_statement(
            f"if not {flags_object}.is_parsed():\n"
            f"    {flags_object}({sys_name}.argv, known_only=True)\n",
            config=self._tree.config_for_parsing)
        assert isinstance(statement, cst.If)
        return statement

    def _sys_name(self) -> Optional[str]:
        existing = self.alias_here(lambda target: target == "sys", prefer="sys")
        if existing is not None:
            return existing
        if self._name_taken("sys"):
            return None
        self.add_needed_import("sys")
        return "sys"

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode
                 ) -> Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]:
        result = super().on_leave(original_node, updated_node)
        if original_node is self._first_read and self._parse_guard is not None:
            self.record_edit(original_node, "this statement reads a flag at import time: "
                             "sys.argv is parsed before it, as TF1's FLAGS did on a first read")
            rest = list(result) if isinstance(result, cst.FlattenSentinel) else [result]
            # Blank lines above the statement go above the parse; its comments stay on it.
            lines = list(getattr(rest[0], "leading_lines", ()))
            blank = next((index for index, line in enumerate(lines)
                          if line.comment is not None), len(lines))
            guard = self._parse_guard.with_changes(leading_lines=lines[:blank])
            rest[0] = rest[0].with_changes(leading_lines=lines[blank:])
            return cst.FlattenSentinel([guard, *rest])
        if original_node is self._main and self._needs_main_parse():
            return self._parse_first_in_main(result)
        return result

    def _needs_main_parse(self) -> bool:
        """A ``__main__`` block that runs without app.run in a file using TF1's flags:
        its functions' flag reads parsed sys.argv in TF1."""
        return self._tf_flags_used and not self._runs

    def _parse_first_in_main(self, block: cst.If) -> cst.If:
        guard = self._guard_statement()
        if guard is None or not isinstance(block.body, cst.IndentedBlock):
            return block
        self.record_edit(self._main, "__main__ block without app.run: sys.argv is parsed "
                                     "first, as TF1's FLAGS did on the first read")
        return block.with_changes(body=block.body.with_changes(
            body=[guard, *block.body.body]))

    def visit_Call(self, node: cst.Call) -> bool:
        if isinstance(node.func, cst.Name) and node.func.value in self._reading_functions \
                and self.target_of(node.func.value) is None:
            # ``run_train()`` at import time, and run_train reads a flag.
            self._note_read()
        qualified = self.resolve_name(node.func)
        absl_name = absl_equivalent(qualified) if qualified else None
        if absl_name is None:
            return True
        if absl_name == ABSL_APP + ".run":
            self._runs = True
            return self._plan_run(node, qualified or "")
        if absl_name == FLAGS_OBJECT + "._parse_flags":
            return self._port_parse_flags(node)
        if absl_name.startswith(ABSL_FLAGS + ".DEFINE"):
            self._tf_flags_used |= is_tf_name(qualified)
            self.check_defined_once(node)
            if is_tf_name(qualified):
                self._plan_keyword_renames(node)
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
        flags_object = f"{self._local_for(ABSL_FLAGS)}.FLAGS"
        parser = cst.parse_expression(
            f"lambda argv: {flags_object}(argv, known_only=True)")
        keyword = cst.Arg(parser, keyword=cst.Name("flags_parser"),
                          equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                whitespace_after=cst.SimpleWhitespace("")))
        self._call_args[node] = [*_with_commas([main, *args]), keyword]
        self.record_edit(node, "tf.app.run -> app.run(main, ..., flags_parser=...): flags the "
                               "script does not define still reach main, as in TF1")
        return True

    def _plan_keyword_renames(self, node: cst.Call) -> None:
        args = []
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in _RENAMED_KEYWORDS:
                new_name = _RENAMED_KEYWORDS[arg.keyword.value]
                self.record_edit(arg, f"keyword {arg.keyword.value}= -> {new_name}=")
                arg = arg.with_changes(keyword=cst.Name(new_name))
            args.append(arg)
        if args != list(node.args):
            self._call_args[node] = args


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
