"""tf.contrib.tfprof.ProfileContext: trace, profile and dump Session.run steps.

TF 1.x re-exported ``ProfileContext`` from ``tensorflow.python.profiler.profile_context``
as ``tf.contrib.tfprof.ProfileContext``; TensorFlow 2 dropped that module, but kept
everything it was built on as ``tf.compat.v1.profiler`` (``Profiler``, its
``add_step``/``profile_*`` commands and ``ProfileOptionBuilder``). This is the context
manager written again on top of them, with TF1's arguments and behaviour:

```python
  with ProfileContext('/tmp/train_dir', trace_steps=range(100, 200, 3),
                      dump_steps=[200]) as pctx:
    opts = tf.compat.v1.profiler.ProfileOptionBuilder.time_and_memory()
    pctx.add_auto_profiling('op', opts, [150, 200])
    train_loop()
```

Inside the context every ``Session.run`` (of any session, monitored ones included) is
one step, counted from 0. A traced step runs with a full trace, and its RunMetadata is
added to the profiler under its step number; an auto-profiling step then runs its
command; after a dump step, the profile of the steps traced so far (a ``ProfileProto``)
is written to ``<profile_dir>/profile_<step>``, which the tfprof command line and
``tfprof_log_pb2.ProfileProto`` read.

Without ``trace_steps`` TF1 chose the steps itself; here, as there, the first 10 steps
are not traced (warm-up), then each step whose fetches were not traced before is, up to
100 traced steps; TF1's additional random tracing to raise op coverage is not done.
"""
import contextlib
import os
import threading
from typing import Any, Dict, Iterable, Optional

import tensorflow as tf
from tensorflow.python.client import session as session_lib  # pylint: disable=g-direct-tensorflow-import

# TF1's limits: no auto tracing during the first steps, at most this many traced steps.
WARMUP_STEPS = 10
MAX_TRACED_STEPS = 100

_COMMANDS = {
    "scope": "profile_name_scope",
    "graph": "profile_graph",
    "op": "profile_operations",
    "code": "profile_python",
}


