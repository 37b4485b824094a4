"""The flags ``slim_ext.run`` reads: clones per worker and this task's place in a cluster.

run() may be called at module level, with no ``absl.app.run`` (MoXing scripts are
written that way): it reads ``--num_gpus`` and the cluster flags from ``sys.argv``
itself whenever absl has not given them a value (``command_line_flags``).
"""
from __future__ import annotations

import sys
from typing import Optional, Sequence

from absl import flags

from slim_ext import cluster
from slim_ext import uflag
from slim_facts import cluster_flags

NUM_GPUS_FLAG = "num_gpus"
RUN_FLAGS = (NUM_GPUS_FLAG,
             *(name for name, _, _ in cluster_flags.CLUSTER_STRING_FLAGS),
             cluster_flags.CLUSTER_TASK_INDEX_FLAG[0])


def command_line_flags(argv: Optional[Sequence[str]] = None
                       ) -> flags.FlagValues:
  """--num_gpus and the cluster flags this process was started with.

  A flag that already has a value in absl's FLAGS (parsed by ``app.run``,
  or set by the script) keeps it. Any other is read from `argv` here: a
  module-level script has no ``app.run``, and a script that read its own
  flags before importing slim_ext had them parsed before these existed.

  Args:
    argv: the command line, program name first; ``sys.argv`` by default.
      Flags other than these are ignored.

  Returns:
    A FlagValues with exactly RUN_FLAGS, parsed.

  Raises:
    absl.flags.IllegalFlagValueError: one of them has an invalid value
      (e.g. ``--num_gpus=two``).
  """
  run_flags = flags.FlagValues()
  uflag.define_flags(run_flags)
  cluster.define_flags(run_flags)
  for name in set(run_flags) - set(RUN_FLAGS):  # the other platform flags
    delattr(run_flags, name)
  run_flags(list(sys.argv if argv is None else argv), known_only=True)
  given = flags.FLAGS
  for name in RUN_FLAGS:
    if name in given and not given[name].using_default_value:
      setattr(run_flags, name, given[name].value)
  return run_flags


def num_clones_from(run_flags: flags.FlagValues) -> int:
  """--num_gpus when positive, else 1."""
  return max(1, int(run_flags[NUM_GPUS_FLAG].value or 0))
