"""tf.contrib.learn's Experiment and learn_runner on the revived Estimator, as TF 1.15 ran them.

Real Estimators (a linear model fitting y = 3x + 1) in the session's one
TensorFlow: each schedule of ``slim_ext.contrib.learn.Experiment`` trains,
evaluates and exports what TF 1.15's did; ``learn_runner.run`` picks the
schedule of each task type from the platform's TF_CONFIG as TF 1.15's did,
checks that the Estimator uses the RunConfig it was given (by ``uid()``, also
one a RunConfig subclass overrides) and refuses what TF 1.15 refused. The
cluster schedules (``train`` with its server, ``run_std_server`` on a ps that
ends) run as processes in tests/regression/test_estimator_examples.py.
"""
import collections
import pathlib
import types

import pytest

pytestmark = pytest.mark.tf

TRAIN_STEPS = 30


@pytest.fixture(scope="module")
def learn(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib import learn as learn_module  # pylint: disable=g-import-not-at-top
  return learn_module


@pytest.fixture(scope="module")
def learn_runner(learn):
  return learn.learn_runner


def _input_fn(tf):
  def input_fn():
    x = tf.reshape(tf.linspace(-1.0, 1.0, 64), [-1, 1])
    return tf.data.Dataset.from_tensor_slices(({"x": x}, 3.0 * x + 1.0)).repeat().batch(16)
  return input_fn


def _model_fn(tf):
  def model_fn(features, labels, mode):
    predictions = tf.layers.dense(features["x"], 1, name="linear")
    if mode == tf.estimator.ModeKeys.PREDICT:
      return tf.estimator.EstimatorSpec(
          mode, predictions={"y": predictions},
          export_outputs={"serving_default":
                          tf.estimator.export.PredictOutput({"y": predictions})})
    loss = tf.losses.mean_squared_error(labels, predictions)
    train_op = tf.train.GradientDescentOptimizer(0.3).minimize(
        loss, global_step=tf.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(
        mode, loss=loss, train_op=train_op,
        eval_metric_ops={"mse": tf.metrics.mean_squared_error(labels, predictions)})
  return model_fn


def _experiment(tf, learn, model_dir, config=None, **kwargs):
  config = config or learn.RunConfig(model_dir=str(model_dir), save_checkpoints_steps=10)
  estimator = tf.estimator.Estimator(_model_fn(tf), config=config)
  kwargs.setdefault("train_steps", TRAIN_STEPS)
  kwargs.setdefault("eval_steps", 2)
  return learn.Experiment(estimator, _input_fn(tf), _input_fn(tf), **kwargs)


def _evaluated_steps(tf, eval_dir):
  """The global steps of the evaluations written to ``eval_dir``, in order."""
  return [event.step
          for events in sorted(pathlib.Path(eval_dir).glob("events.out.tfevents.*"))
          for event in tf.train.summary_iterator(str(events))
          if any(value.tag == "mse" for value in event.summary.value)]


def _checkpoint_step(tf, model_dir):
  return int(tf.train.latest_checkpoint(str(model_dir)).rsplit("-", 1)[1])


def _counting_hook(tf):
  """A SessionRunHook that counts the training steps it sees."""

  class CountingHook(tf.train.SessionRunHook):

    def __init__(self):
      self.steps = 0

    def after_run(self, run_context, run_values):
      self.steps += 1

  return CountingHook()


# -- the schedules ---------------------------------------------------------------------


def test_train_runs_to_train_steps_with_the_hooks(tf, learn, tmp_path):
  hook = _counting_hook(tf)
  experiment = _experiment(tf, learn, tmp_path, train_monitors=[hook])
  extra = _counting_hook(tf)
  experiment.extend_train_hooks([extra])
  assert experiment.train(delay_secs=0) is experiment.estimator
  assert _checkpoint_step(tf, tmp_path) == TRAIN_STEPS
  assert hook.steps == extra.steps == TRAIN_STEPS
  assert not (tmp_path / "eval").exists()


def test_evaluate_is_one_named_pass(tf, learn, tmp_path):
  experiment = _experiment(tf, learn, tmp_path, eval_delay_secs=0)
  experiment.train(delay_secs=0)
  metrics = experiment.evaluate()
  assert metrics["global_step"] == TRAIN_STEPS and metrics["mse"] < 0.1
  assert _evaluated_steps(tf, tmp_path / "eval_one_pass") == [TRAIN_STEPS]
  experiment.evaluate(delay_secs=0, name="again")
  assert _evaluated_steps(tf, tmp_path / "eval_again") == [TRAIN_STEPS]


@pytest.mark.parametrize("min_eval_frequency, evaluated", [
    # Every new checkpoint (saved every 10 steps, the first at step 0), then the last.
    (None, [0, 10, 20, TRAIN_STEPS, TRAIN_STEPS]),
    # The first step, then every 20 steps (at step 20 the newest checkpoint is 20),
    # and at the end (TF1 too looked once more when training ended), then the last.
    (20, [0, 20, TRAIN_STEPS, TRAIN_STEPS]),
    # Only after training.
    (0, [TRAIN_STEPS]),
], ids=["every-checkpoint", "every-20-steps", "after-training"])
def test_train_and_evaluate_evaluates_new_checkpoints_while_training(
    tf, learn, tmp_path, min_eval_frequency, evaluated):
  experiment = _experiment(tf, learn, tmp_path, min_eval_frequency=min_eval_frequency,
                           check_interval_secs=0)
  metrics, exports = experiment.train_and_evaluate()
  assert metrics["global_step"] == TRAIN_STEPS and exports == []
  assert _evaluated_steps(tf, tmp_path / "eval") == evaluated


def test_a_checkpoint_saved_after_the_last_look_is_evaluated_at_the_end(tf, learn, tmp_path):
  # The step the hook reads is fetched beside the train op, so under load the last
  # step's look can come before that step's checkpoint is saved (a CI run evaluated
  # [0, 10, 20] while training and missed 30): the hook looks once more at the end.
  from slim_ext.contrib.learn import checkpoint_evaluation  # pylint: disable=g-import-not-at-top

  def save(step):
    (tmp_path / f"model.ckpt-{step}.index").write_bytes(b"")
    tf.train.update_checkpoint_state(str(tmp_path), str(tmp_path / f"model.ckpt-{step}"))

  evaluated = []
  hook = checkpoint_evaluation.EvaluateNewCheckpointsHook(
      types.SimpleNamespace(model_dir=str(tmp_path)),
      lambda: evaluated.append(tf.train.latest_checkpoint(str(tmp_path))) or {},
      every_n_steps=1, check_interval_secs=0)
  save(20)
  hook.after_run(None, types.SimpleNamespace(results=30))
  save(30)
  hook.end(None)
  assert [path.rsplit("-", 1)[1] for path in evaluated] == ["20", "30"]
  hook.end(None)  # nothing new: no evaluation
  assert len(evaluated) == 2


def test_local_run_is_train_and_evaluate_at_the_local_frequency(tf, learn, tmp_path):
  experiment = _experiment(tf, learn, tmp_path, local_eval_frequency=0,
                           check_interval_secs=0)
  metrics, _ = experiment.local_run()
  assert metrics["global_step"] == TRAIN_STEPS
  assert _evaluated_steps(tf, tmp_path / "eval") == [TRAIN_STEPS]
  assert experiment._min_eval_frequency == 1  # pylint: disable=protected-access


def test_checkpoint_and_export_evaluates_and_exports_each_checkpoint(tf, learn, tmp_path):
  def receiver():
    x = tf.placeholder(tf.float32, [None, 1])
    return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})

  config = learn.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=15)
  experiment = _experiment(tf, learn, tmp_path, config=config, checkpoint_and_export=True,
                           export_strategies=learn.make_export_strategy(
                               receiver, exports_to_keep=2))
  metrics, exports = experiment.train_and_evaluate()
  assert metrics["global_step"] == TRAIN_STEPS and len(exports) == 1
  # Each checkpoint the hook saves, the first (step 0) included.
  assert _evaluated_steps(tf, tmp_path / "eval_intermediate_export") == [0, 15, 30]
  # Three exports were written (one a second: they are named by the time); the two
  # newest are kept.
  kept = sorted(path.name for path in (tmp_path / "export" / "Servo").iterdir())
  assert len(kept) == 2 and str(exports[0].decode()).endswith(kept[-1])


