"""Slim networks, their variable values and their inputs, the same on TF 1.15 and TF 2.

tests/slim_ext/data/tf1_slim_nets/make_fixture.py builds these networks with
TensorFlow 1.15's own ``tf.contrib.slim`` (and examples/slim_tf1's nets as
written, unported), gives every variable the value ``variable_value`` draws for
its name, and records what they compute; tests/slim_ext/test_tf1_slim_nets.py
builds them with tf_slim on TensorFlow 2 (and examples/slim_tf1 once ported) and
compares. So this module runs on Python 3.7 / TF 1.15 too: no TensorFlow import
of its own, nothing newer than Python 3.7.

The values come from a seed and the variable's name, not from a stored file: a
checkpoint of the deep nets would be hundreds of megabytes. The small nets of
``CHECKPOINTED`` are also saved by TF 1.15, and TF 2 restores them by name.

Together the nets use every layer kind slim's classifiers are built from: plain,
separable, depthwise and atrous convolutions, batch norm (fused and not, with and
without scale), dropout, max and average pooling, fully connected layers, and the
Inception, ResNet (v1 and v2, with atrous output strides) and MobileNet blocks.
"""
import zlib

import numpy as np

BATCH = 2
NUM_CLASSES = 5
# The base of every seed: the input's, and (with a variable's name) each value's.
SEED = 43

# name -> (input size, whether one training step is compared too). Steps through
# many batch norms over two images are ill-conditioned (the gradients that reach the
# first layers are sums that nearly cancel): on TF 1.15 itself, giving the two images
# in the other order changes the step of resnet_v2_50_os16 by 2.6% of the largest
# change, of inception_v2 by 0.07%, of cifarnet_bn by 1e-6 (resnet_v1_50 on 64x64
# images, whose last batch norms see 8 values a channel, by 4% when the input moves
# one float32 step: it is not trained here).
NETS = {
    "lenet": (28, False),
    "cifarnet_bn": (32, True),
    "separable_net": (32, True),
    "alexnet_v2": (224, False),
    "inception_v1": (224, False),
    "inception_v2": (64, True),
    "inception_v3": (128, False),
    "resnet_v1_50": (64, False),
    "resnet_v1_101_os8": (64, False),
    "resnet_v2_50_os16": (64, True),
    "resnet_v2_152": (64, False),
}
# The nets TF 1.15 also writes a checkpoint for (small: under a megabyte together).
CHECKPOINTED = ("cifarnet_bn", "separable_net")


def images(name):
  """The fixed input of net `name`: [BATCH, size, size, 3] floats in [-1, 1]."""
  size = NETS[name][0]
  state = np.random.RandomState(SEED + size)
  return state.uniform(-1, 1, size=(BATCH, size, size, 3)).astype(np.float32)


def labels():
  return np.arange(BATCH, dtype=np.int32) % NUM_CLASSES


def variable_value(name, shape):
  """The value variable `name` (an op name) of `shape` starts from.

  Weights are drawn with a fan-in scale, so that the activations of a
  152-layer net neither vanish nor overflow; batch norm's statistics are away
  from 0 and 1, so that a changed epsilon or a forgotten moving average shows.
  """
  state = np.random.RandomState((zlib.crc32(name.encode("utf-8")) + SEED) % 2**32)
  leaf = name.rsplit("/", 1)[-1]
  if leaf in ("weights", "pointwise_weights", "depthwise_weights"):
    fan_in = np.prod(shape[:2] if leaf == "depthwise_weights" else shape[:-1])
    value = state.normal(0.0, np.sqrt(1.0 / fan_in), size=shape)
  elif leaf == "moving_variance":
    value = state.uniform(0.5, 1.5, size=shape)
  elif leaf == "gamma":
    value = 1.0 + 0.1 * state.normal(size=shape)
  else:  # biases, beta, moving_mean
    value = 0.1 * state.normal(size=shape)
  return value.astype(np.float32)


def digest_direction(name, shape):
  """A fixed random direction for variable `name`: a step's change is compared
  by its length and by its projection on this direction."""
  state = np.random.RandomState((zlib.crc32(name.encode("utf-8")) + SEED + 1) % 2**32)
  return state.normal(size=shape)


def step_digest(name, before, after):
  """[length, projection] of one variable's change in one training step."""
  change = after.astype(np.float64) - before.astype(np.float64)
  return [float(np.linalg.norm(change)),
          float(np.sum(change * digest_direction(name, change.shape)))]


