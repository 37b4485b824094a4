"""Turns a finished job into a row of the verify table: what kind of outcome, where, the fix.

Kinds, in table order:
  ok           imported / --helpfull printed the flags / built and trained a step.
  blocked      a package or module the tree needs is missing (pip install line, or
               where to get it), or an installed package no longer has what the
               tree uses (the tree needs an older version): not the port's doing.
  python2      Python 2 code: does not parse as Python 3, or uses Python 2 names
               (xrange, urllib2, dict.iteritems).
  import-work  the module does work when imported: reads files, exits, parses the
               command line, or runs past the time limit.
  tree-bug     fails on TensorFlow 1 as well, provably (a flag default of the wrong
               type, a flag the tree defines twice: absl, under tf.app.flags since
               TF 1.5, rejects both): the tree's own bug.
  needs-image-size  a network built at a guessed input size (its factory gives it
               no default_image_size) failed on shapes: give ``--image-size``.
  fails-when-called  a TensorFlow name the code uses does not exist here: the
               module imports, and fails when that code runs (names.py).
  fails        everything else; this is what the port is answerable for, and
               verify exits 1 if any row has it (or fails-when-called).

``where`` is the failing statement, from the traceback: the deepest frame inside
the tree (the file that did not parse, for a syntax error; the stack at expiry,
for a time limit).
"""
import dataclasses
import functools
import importlib.util
import linecache
import os
import re
from typing import Dict, List, Optional, Tuple

from slimport.verify import causes, fixes, known
from slimport.verify.kinds import (BLOCKED, FAILS, IMPORT_WORK, NEEDS_SIZE, OK, PYTHON2,
                                   TREE_BUG, Verdict)
from slimport.verify.tree import Tree

_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")
_NOT_A_PACKAGE = re.compile(r"'([\w.]+)' is not a package")
_DEFINED_TWICE = re.compile(r"First from (\S+), Second from (\S+)")
_CANNOT_IMPORT = re.compile(r"cannot import name '(\w+)' from '([\w.]+)'")
_MODULE_ATTRIBUTE = re.compile(r"module '([\w.]+)' has no attribute '(\w+)'")
_OBJECT_ATTRIBUTE = re.compile(r"object has no attribute '(\w+)'")
_UNDEFINED_NAME = re.compile(r"name '(\w+)' is not defined")
# An error about shapes: what a network built at the wrong input size raises.
_SHAPE_ERROR = re.compile(r"shape|dimension|rank|size|Negative|incompatible", re.IGNORECASE)
_FAULTHANDLER_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+) in (\S+)', re.MULTILINE)
_PY2_SYNTAX = (
    ("Missing parentheses in call to 'print'", "the print statement"),
    ("Missing parentheses in call to 'exec'", "the exec statement"),
    ("multiple exception types must be parenthesized", "`except E, e:`"),
    ("leading zeros in decimal integer literals", "an octal literal like 0777"),
    ("inconsistent use of tabs and spaces", "tabs mixed with spaces"),
)
_IO_ERRORS = frozenset({
    "OSError", "IOError", "FileNotFoundError", "PermissionError", "IsADirectoryError",
    "NotADirectoryError", "NotFoundError", "PermissionDeniedError", "URLError",
    "HTTPError", "ConnectionError", "ConnectionRefusedError", "gaierror", "timeout",
})
_ABSL_FLAG_ERRORS = frozenset({
    "UnparsedFlagAccessError", "DuplicateFlagError", "IllegalFlagValueError",
    "UnrecognizedFlagError", "FlagNameConflictsWithMethodError",
})
_TREE_OWN_RUNTIME = ("tf_slim", "slim_ext", "absl")


@dataclasses.dataclass
class Row:
    """One line of the verify report.

    Attributes:
      check: "import", "script" (entry script run with --helpfull) or "build".
      target: the module, the factory's network (``nets_factory:lenet``) or the
        probe (``probes.py:build``).
      file: the module's file relative to the tree ("" for builds).
      kind: one of kinds.KINDS.
      message: what happened, one line.
      where: ``path:line`` of the failing statement, when known.
      statement: the source text at ``where``.
      fix: what to do, when the construct is a known one.
      install: the distribution a blocked row needs (``pip install`` it).
      seconds: time the check took.
      pid: the process that ran it (gone by the time the report is written).
      details: check output: flags listed, loss reached, networks found.
    """
    check: str
    target: str
    file: str
    kind: str
    message: str
    where: Optional[str] = None
    statement: str = ""
    fix: Optional[str] = None
    install: Optional[str] = None
    seconds: float = 0.0
    pid: int = 0
    details: Dict[str, object] = dataclasses.field(default_factory=dict)

    def as_dict(self) -> Dict[str, object]:
        return dataclasses.asdict(self)


