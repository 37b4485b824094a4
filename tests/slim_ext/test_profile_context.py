"""slim_ext.contrib.tfprof.ProfileContext: TF1's tf.contrib.tfprof.ProfileContext, for real.

Each test trains a small graph for a few steps inside the context and reads back what
it wrote or returned: the dumped ProfileProto holds the traced steps and the graph's
ops, the auto profiles have the ops' times, and Session.run is restored afterwards.
"""
import pytest

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def ProfileContext():  # pylint: disable=invalid-name
  from slim_ext.contrib.tfprof import ProfileContext as profile_context  # pylint: disable=g-import-not-at-top
  return profile_context


@pytest.fixture(scope="module")
def profile_proto():
  from tensorflow.core.profiler import tfprof_log_pb2  # pylint: disable=g-import-not-at-top
  return tfprof_log_pb2.ProfileProto


def _train_graph(tf):
  """A linear model with a named matmul, and its training op."""
  inputs = tf.constant([[1.0, 2.0], [3.0, 4.0]])
  weights = tf.get_variable("weights", [2, 1], initializer=tf.ones_initializer())
  prediction = tf.matmul(inputs, weights, name="prediction")
  loss = tf.reduce_mean(tf.square(prediction - 1.0))
  step = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
  return loss, step


def _op_names(view):
  """Every op type in an "op" view.

  tfprof chains that view's nodes, each the child of the one that took more time before
  it (its percentages are cumulative): which op is the root's own child depends on how
  fast each ran.
  """
  names, nodes = set(), list(view.children)
  while nodes:
    node = nodes.pop()
    names.add(node.name)
    nodes.extend(node.children)
  return names


def test_traced_steps_are_dumped_and_read_back(tf, ProfileContext, profile_proto, tmp_path):
  with tf.Graph().as_default():
    loss, train = _train_graph(tf)
    with ProfileContext(str(tmp_path), trace_steps=[2, 3, 4], dump_steps=[4]) as pctx:
      # No time or memory threshold: which ops show must not depend on how fast
      # they ran (MatMul fell under the default 1 us / 1 byte on a loaded machine).
      options = tf.profiler.ProfileOptionBuilder.time_and_memory(min_micros=0, min_bytes=0)
      pctx.add_auto_profiling("op", options, [3, 4])
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())  # step 0
        losses = [sess.run([loss, train])[0] for _ in range(5)]  # steps 1-5
  # Tracing changes nothing the program sees: the loss goes down as without it.
  assert losses == sorted(losses, reverse=True) and losses[0] > losses[-1]
  assert sorted(p.name for p in tmp_path.iterdir()) == ["profile_4"]
  profile = profile_proto.FromString((tmp_path / "profile_4").read_bytes())
  assert sorted(profile.steps) == [2, 3, 4]
  names = {node.name for node in profile.nodes.values()}
  assert {"prediction", "weights"} <= names
  traced = [node for node in profile.nodes.values() if node.name == "prediction"]
  assert sorted(traced[0].execs) == [2, 3, 4]
  views = pctx.get_profiles("op")
  assert sorted(views) == [3, 4]
  assert "MatMul" in _op_names(views[4])
  assert views[4].total_exec_micros > 0


def test_explicit_tracing_without_steps(tf, ProfileContext, profile_proto, tmp_path):
  with tf.Graph().as_default():
    loss, _ = _train_graph(tf)
    with ProfileContext(str(tmp_path), trace_steps=[], dump_steps=[]) as pctx:
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(loss)  # not traced: no steps were asked for
        pctx.trace_next_step()
        sess.run(loss)  # step 2
        pctx.dump_next_step()
        sess.run(loss)  # step 3: dumped, not traced
        scopes = pctx.profiler.profile_name_scope(
            tf.profiler.ProfileOptionBuilder.time_and_memory())
  profile = profile_proto.FromString((tmp_path / "profile_3").read_bytes())
  assert list(profile.steps) == [2]
  assert "prediction" in {child.name for child in scopes.children}


def test_session_run_is_restored_and_contexts_do_not_nest(tf, ProfileContext, tmp_path):
  from tensorflow.python.client import session as session_lib  # pylint: disable=g-import-not-at-top
  run = session_lib.BaseSession.run
  with ProfileContext(str(tmp_path), trace_steps=[0]):
    assert session_lib.BaseSession.run is not run
    with pytest.raises(RuntimeError, match="do not nest"):
      with ProfileContext(str(tmp_path)):
        pass
  assert session_lib.BaseSession.run is run
  with pytest.raises(ValueError, match="directory"):
    ProfileContext("")


def test_disabled_context_does_nothing(tf, ProfileContext, tmp_path):
  from tensorflow.python.client import session as session_lib  # pylint: disable=g-import-not-at-top
  run = session_lib.BaseSession.run
  with tf.Graph().as_default():
    loss, _ = _train_graph(tf)
    with ProfileContext(str(tmp_path), trace_steps=[0], dump_steps=[0],
                        enabled=False) as pctx:
      assert session_lib.BaseSession.run is run and pctx.profiler is None
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(loss)
  assert not list(tmp_path.iterdir())


def test_auto_tracing_skips_warmup_and_traces_each_new_fetch_once(
    tf, ProfileContext, profile_proto, tmp_path):
  with tf.Graph().as_default():
    loss, train = _train_graph(tf)
    with ProfileContext(str(tmp_path), dump_steps=[13]):
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(12):  # steps 1-12
          sess.run(train)
        sess.run(loss)  # step 13
  profile = profile_proto.FromString((tmp_path / "profile_13").read_bytes())
  # train is first seen after the warm-up at step 10, loss at step 13.
  assert sorted(profile.steps) == [10, 13]


def test_contrib_tfprof_has_profile_context():
  import slim_ext.contrib  # pylint: disable=g-import-not-at-top
  from slim_ext.contrib.tfprof import profile_context  # pylint: disable=g-import-not-at-top
  assert slim_ext.contrib.tfprof.ProfileContext is profile_context.ProfileContext
