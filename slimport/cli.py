"""The ``slimport`` command: argument parsing and exit codes only.

``slimport rewrite`` hands the work to ``slimport.engine`` and the output to
``slimport.report``; ``slimport doctor`` runs ``python -m slim_ext`` in a child
process of the same interpreter; ``slimport list`` prints the codemod registry.

Whatever happens, the command ends with an exit code and a message, never a
traceback: 0 done, 1 for ``--check`` / ``--diff`` when a file would change, 2 for
usage errors and files that could not be ported, 130 on Ctrl-C.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from slimport import __version__, engine, flag_mapping, report
from slim_facts.platform_flags import PLATFORM_FLAGS
from slimport.verify import arguments as verify_arguments
from slimport.writing import read_regular

EXIT_OK = 0
EXIT_WOULD_CHANGE = 1
EXIT_FAILED = 2
EXIT_INTERRUPTED = 130

_EXIT_CODES = """\
exit codes:
  0  done (with --check or --diff: nothing would change)
  1  --check or --diff: some file would change (they are listed)
  2  some file could not be processed (it is left untouched, the others are still
     ported), or a usage error such as an unknown option, an unknown codemod name,
     a bad --map entry or a refused --out directory or --report path
  130  interrupted (Ctrl-C); every file is whole, as it was or ported
"""

# TensorFlow's native start-up logging (absl/C++), which ignores TF_CPP_MIN_LOG_LEVEL
# before absl::InitializeLog() is called: "I0000 00:00:17... port.cc:153] oneDNN ...".
_NATIVE_LOG_LINE = re.compile(
    r"(?:[IWE]\d{4} [\d:.]+\s+\d+ \S+:\d+\] "
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IWE] \S+:\d+\] "
    r"|WARNING: All log messages before absl::InitializeLog\(\) is called)")

_REWRITE_EXAMPLES = """\
examples:
  slimport rewrite models/research/slim                 port the tree in place
  slimport rewrite slim --out slim_tf2                  write a ported copy to slim_tf2/
  slimport rewrite slim --diff | less                   review the changes, write nothing
  slimport rewrite slim --check                         CI: exit 1 if a file would change
  slimport rewrite slim --only contrib_slim,flags_to_absl --report port.json
  slimport rewrite slim --map data_dir=dataset_dir --map output_dir=train_dir
  slimport rewrite slim --exclude 'third_party/*' --exclude '*_pb2.py' -v
