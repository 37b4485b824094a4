"""``slimport verify`` (and ``python -m slimport.verify``): after a port, what still
does not work.

The arguments are parsed by ``slimport.verify.arguments`` (``slimport verify``'s own
subcommand parser, or this module's ``main``); ``run`` does the work. Nothing here
imports TensorFlow: the fork server (``worker``) does, in its own process.
"""
import argparse
import concurrent.futures
import os
import signal
import sys
import tempfile
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from slimport.output.progress import Progress
from slimport.verify import calltime, classify, kinds, names, report, runner, unported
from slimport.verify import tree as tree_lib
from slimport.verify.arguments import PROTOBUF_VARIABLE, build_parser, image_size_for

EXIT_OK = 0
EXIT_FAILS = 1
EXIT_ERROR = 2
# Generated-code marker of protoc < 3.20, which current protobuf accepts only
# with its pure-Python implementation.
_OLD_PB2 = b"_descriptor.FieldDescriptor("
_BUILD_PRIORITY = 1
# The call-time names go first: one quick job whose rows every module gets.
_NAMES_PRIORITY = 2
_NAMES_TARGET = "call-time names"
EMPTY_MODULE = ("the file is empty (0 bytes): it imports and defines nothing; compare it "
                "with the original (a tool that rewrote the tree may have emptied it)")

def _needs_python_protobuf(tree: tree_lib.Tree) -> bool:
    for module in tree.modules:
        if module.path.endswith("_pb2.py"):
            with open(module.path, "rb") as source:
                if _OLD_PB2 in source.read():
                    return True
    return False


def _module_job(check: str, module: tree_lib.Module, timeout: float) -> Dict[str, object]:
    job = {"check": check, "target": module.name, "file": module.relpath,
           "root": module.root, "path": module.path, "timeout": timeout}
    if module.importable_by_name:
        job["module"] = module.name
    else:
        job["stem"] = module.name.replace("-", "_").replace(".", "_")
    if check == "script":
        job["help_option"] = module.help_option
    return job


def _build_job(target: str, timeout: float, tree: tree_lib.Tree) -> Dict[str, object]:
    """The first job of a --build target: list a factory's networks, or run a probe."""
    file_name, colon, function = target.rpartition(":")
    if colon and file_name.endswith(".py"):
        path = os.path.abspath(file_name)
        if not os.path.isfile(path):
            raise ValueError(f"--build {target}: {path} does not exist")
        return {"check": "probe", "target": f"{os.path.basename(path)}:{function}",
                "file": "", "probe_file": path, "probe_function": function,
                "root": tree.roots[0], "timeout": timeout, "priority": _BUILD_PRIORITY}
    factory = next((m for m in tree.modules if m.name == target), None)
    if factory is None:
        last = target.rpartition(".")[2]
        alike = [m.name for m in tree.modules if m.name.rpartition(".")[2] == last]
        hint = (f"; the tree has {', '.join(alike)}" if alike
                else f"; modules are named from their sys.path root, e.g. {tree.modules[0].name}")
        raise ValueError(f"--build {target}: no module of that name in the tree{hint}")
    return {"check": "networks", "target": target, "file": factory.relpath,
            "factory": target, "root": factory.root, "timeout": timeout,
            "priority": _BUILD_PRIORITY}


