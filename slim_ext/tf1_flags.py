"""TF1's ``tf.app.flags`` on absl: flags parse on first read, and keep names absl owns.

A TF1 script defined and read its flags through ``tf.app.flags``. Two of its
behaviours are not plain ``absl.flags``'s; this module, a stand-in for the
whole ``tf.app.flags`` module (every ``absl.flags`` name resolves here),
keeps both.

**Parse on first read.** ``tf.app.flags.FLAGS.x`` parsed ``sys.argv`` itself
when a flag was read before anybody had parsed: TF 1.4 with argparse's
``parse_known_args`` (flags it does not define are left alone), TF 1.5-1.15
(and ``tf.compat.v1.flags`` today) with absl's full parse, where an unknown
flag is an error. absl's own ``FLAGS.x`` raises ``UnparsedFlagAccessError``
instead, e.g. under pytest, which never calls ``app.run``. ``FLAGS`` here
parses ``sys.argv`` on the first read of a flag, known flags only, as TF 1.4
did and as ported entry scripts do (platforms add flags of their own).
When that command line is not the program's own (``foreign_command_line()``:
the main program is an installed tool such as pytest, ``python -m unittest``
or a Jupyter kernel) and it does not parse -- pytest's ``-v tests/`` reads as
absl's ``--v`` with a bad value -- every flag keeps its default and a warning
says so. On the program's own command line the error is raised, as TF1
raised it.

**Names libraries own.** TF 1.4's flags knew only the program's flags. Today
absl (``absl.app``, ``absl.logging``, ``absl.testing.absltest``, the help
flags ``app.run`` adds, and its parser's ``--flagfile``/``--undefok``) and
TensorFlow define flags in the same ``FLAGS``, so a TF1 script that defines
``--log_dir`` or ``--v`` dies with ``DuplicateFlagError``. Defined through
this module, in any module and in any import order, the script's flag takes
the name over: its default, type, help and command line are the script's,
and ``FLAGS.log_dir`` reads it. What the library then sees:

* absl keeps its own flag for its own use: ``absl.app``, ``absl.logging``
  and ``absl.testing.absltest`` read their flags through the module-level
  ``FLAGS`` and flag holders, which are pointed at a view where each name a
  script took resolves to absl's original flag. That flag no longer comes
  from the command line, so it keeps its default or what absl itself sets:
  absl.logging writes log files (only when a program calls
  ``use_absl_log_file``) where it would without ``--log_dir``; ``app.run``
  still raises its own verbosity to INFO and leaves the script's
  ``--verbosity`` alone; a script's ``--profile_file`` or ``--run_with_pdb``
  does not start absl's profiler or debugger.
* ``--flagfile`` and ``--undefok`` taken by a script are its flags:
  ``parse`` (and ``FLAGS(argv)``) hands them to the script's flags instead
  of letting absl's parser read flag files or skip flags.
* TensorFlow's own flags (a few TPU and ``pfor`` debugging switches) are
  read by name, so TensorFlow then reads the script's value.

A name a module of the program itself defined stays absl's rule: defining it
again elsewhere is a ``DuplicateFlagError``, as it was in TF1.

Usage, in place of ``tf.app.flags``::

  from slim_ext import tf1_flags as flags
  flags.DEFINE_string('log_dir', '/data/output', 'Where the job logs.')
  FLAGS = flags.FLAGS
"""
from __future__ import annotations

import functools
import inspect
import os
import site
import sys
import sysconfig
from typing import Any, Callable, Dict, Iterator, List, Sequence

from absl import app as absl_app
from absl import flags as absl_flags
from absl import logging as absl_logging
from absl.testing import absltest

# Definitions made through this module belong to the module that calls it.
absl_flags.disclaim_key_flags()

