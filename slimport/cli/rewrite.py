"""``slimport rewrite``: plan, port, then show what happened.

The work is ``slimport.engine``'s; this module turns the parsed arguments into a
plan and settings, runs it with a progress line, and shows the outcome: the diff
(``--diff``), the report (``--report``: JSON, or the HTML page), the summary, and the
exit code.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from slimport import engine
from slimport.cli import exit_codes
from slimport.cli.stdin import STDIN, rewrite_stdin
from slimport.engine import protos
from slimport.output import report_file
from slimport.output.results import FileResult
from slimport.output.diffs import colored_diff, use_color
from slimport.output.progress import Progress
from slimport.output.summary import QUIET, summary_text


def _codemod_options(args: argparse.Namespace) -> Dict[str, Dict[str, str]]:
    """The options for the codemods (``--map``)."""
    mapping: Dict[str, str] = {}
    for pairs in args.map:
        mapping.update(pairs)
    return {"mapping": mapping} if mapping else {}


def _selected(args: argparse.Namespace, options: Mapping[str, Any]
              ) -> Tuple[List[type], List[str]]:
    """The codemods ``--only`` / ``--skip`` select, and a note if none takes the options.

    Loaded here, when a run needs them (not when every port is in the cache).
    """
    from slimport import codemods as registry

    try:
        selected = registry.select(args.only, args.skip)
    except ValueError as error:
        args.usage_error(str(error))
    warnings = []
    if options and not any("mapping" in getattr(c, "OPTIONS", ()) for c in selected):
        warnings.append("--map has no effect: none of the selected codemods takes a "
                        "mapping (see `slimport list`)")
    return selected, warnings


def rewrite_command(args: argparse.Namespace,
                    observer: engine.RunObserver = engine.NO_OBSERVER) -> int:
    """``slimport rewrite`` with parsed arguments; returns the exit code.

    Args:
      args: from ``slimport.cli.arguments``.
      observer: told of the run's steps (``engine.RunObserver``).

    Returns:
      The exit code.
    """
    if args.force and args.out is None:
        args.usage_error("--force only applies to --out DIR")
    options = _codemod_options(args)
    dry_run = args.diff or args.check
    if STDIN in map(str, args.paths):
        selected, warnings = _selected(args, options)
        return rewrite_stdin(args, selected, options, warnings)
    if args.stdin_filename is not None:
        args.usage_error("--stdin-filename names the file read from -, standard input")
    try:
        plan = engine.make_plan(args.paths, out=args.out, write=not dry_run, force=args.force,
                                exclude=args.exclude)
        if args.report is not None:
            engine.check_report_path(args.report, plan, args.out)
    except engine.UsageError as error:
        args.usage_error(str(error))
    cache, cache_warning = (None, None) if args.no_cache else engine.open_cache(args.cache_dir)
    # --only runs just the codemods named: no regeneration. Otherwise protoc's code
    # replaces a stale generated module, so it is not ported, unless protoc fails on it.
    regenerate = not args.only
    to_protoc = regenerate and protos.protoc_installed()
    request = engine.Request(tuple(args.only), tuple(args.skip), options, args.max_size,
                             stale_protos_to_protoc=to_protoc)
    # The codemods are loaded only when some file's port is not in the cache (a run
    # record exists only for a request whose names were checked).
    prepared = engine.prepare_run(plan, request, lambda: _selected(args, options), cache,
                                  jobs=args.jobs)
    warnings = ([cache_warning] if cache_warning else []) + prepared.warnings
    settings = engine.PortSettings(
        prepared.codemods, options, write=not dry_run, diff=args.diff,
        max_file_bytes=args.max_size, tree_facts=prepared.facts,
        regenerate_protos=regenerate, stale_protos_to_protoc=to_protoc,
        review=args.report is not None and report_file.is_page(args.report))

    progress = Progress(len(plan.python_jobs), enabled=args.verbosity > QUIET)
    try:
        outcome = engine.run_plan(plan, settings, jobs=args.jobs,
                                  on_done=lambda result: progress.advance(result.path),
                                  observer=observer, cache=prepared.cache,
                                  known=prepared.known, originals=prepared.originals)
    except engine.Interrupted as interrupted:
        progress.close()
        return _interrupted(args, plan, interrupted)
    finally:
        progress.close()
    return _report(args, plan, outcome, warnings)


def _interrupted(args: argparse.Namespace, plan: engine.Plan,
                 interrupted: engine.Interrupted) -> int:
    """After Ctrl-C: the summary of the files done, what was not done, exit 130."""
    mode = "check" if args.check else "diff" if args.diff else "out" if args.out else "in-place"
    done, total = interrupted.python_done, interrupted.python_total
    sys.stderr.write(summary_text(interrupted.done.results, mode, interrupted.done.copied,
                                  verbosity=args.verbosity))
    left = total - done
    if args.diff or args.check:
        state = f"{done} of {total} Python files checked, {left} not; nothing was written"
    elif args.out is not None:
        state = (f"{args.out} has {done} of the {total} Python files, each complete; the "
                 f"other {left} are not there: run the same command again with --force "
                 f"to finish")
    else:
        state = (f"{done} of {total} Python files done, {left} left as they were (every "
                 f"file is whole): run the same command again to finish")
    print(f"slimport: interrupted: {state}", file=sys.stderr)
    return exit_codes.EXIT_INTERRUPTED


def _report(args: argparse.Namespace, plan: engine.Plan, outcome: engine.RunResult,
            warnings: List[str]) -> int:
    """Print the diff and the summary, write --report; the exit code."""
    mode = "check" if args.check else "diff" if args.diff else "out" if args.out else "in-place"
    if args.diff:
        _print_diffs(outcome.results, use_color(sys.stdout, args.color))
    exit_code = exit_codes.exit_code(outcome.results, dry_run=args.diff or args.check)
    if args.report is not None:
        try:
            report_file.write_report(args.report, outcome.results, mode, outcome.copied,
                                     warnings, outcome.tree_findings)
        except OSError as error:
            warnings.append(f"cannot write --report {args.report}: {error.strerror or error}")
            exit_code = exit_codes.EXIT_FAILED
    left_out = [*plan.not_walked,
                *((path, f"matches --exclude {glob}") for path, glob in plan.excluded)]
    sys.stderr.write(summary_text(outcome.results, mode, outcome.copied,
                                  verbosity=args.verbosity, warnings=warnings,
                                  left_out=left_out, tree_findings=outcome.tree_findings))
    return exit_code


def _print_diffs(results: Sequence[FileResult], color: bool) -> None:
    try:
        for result in results:
            sys.stdout.write(colored_diff(result.diff) if color else result.diff)
        sys.stdout.flush()
    except BrokenPipeError:
        # `slimport rewrite --diff | head`: the reader is gone; the summary and the
        # exit code still follow. Later writes to stdout go nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
