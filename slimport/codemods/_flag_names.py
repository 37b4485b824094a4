"""Which names are TF1's flags and ``app.run``, what absl calls them, and which uses
the flags_to_absl codemod edits (read on the stdlib ``ast`` for its statement filter).

From TF 1.5 on ``tf.app.flags`` / ``tf.flags`` were absl's flags module re-exported and
``tf.app.run`` a thin wrapper of ``absl.app.run``, so every qualified name maps
(``absl_equivalent``); TensorFlow's own modules (``tensorflow.python.platform.flags``)
still exist and are left to themselves.
"""
from __future__ import annotations

import ast
from typing import List, Optional

from slim_facts.tf1_modules import ABSL_APP, ABSL_FLAGS, TF_APP_MODULES, TF_FLAG_MODULES
from slimport.codemods._names import Bindings, is_under, nested_statements, statement_chains

FLAGS_OBJECT = ABSL_FLAGS + ".FLAGS"
_TF_INTERNALS = "tensorflow.python"
# FlagValues' own attributes: reading them never parsed the command line in TF1.
FLAG_VALUES_MEMBERS = frozenset({
    "is_parsed", "mark_as_parsed", "unparse_flags", "flag_values_dict", "get_flag_value",
    "set_default", "append_flag_values", "remove_flag_values", "get_help",
    "main_module_help", "module_help", "find_module_defining_flag", "get_key_flags_for_module",
    "key_flags_by_module_dict", "flags_by_module_dict", "read_flags_from_files",
    "register_flag_by_module", "validate_all_flags", "write_help_in_xml_format",
    "sys_argv", "_parse_flags", "__flags", "__dict__",
})


def absl_equivalent(qualified: str) -> Optional[str]:
    """The absl name for a TF1 flags/app name (absl names map to themselves).

    Args:
      qualified: a dotted name, e.g. ``tensorflow.app.flags.DEFINE_string``.

    Returns:
      ``absl.flags.DEFINE_string``, ``absl.app.run``, ...; None for anything else.
    """
    if is_under(qualified, ABSL_FLAGS) or is_under(qualified, ABSL_APP):
        return qualified
    if is_under(qualified, _TF_INTERNALS):
        # TensorFlow's own modules (tensorflow.python.platform.flags/app) still exist
        # and behave as they did: code reaching for them keeps working as it is.
        return None
    # Flags first: tensorflow.app.flags is also under tensorflow.app.
    for modules, absl_module in ((TF_FLAG_MODULES, ABSL_FLAGS), (TF_APP_MODULES, ABSL_APP)):
        for module in modules:
            if is_under(qualified, module):
                return absl_module + qualified[len(module) :]
    return None


def is_tf_name(qualified: Optional[str]) -> bool:
    """Whether ``qualified`` is a name under ``tensorflow``.

    Args:
      qualified: a qualified name, or None.

    Returns:
      True for ``tensorflow`` and the names inside it.
    """
    return qualified is not None and is_under(qualified, "tensorflow")


def through_alias(target: Optional[str], absl_name: str) -> bool:
    """True if a chain's first name, bound to ``target``, is (after this rewrite) bound
    to absl_name or a prefix of it.

    Args:
      target: what the chain's first name is bound to (None: nothing known).
      absl_name: the absl name the whole chain stands for.

    Returns:
      True when the chain needs no rewrite: its first name already reaches absl.
    """
    root_absl = absl_equivalent(target) if target else None
    return root_absl is not None and is_under(absl_name, root_absl)


def flags_attribute(absl_name: str) -> Optional[str]:
    """``batch`` for ``absl.flags.FLAGS.batch.x``: the attribute read off FLAGS, or None.

    Args:
      absl_name: an absl qualified name.

    Returns:
      The first attribute after ``absl.flags.FLAGS``, or None for other names.
    """
    if not absl_name.startswith(FLAGS_OBJECT + "."):
        return None
    return absl_name[len(FLAGS_OBJECT) + 1 :].split(".")[0]


def touched_chain(bindings: Bindings, parts: List[str]) -> bool:
    """Whether the codemod edits or reports a use of the chain ``parts``.

    Mirrors ``visit_Attribute`` and ``visit_Call``: TF spellings of flags and app
    are rewritten, ``DEFINE_*`` and ``run`` calls are checked, private FLAGS
    attributes reported; ``FLAGS.batch_size`` through an alias stays as it is.

    Args:
      bindings: the file's bindings (``collect_bindings``).
      parts: the chain, split (``["tf", "app", "flags", "FLAGS"]``).

    Returns:
      True when a statement holding the chain must be in the skeleton.
    """
    qualified = bindings.resolve_parts(parts)
    absl_name = absl_equivalent(qualified) if qualified else None
    if absl_name is None:
        return False
    if absl_name == ABSL_APP + ".run" or absl_name.startswith(ABSL_FLAGS + ".DEFINE"):
        return True
    if flags_attribute(absl_name) in ("__flags", "_parse_flags"):
        return True
    return is_tf_name(qualified) and not through_alias(bindings.names.get(parts[0]), absl_name)


def first_flag_read(definition: ast.stmt, bindings: Bindings) -> Optional[int]:
    """The id of the first statement of a module-level function that reads a flag
    through TF1's FLAGS; None for anything else.

    Args:
      definition: a module-level statement.
      bindings: the file's bindings.

    Returns:
      ``id()`` of the statement in ``definition``'s body that reads a flag first.
    """
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    for statement in nested_statements(definition.body):
        for parts in statement_chains(statement):
            qualified = bindings.resolve_parts(parts)
            absl_name = absl_equivalent(qualified) if qualified else None
            attribute = flags_attribute(absl_name) if absl_name else None
            if attribute is not None and attribute not in FLAG_VALUES_MEMBERS \
                    and is_tf_name(qualified):
                return id(statement)
    return None