def test_continuous_eval_ends_when_training_has_reached_train_steps(tf, learn, tmp_path):
  experiment = _experiment(tf, learn, tmp_path)
  experiment.train(delay_secs=0)
  experiment.continuous_eval(delay_secs=0, throttle_delay_secs=0)
  assert _evaluated_steps(tf, tmp_path / "eval_continuous") == [TRAIN_STEPS]
  experiment.continuous_eval_on_train_data(delay_secs=0, throttle_delay_secs=0)
  assert _evaluated_steps(tf, tmp_path / "eval_continuous_on_train_data") == [TRAIN_STEPS]


def test_continuous_eval_asks_its_predicate(tf, learn, tmp_path):
  experiment = _experiment(tf, learn, tmp_path, train_steps=None)
  experiment.estimator.train(_input_fn(tf), steps=10)
  seen = []

  def predicate(eval_results, checkpoint_path):
    seen.append((eval_results and eval_results["global_step"], checkpoint_path))
    return len(seen) < 3

  # No train_steps: without the predicate it would evaluate forever.
  experiment.continuous_eval(delay_secs=0, throttle_delay_secs=0,
                             continuous_eval_predicate_fn=predicate)
  checkpoint = tf.train.latest_checkpoint(str(tmp_path))
  # First asked with nothing; then after the one evaluation of the newest
  # checkpoint; then after a round that found no new checkpoint.
  assert seen == [(None, None), (10, checkpoint), ({}, checkpoint)]
  with pytest.raises(ValueError, match="must be a callable"):
    experiment.continuous_eval(delay_secs=0, continuous_eval_predicate_fn=3)