"""


def _comma_list(value: str) -> List[str]:
    return [name.strip() for name in value.split(",") if name.strip()]


def _job_count(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of processes") from None
    if count < 0:
        raise argparse.ArgumentTypeError("-j must be 0 (one per CPU) or more")
    return count


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _byte_size(value: str) -> int:
    """``1048576``, ``512K``, ``2M``, ``0`` -> bytes; argparse turns errors into exit 2."""
    text = value.strip().upper().removesuffix("B")
    number, unit = (text[:-1], text[-1]) if text[-1:] in _SIZE_UNITS else (text, "")
    try:
        size = float(number) * _SIZE_UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a size in bytes (e.g. 2M, 512K, 0 for no limit)") from None
    if size < 0:
        raise argparse.ArgumentTypeError("--max-size must be 0 (no limit) or more")
    return int(size)


def build_parser() -> argparse.ArgumentParser:
    """The parser for ``slimport`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="slimport",
        description="Port TF1-era TF-Slim training code to TensorFlow 2 with libcst codemods.",
        epilog=(
            "commands:\n"
            "  slimport rewrite PATH...   port Python files (see: slimport rewrite --help)\n"
            "  slimport list              the codemods, in the order they run\n"
            "  slimport doctor            check this Python's TensorFlow/tf_slim setup\n"
            "  slimport verify DIR        after a port: import every module, build the nets\n"
            "                             (see: slimport verify --help)\n\n"
            + _EXIT_CODES
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"slimport {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    rewrite = commands.add_parser(
        "rewrite",
        help="port Python files or whole trees (in place by default)",
        description=(
            "Rewrite TF1 TF-Slim code for TensorFlow 2: tf.contrib.slim -> tf_slim, other\n"
            "tf.contrib -> tf_slim / tf.compat.v1 / slim_ext stand-ins, tf.app.flags -> absl,\n"
            "`import tensorflow as tf` -> tensorflow.compat.v1 (`slimport list` shows them).\n"
            "Output is byte-identical outside the edited code; running it again changes\n"
            "nothing. Files that do not parse are reported and left untouched."
        ),
        epilog=_REWRITE_EXAMPLES + "\n" + _EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rewrite.add_argument(
        "paths", nargs="+", metavar="PATH", type=Path,
        help="Python files or directories, walked recursively. Not walked: .git, .hg, .svn, "
             "__pycache__, *.egg-info, and (reported as skipped) virtualenvs (a directory "
             "with pyvenv.cfg or conda-meta/), .tox, .nox, node_modules; symlinks are not "
             "followed (recreated under --out when they point inside the tree); only "
             "regular files are read. e.g. `slimport rewrite train.py nets/`",
    )
    rewrite.add_argument(
        "--out", metavar="DIR", type=Path,
        help="write a ported copy to DIR instead of editing in place; other files are "
             "copied too so DIR runs as a whole, mode bits are kept, and the source is never "
             "written. With one directory PATH, DIR mirrors it; otherwise each PATH goes to "
             "DIR/<its name>. DIR must be outside the sources and empty (see --force), "
             "e.g. --out slim_tf2",
    )
    rewrite.add_argument(
        "--force", action="store_true",
        help="allow --out to be a non-empty directory (files there are overwritten), "
             "e.g. --out slim_tf2 --force",
    )
    rewrite.add_argument(
        "--diff", action="store_true",
        help="print a unified diff of every change to stdout and write nothing; exit 1 "
             "when there is one, e.g. --diff > port.patch",
    )
    rewrite.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto",
        help="colour the --diff: auto (default) colours it on a terminal unless the "
             "NO_COLOR environment variable is set, e.g. --color never",
    )
    rewrite.add_argument(
        "--check", action="store_true",
        help="write nothing; exit 1 and list the files if anything would change "
             "(for CI / pre-commit), e.g. --check",
    )
    rewrite.add_argument(
        "-j", "--jobs", metavar="N", type=_job_count, default=0,
        help="port files in N processes (default 0: one per CPU; porting is CPU-bound and "
             "a 90-file tree ports in 58%% of the -j 1 time on 2 cores), e.g. -j 1",
    )
    rewrite.add_argument(
        "--report", metavar="FILE.json", type=Path,
        help="also write a JSON report: per file the status, codemods applied, edit count "
             "and findings with line and suggested fix (schema: slimport/report.py), "
             "e.g. --report port.json",
    )
    rewrite.add_argument(
        "--only", metavar="CODEMOD,...", type=_comma_list, action="extend", default=[],
        help="run only these codemods (names from `slimport list`; comma-separated or "
             "repeated), e.g. --only contrib_slim,flags_to_absl",
    )
    rewrite.add_argument(
        "--skip", metavar="CODEMOD,...", type=_comma_list, action="extend", default=[],
        help="run every codemod except these, e.g. --skip compat_v1",
    )
    rewrite.add_argument(
        "--max-size", metavar="SIZE", type=_byte_size,
        default=engine.DEFAULT_MAX_FILE_BYTES,
        help="skip (and report) Python files larger than SIZE that a codemod would parse; "
             "they are usually generated and take libcst minutes; 0 = no limit "
             "(default 1M), e.g. --max-size 4M",
    )
    rewrite.add_argument(
        "--map", metavar="FROM=TO", type=flag_mapping.argument, action="append", default=[],
        help="platform flag -> script flag mapping, given to the codemods that take a "
             "mapping (uai_flags); FROM is one of the platform flags "
             f"({', '.join(PLATFORM_FLAGS)}), TO a flag your entry script defines (a TO "
             "no file defines is reported); repeatable or comma-separated, "
             "e.g. --map data_dir=dataset_dir,output_dir=train_dir",
    )
    rewrite.add_argument(
        "--exclude", metavar="GLOB", action="append", default=[],
        help="leave out files and directories matching GLOB: not ported, not copied by "
             "--out. A GLOB without '/' matches names at any depth, one with '/' the path "
             "(from the PATH given, or as given); repeatable, "
             "e.g. --exclude '*_pb2.py' --exclude 'third_party/*'",
    )
    talk = rewrite.add_mutually_exclusive_group()
    talk.add_argument(
        "-q", "--quiet", dest="verbosity", action="store_const", const=report.QUIET,
        default=report.NORMAL,
        help="print only the files that could not be processed (no progress, no "
             "summary), e.g. -q",
    )
    talk.add_argument(
        "-v", "--verbose", dest="verbosity", action="store_const", const=report.VERBOSE,
        help="also list every edit with its line, the unchanged files and what was left "
             "out (.git, --exclude matches); tracebacks of internal errors, e.g. -v",
    )

    commands.add_parser(
        "list",
        help="list the codemods, in the order they run, with what each does",
        description="List the codemods, in the order `slimport rewrite` runs them.",
        epilog="example:\n  slimport list",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    commands.add_parser(
        "doctor",
        help="check that this Python can run ported code (TensorFlow, tf_slim, shims)",
        description=(
            "Run `python -m slim_ext` with this interpreter: it reports the TensorFlow,\n"
            "tf_keras and tf_slim versions and the slim_ext compatibility shims applied.\n"
            "Needs TensorFlow (pip install 'slimport[tf]'); the rewrite itself does not."
        ),
        epilog="example:\n  slimport doctor",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_verify(commands)
    rewrite.set_defaults(usage_error=rewrite.error)
    return parser


def _codemod_options(args: argparse.Namespace, selected: Sequence[type],
                     warnings: List[str]) -> Dict[str, Dict[str, str]]:
    """The options for the codemods (``--map``); a note in ``warnings`` if none takes them."""
    mapping: Dict[str, str] = {}
    for pairs in args.map:
        mapping.update(pairs)
    if mapping and not any("mapping" in getattr(c, "OPTIONS", ()) for c in selected):
        warnings.append("--map has no effect: none of the selected codemods takes a "
                        "mapping (see `slimport list`)")
    return {"mapping": mapping} if mapping else {}


def _rewrite(args: argparse.Namespace) -> int:
    # Imported here so `slimport doctor` and `--help` work even if a codemod is broken.
    from slimport import codemods as registry

    try:
        selected = registry.select(args.only, args.skip)
    except ValueError as error:
        args.usage_error(str(error))
    if args.force and args.out is None:
        args.usage_error("--force only applies to --out DIR")
    warnings: List[str] = []
    options = _codemod_options(args, selected, warnings)
    dry_run = args.diff or args.check
    try:
        the_plan = engine.plan(args.paths, out=args.out, write=not dry_run, force=args.force,
                               exclude=args.exclude)
        if args.report is not None:
            engine.check_report_path(args.report, the_plan, args.out)
    except engine.UsageError as error:
        args.usage_error(str(error))
    if options and not warnings:
        warnings += flag_mapping.undefined_targets(options["mapping"], _texts(the_plan))
    settings = engine.Settings(tuple(selected), options, write=not dry_run, diff=args.diff,
                               max_file_bytes=args.max_size)

    progress = report.Progress(len(the_plan.python_jobs),
                               enabled=args.verbosity > report.QUIET)
    try:
        outcome = engine.run(the_plan, settings, jobs=args.jobs or os.cpu_count() or 1,
                             on_done=lambda result: progress.advance(result.path))
    finally:
        progress.close()
    return _report(args, the_plan, outcome, warnings)


def _report(args: argparse.Namespace, the_plan: engine.Plan, outcome: engine.RunResult,
            warnings: List[str]) -> int:
    """Print the diff and the summary, write --report; the exit code."""
    mode = "check" if args.check else "diff" if args.diff else "out" if args.out else "in-place"
    if args.diff:
        _print_diffs(outcome.results, report.use_color(sys.stdout, args.color))
    exit_code = _exit_code(outcome.results, dry_run=args.diff or args.check)
    if args.report is not None:
        try:
            report.write_json(args.report, outcome.results, mode, outcome.copied, warnings)
        except OSError as error:
            warnings.append(f"cannot write --report {args.report}: {error.strerror or error}")
            exit_code = EXIT_FAILED
    left_out = [*the_plan.not_walked,
                *((path, f"matches --exclude {glob}") for path, glob in the_plan.excluded)]
    sys.stderr.write(report.summary_text(outcome.results, mode, outcome.copied,
                                         verbosity=args.verbosity, warnings=warnings,
                                         left_out=left_out))
    return exit_code


def _texts(the_plan: engine.Plan) -> List[str]:
    """The text of every Python file of the plan that can be read (for --map)."""
    texts = []
    for job in the_plan.python_jobs:
        try:
            texts.append(read_regular(job.source)[0].decode("utf-8", "replace"))
        except OSError:
            continue  # the run reports it
    return texts


def _print_diffs(results: Sequence[report.FileResult], color: bool) -> None:
    try:
        for result in results:
            sys.stdout.write(report.colored_diff(result.diff) if color else result.diff)
        sys.stdout.flush()
    except BrokenPipeError:
        # `slimport rewrite --diff | head`: the reader is gone; the summary and the
        # exit code still follow. Later writes to stdout go nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _exit_code(results: Sequence[report.FileResult], dry_run: bool) -> int:
    statuses = {result.status for result in results}
    if report.FAILED in statuses:
        return EXIT_FAILED
    if dry_run and report.CHANGED in statuses:
        return EXIT_WOULD_CHANGE
    return EXIT_OK


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


def _needs_tensorflow(command: str, why: str) -> bool:
    """True, after saying how to install it, when this Python has no TensorFlow."""
    if importlib.util.find_spec("tensorflow") is not None:
        return False
    print(f"slimport {command}: TensorFlow is not installed for {sys.executable}.\n{why} "
          "Install the runtime with:\n  pip install 'slimport[tf]'", file=sys.stderr)
    return True


def _child_env() -> Dict[str, str]:
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def _doctor() -> int:
    if _needs_tensorflow("doctor", "The rewrite does not need it, but ported code does."):
        return 1
    return _without_native_log([sys.executable, "-m", "slim_ext"])


def _without_native_log(command: List[str]) -> int:
    """Run ``command``; TensorFlow's native start-up lines are noise on its stderr, unless
    it fails (then everything is shown)."""
    child = subprocess.run(command, env=_child_env(), check=False,
                           stderr=subprocess.PIPE, text=True, errors="replace")
    lines = child.stderr.splitlines(keepends=True)
    if child.returncode == 0:
        lines = [line for line in lines if not _NATIVE_LOG_LINE.match(line)]
    sys.stderr.write("".join(lines))
    return child.returncode


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


# -- slimport verify: the command's own parser; the run needs TensorFlow --------------

def _add_verify(commands: argparse._SubParsersAction) -> None:
    verify = commands.add_parser(
        "verify",
        help="after a port: import every module, run entry scripts with --helpfull, build "
             "the nets; a table of what still fails and why (needs TensorFlow)",
        **verify_arguments.PARSER_TEXT,
    )
    verify_arguments.add_arguments(verify)


def _verify(args: argparse.Namespace) -> int:
    """``slimport verify ARGS``: the same as ``python -m slimport.verify ARGS``."""
    if _needs_tensorflow("verify", "Verifying a port imports and builds the ported code, "
                                   "which needs it."):
        return EXIT_FAILED
    from slimport.verify import cli as verify_cli

    return verify_cli.run_command(args)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``slimport`` with ``argv`` (default: the process arguments); returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "rewrite":
            return _rewrite(args)
        if args.command == "list":
            return _list()
        if args.command == "verify":
            return _verify(args)
        return _doctor()
    except KeyboardInterrupt:
        return _interrupted(args)
    except Exception as error:  # a bug: say so in one line; -v shows where
        if getattr(args, "verbosity", report.NORMAL) >= report.VERBOSE:
            traceback.print_exc()
        print(f"slimport: internal error: {type(error).__name__}: {error}; please report "
              f"it (run with -v for the traceback)", file=sys.stderr)
        return EXIT_FAILED