def separable_net(tf, slim, inputs, num_classes, is_training, dropout_keep_prob=0.8,
                  batch_norm_epsilon=0.001, scope="SeparableNet"):
  """A MobileNet-style net: depthwise, separable and atrous convolutions.

  tf_slim 1.1.0 has no MobileNet; these are the layers its blocks are made of
  (research/slim's mobilenet_v1: a depthwise 3x3 + batch norm + relu6, then a
  pointwise 1x1 + batch norm + relu6), plus atrous ones as DeepLab uses them.
  """
  batch_norm_params = {"is_training": is_training, "decay": 0.9,
                       "epsilon": batch_norm_epsilon, "scale": True,
                       "updates_collections": tf.GraphKeys.UPDATE_OPS}
  with tf.variable_scope(scope, "SeparableNet", [inputs]):
    with slim.arg_scope([slim.conv2d, slim.separable_conv2d],
                        normalizer_fn=slim.batch_norm, normalizer_params=batch_norm_params,
                        activation_fn=tf.nn.relu6):
      net = slim.conv2d(inputs, 16, [3, 3], stride=2, scope="Conv2d_0")
      net = slim.separable_conv2d(net, None, [3, 3], depth_multiplier=1, scope="Conv2d_1_depthwise")
      net = slim.conv2d(net, 24, [1, 1], scope="Conv2d_1_pointwise")
      net = slim.separable_conv2d(net, 32, [3, 3], depth_multiplier=2, stride=2,
                                  scope="Conv2d_2_separable")
      net = slim.conv2d(net, 32, [3, 3], rate=2, scope="Conv2d_3_atrous")
      net = slim.separable_conv2d(net, None, [3, 3], depth_multiplier=1, rate=2,
                                  scope="Conv2d_4_atrous_depthwise")
      net = slim.avg_pool2d(net, [2, 2], stride=1, padding="SAME", scope="AvgPool_5")
      net = tf.reduce_mean(net, [1, 2], keepdims=True, name="GlobalPool")
      net = slim.dropout(net, keep_prob=dropout_keep_prob, is_training=is_training,
                         scope="Dropout_6")
      logits = slim.conv2d(net, num_classes, [1, 1], activation_fn=None, normalizer_fn=None,
                           scope="Conv2d_6_1x1")
  return tf.squeeze(logits, [1, 2], name="Logits")


def build(name, tf, slim, nets, example_nets, inputs, is_training, batch_norm_epsilon=None):
  """Builds net `name` on `inputs`; returns its logits [BATCH, NUM_CLASSES].

  Args:
    name: a key of NETS.
    tf: the v1 API (``tensorflow`` on 1.15, ``tensorflow.compat.v1`` on 2).
    slim: ``tf.contrib.slim`` or ``tf_slim``.
    nets: ``tf.contrib.slim.nets`` or ``tf_slim.nets``.
    example_nets: examples/slim_tf1's ``nets.nets_factory`` (as written on 1.15,
      ported on 2).
    inputs: the images, a float tensor.
    is_training: whether batch norm uses the batch's statistics (and dropout
      keeps everything: its random draws are not the same on two versions).
    batch_norm_epsilon: None for the net's own; otherwise the epsilon of its
      batch norms (the tests change it to show that the comparison would see it).
  """
  keep = {"dropout_keep_prob": 1.0} if is_training else {}
  epsilon = {} if batch_norm_epsilon is None else {"batch_norm_epsilon": batch_norm_epsilon}
  if name in ("lenet", "cifarnet_bn"):
    factory = example_nets
    arg_scope = factory.arg_scopes_map[name](weight_decay=0.0004, **epsilon)
    with slim.arg_scope(arg_scope):
      return factory.networks_map[name](inputs, NUM_CLASSES, is_training=is_training, **keep)[0]
  if name == "separable_net":
    return separable_net(tf, slim, inputs, NUM_CLASSES, is_training, **epsilon, **keep)
  if name == "alexnet_v2":
    with slim.arg_scope(nets.alexnet.alexnet_v2_arg_scope()):
      return nets.alexnet.alexnet_v2(inputs, NUM_CLASSES, is_training=is_training, **keep)[0]
  if name.startswith("inception"):
    # Only inception_v3's arg scope takes an epsilon (v1 and v2 raise a TypeError).
    with slim.arg_scope(getattr(nets.inception, name + "_arg_scope")(**epsilon)):
      kwargs = {} if name == "inception_v1" else {"depth_multiplier": 0.5}
      return getattr(nets.inception, name)(inputs, NUM_CLASSES, is_training=is_training,
                                           **kwargs, **keep)[0]
  net_name, _, stride = name.partition("_os")
  module = nets.resnet_v1 if net_name.startswith("resnet_v1") else nets.resnet_v2
  with slim.arg_scope(nets.resnet_utils.resnet_arg_scope(**epsilon)):
    logits = getattr(module, net_name)(inputs, NUM_CLASSES, is_training=is_training,
                                       output_stride=int(stride) if stride else None)[0]
  return tf.squeeze(logits, [1, 2])


