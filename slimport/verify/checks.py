"""What a child of the verify worker does for one job, and the worker's preload.

Imported by worker.py only (it must not import slim_ext: see there). Each
check runs in a forked child whose output goes to its own log; it returns a
JSON-able result: ``status`` ("ok" or "error"), ``seconds``, ``error`` (the
exception described by ``describe``) and ``details`` (flags listed, loss
reached, networks found). Classifying an error is the coordinator's business.

Checks:
  import    import one module of the tree (by name, or by path when its file
            name is not an identifier).
  script    run an entry script as ``__main__`` with ``--helpfull`` (absl / TF
            flags) or ``--help`` (argparse) and list the flags it defines.
  networks  import a research/slim-style factory and list its ``networks_map``.
  network   build one network of the factory in a new graph on random images,
            and run one training step.
  probe     call ``FUNCTION`` of ``FILE.py`` in a new graph; it returns a loss
            tensor, trained for one step (or evaluated once when nothing in the
            graph is trainable).
"""
import faulthandler
import importlib
import importlib.util
import inspect
import io
import math
import os
import re
import runpy
import sys
import time
import traceback
from types import ModuleType
from typing import Any, Callable, Dict, Iterable, Optional, Set

Json = Dict[str, Any]

BATCH = 2
NUM_CLASSES = 10
LEARNING_RATE = 0.01
_MAX_FRAMES = 60
# What the versions line of the report names, when the preload loaded them.
_VERSIONED = ("tensorflow", "tf_keras", "keras", "tf_slim", "numpy")
_HELP_TEXT = re.compile(r"^\s*(usage:|--\w)|^\s*flags:", re.IGNORECASE | re.MULTILINE)
_OPTION = re.compile(r"(?<![\w-])--([A-Za-z][\w-]*)")


def describe(error: BaseException, depth: int = 0) -> Json:
    """An exception as plain data: type, message, traceback frames, and its cause."""
    try:
        # A syntax error's str() repeats the file and line, which are kept apart.
        message = error.msg if isinstance(error, SyntaxError) else str(error)
    except Exception:  # pylint: disable=broad-except
        message = f"<{type(error).__name__}: str() failed>"
    frames = traceback.extract_tb(error.__traceback__)[-_MAX_FRAMES:]
    info = {
        "type": type(error).__name__,
        "module": type(error).__module__,
        "message": message[:4000],
        "frames": [[frame.filename, frame.lineno, frame.name, frame.line or ""]
                   for frame in frames],
    }
    if isinstance(error, SyntaxError):
        info.update(filename=error.filename, lineno=error.lineno,
                    text=(error.text or "").strip())
    if isinstance(error, ImportError):
        info.update(name=error.name, path=error.path)
    if isinstance(error, SystemExit):
        info["code"] = repr(error.code)
    cause = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
    if cause is not None and depth == 0:
        info["cause"] = describe(cause, depth + 1)
    return info


def _file_of(module: Optional[ModuleType]) -> Optional[str]:
    location = getattr(module, "__file__", None)
    return os.path.realpath(location) if location else None


def preload(config: Json) -> Json:
    """Imports the preload modules once, in the worker, before any fork.

    Returns:
      ``error`` (None, or the failure described), ``versions`` of what got loaded,
      and ``shadowed``: top-level names of the tree that the preload imported from
      somewhere else (the checks would then test that copy, not the tree's).
    """
    try:
        for name in config["preload"]:
            importlib.import_module(name)
    except BaseException as error:  # pylint: disable=broad-except
        return {"error": describe(error)}
    versions = {name: str(getattr(sys.modules[name], "__version__", "?"))
                for name in _VERSIONED if name in sys.modules}
    shadowed = []
    for name in config["tree_names"]:
        module = sys.modules.get(name)
        location = module is not None and _file_of(module)
        if location and not any(location.startswith(d + os.sep) for d in config["tree_dirs"]):
            shadowed.append({"name": name, "file": location})
    return {"error": None, "versions": versions, "shadowed": shadowed}


