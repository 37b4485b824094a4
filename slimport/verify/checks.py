"""What a child of the verify worker does for one job, and the worker's preload.

Imported by worker.py only (it must not import slim_ext: see there; the names
check alone loads it, in its own child). Each
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
  network   build one network of the factory in a new graph on random images
            (video clips for a network that takes rank-5 input), and run one
            training step.
  probe     call ``FUNCTION`` of ``FILE.py`` in a new graph; it returns a loss
            tensor, trained for one step (or evaluated once when nothing in the
            graph is trainable).
  names     look up every TensorFlow name the tree uses (slimport/verify/names.py
            lists them) with slim_ext loaded: the ones that do not exist fail when
            the code that uses them runs.
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
from typing import Any, Callable, Dict, Iterable, List, Optional, Set

Json = Dict[str, Any]

BATCH = 2
NUM_CLASSES = 10
LEARNING_RATE = 0.01
# A factory network with no default_image_size (and no --image-size) is built at this.
GUESSED_IMAGE_SIZE = 224
# Clips for video networks: the fewest frames research/slim's i3d and s3dg reduce
# to their final temporal pooling.
VIDEO_FRAMES = 16
_VIDEO_INPUT = re.compile(r"rank 5|ndim=5|5-D|rank=5")
_LOGITS_KEYS = ("Logits", "logits")
# What a check learned before it failed (the input it built, a guessed size): the
# coordinator reads it with the error. One job per forked process, so one dict.
_NOTES: Json = {}
# A name looked up and not found (None is a value a name may have).
_MISSING = object()
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


def _images(tf: Any, job: Json, network_fn: Callable[..., Any], frames: int) -> Any:
    """Random input for a network: images, or video clips when ``frames``.

    The size is ``--image-size``'s, else the network's ``default_image_size``, else
    a guess (noted, so that a failure under it reads as "needs --image-size").
    """
    size = job.get("image_size")
    if size is None:
        default = getattr(network_fn, "default_image_size", None)
        _NOTES["image_size_guessed"] = not default
        size = [default or GUESSED_IMAGE_SIZE] * 2
    shape = [BATCH, frames, *size, 3] if frames else [BATCH, *size, 3]
    _NOTES["input_shape"] = shape
    return tf.random.uniform(shape)


def _loss_of(tf: Any, output: Any) -> Any:
    """A loss on what a network returned: logits, (logits, end_points), or end points alone."""
    if isinstance(output, (tuple, list)):
        output = output[0]
    if isinstance(output, dict):
        logits = next((output[key] for key in _LOGITS_KEYS if key in output), None)
        if logits is None:
            # Only end points: any differentiable function of them trains the network.
            floats = [value for value in output.values()
                      if tf.is_tensor(value) and value.dtype.is_floating]
            _NOTES["output"] = f"a dict of {len(floats)} end points"
            return tf.add_n([tf.reduce_mean(tf.square(value)) for value in floats])
        output = logits
    logits = tf.reshape(output, [BATCH, -1])
    classes = logits.shape[-1] or NUM_CLASSES
    labels = tf.random.uniform([BATCH], maxval=classes, dtype=tf.int32)
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


def _network_loss(job: Json, frames: int = 0) -> Callable[[], Any]:
    import tensorflow as tf  # pylint: disable=g-import-not-at-top  (preloaded)
    factory = _network_factory(job)

    def loss() -> Any:
        network_fn = factory.get_network_fn(job["network"], **_accepted(
            factory.get_network_fn, {"num_classes": NUM_CLASSES, "is_training": True}))
        return _loss_of(tf, network_fn(_images(tf, job, network_fn, frames)))
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
    """Builds one network of a factory on images, or on video clips when it takes those.

    A factory says nothing of its input's rank: research/slim's i3d and s3dg take
    [batch, frames, height, width, channels]. A network whose first layer asks for
    rank 5 is built again on clips.
    """
    try:
        return dict(one_training_step(_network_loss(job), config["threads"]), **_NOTES)
    except Exception as error:  # pylint: disable=broad-except
        if not _VIDEO_INPUT.search(str(error)):
            raise
    return dict(one_training_step(_network_loss(job, VIDEO_FRAMES), config["threads"]),
                **_NOTES)


def _check_probe(job: Json, config: Json) -> Json:
    return one_training_step(_probe_function(job), config["threads"])


def _lookup(name: str, found: Dict[str, Any]) -> Optional[int]:
    """Looks ``name`` up as Python would when the code runs; the index of the first part
    that does not exist, else None.

    Attributes are followed while the value is a module or a class: past an instance
    (``FLAGS.batch_size``, ``tf.float32.max``) names are data, not API. A part that
    is not an attribute of a module may be a submodule not imported yet. A package
    that is not installed at all is the import check's business (None).
    """
    parts = name.split(".")
    if parts[0] not in found:
        try:
            found[parts[0]] = importlib.import_module(parts[0])
        except Exception:  # pylint: disable=broad-except
            found[parts[0]] = None
    value = found[parts[0]]
    for index in range(1, len(parts)):
        if value is None or not (inspect.ismodule(value) or inspect.isclass(value)):
            return None
        prefix = ".".join(parts[:index + 1])
        if prefix in found:
            value = found[prefix]
            if value is _MISSING:
                return index
            continue
        try:
            value = getattr(value, parts[index])
        except Exception:  # pylint: disable=broad-except  (lazy loaders raise anything)
            value = _MISSING
            if inspect.ismodule(found.get(".".join(parts[:index]))):
                try:
                    value = importlib.import_module(prefix)
                except Exception:  # pylint: disable=broad-except
                    pass
        found[prefix] = value
        if value is _MISSING:
            return index
    return None


def _alternatives(name: str, found: Dict[str, Any]) -> List[str]:
    """Where a missing TensorFlow or Keras name does exist: compat.v1, TF2, tf_keras."""
    relative = name.partition(".")[2]
    for prefix in ("compat.v1.", "compat.v2."):
        if relative.startswith(prefix):
            relative = relative[len(prefix):]
    candidates = []
    internal = relative.split(".")
    if name.startswith("tensorflow.python.") and len(internal) >= 3:
        # An internal module's name TF 2 exports only under tf.compat.v1 (graph_util's).
        candidates.append(f"tensorflow.compat.v1.{internal[-2]}.{internal[-1]}")
    if name.startswith("tensorflow."):
        candidates += [f"tensorflow.compat.v1.{relative}", f"tensorflow.{relative}"]
        if relative.startswith("keras."):
            candidates.append(f"tf_keras.{relative[len('keras.'):]}")
    elif name.startswith("keras."):
        candidates.append(f"tf_keras.{relative}")
    return [candidate for candidate in candidates
            if candidate != name and _lookup(candidate, found) is None]


def _check_names(job: Json, config: Json) -> Json:
    """Looks up every name the tree uses (names.py read them), the job's ``runtime``
    modules loaded first.

    The one check that loads the runtime ported code imports (slim_ext, whose shims
    restore names), in its own child: it asks what that code finds when it runs.
    """
    del config
    found: Dict[str, Any] = {}
    loaded = []
    for runtime in job["runtime"]:
        try:
            importlib.import_module(runtime)
            loaded.append(runtime)
        except Exception:  # pylint: disable=broad-except  (then names are looked up without)
            pass
    missing = {}
    for name in job["names"]:
        index = _lookup(name, found)
        if index is not None:
            missing[name] = {"missing": ".".join(name.split(".")[:index + 1]),
                             "exists_as": _alternatives(name, found)}
    return {"checked": len(job["names"]), "missing": missing, "loaded": loaded}


_CHECKS = {
    "import": _check_import,
    "script": _check_script,
    "networks": _check_networks,
    "network": _check_network,
    "probe": _check_probe,
    "names": _check_names,
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
        details, error = dict(_NOTES), describe(caught)
    return {"status": "ok" if error is None else "error",
            "seconds": time.monotonic() - started, "error": error, "details": details}