def _load(tf, session, variables, checkpoint):
  """Gives `variables` their values: TF 1.15's checkpoint by name, or drawn."""
  if checkpoint:
    tf.train.Saver(variables).restore(session, checkpoint)
    return
  # One run for all (Variable.load runs once a variable: minutes for a big graph).
  feeds, assigns = {}, []
  for variable in variables:
    value = tf.placeholder(variable.dtype.base_dtype, variable.get_shape())
    feeds[value] = variable_value(variable.op.name, variable.get_shape().as_list())
    assigns.append(variable.assign(value))
  session.run(assigns, feeds)


def _net_variables(tf):
  return [v for v in tf.global_variables() if v.op.name != "global_step"]


def measure(tf, slim, nets, example_nets, name, checkpoint=None, batch_norm_epsilon=None,
            measure_noise=False, save_to=None):
  """What net `name` computes from its values: the record the fixture stores.

  Args:
    tf, slim, nets, example_nets: as for `build`.
    name: a key of NETS.
    checkpoint: restore the variables from this checkpoint (by name) instead of
      drawing them.
    batch_norm_epsilon: passed to `build`.
    measure_noise: also record the net's own float32 noise: how far its logits
      (and its training step) move when the input moves one float32 step up, or
      when the batch is given in the other order (which changes the order of
      every sum over the batch); the larger of the two.
    save_to: write the net's variables to this checkpoint path.

  Returns:
    {"variables": {op name: shape}, "logits": [[...]], "noise": float,
     "step": {"loss": float, "changes": {op name: step_digest},
              "noise": step_errors}} for the nets that train; the noises only
    with `measure_noise`.
  """
  inputs = images(name)
  record = {}
  with tf.Graph().as_default():
    placeholder = tf.placeholder(tf.float32, inputs.shape)
    logits = build(name, tf, slim, nets, example_nets, placeholder, is_training=False,
                   batch_norm_epsilon=batch_norm_epsilon)
    variables = _net_variables(tf)
    record["variables"] = {v.op.name: v.get_shape().as_list() for v in variables}
    with tf.Session() as session:
      _load(tf, session, variables, checkpoint)
      value = session.run(logits, {placeholder: inputs})
      record["logits"] = value.tolist()
      if measure_noise:
        moved = session.run(logits, {placeholder: _one_step_up(inputs)})
        reordered = session.run(logits, {placeholder: inputs[::-1]})[::-1]
        record["noise"] = max(relative_error(moved, value), relative_error(reordered, value))
      if save_to:
        tf.train.Saver(variables).save(session, save_to, write_meta_graph=False,
                                       write_state=False)
  if NETS[name][1]:
    def step(step_inputs, step_labels):
      return _train_step(tf, slim, nets, example_nets, name, step_inputs, step_labels,
                         checkpoint, batch_norm_epsilon)
    record["step"] = step(inputs, labels())
    if measure_noise:
      record["step"]["noise"] = np.max(
          [step_errors(step(_one_step_up(inputs), labels()), record["step"]),
           step_errors(step(inputs[::-1], labels()[::-1]), record["step"])], axis=0).tolist()
  return record


def _one_step_up(inputs):
  return np.nextafter(inputs, np.float32(2))


def _train_step(tf, slim, nets, example_nets, name, inputs, targets, checkpoint,
                batch_norm_epsilon):
  """One SGD step on `inputs` and `targets`: the loss and every variable's change."""
  with tf.Graph().as_default():
    logits = build(name, tf, slim, nets, example_nets, tf.constant(inputs),
                   is_training=True, batch_norm_epsilon=batch_norm_epsilon)
    tf.losses.sparse_softmax_cross_entropy(tf.constant(targets), logits)
    variables = _net_variables(tf)
    train_op = slim.learning.create_train_op(tf.losses.get_total_loss(),
                                             tf.train.GradientDescentOptimizer(0.05))
    with tf.Session() as session:
      session.run(tf.global_variables_initializer())
      _load(tf, session, variables, checkpoint)
      before = session.run(variables)
      loss = session.run(train_op)
      after = session.run(variables)
  return {"loss": float(loss),
          "changes": {v.op.name: step_digest(v.op.name, b, a)
                      for v, b, a in zip(variables, before, after)}}


def step_errors(actual, expected):
  """[the loss's relative difference, the largest difference of a variable's
  change digest relative to the largest change] between two `_train_step`s."""
  scale = max(length for length, _ in expected["changes"].values())
  changes = max(np.max(np.abs(np.subtract(digest, expected["changes"][name])))
                for name, digest in actual["changes"].items())
  return [abs(actual["loss"] - expected["loss"]) / abs(expected["loss"]), float(changes / scale)]


def relative_error(actual, expected):
  """The largest difference, relative to the largest magnitude expected."""
  expected = np.asarray(expected, np.float64)
  return float(np.max(np.abs(np.asarray(actual, np.float64) - expected))
               / np.max(np.abs(expected)))
