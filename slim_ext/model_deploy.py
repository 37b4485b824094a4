"""Deploys a TF-Slim model over clones and replicas, each replica on its own task.

The same API as research/slim's `deployment/model_deploy.py` (create_clones,
optimize_clones, deploy, DeploymentConfig), on `tensorflow.compat.v1` and
tf_slim, with one fix for asynchronous training with parameter servers:

Upstream names the worker job without a task (`/job:worker`). In a between-graph
cluster every replica builds its own graph, and TensorFlow resolves a device
with no task to the task of the server the session talks to (measured on TF
2.21): with a session on worker 0's server, e.g. a shared master, every
replica's clones, inputs and optimizer run on worker 0 while the other workers
only drive it. Here, when `num_ps_tasks > 0`, those devices name
`/job:<worker_job_name>/task:<replica_id>`, so each replica computes on its own
task whichever server its session uses.

Variables (slim.variable, slim.model_variable and the global step) are spread
round-robin over the ps tasks, as upstream.

Usage:

  config = model_deploy.DeploymentConfig(num_clones=2, clone_on_cpu=True)
  with tf.device(config.variables_device()):
    global_step = slim.create_global_step()
  with tf.device(config.inputs_device()):
    images, labels = load_batch(...)
  with tf.device(config.optimizer_device()):
    optimizer = tf.train.MomentumOptimizer(learning_rate, momentum)

  def model_fn(images, labels):
    logits = network(images)
    slim.losses.softmax_cross_entropy(logits, labels)

  model = model_deploy.deploy(config, model_fn, [images, labels],
                              optimizer=optimizer)
  slim.learning.train(model.train_op, train_dir, summary_op=model.summary_op)
"""
from __future__ import annotations

import collections
from typing import Any, Callable, Sequence

import tensorflow.compat.v1 as tf
import tf_slim as slim

__all__ = [
    "Clone",
    "DeployedModel",
    "DeploymentConfig",
    "create_clones",
    "deploy",
    "optimize_clones",
]

# What one call of model_fn produced: its return value, and the name scope and
# device it was built in.
Clone = collections.namedtuple("Clone", ["outputs", "scope", "device"])

# What deploy() returns. train_op is None when no optimizer was given.
DeployedModel = collections.namedtuple(
    "DeployedModel", ["train_op", "summary_op", "total_loss", "clones"]
)

# Op types that create a variable's storage, i.e. the ops a ps task should hold.
# Graphs built with resource variables (the TF2 default) create VarHandleOp;
# with `tf.disable_resource_variables()` (or disable_v2_behavior) VariableV2.
_VARIABLE_OP_TYPES = frozenset({"Variable", "VariableV2", "VarHandleOp"})


class _RoundRobinPsChooser:
  """Device function: puts each new variable on the next ps task in turn.

  Other ops keep the device they already have, so the clone device around
  them decides where they run.
  """

  def __init__(self, ps_device: str, num_ps_tasks: int):
    self._ps_device = ps_device
    self._num_ps_tasks = num_ps_tasks
    self._next_task = 0

  def __call__(self, op: Any) -> str:
    if op.device:
      return op.device
    node_def = op if isinstance(op, tf.NodeDef) else op.node_def
    if node_def.op not in _VARIABLE_OP_TYPES:
      return op.device
    task = self._next_task
    self._next_task = (task + 1) % self._num_ps_tasks
    return f"{self._ps_device}/task:{task}/device:CPU:0"


