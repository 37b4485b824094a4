"""Writes expected.json: what TF 1.14's tf.contrib.cudnn_rnn layers put in a graph.

Run with Python 2.7 + TensorFlow 1.14 on a CPU (tools/tf1_env.py makes one):
    ~/.cache/slimport/py27-tf114/bin/python make.py
tests/slim_ext/test_cudnn_rnn.py builds the same CASES with slim_ext.contrib.cudnn_rnn
on TensorFlow 2 and compares.

Building a cuDNN layer needs no cuDNN kernel, running it does: nothing of a layer's
graph is run here (TF 1.14 could not on a CPU either). What is recorded is what the
graph holds: the variables, the layer's properties and canonical shapes, the static
shapes of what ``call`` returns, the cuDNN ops it adds (type, attributes, device), the
op types ``tf.gradients`` reaches, the saveable TF 1.14 registered in SAVEABLE_OBJECTS
and the names a ``tf.train.Saver`` of the graph would write. The format converters'
reshuffling between TF's canonical weights (CudnnCompatible*Cell's) and cuDNN's
canonical ones is plain array ops, so that is run, on fixed numbers: CONVERSIONS; and
again through a converter and a saveable subclassed by their private hooks, as TF1
code did (subclasses()).
"""
import json
import os

import numpy as np
import tensorflow as tf
from tensorflow.contrib.cudnn_rnn.python.ops import cudnn_rnn_ops

import recording  # this folder's: the recorder the test runs too

cudnn_rnn = tf.contrib.cudnn_rnn

# Each case builds one layer on a placeholder of a fixed shape. "state": pass an
# initial state (placeholders of state_shape); "lengths": pass sequence_lengths;
# "scope": an enclosing variable scope; "calls": call the layer that many times;
# "prebuild": call build() first, outside the layer's scope.
CASES = [
    {"case": "lstm_uni", "layer": "CudnnLSTM", "kwargs": {"num_layers": 2, "num_units": 4},
     "input_shape": [5, 3, 6]},
    {"case": "lstm_bi_state", "layer": "CudnnLSTM",
     "kwargs": {"num_layers": 2, "num_units": 4, "direction": "bidirectional"},
     "input_shape": [5, 3, 6], "state": True},
    {"case": "lstm_named_in_scope_twice", "layer": "CudnnLSTM",
     "kwargs": {"num_layers": 1, "num_units": 3, "name": "enc", "dropout": 0.25, "seed": 7},
     "input_shape": [4, 2, 3], "scope": "model", "calls": 2, "training": False},
    {"case": "lstm_batch_major", "layer": "CudnnLSTM", "kwargs": {"num_layers": 1, "num_units": 4},
     "input_shape": [3, 5, 6], "time_major": False},
    {"case": "gru_uni", "layer": "CudnnGRU", "kwargs": {"num_layers": 2, "num_units": 4},
     "input_shape": [5, 3, 6]},
    {"case": "gru_bi_lengths", "layer": "CudnnGRU",
     "kwargs": {"num_layers": 1, "num_units": 4, "direction": "bidirectional"},
     "input_shape": [5, 3, 6], "lengths": [5, 2, 4]},
    {"case": "gru_lengths_batch_major", "layer": "CudnnGRU",
     "kwargs": {"num_layers": 1, "num_units": 4}, "input_shape": [3, 5, 6], "lengths": [5, 2, 4],
     "time_major": False, "state": True},
    {"case": "tanh_uni_prebuilt", "layer": "CudnnRNNTanh",
     "kwargs": {"num_layers": 2, "num_units": 4}, "input_shape": [5, 3, 6], "prebuild": True},
    {"case": "tanh_bi_skip_input", "layer": "CudnnRNNTanh",
     "kwargs": {"num_layers": 2, "num_units": 4, "direction": "bidirectional",
                "input_mode": "skip_input"},
     "input_shape": [5, 3, 4]},
    {"case": "relu_uni_state_float64", "layer": "CudnnRNNRelu",
     "kwargs": {"num_layers": 1, "num_units": 4, "dtype": "float64"},
     "input_shape": [5, 3, 6], "state": True},
    {"case": "relu_bi", "layer": "CudnnRNNRelu",
     "kwargs": {"num_layers": 3, "num_units": 2, "direction": "bidirectional",
                "input_mode": "auto_select"},
     "input_shape": [5, 3, 6]},
]

