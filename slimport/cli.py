"""The ``slimport`` command: argument parsing and exit codes only.

``slimport rewrite`` hands the work to ``slimport.engine`` and the output to
``slimport.report``; ``slimport doctor`` runs ``python -m slim_ext`` in a child
process of the same interpreter; ``slimport list`` prints the codemod registry.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from slimport import __version__, engine, report

EXIT_OK = 0
EXIT_WOULD_CHANGE = 1
EXIT_FAILED = 2

_EXIT_CODES = """\
exit codes:
  0  done (with --check: nothing would change)
  1  --check only: some file would change (they are listed)
  2  some file could not be processed (it is left untouched, the others are still
     ported), or a usage error such as an unknown option, an unknown codemod name
     or a refused --out directory
"""

_REWRITE_EXAMPLES = """\
examples:
  slimport rewrite models/research/slim                 port the tree in place
  slimport rewrite slim --out slim_tf2                  write a ported copy to slim_tf2/
  slimport rewrite slim --diff | less                   review the changes, write nothing
  slimport rewrite slim --check                         CI: exit 1 if a file would change
  slimport rewrite slim --only contrib_slim,flags_to_absl --report port.json
  slimport rewrite slim --map data_dir=dataset_dir --map output_dir=train_dir
"""


def _comma_list(value: str) -> List[str]:
    return [name.strip() for name in value.split(",") if name.strip()]


def _mapping_items(value: str) -> Dict[str, str]:
    """``FROM=TO[,FROM=TO...]`` -> {FROM: TO}; argparse turns errors into exit 2."""
    pairs: Dict[str, str] = {}
    for item in _comma_list(value):
        source, sep, target = item.partition("=")
        if not sep or not source.strip() or not target.strip():
            raise argparse.ArgumentTypeError(
                f"{item!r} is not FROM=TO (e.g. --map data_dir=dataset_dir)"
            )
        pairs[source.strip()] = target.strip()
    return pairs


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
        help="Python files or directories (walked recursively, skipping .git, __pycache__, "
             ".tox, virtualenvs, node_modules, *.egg-info; symlinks are not followed), "
             "e.g. `slimport rewrite train.py nets/`",
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
        help="print a unified diff of every change to stdout and write nothing, "
             "e.g. --diff > port.patch",
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
        "--map", metavar="FROM=TO", type=_mapping_items, action="append", default=[],
        help="platform flag -> script flag mapping, given to the codemods that take a "
             "mapping (uai_flags); repeatable or comma-separated, "
             "e.g. --map data_dir=dataset_dir,output_dir=train_dir",
    )

    commands.add_parser(
        "list",
        help="list the codemods, in the order they run, with what each does",
        description="List the codemods, in the order `slimport rewrite` runs them.",
        epilog="example:\n  slimport list",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    doctor = commands.add_parser(
        "doctor",
        help="check that this Python can run ported code (TensorFlow, tf_slim, shims)",
        description=(
            "Run `python -m slim_ext` with this interpreter: it reports the TensorFlow,\n"
            "tf_keras and tf_slim versions and the slim_ext compatibility shims applied.\n"
            "Needs TensorFlow (pip install 'slimport[tf]'); the rewrite itself does not."
        ),
        epilog="examples:\n  slimport doctor\n  slimport doctor -- --help    (the options of "
               "python -m slim_ext itself)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    doctor.add_argument(
        "doctor_args", nargs="*", metavar="ARG",
        help="passed on to `python -m slim_ext`; put them after --, e.g. slimport doctor -- --help",
    )
    _add_verify(commands)
    rewrite.set_defaults(usage_error=rewrite.error)
    return parser


def _rewrite(args: argparse.Namespace) -> int:
    # Imported here so `slimport doctor` and `--help` work even if a codemod is broken.
    from slimport import codemods as registry

    try:
        selected = registry.select(args.only, args.skip)
    except ValueError as error:
        args.usage_error(str(error))
    if args.force and args.out is None:
        args.usage_error("--force only applies to --out DIR")

    mapping: Dict[str, str] = {}
    for pairs in args.map:
        mapping.update(pairs)
    options = {"mapping": mapping} if mapping else {}
    if mapping and not any("mapping" in getattr(c, "OPTIONS", ()) for c in selected):
        print("slimport: warning: --map has no effect: none of the selected codemods "
              "takes a mapping (see `slimport list`)", file=sys.stderr)

    dry_run = args.diff or args.check
    mode = "check" if args.check else "diff" if args.diff else "out" if args.out else "in-place"
    try:
        the_plan = engine.plan(args.paths, out=args.out, write=not dry_run, force=args.force)
    except engine.UsageError as error:
        args.usage_error(str(error))
    settings = engine.Settings(tuple(selected), options, write=not dry_run, diff=args.diff,
                               max_file_bytes=args.max_size)
    workers = args.jobs or os.cpu_count() or 1

    progress = report.Progress(len(the_plan.python_jobs))
    outcome = engine.run(the_plan, settings, jobs=workers,
                         on_done=lambda result: progress.advance(result.path))
    progress.close()

    if args.diff:
        for result in outcome.results:
            sys.stdout.write(result.diff)
        sys.stdout.flush()
    if args.report is not None:
        report.write_json(args.report, outcome.results, mode, outcome.copied)
    sys.stderr.write(report.summary_text(outcome.results, mode, outcome.copied))

    statuses = {result.status for result in outcome.results}
    if report.FAILED in statuses:
        return EXIT_FAILED
    if args.check and report.CHANGED in statuses:
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


def _doctor(doctor_args: Sequence[str]) -> int:
    if importlib.util.find_spec("tensorflow") is None:
        print(
            f"slimport doctor: TensorFlow is not installed for {sys.executable}.\n"
            "The rewrite does not need it, but ported code does. Install the runtime with:\n"
            "  pip install 'slimport[tf]'",
            file=sys.stderr,
        )
        return 1
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    command = [sys.executable, "-m", "slim_ext", *doctor_args]
    return subprocess.run(command, env=env, check=False).returncode


# -- slimport verify: runs slim_ext.verify, which needs TensorFlow ---------------------

def _add_verify(commands: argparse._SubParsersAction) -> None:
    # Every argument, --help included, goes to `python -m slim_ext.verify`, where the
    # options are defined: a prefix character no argument has keeps argparse from
    # reading them here.
    verify = commands.add_parser(
        "verify", add_help=False, prefix_chars="\0",
        help="after a port: import every module, run entry scripts with --helpfull, build "
             "the nets; a table of what still fails and why (needs TensorFlow)",
    )
    verify.add_argument("verify_args", nargs="*", metavar="ARG")


def _verify(verify_args: Sequence[str]) -> int:
    """``slimport verify ARGS`` = ``python -m slim_ext.verify ARGS`` with this interpreter."""
    if importlib.util.find_spec("tensorflow") is None:
        print(
            f"slimport verify: TensorFlow is not installed for {sys.executable}.\n"
            "Verifying a port imports and builds the ported code, which needs it:\n"
            "  pip install 'slimport[tf]'",
            file=sys.stderr,
        )
        return EXIT_FAILED
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    command = [sys.executable, "-m", "slim_ext.verify", *verify_args]
    return subprocess.run(command, env=env, check=False).returncode


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``slimport`` with ``argv`` (default: the process arguments); returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "rewrite":
        return _rewrite(args)
    if args.command == "list":
        return _list()
    if args.command == "verify":
        return _verify(args.verify_args)
    return _doctor(args.doctor_args)
