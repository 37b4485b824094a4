"""What uai_flags and cluster_bootstrap need to know about an entry script, and their base.

An entry script defines flags and hands a ``main`` to ``app.run``; both codemods
insert one call at the top of that ``main``. Flags are found by their ``DEFINE_*``
call's first argument whatever module the receiver resolves to, so the same analysis
works on TF1 code (``tf.app.flags.DEFINE_string``) and on code flags_to_absl has
already moved to ``absl.flags``. Only module-level statements (and the bodies of
module-level ``if`` blocks, for ``if __name__ == '__main__':``) are read: that is
where slim scripts define flags and call ``app.run``, and it keeps the pass cheap.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, Optional, Set

import libcst as cst
from libcst import matchers as m

from slimport.codemods.base import SlimportCodemod, StatementFilter
from slimport.codemods._statements import is_docstring
from slim_facts.tf1_modules import ABSL_APP, APP_RUN, FLAG_MODULES, TF1_FLAGS, TF_FLAG_MODULES
from slimport.analysis.names import Bindings

_AST_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
UFLAG_APPLY = "slim_ext.uflag.apply"


@dataclass
class EntryScript:
    """The parts of an entry script a ``main``-top insertion works with.

    ``main`` is None when ``app.run`` is handed something that is not a
    module-level function of this file; ``flags_object`` is None when no
    module-level name is bound to the flags module's ``FLAGS``.
    """

    bindings: Bindings
    flags: Dict[str, cst.Call]
    flags_object: Optional[str]
    run_call: cst.Call
    main_name: Optional[str]
    main: Optional[cst.FunctionDef]
    quote: str = "'"
    module_level_names: Set[str] = field(default_factory=set)


def _is_main_test(test: cst.BaseExpression) -> bool:
    """``__name__ == "__main__"`` in either order."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return False
    sides = [test.left, target.comparator]
    names = [side for side in sides if isinstance(side, cst.Name) and side.value == "__name__"]
    strings = [side for side in sides if isinstance(side, cst.SimpleString)
               and side.evaluated_value == "__main__"]
    return len(names) == 1 and len(strings) == 1


def main_block(module: cst.Module) -> Optional[cst.If]:
    """The module-level ``if __name__ == "__main__":`` statement, if any.

    Args:
      module: the module.

    Returns:
      The ``if`` statement (either operand order), or None.
    """
    for statement in module.body:
        if isinstance(statement, cst.If) and _is_main_test(statement.test):
            return statement
    return None


def _module_level_smalls(module: cst.Module) -> Iterator[cst.BaseSmallStatement]:
    for statement in module.body:
        yield from _smalls_of(statement)


def _smalls_of(statement: cst.CSTNode) -> Iterator[cst.BaseSmallStatement]:
    if isinstance(statement, cst.SimpleStatementLine):
        yield from statement.body
    elif isinstance(statement, (cst.If, cst.Else)):
        body = statement.body
        if isinstance(body, cst.SimpleStatementSuite):
            yield from body.body
        else:
            for inner in body.body:
                yield from _smalls_of(inner)
        if isinstance(statement, cst.If) and statement.orelse is not None:
            yield from _smalls_of(statement.orelse)


def _call_of(small: cst.BaseSmallStatement) -> Optional[cst.Call]:
    """The call a statement is made of: ``f(...)`` or ``x = f(...)``."""
    value = None
    if isinstance(small, cst.Expr):
        value = small.value
    elif isinstance(small, cst.Assign):
        value = small.value
    return value if isinstance(value, cst.Call) else None


def _defined_flag(bindings: Bindings, call: cst.Call) -> Optional[cst.SimpleString]:
    """The name literal of a ``DEFINE_*`` call on a flags module, else None."""
    qualified = bindings.resolve(call.func)
    if qualified is None:
        return None
    receiver, _, function = qualified.rpartition(".")
    if receiver not in FLAG_MODULES or not function.startswith("DEFINE"):
        return None
    for position, arg in enumerate(call.args):
        is_name = (arg.keyword is None and position == 0) or (
            arg.keyword is not None and arg.keyword.value == "name"
        )
        if is_name and isinstance(arg.value, cst.SimpleString):
            return arg.value
    return None


def _main_name(run_call: cst.Call) -> Optional[str]:
    """Which function ``app.run`` calls: its ``main`` argument, ``main`` if none."""
    for position, arg in enumerate(run_call.args):
        if (arg.keyword is None and position == 0) or (
            arg.keyword is not None and arg.keyword.value == "main"
        ):
            return arg.value.value if isinstance(arg.value, cst.Name) else None
    return "main"


def _bound_names(small: cst.BaseSmallStatement) -> Iterator[str]:
    if isinstance(small, cst.Assign):
        for target in small.targets:
            if isinstance(target.target, cst.Name):
                yield target.target.value
    elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
        for alias in small.names:
            name = alias.asname.name if alias.asname else alias.name
            if isinstance(name, cst.Name):
                yield name.value