def test_continuous_train_and_eval_alternates(tf, learn, tmp_path):
  experiment = _experiment(tf, learn, tmp_path, train_steps_per_iteration=10)
  metrics, exports = experiment.continuous_train_and_eval()
  assert metrics["global_step"] == TRAIN_STEPS and exports == []
  assert _evaluated_steps(tf, tmp_path / "eval_one_pass") == [10, 20, 30]


def test_test_trains_and_evaluates_one_step(tf, learn, tmp_path):
  metrics = _experiment(tf, learn, tmp_path).test()
  assert metrics["global_step"] == 1
  assert _checkpoint_step(tf, tmp_path) == 1


# -- the constructor's checks ---------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({"eval_metrics": {"mse": None}}, "`eval_metrics` must be `None`"),
    ({"train_steps_per_iteration": 2.5}, "must be an integer"),
    ({"export_strategies": ["Servo"]}, "must be an ExportStrategy"),
    ({"train_monitors": ["a monitor"]}, "not a SessionRunHook"),
])
def test_experiment_refuses_what_tf1_refused(tf, learn, tmp_path, kwargs, message):
  with pytest.raises(ValueError, match=message):
    _experiment(tf, learn, tmp_path, **kwargs)


def test_experiment_needs_a_tf_estimator(learn):
  with pytest.raises(ValueError, match="must be a tf.estimator.Estimator"):
    learn.Experiment(object(), None, None)


def test_export_strategies_are_reset(tf, learn, tmp_path):
  strategy = learn.ExportStrategy("mine", lambda estimator, path: path)
  experiment = _experiment(tf, learn, tmp_path, export_strategies=strategy)
  assert experiment.reset_export_strategies() == (strategy,)
  assert experiment.reset_export_strategies([strategy]) == ()


@pytest.mark.parametrize("export_fn, expected", [
    (lambda estimator, path: (path,), ("dir",)),
    (lambda estimator, path, checkpoint_path: (path, checkpoint_path), ("dir", "ckpt")),
    (lambda estimator, path, checkpoint_path, eval_result: (checkpoint_path, eval_result),
     ("ckpt", {"loss": 1})),
])
def test_export_strategy_passes_what_its_function_takes(learn, export_fn, expected):
  strategy = learn.ExportStrategy("s", export_fn)
  assert strategy.export(None, "dir", checkpoint_path="ckpt",
                         eval_result={"loss": 1}) == expected


def test_export_strategy_with_eval_result_needs_checkpoint_path(learn):
  strategy = learn.ExportStrategy("s", lambda estimator, path, eval_result: None)
  with pytest.raises(ValueError, match="must also accept checkpoint_path"):
    strategy.export(None, "dir")


# -- learn_runner ----------------------------------------------------------------------------

_CLUSTER = {"master": ["host0:0"], "worker": ["host1:1"], "ps": ["host2:2"]}