def _first_line(text: str, limit: int = 240) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[:limit - 3] + "..."


def _frames(error: Dict[str, object]) -> List[Tuple[str, int, str]]:
    return [(frame[0], frame[1], frame[3]) for frame in error.get("frames", [])]


def _deepest_in_tree(frames: List[Tuple[str, int, str]],
                     tree: Tree) -> Optional[Tuple[str, int, str]]:
    for frame in reversed(frames):
        if tree.contains(frame[0]):
            return frame
    return None


def _failing_frame(error: Dict[str, object], tree: Tree) -> Optional[Tuple[str, int, str]]:
    """The statement to blame: a syntax error's own line, else the deepest tree frame."""
    if error["type"] in ("SyntaxError", "IndentationError", "TabError") and error.get("filename"):
        return error["filename"], error.get("lineno") or 0, error.get("text", "")
    frame = _deepest_in_tree(_frames(error), tree)
    if frame is None and error.get("cause"):
        frame = _deepest_in_tree(_frames(error["cause"]), tree)
    if frame is None:
        outside = [f for f in _frames(error) if not f[0].startswith("<")]
        frame = outside[-1] if outside else None
    return frame


def _ported(frame: Optional[Tuple[str, int, str]], tree: Tree) -> bool:
    """False when the failing file is one ``slimport rewrite`` would still change."""
    return frame is None or os.path.relpath(frame[0], tree.top) not in tree.unported


def _installed(top: str) -> bool:
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False


def _sibling_directory(frame: Optional[Tuple[str, int, str]], name: str) -> Optional[str]:
    """The importing file's directory when ``name`` is a module right next to it."""
    if frame is None:
        return None
    directory = os.path.dirname(frame[0])
    first = name.split(".")[0]
    if (os.path.isfile(os.path.join(directory, first + ".py"))
        or os.path.isfile(os.path.join(directory, first, "__init__.py"))):
        return directory
    return None


def _tree_file_for(name: str, tree: Tree) -> Optional[Tuple[str, str]]:
    """A file of the tree that is module ``name`` if its directory were on sys.path.

    Returns the file and that directory: ``a/b.py`` or ``a/b/__init__.py`` for
    ``a.b``, hanging from a directory that is not itself a package (so not a
    subpackage that merely shares the name, like keras's backend/jax/).
    """
    relative = os.path.join(*name.split("."))
    for suffix in (relative + ".py", os.path.join(relative, "__init__.py")):
        for module in tree.modules:
            if module.path.endswith(os.sep + suffix):
                root = module.path[:-len(os.sep + suffix)]
                if not os.path.isfile(os.path.join(root, "__init__.py")) or root in tree.roots:
                    return module.path, root
    return None


