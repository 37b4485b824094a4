"""mox.run, mox.ModelSpec, mox.ModeKeys, mox.get_flag/set_flag: MoXing's executor.

MoXing calls ``input_fn(run_mode, **kwargs)`` and ``model_fn(inputs,
run_mode, **kwargs)`` with its own mode strings ("TRAIN", "EVAL"), hands
model_fn the inputs as a list, and counts ``max_number_of_steps`` per worker.
``run`` here keeps all of that and runs the job with ``slim_ext.run``
(``slim_ext.runner``): clones from ``--num_gpus``, a ps/worker cluster from
``--ps_hosts --worker_hosts --job_name --task_index`` (or TF_CONFIG), read
from the command line even at module level, and the loss and log_info
printed every ``log_every_n_steps``.

``export_model=mox.ExportKeys.TF_SERVING`` exports the model after the run
(``slim_ext.mox.serving``: model_fn called in EXPORT mode, its
``export_spec`` written with the last checkpoint as a SavedModel under
log_dir). What MoXing's run does beyond that (PREDICT and its output_fn,
evaluation interleaved with training, several losses with var_scopes, session
hooks) raises ValueError naming the argument and what to do instead.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from absl import flags
import tensorflow.compat.v1 as tf

from slim_ext import cluster
from slim_ext import model_spec
from slim_ext import runner
from slim_ext.mox import serving
from slim_ext.run_console import console
from slim_ext.run_inputs import checkpoint_file

# slim_ext.run's own default: save a checkpoint every 10 minutes.
DEFAULT_SAVE_MODEL_SECS = 600


class ModeKeys:
  """MoXing's run modes, the strings mox.run passes to input_fn and model_fn.

  mox.run trains (TRAIN) and evaluates (EVAL), then with `export_model`
  calls model_fn once more in EXPORT to build the exported model; PREDICT
  exists so that scripts comparing against it still import.
  """
  TRAIN = "TRAIN"
  EVAL = "EVAL"
  PREDICT = "PREDICT"
  EXPORT = "EXPORT"


_RUNNER_MODES = {ModeKeys.TRAIN: model_spec.ModeKeys.TRAIN,
                 ModeKeys.EVAL: model_spec.ModeKeys.EVAL}

# ModelSpec fields slim_ext does not run: field -> what to do instead.
_UNSUPPORTED_SPEC_FIELDS = {
    "var_scopes": "every trainable variable is trained; create the variables "
                  "that must stay fixed with trainable=False, or stop their "
                  "gradients with tf.stop_gradient",
    "output_info": "it feeds output_fn in PREDICT, which slim_ext.mox does not "
                   "run; restore the checkpoint in a tf.compat.v1.Session and "
                   "fetch the tensors",
    "hooks": "mox.run takes no session hooks; compute what a hook fed or "
             "fetched inside input_fn / model_fn",
}

# mox.run arguments slim_ext does not run: argument -> what to do instead.
_UNSUPPORTED_RUN_ARGUMENTS = {
    "output_fn": "PREDICT is not run; restore the checkpoint in a "
                 "tf.compat.v1.Session and fetch the predictions",
    "output_every_n_steps": "it paces output_fn, which is not run",
    "inter_mode": "evaluation interleaved with training is not run; start a "
                  "separate job with run_mode=mox.ModeKeys.EVAL on the "
                  "checkpoints",
    "fetch_strategy_fn": "there is no fetch strategy; fetch in model_fn's "
                         "log_info",
    "save_model_steps": "checkpoints are saved by time; use save_model_secs",
}


class ModelSpec(model_spec.ModelSpec):
  """What model_fn returns: ``mox.ModelSpec(loss=..., log_info={...})``.

  `loss` and `log_info` are slim_ext.ModelSpec's (a scalar loss, required in
  TRAIN; scalar tensors to print while training and to average in EVAL).
  `export_spec` (a mox.ExportSpec) names the tensors ``mox.run(export_model=
  ...)`` exports; it is read in EXPORT and ignored in the other modes.
  MoXing's other fields must be left unset.

  Raises:
    ValueError: `loss` is a list (several losses), or another MoXing field
      is set; the message names it and what to do instead.
    TypeError: as slim_ext.ModelSpec, for a field that is not a scalar, and
      when `export_spec` is not a mox.ExportSpec.
  """

  def __init__(self, loss: Any = None, var_scopes: Any = None,
               log_info: Optional[Dict[str, Any]] = None,
               output_info: Any = None, export_spec: Any = None,
               hooks: Any = None):
    if isinstance(loss, (list, tuple)):
      raise ValueError(
          f"ModelSpec.loss: a list of {len(loss)} losses (one update per "
          "loss, e.g. a GAN) is not supported by slim_ext.mox; return one "
          "scalar loss, or train the parts in separate runs.")
    given = {"var_scopes": var_scopes, "output_info": output_info,
             "hooks": hooks}
    for field, value in given.items():
      if value:
        raise ValueError(f"ModelSpec.{field}: not supported by slim_ext.mox: "
                         f"{_UNSUPPORTED_SPEC_FIELDS[field]}.")
    if export_spec is not None and not isinstance(export_spec,
                                                  serving.ExportSpec):
      raise TypeError("ModelSpec.export_spec: expected mox.ExportSpec("
                      f"inputs_dict=..., outputs_dict=...), got {export_spec!r}.")
    super().__init__(loss=loss, log_info=log_info)
    object.__setattr__(self, "export_spec", export_spec)


def _runner_mode(run_mode: Any) -> model_spec.ModeKeys:
  """slim_ext's mode for a MoXing run_mode ("TRAIN", "EVAL", any case)."""
  name = run_mode.upper() if isinstance(run_mode, str) else run_mode
  if name in _RUNNER_MODES:
    return _RUNNER_MODES[name]
  if name in (ModeKeys.PREDICT, ModeKeys.EXPORT):
    raise ValueError(
        f"run_mode: {run_mode!r} is not run by slim_ext.mox (TRAIN and EVAL "
        "are); restore the checkpoint in a tf.compat.v1.Session to predict, "
        "and save it with tf.compat.v1.saved_model to export.")
  raise ValueError(f"run_mode: {run_mode!r} is not mox.ModeKeys.TRAIN or "
                   "mox.ModeKeys.EVAL.")


