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
from importlib import import_module
from typing import Any

# name -> the module of this package that defines it; loaded on first use, so that a
# run whose every file is a cache hit loads neither the codemods nor libcst.
_HOMES = {
    "Survey": "facts", "survey": "facts",
    "read_texts": "facts", "rest_of_roots": "facts",
    "Scope": "scoped_facts", "TreeFacts": "scoped_facts",
    "DEFAULT_MAX_FILE_BYTES": "jobs", "PortSettings": "jobs", "atomic_write": "jobs",
    "port_file": "jobs",
    "options_for": "passes",
    "PORT": "plan", "TEMP_SUFFIX": "plan", "Job": "plan", "Plan": "plan",
    "UsageError": "plan", "check_report_path": "plan", "make_plan": "plan",
    "not_walked": "plan",
    "port_source": "port",
    "Ported": "ported",
    "NO_OBSERVER": "run", "Interrupted": "run", "RunObserver": "run", "RunResult": "run",
    "run_plan": "run",
    "CACHE_DIR": "cache", "FileCache": "cache", "open_cache": "cache",
    "Request": "prepare", "Prepared": "prepare", "prepare_run": "prepare",
}


def __getattr__(name: str) -> Any:
    if name == "FileResult":
        from slimport.output.results import FileResult
        return FileResult
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)


__all__ = ["FileResult", *_HOMES]
