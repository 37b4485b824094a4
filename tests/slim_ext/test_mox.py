"""slim_ext.mox: MoXing's API as ported scripts use it.

mox.file runs on real local files in a temp dir; mox.run trains and
evaluates a small model in this process (run() builds its own graph). The
module-level, separate-process behaviour (flags from sys.argv, a ps/worker
cluster) is in test_run_cluster.py.
"""
import logging
import sys

from absl import flags
import numpy as np
import pytest

from slim_facts import moxing

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def mox(tf):  # pylint: disable=unused-argument
  import slim_ext.mox  # pylint: disable=g-import-not-at-top
  return slim_ext.mox


def test_provides_exactly_the_names_the_rewrite_keeps(mox):
  # slimport's moxing codemod reports every name outside these sets.
  assert sorted(mox.__all__) == sorted(moxing.MOX_NAMES)
  assert all(hasattr(mox, name) for name in moxing.MOX_NAMES)
  assert sorted(mox.file.__all__) == sorted(moxing.MOX_FILE_NAMES)
  assert all(callable(getattr(mox.file, name)) for name in moxing.MOX_FILE_NAMES)


# --- mox.file on local paths ------------------------------------------------------

def test_write_read_append_text_and_bytes(mox, tmp_path):
  path = str(tmp_path / "new" / "dir" / "a.txt")  # parents made, as on OBS
  mox.file.write(path, "one\n")
  mox.file.append(path, "two\n")
  assert mox.file.read(path) == "one\ntwo\n"
  mox.file.write(path + ".bin", b"\x00\xff", binary=True)
  mox.file.append(path + ".bin", b"\x01", binary=True)
  assert mox.file.read(path + ".bin", binary=True) == b"\x00\xff\x01"
  assert mox.file.exists(path) and not mox.file.is_directory(path)
  assert mox.file.is_directory(str(tmp_path / "new"))
  assert not mox.file.exists(str(tmp_path / "missing"))


def test_file_object_in_moxing_modes(mox, tmp_path):
  path = str(tmp_path / "f.bin")
  with mox.file.File(path, "bw") as f:  # MoXing spells binary modes "bw"
    f.write(b"abc")
  with mox.file.File(path, "br") as f:
    assert f.read() == b"abc"
  with mox.file.File(path, "r") as f:
    assert f.readlines() == ["abc"]


def _tree(root):
  (root / "sub" / "deeper").mkdir(parents=True)
  (root / "empty").mkdir()
  (root / "a.txt").write_text("aa")
  (root / "sub" / "b.txt").write_text("bbb")
  (root / "sub" / "deeper" / "c.jpg").write_text("c")
  return root


def test_list_directory_flat_recursive_and_filtered(mox, tmp_path):
  root = str(_tree(tmp_path / "tree"))
  assert mox.file.list_directory(root) == ["a.txt", "empty", "sub"]
  assert mox.file.list_directory(root, recursive=True) == [
      "a.txt", "empty", "sub", "sub/b.txt", "sub/deeper", "sub/deeper/c.jpg"]
  assert mox.file.list_directory(root, recursive=True, skip_dir=True) == [
      "a.txt", "sub/b.txt", "sub/deeper/c.jpg"]
  assert mox.file.list_directory(root, skip_file=True) == ["empty", "sub"]
  assert sorted(mox.file.glob(root + "/sub/*/*.jpg")) == [
      root + "/sub/deeper/c.jpg"]
  assert mox.file.get_size(root) == 6
  assert mox.file.get_size(root + "/a.txt") == 2
  assert sorted(d for d, _, _ in mox.file.walk(root)) == sorted(
      [root, root + "/empty", root + "/sub", root + "/sub/deeper"])


def test_copy_one_file_and_refuse_a_directory(mox, tmp_path):
  root = _tree(tmp_path / "tree")
  mox.file.copy(str(root / "a.txt"), str(tmp_path / "out" / "x" / "a.txt"))
  assert (tmp_path / "out" / "x" / "a.txt").read_text() == "aa"
  mox.file.write(str(root / "a.txt"), "new")
  mox.file.copy(str(root / "a.txt"), str(tmp_path / "out" / "x" / "a.txt"))
  assert (tmp_path / "out" / "x" / "a.txt").read_text() == "new"
  with pytest.raises(ValueError, match=r"mox.file.copy: .*sub is a directory; "
                     r"copy copies one file, copy_parallel"):
    mox.file.copy(str(root / "sub"), str(tmp_path / "sub_copy"))