def _as_list(inputs: Any) -> Any:
  """What model_fn gets: input_fn's tensors as a list, as MoXing gives them."""
  if isinstance(inputs, tf.Tensor):
    return [inputs]
  if isinstance(inputs, tuple):
    return list(inputs)
  return inputs


def run(input_fn: Optional[Callable[..., Any]] = None,
        output_fn: Optional[Callable[..., Any]] = None,
        model_fn: Optional[Callable[..., ModelSpec]] = None,
        optimizer_fn: Optional[Callable[[], tf.train.Optimizer]] = None,
        run_mode: str = "invalid",
        inter_mode: Optional[str] = None,
        batch_size: Optional[int] = None,
        auto_batch: bool = True,
        log_dir: Optional[str] = None,
        max_number_of_steps: int = 0,
        checkpoint_path: Optional[str] = None,
        log_every_n_steps: int = 10,
        output_every_n_steps: int = 0,
        save_summary_steps: int = 100,
        save_model_secs: Optional[int] = None,
        export_model: Any = False,
        fetch_strategy_fn: Optional[Callable[..., Any]] = None,
        save_model_steps: Optional[int] = None) -> Dict[str, float]:
  """Trains or evaluates like ``moxing.tensorflow.run``, on slim_ext.run.

  Args:
    input_fn: ``input_fn(run_mode, **kwargs)`` -> tensors (a batch, e.g.
      ``iterator.get_next()``; single examples with `batch_size` and
      `auto_batch`) or a tf.data.Dataset.
    output_fn: not supported (PREDICT); must be None.
    model_fn: ``model_fn(inputs, run_mode, **kwargs)`` -> ModelSpec; `inputs`
      is input_fn's tensors as a list (one tensor becomes ``[tensor]``).
      Called once per GPU (--num_gpus) with that GPU's share of the batch.
    optimizer_fn: ``optimizer_fn()`` -> optimizer (e.g.
      ``mox.get_optimizer_fn('sgd', learning_rate=0.5)``); TRAIN only.
    run_mode: mox.ModeKeys.TRAIN or mox.ModeKeys.EVAL.
    inter_mode: not supported; must be None.
    batch_size: with `auto_batch`, input_fn gives single examples and they
      are batched, `batch_size` per GPU; without it, only informative.
    auto_batch: see `batch_size`.
    log_dir: TRAIN: checkpoints and summaries; EVAL: summaries (optional).
    max_number_of_steps: TRAIN: steps of this worker; EVAL: batches. 0, or a
      number the data ends before (sys.maxsize): until input_fn's data ends.
    checkpoint_path: EVAL: checkpoint or training directory to evaluate.
      TRAIN: start from it when log_dir has no checkpoint yet.
    log_every_n_steps: print the loss and log_info every N steps.
    output_every_n_steps: not supported (output_fn); must be 0.
    save_summary_steps: write summaries every N steps.
    save_model_secs: save a checkpoint every N seconds (default 600).
    export_model: mox.ExportKeys.TF_SERVING: after the run, the chief (or
      the only process) calls model_fn in EXPORT and saves its export_spec
      with the run's last checkpoint (TRAIN: log_dir's; EVAL: the one
      evaluated) as a SavedModel in ``log_dir/<version>``
      (slim_ext.mox.serving). False or None: nothing is exported.
    fetch_strategy_fn: not supported; must be None.
    save_model_steps: not supported; must be None (use save_model_secs).

  Returns:
    TRAIN: {"global_step", "loss"} at the end. EVAL: log_info name (and
    "loss") -> its mean over the evaluated examples.

  Raises:
    ValueError: an unsupported argument is set, run_mode is not TRAIN or
      EVAL, slim_ext.run rejects an argument (the message names it), or the
      export has no log_dir, no export_spec or an existing directory.
    TypeError: input_fn or model_fn is not callable.
  """
  given = {"output_fn": output_fn, "output_every_n_steps": output_every_n_steps,
           "inter_mode": inter_mode, "fetch_strategy_fn": fetch_strategy_fn,
           "save_model_steps": save_model_steps}
  for argument, value in given.items():
    if value:
      raise ValueError(f"mox.run({argument}=...): not supported by "
                       f"slim_ext.mox: {_UNSUPPORTED_RUN_ARGUMENTS[argument]}.")
  mode = _runner_mode(run_mode)
  if export_model:
    serving.check_export_key(export_model)
    if not log_dir:
      raise ValueError("mox.run(export_model=...): the model is exported to "
                       "log_dir/<version>; give log_dir.")
  for name, function in (("input_fn", input_fn), ("model_fn", model_fn)):
    if not callable(function):
      raise TypeError(f"mox.run: {name} is {function!r}; pass the function.")
  moxing_mode = {value: key for key, value in _RUNNER_MODES.items()}[mode]

  def call_input_fn(unused_mode):
    return input_fn(moxing_mode)

  def call_model_fn(inputs, unused_mode):
    return model_fn(_as_list(inputs), moxing_mode)

  batch = batch_size if auto_batch else None
  result = runner.run(
      call_input_fn, call_model_fn, optimizer_fn, run_mode=mode,
      log_dir=log_dir, max_number_of_steps=max_number_of_steps,
      checkpoint_path=checkpoint_path, log_every_n_steps=log_every_n_steps,
      save_summaries_steps=save_summary_steps,
      save_model_secs=(DEFAULT_SAVE_MODEL_SECS if save_model_secs is None
                       else save_model_secs),
      batch_size=batch,
      count_worker_steps=True)
  if export_model and cluster.is_chief(runner.command_line_flags()):
    checkpoint = checkpoint_file(log_dir if mode == model_spec.ModeKeys.TRAIN
                                 else checkpoint_path)
    path = serving.export_model(
        lambda: input_fn(moxing_mode),
        lambda inputs: model_fn(_as_list(inputs), ModeKeys.EXPORT),
        batch, checkpoint, log_dir)
    console().info("run: exported %s as a TF Serving model to %s.",
                   checkpoint, path)
  return result


