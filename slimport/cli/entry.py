"""The ``slimport`` command: parse, dispatch, exit code.

``slimport rewrite`` is ``slimport.cli.rewrite`` (``slimport.cli.stdin`` for ``-``);
``slimport doctor`` and ``slimport verify`` are ``slimport.cli.runtime_commands``;
``slimport list`` prints the codemod registry. The parser is ``slimport.cli.arguments``,
``[tool.slimport]`` is read by ``slimport.cli.config``.

Whatever happens, the command ends with an exit code and a message, never a
traceback: 0 done, 1 for ``--check`` / ``--diff`` when a file would change, 2 for
usage errors and files that could not be ported, 130 on Ctrl-C.
"""
from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import Optional, Sequence

from slimport.cli import arguments
from slimport.cli import config
from slimport.cli import rewrite
from slimport.cli import runtime_commands
from slimport.output import summary
from slimport.engine.run import NO_OBSERVER, RunObserver
from slimport.cli.exit_codes import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK


def _list() -> int:
    from slimport import codemods as registry

    width = max(len(codemod.NAME) for codemod in registry.CODEMODS)
    for codemod in registry.CODEMODS:
        line = f"{codemod.NAME:<{width}}  {codemod.DESCRIPTION}"
        options = getattr(codemod, "OPTIONS", ())
        if options:
            line += f" (options: {', '.join(options)})"
        print(line)
    return EXIT_OK


def _interrupted(args: argparse.Namespace) -> int:
    if args.command != "rewrite":
        print(f"\nslimport {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if getattr(args, "diff", False) or getattr(args, "check", False):
        state = "nothing was written"
    elif getattr(args, "out", None) is not None:
        state = f"{args.out} is incomplete: run the same command again with --force"
    else:
        state = ("every file is whole, as it was or ported: run the same command again "
                 "to finish")
    print(f"\nslimport: interrupted; {state}", file=sys.stderr)
    return EXIT_INTERRUPTED


def _with_settings(args: argparse.Namespace, argv: Sequence[str]) -> None:
    """``slimport rewrite``'s arguments completed from ``[tool.slimport]``."""
    paths = [args.stdin_filename] if args.stdin_filename is not None else args.paths
    try:
        found = config.apply(args, args.parser, argv[argv.index("rewrite") + 1:], paths,
                             Path.cwd())
    except config.ConfigError as error:
        args.usage_error(str(error))
    if "cache-dir" in found.applied and not args.cache_dir.is_absolute():
        # A path in the settings file is the file's, wherever the command runs.
        args.cache_dir = found.path.parent / args.cache_dir
    if found.path is not None and args.verbosity >= summary.VERBOSE:
        print(f"slimport: settings from {found.path} [tool.slimport]: "
              f"{', '.join(found.applied) or 'none applied (the command line gives them)'}",
              file=sys.stderr)


def main(argv: Optional[Sequence[str]] = None,
         observer: RunObserver = NO_OBSERVER) -> int:
    """Run ``slimport`` with ``argv``; returns the exit code.

    Args:
      argv: the arguments (default: the process's).
      observer: told of a rewrite's steps (``slimport.engine.RunObserver``).

    Returns:
      The exit code.
    """
    parser = arguments.build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    try:
        if args.command == "rewrite":
            _with_settings(args, argv)
            return rewrite.rewrite_command(args, observer)
        if args.command == "list":
            return _list()
        if args.command == "verify":
            return runtime_commands.verify(args)
        return runtime_commands.doctor(args.verbose)
    except KeyboardInterrupt:
        return _interrupted(args)
    except Exception as error:  # a bug: say so in one line; -v shows where
        if getattr(args, "verbosity", summary.NORMAL) >= summary.VERBOSE:
            traceback.print_exc()
        print(f"slimport: internal error: {type(error).__name__}: {error}; please report "
              f"it (run with -v for the traceback)", file=sys.stderr)
        return EXIT_FAILED