def test_copy_parallel_copies_the_tree_and_merges(mox, tmp_path):
  root = _tree(tmp_path / "tree")
  target = tmp_path / "copy"
  target.mkdir()
  (target / "kept.txt").write_text("kept")
  (target / "a.txt").write_text("old")
  mox.file.copy_parallel(str(root), str(target), threads=3)
  assert mox.file.list_directory(str(target), recursive=True) == [
      "a.txt", "empty", "kept.txt", "sub", "sub/b.txt", "sub/deeper",
      "sub/deeper/c.jpg"]
  assert (target / "a.txt").read_text() == "aa"
  assert (target / "sub" / "deeper" / "c.jpg").read_text() == "c"

  some = tmp_path / "some"
  mox.file.copy_parallel(str(root), str(some), file_list=["sub/b.txt"])
  assert mox.file.list_directory(str(some), recursive=True) == [
      "sub", "sub/b.txt"]
  with pytest.raises(ValueError, match=r"is not a directory; copy\(src_url"):
    mox.file.copy_parallel(str(root / "a.txt"), str(tmp_path / "x"))


def test_copy_parallel_reports_a_failed_file(mox, tf, tmp_path):
  root = _tree(tmp_path / "tree")
  with pytest.raises(tf.errors.NotFoundError):
    mox.file.copy_parallel(str(root), str(tmp_path / "c"),
                           file_list=["a.txt", "no_such_file"])


def test_make_dirs_mk_dir_rename_remove(mox, tf, tmp_path, caplog):
  deep = str(tmp_path / "a" / "b" / "c")
  mox.file.make_dirs(deep)
  mox.file.make_dirs(deep)  # fine if it exists
  mox.file.mk_dir(deep + "/d")
  with pytest.raises(tf.errors.NotFoundError):
    mox.file.mk_dir(str(tmp_path / "no" / "parent"))
  mox.file.write(deep + "/d/f.txt", "f")
  mox.file.rename(deep + "/d/f.txt", deep + "/g.txt")
  assert mox.file.list_directory(deep) == ["d", "g.txt"]

  mox.file.remove(deep + "/g.txt")
  assert not mox.file.exists(deep + "/g.txt")
  with caplog.at_level(logging.WARNING):
    mox.file.remove(deep)  # a directory, not recursive: kept, as MoXing does
  assert mox.file.exists(deep + "/d")
  assert "is a directory; kept (pass recursive=True" in caplog.text
  mox.file.remove(str(tmp_path / "a"), recursive=True)
  assert not mox.file.exists(str(tmp_path / "a"))
  with pytest.raises(tf.errors.NotFoundError):
    mox.file.remove(str(tmp_path / "a"))


def test_a_path_tensorflow_cannot_open_says_what_to_do(mox):
  with pytest.raises(ValueError, match=r"mox.file.exists\('obs://bucket/x'\): "
                     r"TensorFlow has no file system for this path .* use a "
                     r"local path"):
    mox.file.exists("obs://bucket/x")


# --- ModeKeys, ModelSpec, get_optimizer_fn, flags ----------------------------------

def test_mode_keys_are_moxings_strings(mox):
  assert (mox.ModeKeys.TRAIN, mox.ModeKeys.EVAL, mox.ModeKeys.PREDICT,
          mox.ModeKeys.EXPORT) == ("TRAIN", "EVAL", "PREDICT", "EXPORT")


@pytest.mark.parametrize("field, pattern", [
    ("var_scopes", r"ModelSpec.var_scopes: not supported by slim_ext.mox: "
                   r"every trainable variable is trained"),
    ("output_info", r"ModelSpec.output_info: .* PREDICT"),
    ("hooks", r"ModelSpec.hooks: .* no session hooks"),
])
def test_model_spec_rejects_what_is_not_run(mox, tf, field, pattern):
  with tf.Graph().as_default():
    loss = tf.reduce_mean(tf.ones([2]))
    with pytest.raises(ValueError, match=pattern):
      mox.ModelSpec(loss=loss, **{field: ["x"]})
    with pytest.raises(ValueError, match=r"ModelSpec.loss: a list of 2 losses"):
      mox.ModelSpec(loss=[loss, loss])
    spec = mox.ModelSpec(loss=loss, log_info={"loss": loss}, hooks=[])
  assert spec.loss is loss and list(spec.log_info) == ["loss"]


