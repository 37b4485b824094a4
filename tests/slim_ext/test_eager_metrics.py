"""slim_ext.contrib.eager_metrics: tf.contrib.eager's metric objects, against TF 1.14's.

data/tf1_eager_metrics/expected.json holds what TF 1.14's ``tfe.metrics`` returned and
computed for fixed batches (its make.py, run with Python 2.7 + TF 1.14); every call is
replayed here, in eager execution, and compared value, dtype and name alike.
"""
import json
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow

EXPECTED = json.loads((Path(__file__).parent / "data" / "tf1_eager_metrics" /
                       "expected.json").read_text())


@pytest.fixture
def eager_metrics(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib import eager_metrics as module  # pylint: disable=g-import-not-at-top
  return module


def _plain(value):
  """make.py's form of a value: nested lists of {value, dtype}."""
  if isinstance(value, (tuple, list)):
    return [_plain(item) for item in value]
  value = np.asarray(value)
  return {"value": value.tolist(), "dtype": value.dtype.name}


@pytest.mark.parametrize("case", EXPECTED["metrics"], ids=lambda case: case["metric"])
def test_each_metric_returns_and_computes_what_tf_1_14_did(eager_metrics, case):
  metric = getattr(eager_metrics, case["metric"])(**case["keywords"])
  returned = []
  for call in case["calls"]:
    args, weights = call[:-1], call[-1]
    returned.append(_plain(metric(*args) if weights is None else metric(*args, weights=weights)))
  assert returned == case["returned"]
  assert _plain(metric.result()) == case["result"]
  assert (metric.name, [v.name for v in metric.variables]) == (case["name"], case["variables"])


def test_init_variables_resets_eagerly_and_a_metric_builds_once(eager_metrics):
  metric = eager_metrics.Mean(name="loss value")
  metric([4.0, 6.0])
  assert metric.init_variables() is None
  metric([1.0])
  assert float(metric.result()) == 1.0
  assert [v.name for v in metric.variables] == ["loss_value/numer:0", "loss_value/denom:0"]
  with pytest.raises(RuntimeError, match="except in build"):
    metric.add_variable("more", shape=())


def test_in_a_graph_the_returned_tensors_run_the_update(tf, eager_metrics):
  with tf.Graph().as_default():
    metric = eager_metrics.Mean(use_global_variables=False)
    update = metric([2.0, 4.0], weights=[1.0, 3.0])
    value = metric.value()
    assert set(metric.variables) == set(tf.local_variables()) == set(
        tf.get_collection(tf.GraphKeys.METRIC_VARIABLES))
    with tf.Session() as session:
      session.run(tf.local_variables_initializer())
      session.run(update)
      session.run(update)
      assert session.run(value) == pytest.approx(3.5)
      session.run(metric.init_variables())
      assert session.run(metric.variables) == [0.0, 0.0]


def test_aggregate_sums_metrics_of_one_type(eager_metrics):
  first, second = eager_metrics.Mean(), eager_metrics.Mean()
  first([1.0, 3.0])
  second([5.0])
  first.aggregate([second])
  assert float(first.result()) == 3.0
  accuracy = eager_metrics.Accuracy()
  with pytest.raises(TypeError, match="same type"):
    first.aggregate([accuracy])


def test_result_writes_a_summary_under_the_metric_name(tf, eager_metrics, tmp_path):
  metric = eager_metrics.Mean(name="xent")
  metric([0.5, 1.5])
  writer = tf.compat.v2.summary.create_file_writer(str(tmp_path))
  with writer.as_default(step=3):
    metric.result()
    metric.result(write_summary=False)
  writer.flush()
  tags = [value.tag for path in tmp_path.iterdir()
          for event in tf.train.summary_iterator(str(path)) for value in event.summary.value]
  assert tags == ["xent"]
