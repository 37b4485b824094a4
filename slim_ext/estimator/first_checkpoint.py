"""model_to_estimator on a cluster: only the chief writes the Keras model's checkpoint.

tensorflow-estimator's ``model_to_estimator`` (``keras_lib._save_first_checkpoint``)
saves the Keras model's weights to ``<model_dir>/keras/keras_model.ckpt`` when that
directory holds no checkpoint yet. Every task of a cluster runs the same script with
the same ``model_dir``, so each task writes the same files at the same moment, and a
task whose temporary files another one renamed dies in ``MergeV2Checkpoints`` (a
master + worker MultiWorkerMirroredStrategy job, now and then, on TF 2.15 and 2.21).
Here the chief writes it, and every other task waits until the chief's checkpoint is
there and uses it, as when the chief had been first.

Which task is the chief: ``config.is_chief``, except under a distribution strategy
(the distribute coordinator's modes), where the RunConfig model_to_estimator gets is
the local one on every task (``is_chief`` True everywhere, ``init_run_config``) until
the coordinator runs the task: there it is TF_CONFIG's chief (``chief`` or ``master``,
else worker 0).

Installed by ``import slim_ext`` (``shims.apply``): ``keras_lib`` is wrapped once it is
imported, which tf_keras does inside ``model_to_estimator``.
"""
from __future__ import annotations

import importlib.abc
import os
import sys
import time
from typing import Any, Callable

from slim_ext import cluster_config
from slim_ext.estimator import keras2

MODULE = "tensorflow_estimator.python.estimator.keras_lib"
# How long a task waits for the chief's checkpoint (the chief builds and saves the
# model first thing; minutes only on a busy machine).
WAIT_SECONDS = 600.0
_POLL_SECONDS = 0.2


def wait_for_checkpoint(directory: str, seconds: float) -> str:
  """The checkpoint another task writes in ``directory``, once it is there.

  Args:
    directory: the directory the chief saves the checkpoint in.
    seconds: how long to wait.

  Returns:
    Its path, as ``tf.train.latest_checkpoint`` gives it.

  Raises:
    TimeoutError: none appeared in time (the message names the directory).
  """
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  deadline = time.monotonic() + seconds
  while True:
    found = tf.train.latest_checkpoint(directory)
    if found:
      return found
    if time.monotonic() > deadline:
      raise TimeoutError(
          f"model_to_estimator: no checkpoint of the Keras model appeared in "
          f"{directory} within {seconds:.0f} s; the chief task writes it there: is it "
          f"running, with the same model_dir?")
    time.sleep(_POLL_SECONDS)


def writes_checkpoint(config: Any) -> bool:
  """Whether this task writes model_to_estimator's first checkpoint.

  Args:
    config: the estimator's RunConfig.

  Returns:
    True on the chief, and on a task alone (no cluster).
  """
  if getattr(config, "_distribute_coordinator_mode", None):
    cluster = cluster_config.ClusterConfig.from_env()
    return cluster is None or cluster.is_chief
  return config.is_chief


def _chief_writes(save: Callable[..., str]) -> Callable[..., str]:
  def save_first_checkpoint(keras_model, custom_objects, config, save_object_ckpt):
    if writes_checkpoint(config):
      return save(keras_model, custom_objects, config, save_object_ckpt)
    return wait_for_checkpoint(os.path.join(config.model_dir, "keras"), WAIT_SECONDS)

  save_first_checkpoint.wrapped = save
  return save_first_checkpoint


def _wrap(module: Any) -> None:
  if not hasattr(module._save_first_checkpoint, "wrapped"):  # pylint: disable=protected-access
    module._save_first_checkpoint = _chief_writes(module._save_first_checkpoint)  # pylint: disable=protected-access


class _Finder(importlib.abc.MetaPathFinder):
  """Finds keras_lib with the finders after it (slim_ext's Keras 2 view included)."""

  def find_spec(self, fullname, path=None, target=None):
    if fullname != MODULE:
      return None
    for finder in sys.meta_path:
      if finder is self or not hasattr(finder, "find_spec"):
        continue
      spec = finder.find_spec(fullname, path, target)
      if spec is not None:
        if spec.loader is not None:
          spec.loader = keras2.HookedLoader(spec.loader, after=_wrap)
        return spec
    return None


def install() -> bool:
  """Wraps keras_lib now if it is imported, else when it is.

  Returns:
    False when already installed.
  """
  if MODULE in sys.modules:
    _wrap(sys.modules[MODULE])
    return False
  if any(isinstance(finder, _Finder) for finder in sys.meta_path):
    return False
  sys.meta_path.insert(0, _Finder())
  return True