def test_model_spec_takes_an_export_spec_only(mox, tf):
  with tf.Graph().as_default():
    loss = tf.reduce_mean(tf.ones([2]))
    with pytest.raises(TypeError, match=r"ModelSpec.export_spec: expected "
                       r"mox.ExportSpec\(inputs_dict=..., outputs_dict=...\), got \['x'\]"):
      mox.ModelSpec(loss=loss, export_spec=["x"])
    with pytest.raises(TypeError, match=r"ExportSpec.outputs_dict\['y'\]: expected a "
                       r"tensor of model_fn's graph, got 3"):
      mox.ExportSpec(inputs_dict={"x": loss}, outputs_dict={"y": 3})
    with pytest.raises(TypeError, match=r"ExportSpec.inputs_dict: expected a dict"):
      mox.ExportSpec(inputs_dict={}, outputs_dict={"y": loss})
    export_spec = mox.ExportSpec(inputs_dict={"x": loss}, outputs_dict={"y": loss})
    spec = mox.ModelSpec(loss=loss, export_spec=export_spec)
  assert spec.export_spec is export_spec and export_spec.version == -1


@pytest.mark.parametrize("name, kwargs, class_name", [
    ("sgd", {}, "GradientDescentOptimizer"),
    ("SGD", {}, "GradientDescentOptimizer"),
    ("momentum", {"momentum": 0.9}, "MomentumOptimizer"),
    ("adam", {"beta1": 0.8}, "AdamOptimizer"),
    ("adagrad", {}, "AdagradOptimizer"),
    ("adadelta", {}, "AdadeltaOptimizer"),
    ("ftrl", {}, "FtrlOptimizer"),
    ("rmsprop", {}, "RMSPropOptimizer"),
])
def test_get_optimizer_fn(mox, tf, name, kwargs, class_name):
  optimizer_fn = mox.get_optimizer_fn(name, learning_rate=0.5, scope="opt",
                                      **kwargs)
  with tf.Graph().as_default():
    optimizer = optimizer_fn()
  assert type(optimizer).__name__ == class_name
  assert optimizer.get_name() == "opt"


def test_get_optimizer_fn_rejects_unknown_names(mox):
  with pytest.raises(ValueError, match=r"unknown optimizer 'lars'; known: "
                     r"adadelta, adagrad, adam, ftrl, momentum, rmsprop, sgd"):
    mox.get_optimizer_fn("lars", 0.1)


def test_get_and_set_flag(mox):
  assert mox.get_flag("num_gpus") == 0
  assert mox.get_flag(flag_name="worker_hosts") == ""
  mox.set_flag("num_gpus", 2)
  try:
    assert mox.get_flag("num_gpus") == 2
  finally:
    flags.FLAGS["num_gpus"].unparse()  # as if never set
  with pytest.raises(ValueError, match=r"mox.get_flag: no flag "
                     r"'checkpoint_exclude_patterns'. slim_ext.mox has "
                     r"--num_gpus, --ps_hosts"):
    mox.get_flag("checkpoint_exclude_patterns")
  with pytest.raises(ValueError, match=r"mox.set_flag: no flag 'variable_update'"):
    mox.set_flag("variable_update", "parameter_server")


# --- mox.run ------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, pattern", [
    ({"output_fn": print}, r"mox.run\(output_fn=...\): not supported by "
                           r"slim_ext.mox: PREDICT is not run"),
    ({"inter_mode": "EVAL"}, r"mox.run\(inter_mode=...\): .* separate job"),
    ({"export_model": True}, r"mox.run\(export_model=True\): expected "
                             r"mox.ExportKeys.TF_SERVING"),
    ({"export_model": "TF_SERVING", "log_dir": None},
     r"mox.run\(export_model=...\): the model is exported to log_dir/<version>"),
    ({"save_model_steps": 100}, r"mox.run\(save_model_steps=...\): .* "
                                r"save_model_secs"),
    ({"run_mode": "PREDICT"}, r"run_mode: 'PREDICT' is not run by slim_ext.mox"),
    ({"run_mode": "invalid"}, r"run_mode: 'invalid' is not mox.ModeKeys.TRAIN"),
])
def test_run_rejects_what_it_does_not_run(mox, kwargs, pattern):
  arguments = {"input_fn": lambda mode: None, "model_fn": lambda i, m: None,
               "run_mode": "TRAIN", **kwargs}
  with pytest.raises(ValueError, match=pattern):
    mox.run(**arguments)