def _first_on_path(top: str, tree: Tree) -> Optional[str]:
    """The file Python finds for top-level name ``top`` among the tree's roots."""
    for root in tree.roots:
        for candidate in (os.path.join(root, top + ".py"), os.path.join(root, top, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None


def _name_clash(shadowing: str, name: str, tree: Tree) -> Verdict:
    """``import a.b`` found a module ``a`` where the code means a package of the same name."""
    found, meant = _first_on_path(shadowing, tree), _tree_file_for(name, tree)
    found_text = f" ({tree.relative(found)})" if found else ""
    meant_text = f" in {tree.relative(meant[0])}" if meant else ""
    return Verdict(BLOCKED, f"`{shadowing}` is another module here{found_text}, not the "
                    f"package of {name}{meant_text}",
                    f"the tree gives two modules the name `{shadowing}`: this file runs only "
                    "with its package's root ahead on sys.path (reorder --path)")


def _missing_module(name: str, message: str, frame, tree: Tree) -> Verdict:
    top = name.split(".")[0]
    source = frame[2] if frame else ""
    if top in ("tensorflow", "tensorflow_estimator") or fixes.is_shim_target(name):
        return Verdict(FAILS, f"No module named '{name}'",
                        fixes.tensorflow_module(name, source, _ported(frame, tree)))
    if top in known.PY2_MODULES:
        return Verdict(PYTHON2, f"Python 2 module {top}",
                        f"Python 3 calls it {known.PY2_MODULES[top]}")
    clash = _NOT_A_PACKAGE.search(message)
    if clash and clash.group(1).split(".")[0] in tree.top_level_names():
        return _name_clash(clash.group(1), name, tree)
    if known.is_package_name(name) and top not in tree.top_level_names():
        return _not_installed(name)
    sibling = _sibling_directory(frame, name)
    if sibling is not None:
        return Verdict(BLOCKED, f"{top} is next to the importing file, whose directory is not "
                        "on sys.path (a script run from its own directory, or a Python 2 "
                        "implicit relative import)",
                        f"--path {os.path.relpath(sibling, tree.top)}, or `from . import {top}`")
    in_tree = _tree_file_for(name, tree)
    if in_tree is not None and in_tree[1] in tree.roots:
        return _name_clash(top, name, tree)
    if in_tree is not None:
        return Verdict(BLOCKED, f"{name} is in the tree but not on sys.path",
                        f"give its root: --path {os.path.relpath(in_tree[1], tree.top)}")
    extension = causes.extension_not_built(name, tree)
    if extension is not None:
        return extension
    if top in tree.top_level_names():
        generate = (" (a protobuf module: generate it with protoc --python_out)"
                    if name.endswith("_pb2") else "")
        return Verdict(BLOCKED, f"{name} is not in the tree{generate}")
    if "." in name and _installed(top):
        return Verdict(BLOCKED, f"the installed {top} has no module {name}",
                        f"the tree was written for another version of {top}")
    own = _own_location(top, tree.top)
    if own is not None:
        return _own_missing(name, own, tree)
    return _not_installed(name)


def _own_missing(name: str, own: str, tree: Tree) -> Verdict:
    """``name`` starts with a module or package of the tree's own (``tmp``, ``utils``)."""
    base = os.path.dirname(own)
    relative = os.path.join(base, *name.split("."))
    if not (os.path.isfile(relative + ".py") or os.path.isdir(relative)):
        return Verdict(BLOCKED, f"{name} is not in the tree ({name.split('.')[0]} is the "
                       f"tree's own: {tree.relative(own)})")
    return Verdict(BLOCKED, f"{name.split('.')[0]} is the tree's own ({tree.relative(own)}), "
                   "not on sys.path here", f"give the directory holding it: --path "
                   f"{os.path.relpath(base, tree.top)}")


@functools.lru_cache(maxsize=64)
def _own_location(top: str, tree_top: str) -> Optional[str]:
    """The tree's own module or package named ``top`` (excluded files too), shallowest first."""
    for directory, subdirectories, files in os.walk(tree_top):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        if f"{top}.py" in files:
            return os.path.join(directory, f"{top}.py")
        if top in subdirectories and any(
                entry.endswith(".py") for entry in os.listdir(os.path.join(directory, top))):
            return os.path.join(directory, top)
    return None


def _not_installed(name: str) -> Verdict:
    top = name.split(".")[0]
    install, elsewhere = known.distribution(name)
    if install is not None:
        return Verdict(BLOCKED, f"{top} is not installed", f"pip install {install}", install)
    return Verdict(BLOCKED, f"{top} is not installed", elsewhere or (
        f"slimport knows no distribution that provides `{top}` (a PyPI project of that name "
        "may be an unrelated one): install what the tree's README or requirements name, or "
        "give the directory holding it with --path"))


def _cannot_import(name: str, module: str, message: str, frame, tree: Tree) -> Verdict:
    top = module.split(".")[0]
    source = frame[2] if frame else ""
    if top == "tensorflow":
        return Verdict(FAILS, f"cannot import {name} from {module}",
                        fixes.tensorflow_attribute(module, name, source,
                                                   _ported(frame, tree)))
    if top in _TREE_OWN_RUNTIME:
        return Verdict(FAILS, f"cannot import {name} from {module}")
    if "partially initialized module" in message:
        return Verdict(FAILS, f"circular import: {_first_line(message)}")
    if top in tree.top_level_names() or _own_location(top, tree.top) is not None:
        if _tree_file_for(f"{module}.{name}", tree) is None and name.endswith("_pb2"):
            return Verdict(BLOCKED, f"{module}.{name} is not in the tree (a protobuf module: "
                            "generate it with protoc --python_out)")
        return Verdict(FAILS, f"cannot import {name} from {module}")
    return Verdict(BLOCKED, f"the installed {top} has no {module}.{name}",
                    f"the tree was written for another version of {top}")


def _missing_attribute(message: str, frame, tree: Tree) -> Optional[Verdict]:
    source = frame[2] if frame else ""
    match = _MODULE_ATTRIBUTE.search(message)
    if match:
        module, attribute = match.groups()
        top = module.split(".")[0]
        if attribute in known.PY2_ATTRIBUTES and top in ("sys", "string", "os", "itertools"):
            return Verdict(PYTHON2, f"Python 2 name {module}.{attribute}",
                            f"Python 3 spells it {known.PY2_ATTRIBUTES[attribute]}")
        if top == "numpy" and attribute in known.NUMPY_REMOVED:
            return Verdict(FAILS, f"np.{attribute} was removed in numpy 2",
                            f"use {known.NUMPY_REMOVED[attribute]}")
        if top == "tensorflow":
            return Verdict(FAILS, _first_line(message),
                            fixes.tensorflow_attribute(module, attribute, source,
                                                       _ported(frame, tree)))
        if _installed(top) and top not in _TREE_OWN_RUNTIME and frame is not None:
            return Verdict(BLOCKED, f"the installed {top} has no {module}.{attribute}",
                            f"the tree was written for another version of {top}")
        return None
    match = _OBJECT_ATTRIBUTE.search(message)
    if match and match.group(1) in known.PY2_ATTRIBUTES:
        attribute = match.group(1)
        return Verdict(PYTHON2, f"Python 2 method .{attribute}",
                        f"Python 3 spells it {known.PY2_ATTRIBUTES[attribute]}")
    return None


def _flag_error(kind: str, message: str, summary: str, frame) -> Verdict:
    source = frame[2] if frame else ""
    if kind == "UnparsedFlagAccessError":
        return Verdict(FAILS, summary, fixes.FLAG_READ_AT_IMPORT)
    if kind == "IllegalFlagValueError" and "DEFINE_" in source:
        return Verdict(TREE_BUG, f"{summary} (its default)",
                        "give the flag a default of its own type")
    twice = _DEFINED_TWICE.search(message)
    if kind == "DuplicateFlagError" and twice and not any(
        module.startswith("slim_ext") for module in twice.groups()):
        return Verdict(TREE_BUG, summary, "define each flag once")
    return Verdict(FAILS, summary)


def _error_verdict(check: str, error: Dict[str, object], frame, tree: Tree) -> Verdict:
    kind, message = error["type"], error.get("message", "")
    summary = f"{kind}: {_first_line(message)}"
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        construct = next((what for text, what in _PY2_SYNTAX if text in message), None)
        return Verdict(PYTHON2, f"does not parse as Python 3: {_first_line(message)}",
                        f"Python 2 code ({construct}): port the file to Python 3" if construct
                        else "port the file to Python 3 (slimport leaves files that do not "
                        "parse untouched)")
    caused = causes.environment(check, error, frame, _frames(error), tree)
    if caused is not None:
        return caused
    missing = _MISSING_MODULE.search(message)
    if kind in ("ModuleNotFoundError", "ImportError") and missing:
        return _missing_module(error.get("name") or missing.group(1), message, frame, tree)
    cannot = _CANNOT_IMPORT.search(message)
    if kind == "ImportError" and cannot:
        return _cannot_import(cannot.group(1), cannot.group(2), message, frame, tree)
    if kind == "AttributeError":
        verdict = _missing_attribute(message, frame, tree)
        if verdict is not None:
            return verdict
    undefined = _UNDEFINED_NAME.search(message)
    if kind == "NameError" and undefined and undefined.group(1) in known.PY2_BUILTINS:
        name = undefined.group(1)
        return Verdict(PYTHON2, f"Python 2 builtin {name}",
                        f"Python 3 spells it {known.PY2_BUILTINS[name]}")
    if kind in _ABSL_FLAG_ERRORS:
        return _flag_error(kind, message, summary, frame)
    if kind == "RemovedInTF2Error":
        return Verdict(FAILS, f"{kind} at import", _first_line(message, 400))
    if "Descriptors cannot be created directly" in message:
        return Verdict(BLOCKED, "old generated protobuf code", fixes.OLD_PROTOBUF)
    if "is not available with Keras 3" in message or "legacy_tf_layers" in message:
        return Verdict(FAILS, summary, fixes.SLIM_EXT_SHIMS)
    if check in ("import", "script") and kind == "SystemExit":
        status = _first_line(str(error.get("code")).strip("'\""), 120)
        return Verdict(IMPORT_WORK, f"exits when imported (status {status})")
    if check in ("import", "script") and kind in _IO_ERRORS:
        return Verdict(IMPORT_WORK, f"reads files or the network when imported: {summary}")
    return Verdict(FAILS, summary)


def _dump_frame(output: str, tree: Tree) -> Optional[Tuple[str, int, str]]:
    """The innermost tree frame of a faulthandler dump (most recent call first)."""
    for match in _FAULTHANDLER_FRAME.finditer(output):
        if tree.contains(match.group(1)):
            return match.group(1), int(match.group(2)), ""
    return None


def _where(frame, tree: Tree) -> Tuple[Optional[str], str]:
    if frame is None:
        return None, ""
    statement = frame[2] or linecache.getline(frame[0], frame[1])  # a stack dump has no text
    return f"{tree.relative(frame[0])}:{frame[1]}", statement.strip()


_OK_MESSAGES = {
    "import": "imported",
    "script": "printed its flags",
    "build": "built; one training step",
}


def _ok_message(check: str, details: Dict[str, object]) -> str:
    if check == "script":
        flags = details.get("flags", [])
        if not details.get("stopped_at_help"):
            return "ran to the end without printing help (its __main__ reads no flags)"
        return f"printed its flags ({len(flags)} defined)"
    if check == "build" and "loss" in details:
        if details.get("trainable_variables"):
            return (f"built; one training step, loss {details['loss']:.4g} "
                    f"({details['parameters']:,} parameters)")
        return f"built and ran (nothing trainable), value {details['loss']:.4g}"
    return _OK_MESSAGES[check]


def classify(check: str, target: str, file: str, result: Dict[str, object], output: str,
             exit_code: int, pid: int, tree: Tree, time_limit: float) -> Row:
    """Classifies one finished job.

    Args:
      check: "import", "script" or "build".
      target: what was checked, for the report.
      file: the module's tree-relative path ("" for builds).
      result: the worker's result (``status``, ``error``, ``details``, ``seconds``).
      output: the end of what the job printed (a time limit's stack dump is there).
      exit_code: the job process's exit code (negative: killed by that signal).
      pid: the job process's id.
      tree: the tree, to find the failing statement in it.
      time_limit: the job's limit in seconds, for the message.

    Returns:
      The Row.
    """
    row = Row(check=check, target=target, file=file, kind=OK, message="",
              seconds=round(float(result.get("seconds", 0.0)), 3), pid=pid,
              details=dict(result.get("details") or {}))
    status = result["status"]
    if status == "ok":
        row.message = _ok_message(check, row.details)
        return row
    started_server = causes.server(check, output)
    if started_server is not None:
        row.kind, row.message = started_server.kind, started_server.message
        return row
    if status in ("timeout", "crashed"):
        frame = _dump_frame(output, tree)
        row.where, row.statement = _where(frame, tree)
        if status == "timeout":
            row.kind = IMPORT_WORK if check in ("import", "script") else FAILS
            row.message = f"did not finish in {time_limit:g} s"
        else:
            row.kind = FAILS
            row.message = (f"the process died (signal {-exit_code})" if exit_code < 0
                           else f"the process exited with status {exit_code} and no result")
        return row
    error = result["error"]
    frame = _failing_frame(error, tree)
    verdict = _error_verdict(check, error, frame, tree)
    if check == "build" and verdict.kind == FAILS and row.details.get("image_size_guessed") \
            and _SHAPE_ERROR.search(error.get("message", "")):
        network = target.rpartition(":")[2]
        verdict = Verdict(NEEDS_SIZE, f"built at a guessed {row.details['input_shape']} input "
                          f"(the factory gives {network} no default_image_size): "
                          f"{verdict.message}",
                          f"give its input size: --image-size {network}=H[,W]")
    row.where, row.statement = _where(frame, tree)
    row.kind, row.message, row.fix, row.install = (
        verdict.kind, verdict.message, verdict.fix, verdict.install)
    message = _first_line(error.get("message", ""), 400)
    row.details.setdefault("error", f"{error['type']}: {message}")
    return row
