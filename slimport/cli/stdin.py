"""``slimport rewrite -``: port standard input to standard output, for editors and
pipelines (``slimport rewrite - < train.py > train_tf2.py``).

The bytes go through as they are (encoding, BOM, line endings). Standard output gets
the ported file, or with ``--diff`` its diff, with ``--check`` nothing; a file that
cannot be ported comes out unchanged (exit 2), so what is written is always a whole
file. The summary goes to standard error; ``--stdin-filename`` names the file there
and is where ``[tool.slimport]`` is looked for from, and where the tree facts are
read: from the file's import root on disk (its own text taken from standard input),
as ``slimport rewrite`` of that root would read them, so that an editor gets the
port a run over the tree writes. Without a name there is no tree: the codemods get
no tree facts (each decides from the file alone, and says so).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, List, Mapping, Optional, Sequence

from slimport import engine
from slimport.analysis.source_tree import SourceTree
from slimport.cli import exit_codes
from slimport.engine import protos
from slimport.engine.jobs import port_to_result
from slimport.output import report_file
from slimport.output.diffs import colored_diff, use_color
from slimport.output.results import CHANGED, UNCHANGED, FileResult
from slimport.output.summary import summary_text

STDIN = "-"


def _survey(args: argparse.Namespace, codemods: Sequence[type], options: Mapping[str, Any],
            data: bytes) -> Any:
    """The facts standard input is ported with: its root's, when it is named."""
    text = data.decode("utf-8", "replace")
    if args.stdin_filename is None:
        return engine.survey(codemods, options, SourceTree(), {"<stdin>": text},
                             gather_facts=False)
    filename = os.path.abspath(args.stdin_filename)
    around = engine.read_texts(engine.rest_of_roots([filename]))
    # Which paths a run would port is not known: facts about them keep their alone value.
    return engine.survey(codemods, options, None, {filename: text}, around=around)


def _regenerated(path: Path, data: bytes) -> Optional[protos.Regenerated]:
    """protoc's code for the module when it is a stale generated one (None otherwise),
    with the stale modules of its import root on disk for the descriptors it imports."""
    return protos.regenerate_one(path, data, engine.rest_of_roots([str(path)]))


def rewrite_stdin(args: argparse.Namespace, codemods: Sequence[type],
                  options: Mapping[str, Any], warnings: List[str]) -> int:
    """Port standard input as ``args`` say with ``codemods``; returns the exit code.

    Args:
      args: ``slimport rewrite``'s parsed arguments (PATH ``-``).
      codemods: the selected codemod classes.
      options: their options (``--map``).
      warnings: about the run so far; this adds its own.

    Returns:
      The exit code.
    """
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
    dry_run = args.diff or args.check
    found = _survey(args, codemods, options, data)
    warnings += found.warnings
    settings = engine.PortSettings(
        tuple(codemods), options, write=not dry_run, diff=args.diff,
        max_file_bytes=args.max_size, tree_facts=found.facts,
        review=args.report is not None and report_file.is_page(args.report))
    # A stale generated protobuf module, as a run regenerates it (--only runs just the
    # codemods named, there too): protoc's code, not a port, unless protoc fails on it.
    regenerated = None
    if args.stdin_filename is not None and not args.only:
        regenerated = _regenerated(Path(os.path.abspath(args.stdin_filename)), data)
    if regenerated is not None and not regenerated.error:
        result, output = FileResult(display, UNCHANGED), regenerated.code.encode("utf-8")
    else:
        result, ported = port_to_result(data, display, display, settings,
                                        written=settings.write)
        output = ported.data if result.status == CHANGED else data
    if regenerated is not None:
        protos.record(result, data, regenerated, protos.protoc_version(), settings)
    if args.diff:
        sys.stdout.write(colored_diff(result.diff) if use_color(sys.stdout, args.color)
                         else result.diff)
    elif not args.check:
        sys.stdout.buffer.write(output)
    sys.stdout.flush()
    mode = "check" if args.check else "diff" if args.diff else "stdin"
    exit_code = exit_codes.exit_code([result], dry_run)
    if args.report is not None:
        try:
            report_file.write_report(args.report, [result], mode, 0, warnings)
        except OSError as error:
            warnings.append(f"cannot write --report {args.report}: {error.strerror or error}")
            exit_code = exit_codes.EXIT_FAILED
    sys.stderr.write(summary_text([result], "diff" if dry_run else "stdin",
                                  verbosity=args.verbosity, warnings=warnings))
    return exit_code