def _example_input_fn(tf, calls, batch_size=None):
  """8 examples of 3 features; the label is whether the first one is > 0.5."""
  def input_fn(run_mode, **kwargs):
    calls.append(("input_fn", run_mode, kwargs))
    features = np.random.RandomState(0).rand(8, 3).astype(np.float32)
    labels = (features[:, 0] > 0.5).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    if batch_size:
      dataset = dataset.batch(batch_size)
    return tf.data.make_one_shot_iterator(dataset.repeat(2)).get_next()
  return input_fn


def _example_model_fn(tf, mox, calls):
  def model_fn(inputs, run_mode, **kwargs):
    calls.append(("model_fn", run_mode, type(inputs).__name__, kwargs))
    features, labels = inputs
    weights = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    logits = tf.squeeze(tf.matmul(features, weights), 1)
    loss = tf.losses.sigmoid_cross_entropy(labels, logits)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(logits > 0, labels > 0.5),
                                      tf.float32))
    return mox.ModelSpec(loss=loss, log_info={"accuracy": accuracy})
  return model_fn


def test_run_calls_the_functions_as_moxing_does(mox, tf, tmp_path, capsys):
  calls = []
  result = mox.run(input_fn=_example_input_fn(tf, calls, batch_size=4),
                   model_fn=_example_model_fn(tf, mox, calls),
                   optimizer_fn=mox.get_optimizer_fn("sgd", learning_rate=0.1),
                   run_mode=mox.ModeKeys.TRAIN, log_dir=str(tmp_path),
                   max_number_of_steps=sys.maxsize, log_every_n_steps=1)
  # Two epochs of two batches, then the data ends: sys.maxsize is no limit.
  assert result["global_step"] == 4
  assert calls == [("input_fn", "TRAIN", {}),
                   ("model_fn", "TRAIN", "list", {})]
  printed = capsys.readouterr().err
  for step in range(1, 5):
    assert f"run: step {step} (global step {step}): loss = " in printed
  assert "accuracy = " in printed

  calls.clear()
  metrics = mox.run(input_fn=_example_input_fn(tf, calls, batch_size=3),
                    model_fn=_example_model_fn(tf, mox, calls),
                    run_mode=mox.ModeKeys.EVAL, checkpoint_path=str(tmp_path))
  assert calls == [("input_fn", "EVAL", {}), ("model_fn", "EVAL", "list", {})]
  assert sorted(metrics) == ["accuracy", "loss"]
  assert f"run: EVAL of {tmp_path}/model.ckpt-4: accuracy = " in (
      capsys.readouterr().err)


def test_run_counts_max_number_of_steps_per_worker(mox, tf, tmp_path):
  calls = []
  common = {"input_fn": _example_input_fn(tf, calls, batch_size=1),
            "model_fn": _example_model_fn(tf, mox, calls),
            "optimizer_fn": mox.get_optimizer_fn("sgd", learning_rate=0.1),
            "run_mode": "TRAIN", "log_dir": str(tmp_path)}
  assert mox.run(max_number_of_steps=3, **common)["global_step"] == 3
  # Resumed from global step 3, this worker takes 3 steps of its own more.
  assert mox.run(max_number_of_steps=3, **common)["global_step"] == 6


@pytest.mark.parametrize("from_dataset", [True, False],
                         ids=["dataset", "tensors"])
def test_run_batches_single_examples_per_clone(mox, tf, tmp_path,
                                               from_dataset):
  shapes = []

  def input_fn(run_mode, **kwargs):
    dataset = tf.data.Dataset.from_tensor_slices(
        np.arange(20, dtype=np.float32).reshape(10, 2))
    if from_dataset:
      return dataset
    return tf.data.make_one_shot_iterator(dataset).get_next()

  def model_fn(inputs, run_mode, **kwargs):
    shapes.append(inputs[0].shape.as_list())
    weight = tf.get_variable("w", [2, 1])
    return mox.ModelSpec(loss=tf.reduce_mean(tf.matmul(inputs[0], weight)),
                         log_info={"count": tf.shape(inputs[0])[0]})

  mox.set_flag("num_gpus", 2)
  try:
    result = mox.run(input_fn=input_fn, model_fn=model_fn,
                     optimizer_fn=mox.get_optimizer_fn("sgd", 0.0),
                     run_mode=mox.ModeKeys.TRAIN, log_dir=str(tmp_path),
                     batch_size=3, log_every_n_steps=0)
  finally:
    flags.FLAGS["num_gpus"].unparse()  # as if never set
  # Batches of 3 per clone, 6 per step: 10 examples give 6 + 4 (short last).
  assert len(shapes) == 2 and all(shape[1:] == [2] for shape in shapes)
  assert result["global_step"] == 2