class DeploymentConfig:
  """How to deploy a model: clones per replica, replicas, ps tasks.

  The model is built `num_clones` times in each replica (one clone per GPU, or
  all on the CPU with `clone_on_cpu`). With one replica and no ps tasks the
  devices name no job. With `num_ps_tasks > 0` variables live on the ps job
  and everything the replica computes lives on its own worker task,
  `/job:<worker_job_name>/task:<replica_id>`.
  """

  def __init__(
      self,
      num_clones: int = 1,
      clone_on_cpu: bool = False,
      replica_id: int = 0,
      num_replicas: int = 1,
      num_ps_tasks: int = 0,
      worker_job_name: str = "worker",
      ps_job_name: str = "ps",
  ):
    """Creates a DeploymentConfig.

    Args:
      num_clones: Number of model clones to deploy in each replica.
      clone_on_cpu: If True, clones are placed on the CPU instead of one GPU
        each.
      replica_id: Index of the replica this process deploys, usually the
        worker task index; 0 is the chief.
      num_replicas: Number of replicas (worker tasks) training the model.
      num_ps_tasks: Number of tasks in the ps job; 0 to keep variables local.
      worker_job_name: Name of the worker job in the cluster spec.
      ps_job_name: Name of the ps job in the cluster spec.

    Raises:
      ValueError: If the arguments are inconsistent; the message names the
        argument.
    """
    if num_clones < 1:
      raise ValueError(f"num_clones must be at least 1, got {num_clones}")
    if num_replicas > 1 and num_ps_tasks < 1:
      raise ValueError(
          f"num_replicas={num_replicas} needs num_ps_tasks >= 1 to hold the"
          " shared variables; got num_ps_tasks={num_ps_tasks}"
      )
    if num_replicas > 1 or num_ps_tasks > 0:
      if not worker_job_name:
        raise ValueError("worker_job_name must be set when using replicas")
      if not ps_job_name:
        raise ValueError("ps_job_name must be set when num_ps_tasks > 0")
    if not 0 <= replica_id < num_replicas:
      raise ValueError(
          f"replica_id must be in [0, num_replicas={num_replicas}),"
          f" got {replica_id}"
      )
    self._num_clones = num_clones
    self._clone_on_cpu = clone_on_cpu
    self._replica_id = replica_id
    self._num_replicas = num_replicas
    self._num_ps_tasks = num_ps_tasks
    if num_ps_tasks > 0:
      self._ps_device = f"/job:{ps_job_name}"
      self._worker_device = f"/job:{worker_job_name}/task:{replica_id}"
    else:
      self._ps_device = ""
      self._worker_device = ""

  @property
  def num_clones(self) -> int:
    return self._num_clones

  @property
  def clone_on_cpu(self) -> bool:
    return self._clone_on_cpu

  @property
  def replica_id(self) -> int:
    return self._replica_id

  @property
  def num_replicas(self) -> int:
    return self._num_replicas

  @property
  def num_ps_tasks(self) -> int:
    return self._num_ps_tasks

  @property
  def ps_device(self) -> str:
    """The ps job (`/job:ps`), or '' without ps tasks."""
    return self._ps_device

  @property
  def worker_device(self) -> str:
    """This replica's task (`/job:worker/task:<replica_id>`), or '' without ps
    tasks."""
    return self._worker_device

  def caching_device(self) -> Callable[[Any], str] | None:
    """Returns the caching device for variables read by the clones.

    With ps tasks, a variable read is cached on the device of the op that
    reads it, i.e. on this replica's worker, so each step fetches it once.

    Returns:
      A device function, or None when variables are local.
    """
    if self._num_ps_tasks > 0:
      return lambda op: op.device
    return None

  def clone_device(self, clone_index: int) -> str:
    """Returns the device for clone `clone_index` and every op inside it.

    Args:
      clone_index: Index of the clone, in [0, num_clones).

    Returns:
      A device string for `tf.device()`.

    Raises:
      ValueError: If `clone_index` is not less than `num_clones`.
    """
    self._check_clone_index(clone_index)
    if self._clone_on_cpu:
      return self._worker_device + "/device:CPU:0"
    return self._worker_device + f"/device:GPU:{clone_index}"

  def clone_scope(self, clone_index: int) -> str:
    """Returns the name scope for clone `clone_index`.

    A single clone gets no scope, so its op names match a model built
    without model_deploy.

    Args:
      clone_index: Index of the clone, in [0, num_clones).

    Returns:
      `clone_<index>`, or '' when there is one clone.

    Raises:
      ValueError: If `clone_index` is not less than `num_clones`.
    """
    self._check_clone_index(clone_index)
    if self._num_clones > 1:
      return f"clone_{clone_index}"
    return ""

  def optimizer_device(self) -> str:
    """Returns the device for the optimizer: this replica's CPU."""
    return self._worker_device + "/device:CPU:0"

  def inputs_device(self) -> str:
    """Returns the device for building the inputs: this replica's CPU."""
    return self._worker_device + "/device:CPU:0"

  def variables_device(self) -> str | Callable[[Any], str]:
    """Returns the device for the variables created inside the clones.

    Returns:
      `/device:CPU:0` without ps tasks; otherwise a device function that
      puts each variable on the next ps task in turn.
    """
    if self._num_ps_tasks == 0:
      return "/device:CPU:0"
    return _RoundRobinPsChooser(self._ps_device, self._num_ps_tasks)

  def _check_clone_index(self, clone_index: int) -> None:
    if not 0 <= clone_index < self._num_clones:
      raise ValueError(
          f"clone_index must be in [0, num_clones={self._num_clones}),"
          f" got {clone_index}"
      )


