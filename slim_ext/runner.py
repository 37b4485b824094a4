"""run(input_fn, model_fn, optimizer_fn): a MoXing-style entry point on tf_slim.

A training script writes three functions and one call::

  def input_fn(run_mode):
    return features, labels        # tensors (or a tf.data.Dataset)

  def model_fn(inputs, run_mode):
    features, labels = inputs
    ...
    return slim_ext.ModelSpec(loss=loss, log_info={"accuracy": accuracy})

  def optimizer_fn():
    return tf.compat.v1.train.GradientDescentOptimizer(0.5)

  slim_ext.run(input_fn, model_fn, optimizer_fn,
               run_mode=slim_ext.ModeKeys.TRAIN, log_dir=train_dir,
               max_number_of_steps=1000)

and the same script trains in one process, with ``--num_gpus=N`` clones, or as
one task of an asynchronous ps/worker cluster (``--ps_hosts --worker_hosts
--job_name --task_index`` or ``TF_CONFIG``), with no code change.

Everything is the existing machinery: ``slim_ext.cluster.bootstrap`` joins
the cluster (a ps task serves and exits inside it), ``slim_ext.model_deploy``
builds the clones on this replica's task with variables on the ps tasks,
``tf_slim.learning.train`` runs the training loop and
``tf_slim.evaluation.evaluate_once`` the evaluation.

run() builds its model in a fresh ``tf.Graph`` (TF1 graph semantics) and does
not switch the whole process out of eager mode. Because of that, it starts
none of the Supervisor's background threads (those run outside the graph and
would execute eagerly): checkpoints every ``save_model_secs`` and summaries
every ``save_summaries_steps`` are written by the training step itself, on
the training thread, in the same ``session.run`` as the step they describe.

run() may be called at module level, with no ``absl.app.run`` (MoXing scripts
are written that way): it reads ``--num_gpus`` and the cluster flags from
``sys.argv`` itself whenever absl has not given them a value
(``command_line_flags``). Progress (the loss and log_info every
``log_every_n_steps``, the averaged metrics after evaluation) goes to the
console through the Python logger ``slim_ext.run`` (CONSOLE_LOGGER), which has
its own handler, so it is printed whatever absl's logging set-up is; silence
it with ``logging.getLogger("slim_ext.run").setLevel(logging.WARNING)``.
"""
from __future__ import annotations

from typing import Dict, Optional, Union

from slim_ext.model_spec import ModelSpec
from slim_ext.model_spec import ModeKeys
from slim_ext.run_eval import evaluate
from slim_ext.run_flags import command_line_flags
from slim_ext.run_flags import num_clones_from
from slim_ext.run_inputs import InputFn
from slim_ext.run_inputs import ModelFn
from slim_ext.run_train import OptimizerFn
from slim_ext.run_train import Schedule
from slim_ext.run_train import train
# Names of this module's API that now live beside it.
from slim_ext.run_console import CONSOLE_LOGGER  # noqa: F401
from slim_ext.run_flags import NUM_GPUS_FLAG  # noqa: F401
from slim_ext.run_flags import RUN_FLAGS  # noqa: F401
from slim_ext.run_train import CHECKPOINT_BASENAME  # noqa: F401

__all__ = ["ModeKeys", "ModelSpec", "command_line_flags", "run"]


def _check_count(value: Optional[int], name: str) -> int:
  if value is None:
    return 0
  if isinstance(value, bool) or not isinstance(value, int) or value < 0:
    raise ValueError(f"{name}: expected a whole number >= 0, got {value!r}.")
  return value


