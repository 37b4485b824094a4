"""slim_ext.estimator.first_checkpoint: only the chief writes model_to_estimator's checkpoint.

Every task of a cluster called keras_lib._save_first_checkpoint on the same model_dir
and wrote the same files at once (the Keras MNIST example's worker died in
MergeV2Checkpoints on TF 2.15). These run on TF 2.21 (unit) and TF 2.15 (regression-tf215).
"""
import json

import pytest

pytestmark = pytest.mark.tf

CLUSTER = {"master": ["127.0.0.1:1"], "worker": ["127.0.0.1:2"]}


@pytest.fixture(scope="module")
def keras_lib(tf):  # pylint: disable=unused-argument
  import slim_ext  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from tensorflow_estimator.python.estimator import keras_lib as module  # pylint: disable=g-import-not-at-top
  return module


def _config(monkeypatch, task_type, cluster=None, model_dir="/nowhere"):
  from tensorflow_estimator.python.estimator import run_config  # pylint: disable=g-import-not-at-top
  monkeypatch.setenv("TF_CONFIG", json.dumps(
      {"cluster": cluster or CLUSTER, "task": {"type": task_type, "index": 0}}))
  return run_config.RunConfig(model_dir=str(model_dir))


def _model(keras_lib):
  # The Keras keras_lib itself sees: Keras 2 (tf_keras on TF 2.21, keras 2.15 on 2.15).
  keras = keras_lib.tf.keras
  model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
  model.compile(optimizer=keras_lib.tf.compat.v1.train.AdamOptimizer(0.1), loss="mse")
  return model


def test_keras_lib_is_wrapped_once_imported(keras_lib):
  assert hasattr(keras_lib._save_first_checkpoint, "wrapped")  # pylint: disable=protected-access


def test_the_chief_writes_and_a_worker_takes_its_checkpoint(keras_lib, tmp_path, monkeypatch):
  model = _model(keras_lib)
  chief = _config(monkeypatch, "master", model_dir=tmp_path)
  written = keras_lib._save_first_checkpoint(model, None, chief, True)  # pylint: disable=protected-access
  assert written == str(tmp_path / "keras" / "keras_model.ckpt")
  files = sorted(path.name for path in (tmp_path / "keras").iterdir())
  worker = _config(monkeypatch, "worker", model_dir=tmp_path)
  assert keras_lib._save_first_checkpoint(model, None, worker, True) == written  # pylint: disable=protected-access
  assert sorted(path.name for path in (tmp_path / "keras").iterdir()) == files


def test_a_worker_never_writes_and_says_what_it_waits_for(keras_lib, tmp_path, monkeypatch):
  from slim_ext.estimator import first_checkpoint  # pylint: disable=g-import-not-at-top
  monkeypatch.setattr(first_checkpoint, "WAIT_SECONDS", 0.0)
  worker = _config(monkeypatch, "worker", model_dir=tmp_path)
  with pytest.raises(TimeoutError, match=r"keras within 0 s; the chief task writes it"):
    keras_lib._save_first_checkpoint(_model(keras_lib), None, worker, True)  # pylint: disable=protected-access
  assert not (tmp_path / "keras").exists() or not list((tmp_path / "keras").iterdir())


@pytest.mark.parametrize("task_type, cluster, writes", [
    ("master", CLUSTER, True),
    ("worker", CLUSTER, False),
    ("chief", {"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2"]}, True),
    ("evaluator", {"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2"]}, False),
])
def test_who_writes_it(keras_lib, tmp_path, monkeypatch, task_type, cluster, writes):
  from slim_ext.estimator import first_checkpoint  # pylint: disable=g-import-not-at-top
  monkeypatch.setattr(first_checkpoint, "WAIT_SECONDS", 0.0)
  config = _config(monkeypatch, task_type, cluster, tmp_path)
  if writes:
    keras_lib._save_first_checkpoint(_model(keras_lib), None, config, True)  # pylint: disable=protected-access
  else:
    with pytest.raises(TimeoutError):
      keras_lib._save_first_checkpoint(_model(keras_lib), None, config, True)  # pylint: disable=protected-access
  assert (tmp_path / "keras" / "checkpoint").exists() == writes


CHIEF_CLUSTER = {"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2", "127.0.0.1:3"]}


@pytest.mark.parametrize("task_type, index, cluster, writes", [
    ("chief", 0, CHIEF_CLUSTER, True),
    ("worker", 0, CHIEF_CLUSTER, False),
    ("worker", 1, CHIEF_CLUSTER, False),
    ("evaluator", 0, CHIEF_CLUSTER, False),
    # No chief: MultiWorkerMirroredStrategy's chief is worker 0.
    ("worker", 0, {"worker": ["127.0.0.1:2", "127.0.0.1:3"]}, True),
    ("worker", 1, {"worker": ["127.0.0.1:2", "127.0.0.1:3"]}, False),
])
def test_under_a_strategy_the_chief_is_tf_configs(keras_lib, monkeypatch, task_type, index,
                                                  cluster, writes):
  # The RunConfig a strategy job builds is the local one on every task until the
  # coordinator runs it: is_chief True everywhere, so every task wrote (the Keras MNIST
  # example's worker died in MergeV2Checkpoints in CI on TF 2.21).
  from slim_ext.estimator import first_checkpoint  # pylint: disable=g-import-not-at-top
  from tensorflow_estimator.python.estimator import run_config  # pylint: disable=g-import-not-at-top
  monkeypatch.setenv("TF_CONFIG", json.dumps(
      {"cluster": cluster, "task": {"type": task_type, "index": index}}))
  config = run_config.RunConfig(
      model_dir="/nowhere", train_distribute=keras_lib.tf.distribute.MirroredStrategy())
  assert config._distribute_coordinator_mode and config.is_chief  # pylint: disable=protected-access
  assert first_checkpoint.writes_checkpoint(config) is writes