def create_clones(
    config: DeploymentConfig,
    model_fn: Callable[..., Any],
    args: Sequence[Any] | None = None,
    kwargs: dict[str, Any] | None = None,
) -> list[Clone]:
  """Builds `config.num_clones` clones of the model with `model_fn`.

  Each clone is `model_fn(*args, **kwargs)` called under its clone scope and
  clone device; clones after the first reuse the first one's variables. Slim
  variables are created on `config.variables_device()`. Losses, summaries and
  update ops the clone creates are found by its scope:

    tf.get_collection(tf.GraphKeys.LOSSES, clone.scope)

  Args:
    config: A DeploymentConfig.
    model_fn: Builds one clone; called as `model_fn(*args, **kwargs)`.
    args: Positional arguments for `model_fn`.
    kwargs: Keyword arguments for `model_fn`.

  Returns:
    A list of `Clone(outputs, scope, device)`, one per clone.
  """
  args = args or []
  kwargs = kwargs or {}
  clones = []
  with slim.arg_scope(
      [slim.model_variable, slim.variable], device=config.variables_device()
  ):
    for index in range(config.num_clones):
      with tf.name_scope(config.clone_scope(index)) as scope:
        device = config.clone_device(index)
        with tf.device(device):
          with tf.variable_scope(
              tf.get_variable_scope(), reuse=True if index > 0 else None
          ):
            outputs = model_fn(*args, **kwargs)
          clones.append(Clone(outputs, scope, device))
  return clones


def _gather_clone_loss(
    clone: Clone, num_clones: int, regularization_losses: Sequence[tf.Tensor]
) -> tf.Tensor | None:
  """Sums one clone's losses, scaled by 1/num_clones, plus regularization.

  Args:
    clone: A Clone.
    num_clones: Number of clones; each clone's loss is divided by it so the
      sum over clones is the mean.
    regularization_losses: Regularization losses to add to this clone's loss
      (empty for all clones but the first).

  Returns:
    The clone's total loss, or None when it has no losses at all.
  """
  clone_loss = None
  regularization_loss = None
  with tf.device(clone.device):
    parts = []
    clone_losses = tf.get_collection(tf.GraphKeys.LOSSES, clone.scope)
    if clone_losses:
      clone_loss = tf.add_n(clone_losses, name="clone_loss")
      if num_clones > 1:
        clone_loss = tf.div(
            clone_loss, float(num_clones), name="scaled_clone_loss"
        )
      parts.append(clone_loss)
    if regularization_losses:
      regularization_loss = tf.add_n(
          regularization_losses, name="regularization_loss"
      )
      parts.append(regularization_loss)
    sum_loss = tf.add_n(parts) if parts else None
  # Summaries are host-side ops; keep them off the clone's (GPU) device.
  if clone_loss is not None:
    tf.summary.scalar(clone.scope + "/clone_loss", clone_loss)
  if regularization_loss is not None:
    tf.summary.scalar("regularization_loss", regularization_loss)
  return sum_loss


def _optimize_clone(
    optimizer: tf.train.Optimizer,
    clone: Clone,
    num_clones: int,
    regularization_losses: Sequence[tf.Tensor],
    compute_gradients_kwargs: dict[str, Any],
) -> tuple[tf.Tensor | None, list | None]:
  """Returns one clone's total loss and its (gradient, variable) pairs."""
  sum_loss = _gather_clone_loss(clone, num_clones, regularization_losses)
  if sum_loss is None:
    return None, None
  with tf.device(clone.device):
    grads_and_vars = optimizer.compute_gradients(
        sum_loss, **compute_gradients_kwargs
    )
  return sum_loss, grads_and_vars


def optimize_clones(
    clones: Sequence[Clone],
    optimizer: tf.train.Optimizer,
    regularization_losses: Sequence[tf.Tensor] | None = None,
    kwargs: dict[str, Any] | None = None,
) -> tuple[tf.Tensor, list]:
  """Computes the total loss and the summed gradients of `clones`.

  Regularization losses are added to the first clone's loss only.

  Args:
    clones: The clones from `create_clones()`.
    optimizer: A `tf.train.Optimizer`.
    regularization_losses: Regularization losses; None gathers
      `tf.GraphKeys.REGULARIZATION_LOSSES`, `[]` leaves them out.
    kwargs: Keyword arguments for `optimizer.compute_gradients`.

  Returns:
    `(total_loss, grads_and_vars)`: the mean of the clone losses plus the
    regularization loss, and one `(gradient, variable)` pair per variable with
    the gradient summed over clones.
  """
  kwargs = kwargs or {}
  if regularization_losses is None:
    regularization_losses = tf.get_collection(
        tf.GraphKeys.REGULARIZATION_LOSSES
    )
  clone_losses = []
  clone_grads = []
  for clone in clones:
    with tf.name_scope(clone.scope):
      loss, grads_and_vars = _optimize_clone(
          optimizer, clone, len(clones), regularization_losses, kwargs
      )
      if loss is not None:
        clone_losses.append(loss)
        clone_grads.append(grads_and_vars)
      regularization_losses = []
  total_loss = tf.add_n(clone_losses, name="total_loss")
  return total_loss, _sum_clones_gradients(clone_grads)