# Packages whose flags a TF1 program never saw: TF 1.4's argparse flags held
# only the program's own.
LIBRARY_PACKAGES = ("absl", "tensorflow")
# Flags absl defines only when app.run starts (absl.app.define_help_flags).
HELP_FLAGS = frozenset({"help", "?", "helpshort", "helpfull", "helpxml",
                        "only_check_flags"})
# Flags absl's parser reads itself, before it looks a flag up in FLAGS.
PARSER_FLAGS = frozenset({"flagfile", "undefok"})
# absl's modules that read their own flags through a module-level FLAGS and
# flag holders; imported above, so their flags exist before any script's.
_ABSL_FLAG_READERS = (absl_app, absl_logging, absltest)

# TF 1.15's tf.flags took the pre-absl keyword names too.
_TF1_KEYWORDS = {"flag_name": "name", "default_value": "default",
                 "docstring": "help"}

# Name a script took over -> a FlagValues holding absl's original flag of that
# name, kept for absl's own use (one per flag: `verbosity` and its short name
# `v` share one).
_absl_own: Dict[str, absl_flags.FlagValues] = {}


class TF1FlagValues:
  """absl's ``FlagValues`` as TF1's ``tf.app.flags.FLAGS``.

  Reading a flag (``FLAGS.x``) before the flags were parsed parses
  ``sys.argv`` first (see the module docstring); calling it (``FLAGS(argv)``)
  parses with ``parse``. Everything else is the wrapped ``FlagValues``'s.
  """

  def __init__(self, flag_values: absl_flags.FlagValues):
    object.__setattr__(self, "_flag_values", flag_values)

  def __getattr__(self, name: str) -> Any:
    # Through __dict__: copy and pickle probe attributes before __init__ ran.
    flag_values = self.__dict__.get("_flag_values")
    if flag_values is None:
      raise AttributeError(name)
    if name in flag_values and not flag_values.is_parsed():
      _parse_on_first_read(flag_values)
    return getattr(flag_values, name)

  def __setattr__(self, name: str, value: Any) -> None:
    setattr(self._flag_values, name, value)

  def __delattr__(self, name: str) -> None:
    delattr(self._flag_values, name)

  def __getitem__(self, name: str) -> absl_flags.Flag:
    return self._flag_values[name]

  def __setitem__(self, name: str, flag: absl_flags.Flag) -> None:
    self._flag_values[name] = flag

  def __contains__(self, name: str) -> bool:
    return name in self._flag_values

  def __iter__(self) -> Iterator[str]:
    return iter(self._flag_values)

  def __len__(self) -> int:
    return len(self._flag_values)

  def __dir__(self) -> List[str]:
    return dir(self._flag_values)

  def __str__(self) -> str:
    return str(self._flag_values)

  def __call__(self, argv: Sequence[str], known_only: bool = False) -> List[str]:
    return parse(argv, known_only, self._flag_values)


FLAGS = TF1FlagValues(absl_flags.FLAGS)


def _unwrap(flag_values: Any) -> absl_flags.FlagValues:
  if isinstance(flag_values, TF1FlagValues):
    return flag_values._flag_values  # pylint: disable=protected-access
  return flag_values


def _within(path: str, root: str) -> bool:
  root = os.path.realpath(root)
  return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def foreign_command_line() -> bool:
  """Whether ``sys.argv`` belongs to a program other than the one being ported.

  It does when the main module is an installed tool -- its file lies in the
  interpreter's standard library, site-packages or scripts directory (pytest,
  ``python -m unittest``, a Jupyter kernel) -- or has no file (``python -c``,
  pytest-xdist's workers).

  Returns:
    True when the command line is not the ported program's own.
  """
  main_file = getattr(sys.modules.get("__main__"), "__file__", None)
  if not main_file:
    return True
  main_file = os.path.realpath(main_file)
  paths = sysconfig.get_paths()
  roots = [paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib",
                                  "scripts") if key in paths]
  roots += site.getsitepackages() + [site.getusersitepackages()]
  return any(_within(main_file, root) for root in roots)