def _flags_object(bindings: Bindings, module_level: Set[str]) -> Optional[str]:
    """The module-level name bound to ``<flags module>.FLAGS``, ``FLAGS`` first.

    A ``FLAGS = flags.FLAGS`` inside ``main`` does not count: a call inserted above
    it would read the name before it is assigned.
    """
    names = [
        name
        for name, target in bindings.names.items()
        if name in module_level
        and target.endswith(".FLAGS")
        and target[: -len(".FLAGS")] in FLAG_MODULES
    ]
    if "FLAGS" in names:
        return "FLAGS"
    return names[0] if names else None


def _is_tf1_program(bindings: Bindings, flags: Dict[str, cst.Call], run_call: cst.Call) -> bool:
    """True for a TF1 training script: it uses TF-Slim, TF1's flags, or TF1's app.run
    (also as flags_to_absl ports them: ``slim_ext.tf1_flags``, an absl ``app.run`` with
    TF1's ``flags_parser``).

    The platform contract and cluster start-up are for those; an absl script of TF2
    code does not get slim_ext put into it.
    """
    if any(target.startswith(("tf_slim", "tensorflow.contrib.slim"))
           for target in bindings.names.values()):
        return True
    if any((bindings.resolve(call.func) or "").rpartition(".")[0] in TF_FLAG_MODULES | {TF1_FLAGS}
           for call in flags.values()):
        return True
    return bindings.resolve(run_call.func) != f"{ABSL_APP}.run" or any(
        arg.keyword is not None and arg.keyword.value == "flags_parser" for arg in run_call.args)


def analyse(module: cst.Module, bindings: Bindings) -> Optional[EntryScript]:
    """Read ``module`` as an entry script; None if it defines no flag, never runs or is
    no TF1 program.

    Args:
      module: the parsed source file.
      bindings: ``collect_bindings`` of it.

    Returns:
      The flags it defines (name -> defining call), its flags object, its ``main``,
      or None when it is not an entry script (no ``DEFINE_*`` or no ``app.run``).
    """
    flags: Dict[str, cst.Call] = {}
    quote = "'"
    run_call: Optional[cst.Call] = None
    module_level: Set[str] = set()
    for small in _module_level_smalls(module):
        module_level.update(_bound_names(small))
        call = _call_of(small)
        if call is None:
            continue
        literal = _defined_flag(bindings, call)
        if literal is not None:
            name = literal.evaluated_value
            if isinstance(name, str):
                if not flags:
                    quote = literal.quote[0]
                flags.setdefault(name, call)
        elif bindings.resolve(call.func) in APP_RUN:
            run_call = call
    if not flags or run_call is None or not _is_tf1_program(bindings, flags, run_call):
        return None
    main_name = _main_name(run_call)
    main = None
    for statement in module.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            module_level.add(statement.name.value)
            if isinstance(statement, cst.FunctionDef) and statement.name.value == main_name:
                main = statement
    return EntryScript(
        bindings=bindings,
        flags=flags,
        flags_object=_flags_object(bindings, module_level),
        run_call=run_call,
        main_name=main_name,
        main=main,
        quote=quote,
        module_level_names=module_level,
    )


def top_calls(function: cst.FunctionDef) -> Iterator[cst.Call]:
    """The calls made as whole statements directly in ``function``'s body.

    Args:
      function: a function definition.

    Yields:
      Each call that is a statement of its own in the body.
    """
    if not isinstance(function.body, cst.IndentedBlock):
        return
    for statement in function.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                call = _call_of(small)
                if call is not None:
                    yield call


def calls_in(script: EntryScript, function: cst.FunctionDef, qualified: str) -> bool:
    """True if ``function`` already calls ``qualified`` as a top-level statement.

    Args:
      script: the entry script.
      function: its ``main``.
      qualified: e.g. ``slim_ext.uflag.apply``.

    Returns:
      True when such a call is already there (the insertion is not repeated).
    """
    return any(script.bindings.resolve(c.func) == qualified for c in top_calls(function))


def local_name_for(script: EntryScript, module: str, name: str, alias: str) -> str:
    """The name to import ``module.name`` as: ``name`` unless the file uses it already.

    A ``main`` with its own ``cluster = ...`` would make an inserted
    ``cluster.bootstrap(FLAGS)`` an UnboundLocalError, so any other use of the name
    in ``main`` or at module level moves the import to ``alias``.

    Args:
      script: the entry script.
      module: e.g. ``slim_ext``.
      name: e.g. ``uflag``.
      alias: the name to use when ``name`` is taken.

    Returns:
      ``name``, an existing import's name for it, or ``alias``.
    """
    already_imported = script.bindings.local_names_for(f"{module}.{name}")
    if already_imported:
        return already_imported[0]
    taken = name in script.bindings.names or name in script.module_level_names
    if script.main is not None and m.findall(script.main, m.Name(name)):
        taken = True
    return alias if taken else name


