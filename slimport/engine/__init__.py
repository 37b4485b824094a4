"""The rewrite engine: from the PATHs a user gave to ported files and their results.

A run has three steps, each a module here. ``make_plan`` (``plan``) walks the PATHs
and decides what to do with every entry; every output path is checked there, before
anything is written. ``survey`` (``facts``) reads the tree's Python files once and
gathers the tree facts the selected codemods declared. ``run_plan`` (``run``) then
does the plan, in this process or in a pool of workers: each Python file is read,
ported in memory (``port_source``, ``port``: the codemods run in passes over a
skeleton of the file, ``passes`` and ``skeleton``) and written atomically (``jobs``);
stale generated protobuf modules are regenerated last (``protos``). It returns one
``FileResult`` per Python file plus one per skipped path or failed copy.
"""
from slimport.engine.facts import Survey, needs_texts, plan_texts, survey
from slimport.engine.jobs import DEFAULT_MAX_FILE_BYTES, PortSettings, atomic_write, port_file
from slimport.engine.passes import options_for
from slimport.engine.plan import (
    PORT,
    TEMP_SUFFIX,
    Job,
    Plan,
    UsageError,
    check_report_path,
    make_plan,
    not_walked,
)
from slimport.engine.port import Ported, port_source
from slimport.engine.run import NO_OBSERVER, Interrupted, RunObserver, RunResult, run_plan
from slimport.output.results import FileResult

__all__ = [
    "DEFAULT_MAX_FILE_BYTES", "FileResult", "NO_OBSERVER", "Interrupted", "Job", "PORT", "Plan",
    "PortSettings", "Ported", "RunObserver", "RunResult", "Survey", "TEMP_SUFFIX",
    "UsageError", "atomic_write", "check_report_path", "make_plan", "needs_texts",
    "not_walked", "options_for", "plan_texts", "port_file", "port_source", "run_plan",
    "survey",
]