@pytest.mark.parametrize("tf_config_value, schedule", [
    (None, "train_and_evaluate"),
    ({"cluster": {"master": ["host0:0"]}, "task": {"type": "master", "index": 0}},
     "train_and_evaluate"),  # a one-task cluster is not distributed
    ({"cluster": _CLUSTER, "task": {"type": "master", "index": 0}}, "train_and_evaluate"),
    ({"cluster": _CLUSTER, "task": {"type": "worker", "index": 0}}, "train"),
    ({"cluster": _CLUSTER, "task": {"type": "ps", "index": 0}}, "run_std_server"),
], ids=["local", "one-task", "master", "worker", "ps"])
def test_default_schedule_by_task_type(learn, learn_runner, tf_config, tf_config_value,
                                       schedule):
  if tf_config_value:
    tf_config({**tf_config_value, "environment": "cloud"})
  assert learn_runner.default_schedule(learn.RunConfig()) == schedule


@pytest.mark.parametrize("task, message", [
    ({"type": "evaluator", "index": 0}, "No default schedule for task type: evaluator"),
    ({"type": "chief", "index": 0}, "No default schedule for task type: chief"),
    ({}, "Must specify a schedule"),
], ids=["evaluator", "chief", "no-task"])
def test_no_default_schedule_where_tf1_had_none(learn, learn_runner, tf_config, task,
                                                message):
  cluster = {**_CLUSTER, "evaluator": ["host3:3"], "chief": ["host4:4"]}
  tf_config({"cluster": cluster, "task": task, "environment": "cloud"})
  with pytest.raises(ValueError, match=message) as raised:
    learn_runner.default_schedule(learn.RunConfig())
  if task:
    assert "schedule=" in str(raised.value)


def _experiment_fn(tf, learn, **kwargs):
  def experiment_fn(run_config, hparams):
    estimator = tf.estimator.Estimator(_model_fn(tf), config=run_config)
    return learn.Experiment(estimator, _input_fn(tf), _input_fn(tf),
                            train_steps=hparams.train_steps, eval_steps=2, **kwargs)
  return experiment_fn


def test_run_builds_the_experiment_and_runs_the_local_schedule(tf, learn, learn_runner,
                                                               tf_config, tmp_path):
  del tf_config
  from slim_ext.hparams import HParams  # pylint: disable=g-import-not-at-top
  config = learn.RunConfig(model_dir=str(tmp_path), session_config=tf.ConfigProto(
      allow_soft_placement=True))
  metrics, exports = learn_runner.run(_experiment_fn(tf, learn), run_config=config,
                                      hparams=HParams(train_steps=TRAIN_STEPS))
  assert metrics["global_step"] == TRAIN_STEPS and exports == []


def test_run_a_named_schedule(tf, learn, learn_runner, tf_config, tmp_path):
  del tf_config
  from slim_ext.hparams import HParams  # pylint: disable=g-import-not-at-top
  learn_runner.run(_experiment_fn(tf, learn), schedule="train",
                   run_config=learn.RunConfig(model_dir=str(tmp_path)),
                   hparams=HParams(train_steps=10))
  assert _checkpoint_step(tf, tmp_path) == 10 and not (tmp_path / "eval").exists()


def test_a_run_config_subclass_overriding_uid_keeps_working(tf, learn, learn_runner,
                                                            tf_config, tmp_path):
  # tensorflow/models' cifar10_estimator: uid() over __dict__, the cluster spec sorted.
  tf_config({"cluster": {"master": ["host0:0"]}, "task": {"type": "master", "index": 0},
             "environment": "cloud"})

  class RunConfig(learn.RunConfig):
    def uid(self, whitelist=None):
      whitelist = learn.run_config._DEFAULT_UID_WHITE_LIST if whitelist is None else whitelist  # pylint: disable=protected-access
      state = {key: value for key, value in self.__dict__.items()
               if not key.startswith("__") and key[1:] not in whitelist}
      state["_cluster_spec"] = collections.OrderedDict(
          sorted(state["_cluster_spec"].as_dict().items()))
      return ", ".join(f"{key}={value!r}" for key, value in sorted(state.items()))

  from slim_ext.hparams import HParams  # pylint: disable=g-import-not-at-top
  config = RunConfig(model_dir=str(tmp_path))
  metrics, _ = learn_runner.run(_experiment_fn(tf, learn), run_config=config,
                                hparams=HParams(train_steps=10))
  assert metrics["global_step"] == 10


def test_run_with_the_deprecated_output_dir(tf, learn, learn_runner, tf_config, tmp_path):
  del tf_config

  def experiment_fn(output_dir):
    estimator = tf.estimator.Estimator(_model_fn(tf), model_dir=output_dir)
    return learn.Experiment(estimator, _input_fn(tf), _input_fn(tf), train_steps=10,
                            eval_steps=2)

  metrics, _ = learn_runner.run(experiment_fn, output_dir=str(tmp_path))
  assert metrics["global_step"] == 10