# Errors the layer raised, by how it was misused (the message is what TF 1.14 said).
MISUSES = [
    ("bad_direction", lambda: cudnn_rnn.CudnnLSTM(1, 4, direction="sideways")),
    ("bad_input_mode", lambda: cudnn_rnn.CudnnGRU(1, 4, input_mode="no_input")),
    ("bad_dtype", lambda: cudnn_rnn.CudnnRNNTanh(1, 4, dtype=tf.int32)),
    ("build_2d", lambda: cudnn_rnn.CudnnLSTM(1, 4).build([3, 6])),
    ("build_unknown_depth", lambda: cudnn_rnn.CudnnLSTM(1, 4).build([5, 3, None])),
    ("state_not_tuple", lambda: cudnn_rnn.CudnnGRU(1, 4)(
        tf.zeros([5, 3, 6]), initial_state=[tf.zeros([1, 3, 4])])),
    ("input_size_unbuilt", lambda: cudnn_rnn.CudnnLSTM(1, 4).input_size),
    ("weight_shapes_unbuilt", lambda: cudnn_rnn.CudnnLSTM(1, 4).canonical_weight_shapes),
]

# Format converters: (class, num_layers, num_units, input_size, direction).
CONVERSIONS = [
    ("CudnnParamsFormatConverterLSTM", 2, 3, 4, "unidirectional"),
    ("CudnnParamsFormatConverterLSTM", 2, 2, 3, "bidirectional"),
    ("CudnnParamsFormatConverterGRU", 2, 3, 4, "unidirectional"),
    ("CudnnParamsFormatConverterGRU", 1, 2, 3, "bidirectional"),
    ("CudnnParamsFormatConverterTanh", 2, 3, 2, "unidirectional"),
    ("CudnnParamsFormatConverterRelu", 2, 2, 3, "bidirectional"),
]


def build_case(case):
  return recording.record_case(tf, cudnn_rnn, case)


def misuse_errors():
  out = {}
  for name, misuse in MISUSES:
    with tf.Graph().as_default():
      try:
        misuse()
      except Exception as error:  # pylint: disable=broad-except
        # A layer's call runs through autograph, which wraps the message in its
        # "in converted code" report: the last line is the layer's own.
        message = str(error).strip().splitlines()[-1].strip()
        prefix = type(error).__name__ + ": "
        if message.startswith(prefix):
          message = message[len(prefix):]
        out[name] = {"type": type(error).__name__, "message": message}
      else:
        out[name] = None
  return out


def conversion(name, num_layers, num_units, input_size, direction, converter_cls=None):
  """Fixed cuDNN-canonical params (distinct input and recurrent biases) through the
  converter to TF's canonical ones, and those back."""
  # The layer's shapes, from a graph of its own: a session of a graph that holds a
  # cuDNN op cannot run anything on a CPU (no kernel to place it on).
  with tf.Graph().as_default():
    layer = {"CudnnParamsFormatConverterLSTM": cudnn_rnn.CudnnLSTM,
             "CudnnParamsFormatConverterGRU": cudnn_rnn.CudnnGRU,
             "CudnnParamsFormatConverterTanh": cudnn_rnn.CudnnRNNTanh,
             "CudnnParamsFormatConverterRelu": cudnn_rnn.CudnnRNNRelu}[name](
                 num_layers, num_units, direction=direction)
    layer.build([1, 1, input_size])
    cu_shapes = layer.canonical_weight_shapes, layer.canonical_bias_shapes
  cu_values = [np.arange(np.prod(s), dtype=np.float32).reshape(s) * 0.5 + 100 * i
               for i, s in enumerate(cu_shapes[0] + cu_shapes[1])]
  with tf.Graph().as_default():
    converter = (converter_cls or getattr(cudnn_rnn, name))(
        num_layers, num_units, input_size, direction=direction)
    n_weights = len(cu_shapes[0])
    tf_weights, tf_biases = converter._cu_canonical_to_tf_canonical(  # pylint: disable=protected-access
        [tf.constant(v) for v in cu_values[:n_weights]],
        [tf.constant(v) for v in cu_values[n_weights:]])
    with tf.Session() as session:
      tf_values = session.run(tf_weights + tf_biases)
    back_w, back_b = converter._tf_canonical_to_cu_canonical(  # pylint: disable=protected-access
        [tf.constant(v) for v in tf_values])
    with tf.Session() as session:
      back = session.run(list(back_w) + list(back_b))
  return {"converter": name, "num_layers": num_layers, "num_units": num_units,
          "input_size": input_size, "direction": direction,
          "cu_canonical": [v.tolist() for v in cu_values], "cu_weight_count": n_weights,
          "tf_canonical": [v.tolist() for v in tf_values],
          "tf_weight_count": len(tf_weights),
          "back_to_cu_canonical": [v.tolist() for v in back]}