class ProfileContext(object):
  """Traces and profiles the Session.run steps made inside it.

  Args:
    profile_dir: directory the profiles are dumped to (created when needed).
    trace_steps: the steps to trace; None: chosen automatically (see the module).
    dump_steps: the steps after which the profile is dumped; None: step 100.
    enabled: False makes the context do nothing at all.
    debug: also write each traced step's RunMetadata as text to profile_dir.

  Raises:
    ValueError: no profile_dir, or more than 100 trace steps.
  """

  def __init__(self, profile_dir: str, trace_steps: Optional[Iterable[int]] = None,
               dump_steps: Optional[Iterable[int]] = None, enabled: bool = True,
               debug: bool = False):
    self._enabled = enabled
    if not enabled:
      return
    if not profile_dir:
      raise ValueError("ProfileContext needs a directory for the profiles.")
    self._profile_dir = profile_dir
    self._debug = debug
    self._auto_tracing = trace_steps is None
    self._trace_steps = set(trace_steps or ())
    if len(self._trace_steps) > MAX_TRACED_STEPS:
      raise ValueError(f"ProfileContext traces at most {MAX_TRACED_STEPS} steps.")
    self._dump_steps = {MAX_TRACED_STEPS} if dump_steps is None else set(dump_steps)
    self._auto_profiles = []
    self._views: Dict[str, Dict[int, Any]] = {}
    self._traced_fetches = set()
    self._traced_steps = 0
    self._step = 0
    self._trace_next = False
    self._dump_next = False
    self._profiler = None
    self._original_run = None
    # One step at a time is traced; runs on other threads meanwhile run untraced.
    self._lock = threading.Lock()

  @property
  def profiler(self) -> Optional[tf.compat.v1.profiler.Profiler]:
    """The tf.compat.v1.profiler.Profiler the traced steps go to (None when disabled)."""
    if not self._enabled:
      return None
    if self._profiler is None:
      self._profiler = tf.compat.v1.profiler.Profiler(tf.compat.v1.get_default_graph())
    return self._profiler

  def add_auto_profiling(self, cmd: str, options: Dict[str, Any],
                         profile_steps: Iterable[int]) -> None:
    """Traces the given steps and runs a profile command after each.

    Args:
      cmd: 'scope', 'graph', 'op' or 'code'.
      options: the command's options (e.g. ProfileOptionBuilder.time_and_memory()).
      profile_steps: the steps to trace and profile.

    Raises:
      ValueError: an unknown command.
    """
    if not self._enabled:
      return
    if cmd not in _COMMANDS:
      raise ValueError(f"unknown profile command {cmd!r}; one of {sorted(_COMMANDS)}")
    steps = set(profile_steps)
    self._auto_profiles.append((cmd, options, steps))
    self._trace_steps |= steps

  def get_profiles(self, cmd: str) -> Dict[int, Any]:
    """The profiles add_auto_profiling's ``cmd`` made, by step.

    Returns:
      {step: GraphNodeProto ('scope', 'graph') or MultiGraphNodeProto ('op', 'code')}.

    Raises:
      ValueError: ``cmd`` never ran.
    """
    if cmd not in self._views:
      raise ValueError(f"no auto profile of command {cmd!r} has run")
    return self._views[cmd]

  def trace_next_step(self) -> None:
    """Traces the next Session.run (and adds it to the profiler)."""
    if self._enabled:
      self._trace_next = True

  def dump_next_step(self) -> None:
    """Dumps the profile after the next Session.run."""
    if self._enabled:
      self._dump_next = True

  def __enter__(self) -> "ProfileContext":
    if not self._enabled:
      return self
    if getattr(session_lib.BaseSession.run, "_profile_context", None) is not None:
      raise RuntimeError("ProfileContext is already active; they do not nest.")
    self._original_run = original_run = session_lib.BaseSession.run
    context = self

    def run(session, fetches, feed_dict=None, options=None, run_metadata=None):
      return context._run(original_run, session, fetches, feed_dict, options, run_metadata)

    run._profile_context = self  # pylint: disable=protected-access
    session_lib.BaseSession.run = run
    return self

  def __exit__(self, *exc_info) -> None:
    if not self._enabled:
      return
    session_lib.BaseSession.run = self._original_run
    # The profiler lives in one process-wide C++ object: free it for the next one.
    self._profiler = None

  def _should_trace(self, step: int, fetches: Any) -> bool:
    if self._traced_steps >= MAX_TRACED_STEPS:
      return False
    if step in self._trace_steps or self._trace_next:
      return True
    if self._auto_tracing and step >= WARMUP_STEPS:
      key = repr(tf.nest.map_structure(lambda fetch: getattr(fetch, "name", fetch), fetches))
      if key not in self._traced_fetches:
        self._traced_fetches.add(key)
        return True
    return False

  def _run(self, original_run, session, fetches, feed_dict, options, run_metadata):
    with self._next_step() as (step, mine):
      if not mine or not self._should_trace(step, fetches):
        result = original_run(session, fetches, feed_dict, options, run_metadata)
      else:
        result = self._traced_run(original_run, session, step, fetches, feed_dict, options,
                                  run_metadata)
      if step in self._dump_steps or self._dump_next:
        self._write(f"profile_{step}", self._profiler_of(session).serialize_to_string())
      return result

  def _traced_run(self, original_run, session, step, fetches, feed_dict, options,
                  run_metadata):
    traced_options = tf.compat.v1.RunOptions()
    if options is not None:
      traced_options.CopyFrom(options)
    traced_options.trace_level = tf.compat.v1.RunOptions.FULL_TRACE
    metadata = run_metadata if run_metadata is not None else tf.compat.v1.RunMetadata()
    result = original_run(session, fetches, feed_dict, traced_options, metadata)
    self._traced_steps += 1
    profiler = self._profiler_of(session)
    profiler.add_step(step, metadata)
    if self._debug:
      self._write(f"run_meta_{step}", str(metadata).encode())
    for cmd, profile_options, steps in self._auto_profiles:
      if step in steps:
        view = getattr(profiler, _COMMANDS[cmd])(profile_options)
        self._views.setdefault(cmd, {})[step] = view
    return result

  def _profiler_of(self, session):
    # One profiler per process (TensorFlow keeps it in a C++ global): it reads the graph
    # of the session whose step it profiles, as TF1's did.
    profiler = self.profiler
    profiler._graph = session.graph  # pylint: disable=protected-access
    return profiler

  @contextlib.contextmanager
  def _next_step(self):
    mine = self._lock.acquire(blocking=False)
    try:
      yield self._step, mine
    finally:
      self._step += 1
      if mine:
        self._trace_next = self._dump_next = False
        self._lock.release()

  def _write(self, basename: str, content: bytes) -> None:
    tf.io.gfile.makedirs(self._profile_dir)
    with tf.io.gfile.GFile(os.path.join(self._profile_dir, basename), "wb") as output:
      output.write(content)