def _exporting_model_fn(tf, mox, calls):
  """A logistic regression whose ModelSpec names what to export, in every mode."""
  def model_fn(inputs, run_mode, **kwargs):
    features, labels = inputs
    calls.append((run_mode, features.shape.as_list(), labels.shape.as_list()))
    weights = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    bias = tf.get_variable("b", [], initializer=tf.zeros_initializer())
    logits = tf.squeeze(tf.matmul(features, weights), 1) + bias
    loss = tf.losses.sigmoid_cross_entropy(labels, logits)
    export_spec = mox.ExportSpec(inputs_dict={"features": features},
                                 outputs_dict={"logits": logits,
                                               "probability": tf.sigmoid(logits)},
                                 version=kwargs.get("version", -1))
    return mox.ModelSpec(loss=loss, log_info={"loss": loss}, export_spec=export_spec)
  return model_fn


def test_run_exports_a_saved_model_after_training_and_evaluation(mox, tf, tmp_path):
  calls = []

  def input_fn(run_mode, **kwargs):  # single examples: run() batches them
    features = np.random.RandomState(0).rand(8, 3).astype(np.float32)
    labels = (features[:, 0] > 0.5).astype(np.float32)
    return tf.data.Dataset.from_tensor_slices((features, labels)).repeat(3)

  model_fn = _exporting_model_fn(tf, mox, calls)
  common = {"input_fn": input_fn, "batch_size": 4, "log_dir": str(tmp_path),
            "export_model": mox.ExportKeys.TF_SERVING}
  result = mox.run(model_fn=model_fn, optimizer_fn=mox.get_optimizer_fn("sgd", 0.5),
                   run_mode=mox.ModeKeys.TRAIN, max_number_of_steps=5, **common)
  assert result["global_step"] == 5
  # Trained on batches of 4, then built once more on placeholders of any batch.
  assert calls == [("TRAIN", [None, 3], [None]), ("EXPORT", [None, 3], [None])]
  assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["1"]

  checkpoint = tf.train.load_checkpoint(str(tmp_path))
  weights, bias = checkpoint.get_tensor("w"), checkpoint.get_tensor("b")
  assert bias != 0  # it trained: the export must carry the checkpoint's values
  features = np.random.RandomState(1).rand(5, 3).astype(np.float32)
  expected = features @ weights[:, 0] + bias
  served = tf.compat.v2.saved_model.load(str(tmp_path / "1")).signatures["serving_default"]
  outputs = served(features=tf.constant(features))
  np.testing.assert_allclose(outputs["logits"].numpy(), expected, rtol=1e-6, atol=1e-6)
  np.testing.assert_allclose(outputs["probability"].numpy(), 1 / (1 + np.exp(-expected)),
                             rtol=1e-6)

  # Exported again after an evaluation: the next version number.
  mox.run(model_fn=model_fn, run_mode=mox.ModeKeys.EVAL, checkpoint_path=str(tmp_path),
          **common)
  assert calls[-2:] == [("EVAL", [None, 3], [None]), ("EXPORT", [None, 3], [None])]
  assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["1", "2"]
  assert (tmp_path / "2" / "saved_model.pb").is_file()

  # A version that exists already is refused, after the run, naming the directory.
  named = _exporting_model_fn(tf, mox, calls)
  with pytest.raises(ValueError, match=r"ExportSpec\(version=1\): the export directory "
                     r".*/1 exists already"):
    mox.run(model_fn=lambda i, m: named(i, m, version=1), run_mode=mox.ModeKeys.EVAL,
            checkpoint_path=str(tmp_path), **common)


def test_run_export_needs_an_export_spec(mox, tf, tmp_path):
  calls = []
  with pytest.raises(ValueError, match=r"model_fn returned no export_spec in run_mode "
                     r"EXPORT; return mox.ModelSpec\(..., export_spec="):
    mox.run(input_fn=_example_input_fn(tf, calls, batch_size=4),
            model_fn=_example_model_fn(tf, mox, calls),
            optimizer_fn=mox.get_optimizer_fn("sgd", 0.1), run_mode="TRAIN",
            log_dir=str(tmp_path), max_number_of_steps=1,
            export_model=mox.ExportKeys.TF_SERVING)
  assert tf.train.latest_checkpoint(str(tmp_path))  # trained before it was refused
