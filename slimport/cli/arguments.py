"""The ``slimport`` command line: the parser of every subcommand, and nothing else.

``slimport verify``'s arguments are verify's own (``slimport.verify.arguments``),
registered here as the subcommand's parser. Nothing here imports TensorFlow: ``--help``
and usage errors never wait for it.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Dict, List

from slim_facts.platform_flags import PLATFORM_FLAGS
from slim_facts.requirements import pip_install_line
from slimport import __version__
from slimport.cli import exit_codes
from slimport.output import report_file, summary
from slimport.verify import arguments as verify_arguments
from slimport.engine.cache import CACHE_DIR
from slimport.engine.jobs import DEFAULT_MAX_FILE_BYTES

_REWRITE_EXAMPLES = """\
examples:
  slimport rewrite models/research/slim                 port the tree in place
  slimport rewrite slim --out slim_tf2                  write a ported copy to slim_tf2/
  slimport rewrite slim --diff | less                   review the changes, write nothing
  slimport rewrite slim --check                         CI: exit 1 if a file would change
  slimport rewrite slim --only contrib_slim,flags_to_absl --report port.json
  slimport rewrite slim --out slim_tf2 --report port.html   review the port in a browser
  slimport rewrite slim --map data_dir=dataset_dir --map output_dir=train_dir
  slimport rewrite slim --exclude 'third_party/*' --exclude '*_pb2.py' -v
  slimport rewrite - --stdin-filename train.py < train.py   port standard input to stdout

settings: [tool.slimport] in the nearest pyproject.toml (or --config FILE) gives
defaults for the long options, in kebab-case (exclude = ["*_pb2.py"], max-size = "4M",
skip = ["compat_v1"], map = {data_dir = "dataset_dir"}, jobs = 2); the command line wins.
"""


def _flag_mapping(value: str) -> Dict[str, str]:
    """``--map``'s entries (``slimport.codemods.flag_mapping``), loaded when given: the
    codemods' package is not loaded by a run every file of which is a cache hit."""
    from slimport.codemods import flag_mapping
    return flag_mapping.argument(value)


def _comma_list(value: str) -> List[str]:
    return [name.strip() for name in value.split(",") if name.strip()]