def subclasses():
  """A converter and a saveable subclassed through TF 1.14's private hooks, as TF1 code
  did (magenta 1.1.7's music_vae/lstm_utils.py: its checkpoints' LSTM cells added 1 to
  the forget bias, and had other names)."""
  class ShiftedConverter(cudnn_rnn.CudnnParamsFormatConverterLSTM):

    def _cudnn_to_tf_biases(self, *cu_biases):
      (bias,) = super(ShiftedConverter, self)._cudnn_to_tf_biases(*cu_biases)
      i, c, f, o = tf.split(bias, 4)
      return (tf.concat([i, c, f - 1.0, o], axis=0),)

    def _tf_to_cudnn_biases(self, *tf_biases):
      i, c, f, o = tf.split(tf_biases[0], 4)
      return super(ShiftedConverter, self)._tf_to_cudnn_biases(
          tf.concat([i, c, f + 1.0, o], axis=0))

  class RenamedSaveable(cudnn_rnn.CudnnLSTMSaveable):
    _format_converter_cls = ShiftedConverter

    def _tf_canonical_name_prefix(self, layer, is_fwd=True):
      if self._direction == "unidirectional":
        return "multi_rnn_cell/cell_%d/lstm_cell" % layer
      return "cell_%d/bidirectional_rnn/%s/multi_rnn_cell/cell_0/lstm_cell" % (
          layer, "fw" if is_fwd else "bw")

  return ShiftedConverter, RenamedSaveable


def subclassed():
  converter_cls, saveable_cls = subclasses()
  out = {"conversion": conversion("CudnnParamsFormatConverterLSTM", 2, 3, 4,
                                  "unidirectional", converter_cls)}
  for direction in ("unidirectional", "bidirectional"):
    with tf.Graph().as_default():
      layer = cudnn_rnn.CudnnLSTM(2, 3, direction=direction, name="rnn")
      layer._saveable_cls = saveable_cls  # pylint: disable=protected-access
      layer(tf.zeros([4, 2, 5]))
      out[direction] = [spec.name for spec in layer.saveable.specs]
  return out


def main():
  expected = {"tensorflow": tf.VERSION, "cases": [], "misuses": misuse_errors(),
              "conversions": [conversion(*c) for c in CONVERSIONS],
              "saveable_classes": {
                  name: {"converter": getattr(cudnn_rnn, name)._format_converter_cls.__name__,  # pylint: disable=protected-access
                         "cell_name": getattr(cudnn_rnn, name)._rnn_cell_name}  # pylint: disable=protected-access
                  for name in ("CudnnLSTMSaveable", "CudnnGRUSaveable",
                               "CudnnRNNTanhSaveable", "CudnnRNNReluSaveable")},
              "params_per_layer": {
                  "lstm": cudnn_rnn_ops.CUDNN_LSTM_PARAMS_PER_LAYER,
                  "gru": cudnn_rnn_ops.CUDNN_GRU_PARAMS_PER_LAYER,
                  "rnn_tanh": cudnn_rnn_ops.CUDNN_RNN_TANH_PARAMS_PER_LAYER,
                  "rnn_relu": cudnn_rnn_ops.CUDNN_RNN_RELU_PARAMS_PER_LAYER}}
  expected["subclassed"] = subclassed()
  for case in CASES:
    expected["cases"].append(dict(case, expected=build_case(case)))
  with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected.json"),
            "w") as out:
    json.dump(expected, out, indent=1, sort_keys=True)


if __name__ == "__main__":
  main()