def insert_at_top(
    function: cst.FunctionDef,
    statement: cst.SimpleStatementLine,
    skip: Callable[[cst.BaseStatement], bool] = lambda statement: False,
) -> cst.FunctionDef:
    """``function`` with ``statement`` first in its body.

    The docstring stays first, and so do leading statements for which ``skip`` is
    True (cluster_bootstrap goes after an existing ``uflag.apply``).

    Args:
      function: the function to insert into.
      statement: the statement to insert.
      skip: True for leading statements the new one goes after.

    Returns:
      The new function definition.

    Raises:
      ValueError: the body is on the ``def`` line (``def main(_): train()``).
    """
    if not isinstance(function.body, cst.IndentedBlock):
        raise ValueError("body on the def line")
    body = list(function.body.body)
    index = 1 if body and is_docstring(body[0]) else 0
    while index < len(body) and skip(body[index]):
        index += 1
    body.insert(index, statement)
    return function.with_changes(body=function.body.with_changes(body=body))


def replace_statement(
    module: cst.Module, old: cst.BaseStatement, new: cst.BaseStatement
) -> cst.Module:
    """``module`` with its top-level statement ``old`` (by identity) replaced.

    Args:
      module: the module.
      old: one of its top-level statements.
      new: what replaces it.

    Returns:
      The new module.
    """
    body = [new if statement is old else statement for statement in module.body]
    return module.with_changes(body=body)


def _run_targets(tree: ast.Module) -> Set[str]:
    """Names of what module-level ``*.run(...)`` calls run (``main`` when none is given)."""
    targets: Set[str] = set()
    calls = (node for statement in tree.body if not isinstance(statement, _AST_DEFINITIONS)
             for node in ast.walk(statement) if isinstance(node, ast.Call))
    for call in calls:
        if isinstance(call.func, ast.Attribute) and call.func.attr == "run":
            named = [keyword.value for keyword in call.keywords if keyword.arg == "main"]
            first = call.args[0] if call.args else (named[0] if named else None)
            targets.add(first.id if isinstance(first, ast.Name) else "main")
    return targets


class MainTopCodemod(SlimportCodemod):
    """Base of the codemods that put one call first in an entry script's ``main``."""

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # The whole of main (its docstring, its local names, calls already made at its
        # top), and every module-level name (is ``cluster`` taken?); the bodies of
        # other functions play no part.
        targets = _run_targets(tree)
        spans = [(s.lineno, s.end_lineno or s.lineno) for s in tree.body
                 if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in targets]
        module_level = {id(statement) for statement in tree.body}
        return lambda statement: id(statement) in module_level or any(
            first <= statement.lineno <= last for first, last in spans)

    def main_to_edit(
        self, script: EntryScript, qualified: str, call: str, consequence: str
    ) -> Optional[cst.FunctionDef]:
        """``script``'s main, if a call to ``qualified`` is still to be put in it.

        Args:
          script: the analysed entry script.
          qualified: the function the call calls, e.g. ``slim_ext.cluster.bootstrap``.
          call: the call as a user would write it, for fixes: ``cluster.bootstrap(FLAGS)``.
          consequence: what was not done, for messages: ``cluster.bootstrap was not added``.

        Returns:
          None when main already makes the call, and (reported) when app.run runs
          something that is not a module-level function or there is no module-level
          FLAGS to pass.
        """
        module, name, function = qualified.rsplit(".", 2)
        main = script.main
        if main is None:
            self.needs_attention(
                script.run_call,
                f"app.run runs {script.main_name or 'a callable'} that is not a "
                f"module-level function of this file; {consequence}",
                f"call {call} first in the function app.run runs (from {module} import {name})",
            )
            return None
        if calls_in(script, main, qualified):
            return None
        if script.flags_object is None:
            self.needs_attention(
                main,
                f"no module-level FLAGS = flags.FLAGS to pass to {name}.{function}",
                f"add FLAGS = flags.FLAGS and call {call} first in main",
            )
            return None
        return main

    def insert_in_main(
        self,
        tree: cst.Module,
        main: cst.FunctionDef,
        statement: cst.SimpleStatementLine,
        consequence: str,
        fix: str,
        skip: Callable[[cst.BaseStatement], bool] = lambda statement: False,
    ) -> Optional[cst.Module]:
        """``tree`` with ``statement`` first in ``main`` (see ``insert_at_top``).

        Args:
          tree: the module.
          main: its ``main`` function.
          statement: what to insert.
          consequence: what is lost if it cannot be inserted (for the report).
          fix: what the user should do then.
          skip: True for leading statements the new one goes after.

        Returns:
          None, reported with ``consequence`` and ``fix``, when main's body is on
          its ``def`` line.
        """
        try:
            new_main = insert_at_top(main, statement, skip=skip)
        except ValueError:
            self.needs_attention(
                main, f"{main.name.value}'s body is on its def line; {consequence}", fix
            )
            return None
        return replace_statement(tree, main, new_main)
