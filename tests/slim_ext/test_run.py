"""slim_ext.run / ModelSpec / ModeKeys: the MoXing-style entry point.

Validation is checked in this process; training and evaluation run in this
process too (run() builds its own graph and leaves eager mode alone), with
softmax regression on the synthetic MNIST of examples/moxing_tf1, read by
slim_ext.mnist_input_data. Module-level scripts and the ps/worker cluster,
where separate processes are the point, are in test_run_cluster.py.
"""
import importlib.util
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.tf

GENERATOR = (Path(__file__).resolve().parents[2] / "examples" / "moxing_tf1"
             / "make_mnist_data.py")
BATCH_SIZE = 100
TRAIN_EXAMPLES = 5000  # read_data_sets sets the other 5000 aside
EVAL_BATCH_SIZE = 128  # 2000 test examples: 15 full batches and one of 80
# Chance is 0.1; softmax regression passes 0.9 within about 200 steps.
TRAINED_ACCURACY = 0.8


@pytest.fixture(scope="module")
def runner(tf):  # pylint: disable=unused-argument
  from slim_ext import runner as runner_module  # pylint: disable=g-import-not-at-top
  return runner_module


class SoftmaxMnist:
  """input_fn / model_fn / optimizer_fn of softmax regression on MNIST."""

  def __init__(self, tf, runner, datasets):
    self._tf = tf
    self._runner = runner
    self.datasets = datasets

  def make_input_fn(self, split, batch_size, num_epochs=None):
    """Batches of (images in [0, 1], one-hot labels); train is shuffled."""
    tf, split_data = self._tf, getattr(self.datasets, split)

    def input_fn(run_mode):
      dataset = tf.data.Dataset.from_tensor_slices(
          (split_data.images, split_data.labels))
      if run_mode == self._runner.ModeKeys.TRAIN:
        dataset = dataset.shuffle(split_data.num_examples, seed=0)
      dataset = dataset.repeat(num_epochs).batch(batch_size)
      return dataset.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0,
                                       tf.cast(y, tf.float32)))
    return input_fn

  def model_fn(self, inputs, unused_run_mode):
    tf = self._tf
    images, labels = inputs
    weights = tf.get_variable("W", initializer=tf.zeros([784, 10]))
    biases = tf.get_variable("b", initializer=tf.zeros([10]))
    logits = tf.matmul(images, weights) + biases
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
        labels=labels, logits=logits))
    correct = tf.equal(tf.argmax(logits, 1), tf.argmax(labels, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    return self._runner.ModelSpec(loss=loss, log_info={"loss": loss,
                                                       "accuracy": accuracy})

  def make_optimizer_fn(self, learning_rate):
    return lambda: self._tf.train.GradientDescentOptimizer(learning_rate)


@pytest.fixture(scope="module")
def mnist(tf, runner, tmp_path_factory):
  data_dir = tmp_path_factory.mktemp("mnist_data")
  spec = importlib.util.spec_from_file_location("make_mnist_data", GENERATOR)
  generator = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(generator)
  generator.write_dataset(str(data_dir))
  from slim_ext import mnist_input_data  # pylint: disable=g-import-not-at-top
  # uint8 pixels keep the constants in the graph (and graph.pbtxt) small.
  datasets = mnist_input_data.read_data_sets(str(data_dir), one_hot=True,
                                             dtype=tf.uint8)
  return SoftmaxMnist(tf, runner, datasets)


# --- ModeKeys and ModelSpec -------------------------------------------------

@pytest.mark.parametrize("given, expected", [
    ("train", "TRAIN"), ("TRAIN", "TRAIN"), (" Eval ", "EVAL"),
])
def test_mode_keys_parse_names_in_any_case(runner, given, expected):
  assert runner.ModeKeys.parse(given) is runner.ModeKeys[expected]
  assert runner.ModeKeys[expected] == expected.lower()


@pytest.mark.parametrize("given", ["predict", "", None, 1])
def test_mode_keys_parse_rejects_unknown_modes(runner, given):
  with pytest.raises(ValueError, match=r"run_mode: .* is not one of "
                     r"ModeKeys.TRAIN \('train'\), ModeKeys.EVAL \('eval'\)"):
    runner.ModeKeys.parse(given)


# (ModelSpec keyword arguments built in a graph, error, message pattern)
SPEC_ERRORS = [
    (lambda tf: {"loss": tf.zeros([4])}, ValueError,
     r"ModelSpec.loss: expected a scalar, got zeros:0 of shape \(4,\); "
     r"reduce it over the batch"),
    (lambda tf: {"loss": tf.placeholder(tf.float32)}, ValueError,
     r"ModelSpec.loss: expected a scalar, got Placeholder:0 of unknown rank"),
    (lambda tf: {"loss": 0.5}, TypeError,
     r"ModelSpec.loss: expected a scalar tf.Tensor, got 0.5 \(float\)"),
    (lambda tf: {"loss": tf.constant(3)}, TypeError,
     r"ModelSpec.loss: expected a floating-point scalar to minimise, got "
     r"tensor Const:0 of shape \(\) and dtype int32"),
    (lambda tf: {"log_info": [tf.constant(1.0)]}, TypeError,
     r"ModelSpec.log_info: expected a dict of name -> scalar tensor, got "
     r"\[.*\] \(list\)"),
    (lambda tf: {"log_info": {"accuracy": tf.ones([2, 2])}}, ValueError,
     r"ModelSpec.log_info\['accuracy'\]: expected a scalar, got ones:0 of "
     r"shape \(2, 2\)"),
    (lambda tf: {"log_info": {"accuracy": np.float32(0.9)}}, TypeError,
     r"ModelSpec.log_info\['accuracy'\]: expected a scalar tf.Tensor, got "
     r"(np.float32\()?0.9\)? \(float32\)"),  # numpy 2 / numpy 1 repr
    (lambda tf: {"log_info": {"tag": tf.constant("x")}}, TypeError,
     r"ModelSpec.log_info\['tag'\]: expected a number, got tensor Const:0 "
     r"of shape \(\) and dtype string"),
    (lambda tf: {"log_info": {1: tf.constant(1.0)}}, TypeError,
     r"ModelSpec.log_info: key 1 is not a non-empty string"),
    (lambda tf: {"log_info": {"": tf.constant(1.0)}}, TypeError,
     r"ModelSpec.log_info: key '' is not a non-empty string"),
]


@pytest.mark.parametrize("make_kwargs, error, pattern", SPEC_ERRORS)
def test_model_spec_rejects_with_field_and_value(tf, runner, make_kwargs,
                                                 error, pattern):
  with tf.Graph().as_default():
    kwargs = make_kwargs(tf)
    with pytest.raises(error, match=pattern):
      runner.ModelSpec(**kwargs)


def test_model_spec_rejects_eager_tensor(tf, runner):
  eager_loss = tf.constant(1.0)  # eager: this test process keeps TF2 mode
  with pytest.raises(TypeError, match=r"ModelSpec.loss: got an eager tensor"):
    runner.ModelSpec(loss=eager_loss)


def test_model_spec_accepts_scalar_numbers_and_variables(tf, runner):
  with tf.Graph().as_default():
    loss = tf.reduce_mean(tf.ones([3]))
    step = tf.train.get_or_create_global_step()
    spec = runner.ModelSpec(loss=loss, log_info={
        "step": step, "count": tf.constant(2), "flag": tf.constant(True)})
  assert spec.loss is loss
  assert sorted(spec.log_info) == ["count", "flag", "step"]
  assert spec.log_info["step"].dtype.base_dtype == tf.int64
  assert runner.ModelSpec().log_info == {}


# --- run() argument checks ----------------------------------------------------

def _features_input_fn(tf):
  def input_fn(unused_run_mode):
    return tf.random.uniform([8, 3]), tf.zeros([8], tf.int64)
  return input_fn


def _linear_model_fn(tf, runner, loss=True):
  def model_fn(inputs, unused_run_mode):
    features, _ = inputs
    weights = tf.get_variable("w", [3, 1])
    prediction = tf.matmul(features, weights)
    value = tf.reduce_mean(tf.square(prediction))
    return runner.ModelSpec(loss=value if loss else None,
                            log_info={"square": value})
  return model_fn


def _sgd(tf):
  return lambda: tf.train.GradientDescentOptimizer(0.1)


# (run() keyword arguments for tf, runner and a tmp dir; error; pattern)
RUN_ERRORS = [
    (lambda tf, r, tmp: {"run_mode": "predict"}, ValueError,
     r"run_mode: 'predict' is not one of"),
    (lambda tf, r, tmp: {"optimizer_fn": None}, TypeError,
     r"optimizer_fn: got None, but TRAIN needs a function"),
    (lambda tf, r, tmp: {"log_dir": None}, ValueError,
     r"log_dir: required in TRAIN"),
    (lambda tf, r, tmp: {"max_number_of_steps": -1}, ValueError,
     r"max_number_of_steps: expected a whole number >= 0, got -1"),
    (lambda tf, r, tmp: {"num_clones": 0}, ValueError,
     r"num_clones: expected a whole number >= 1, got 0"),
    (lambda tf, r, tmp: {"input_fn": lambda mode: np.zeros([2, 3])},
     TypeError, r"input_fn returned a ndarray among its outputs; return a "
     r"tensor, a list of tensors"),
    (lambda tf, r, tmp: {"input_fn": lambda mode: tf.constant(1.0),
                         "num_clones": 2}, ValueError,
     r"input_fn output Const:0 is a scalar; with 2 clones"),
    (lambda tf, r, tmp: {"model_fn": lambda inputs, mode: {"loss": 1}},
     TypeError, r"model_fn returned dict; return slim_ext.ModelSpec"),
    (lambda tf, r, tmp: {"model_fn": _linear_model_fn(tf, r, loss=False)},
     ValueError, r"ModelSpec.loss: None, but run_mode is TRAIN"),
    (lambda tf, r, tmp: {"optimizer_fn": lambda: "sgd"}, TypeError,
     r"optimizer_fn returned str; return a tf.compat.v1.train optimizer"),
    (lambda tf, r, tmp: {"run_mode": "eval"}, ValueError,
     r"checkpoint_path: required in EVAL"),
    (lambda tf, r, tmp: {"run_mode": "eval", "checkpoint_path": str(tmp)},
     ValueError, r"checkpoint_path: .* is a directory with no checkpoint"),
    (lambda tf, r, tmp: {"run_mode": "eval",
                         "checkpoint_path": str(tmp / "model.ckpt-7")},
     ValueError, r"checkpoint_path: no checkpoint .*model.ckpt-7 \(looked "
     r"for .*model.ckpt-7.index\)"),
]


@pytest.mark.parametrize("make_kwargs, error, pattern", RUN_ERRORS)
def test_run_rejects_with_the_argument_named(tf, runner, tmp_path,
                                             make_kwargs, error, pattern):
  kwargs = {"input_fn": _features_input_fn(tf),
            "model_fn": _linear_model_fn(tf, runner),
            "optimizer_fn": _sgd(tf), "log_dir": str(tmp_path / "train"),
            "max_number_of_steps": 2, "num_clones": 1}
  kwargs.update(make_kwargs(tf, runner, tmp_path))
  with pytest.raises(error, match=pattern):
    runner.run(**kwargs)
  assert not (tmp_path / "train").exists()


def test_run_rejects_a_tensor_from_another_graph(tf, runner, tmp_path):
  with tf.Graph().as_default():
    foreign = tf.constant(0.5)

  def model_fn(inputs, unused_run_mode):
    loss = tf.reduce_mean(inputs[0] * tf.get_variable("w", []))
    return runner.ModelSpec(loss=loss, log_info={"foreign": foreign})

  with pytest.raises(ValueError, match=r"ModelSpec.log_info\['foreign'\]: "
                     r"Const:0 belongs to another graph"):
    runner.run(_features_input_fn(tf), model_fn, _sgd(tf),
               log_dir=str(tmp_path), num_clones=1)


# --- training and evaluation --------------------------------------------------

def _summary_tags(tf, log_dir):
  tags = set()
  for path in Path(log_dir).glob("events.out.tfevents.*"):
    for event in tf.train.summary_iterator(str(path)):
      tags.update(value.tag for value in event.summary.value)
  return tags


@pytest.fixture(scope="module")
def trained_until_data_ends(tmp_path_factory, runner, mnist):
  """Two epochs, no step limit: training stops when the data runs out."""
  log_dir = tmp_path_factory.mktemp("train_two_epochs")
  result = runner.run(
      input_fn=mnist.make_input_fn("train", BATCH_SIZE,
                                   num_epochs=2),
      model_fn=mnist.model_fn,
      optimizer_fn=mnist.make_optimizer_fn(0.1),
      run_mode=runner.ModeKeys.TRAIN, log_dir=str(log_dir),
      log_every_n_steps=20, save_summaries_steps=10, num_clones=1)
  return log_dir, result


def test_train_stops_cleanly_when_data_is_exhausted(tf,
                                                     trained_until_data_ends):
  log_dir, result = trained_until_data_ends
  steps = 2 * TRAIN_EXAMPLES // BATCH_SIZE
  assert result["global_step"] == steps
  assert np.isfinite(result["loss"])
  checkpoint = tf.train.latest_checkpoint(str(log_dir))
  assert checkpoint == str(log_dir / f"model.ckpt-{steps}")


def test_train_writes_log_info_and_loss_summaries(tf, trained_until_data_ends):
  log_dir, _ = trained_until_data_ends
  assert {"accuracy", "loss"} <= _summary_tags(tf, log_dir)


def test_eval_averages_log_info_over_exactly_one_pass(
    tf, runner, mnist, trained_until_data_ends, tmp_path):
  log_dir, _ = trained_until_data_ends

  def model_fn(inputs, run_mode):
    spec = mnist.model_fn(inputs, run_mode)
    label_mean = tf.reduce_mean(tf.cast(tf.argmax(inputs[1], 1), tf.float32))
    return runner.ModelSpec(loss=spec.loss, log_info={
        **spec.log_info, "label_mean": label_mean})

  metrics = runner.run(
      input_fn=mnist.make_input_fn("test", EVAL_BATCH_SIZE,
                                   num_epochs=1),
      model_fn=model_fn, run_mode="EVAL", checkpoint_path=str(log_dir),
      log_dir=str(tmp_path / "eval"))
  expected_label_mean = mnist.datasets.test.labels.argmax(1).mean()
  assert sorted(metrics) == ["accuracy", "label_mean", "loss"]
  # Weighted by batch size over one pass, the short last batch included.
  assert metrics["label_mean"] == pytest.approx(expected_label_mean, abs=1e-5)
  assert metrics["accuracy"] > TRAINED_ACCURACY
  assert {"accuracy", "label_mean", "loss"} <= _summary_tags(tf,
                                                            tmp_path / "eval")


@pytest.fixture(scope="module")
def trained_with_two_clones(tmp_path_factory, runner, mnist):
  log_dir = tmp_path_factory.mktemp("train_two_clones")
  result = runner.run(
      input_fn=mnist.make_input_fn("train", BATCH_SIZE),
      model_fn=mnist.model_fn, optimizer_fn=mnist.make_optimizer_fn(0.1),
      log_dir=str(log_dir), max_number_of_steps=80, log_every_n_steps=0,
      num_clones=2)
  return log_dir, result


def _evaluate(runner, mnist, checkpoint_path):
  return runner.run(
      input_fn=mnist.make_input_fn("test", EVAL_BATCH_SIZE,
                                   num_epochs=1),
      model_fn=mnist.model_fn, run_mode=runner.ModeKeys.EVAL,
      checkpoint_path=str(checkpoint_path))


def test_two_clones_on_cpu_train_to_max_steps(tf, runner, mnist,
                                              trained_with_two_clones):
  log_dir, result = trained_with_two_clones
  assert result["global_step"] == 80
  assert tf.train.latest_checkpoint(str(log_dir)).endswith("model.ckpt-80")
  graph = (log_dir / "graph.pbtxt").read_text()
  for clone in ("clone_0", "clone_1"):
    assert f'name: "{clone}/MatMul"' in graph
  for index in range(2):  # each clone's share of the batch
    assert f'name: "split_for_clone_{index}/strided_slice"' in graph
  metrics = _evaluate(runner, mnist, log_dir)
  assert metrics["accuracy"] > TRAINED_ACCURACY


def test_train_starts_from_checkpoint_path(tf, runner, mnist,
                                          trained_with_two_clones, tmp_path):
  source_dir, _ = trained_with_two_clones
  source_metrics = _evaluate(runner, mnist, source_dir)
  # A learning rate of 0 keeps the variables where they started.
  runner.run(
      input_fn=mnist.make_input_fn("train", BATCH_SIZE),
      model_fn=mnist.model_fn, optimizer_fn=mnist.make_optimizer_fn(0.0),
      log_dir=str(tmp_path), max_number_of_steps=1,
      checkpoint_path=str(source_dir), num_clones=1)
  assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-1")
  metrics = _evaluate(runner, mnist, tmp_path)
  assert metrics["accuracy"] == pytest.approx(source_metrics["accuracy"])


def test_train_saves_every_save_model_secs_and_leaves_eager_mode_on(
    tf, runner, tmp_path):
  def slow_input_fn(unused_run_mode):
    # 0.1 s per step, so 30 steps span several 1 s checkpoint intervals.
    delay = tf.numpy_function(lambda: np.float32(time.sleep(0.1) or 0.0), [],
                              tf.float32)
    return tf.random.uniform([8, 3]) + delay, tf.zeros([8], tf.int64)

  result = runner.run(slow_input_fn, _linear_model_fn(tf, runner), _sgd(tf),
                      log_dir=str(tmp_path), max_number_of_steps=30,
                      save_model_secs=1, num_clones=1)
  saved_steps = sorted(int(path.name.split("-")[1].split(".")[0])
                       for path in tmp_path.glob("model.ckpt-*.index"))
  assert result["global_step"] == 30
  assert saved_steps[-1] == 30
  assert any(step < 30 for step in saved_steps), saved_steps
  assert tf.executing_eagerly()


# --- module-level use: flags from the command line, progress on the console ----

def test_command_line_flags_are_read_from_argv(runner):
  run_flags = runner.command_line_flags(
      ["train.py", "--data_url=/data", "-v", "3", "--num_gpus", "2",
       "--ps_hosts=127.0.0.1:1,127.0.0.1:2", "--job_name=ps", "positional"])
  assert sorted(run_flags) == sorted(runner.RUN_FLAGS)
  assert (run_flags.num_gpus, run_flags.ps_hosts, run_flags.job_name,
          run_flags.task_index, run_flags.worker_hosts) == (
              2, "127.0.0.1:1,127.0.0.1:2", "ps", 0, "")


def test_command_line_flags_keep_values_absl_already_has(runner):
  from absl import flags  # pylint: disable=g-import-not-at-top
  flags.FLAGS.task_index = 1  # as app.run, or the script, would set it
  try:
    run_flags = runner.command_line_flags(["train.py", "--task_index=0",
                                           "--num_gpus=3"])
  finally:
    flags.FLAGS["task_index"].unparse()
  assert (run_flags.task_index, run_flags.num_gpus) == (1, 3)


def test_command_line_flags_reject_a_bad_value(runner):
  from absl import flags  # pylint: disable=g-import-not-at-top
  with pytest.raises(flags.IllegalFlagValueError, match=r"--num_gpus=two"):
    runner.command_line_flags(["train.py", "--num_gpus=two"])


def test_sys_maxsize_steps_run_until_the_data_ends_and_print_progress(
    tf, runner, mnist, tmp_path, capsys):
  from absl import logging  # pylint: disable=g-import-not-at-top
  verbosity = logging.get_verbosity()
  logging.set_verbosity(logging.FATAL)  # progress shows whatever absl says
  try:
    result = runner.run(
        input_fn=mnist.make_input_fn("train", 1000, num_epochs=1),
        model_fn=mnist.model_fn, optimizer_fn=mnist.make_optimizer_fn(0.1),
        log_dir=str(tmp_path / "train"), max_number_of_steps=sys.maxsize,
        log_every_n_steps=2, num_clones=1)
    metrics = runner.run(
        input_fn=mnist.make_input_fn("test", 500, num_epochs=1),
        model_fn=mnist.model_fn, run_mode=runner.ModeKeys.EVAL,
        checkpoint_path=str(tmp_path / "train"),
        max_number_of_steps=sys.maxsize)
  finally:
    logging.set_verbosity(verbosity)
  assert result["global_step"] == TRAIN_EXAMPLES // 1000
  printed = capsys.readouterr().err
  assert "run: TRAIN, 1 clone(s) on the CPU, replica 0 of 1, 0 ps task(s)" in (
      printed)
  for step in (2, 4):
    assert f"run: step {step} (global step {step}): loss = " in printed
  assert "run: input_fn's data is exhausted after 5 steps" in printed
  assert "run: TRAIN done at global step 5 after 5 steps of this worker" in (
      printed)
  assert f"loss = {metrics['loss']:.4f}, accuracy = {metrics['accuracy']:.4f}" in (
      printed)


def test_batch_size_needs_known_example_shapes(tf, runner, tmp_path):
  def input_fn(unused_run_mode):
    return tf.placeholder_with_default(tf.zeros([3]), [None])

  with pytest.raises(ValueError, match=r"input_fn output PlaceholderWithDefault"
                     r":0 has shape \(None,\); batching single examples "
                     r"\(batch_size\) needs every shape known"):
    runner.run(input_fn, _linear_model_fn(tf, runner), _sgd(tf),
               log_dir=str(tmp_path), batch_size=4, num_clones=1)