class _Verification:
    """One verify run: submits the jobs, follows a factory's listing with its builds, and
    turns the finished jobs into rows once all are done (a row's fix depends on whether
    its file is ported, which is asked of the codemods only for files that fail)."""

    def __init__(self, args: argparse.Namespace, tree: tree_lib.Tree,
                 progress: Progress):
        self.args = args
        self.tree = tree
        self.progress = progress
        self.rows: List[classify.Row] = []
        self.done: List[runner.Done] = []
        self.modules = {module.path: module for module in tree.modules}
        wanted = args.networks.split(",") if args.networks else None
        self.wanted = [name.strip() for name in wanted] if wanted else None
        self.uses: List[names.Use] = []
        self.names_result: Optional[runner.Done] = None

    def jobs(self) -> List[Dict[str, object]]:
        """The first jobs: each --build target, and the import of every module that has code.

        An empty module (not an ``__init__.py``) imports, and defines nothing: a tool
        that rewrote the tree may have emptied it. It gets its row here, not "ok".

        Raises:
          ValueError: a --build target names no module or file.
        """
        jobs = [_build_job(target, self.args.build_timeout, self.tree)
                for target in self.args.build]
        for module in self.tree.modules:
            if os.path.getsize(module.path) or module.path.endswith("__init__.py"):
                jobs.append(_module_job("import", module, self.args.timeout))
            else:
                self.rows.append(classify.Row(
                    check="import", target=module.name, file=module.relpath,
                    kind=kinds.FAILS, message=EMPTY_MODULE))
        return jobs

    def names_job(self, uses: List[names.Use]) -> Dict[str, object]:
        """The call-time check's one job: every distinct TensorFlow name ``uses`` holds."""
        self.uses = uses
        return {"check": "names", "target": _NAMES_TARGET, "file": "",
                "names": names.distinct_names(uses), "runtime": [names.PORTED_RUNTIME],
                "root": self.tree.roots[0],
                "timeout": self.args.timeout, "priority": _NAMES_PRIORITY}

    def finished(self, done: runner.Done, submit) -> None:
        """Records a finished job; submits what follows from it.

        A factory's listing is followed by one build per network; a module that
        imported and is an entry script, by its --helpfull run (one whose import
        fails would only fail again).
        """
        job = done.job
        self.progress.advance(str(job["target"]))
        ok = done.result["status"] == "ok"
        if job["check"] == "names" and ok:
            self.names_result = done
            return
        if job["check"] == "networks" and ok:
            networks = done.result["details"]["networks"]
            chosen = [n for n in networks if self.wanted is None or n in self.wanted]
            for unknown in sorted(set(self.wanted or ()) - set(networks)):
                self.rows.append(classify.Row(
                    check="build", target=f"{job['factory']}:{unknown}", file="",
                    kind=kinds.FAILS, message=f"--networks {unknown}: not in networks_map "
                    f"({', '.join(networks)})"))
            for network in chosen:
                submit(dict(job, check="network", network=network,
                            image_size=image_size_for(network, self.args.image_size),
                            target=f"{job['factory']}:{network}", file=""))
            self.progress.add(len(chosen))
            return
        if job["check"] == "import" and ok and not self.args.no_scripts:
            module = self.modules[str(job["path"])]
            if module.help_option:
                submit(_module_job("script", module, self.args.timeout))
                self.progress.add(1)
        self.done.append(done)

    def classified(self, version: str) -> List[classify.Row]:
        """Every row: the finished jobs classified, then the call-time rows."""
        rows = self.rows + [self._row(done) for done in self.done]
        if self.names_result is None:
            return rows
        return rows + calltime.rows(
            self.tree, self.uses, self.names_result.result["details"]["missing"],
            [row for row in rows if row.check == "import"], version,
            float(self.names_result.result.get("seconds", 0.0)))

    def _row(self, done: runner.Done) -> classify.Row:
        job = done.job
        check = {"networks": "build", "network": "build", "probe": "build",
                 "names": calltime.CHECK}.get(str(job["check"]), str(job["check"]))
        return classify.classify(
            check, str(job["target"]), str(job.get("file", "")), done.result, done.output,
            done.exit_code, done.pid, self.tree, float(job["timeout"]))


def _rows_and_note(verify_run: _Verification,
                   version: str) -> Tuple[List[classify.Row], Optional[str]]:
    """The rows, and the note for a tree that is not ported (None when it is).

    The files of failing rows are asked whether ``slimport rewrite`` would still
    change them (the first ``unported.ASKED``); if any would, the rows are classified
    again, so that their fixes say to run the rewrite instead of blaming it.
    """
    tree = verify_run.tree
    rows = verify_run.classified(version)
    failing = {os.path.join(tree.top, path) for row in rows
               if row.kind in kinds.PORT_FAILURES
               for path in [row.file, (row.where or "").rpartition(":")[0]]
               if path and not os.path.isabs(path)}
    failing = sorted(path for path in failing if os.path.isfile(path))
    asked = failing[:unported.ASKED]
    changed = unported.would_change(asked)
    if not changed:
        return rows, None
    tree.unported.update(os.path.relpath(path, tree.top)
                         for path in changed | set(failing[unported.ASKED:]))
    return verify_run.classified(version), unported.note(tree.top, len(changed), len(asked))


def _preload_failure(ready: Dict[str, object], tree: tree_lib.Tree) -> str:
    row = classify.classify("import", "preload", "", {"status": "error", "error": ready["error"]},
                            "", 0, 0, tree, 0.0)
    where = f" at {row.where}" if row.where else ""
    fix = f"\n  fix: {row.fix}" if row.fix else ""
    return f"importing the preload failed{where}: {row.message}{fix}"


def _header(tree: tree_lib.Tree, ready: Dict[str, object], added_env: Dict[str, str],
            processes: int) -> Dict[str, object]:
    return {"tree": tree.top, "roots": tree.roots, "root_reasons": tree.reasons,
            "versions": ready.get("versions", {}),
            "environment": added_env, "processes": processes,
            "preload_seconds": round(float(ready.get("seconds", 0.0)), 2),
            "worker_pid": ready.get("worker_pid")}


