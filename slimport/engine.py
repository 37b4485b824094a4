"""The rewrite engine, in one namespace: ``from slimport import engine``.

One run has two phases. ``plan`` (``slimport.planning``) walks the PATHs the user
gave and decides, for every entry, what to do with it; every output path is checked
there, before anything is written. ``run`` (``slimport.running``) then does it, in
this process or in a pool of workers, with each Python file read, ported in memory
(``port_source``, ``slimport.porting``) and written atomically
(``slimport.writing``), and returns one ``FileResult`` per Python file plus one
per skipped path or failed copy.
"""
from slimport.planning import (
    PORT,
    TEMP_SUFFIX,
    Job,
    Plan,
    UsageError,
    check_report_path,
    not_walked,
    plan,
)
from slimport.codemod_runs import options_for
from slimport.porting import Ported, port_source
from slimport.report import FileResult
from slimport.running import Interrupted, RunResult, run
from slimport.writing import DEFAULT_MAX_FILE_BYTES, Settings, atomic_write, port_file

__all__ = [
    "DEFAULT_MAX_FILE_BYTES", "FileResult", "Interrupted", "Job", "PORT", "Plan", "Ported",
    "RunResult", "Settings", "TEMP_SUFFIX", "UsageError", "atomic_write",
    "check_report_path", "not_walked", "options_for", "plan", "port_file", "port_source",
    "run",
]
