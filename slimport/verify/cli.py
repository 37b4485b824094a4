"""``slimport verify`` (and ``python -m slimport.verify``): after a port, what still
does not work.

The arguments are parsed by ``slimport.verify.arguments`` (``slimport verify``'s own
subcommand parser, or this module's ``main``); ``run`` does the work. Nothing here
imports TensorFlow: the fork server (``worker``) does, in its own process.
"""
import argparse
import os
import signal
import sys
import tempfile
import time
from typing import Callable, Dict, List, Optional, Sequence

from slimport.verify import classify, report, runner, tree as tree_lib
from slimport.verify.arguments import PROTOBUF_VARIABLE, build_parser

EXIT_OK = 0
EXIT_FAILS = 1
EXIT_ERROR = 2
# Generated-code marker of protoc < 3.20, which current protobuf accepts only
# with its pure-Python implementation.
_OLD_PB2 = b"_descriptor.FieldDescriptor("
_BUILD_PRIORITY = 1

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
        raise ValueError(f"--build {target}: no module of that name in the tree "
                         f"(modules are named from their sys.path root, e.g. nets.nets_factory)")
    return {"check": "networks", "target": target, "file": factory.relpath,
            "factory": target, "root": factory.root, "timeout": timeout,
            "priority": _BUILD_PRIORITY}


class _Run:
    """One verify run: submits the jobs, follows a factory's listing with its builds."""

    def __init__(self, args: argparse.Namespace, tree: tree_lib.Tree,
                 progress: report.Progress):
        self.args = args
        self.tree = tree
        self.progress = progress
        self.rows: List[classify.Row] = []
        self.modules = {module.path: module for module in tree.modules}
        wanted = args.networks.split(",") if args.networks else None
        self.wanted = [name.strip() for name in wanted] if wanted else None

    def jobs(self) -> List[Dict[str, object]]:
        jobs = [_build_job(target, self.args.build_timeout, self.tree)
                for target in self.args.build]
        return jobs + [_module_job("import", module, self.args.timeout)
                       for module in self.tree.modules]

    def finished(self, done: runner.Done, submit) -> None:
        """Records a finished job; submits what follows from it.

        A factory's listing is followed by one build per network; a module that
        imported and is an entry script, by its --helpfull run (one whose import
        fails would only fail again).
        """
        job = done.job
        self.progress.finished(str(job["target"]))
        ok = done.result["status"] == "ok"
        if job["check"] == "networks" and ok:
            networks = done.result["details"]["networks"]
            chosen = [n for n in networks if self.wanted is None or n in self.wanted]
            for unknown in sorted(set(self.wanted or ()) - set(networks)):
                self.rows.append(classify.Row(
                    check="build", target=f"{job['factory']}:{unknown}", file="",
                    kind=classify.FAILS, message=f"--networks {unknown}: not in networks_map "
                    f"({', '.join(networks)})"))
            for network in chosen:
                submit(dict(job, check="network", network=network,
                            target=f"{job['factory']}:{network}", file=""))
            self.progress.add(len(chosen))
            return
        if job["check"] == "import" and ok and not self.args.no_scripts:
            module = self.modules[str(job["path"])]
            if module.help_option:
                submit(_module_job("script", module, self.args.timeout))
                self.progress.add(1)
        check = {"networks": "build", "network": "build", "probe": "build"}.get(
            str(job["check"]), str(job["check"]))
        self.rows.append(classify.classify(
            check, str(job["target"]), str(job.get("file", "")), done.result, done.output,
            done.exit_code, done.pid, self.tree, float(job["timeout"])))


def _preload_failure(ready: Dict[str, object], tree: tree_lib.Tree) -> str:
    row = classify.classify("import", "preload", "", {"status": "error", "error": ready["error"]},
                            "", 0, 0, tree, 0.0)
    where = f" at {row.where}" if row.where else ""
    fix = f"\n  fix: {row.fix}" if row.fix else ""
    return f"importing the preload failed{where}: {row.message}{fix}"


def _header(tree: tree_lib.Tree, ready: Dict[str, object], added_env: Dict[str, str],
            processes: int) -> Dict[str, object]:
    return {"tree": tree.top, "roots": tree.roots, "versions": ready.get("versions", {}),
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
    progress = report.Progress()
    verify_run = _Run(args, tree, progress)
    try:
        jobs = verify_run.jobs()
    except ValueError as error:
        print(f"slimport verify: {error}", file=sys.stderr)
        return EXIT_ERROR
    if not can_start():
        return EXIT_ERROR
    started = time.monotonic()
    env = runner.worker_environment([f"{k}={v}" for k, v in added_env.items()])
    with tempfile.TemporaryDirectory(prefix="slimport-verify-") as scratch:
        try:
            with runner.Runner(config, env, scratch,
                               on_start=lambda job: progress.started(str(job["target"])),
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
    header["seconds"] = round(time.monotonic() - started, 2)
    _print(verify_run.rows, tree, header, args.verbose)
    if args.report:
        report.write_json(args.report, verify_run.rows, header)
    return EXIT_FAILS if any(row.kind == classify.FAILS for row in verify_run.rows) else EXIT_OK


def _print(rows: List[classify.Row], tree: tree_lib.Tree, header: Dict[str, object],
           verbose: bool) -> None:
    versions = ", ".join(f"{name} {version}" for name, version in header["versions"].items())
    roots = ", ".join(os.path.relpath(root, tree.top) for root in tree.roots)
    lines = [f"slimport verify {tree.top}: {len(tree.modules)} modules (sys.path roots: "
             f"{roots})",
             f"{versions or 'nothing preloaded'}; preload {header['preload_seconds']:.1f} s; "
             f"{header['processes']} at a time; {header['seconds']:.1f} s in all", ""]
    lines += report.table(rows)
    lines += report.details(rows, verbose)
    lines += report.scripts_and_builds(rows, verbose)
    fails = sum(1 for row in rows if row.kind == classify.FAILS)
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
