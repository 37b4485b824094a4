"""The platform flag contract: platform flags mapped onto a slim script's flags.

A training platform starts every job with the same flags, whatever the script
calls them. Importing this module defines them on ``absl.flags.FLAGS``:

  ==============  =======  =============  =======================================
  flag            type     default        meaning
  ==============  =======  =============  =======================================
  --work_dir      string   /data          root of the job's files
  --data_dir      string   /data/data     input data (slim: --dataset_dir)
  --output_dir    string   /data/output   checkpoints and summaries
                                          (slim: --train_dir, or
                                          --checkpoint_path for evaluation)
  --log_dir       string   /data/output   logs and eval summaries
                                          (slim eval: --eval_dir)
  --num_gpus      integer  0              GPUs per task (slim: --num_clones)
  --max_step      integer  0              steps to train, 0 = no limit
                                          (slim: --max_number_of_steps)
  ==============  =======  =============  =======================================

The defaults are the platform SDK's own, so code written against the SDK reads
the same values. They never reach a slim flag: ``apply`` copies a platform flag
only when it was given on the command line, so running a script by hand with
``--dataset_dir`` keeps working.

Each flag is defined only if the script has no flag of that name yet, and with
``allow_override``, so a script that defines, say, its own ``--data_dir`` after
importing this module keeps its definition instead of failing with a
DuplicateFlagError. A flag of that name absl defined (absl.logging's
``--log_dir``) is taken over (``slim_ext.tf1_flags``), so ``FLAGS.log_dir``
reads the platform's value.

Usage, as the first statement of ``main``::

  from slim_ext import uflag
  def main(_):
    uflag.apply(FLAGS, uflag.TRAIN_MAPPING)

Two platform flags convert their value on the way:

* ``--num_gpus=N`` with N > 0 sets ``num_clones=N``. ``--num_gpus=0`` means the
  task has no GPU: ``num_clones`` is left as it is (several clones can share
  the CPU) and ``clone_on_cpu`` is set to True when the script defines it, so
  model_deploy places the clones on ``/device:CPU:0``.
* ``--max_step=0`` means "no limit", which slim spells
  ``max_number_of_steps=None``; a positive value is copied as is.

Before returning, ``apply`` checks that the directories the job will write
(slim's ``--train_dir`` / ``--eval_dir``, whichever the mapping targets) can be
created and written, so a bad ``--output_dir`` fails at once with a usage
error naming the flag and the path, not after minutes of graph building.
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any, Dict, List, Mapping, Tuple

from absl import app
from absl import flags
from absl import logging

from slim_ext import _flag_definitions
from slim_facts import platform_flags

TRAIN_MAPPING: Mapping[str, str] = platform_flags.TRAIN_MAPPING
EVAL_MAPPING: Mapping[str, str] = platform_flags.EVAL_MAPPING

# The flag num_gpus=0 turns on, besides (or instead of) its mapped target.
CLONE_ON_CPU = "clone_on_cpu"

# Slim flags naming directories a job writes (checkpoints, summaries); apply
# checks them. --checkpoint_path is only read, so it is not among them.
WRITTEN_DIR_FLAGS = ("train_dir", "eval_dir")


class OutputDirError(app.UsageError, ValueError):
  """A directory the job writes cannot be created or written.

  A UsageError, so ``absl.app.run`` prints it with the usage line and exits 1
  before any training starts.
  """


class FlagConflictError(app.UsageError, ValueError):
  """A platform flag and the slim flag it maps onto were both given, differently.

  A UsageError, so ``absl.app.run`` prints it with the usage line and exits 1;
  also a ValueError for callers outside ``app.run``.
  """


@dataclasses.dataclass(frozen=True)
class ApplyResult:
  """What ``apply`` did.

  Attributes:
    copied: slim flag name -> the value it now has, for every flag set.
    skipped: (platform flag, slim flag) pairs whose platform flag was given but
      whose slim flag the script does not define.
  """
  copied: Dict[str, Any]
  skipped: Tuple[Tuple[str, str], ...]


def define_flags(flag_values: flags.FlagValues = flags.FLAGS) -> None:
  """Defines the platform flags on `flag_values`, skipping the script's own.

  A flag of that name a library defined (absl.logging's --log_dir) is
  replaced, as a TF1 flag is (``slim_ext.tf1_flags``): ``FLAGS.log_dir``
  is the platform's, default /data/output.

  Args:
    flag_values: where to define them; absl's global FLAGS by default.
  """
  _flag_definitions.define_missing(
      flag_values, __name__, platform_flags.PLATFORM_STRING_FLAGS,
      platform_flags.PLATFORM_INTEGER_FLAGS, lower_bound=0)


def _assignments(platform_name: str, value: Any,
                 target: str) -> List[Tuple[str, Any]]:
  """The (slim flag, value) pairs one given platform flag stands for."""
  if platform_name == "num_gpus":
    if value > 0:
      return [(target, value)]
    return [(CLONE_ON_CPU, True)]
  if platform_name == "max_step":
    return [(target, value if value > 0 else None)]
  return [(target, value)]


def _unwritable_reason(path: str) -> str:
  """Why the directory `path` cannot be created and written; "" when it can.

  Nothing is created: the nearest existing ancestor decides (as root, write
  permission is almost always granted, so a FILE in the way is the usual
  cause).
  """
  if "://" in path:  # gs://, hdfs://: TensorFlow's file systems, not ours.
    return ""
  absolute = os.path.abspath(path)
  if os.path.isdir(absolute):
    if not os.access(absolute, os.W_OK | os.X_OK):
      return "the directory is not writable"
    return ""
  if os.path.lexists(absolute):
    return "it exists and is not a directory"
  ancestor = os.path.dirname(absolute)
  while not os.path.lexists(ancestor):
    ancestor = os.path.dirname(ancestor)
  if not os.path.isdir(ancestor):
    return f"{ancestor} is a file, so no directory can be created under it"
  if not os.access(ancestor, os.W_OK | os.X_OK):
    return f"{ancestor} is not writable, so it cannot be created"
  return ""


def _check_written_dirs(flag_values: flags.FlagValues,
                        mapping: Mapping[str, str]) -> None:
  """Raises OutputDirError for a mapped output directory that cannot be written."""
  given_by = {target: name for name, target in mapping.items()
              if name in flag_values and flag_values[name].present}
  for slim_name in dict.fromkeys(mapping.values()):
    if slim_name not in WRITTEN_DIR_FLAGS or slim_name not in flag_values:
      continue
    path = flag_values[slim_name].value
    if not path:
      continue
    reason = _unwritable_reason(path)
    if not reason:
      continue
    platform_name = given_by.get(slim_name)
    where = (f"--{platform_name}={path} (copied to --{slim_name})"
             if platform_name else f"--{slim_name}={path}")
    raise OutputDirError(
        f"{where}: cannot write checkpoints or summaries there: {reason}; "
        "give a directory that exists or can be created.")


def apply(flag_values: flags.FlagValues,
          mapping: Mapping[str, str] = TRAIN_MAPPING) -> ApplyResult:
  """Copies the platform flags given on the command line onto slim's flags.

  Call it after flags are parsed (first thing in ``main``). A platform flag
  that was not given changes nothing; a slim flag the script does not define
  is skipped and logged.

  Args:
    flag_values: the parsed flags, usually ``absl.flags.FLAGS``.
    mapping: platform flag name -> slim flag name, e.g. TRAIN_MAPPING or
      EVAL_MAPPING.

  Returns:
    An ApplyResult listing the flags set and the targets skipped.

  Raises:
    ValueError: `mapping` names a platform flag that is not defined.
    FlagConflictError: a platform flag and its slim flag were both given on
      the command line with different values.
    OutputDirError: a mapped directory the job writes (--train_dir,
      --eval_dir) cannot be created or written.
  """
  copied: Dict[str, Any] = {}
  skipped: List[Tuple[str, str]] = []
  for platform_name, target in mapping.items():
    if platform_name not in flag_values:
      raise ValueError(
          f"uflag.apply: the mapping names platform flag --{platform_name}, "
          "which is not defined; import slim_ext.uflag before parsing flags, "
          "or remove it from the mapping.")
    platform_flag = flag_values[platform_name]
    if not platform_flag.present:
      continue
    for slim_name, value in _assignments(platform_name, platform_flag.value,
                                         target):
      if slim_name not in flag_values:
        skipped.append((platform_name, slim_name))
        logging.info("uflag: --%s given, but this script has no --%s; "
                     "nothing to set.", platform_name, slim_name)
        continue
      slim_flag = flag_values[slim_name]
      if slim_flag.present and slim_flag.value != value:
        raise FlagConflictError(
            f"--{platform_name}={platform_flag.value} and "
            f"--{slim_name}={slim_flag.value} were both given and disagree "
            f"(--{platform_name} means --{slim_name}={value}); give only one "
            "of them.")
      setattr(flag_values, slim_name, value)
      copied[slim_name] = value
  if copied:
    logging.info("uflag: set %s from platform flags.", ", ".join(
        f"--{name}={value}" for name, value in copied.items()))
  _check_written_dirs(flag_values, mapping)
  return ApplyResult(copied=copied, skipped=tuple(skipped))


define_flags()
