"""Which names are TF1's flags and ``app.run``, where the port sends them, and which
uses the flags_to_absl codemod edits (read on the stdlib ``ast`` for its statement filter).

From TF 1.5 on ``tf.app.flags`` / ``tf.flags`` were absl's flags module re-exported and
``tf.app.run`` a thin wrapper of ``absl.app.run``. Flag names go to
``slim_ext.tf1_flags``, which stands in for the whole module (every ``absl.flags`` name
resolves there) and keeps what TF1's module did that absl's does not (a first read
parses ``sys.argv``; a flag may take a name absl or TensorFlow own); ``app`` names go to
``absl.app``. TensorFlow's own modules (``tensorflow.python.platform.flags``, the same
module as TF1's ``tf.flags``) still exist, and parse every flag of ``sys.argv`` on a
first read (pytest's ``-q`` fails them): TF1 code that reaches them gets the same port
(``internals=True``); TF2 code (TensorFlow's own) keeps them.
"""
from __future__ import annotations

from typing import List, Optional

from slim_facts.tf1_modules import (
    ABSL_APP,
    ABSL_FLAGS,
    TF1_FLAGS,
    TF_APP_MODULES,
    TF_FLAG_MODULES,
)
from slimport.analysis.names import Bindings, is_under

FLAGS_OBJECT = TF1_FLAGS + ".FLAGS"
# TensorFlow's own modules.
TF_INTERNALS = "tensorflow.python"
# Where a ported file's names already are: they map to themselves.
_PORTED_MODULES = (TF1_FLAGS, ABSL_FLAGS, ABSL_APP)


def ported_name(qualified: str, internals: bool = False) -> Optional[str]:
    """Where a TF1 flags/app name goes (names already there map to themselves).

    Args:
      qualified: a dotted name, e.g. ``tensorflow.app.flags.DEFINE_string``.
      internals: port TensorFlow's own modules too (``tensorflow.python.platform.flags``):
        in TF1 code, where they are TF1's ``tf.flags`` / ``tf.app``.

    Returns:
      ``slim_ext.tf1_flags.DEFINE_string``, ``absl.app.run``, ...; None for anything
      else.
    """
    if any(is_under(qualified, module) for module in _PORTED_MODULES):
        return qualified
    if is_under(qualified, TF_INTERNALS) and not internals:
        # TensorFlow's own modules still exist: TF2 code reaching for them (TensorFlow's
        # own) keeps them.
        return None
    # Flags first: tensorflow.app.flags is also under tensorflow.app.
    for modules, home in ((TF_FLAG_MODULES, TF1_FLAGS), (TF_APP_MODULES, ABSL_APP)):
        for module in modules:
            if is_under(qualified, module):
                return home + qualified[len(module) :]
    return None


def is_tf_name(qualified: Optional[str]) -> bool:
    """Whether ``qualified`` is a name under ``tensorflow``.

    Args:
      qualified: a qualified name, or None.

    Returns:
      True for ``tensorflow`` and the names inside it.
    """
    return qualified is not None and is_under(qualified, "tensorflow")


def is_define(ported: str) -> bool:
    """Whether a ported name is a ``DEFINE_*`` function of a flags module.

    Args:
      ported: a name as ``ported_name`` gives it.

    Returns:
      True for ``slim_ext.tf1_flags.DEFINE_string``, ``absl.flags.DEFINE_enum``, ...
    """
    return ported.startswith((TF1_FLAGS + ".DEFINE", ABSL_FLAGS + ".DEFINE"))


def through_alias(target: Optional[str], ported: str, internals: bool = False) -> bool:
    """True if a chain's first name, bound to ``target``, is (after this rewrite) bound
    to ``ported`` or a prefix of it.

    Args:
      target: what the chain's first name is bound to (None: nothing known).
      ported: the name the whole chain stands for after the port.
      internals: see ``ported_name``.

    Returns:
      True when the chain needs no rewrite: its first name already reaches it.
    """
    root = ported_name(target, internals) if target else None
    return root is not None and is_under(ported, root)


def flags_attribute(ported: str) -> Optional[str]:
    """``batch`` for ``slim_ext.tf1_flags.FLAGS.batch.x``: the attribute read off FLAGS.

    Args:
      ported: a name as ``ported_name`` gives it.

    Returns:
      The first attribute after ``slim_ext.tf1_flags.FLAGS``, or None for other names.
    """
    if not ported.startswith(FLAGS_OBJECT + "."):
        return None
    return ported[len(FLAGS_OBJECT) + 1 :].split(".")[0]


def touched_chain(bindings: Bindings, parts: List[str]) -> bool:
    """Whether the codemod edits or reports a use of the chain ``parts``.

    Mirrors ``visit_Attribute`` and ``visit_Call``: TF spellings of flags and app
    are rewritten, ``DEFINE_*`` and ``run`` calls are checked, private FLAGS
    attributes reported; ``FLAGS.batch_size`` through an alias stays as it is.

    Args:
      bindings: the file's bindings (``collect_bindings``).
      parts: the chain, split (``["tf", "app", "flags", "FLAGS"]``).

    Returns:
      True when a statement holding the chain must be in the skeleton (TensorFlow's own
      flags modules count: whether the file is TF1 code is known only later).
    """
    qualified = bindings.resolve_parts(parts)
    ported = ported_name(qualified, internals=True) if qualified else None
    if ported is None:
        return False
    if ported == ABSL_APP + ".run" or is_define(ported):
        return True
    if flags_attribute(ported) in ("__flags", "_parse_flags"):
        return True
    return is_tf_name(qualified) and not through_alias(bindings.names.get(parts[0]), ported,
                                                       internals=True)