def run(input_fn: InputFn,
        model_fn: ModelFn,
        optimizer_fn: Optional[OptimizerFn] = None,
        run_mode: Union[ModeKeys, str] = ModeKeys.TRAIN,
        log_dir: Optional[str] = None,
        max_number_of_steps: Optional[int] = None,
        checkpoint_path: Optional[str] = None,
        log_every_n_steps: int = 10,
        save_summaries_steps: int = 100,
        save_model_secs: int = 600,
        num_clones: Optional[int] = None,
        batch_size: Optional[int] = None,
        count_worker_steps: bool = False) -> Dict[str, float]:
  """Trains or evaluates the model that input_fn and model_fn describe.

  TRAIN joins the cluster given by TF_CONFIG or --ps_hosts/--worker_hosts/
  --job_name/--task_index, if any (a ps task serves until its workers exit
  and then ends the process with status 0: run() does not return there),
  deploys `num_clones` clones of model_fn on this replica with each clone
  given its share of input_fn's batch, and trains with
  tf_slim.learning.train until the global step reaches `max_number_of_steps`
  or input_fn's data is exhausted. The chief saves checkpoints (every
  `save_model_secs` and at the end) and summaries (log_info, losses) to
  `log_dir`; a log_dir that already has a checkpoint is resumed.

  EVAL restores `checkpoint_path` and runs model_fn over input_fn's data
  once (until exhausted, or `max_number_of_steps` batches), averaging
  log_info (and the loss) over the examples; the averages are printed,
  written as summaries to `log_dir` when given, and returned.

  The flags it reads (--num_gpus, the cluster flags) come from the command
  line even when absl has not parsed it (``command_line_flags``); progress
  is printed on the console (CONSOLE_LOGGER).

  Args:
    input_fn: ``input_fn(run_mode)`` -> a tensor, a (nested) list/tuple/dict
      of tensors whose first dimension is the batch, or a tf.data.Dataset.
    model_fn: ``model_fn(inputs, run_mode)`` -> ModelSpec; called once per
      clone in TRAIN.
    optimizer_fn: ``optimizer_fn()`` -> a tf.compat.v1.train optimizer;
      called after the global step exists (``tf.train.get_global_step()``).
      Required in TRAIN.
    run_mode: ModeKeys.TRAIN or ModeKeys.EVAL (or "train"/"eval", any case).
    log_dir: TRAIN: checkpoints and summaries (required). EVAL: where eval
      summaries go (optional).
    max_number_of_steps: TRAIN: stop at this global step; EVAL: at most this
      many batches. None or 0: until the data is exhausted (as does any
      number the data runs out before, e.g. sys.maxsize).
    checkpoint_path: EVAL: checkpoint prefix or directory (its latest) to
      evaluate (required). TRAIN: start the model variables from it (those it
      has) when log_dir has no checkpoint yet.
    log_every_n_steps: print loss and log_info every N steps of this worker;
      0 never.
    save_summaries_steps: chief writes summaries every N steps; 0 never.
    save_model_secs: chief saves a checkpoint every N seconds; 0 only at
      the end.
    num_clones: clones per replica; None takes --num_gpus when it is
      positive, else 1. Clones go on GPUs when there are enough, else all
      on the CPU.
    batch_size: None or 0: input_fn gives batches. Otherwise input_fn gives
      single examples and run() batches them, `batch_size` per clone.
    count_worker_steps: TRAIN: `max_number_of_steps` counts this worker's
      own steps rather than the global step (how MoXing counts them).

  Returns:
    TRAIN: {"global_step": the last global step, "loss": the last loss}.
    EVAL: log_info name (and "loss") -> mean over the evaluated examples.

  Raises:
    ValueError, TypeError: an argument, input_fn's result, model_fn's
      ModelSpec or optimizer_fn's result is invalid (the message names it),
      or the cluster description is invalid.
    absl.flags.IllegalFlagValueError: --num_gpus or a cluster flag on the
      command line is invalid.
  """
  mode = ModeKeys.parse(run_mode)
  max_number_of_steps = _check_count(max_number_of_steps,
                                     "max_number_of_steps")
  batch_size = _check_count(batch_size, "batch_size")
  if mode == ModeKeys.EVAL:
    return evaluate(input_fn, model_fn, log_dir, max_number_of_steps,
                    checkpoint_path, batch_size)
  if not callable(optimizer_fn):
    raise TypeError(f"optimizer_fn: got {optimizer_fn!r}, but TRAIN needs a "
                     "function returning a tf.compat.v1.train optimizer.")
  if not log_dir:
    raise ValueError("log_dir: required in TRAIN, for checkpoints and "
                     "summaries.")
  schedule = Schedule(
      max_number_of_steps=max_number_of_steps,
      count_worker_steps=bool(count_worker_steps),
      log_every_n_steps=_check_count(log_every_n_steps, "log_every_n_steps"),
      save_summaries_steps=_check_count(save_summaries_steps,
                                        "save_summaries_steps"),
      save_model_secs=_check_count(save_model_secs, "save_model_secs"))
  run_flags = command_line_flags()
  if num_clones is None:
    num_clones = num_clones_from(run_flags)
  if isinstance(num_clones, bool) or not isinstance(num_clones, int) or (
      num_clones < 1):
    raise ValueError(f"num_clones: expected a whole number >= 1, got "
                     f"{num_clones!r}.")
  return train(input_fn, model_fn, optimizer_fn, log_dir, checkpoint_path,
               schedule, num_clones, batch_size, run_flags)