def _parse_on_first_read(flag_values: absl_flags.FlagValues) -> None:
  """Parses ``sys.argv`` (known flags only) the way TF1's FLAGS did on a read."""
  argv = list(sys.argv) or [""]
  try:
    parse(argv, known_only=True, flag_values=flag_values)
  except absl_flags.Error as error:
    if not foreign_command_line():
      raise
    flag_values.unparse_flags()
    flag_values.mark_as_parsed()
    absl_logging.warning(
        "tf1_flags: the command line %s is %s's, not this program's, and "
        "does not parse as its flags (%s); every flag keeps its default.",
        argv, os.path.basename(argv[0]) or "the interpreter", error)


def _take_parser_flag_args(argv: Sequence[str], names: Sequence[str],
                           flag_values: absl_flags.FlagValues) -> List[str]:
  """Parses the script's own --flagfile/--undefok out of `argv`; the rest."""
  rest = [argv[0]]
  args = iter(argv[1:])
  for arg in args:
    if arg == "--":
      rest.append(arg)
      rest.extend(args)
      break
    name, has_value, value = arg.lstrip("-").partition("=")
    flag = None
    if arg.startswith("-") and name in names:
      flag = flag_values[name]
    elif (arg.startswith("-") and name[2:] in names and name.startswith("no")
          and flag_values[name[2:]].boolean and not has_value):
      flag, has_value, value = flag_values[name[2:]], "=", "false"
    if flag is None:
      rest.append(arg)
      continue
    if not has_value:
      value = "true" if flag.boolean else next(args, None)
      if value is None:
        raise absl_flags.Error(f"Missing value for flag {arg}")
    flag.parse(value)
    flag.using_default_value = False
  return rest


def parse(argv: Sequence[str], known_only: bool = False,
          flag_values: Any = absl_flags.FLAGS) -> List[str]:
  """Parses `argv` into the flags, as ``FlagValues.__call__`` does.

  The one difference: a ``--flagfile`` or ``--undefok`` the program defined
  itself is parsed as its flag, not read by absl's parser.

  Args:
    argv: the command line, program name first.
    known_only: leave flags that are not defined in the returned list instead
      of raising ``UnrecognizedFlagError``.
    flag_values: the flags; absl's global FLAGS by default.

  Returns:
    The arguments not parsed as flags, program name first.

  Raises:
    absl.flags.Error: a flag's value is invalid, a value is missing, or
      (without `known_only`) a flag is unknown.
  """
  flag_values = _unwrap(flag_values)
  own_parser_flags = [name for name in PARSER_FLAGS if name in flag_values]
  if own_parser_flags and argv:
    argv = _take_parser_flag_args(argv, own_parser_flags, flag_values)
  return flag_values(argv, known_only=known_only)


def _defining_package(name: str, flag_values: absl_flags.FlagValues) -> str:
  module = flag_values.find_module_defining_flag(name) or ""
  return module.split(".", 1)[0]


def library_owns(name: str, flag_values: Any = absl_flags.FLAGS) -> bool:
  """Whether a library (absl, TensorFlow), not the program, owns flag `name`.

  Args:
    name: a flag name (or short name).
    flag_values: the flags; absl's global FLAGS by default.

  Returns:
    True for a flag a module of absl or TensorFlow defined, absl's parser
    flags (``--flagfile``, ``--undefok``) unless the program defined one, and
    on absl's global FLAGS the help flags ``app.run`` adds.
  """
  flag_values = _unwrap(flag_values)
  if name in flag_values:
    return _defining_package(name, flag_values) in LIBRARY_PACKAGES
  return name in PARSER_FLAGS or (name in HELP_FLAGS and
                                  flag_values is absl_flags.FLAGS)