def get_flag(name: Optional[str] = None, *,
             flag_name: Optional[str] = None) -> Any:
  """The value of a flag: ``mox.get_flag('num_gpus')``.

  --num_gpus and the cluster flags are read as run() reads them (from the
  command line when absl has not parsed it); other flags are the script's.

  Args:
    name: the flag's name (MoXing's examples also spell it `flag_name=`).
    flag_name: the same, by keyword.

  Returns:
    Its value.

  Raises:
    ValueError: no flag of that name is defined.
  """
  name = name or flag_name
  if name in runner.RUN_FLAGS:
    return runner.command_line_flags()[name].value
  if name in flags.FLAGS:
    return flags.FLAGS[name].value
  raise ValueError(_no_flag_message("get_flag", name))


def set_flag(name: str, value: Any) -> None:
  """Sets a flag before mox.run: ``mox.set_flag('num_gpus', 2)``.

  Raises:
    ValueError: no flag of that name is defined.
  """
  if name not in flags.FLAGS:
    raise ValueError(_no_flag_message("set_flag", name))
  setattr(flags.FLAGS, name, value)


def _no_flag_message(function: str, name: Optional[str]) -> str:
  return (f"mox.{function}: no flag {name!r}. slim_ext.mox has "
          f"{', '.join('--' + n for n in runner.RUN_FLAGS)} and the script's "
          "own flags; MoXing's other tuning flags have no slim_ext "
          "counterpart: delete the call, or define the flag yourself.")
