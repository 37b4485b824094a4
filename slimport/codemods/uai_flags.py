"""Put the platform flag contract into slim entry scripts.

A training platform starts jobs with its own flags (``--data_dir --output_dir
--num_gpus ...``); slim scripts read ``--dataset_dir --train_dir --num_clones``.
This codemod makes ``uflag.apply(FLAGS, {...})`` the first statement of ``main`` in
every entry script that defines slim's flags, so the platform flags fill the slim ones
before any of ``main``'s own checks (``if not FLAGS.dataset_dir: raise ...``) run.

A script the platform shipped may map them itself (``FLAGS.dataset_dir =
FLAGS.data_dir``, also under an ``if``, in any function, through any spelling of
``FLAGS``): it has its own contract with the platform, so nothing is added and the
report names the mapping found.
"""
from __future__ import annotations

import argparse
import ast
from typing import Any, ClassVar, Dict, Iterable, List, Mapping, Optional, Tuple, Union

import libcst as cst
from libcst import matchers as m

from slimport.codemods import flag_mapping
from slimport.codemods import _entry_script
from slimport.codemods.base import StatementFilter
from slimport.codemods.tree_facts import TreeContents
from slimport.analysis.names import Bindings, collect_bindings, dotted_parts
from slim_facts.platform_flags import EVAL_MAPPING, TRAIN_MAPPING
from slim_facts.tf1_modules import FLAG_MODULES


def _map_entries(text: str) -> List[Tuple[str, str]]:
    """``--map FROM=TO[,FROM=TO...]`` on libcst.tool's command line, checked as
    ``slimport rewrite --map`` checks it."""
    return list(flag_mapping.argument(text).items())


def default_mapping(defined_flags: Iterable[str]) -> Dict[str, str]:
    """The default mapping for a script defining ``defined_flags``.

    Args:
      defined_flags: names of the flags the script defines.

    Returns:
      TRAIN_MAPPING for a training script (defines ``train_dir``), EVAL_MAPPING for
      an eval script (``eval_dir`` or ``checkpoint_path`` and no ``train_dir``),
      else an empty mapping.
    """
    defined = set(defined_flags)
    if "train_dir" in defined:
        return dict(TRAIN_MAPPING)
    if defined & {"eval_dir", "checkpoint_path"}:
        return dict(EVAL_MAPPING)
    return {}


def flag_name(bindings: Bindings, parts: Optional[List[str]]) -> Optional[str]:
    """``x`` for a chain that reads or writes flag ``x`` of a flags module's FLAGS.

    Args:
      bindings: the file's bindings.
      parts: a dotted chain, split (``["FLAGS", "data_dir"]``), or None.

    Returns:
      The flag's name, for ``FLAGS.x``, ``flags.FLAGS.x``, ``tf.app.flags.FLAGS.x``, ...
      whatever name the FLAGS object has; else None.
    """
    qualified = bindings.resolve_parts(parts) if parts else None
    if qualified is None:
        return None
    receiver, _, name = qualified.rpartition(".")
    module, _, flags_object = receiver.rpartition(".")
    return name if flags_object == "FLAGS" and module in FLAG_MODULES else None


class _HandMapping(cst.CSTVisitor):
    """Assignments that copy a platform flag onto the slim flag ``mapping`` fills:
    (platform flag, slim flag, the assignment), in source order."""

    def __init__(self, bindings: Bindings, mapping: Mapping[str, str]) -> None:
        super().__init__()
        self.bindings = bindings
        self.mapping = mapping
        self.found: List[Tuple[str, str, cst.Assign]] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        targets = {flag_name(self.bindings, dotted_parts(target.target))
                   for target in node.targets}
        sources = {flag_name(self.bindings, dotted_parts(read))
                   for read in m.findall(node.value, m.Attribute())}
        self.found += [(source, target, node) for source, target in self.mapping.items()
                       if target in targets and source in sources]