def test_run_checks_the_estimator_uses_the_run_config(tf, learn, learn_runner, tf_config,
                                                      tmp_path):
  del tf_config

  def experiment_fn(run_config, hparams):
    del hparams
    estimator = tf.estimator.Estimator(
        _model_fn(tf), config=run_config.replace(tf_random_seed=7))
    return learn.Experiment(estimator, _input_fn(tf), _input_fn(tf))

  config = learn.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=10)
  # tf_random_seed is left out of uid(): a different model_dir is not.
  learn_runner.run(experiment_fn, run_config=config, schedule="test")

  def other_config_fn(run_config, hparams):
    del hparams
    estimator = tf.estimator.Estimator(_model_fn(tf), config=learn.RunConfig(
        model_dir=str(tmp_path / "elsewhere")))
    return learn.Experiment(estimator, _input_fn(tf), _input_fn(tf))

  with pytest.raises(RuntimeError, match="expected to be used by the `Estimator`"):
    learn_runner.run(other_config_fn, run_config=config)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"output_dir": "d", "run_config": "config"}, ValueError, "Cannot provide both"),
    ({}, ValueError, "Must set value for `output_dir` or `run_config`"),
    ({"run_config": "not a contrib RunConfig"}, ValueError,
     "must be `tf.contrib.learn.RunConfig`"),
    ({"run_config": "no model_dir"}, ValueError, "Must specify a model directory"),
    ({"run_config": "config", "hparams": {"a": 1}}, ValueError, "must be `HParams`"),
    ({"output_dir": "d", "hparams": "hparams"}, ValueError, "Must set `hparams` as None"),
    ({"run_config": "config", "hparams": "hparams", "schedule": "no_such_schedule"},
     ValueError, "non-existent task no_such_schedule"),
    ({"run_config": "config", "hparams": "hparams", "schedule": "estimator"}, TypeError,
     "non-callable member"),
])
def test_run_refuses_what_tf1_refused(tf, learn, learn_runner, tf_config, tmp_path, kwargs,
                                      error, message):
  del tf_config
  from slim_ext.hparams import HParams  # pylint: disable=g-import-not-at-top
  values = {"config": learn.RunConfig(model_dir=str(tmp_path)),
            "not a contrib RunConfig": tf.estimator.RunConfig(model_dir=str(tmp_path)),
            "no model_dir": learn.RunConfig(), "hparams": HParams(train_steps=1)}
  kwargs = {key: values.get(value, value) if isinstance(value, str) else value
            for key, value in kwargs.items()}
  with pytest.raises(error, match=message):
    learn_runner.run(_experiment_fn(tf, learn), **kwargs)


def test_run_needs_an_experiment(learn, learn_runner, tf_config, tmp_path):
  del tf_config
  with pytest.raises(TypeError, match="did not return an Experiment"):
    learn_runner.run(lambda run_config, hparams: None,
                     run_config=learn.RunConfig(model_dir=str(tmp_path)))
  with pytest.raises(TypeError, match="is not callable"):
    learn_runner.run("experiment_fn", output_dir=str(tmp_path))


def test_tune_runs_an_experiment_per_trial(tf, learn, learn_runner, tf_config, tmp_path):
  del tf_config
  from slim_ext.hparams import HParams  # pylint: disable=g-import-not-at-top

  class Tuner:
    """Two trials, each with its own model_dir and train_steps."""

    def __init__(self):
      self.trials, self.results = [5, 10], []

    def next_trial(self):
      return bool(self.trials)

    def run_experiment(self, experiment_fn):
      steps = self.trials.pop(0)
      config = learn.RunConfig(model_dir=str(tmp_path / str(steps)))
      self.results.append(experiment_fn(config, HParams(train_steps=steps)).train(0))

  tuner = Tuner()
  learn_runner.tune(_experiment_fn(tf, learn), tuner)
  assert [_checkpoint_step(tf, tmp_path / name) for name in ("5", "10")] == [5, 10]


def test_earlier_ports_names_are_the_real_ones(learn):
  import slim_ext.contrib  # pylint: disable=g-import-not-at-top
  assert slim_ext.contrib.Experiment is learn.Experiment
  assert slim_ext.contrib.learn_runner_run is learn.learn_runner.run
