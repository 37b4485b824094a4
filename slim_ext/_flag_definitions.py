"""Defining flags from the (name, default, help) tables of ``slim_facts``.

``slim_ext.uflag`` (the platform flags) and ``slim_ext.cluster`` (the MoXing
cluster flags) both define flags this way at import: only those missing, and with
``allow_override``, so a script that defines one of them itself, before or after
importing slim_ext, keeps its own definition instead of a DuplicateFlagError.
A name a library owns (absl.logging's ``--log_dir``) is taken over, as TF1 scripts
meant it (``slim_ext.tf1_flags``).
"""
from typing import Iterable, Optional, Tuple

from absl import flags

from slim_ext import tf1_flags

FlagSpec = Tuple[str, object, str]


def define_missing(flag_values: flags.FlagValues, module_name: str,
                   string_flags: Iterable[FlagSpec] = (),
                   integer_flags: Iterable[FlagSpec] = (),
                   lower_bound: Optional[int] = None) -> None:
  """Defines each flag of the tables that `flag_values` does not have yet.

  Args:
    flag_values: where to define them.
    module_name: the module the flags belong to (``--helpfull`` groups them
      under it; absl would otherwise name this helper).
    string_flags: (name, default, help) of string flags.
    integer_flags: (name, default, help) of integer flags.
    lower_bound: the smallest value the integer flags accept; None: any.
  """
  for name, default, help_text in string_flags:
    if _may_define(name, flag_values):
      tf1_flags.DEFINE_string(name, default, help_text,
                              flag_values=flag_values, allow_override=True,
                              module_name=module_name)
  for name, default, help_text in integer_flags:
    if _may_define(name, flag_values):
      tf1_flags.DEFINE_integer(name, default, help_text,
                               lower_bound=lower_bound,
                               flag_values=flag_values, allow_override=True,
                               module_name=module_name)


def _may_define(name: str, flag_values: flags.FlagValues) -> bool:
  """A flag of the script's own stays; one a library owns is taken over."""
  return name not in flag_values or tf1_flags.library_owns(name, flag_values)
