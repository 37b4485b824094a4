"""``python -m slim_ext.verify`` (``slimport verify``): after a port, what still does not work."""
import argparse
import os
import signal
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence

from slim_ext.verify import classify, report, runner, tree as tree_lib

EXIT_OK = 0
EXIT_FAILS = 1
EXIT_ERROR = 2
PROTOBUF_VARIABLE = "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"
# Generated-code marker of protoc < 3.20, which current protobuf accepts only
# with its pure-Python implementation.
_OLD_PB2 = b"_descriptor.FieldDescriptor("
_BUILD_PRIORITY = 1

_DESCRIPTION = """\
After `slimport rewrite`, check the ported tree on this TensorFlow: import every
module (each in its own process, forked from one that loaded TensorFlow once, with
a time limit), run every entry script with --helpfull (--help for argparse), and
with --build, build every network of a research/slim-style factory in graph mode
on random input and run one training step. Prints a table of outcomes, then each
problem with the failing statement (file:line) and, where slimport knows the
construct, the fix.
"""

_EPILOG = """\
kinds of outcome:
  ok                     imported / printed its flags / built and trained one step
  blocked                a package the tree needs is not installed (the pip install line
                         is printed), or the installed one is another version
  Python 2 code          does not parse as Python 3, or uses Python 2 names
  does work at import    reads files, exits or parses arguments when imported, or runs
                         past the time limit
  fails                  everything else: what the port is answerable for

examples:
  slimport rewrite models/research/slim --out slim_tf2
  slimport verify slim_tf2 --build nets.nets_factory
  slimport verify facenet_tf2 --path facenet/src --exclude 'tmp/*' --report verify.json
  slimport verify od_tf2 --exclude '*_test.py' -j 2 --timeout 120

exit codes:
  0  nothing fails (blocked, Python 2 and import-time work are listed, not counted)
  1  some check fails
  2  usage error, or verify itself could not run (no TensorFlow, the preload failed)
"""


def _count(value: str) -> int:
  if not value.isdigit():
    raise argparse.ArgumentTypeError(f"{value!r} is not 0 (one per CPU) or a positive number")
  return int(value)


def _seconds(value: str) -> float:
  try:
    seconds = float(value)
  except ValueError:
    seconds = -1.0
  if seconds <= 0:
    raise argparse.ArgumentTypeError(f"{value!r} is not a positive number of seconds")
  return seconds


def _env_item(value: str) -> str:
  if not value.partition("=")[0] or "=" not in value:
    raise argparse.ArgumentTypeError(f"{value!r} is not KEY=VALUE")
  return value


def build_parser() -> argparse.ArgumentParser:
  parser = argparse.ArgumentParser(
      prog="slimport verify", description=_DESCRIPTION,
      epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument(
      "tree", metavar="PORTED_DIR",
      help="the ported tree (e.g. the --out DIR of slimport rewrite); a directory with "
           "an __init__.py is checked as that package")
  parser.add_argument(
      "--path", metavar="DIR", action="append", default=[],
      help="another sys.path root, relative to PORTED_DIR or absolute, as the tree's "
           "scripts expect (repeatable), e.g. --path src")
  parser.add_argument(
      "--build", metavar="TARGET", action="append", default=[],
      help="MODULE: a research/slim-style factory (networks_map, get_network_fn): build "
           "every network and run one training step; or FILE.py:FUNCTION: call FUNCTION "
           "in a new graph, it returns a loss tensor (repeatable), e.g. --build "
           "nets.nets_factory")
  parser.add_argument(
      "--networks", metavar="NAME,...",
      help="build only these networks of the factories, e.g. --networks lenet,cifarnet")
  parser.add_argument(
      "--exclude", metavar="GLOB", action="append", default=[],
      help="leave out files whose tree-relative path matches (repeatable), "
           "e.g. --exclude '*_test.py'")
  parser.add_argument(
      "--no-scripts", action="store_true",
      help="do not run entry scripts with --helpfull (imports and builds only)")
  parser.add_argument(
      "-j", "--jobs", metavar="N", type=_count, default=0,
      help="checks at a time (default 0: one per CPU)")
  parser.add_argument(
      "--timeout", metavar="SECS", type=_seconds, default=120.0,
      help="time limit of one import or entry script (default 120)")
  parser.add_argument(
      "--build-timeout", metavar="SECS", type=_seconds, default=900.0,
      help="time limit of one network build and training step (default 900)")
  parser.add_argument(
      "--preload", metavar="MODULE,...", default="tensorflow",
      help="modules the forking process imports once (default tensorflow; '' for none)")
  parser.add_argument(
      "--env", metavar="KEY=VALUE", action="append", default=[], type=_env_item,
      help="set an environment variable for the checks (repeatable); "
           f"{PROTOBUF_VARIABLE}=python is set by itself when the tree holds *_pb2.py "
           "files from an old protoc")
  parser.add_argument(
      "--report", metavar="FILE.json",
      help="also write every row as JSON (schema: slim_ext/verify/report.py)")
  parser.add_argument(
      "-v", "--verbose", action="store_true",
      help="list every check of a group, every flag, and every ok row")
  return parser


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


def run(args: argparse.Namespace) -> int:
  """Runs verify with parsed arguments; returns the exit code."""
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
  started = time.monotonic()
  env = runner.worker_environment([f"{k}={v}" for k, v in added_env.items()])
  with tempfile.TemporaryDirectory(prefix="slimport-verify-") as scratch:
    try:
      with runner.Runner(config, env, scratch,
                         on_start=lambda job: progress.started(str(job["target"]))) as pool:
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


def main(argv: Optional[Sequence[str]] = None) -> int:
  # SIGTERM unwinds like Ctrl-C: the runner then stops the worker and its children
  # by process group and the scratch directory is removed.
  signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
  return run(build_parser().parse_args(argv))