def _job_count(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of processes") from None
    if count < 0:
        raise argparse.ArgumentTypeError("-j must be 0 (one per free CPU) or more")
    return count


def _report_path(value: str) -> Path:
    path = Path(value)
    problem = report_file.format_problem(path)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return path


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
            + exit_codes.HELP
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
        epilog=_REWRITE_EXAMPLES + "\n" + exit_codes.HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rewrite.add_argument(
        "paths", nargs="+", metavar="PATH", type=Path,
        help="Python files or directories, walked recursively. Not walked: .git, .hg, .svn, "
             "__pycache__, *.egg-info, and (reported as skipped) virtualenvs (a directory "
             "with pyvenv.cfg or conda-meta/), .tox, .nox, node_modules; symlinks are not "
             "followed (recreated under --out when they point inside the tree); only "
             "regular files are read; - alone reads standard input and writes the ported "
             "file to standard output (editors, pipelines). e.g. `slimport rewrite train.py "
             "nets/`, `slimport rewrite - < train.py > train_tf2.py`",
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
        "--stdin-filename", metavar="PATH", type=Path,
        help="with -: the file standard input holds, named in messages and where "
             "[tool.slimport] is looked for from, e.g. --stdin-filename nets/lenet.py")
    rewrite.add_argument(
        "--force", action="store_true",
        help="allow --out to be a non-empty directory (files there are overwritten), "
             "e.g. --out slim_tf2 --force",
    )
    rewrite.add_argument(
        "--diff", action="store_true",
        help="print a unified diff of every change to stdout and write nothing (but the "
             "cache, see --no-cache); exit 1 when there is one, e.g. --diff > port.patch",
    )
    rewrite.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto",
        help="colour the --diff: auto (default) colours it on a terminal; the environment "
             "decides first: NO_COLOR (not empty) turns colour off, else FORCE_COLOR (not "
             "empty) turns it on even when piped, else TERM=dumb turns it off, "
             "e.g. --color never",
    )
    rewrite.add_argument(
        "--check", action="store_true",
        help="write nothing (but the cache, so that the next check of an unchanged file "
             "costs a hash; see --no-cache); exit 1 and list the files if anything would "
             "change (for CI / pre-commit), e.g. --check",
    )
    rewrite.add_argument(
        "-j", "--jobs", metavar="N", type=_job_count, default=0,
        help="port files in N processes (default 0: one per CPU that other work does not "
             "hold, judged by the load average, and one process for a tree under 256 KB; "
             "porting is CPU-bound), e.g. -j 1",
    )
    rewrite.add_argument(
        "--report", metavar="FILE.json|FILE.html", type=_report_path,
        help="also write a report, in the format the suffix names: .json, per file the "
             "status, codemods applied, edit count and findings with line and suggested "
             "fix (schema: slimport/output/json_report.py); .html, a page to review the "
             "port in a browser (totals by codemod and kind, then each file's diff with "
             "its findings on their lines, those needing attention first), "
             "e.g. --report port.json or --report port.html",
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
        default=DEFAULT_MAX_FILE_BYTES,
        help="skip (and report) Python files larger than SIZE that a codemod would parse; "
             "they are usually generated and take libcst minutes; 0 = no limit "
             "(default 1M), e.g. --max-size 4M",
    )
    rewrite.add_argument(
        "--map", metavar="FROM=TO", type=_flag_mapping, action="append", default=[],
        help="platform flag -> script flag mapping, given to the codemods that take a "
             "mapping (uai_flags); FROM is one of the platform flags "
             f"({', '.join(PLATFORM_FLAGS)}), TO a flag your entry script defines (a TO "
             "no file defines is reported); repeatable or comma-separated, "
             "e.g. --map data_dir=dataset_dir,output_dir=train_dir",
    )
    rewrite.add_argument(
        "--no-cache", action="store_true",
        help="port every file again: neither read nor write the cache, where a port is "
             "kept under the digest of the file's bytes, slimport, the settings and the "
             "tree facts it read, so that a file that did not change costs a hash "
             "(docs/rewrite.md), e.g. --no-cache",
    )
    rewrite.add_argument(
        "--cache-dir", metavar="DIR", type=Path, default=Path(CACHE_DIR),
        help=f"keep the cache in DIR (default {CACHE_DIR} in the current directory; in "
             "[tool.slimport], relative to the file), e.g. --cache-dir ~/.cache/slimport",
    )
    rewrite.add_argument(
        "--exclude", metavar="GLOB", action="append", default=[],
        help="leave out files and directories matching GLOB: not ported, not copied by "
             "--out. A GLOB without '/' matches names at any depth, one with '/' the path "
             "(from the PATH given, or as given); repeatable, "
             "e.g. --exclude '*_pb2.py' --exclude 'third_party/*'",
    )
    settings = rewrite.add_mutually_exclusive_group()
    settings.add_argument(
        "--config", metavar="FILE", type=Path,
        help="read the [tool.slimport] settings from FILE (TOML) instead of the nearest "
             "pyproject.toml that has them (looked for from the PATHs up); the command "
             "line wins over them, e.g. --config ci/slimport.toml")
    settings.add_argument(
        "--no-config", action="store_true",
        help="read no [tool.slimport] settings, e.g. --no-config")
    talk = rewrite.add_mutually_exclusive_group()
    talk.add_argument(
        "-q", "--quiet", dest="verbosity", action="store_const", const=summary.QUIET,
        default=summary.NORMAL,
        help="print only the files that could not be processed (no progress, no "
             "summary), e.g. -q",
    )
    talk.add_argument(
        "-v", "--verbose", dest="verbosity", action="store_const", const=summary.VERBOSE,
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

    doctor = commands.add_parser(
        "doctor",
        help="check that this Python can run ported code (TensorFlow, tf_slim, shims)",
        description=(
            "Run `python -m slim_ext` with this interpreter: it reports the TensorFlow,\n"
            "tf_keras and tf_slim versions and the slim_ext compatibility shims applied.\n"
            "Needs TensorFlow and the rest of the runtime, which the rewrite does not:\n"
            f"  {pip_install_line()}"
        ),
        epilog="example:\n  slimport doctor",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    doctor.add_argument(
        "-v", "--verbose", action="store_true",
        help="also show TensorFlow's native start-up lines (hidden unless the check fails)")
    _add_verify(commands)
    rewrite.set_defaults(usage_error=rewrite.error, parser=rewrite)
    return parser


def _add_verify(commands: argparse._SubParsersAction) -> None:
    verify = commands.add_parser(
        "verify",
        help="after a port: import every module, run entry scripts with --helpfull, build "
             "the nets; a table of what still fails and why (needs TensorFlow)",
        **verify_arguments.PARSER_TEXT,
    )
    verify_arguments.add_arguments(verify)
