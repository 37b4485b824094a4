"""Helpers of cifar10_main.py: a RunConfig whose uid() is stable, a speed hook, a device setter.

slimport's own example, in the shape of tensorflow/models'
tutorials/image/cifar10_estimator/cifar10_utils.py, which TF 1.4-era
trainers copied: a tf.contrib.learn RunConfig subclass overriding uid() (the
uid learn_runner compares must not depend on object addresses), a
SessionRunHook logging examples per second, and local_device_setter, which
places variables with a ps strategy and merges each op's own device into the
chosen one with TF1's mutable DeviceSpec (pydev.DeviceSpec ... merge_from).
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections

import six
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import run_config
from tensorflow.core.framework import node_def_pb2
from tensorflow.python.framework import device as pydev
from tensorflow.python.platform import tf_logging as logging
from tensorflow.python.training import basic_session_run_hooks
from tensorflow.python.training import device_setter
from tensorflow.python.training import session_run_hook
from tensorflow.python.training import training_util


class RunConfig(tf.contrib.learn.RunConfig):
  """tf.contrib.learn's RunConfig with a uid() that sorts the cluster spec."""

  def uid(self, whitelist=None):
    """Every setting but those in `whitelist`, as one string.

    Args:
      whitelist: property names to leave out; by default the ones
        tf.contrib.learn leaves out.

    Returns:
      'name=value' pairs, sorted by name.
    """
    if whitelist is None:
      whitelist = run_config._DEFAULT_UID_WHITE_LIST
    state = dict((key, value) for key, value in six.iteritems(self.__dict__)
                 if not key.startswith('__'))
    for name in whitelist:
      state.pop('_' + name, None)
    ordered = collections.OrderedDict(sorted(state.items()))
    # A ClusterSpec has no stable repr: use its jobs, sorted.
    if '_cluster_spec' in ordered:
      ordered['_cluster_spec'] = collections.OrderedDict(
          sorted(ordered['_cluster_spec'].as_dict().items()))
    return ', '.join('%s=%r' % pair for pair in six.iteritems(ordered))


class ExamplesPerSecondHook(session_run_hook.SessionRunHook):
  """Logs the examples per second, overall and since the last log."""

  def __init__(self, batch_size, every_n_steps=100, every_n_secs=None):
    if (every_n_steps is None) == (every_n_secs is None):
      raise ValueError('exactly one of every_n_steps and every_n_secs '
                       'should be provided.')
    self._timer = basic_session_run_hooks.SecondOrStepTimer(
        every_steps=every_n_steps, every_secs=every_n_secs)
    self._total_time = 0.0
    self._total_steps = 0
    self._batch_size = batch_size

  def begin(self):
    self._global_step_tensor = training_util.get_global_step()
    if self._global_step_tensor is None:
      raise RuntimeError('Global step should be created to use '
                         'ExamplesPerSecondHook.')

  def before_run(self, run_context):
    return basic_session_run_hooks.SessionRunArgs(self._global_step_tensor)

  def after_run(self, run_context, run_values):
    global_step = run_values.results
    if not self._timer.should_trigger_for_step(global_step):
      return
    elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(
        global_step)
    if elapsed_time is None:
      return
    self._total_time += elapsed_time
    self._total_steps += elapsed_steps
    logging.info('examples/sec: %g average, %g now, step %d',
                 self._batch_size * self._total_steps / self._total_time,
                 self._batch_size * elapsed_steps / elapsed_time,
                 global_step)


def local_device_setter(num_devices=1,
                        ps_device_type='cpu',
                        worker_device='/cpu:0',
                        ps_ops=None,
                        ps_strategy=None):
  """A device function: variables on the ps devices, everything else on worker_device.

  Args:
    num_devices: ps devices for the default round-robin strategy.
    ps_device_type: 'cpu' or 'gpu', the type of the ps devices.
    worker_device: the device of the ops that are not variables.
    ps_ops: the op types placed on the ps devices.
    ps_strategy: op -> ps device index (e.g. GreedyLoadBalancingStrategy).

  Returns:
    A function of an op that returns its device string.
  """
  if ps_ops is None:
    ps_ops = ['Variable', 'VariableV2', 'VarHandleOp']
  if ps_strategy is None:
    ps_strategy = device_setter._RoundRobinStrategy(num_devices)
  if not six.callable(ps_strategy):
    raise TypeError('ps_strategy must be callable')

  def _local_device_chooser(op):
    current_device = pydev.DeviceSpec.from_string(op.device or '')
    node_def = op if isinstance(op, node_def_pb2.NodeDef) else op.node_def
    if node_def.op in ps_ops:
      device_spec = pydev.DeviceSpec.from_string(
          '/%s:%d' % (ps_device_type, ps_strategy(op)))
    else:
      device_spec = pydev.DeviceSpec.from_string(worker_device or '')
    # The op's own device wins where it names one part.
    device_spec.merge_from(current_device)
    return device_spec.to_string()

  return _local_device_chooser