def run(args: argparse.Namespace, can_start: Callable[[], bool] = lambda: True) -> int:
    """Runs verify with parsed arguments; returns the exit code.

    ``can_start`` is asked once every argument and path is checked, before anything
    imports TensorFlow (``slimport verify`` says there how to install it).
    """
    try:
        tree = tree_lib.discover(args.tree, args.path, args.exclude)
    except ValueError as error:
        print(f"slimport verify: {error}", file=sys.stderr)
        return EXIT_ERROR
    if not tree.modules:
        print(f"slimport verify: no Python modules under {tree.top}", file=sys.stderr)
        return EXIT_ERROR
    added_env = dict(item.partition("=")[::2] for item in args.env)
    if PROTOBUF_VARIABLE not in added_env and PROTOBUF_VARIABLE not in os.environ and (
        _needs_python_protobuf(tree)):
        added_env[PROTOBUF_VARIABLE] = "python"
        print(f"note: *_pb2.py files from an old protoc: checks run with "
              f"{PROTOBUF_VARIABLE}=python, as the tree itself needs", file=sys.stderr)
    processes = args.jobs or os.cpu_count() or 1
    config = {
        "roots": tree.roots, "preload": [m for m in args.preload.split(",") if m.strip()],
        "max_children": processes, "tree_names": tree.top_level_names(),
        "tree_dirs": [tree.top] + tree.roots,
        "threads": max(1, (os.cpu_count() or 1) // processes),
    }
    progress = Progress(threshold=0)
    verify_run = _Verification(args, tree, progress)
    try:
        jobs = verify_run.jobs()
    except ValueError as error:
        print(f"slimport verify: {error}", file=sys.stderr)
        return EXIT_ERROR
    if not can_start():
        return EXIT_ERROR
    started = time.monotonic()
    env = runner.worker_environment([f"{k}={v}" for k, v in added_env.items()])
    # The names the call-time check looks up are read while the worker loads TensorFlow.
    reading = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    uses = None if args.no_calls else reading.submit(names.uses_in, tree)
    reading.shutdown(wait=False)
    with tempfile.TemporaryDirectory(prefix="slimport-verify-") as scratch:
        try:
            with runner.Runner(config, env, scratch,
                               on_start=lambda job: progress.show(str(job["target"])),
                               native_log=args.verbose) as pool:
                if pool.ready["event"] == "preload_failed":
                    print(f"slimport verify: {_preload_failure(pool.ready, tree)}", file=sys.stderr)
                    return EXIT_ERROR
                if pool.ready.get("shadowed"):
                    for item in pool.ready["shadowed"]:
                        print(f"slimport verify: the preload imported {item['name']} from "
                              f"{item['file']}, not from the tree: its checks would test that copy "
                              "(change --preload)", file=sys.stderr)
                    return EXIT_ERROR
                if uses is not None:
                    jobs.insert(0, verify_run.names_job(uses.result()))
                progress.add(len(jobs))
                for job in jobs:
                    pool.submit(job)
                for done in pool.results():
                    verify_run.finished(done, pool.submit)
        except runner.WorkerError as error:
            progress.close()
            print(f"slimport verify: {error}", file=sys.stderr)
            return EXIT_ERROR
        finally:
            progress.close()
    header = _header(tree, pool.ready, added_env, processes)
    rows, not_ported = _rows_and_note(verify_run, str(header["versions"].get("tensorflow", "?")))
    header["seconds"] = round(time.monotonic() - started, 2)
    header["not_ported"] = not_ported
    _print(rows, tree, header, args.verbose)
    if args.report:
        report.write_json(args.report, rows, header)
    failed = any(row.kind in kinds.PORT_FAILURES for row in rows)
    return EXIT_FAILS if failed else EXIT_OK


def _roots_lines(tree: tree_lib.Tree) -> List[str]:
    """Which sys.path roots the checks use, and why each."""
    def shown(root: str) -> str:
        return os.path.relpath(root, tree.top)
    if len(tree.roots) == 1:
        root = tree.roots[0]
        return [f"sys.path root {shown(root)}: {tree.reasons.get(root, '')}"]
    return ["sys.path roots, first wins:"] + [
        f"  {shown(root)}: {tree.reasons.get(root, '')}" for root in tree.roots]


def _print(rows: List[classify.Row], tree: tree_lib.Tree, header: Dict[str, object],
           verbose: bool) -> None:
    versions = ", ".join(f"{name} {version}" for name, version in header["versions"].items())
    lines = [f"slimport verify {tree.top}: {len(tree.modules)} modules"]
    if header.get("not_ported"):
        lines.append(f"NOTE: {header['not_ported']}")
    lines += _roots_lines(tree)
    lines += [f"{versions or 'nothing preloaded'}; preload {header['preload_seconds']:.1f} s; "
              f"{header['processes']} at a time; {header['seconds']:.1f} s in all", ""]
    lines += report.table(rows)
    lines += report.details(rows, verbose)
    lines += report.scripts_and_builds(rows, verbose)
    fails = sum(1 for row in rows if row.kind in kinds.PORT_FAILURES)
    lines.append(f"\n{fails} {'check fails' if fails == 1 else 'checks fail'}"
                 if fails else "\nnothing fails")
    print("\n".join(lines))


def run_command(args: argparse.Namespace, can_start: Callable[[], bool] = lambda: True) -> int:
    """``run``, with SIGTERM unwinding like Ctrl-C: the runner then stops the worker and
    its children by process group and the scratch directory is removed."""
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    return run(args, can_start)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m slimport.verify ARGS``; returns the exit code."""
    return run_command(build_parser().parse_args(argv))
