"""slim_ext.contrib.opt.MovingAverageOptimizer and slim_ext.contrib.data, against TF1's numbers.

The expected checkpoint values were produced by TensorFlow 1.15's own
``tf.contrib.opt.MovingAverageOptimizer`` on this very graph (3 gradient-descent
steps of 0.1, average_decay 0.5): the swapping saver writes each average under its
variable's name and the variable under the average's name.
"""
import numpy as np
import pytest

# name -> value in the checkpoint TF 1.15 wrote after 3 steps.
TF1_CHECKPOINT = {
    "w": [2.436, 3.077], "w/ExponentialMovingAverage": [2.952, 3.464],
    "b": 0.6795, "b/ExponentialMovingAverage": 0.744,
    "p": [1.718] * 4, "p/ExponentialMovingAverage": [1.976] * 4, "global_step": 3,
}


def _model(tf):
  w = tf.Variable([1.0, 2.0], name="w")
  b = tf.get_variable("b", initializer=0.5)
  p = tf.get_variable("p", shape=[4], partitioner=tf.fixed_size_partitioner(2),
                      initializer=tf.ones_initializer())
  return w, (tf.reduce_sum(tf.square(w - 5.0)) + tf.square(b - 1.0)
             + tf.reduce_sum(tf.square(tf.convert_to_tensor(p) - 3.0)))


def test_trains_and_swaps_the_averages_into_the_saver(tf, tmp_path):
  from slim_ext.contrib.opt import MovingAverageOptimizer
  with tf.Graph().as_default():
    w, loss = _model(tf)
    step = tf.train.get_or_create_global_step()
    opt = MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), average_decay=0.5)
    train_op = opt.minimize(loss, global_step=step)
    saver = opt.swapping_saver()
    with tf.Session() as session:
      session.run(tf.global_variables_initializer())
      for _ in range(3):
        session.run(train_op)
      np.testing.assert_allclose(session.run(w), [2.952, 3.464], rtol=1e-5)
      path = saver.save(session, str(tmp_path / "model"))
  reader = tf.train.load_checkpoint(path)
  saved = {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}
  assert set(saved) == set(TF1_CHECKPOINT)
  for name, value in TF1_CHECKPOINT.items():
    np.testing.assert_allclose(saved[name], value, rtol=1e-4, err_msg=name)
  # A plain Saver (evaluation, inference) restores the averages into the variables.
  with tf.Graph().as_default():
    w, _ = _model(tf)
    with tf.Session() as session:
      tf.train.Saver().restore(session, path)
      np.testing.assert_allclose(session.run(w), [2.436, 3.077], rtol=1e-5)


def test_works_with_slim_create_train_op(tf, slim):
  from slim_ext.contrib.opt import MovingAverageOptimizer
  with tf.Graph().as_default():
    _, loss = _model(tf)
    opt = MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), average_decay=0.5,
                                 sequential_update=False)
    train_op = slim.learning.create_train_op(loss, opt)
    assert isinstance(opt.swapping_saver(), tf.train.Saver)
    with tf.Session() as session:
      session.run(tf.global_variables_initializer())
      first = session.run(train_op)
      assert session.run(train_op) < first
      averaged = [v for v in tf.global_variables() if "ExponentialMovingAverage" in v.op.name]
      assert len(averaged) == 4  # w, b and p's two parts


def test_swapping_saver_needs_the_update_first_and_both_halves(tf):
  from slim_ext.contrib.opt import MovingAverageOptimizer
  with tf.Graph().as_default():
    w, loss = _model(tf)
    opt = MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.1))
    with pytest.raises(RuntimeError, match="Must call apply_gradients or minimize"):
      opt.swapping_saver()
    opt.minimize(loss)
    with pytest.raises(ValueError, match="w/ExponentialMovingAverage is not part of"):
      opt.swapping_saver(var_list=[w])


@pytest.mark.parametrize("padded", [False, True])
def test_and_drop_remainder_batches_drop_the_last_short_batch(tf, padded):
  from slim_ext.contrib import data
  dataset = tf.data.Dataset.range(10)
  if padded:
    dataset = dataset.map(lambda x: tf.fill([x % 3 + 1], x))
    batched = dataset.apply(data.padded_batch_and_drop_remainder(4, [3]))
  else:
    batched = dataset.apply(data.batch_and_drop_remainder(4))
  # The static batch dimension TF1 gave these, which batch() without it does not.
  assert tf.data.get_output_shapes(batched)[0] == 4
  batches = [batch.numpy() for batch in batched]
  assert len(batches) == 2
  if padded:
    assert batches[0].tolist() == [[0, 0, 0], [1, 1, 0], [2, 2, 2], [3, 0, 0]]
  else:
    assert [b.tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7]]