class _AbslView:
  """absl.flags.FLAGS as absl's own modules see it once a script took names.

  A name taken over resolves to absl's original flag; everything else, and
  parsing, is the global FLAGS's.
  """

  def _holder(self, name: str) -> absl_flags.FlagValues:
    return _absl_own.get(name, absl_flags.FLAGS)

  def __getattr__(self, name: str) -> Any:
    return getattr(self._holder(name), name)

  def __setattr__(self, name: str, value: Any) -> None:
    setattr(self._holder(name), name, value)

  def __getitem__(self, name: str) -> absl_flags.Flag:
    return self._holder(name)[name]

  def __contains__(self, name: str) -> bool:
    return name in absl_flags.FLAGS or name in _absl_own

  def __iter__(self) -> Iterator[str]:
    return iter(absl_flags.FLAGS)

  def __len__(self) -> int:
    return len(absl_flags.FLAGS)

  def set_default(self, name: str, value: Any) -> None:
    self._holder(name).set_default(name, value)

  def __call__(self, argv: Sequence[str], known_only: bool = False) -> List[str]:
    return parse(argv, known_only)


_ABSL_VIEW = _AbslView()


def _keep_for_absl(name: str, flag: absl_flags.Flag) -> None:
  """Points absl's own reads of `name` at absl's `flag` (see _AbslView)."""
  kept = next((flag_values for flag_values in _absl_own.values()
               if flag.name in flag_values
               and flag_values[flag.name] is flag), None)
  if kept is None:
    kept = absl_flags.FlagValues()
    kept[flag.name] = flag
    kept.mark_as_parsed()
  _absl_own[name] = kept
  for module in _ABSL_FLAG_READERS:
    if getattr(module, "FLAGS", None) is absl_flags.FLAGS:
      module.FLAGS = _ABSL_VIEW
    for attribute, value in vars(module).items():
      if isinstance(value, absl_flags.FlagHolder) and value.name == name:
        setattr(module, attribute, absl_flags.FlagHolder(kept, flag))


def _make_room(name: str, flag_values: absl_flags.FlagValues) -> None:
  """Takes flag name `name` from the library that owns it, if one does."""
  if name in HELP_FLAGS and flag_values is absl_flags.FLAGS:
    # Defined now, so that app.run's own (idempotent) call adds nothing later.
    absl_app.define_help_flags()
  if name not in flag_values or not library_owns(name, flag_values):
    return
  package = _defining_package(name, flag_values)
  flag = flag_values[name]
  delattr(flag_values, name)
  if package == "absl" and flag_values is absl_flags.FLAGS:
    _keep_for_absl(name, flag)
  absl_logging.debug("tf1_flags: --%s is now the program's, not %s's.", name,
                     package)


def _tf1_define(absl_define: Callable[..., Any]) -> Callable[..., Any]:
  """absl's `absl_define`, also taking TF1's keywords and names libraries own."""
  signature = inspect.signature(absl_define)

  @functools.wraps(absl_define)
  def define(*args, **kwargs):
    for tf1_keyword, keyword in _TF1_KEYWORDS.items():
      if tf1_keyword in kwargs:
        kwargs[keyword] = kwargs.pop(tf1_keyword)
    call = signature.bind(*args, **kwargs)
    arguments = call.arguments
    flag_values = _unwrap(arguments.get("flag_values", absl_flags.FLAGS))
    arguments["flag_values"] = flag_values
    flag = arguments.get("flag")  # DEFINE_flag's
    if flag is not None:
      names = [flag.name, flag.short_name]
    else:
      names = [arguments.get("name"),
               arguments.get("args", {}).get("short_name")]
    for name in filter(None, names):
      _make_room(name, flag_values)
    return absl_define(*call.args, **call.kwargs)

  return define


for _name in absl_flags.__all__:
  if _name.startswith("DEFINE"):
    globals()[_name] = _tf1_define(getattr(absl_flags, _name))
del _name


def __getattr__(name: str) -> Any:
  """Every other ``absl.flags`` name, as ``tf.app.flags`` re-exported them."""
  return getattr(absl_flags, name)
