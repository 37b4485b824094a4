"""TF1's flags and ``tf.app.run`` become ``absl.flags`` and ``absl.app.run``.

From TF 1.5 on, ``tf.app.flags`` / ``tf.flags`` were absl's flags module re-exported,
so every name under them (``DEFINE_*``, ``FLAGS``, ``mark_flag_as_required``) has the
same meaning in ``absl.flags``; ``tf.app.run`` was a thin wrapper over ``absl.app.run``.
The rewrite therefore maps qualified names (``absl_equivalent``) and, like
contrib_slim, rewrites binding statements where they stand (``flags = tf.app.flags``
-> ``from absl import flags``) and other uses through the module-level ``flags`` /
``app`` name, importing one when the file has none.

What does not carry over is reported instead: TF1's private ``FLAGS.__flags`` /
``FLAGS._parse_flags()``, a flag defined twice, a ``tf.app.run()`` with no ``main``.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Sequence

import libcst as cst

from slimport.codemods._base import StatementFilter, chain_filter, code_of
from slimport.codemods._module_move import ModuleMoveCodemod, small_statement
from slimport.contract import ABSL_APP, ABSL_FLAGS, TF_APP_MODULES, TF_FLAG_MODULES
from slimport.codemods._names import (
    Bindings,
    dotted_expression,
    dotted_parts,
    local_name,
    variable_names,
)

# TF 1.x's DEFINE_* wrappers still accepted gflags' old keyword names; absl does not.
_RENAMED_KEYWORDS = {"flag_name": "name", "default_value": "default", "docstring": "help"}
_FLAGS_OBJECT = ABSL_FLAGS + ".FLAGS"
_PRIVATE_FLAGS_ATTRIBUTES = {
    "__flags": "FLAGS.__flags is TF1's private flag dict; absl has no such attribute",
    "__dict__": "FLAGS.__dict__['__flags'] reads TF1's private flag dict; absl has none",
    "_parse_flags": "FLAGS._parse_flags() is TF1-only; absl FlagValues has no such method",
}
_PRIVATE_FLAGS_FIXES = {
    "__flags": "use FLAGS.flag_values_dict() for {name: value}, or FLAGS[name] for a Flag",
    "__dict__": "use FLAGS.flag_values_dict() for {name: value}, or FLAGS[name] for a Flag",
    "_parse_flags": "delete the call: app.run(main) parses the command line before main "
    "runs (outside app.run, call FLAGS(sys.argv))",
}


def _under(qualified: str, prefix: str) -> bool:
    return qualified == prefix or qualified.startswith(prefix + ".")


def absl_equivalent(qualified: str) -> Optional[str]:
    """The absl name for a TF1 flags/app name (absl names map to themselves).

    Args:
      qualified: a dotted name, e.g. ``tensorflow.app.flags.DEFINE_string``.

    Returns:
      ``absl.flags.DEFINE_string``, ``absl.app.run``, ...; None for anything else.
    """
    if _under(qualified, ABSL_FLAGS) or _under(qualified, ABSL_APP):
        return qualified
    # Flags first: tensorflow.app.flags is also under tensorflow.app.
    for modules, absl_module in ((TF_FLAG_MODULES, ABSL_FLAGS), (TF_APP_MODULES, ABSL_APP)):
        for module in modules:
            if _under(qualified, module):
                return absl_module + qualified[len(module) :]
    return None


def _is_tf_name(qualified: Optional[str]) -> bool:
    return qualified is not None and _under(qualified, "tensorflow")


def _through_alias(bindings: Bindings, root: str, absl_name: str) -> bool:
    """True if ``root`` is (after this rewrite) bound to absl_name or a prefix of it."""
    target = bindings.names.get(root)
    root_absl = absl_equivalent(target) if target else None
    return root_absl is not None and _under(absl_name, root_absl)


def _private_flags_attribute(absl_name: str) -> Optional[str]:
    """``__flags`` for ``absl.flags.FLAGS.__flags``: TF1 internals absl lacks; else None."""
    if not absl_name.startswith(_FLAGS_OBJECT + "."):
        return None
    attribute = absl_name[len(_FLAGS_OBJECT) + 1 :].split(".")[0]
    return attribute if attribute in _PRIVATE_FLAGS_ATTRIBUTES else None


def _touched(bindings: Bindings, parts: List[str]) -> bool:
    """Whether the codemod edits or reports a use of the chain ``parts``.

    Mirrors ``visit_Attribute`` and ``visit_Call``: TF spellings of flags and app
    are rewritten, ``DEFINE_*`` and ``run`` calls are checked, private FLAGS
    attributes reported; ``FLAGS.batch_size`` through an alias stays as it is.
    """
    qualified = bindings.resolve_parts(parts)
    absl_name = absl_equivalent(qualified) if qualified else None
    if absl_name is None:
        return False
    if absl_name == ABSL_APP + ".run" or absl_name.startswith(ABSL_FLAGS + ".DEFINE"):
        return True
    if _private_flags_attribute(absl_name) is not None:
        return True
    return _is_tf_name(qualified) and not _through_alias(bindings, parts[0], absl_name)


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



def _absl_path_of_aliased(alias: cst.ImportAlias) -> Optional[str]:
    # Without ``as`` the statement binds ``tensorflow``; leave it to the uses.
    target = absl_equivalent(alias.evaluated_name)
    if alias.asname is None or target == alias.evaluated_name:
        return None
    return target

class FlagsToAbslCommand(ModuleMoveCodemod):
    """Rewrites tf.app.flags / tf.flags / tf.compat.v1.flags and tf.app.run to absl."""

    NAME = "flags_to_absl"
    DESCRIPTION = "tf.app.flags / tf.flags / tf.compat.v1.flags -> absl.flags; tf.app.run -> absl"
    TRIGGERS = ("flags", "app.run")

    @classmethod
    def applies_to(cls, source: str) -> bool:
        """TF's flags are reached through an import naming ``tensorflow``; absl-only
        files (already ported) are skipped."""
        return "tensorflow" in source and super().applies_to(source)

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        touched = chain_filter(lambda parts: _touched(bindings, parts))
        # ``tf.app.run()`` becomes ``app.run(main)`` only if the module defines main.
        mains = {id(s) for s in tree.body
                 if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "main"}
        return lambda statement: id(statement) in mains or touched(statement)

    @classmethod
    def rebound(cls, bindings: Bindings) -> Bindings:
        # Aliases of TF's flags and app modules become absl imports where they stand.
        return Bindings({name: absl_equivalent(target) if _is_tf_name(target)
                         and absl_equivalent(target) in (ABSL_FLAGS, ABSL_APP) else target
                         for name, target in bindings.names.items()})

    def start_file(self, tree: cst.Module) -> bool:
        super().start_file(tree)
        self._tree = tree
        self._locals: Dict[str, str] = {}
        self._call_args: Dict[cst.Call, List[cst.Arg]] = {}
        self._defined: Dict[str, cst.Call] = {}
        return any(
            absl_equivalent(target) is not None or _under(target, "tensorflow")
            for target in self.bindings.names.values()
        )

    # --- which local name reaches absl.flags / absl.app

    def _local_for(self, absl_module: str) -> str:
        """The module-level name for ``absl_module``, importing it if the file has none."""
        if absl_module in self._locals:
            return self._locals[absl_module]
        name = absl_module.rpartition(".")[2]
        existing = [
            local
            for local, target in self.module_bindings.names.items()
            if absl_equivalent(target) == absl_module
        ]
        if existing:
            local = name if name in existing else existing[0]
        else:
            local = f"absl_{name}" if self._name_taken(name) else name
            self.add_needed_import("absl", name, None if local == name else local)
        self._locals[absl_module] = local
        return local

    def _name_taken(self, name: str) -> bool:
        return name in variable_names(self._tree, include_bindings=True)


    # --- statements that bind a name to TF's flags/app module: rewritten in place.

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        return self.move_import(original_node, updated_node, _absl_path_of_aliased)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement:
        if updated_node.relative or updated_node.module is None:
            return updated_node
        module = ".".join(dotted_parts(updated_node.module) or [])
        if not _is_tf_name(module):
            return updated_node
        target = absl_equivalent(module)
        if target is not None:
            return self.move_import_from(original_node, updated_node, target)
        if isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        kept, moved = [], []
        for alias in updated_node.names:
            target = absl_equivalent(f"{module}.{alias.evaluated_name}")
            if target in (ABSL_FLAGS, ABSL_APP):
                moved.append((target.rpartition(".")[2], local_name(alias)))
            else:
                kept.append(alias)
        if not moved:
            return updated_node
        statement = _from_absl(moved)
        self.record_edit(original_node, f"{code_of(original_node)} -> {code_of(statement)}")
        return self.split_import(updated_node, kept, [statement])

    def visit_Assign(self, node: cst.Assign) -> bool:
        """``flags = tf.app.flags`` becomes ``from absl import flags`` in its place."""
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return True
        parts = dotted_parts(node.value)
        qualified = self.bindings.resolve(node.value)
        if parts is None or not _is_tf_name(qualified):
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

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        parts = dotted_parts(node)
        if parts is None:
            # ``f(x).y``: the chain is broken by a call; look inside it.
            return True
        qualified = self.bindings.resolve(node)
        absl_name = absl_equivalent(qualified) if qualified else None
        if absl_name is None:
            self.used_names.add(parts[0])
            return False
        self._check_private_flags_use(node, absl_name)
        if not _is_tf_name(qualified) or _through_alias(self.bindings, parts[0], absl_name):
            self.used_names.add(parts[0])
            return False
        module = ABSL_FLAGS if _under(absl_name, ABSL_FLAGS) else ABSL_APP
        text = self._local_for(module) + absl_name[len(module) :]
        self.replace(node, dotted_expression(text).with_changes(lpar=node.lpar, rpar=node.rpar))
        self.record_edit(node, f"{'.'.join(parts)} -> {text}")
        self.rewritten_roots.add(parts[0])
        return False

    def _check_private_flags_use(self, node: cst.Attribute, absl_name: str) -> None:
        attribute = _private_flags_attribute(absl_name)
        if attribute is not None:
            self.needs_attention(
                node, _PRIVATE_FLAGS_ATTRIBUTES[attribute], _PRIVATE_FLAGS_FIXES[attribute]
            )

    def visit_Call(self, node: cst.Call) -> bool:
        qualified = self.bindings.resolve(node.func)
        absl_name = absl_equivalent(qualified) if qualified else None
        if absl_name is None:
            return True
        if absl_name == ABSL_APP + ".run":
            return self._plan_run(node, qualified or "")
        if absl_name.startswith(ABSL_FLAGS + ".DEFINE"):
            self._check_defined_once(node)
            if _is_tf_name(qualified):
                self._plan_keyword_renames(node)
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        args = self._call_args.pop(original_node, None)
        return updated_node if args is None else updated_node.with_changes(args=args)

    def _plan_run(self, node: cst.Call, qualified: str) -> bool:
        """``run()`` / ``run(main=main)`` -> ``run(main)``: absl's main is required."""
        if _is_tf_name(qualified) and not node.args:
            if not _defines_main(self._tree, self.module_bindings):
                self.needs_attention(
                    node,
                    "tf.app.run() without arguments runs __main__.main, and this file "
                    "defines no module-level main",
                    "define main(argv) here and call app.run(main), or pass the "
                    "function to run: app.run(my_main)",
                )
                self.used_names.update((dotted_parts(node.func) or [])[:1])
                return False
            self._call_args[node] = [cst.Arg(value=cst.Name("main"))]
            self.record_edit(node, "tf.app.run() -> app.run(main)")
            return True
        first = node.args[0] if node.args else None
        if first is not None and first.keyword is not None and first.keyword.value == "main":
            positional = first.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
            self._call_args[node] = [positional, *node.args[1:]]
            self.record_edit(node, "app.run(main=...) -> app.run(...)")
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

    def _check_defined_once(self, node: cst.Call) -> None:
        name = None
        for position, arg in enumerate(node.args):
            named = arg.keyword.value if arg.keyword is not None else None
            if (named is None and position == 0) or named in ("name", "flag_name"):
                if isinstance(arg.value, cst.SimpleString):
                    name = arg.value.evaluated_value
                break
        if not isinstance(name, str):
            return
        first = self._defined.setdefault(name, node)
        if first is not node:
            self.needs_attention(
                node,
                f"flag {name!r} is defined twice (first at line {self.source_line_of(first)})",
                "delete one definition: absl raises DuplicateFlagError on the second",
            )
