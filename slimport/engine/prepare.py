"""Before a run: read the tree's Python files once, and load what porting them needs,
unless the cache already has every port.

A run needs the codemods the request selects, and the tree facts they read
(``slimport.engine.facts``). With the cache on (``slimport.engine.cache``), the run
record of the same request over the same tree (every Python file's path and bytes)
says which codemods those were and the digest of the settings and facts; when every
file's port is then in the cache (but the stale generated modules left to protoc, which
are never ported: ``Request.stale_protos_to_protoc``), nothing is loaded at all (neither
the codemods nor libcst) and the run only writes and reports. Otherwise the codemods are
loaded, the facts gathered, and the cache gives what it has for the files that did not
change.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from slimport.engine import cache as port_cache
from slimport.engine.cache import FileCache, RunRecord, Unkeyable
from slimport.engine.jobs import Known, read_regular
from slimport.engine.facts import read_texts, rest_of_roots, scopes_of, survey
from slimport.engine.plan import Plan
from slimport.engine.protos import stale_module
from slimport.engine.run import automatic_jobs
from slimport.engine.scoped_facts import TreeFacts


@dataclass(frozen=True)
class Request:
    """What the user asked the run for, as far as it decides the ports."""

    only: Tuple[str, ...] = ()
    skip: Tuple[str, ...] = ()
    # The codemods' options (``--map``).
    options: Mapping[str, Any] = field(default_factory=dict)
    max_file_bytes: int = 0
    # The stale *_pb2.py are left to protoc, not ported (``PortSettings``): a run needs
    # no port of them to take every other port from the cache.
    stale_protos_to_protoc: bool = False


@dataclass
class Prepared:
    """What the run ports with, and what it need not port again."""

    # The codemod classes; () when every file's port is known.
    codemods: Tuple[type, ...]
    facts: TreeFacts
    warnings: List[str]
    cache: Optional[FileCache] = None
    # Python file -> its bytes, permission bits and cached port.
    known: Dict[Path, Known] = field(default_factory=dict)
    # Absolute path -> the bytes of each Python file of the run as it was read before
    # the run wrote any (``slimport.analysis.file_reads.keep_as_read``).
    originals: Dict[str, bytes] = field(default_factory=dict)


# The codemods a request selects and the warnings about its options, loaded on demand.
Loader = Callable[[], Tuple[Sequence[type], List[str]]]


def _read_files(plan: Plan) -> Dict[Path, Tuple[bytes, int]]:
    files = {}
    for job in plan.python_jobs:
        try:
            files[job.source] = read_regular(job.source)
        except OSError:
            continue  # the run reports it
    return files


def _texts(files: Mapping[Path, Tuple[bytes, int]]) -> Dict[str, str]:
    return {os.path.abspath(source): data.decode("utf-8", "replace")
            for source, (data, _) in files.items()}


def _gather(plan: Plan, codemods: Sequence[type], options: Mapping[str, Any],
            texts: Mapping[str, str], around: Mapping[str, str], jobs: int
            ) -> Tuple[TreeFacts, List[str]]:
    """The tree facts ``codemods`` declared and the warnings their options earn, their
    per-file part worked out by as many processes as the run's ports (``jobs``)."""
    processes = jobs or automatic_jobs([len(text) for text in texts.values()])
    found = survey(codemods, options, plan.source_tree, texts, around=around,
                   processes=processes)
    return found.facts, list(found.warnings)


def prepare_run(plan: Plan, request: Request, load: Loader,
                cache: Optional[FileCache] = None, jobs: int = 1) -> Prepared:
    """The codemods, facts and warnings of a run, and the ports the cache has.

    Every Python file of the plan is read here, once, before anything is written: the
    facts and every neighbour a port looks at are read off these bytes, so a file's
    port does not depend on which files the run wrote before it. The other files of
    the import roots the run is in are read too (``facts.rest_of_roots``): their
    defs and imports count in the facts.

    Args:
      plan: the run's plan.
      request: what the user asked for.
      load: loads the selected codemods (and says what is wrong with the options).
      cache: the cache (None: none; everything is loaded and ported).
      jobs: the processes the run ports in, as ``run_plan`` takes them (0: chosen):
        as many work out the facts.

    Returns:
      The Prepared run.

    Raises:
      ValueError: ``load`` refuses the request (an unknown codemod name).
    """
    files = _read_files(plan)
    originals = {os.path.abspath(source): data for source, (data, _) in files.items()}
    texts = _texts(files)
    around = read_texts(rest_of_roots(texts))
    if cache is None:
        codemods, warnings = load()
        facts, more = _gather(plan, codemods, request.options, texts, around, jobs)
        return Prepared(tuple(codemods), facts, warnings + more, originals=originals)
    run_key = port_cache.digest_of(
        "run", port_cache.tool_fingerprint(), list(request.only), list(request.skip),
        dict(request.options), request.max_file_bytes, plan.source_tree,
        [[str(source), hashlib.sha256(data).hexdigest()] for source, (data, _) in files.items()],
        [[name, hashlib.sha256(text.encode()).hexdigest()] for name, text in around.items()])
    record = cache.get_run(run_key)
    known: Dict[Path, Known] = {}
    if record is not None:
        known = _known(cache.with_context(record.context), files)
        if len(known.keys() | _left_to_protoc(request, files)) == len(plan.python_jobs):
            return Prepared((), scopes_of(texts, around), list(record.warnings),
                            cache.with_context(record.context), known, originals)
    codemods, warnings = load()
    facts, more = _gather(plan, codemods, request.options, texts, around, jobs)
    warnings += more
    names = [codemod.NAME for codemod in codemods]
    try:
        context = port_cache.port_context(names, request.options, request.max_file_bytes,
                                          facts)
    except Unkeyable as error:
        warnings.append(f"no cache for this run: {error}")
        return Prepared(tuple(codemods), facts, warnings, originals=originals)
    run_cache = cache.with_context(context)
    if record is None or record.context != context:
        known = _known(run_cache, files)
    if record != RunRecord(tuple(names), context, tuple(warnings)):
        cache.put_run(run_key, RunRecord(tuple(names), context, tuple(warnings)))
    return Prepared(tuple(codemods), facts, warnings, run_cache, known, originals)


def _left_to_protoc(request: Request, files: Mapping[Path, Tuple[bytes, int]]) -> Set[Path]:
    """The files of ``files`` the run leaves to protoc (``Request.stale_protos_to_protoc``)."""
    if not request.stale_protos_to_protoc:
        return set()
    return {source for source, (data, _) in files.items() if stale_module(source, data)}


def _known(cache: FileCache, files: Mapping[Path, Tuple[bytes, int]]) -> Dict[Path, Known]:
    known = {}
    for source, (data, mode) in files.items():
        ported = cache.get(str(source), data)
        if ported is not None:
            known[source] = (data, mode, ported)
    return known