def _import(job: Json) -> ModuleType:
    if job.get("module"):
        return importlib.import_module(job["module"])
    spec = importlib.util.spec_from_file_location(job["stem"], job["path"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[job["stem"]] = module
    spec.loader.exec_module(module)
    return module


def _check_import(job: Json, config: Json) -> Json:
    del config
    _import(job)
    return {}


class _Tee(io.TextIOBase):
    """Writes to a stream and keeps a copy, to read what a script printed."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def _defined_by(module_name: str, script: str, tree_dirs: Iterable[str]) -> bool:
    """True for flags of the script itself, of a tree module, or of slim_ext (platform flags)."""
    if module_name in (script, "__main__") or module_name.startswith("slim_ext"):
        return True
    location = _file_of(sys.modules.get(module_name))
    return bool(location) and any(location.startswith(d + os.sep) for d in tree_dirs)


def _script_flag_names(script: str, tree_dirs: Iterable[str]) -> Set[str]:
    """The flags the script and its tree define: not absl's, TensorFlow's or a test runner's."""
    flags = sys.modules.get("absl.flags")
    if flags is None:
        return set()
    return {flag.name for module, defined in flags.FLAGS.flags_by_module_dict().items()
            if _defined_by(module, script, tree_dirs) for flag in defined}


def _check_script(job: Json, config: Json) -> Json:
    sys.argv = [job["path"], job["help_option"]]
    tee = _Tee(sys.stdout)
    sys.stdout = sys.stderr = tee
    try:
        runpy.run_path(job["path"], run_name="__main__")
    except SystemExit as exit_request:
        printed = tee.copy.getvalue()
        if not _HELP_TEXT.search(printed):
            raise RuntimeError(
                f"exited with status {exit_request.code!r} without printing help after "
                f"{job['help_option']}: {printed.strip()[-800:]}") from exit_request
        defined = _script_flag_names(job["path"], config["tree_dirs"]) or (
            set(_OPTION.findall(printed)) - {"help"})
        return {"stopped_at_help": True, "flags": sorted(defined)}
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    return {"stopped_at_help": False,
            "flags": sorted(_script_flag_names(job["path"], config["tree_dirs"]))}


def _network_factory(job: Json) -> ModuleType:
    factory = importlib.import_module(job["factory"])
    for required in ("networks_map", "get_network_fn"):
        if not hasattr(factory, required):
            raise AttributeError(
                f"{job['factory']} is not a research/slim-style factory: it has no "
                f"{required} (verify --build needs networks_map and get_network_fn)")
    return factory


def _check_networks(job: Json, config: Json) -> Json:
    del config
    return {"networks": sorted(_network_factory(job).networks_map)}


def _accepted(function: Callable[..., Any], candidates: Json) -> Json:
    parameters = inspect.signature(function).parameters
    if any(p.kind == p.VAR_KEYWORD for p in parameters.values()):
        return dict(candidates)
    return {name: value for name, value in candidates.items() if name in parameters}


def _network_loss(job: Json) -> Callable[[], Any]:
    import tensorflow as tf  # pylint: disable=g-import-not-at-top  (preloaded)
    factory = _network_factory(job)

    def loss() -> Any:
        network_fn = factory.get_network_fn(job["network"], **_accepted(
            factory.get_network_fn, {"num_classes": NUM_CLASSES, "is_training": True}))
        size = getattr(network_fn, "default_image_size", 224)
        images = tf.random.uniform([BATCH, size, size, 3])
        output = network_fn(images)
        logits = output[0] if isinstance(output, (tuple, list)) else output
        logits = tf.reshape(logits, [BATCH, -1])
        classes = logits.shape[-1] or NUM_CLASSES
        labels = tf.random.uniform([BATCH], maxval=classes, dtype=tf.int32)
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return loss


def _probe_function(job: Json) -> Callable[[], Any]:
    path, function = job["probe_file"], job["probe_function"]
    spec = importlib.util.spec_from_file_location("_slimport_verify_probe", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, function, None)):
        raise AttributeError(f"{path} has no function {function}")
    return getattr(module, function)


def one_training_step(make_loss: Callable[[], Any], threads: int) -> Json:
    """Builds ``make_loss()`` in a new graph and runs one gradient-descent step.

    TF1 behaviour, as the ported entry scripts run (``disable_v2_behavior``:
    graph mode, TF1 shapes and variables; this process is a throw-away fork);
    regularization losses are added and UPDATE_OPS (batch-norm statistics) run
    with the step.

    Args:
      make_loss: builds the model and returns a loss tensor (reduced to its mean).
      threads: TensorFlow intra- and inter-op threads for the session.

    Returns:
      ``loss`` (before the step), ``trainable_variables`` and ``parameters``;
      with nothing trainable the loss is only evaluated.

    Raises:
      FloatingPointError: the loss is not finite.
    """
    import tensorflow as tf  # pylint: disable=g-import-not-at-top  (preloaded)
    v1 = tf.compat.v1
    v1.disable_v2_behavior()
    graph = tf.Graph()
    with graph.as_default():
        v1.set_random_seed(0)
        loss = tf.reduce_mean(tf.cast(make_loss(), tf.float32))
        regularization = v1.losses.get_regularization_losses()
        if regularization:
            loss += tf.add_n(regularization)
        variables = v1.trainable_variables()
        fetches = [loss]
        if variables:
            with tf.control_dependencies(v1.get_collection(v1.GraphKeys.UPDATE_OPS)):
                fetches.append(v1.train.GradientDescentOptimizer(LEARNING_RATE).minimize(loss))
        initializers = [v1.global_variables_initializer(), v1.local_variables_initializer(),
                        v1.tables_initializer()]
        session_config = v1.ConfigProto(intra_op_parallelism_threads=threads,
                                        inter_op_parallelism_threads=threads)
        with v1.Session(graph=graph, config=session_config) as session:
            session.run(initializers)
            value = float(session.run(fetches)[0])
    if not math.isfinite(value):
        raise FloatingPointError(f"the loss is {value} after one training step")
    return {"loss": value, "trainable_variables": len(variables),
            "parameters": int(sum(v.shape.num_elements() or 0 for v in variables))}


def _check_network(job: Json, config: Json) -> Json:
    return one_training_step(_network_loss(job), config["threads"])


def _check_probe(job: Json, config: Json) -> Json:
    return one_training_step(_probe_function(job), config["threads"])


_CHECKS = {
    "import": _check_import,
    "script": _check_script,
    "networks": _check_networks,
    "network": _check_network,
    "probe": _check_probe,
}


def run(job: Json, config: Json) -> Json:
    """Runs one job in this (forked) process and returns its result.

    The time limit is armed first: faulthandler dumps every thread's stack to
    the job's log when it expires and exits, so a hang is reported where it hung.
    """
    faulthandler.enable()
    faulthandler.dump_traceback_later(job["timeout"], exit=True)
    root = job.get("root")
    if root:
        sys.path[:] = [root] + [entry for entry in sys.path if entry != root]
    sys.argv = [job.get("path") or job.get("probe_file") or "verify"]
    started = time.monotonic()
    try:
        details, error = _CHECKS[job["check"]](job, config), None
    except BaseException as caught:  # pylint: disable=broad-except
        details, error = {}, describe(caught)
    return {"status": "ok" if error is None else "error",
            "seconds": time.monotonic() - started, "error": error, "details": details}
