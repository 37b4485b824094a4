"""What ``slimport`` exits with, and the help text that says so."""
from typing import Sequence

from slimport.output.results import CHANGED, FAILED, FileResult

EXIT_OK = 0
EXIT_WOULD_CHANGE = 1
EXIT_FAILED = 2
EXIT_INTERRUPTED = 130

HELP = """\
exit codes:
  0  done (with --check or --diff: nothing would change)
  1  --check or --diff: some file would change (they are listed)
  2  some file could not be processed (it is left untouched, the others are still
     ported), or a usage error such as an unknown option, an unknown codemod name,
     a bad --map entry or a refused --out directory or --report path. With --check
     or --diff: a file that cannot be read, or that was left unported (over
     --max-size, does not parse) while a codemod's text check matches it
  130  interrupted (Ctrl-C); every file is whole, as it was or ported
"""


def exit_code(results: Sequence[FileResult], dry_run: bool) -> int:
    """The exit code of a rewrite that produced ``results``.

    Args:
      results: every path's result.
      dry_run: ``--diff`` or ``--check`` (a file that would change is exit 1).

    Returns:
      EXIT_FAILED if a file failed, else EXIT_WOULD_CHANGE for a dry run that would
      change a file, else EXIT_OK.
    """
    statuses = {result.status for result in results}
    if FAILED in statuses:
        return EXIT_FAILED
    if dry_run and CHANGED in statuses:
        return EXIT_WOULD_CHANGE
    return EXIT_OK
