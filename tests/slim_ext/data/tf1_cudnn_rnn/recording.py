"""What a case's graph holds, recorded the same way on TF 1.14 (make.py, Python 2.7) and
on TensorFlow 2 (tests/slim_ext/test_cudnn_rnn.py): one recorder, given the ``tf`` and the
``cudnn_rnn`` module to build with, so that the two sides can differ only in what they
build.

TF 2 names a few things of the same graph otherwise, given here as ``renamed_ops`` (``a +
b`` is AddV2, TF 1.14's Add) and ``new_attrs`` (attributes TF 2 added to an op TF 1.14
had, with the value that means TF 1.14's op): make.py passes none.
"""
import numbers


def shape(tf, static):
  """A static shape as JSON: None for an unknown rank, None for unknown dimensions."""
  static = tf.TensorShape(static)
  return None if static.ndims is None else static.as_list()


def tensor(tf, value):
  # A variable's base dtype: TF 1.14's are reference variables (float32_ref), TF 2's
  # resource variables; the dtype is the fact checked.
  return {"shape": shape(tf, value.shape), "dtype": value.dtype.base_dtype.name}


def attrs(tf, op, new_attrs):
  """An op's attributes, the plain ones (strings, numbers, booleans, dtypes)."""
  out = {}
  for name in sorted(op.node_def.attr):
    value = op.get_attr(str(name))
    if isinstance(value, bytes):
      value = value.decode()
    elif isinstance(value, tf.DType):
      value = value.name
    elif not isinstance(value, numbers.Number):
      continue
    out[str(name)] = value
  for name, value in sorted(new_attrs.get(op.type, {}).items()):
    assert out.pop(name) == value, (op.type, name)
  return out


def gradients(tf, ys, xs):
  """The op types of tf.gradients(ys, xs), or the error it raised."""
  try:
    return [None if g is None else g.op.type for g in tf.gradients(ys, xs)]
  except ValueError as error:
    return {"error": type(error).__name__, "message": str(error)}


def record_case(tf, cudnn_rnn, case, renamed_ops=None, new_attrs=None):
  """Builds ``case`` with ``cudnn_rnn`` in a graph of its own; what the graph holds."""
  renamed_ops, new_attrs = renamed_ops or {}, new_attrs or {}
  kwargs = dict(case["kwargs"])
  dtype = tf.as_dtype(kwargs.pop("dtype", "float32"))
  if dtype != tf.float32:
    kwargs["dtype"] = dtype
  graph = tf.Graph()
  with graph.as_default():
    inputs = tf.placeholder(dtype, case["input_shape"], name="inputs")
    layer = getattr(cudnn_rnn, case["layer"])(**kwargs)
    time_major = case.get("time_major", True)
    batch = case["input_shape"][1 if time_major else 0]
    call_kwargs = {"training": case.get("training", True)}
    if not time_major:
      call_kwargs["time_major"] = False
    if case.get("lengths"):
      call_kwargs["sequence_lengths"] = tf.constant(case["lengths"], tf.int32)
    if case.get("prebuild"):
      layer.build(case["input_shape"])
    states_in = None
    if case.get("state"):
      states_in = tuple(tf.placeholder(dtype, s, name="state_%d" % i)
                        for i, s in enumerate(layer.state_shape(batch)))
      call_kwargs["initial_state"] = states_in
    ops_before = len(graph.get_operations())
    # (No contextlib.nullcontext on Python 2.7.)
    scope = tf.variable_scope(case["scope"]) if case.get("scope") else None
    if scope is not None:
      scope.__enter__()
    results = [layer(inputs, **call_kwargs) for _ in range(case.get("calls", 1))]
    if scope is not None:
      scope.__exit__(None, None, None)
    new_ops = graph.get_operations()[ops_before:]
    outputs, states = results[-1]
    record = {
        "variables": [dict(tensor(tf, v), name=v.name) for v in tf.global_variables()],
        "trainable_variables": [v.name for v in tf.trainable_variables()],
        "layer_trainable_weights": [v.name for v in layer.trainable_weights],
        "kernel": layer.kernel.name,
        "properties": {
            "num_layers": layer.num_layers, "num_units": layer.num_units,
            "input_mode": layer.input_mode, "direction": layer.direction,
            "num_dirs": layer.num_dirs, "rnn_mode": layer.rnn_mode,
            "input_size": layer.input_size, "dtype": layer.dtype,
            "state_shape": [list(s) for s in layer.state_shape(batch)],
            "canonical_weight_shapes": [list(s) for s in layer.canonical_weight_shapes],
            "canonical_bias_shapes": [list(s) for s in layer.canonical_bias_shapes],
        },
        "outputs": tensor(tf, outputs),
        "states_type": type(states).__name__,
        "states": [tensor(tf, s) for s in states],
        "cudnn_ops": [{"type": op.type, "attrs": attrs(tf, op, new_attrs),
                       "device": op.device,
                       "inputs": [tensor(tf, t) for t in op.inputs],
                       "outputs": [tensor(tf, t) for t in op.outputs]}
                      for op in new_ops if op.type.startswith("Cudnn")],
    }
    xs = [inputs, layer.kernel] + list(states_in or ())
    record["gradients"] = gradients(tf, outputs, xs)
    record["state_gradients"] = gradients(tf, states[0], xs)
    record["saveables"] = [
        {"class": type(s).__name__, "name": s.name, "is_layer_saveable": s is layer.saveable,
         "op": s.op.op.type,
         "specs": [dict(tensor(tf, spec.tensor), name=spec.name, slice_spec=spec.slice_spec)
                   for spec in s.specs],
         "spec_op_types": sorted(set(renamed_ops.get(spec.tensor.op.type, spec.tensor.op.type)
                                     for spec in s.specs))}
        for s in tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)]
    from tensorflow.python.framework import tensor_util  # pylint: disable=g-import-not-at-top
    tf.train.Saver()
    save_op = [op for op in graph.get_operations() if op.type == "SaveV2"][0]
    record["saver_names"] = sorted(
        n.decode() for n in tensor_util.constant_value(save_op.inputs[1]).tolist())
  return record
