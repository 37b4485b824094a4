"""``[tool.slimport]`` in pyproject.toml: settings for ``slimport rewrite``, read the
way ruff reads ``[tool.ruff]``.

The table used is the one in the nearest pyproject.toml that has it, looking from the
directory holding every PATH (the current directory for ``-``) up to the root;
``--config FILE`` names the file instead (a TOML file with the same table) and
``--no-config`` reads none. Its keys are the long options in kebab-case, with the
option's own values, checked by the option's own type::

    [tool.slimport]
    exclude = ["third_party/*", "*_pb2.py"]
    max-size = "4M"
    skip = ["compat_v1"]                 # or "compat_v1,numpy_aliases", as on the command line
    map = { data_dir = "dataset_dir" }   # or ["data_dir=dataset_dir"]
    jobs = 2
    color = "never"
    verbose = true

The command line wins: an option given there replaces the key (a list too: ``--exclude
X`` replaces ``exclude``). What belongs to one run (``--out``, ``--force``, ``--diff``,
``--check``, ``--report``) cannot be set here; an unknown key, or one of those, is a
usage error naming the key and the file.
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI (a dependency there)
    import tomli as tomllib

PYPROJECT = "pyproject.toml"
# Long options of one run's own: never taken from a file.
_PER_RUN = ("out", "force", "diff", "check", "report", "config", "no-config", "help",
            "stdin-filename")


class ConfigError(Exception):
    """The settings file cannot be used; the message names the file (and the key)."""


@dataclass
class AppliedConfig:
    """Where the settings came from, and which keys were applied."""

    path: Optional[Path] = None
    applied: List[str] = field(default_factory=list)


def find(paths: Sequence[Path], cwd: Path) -> Optional[Path]:
    """The nearest pyproject.toml with a ``[tool.slimport]`` table, or None.

    Args:
      paths: the PATHs of the run (``-``: standard input, looked for from ``cwd``).
      cwd: the current directory.

    Returns:
      The file, looking from the deepest directory holding every PATH upwards.

    Raises:
      ConfigError: a pyproject.toml on the way cannot be read.
    """
    places = [cwd if str(path) == "-" else (cwd / path).absolute() for path in paths] or [cwd]
    directories = [place if place.is_dir() else place.parent for place in places]
    start = Path(os.path.commonpath([str(directory) for directory in directories]))
    for directory in (start, *start.parents):
        candidate = directory / PYPROJECT
        if candidate.is_file() and _table(candidate, required=False) is not None:
            return candidate
    return None


def _table(path: Path, required: bool) -> Optional[Dict[str, Any]]:
    try:
        with open(path, "rb") as handle:
            document = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}"
                          ) from None
    table = document.get("tool", {}).get("slimport")
    if table is None and required:
        raise ConfigError(f"{path} has no [tool.slimport] table")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.slimport is not a table")
    return table


def _long_options(parser: argparse.ArgumentParser) -> Dict[str, argparse.Action]:
    """kebab-case key -> the parser's action for ``--key``."""
    return {option[2:]: action for action in parser._actions
            for option in action.option_strings if option.startswith("--")}


def given_options(parser: argparse.ArgumentParser, argv: Sequence[str]) -> List[str]:
    """The dests of the options ``argv`` gives (parsed with every default suppressed).

    Args:
      parser: the ``slimport rewrite`` parser ``argv`` was parsed with.
      argv: the rewrite's own arguments (after ``rewrite``).

    Returns:
      The dests set on the command line.
    """
    defaults = [(action, action.default) for action in parser._actions]
    try:
        for action, _ in defaults:
            action.default = argparse.SUPPRESS
        return list(vars(parser.parse_args(argv)))
    finally:
        for action, default in defaults:
            action.default = default


def _values(key: str, value: Any, action: argparse.Action, path: Path) -> Any:
    """``value`` of ``key`` as the option's action would have stored it."""
    def fail(message: str) -> ConfigError:
        return ConfigError(f"{path}: [tool.slimport] {key}: {message}")

    def converted(item: Any) -> Any:
        if isinstance(item, (dict, list, bool)):
            raise fail(f"{item!r} is not a value of --{key}")
        text = str(item)
        if action.choices is not None and text not in action.choices:
            raise fail(f"{text!r} is not one of {', '.join(map(str, action.choices))}")
        try:
            return action.type(text) if action.type is not None else text
        except (argparse.ArgumentTypeError, ValueError) as error:
            raise fail(str(error)) from None

    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreConstAction)):
        if not isinstance(value, bool):
            raise fail(f"{value!r} is not true or false")
        return action.const if value else None
    if isinstance(action, (argparse._AppendAction, argparse._ExtendAction)):
        if isinstance(value, dict):  # map = { data_dir = "dataset_dir" }
            value = [f"{source}={target}" for source, target in value.items()]
        items = value if isinstance(value, list) else [value]
        stored = [converted(item) for item in items]
        if isinstance(action, argparse._ExtendAction):
            return [part for item in stored for part in item]
        return stored
    return converted(value)


def apply(args: argparse.Namespace, parser: argparse.ArgumentParser, argv: Sequence[str],
          paths: Sequence[Path], cwd: Path) -> AppliedConfig:
    """Fill ``args`` from the settings file, where the command line did not set them.

    Args:
      args: the parsed ``slimport rewrite`` arguments (``config``, ``no_config``).
      parser: the ``slimport rewrite`` parser.
      argv: the rewrite's own arguments, as given.
      paths: the files the run reads, to look for the settings from.
      cwd: the current directory.

    Returns:
      Where the settings came from and which keys were applied.

    Raises:
      ConfigError: the file cannot be read, or a key is unknown, per run, or has a
        value its option refuses.
    """
    if args.no_config:
        return AppliedConfig()
    path = args.config if args.config is not None else find(paths, cwd)
    if path is None:
        return AppliedConfig()
    table = _table(path, required=True) or {}
    options = _long_options(parser)
    given = set(given_options(parser, argv))
    settings = AppliedConfig(path)
    for key, value in table.items():
        action = options.get(key)
        if action is None or key in _PER_RUN:
            raise ConfigError(_unknown(key, path, options))
        if action.dest in given:
            continue  # the command line wins
        stored = _values(key, value, action, path)
        if stored is not None:
            setattr(args, action.dest, stored)
            settings.applied.append(key)
    return settings


def _unknown(key: str, path: Path, options: Iterable[str]) -> str:
    if key in _PER_RUN:
        return (f"{path}: [tool.slimport] {key}: --{key} belongs to one run; give it on "
                f"the command line")
    known = sorted(option for option in options if option not in _PER_RUN)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (f"{path}: [tool.slimport] has an unknown key {key!r}{hint}; the keys are "
            f"{', '.join(known)}")
