"""``slimport rewrite -``: port standard input to standard output, for editors and
pipelines (``slimport rewrite - < train.py > train_tf2.py``).

The bytes go through as they are (encoding, BOM, line endings). Standard output gets
the ported file, or with ``--diff`` its diff, with ``--check`` nothing; a file that
cannot be ported comes out unchanged (exit 2), so what is written is always a whole
file. The summary goes to standard error; ``--stdin-filename`` names the file there
and is where ``[tool.slimport]`` is looked for from.
"""
from __future__ import annotations

import argparse
import sys
from typing import List

from slimport import engine, exit_codes, flag_mapping, report
from slimport.diffs import colored_diff, use_color
from slimport.report import CHANGED, FAILED
from slimport.summary import summary_text
from slimport.writing import port_data

STDIN = "-"


def run(args: argparse.Namespace, settings: engine.Settings, warnings: List[str]) -> int:
    """Port standard input as ``args`` and ``settings`` say; returns the exit code."""
    if args.out is not None:
        args.usage_error("--out writes a tree; with - the ported file goes to standard output")
    if len(args.paths) != 1:
        args.usage_error("- (standard input) cannot be given with other PATHs")
    display = str(args.stdin_filename) if args.stdin_filename is not None else "<stdin>"
    if args.report is not None:
        try:
            engine.check_report_path(args.report, engine.Plan(), None)
        except engine.UsageError as error:
            args.usage_error(str(error))
    data = sys.stdin.buffer.read()
    if settings.codemod_options and not warnings:
        warnings += flag_mapping.undefined_targets(settings.codemod_options["mapping"],
                                                   [data.decode("utf-8", "replace")])
    result, ported = port_data(data, display, display, settings, written=settings.write)
    dry_run = args.diff or args.check
    if args.diff:
        sys.stdout.write(colored_diff(result.diff) if use_color(sys.stdout, args.color)
                         else result.diff)
    elif not args.check:
        sys.stdout.buffer.write(ported.data if result.status == CHANGED else data)
    sys.stdout.flush()
    mode = "check" if args.check else "diff" if args.diff else "stdin"
    exit_code = exit_codes.EXIT_OK
    if result.status == FAILED:
        exit_code = exit_codes.EXIT_FAILED
    elif dry_run and result.status == CHANGED:
        exit_code = exit_codes.EXIT_WOULD_CHANGE
    if args.report is not None:
        try:
            report.write_json(args.report, [result], mode, 0, warnings)
        except OSError as error:
            warnings.append(f"cannot write --report {args.report}: {error.strerror or error}")
            exit_code = exit_codes.EXIT_FAILED
    sys.stderr.write(summary_text([result], "diff" if dry_run else "stdin",
                                  verbosity=args.verbosity, warnings=warnings))
    return exit_code