class UaiFlagsCommand(_entry_script.MainTopCodemod):
    """Adds ``uflag.apply(FLAGS, MAPPING)`` at the top of ``main`` in slim entry scripts."""

    NAME: ClassVar[str] = "uai_flags"
    DESCRIPTION: ClassVar[str] = (
        "Map platform flags (--data_dir, --output_dir, ...) onto slim's flags at the top of main."
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = ("DEFINE",)
    OPTIONS: ClassVar[Tuple[str, ...]] = ("mapping",)

    def __init__(
        self,
        context: cst.codemod.CodemodContext,
        mapping: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None,
        **kwargs: object,
    ) -> None:
        """Args:
          context: the libcst codemod context.
          mapping: platform flag -> slim flag entries that add to or override the
            defaults (the CLI's ``--map FROM=TO``); a dict or (FROM, TO) pairs.
        """
        super().__init__(context, **kwargs)
        self.mapping: Dict[str, str] = dict(mapping or {})

    @classmethod
    def statement_filter(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        # Besides main: every assignment to a flag, wherever the script maps by hand.
        in_main = super().statement_filter(tree, bindings)

        def sets_a_flag(statement: ast.stmt) -> bool:
            return isinstance(statement, ast.Assign) and any(
                flag_name(bindings, dotted_parts(target)) is not None
                for target in statement.targets)

        return lambda statement: in_main(statement) or sets_a_flag(statement)

    @classmethod
    def check_options(cls, options: Mapping[str, Any], tree: TreeContents) -> List[str]:
        """A warning for each ``--map`` target no Python file of the tree defines."""
        return flag_mapping.undefined_targets(options.get("mapping", {}), tree.texts)

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--map",
            dest="mapping",
            metavar="FROM=TO",
            action="extend",
            type=_map_entries,
            help="map platform flag FROM onto the script's flag TO (repeatable or "
                 "comma-separated)",
        )

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        script = _entry_script.analyse(tree, collect_bindings(self.file_ast(tree)))
        if script is None:
            return tree
        mapping = {**default_mapping(script.flags), **self.mapping}
        # A script that defines a platform flag itself gives it its own meaning (an eval
        # script's --output_dir for its results): the platform's is not mapped over it.
        own = {source: target for source, target in mapping.items() if source in script.flags}
        for source, target in own.items():
            self.needs_attention(
                script.flags[source],
                f"the script defines --{source} itself, so the platform flag --{source} "
                f"was not mapped onto --{target}",
                f"if the script's --{source} means the platform's, map it by hand: "
                f"FLAGS.{target} = FLAGS.{target} or FLAGS.{source}")
        kept = {source: target for source, target in mapping.items()
                if target in script.flags and source not in own}
        if not kept or self._maps_by_hand(tree, script, kept):
            return tree
        call_hint = f"uflag.apply(FLAGS, {kept!r})"
        not_done = "platform flags are not mapped"
        main = self.main_to_edit(script, _entry_script.UFLAG_APPLY, call_hint, not_done)
        if main is None:
            return tree
        uflag = _entry_script.local_name_for(script, "slim_ext", "uflag", "slim_ext_uflag")
        call = _apply_statement(uflag, script.flags_object, kept, script.quote)
        new_tree = self.insert_in_main(
            tree, main, call, not_done,
            f"move the body onto its own lines, then rerun (or call {call_hint})",
        )
        if new_tree is None:
            return tree
        self.add_needed_import("slim_ext", "uflag", asname=None if uflag == "uflag" else uflag)
        skipped = [f"{s}->{t}" for s, t in mapping.items() if s not in kept]
        entries = ", ".join(f"{s}->{t}" for s, t in kept.items())
        call_text = f"{uflag}.apply({script.flags_object}, {{{entries}}})"
        message = f"{main.name.value} starts with {call_text}"
        if skipped:
            message += f"; skipped (flag not defined by this script): {', '.join(skipped)}"
        self.record_edit(main, message)
        return new_tree


    def _maps_by_hand(self, tree: cst.Module, script: _entry_script.EntryScript,
                      mapping: Mapping[str, str]) -> bool:
        """Report, and True, if the script copies platform flags onto slim's itself."""
        finder = _HandMapping(script.bindings, mapping)
        tree.visit(finder)
        if not finder.found:
            return False
        done = [f"{source}->{target}" for source, target, _ in finder.found]
        left = [f"--{source}" for source in mapping
                if source not in {source for source, _, _ in finder.found}]
        fix = "nothing to do: the script's own mapping stays"
        if left:
            fix += (f"; it does not map {', '.join(left)}: set the slim flag from it the same "
                    "way if the platform passes it")
        self.needs_attention(
            finder.found[0][2], f"the script maps the platform flags onto slim's by hand "
            f"({', '.join(done)}); uflag.apply was not added", fix)
        return True


def _line_break(extra_indent: str) -> cst.ParenthesizedWhitespace:
    """A newline inside brackets, continuing at the block's indent plus ``extra_indent``."""
    return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(extra_indent))


def _apply_statement(
    uflag: str, flags_object: str, mapping: Mapping[str, str], quote: str
) -> cst.SimpleStatementLine:
    """``uflag.apply(FLAGS, {...})`` with one mapping entry per line."""
    entries = []
    for position, (source, target) in enumerate(mapping.items()):
        last = position == len(mapping) - 1
        entries.append(
            cst.DictElement(
                key=cst.SimpleString(f"{quote}{source}{quote}"),
                value=cst.SimpleString(f"{quote}{target}{quote}"),
                comma=cst.Comma(whitespace_after=_line_break("" if last else "    ")),
            )
        )
    table = cst.Dict(entries, lbrace=cst.LeftCurlyBrace(whitespace_after=_line_break("    ")))
    call = cst.Call(
        func=cst.Attribute(value=cst.Name(uflag), attr=cst.Name("apply")),
        args=[cst.Arg(cst.Name(flags_object)), cst.Arg(table)],
    )
    return cst.SimpleStatementLine(body=[cst.Expr(call)])