def _sum_clones_gradients(clone_grads: Sequence[Sequence[tuple]]) -> list[tuple]:
  """Sums each variable's gradient over the clones.

  The clone losses are already scaled by 1/num_clones, so the sum is the
  gradient of the mean loss.

  Args:
    clone_grads: One list of (gradient, variable) pairs per clone, in the same
      variable order (compute_gradients over the same trainable variables).

  Returns:
    One (summed gradient, variable) pair per variable that has a gradient in
    at least one clone.
  """
  summed = []
  for per_clone in zip(*clone_grads):
    variable = per_clone[0][1]
    grads = [grad for grad, var in per_clone if grad is not None]
    if any(var is not variable for _, var in per_clone):
      raise ValueError(
          "clones computed gradients for different variables in the same"
          f" position (first: {variable.op.name}); build every clone with"
          " the same model_fn"
      )
    if not grads:
      continue
    if len(grads) == 1:
      summed.append((grads[0], variable))
    else:
      summed.append(
          (tf.add_n(grads, name=variable.op.name + "/sum_grads"), variable)
      )
  return summed


def _add_gradients_summaries(grads_and_vars: Sequence[tuple]) -> list[tf.Tensor]:
  """Adds histogram summaries of each gradient and of its norm.

  Returns:
    The summary ops (also added to tf.GraphKeys.SUMMARIES).
  """
  summaries = []
  for grad, var in grads_and_vars:
    if grad is None:
      tf.logging.info("Var %s has no gradient", var.op.name)
      continue
    values = grad.values if isinstance(grad, tf.IndexedSlices) else grad
    summaries.append(tf.summary.histogram(var.op.name + ":gradient", values))
    summaries.append(
        tf.summary.histogram(
            var.op.name + ":gradient_norm", tf.global_norm([values])
        )
    )
  return summaries


def _total_loss_without_optimizer(clones: Sequence[Clone]) -> tf.Tensor | None:
  """Returns the summed clone losses for evaluation-style deployment."""
  regularization_losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
  clone_losses = []
  for clone in clones:
    with tf.name_scope(clone.scope):
      loss = _gather_clone_loss(clone, len(clones), regularization_losses)
      if loss is not None:
        clone_losses.append(loss)
      regularization_losses = []
  if not clone_losses:
    return None
  return tf.add_n(clone_losses, name="total_loss")


def deploy(
    config: DeploymentConfig,
    model_fn: Callable[..., Any],
    args: Sequence[Any] | None = None,
    kwargs: dict[str, Any] | None = None,
    optimizer: tf.train.Optimizer | None = None,
    summarize_gradients: bool = False,
) -> DeployedModel:
  """Builds the clones and, with an optimizer, the op that trains them.

  The train op runs the first clone's update ops (e.g. batch norm moving
  averages) and applies the summed gradients, incrementing the global step
  (created on the variables device if missing). The summary op merges the
  summaries that existed before, the first clone's, and the total loss.

  Args:
    config: A DeploymentConfig.
    model_fn: Builds one clone; called as `model_fn(*args, **kwargs)`.
    args: Positional arguments for `model_fn`.
    kwargs: Keyword arguments for `model_fn`.
    optimizer: A `tf.train.Optimizer`; None deploys without training.
    summarize_gradients: If True, add histogram summaries of the gradients.

  Returns:
    A `DeployedModel(train_op, summary_op, total_loss, clones)`; train_op is
    None without an optimizer, summary_op None when there are no summaries.
  """
  summaries = set(tf.get_collection(tf.GraphKeys.SUMMARIES))
  clones = create_clones(config, model_fn, args, kwargs)
  first_clone = clones[0]
  # Only the first clone's update ops: the clones share the variables, and
  # one update per step is what a single-clone model would do.
  update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS, first_clone.scope)

  train_op = None
  with tf.device(config.optimizer_device()):
    if optimizer is not None:
      with tf.device(config.variables_device()):
        global_step = tf.train.get_or_create_global_step()
      total_loss, grads_and_vars = optimize_clones(clones, optimizer)
      if grads_and_vars:
        if summarize_gradients:
          summaries |= set(_add_gradients_summaries(grads_and_vars))
        apply_op = optimizer.apply_gradients(
            grads_and_vars, global_step=global_step
        )
        update_op = tf.group(*update_ops, apply_op)
        with tf.control_dependencies([update_op]):
          train_op = tf.identity(total_loss, name="train_op")
    else:
      total_loss = _total_loss_without_optimizer(clones)

    summaries |= set(tf.get_collection(tf.GraphKeys.SUMMARIES, first_clone.scope))
    if total_loss is not None:
      summaries.add(tf.summary.scalar("total_loss", total_loss))
    summary_op = (
        tf.summary.merge(list(summaries), name="summary_op") if summaries else None
    )
  return DeployedModel(train_op, summary_op, total_loss, clones)
