"""tensorflow.contrib.opt's MovingAverageOptimizer, on tf.compat.v1.

TF1's ``tf.contrib.opt.MovingAverageOptimizer`` wraps an optimizer: each training
step applies the wrapped optimizer's update, then moves an exponential moving
average of every trained variable towards its new value; ``swapping_saver()``
makes a Saver that writes each average under its variable's own name (and the
variable under the average's name), so that evaluation and inference, which
restore by name with a plain Saver, run on the averaged weights. TensorFlow 2
has the pieces (``tf.compat.v1.train.ExponentialMovingAverage``,
``tf.compat.v1.train.Saver``) but not the wrapper; this is the wrapper, with the
same arguments, checkpoints and graph-mode semantics.

Example (what ``slimport rewrite`` leaves of a TF1 trainer):

  opt = slim_ext.contrib.opt.MovingAverageOptimizer(
      tf.train.MomentumOptimizer(learning_rate, 0.9))
  train_op = slim.learning.create_train_op(total_loss, opt)
  saver = opt.swapping_saver()
  slim.learning.train(train_op, logdir, saver=saver)
"""
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import tensorflow.compat.v1 as tf
from tensorflow.python.ops.variables import PartitionedVariable
from tensorflow.python.training.saving import saveable_object_util

__all__ = ["MovingAverageOptimizer"]


class MovingAverageOptimizer(tf.train.Optimizer):
  """Wraps an optimizer and keeps a moving average of the variables it trains."""

  def __init__(self, opt: tf.train.Optimizer, average_decay: float = 0.9999,
               num_updates: Optional[Any] = None, sequential_update: bool = True):
    """Wraps ``opt``.

    Args:
      opt: the tf.compat.v1 optimizer that computes and applies the gradients.
      average_decay: the decay of the moving averages (see
        tf.compat.v1.train.ExponentialMovingAverage).
      num_updates: optional count of updates applied so far, which lowers the
        decay early in training (see ExponentialMovingAverage).
      sequential_update: True: the averages move after the step's update, towards
        the updated values. False: at the same time, reading the variables while
        the update may be writing them.
    """
    super().__init__(use_locking=False, name="MovingAverageOptimizer")
    self._optimizer = opt
    self._ema = tf.train.ExponentialMovingAverage(average_decay, num_updates=num_updates)
    self._sequential_update = sequential_update
    # Op name of each trained variable -> its average's, and back; None until
    # apply_gradients has made the averages.
    self._swapped_names: Optional[Dict[str, str]] = None

  def compute_gradients(self, *args: Any, **kwargs: Any) -> List[Tuple[Any, Any]]:
    """The wrapped optimizer's ``compute_gradients``."""
    return self._optimizer.compute_gradients(*args, **kwargs)

  def apply_gradients(self, grads_and_vars: Sequence[Tuple[Any, Any]],
                      global_step: Optional[Any] = None,
                      name: Optional[str] = None) -> tf.Operation:
    """Applies the update with the wrapped optimizer, then moves the averages.

    Args:
      grads_and_vars: (gradient, variable) pairs, as compute_gradients returns.
      global_step: incremented by the wrapped optimizer's update, if given.
      name: the name of the wrapped optimizer's update op.

    Returns:
      An op that runs the update and the averages' step (``train_with_avg``).
    """
    grads_and_vars = list(grads_and_vars)
    update = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                             name=name)
    trained = [variable for gradient, variable in grads_and_vars if gradient is not None]
    if self._sequential_update:
      with tf.control_dependencies([update]):
        average = self._ema.apply(trained)
    else:
      average = self._ema.apply(trained)
    self._swapped_names = {}
    for variable in trained:
      averaged = self._ema.average(variable)
      self._swapped_names[variable.op.name] = averaged.op.name
      self._swapped_names[averaged.op.name] = variable.op.name
    return tf.group(update, average, name="train_with_avg")

  def swapping_saver(self, var_list: Optional[Union[Sequence[Any], Dict[str, Any]]] = None,
                     name: str = "swapping_saver", **kwargs: Any) -> tf.train.Saver:
    """A Saver that writes each average under its variable's name, and back.

    Use it while training: the checkpoints it writes hold the averaged weights
    under the variables' own names, so a plain Saver (evaluation, inference,
    fine-tuning) restores the averages. Call it after ``minimize`` /
    ``apply_gradients`` and after every variable to save exists.

    Args:
      var_list: the variables to save, as for Saver (default: all global
        variables).
      name: the Saver's name.
      **kwargs: the other arguments of tf.compat.v1.train.Saver.

    Returns:
      The Saver.

    Raises:
      RuntimeError: apply_gradients (or minimize) has not been called yet.
      ValueError: ``var_list`` holds a trained variable but not its average, or
        the other way round.
    """
    if self._swapped_names is None:
      raise RuntimeError(
          "Must call apply_gradients or minimize before creating the swapping_saver")
    if var_list is None:
      var_list = tf.global_variables()
    if not isinstance(var_list, dict):
      var_list = saveable_object_util.op_list_to_dict(var_list)
    # A partitioned variable is saved under one name as a list of its parts.
    by_name = {}
    for key, saved in var_list.items():
      if isinstance(saved, (list, PartitionedVariable)):
        by_name.update((part.op.name, part) for part in saved)
      else:
        by_name[key] = saved
    swapped = {}
    for key, saved in var_list.items():
      if isinstance(saved, list):
        swapped[key] = [self._swapped(by_name, part.op.name, part) for part in saved]
      else:
        swapped[key] = self._swapped(by_name, key, saved)
    return tf.train.Saver(swapped, name=name, **kwargs)

  def _swapped(self, by_name: Dict[str, Any], name: str, saved: Any) -> Any:
    """What the swapping saver writes under ``name``: the counterpart, if it has one."""
    counterpart = self._swapped_names.get(name)
    if counterpart is None:
      return saved
    if counterpart not in by_name:
      raise ValueError(f"Variable to swap {counterpart} is not part of variables to save. "
                       "This breaks MovingAverageOptimizer.")
    return by_name[counterpart]
