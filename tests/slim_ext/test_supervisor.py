"""slim_ext.supervisor: recovery_wait_secs for tf_slim.learning.train's Supervisor."""
import pytest

pytestmark = pytest.mark.tf


@pytest.fixture
def supervisor(tf):
    """slim_ext.supervisor, with its defaults restored after the test."""
    from slim_ext import supervisor as module

    previous = module.recovery_wait_secs(), module.device_filters()
    yield module
    module.set_recovery_wait_secs(previous[0])
    module.set_device_filters(previous[1])


def _session_manager_wait(tf, supervisor_class, **kwargs):
    """Builds a Supervisor over a one-variable graph; returns its poll interval."""
    with tf.Graph().as_default() as graph:
        tf.Variable(1.0, name="v")
        sv = supervisor_class(graph=graph, logdir=None, **kwargs)
        # Supervisor hands recovery_wait_secs to its SessionManager, whose
        # wait_for_session is what a non-chief worker polls the chief with.
        return sv.session_manager._recovery_wait_secs


def test_learning_supervisor_polls_every_set_seconds(tf, supervisor):
    from tf_slim import learning

    supervisor.set_recovery_wait_secs(1.5)
    assert _session_manager_wait(tf, learning.supervisor.Supervisor) == 1.5


def test_explicit_recovery_wait_secs_still_wins(tf, supervisor):
    from tf_slim import learning

    supervisor.set_recovery_wait_secs(1.5)
    wait = _session_manager_wait(
        tf, learning.supervisor.Supervisor, recovery_wait_secs=7
    )
    assert wait == 7


def test_tensorflow_supervisor_is_unchanged(tf, supervisor):
    from tensorflow.python.training import supervisor as tf_supervisor

    supervisor.set_recovery_wait_secs(1.5)
    assert tf.train.Supervisor is tf_supervisor.Supervisor
    assert _session_manager_wait(tf, tf.train.Supervisor) == 30


def test_setting_twice_wraps_once(tf, supervisor):
    from tensorflow.python.training import supervisor as tf_supervisor
    from tf_slim import learning

    supervisor.set_recovery_wait_secs(2)
    view = learning.supervisor
    supervisor.set_recovery_wait_secs(3)
    assert learning.supervisor is view
    assert view._wrapped is tf_supervisor
    assert _session_manager_wait(tf, learning.supervisor.Supervisor) == 3


@pytest.mark.parametrize("seconds", [0, -1])
def test_non_positive_seconds_rejected(supervisor, seconds):
    with pytest.raises(ValueError, match="recovery_wait_secs must be > 0"):
        supervisor.set_recovery_wait_secs(seconds)


def test_apply_env_unset_changes_nothing(supervisor, monkeypatch):
    supervisor.set_recovery_wait_secs(4)
    monkeypatch.delenv(supervisor.ENV_VAR, raising=False)
    assert supervisor.apply_env() is None
    assert supervisor.recovery_wait_secs() == 4


def test_apply_env_sets_seconds(supervisor, monkeypatch):
    monkeypatch.setenv("SLIM_EXT_RECOVERY_WAIT_SECS", "0.5")
    assert supervisor.apply_env() == 0.5
    assert supervisor.recovery_wait_secs() == 0.5


@pytest.mark.parametrize("value", ["soon", "0", "-2"])
def test_apply_env_bad_value_names_the_variable(supervisor, monkeypatch, value):
    monkeypatch.setenv("SLIM_EXT_RECOVERY_WAIT_SECS", value)
    with pytest.raises(ValueError, match=f"SLIM_EXT_RECOVERY_WAIT_SECS='{value}'"):
        supervisor.apply_env()


def test_learning_train_runs_with_the_wrapped_supervisor(tf, slim, supervisor):
    supervisor.set_recovery_wait_secs(1)
    with tf.Graph().as_default():
        features = tf.random.uniform([4, 2], seed=3)
        prediction = slim.fully_connected(features, 1, activation_fn=None)
        loss = tf.reduce_mean(tf.square(prediction - 1.0))
        train_op = slim.learning.create_train_op(
            loss, tf.train.GradientDescentOptimizer(0.1)
        )
        steps = []

        def counting_train_step(sess, *args):
            steps.append(len(steps) + 1)
            return slim.learning.train_step(sess, *args)

        slim.learning.train(train_op, logdir=None, number_of_steps=3,
                            train_step_fn=counting_train_step)
    assert steps == [1, 2, 3]


def _learning_train_session_config(tf, slim, **train_kwargs):
    """Runs slim.learning.train for one step; returns its session's config."""
    configs = []
    with tf.Graph().as_default():
        weight = tf.Variable(0.0, name="weight")
        train_op = slim.learning.create_train_op(
            tf.square(weight - 1.0), tf.train.GradientDescentOptimizer(0.1)
        )

        def recording_train_step(sess, *args):
            # The session the Supervisor opened, and the config it was given.
            configs.append(sess._config)  # pylint: disable=protected-access
            return slim.learning.train_step(sess, *args)

        slim.learning.train(train_op, logdir=None, number_of_steps=1,
                            train_step_fn=recording_train_step, **train_kwargs)
    return configs[0]


FILTERS = ["/job:ps", "/job:worker/task:1"]


def test_learning_train_sessions_get_the_device_filters(tf, slim, supervisor):
    supervisor.set_device_filters(FILTERS)
    config = _learning_train_session_config(tf, slim)
    assert list(config.device_filters) == FILTERS


def test_device_filters_join_the_callers_other_session_options(tf, slim,
                                                               supervisor):
    supervisor.set_device_filters(FILTERS)
    given = tf.ConfigProto(allow_soft_placement=True)
    config = _learning_train_session_config(tf, slim, session_config=given)
    assert list(config.device_filters) == FILTERS
    assert config.allow_soft_placement
    assert not given.device_filters  # the caller's proto is not changed


def test_callers_own_device_filters_win(tf, slim, supervisor):
    supervisor.set_device_filters(FILTERS)
    given = tf.ConfigProto(device_filters=["/job:worker"])
    config = _learning_train_session_config(tf, slim, session_config=given)
    assert list(config.device_filters) == ["/job:worker"]


def test_no_filters_set_leaves_the_session_config_alone(tf, slim, supervisor):
    supervisor.set_device_filters([])
    assert not _learning_train_session_config(tf, slim).device_filters
