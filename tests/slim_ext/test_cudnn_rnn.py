"""slim_ext.contrib.cudnn_rnn's cuDNN layers, in a graph, against TF 1.14's own.

data/tf1_cudnn_rnn/expected.json holds what TF 1.14's ``tf.contrib.cudnn_rnn`` layers
put in a graph on a CPU (its make.py, run with Python 2.7 + TF 1.14): for each case
the variables, the layer's properties and canonical shapes, the static shapes of
what ``call`` returns, the cuDNN ops it adds (attributes, device), the ops
``tf.gradients`` reaches, the saveable registered in SAVEABLE_OBJECTS and every name a
``tf.train.Saver`` writes; also the errors misuses raise and the format converters'
reshuffling of fixed weights. Each case is rebuilt here with slim_ext on this
TensorFlow, in ``tf.Graph().as_default()``, and compared whole. No cuDNN kernel runs
(none exists on a CPU): the graphs are built, as magenta's tests build them.
"""
import importlib.util
import json
import re
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow

FIXTURE = Path(__file__).parent / "data" / "tf1_cudnn_rnn"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())
# make.py's recorder (Python 2.7 and 3 alike): both sides record a graph the same way.
_SPEC = importlib.util.spec_from_file_location("tf1_cudnn_rnn_recording",
                                               FIXTURE / "recording.py")
recording = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(recording)
# Attributes TF 2 added to an op TF 1.14 had, with the value that means TF 1.14's op.
NEW_ATTRS = {"CudnnRNNV3": {"num_proj": 0}}
# Ops TF 2 emits for the same Python: ``a + b`` is AddV2 (TF 1.14: Add, the same sum).
RENAMED_OPS = {"AddV2": "Add"}


@pytest.fixture(scope="module")
def cudnn_rnn(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib import cudnn_rnn as module  # pylint: disable=g-import-not-at-top
  return module


def _record(tf, cudnn_rnn, case):
  """Builds ``case`` with slim_ext in a graph of its own and records it as make.py does."""
  return recording.record_case(tf, cudnn_rnn, case, RENAMED_OPS, NEW_ATTRS)


@pytest.mark.parametrize("case", EXPECTED["cases"], ids=lambda case: case["case"])
def test_each_layer_builds_tf_1_14s_graph(tf, cudnn_rnn, case):
  assert _record(tf, cudnn_rnn, case) == case["expected"]


def _differences(record, expected):
  return sorted(key for key in expected if record.get(key) != expected[key])


def test_the_comparison_catches_a_wrong_variable_name(tf, cudnn_rnn, monkeypatch):
  # Before/after: the same case with the opaque variable misnamed fails in every
  # place the name shows.
  case = EXPECTED["cases"][0]
  assert _differences(_record(tf, cudnn_rnn, case), case["expected"]) == []
  real = tf.get_variable
  monkeypatch.setattr(tf, "get_variable",
                      lambda name, *a, **k: real("opaque_params" if name == "opaque_kernel"
                                                 else name, *a, **k))
  assert _differences(_record(tf, cudnn_rnn, case), case["expected"]) == [
      "kernel", "layer_trainable_weights", "saveables", "saver_names",
      "trainable_variables", "variables"]


def test_the_comparison_catches_a_missing_state_or_another_op(tf, cudnn_rnn, monkeypatch):
  case = EXPECTED["cases"][0]
  call = cudnn_rnn.CudnnLSTM.call

  def call_without_c(self, *args, **kwargs):
    outputs, states = call(self, *args, **kwargs)
    return outputs, states[:1]

  monkeypatch.setattr(cudnn_rnn.CudnnLSTM, "call", call_without_c)
  assert _differences(_record(tf, cudnn_rnn, case), case["expected"]) == ["states"]
  monkeypatch.undo()
  # CudnnRNNV2 instead of CudnnRNN: the ops and the gradients' ops differ.
  monkeypatch.setenv("TF_CUDNN_RNN_USE_V2", "1")
  assert _differences(_record(tf, cudnn_rnn, case), case["expected"]) == [
      "cudnn_ops", "gradients", "state_gradients"]


def test_the_comparison_catches_a_wrong_canonical_name(tf, cudnn_rnn, monkeypatch):
  case = EXPECTED["cases"][0]
  monkeypatch.setattr(cudnn_rnn.CudnnLSTMSaveable, "_rnn_cell_name", "lstm_cell")
  assert _differences(_record(tf, cudnn_rnn, case), case["expected"]) == [
      "saveables", "saver_names"]


def _message(error):
  """make.py's form of an error's message: a layer's call runs through autograph,
  which wraps the message in its report (the last line is the layer's own), and a
  tensor in it is named by the graph it was built in."""
  message = str(error).strip().splitlines()[-1].strip()
  message = message[len(type(error).__name__) + 2:] if message.startswith(
      type(error).__name__ + ": ") else message
  return re.sub(r"<tf\.Tensor [^>]*>", "<tensor>", message)


@pytest.mark.parametrize("name", sorted(EXPECTED["misuses"]))
def test_misuses_raise_what_tf_1_14_raised(tf, cudnn_rnn, name):
  misuses = {
      "bad_direction": lambda: cudnn_rnn.CudnnLSTM(1, 4, direction="sideways"),
      "bad_input_mode": lambda: cudnn_rnn.CudnnGRU(1, 4, input_mode="no_input"),
      "bad_dtype": lambda: cudnn_rnn.CudnnRNNTanh(1, 4, dtype=tf.int32),
      "build_2d": lambda: cudnn_rnn.CudnnLSTM(1, 4).build([3, 6]),
      "build_unknown_depth": lambda: cudnn_rnn.CudnnLSTM(1, 4).build([5, 3, None]),
      "state_not_tuple": lambda: cudnn_rnn.CudnnGRU(1, 4)(
          tf.zeros([5, 3, 6]), initial_state=[tf.zeros([1, 3, 4])]),
      "input_size_unbuilt": lambda: cudnn_rnn.CudnnLSTM(1, 4).input_size,
      "weight_shapes_unbuilt": lambda: cudnn_rnn.CudnnLSTM(1, 4).canonical_weight_shapes,
  }
  expected = EXPECTED["misuses"][name]
  with tf.Graph().as_default():
    with pytest.raises(Exception) as raised:  # noqa: B017  (the type is compared below)
      misuses[name]()
  assert type(raised.value).__name__ == expected["type"]
  assert _message(raised.value) == re.sub(r"<tf\.Tensor [^>]*>", "<tensor>",
                                          expected["message"])


@pytest.mark.parametrize("conversion", EXPECTED["conversions"],
                         ids=lambda c: f"{c['converter']}-{c['direction']}")
def test_converters_reshuffle_weights_as_tf_1_14s(tf, cudnn_rnn, conversion):
  converter = conversion.get("converter_cls", getattr(cudnn_rnn, conversion["converter"]))(
      conversion["num_layers"], conversion["num_units"], conversion["input_size"],
      direction=conversion["direction"])
  cu_values = [np.asarray(v, np.float32) for v in conversion["cu_canonical"]]
  count = conversion["cu_weight_count"]
  with tf.Graph().as_default():
    tf_weights, tf_biases = converter._cu_canonical_to_tf_canonical(  # pylint: disable=protected-access
        [tf.constant(v) for v in cu_values[:count]], [tf.constant(v) for v in cu_values[count:]])
    back_weights, back_biases = converter._tf_canonical_to_cu_canonical(  # pylint: disable=protected-access
        [tf.constant(np.asarray(v, np.float32)) for v in conversion["tf_canonical"]])
    with tf.Session() as session:
      tf_values, back = session.run([tf_weights + tf_biases, back_weights + back_biases])
  assert len(tf_weights) == conversion["tf_weight_count"]
  assert [v.shape for v in tf_values] == [np.shape(v) for v in conversion["tf_canonical"]]
  for got, want in zip(tf_values + back,
                       conversion["tf_canonical"] + conversion["back_to_cu_canonical"]):
    np.testing.assert_array_equal(got, np.asarray(want, np.float32))


def test_the_comparison_catches_a_wrong_gate_order(tf, cudnn_rnn, monkeypatch):
  conversion = EXPECTED["conversions"][0]
  assert conversion["converter"] == "CudnnParamsFormatConverterLSTM"
  test_converters_reshuffle_weights_as_tf_1_14s(tf, cudnn_rnn, conversion)
  monkeypatch.setattr(cudnn_rnn.CudnnParamsFormatConverterLSTM, "_cudnn_to_tf_gate_params",
                      lambda self, *gates: list(gates))
  with pytest.raises(AssertionError):
    test_converters_reshuffle_weights_as_tf_1_14s(tf, cudnn_rnn, conversion)


def _subclasses(tf, cudnn_rnn):
  """make.py's subclasses (magenta 1.1.7's music_vae/lstm_utils.py's), on slim_ext."""
  class ShiftedConverter(cudnn_rnn.CudnnParamsFormatConverterLSTM):

    def _cudnn_to_tf_biases(self, *cu_biases):
      (bias,) = super()._cudnn_to_tf_biases(*cu_biases)
      i, c, f, o = tf.split(bias, 4)
      return (tf.concat([i, c, f - 1.0, o], axis=0),)

    def _tf_to_cudnn_biases(self, *tf_biases):
      i, c, f, o = tf.split(tf_biases[0], 4)
      return super()._tf_to_cudnn_biases(tf.concat([i, c, f + 1.0, o], axis=0))

  class RenamedSaveable(cudnn_rnn.CudnnLSTMSaveable):
    _format_converter_cls = ShiftedConverter

    def _tf_canonical_name_prefix(self, layer, is_fwd=True):
      if self._direction == "unidirectional":
        return f"multi_rnn_cell/cell_{layer}/lstm_cell"
      return (f"cell_{layer}/bidirectional_rnn/{'fw' if is_fwd else 'bw'}/"
              "multi_rnn_cell/cell_0/lstm_cell")

  return ShiftedConverter, RenamedSaveable


def test_subclasses_overriding_tf_1_14s_hooks_take_effect(tf, cudnn_rnn):
  # TF1 code overrides the converters' and saveables' private hooks (magenta's
  # music_vae does, for its older checkpoints): the overrides must be called, or the
  # checkpoint would be written in another format without a word.
  expected = EXPECTED["subclassed"]
  converter_cls, saveable_cls = _subclasses(tf, cudnn_rnn)
  test_converters_reshuffle_weights_as_tf_1_14s(tf, cudnn_rnn, dict(
      expected["conversion"], converter_cls=converter_cls))
  for direction in ("unidirectional", "bidirectional"):
    with tf.Graph().as_default():
      layer = cudnn_rnn.CudnnLSTM(2, 3, direction=direction, name="rnn")
      layer._saveable_cls = saveable_cls  # pylint: disable=protected-access
      layer(tf.zeros([4, 2, 5]))
      assert [spec.name for spec in layer.saveable.specs] == expected[direction]


def test_saveable_classes_and_constants_are_tf_1_14s(cudnn_rnn):
  from slim_ext.contrib import cudnn_rnn_ops  # pylint: disable=g-import-not-at-top
  for name, expected in EXPECTED["saveable_classes"].items():
    saveable = getattr(cudnn_rnn, name)
    assert saveable._format_converter_cls.__name__ == expected["converter"]  # pylint: disable=protected-access
    assert saveable._rnn_cell_name == expected["cell_name"]  # pylint: disable=protected-access
  assert {mode: cudnn_rnn_ops.num_params(mode, 1, "unidirectional")
          for mode in EXPECTED["params_per_layer"]} == EXPECTED["params_per_layer"]


def _cell_variables(tf, build):
  with tf.Graph().as_default():
    build()
    return {v.op.name: v.shape.as_list() for v in tf.global_variables()}


@pytest.mark.parametrize("layer, direction", [
    ("CudnnLSTM", "unidirectional"), ("CudnnLSTM", "bidirectional"),
    ("CudnnGRU", "unidirectional"), ("CudnnGRU", "bidirectional"),
    ("CudnnRNNTanh", "unidirectional"), ("CudnnRNNRelu", "bidirectional")])
def test_saved_names_are_the_compatible_cells_variables(tf, cudnn_rnn, layer, direction):
  # What the Saver writes for a cuDNN layer is what the platform-independent cells,
  # built as TF 1.14's docstring said (in the layer's scope), restore by name: the
  # same names and the shapes the converter produces.
  from slim_ext.contrib import rnn  # pylint: disable=g-import-not-at-top
  num_layers, num_units, depth = 2, 3, 5
  with tf.Graph().as_default():
    cudnn = getattr(cudnn_rnn, layer)(num_layers, num_units, direction=direction)
    cudnn(tf.zeros([4, 2, depth]))
    specs = cudnn.saveable.specs
    converter = cudnn.saveable.format_converter
    canonical = [tf.zeros(s) for s in cudnn.canonical_weight_shapes]
    canonical += [tf.zeros(s) for s in cudnn.canonical_bias_shapes]
    count = len(cudnn.canonical_weight_shapes)
    weights, biases = converter._cu_canonical_to_tf_canonical(  # pylint: disable=protected-access
        canonical[:count], canonical[count:])
    saved = {spec.name: t.shape.as_list() for spec, t in zip(specs, weights + biases)}

  def cell():
    if layer == "CudnnLSTM":
      return cudnn_rnn.CudnnCompatibleLSTMCell(num_units)
    if layer == "CudnnGRU":
      return cudnn_rnn.CudnnCompatibleGRUCell(num_units)
    return tf.nn.rnn_cell.BasicRNNCell(num_units, activation=(
        tf.nn.relu if layer == "CudnnRNNRelu" else tf.tanh))

  def build():
    inputs = tf.zeros([4, 2, depth])
    # The layer's scope (its name may have been made unique apart from it).
    with tf.variable_scope(cudnn.kernel.op.name.rpartition("/")[0]):
      if direction == "unidirectional":
        multi = tf.nn.rnn_cell.MultiRNNCell([cell() for _ in range(num_layers)])
        tf.nn.dynamic_rnn(multi, inputs, dtype=tf.float32, time_major=True)
      else:
        rnn.stack_bidirectional_dynamic_rnn(
            [cell() for _ in range(num_layers)], [cell() for _ in range(num_layers)],
            inputs, dtype=tf.float32, time_major=True)

  assert _cell_variables(tf, build) == saved


@pytest.fixture
def lstm_graph(tf, cudnn_rnn):
  graph = tf.Graph()
  with graph.as_default():
    inputs = tf.placeholder(tf.float32, [6, 2, 3])
    layer = cudnn_rnn.CudnnLSTM(num_layers=2, num_units=4, dropout=0.5)
    outputs, (h, c) = layer(inputs)
    yield graph, layer, outputs, (h, c)


def test_an_optimizer_trains_the_opaque_variable(tf, lstm_graph):
  # magenta's train graph: minimize over the layer's output (Adam's slots take the
  # opaque variable's unknown shape from its value).
  graph, layer, outputs, _ = lstm_graph
  with graph.as_default():
    step = tf.train.AdamOptimizer(0.01).minimize(tf.reduce_sum(outputs))
    apply = [op for op in graph.get_operations() if op.type.endswith("ApplyAdam")]
  assert step.type == "NoOp" and len(apply) == 1
  assert "CudnnRNNBackprop" in {op.type for op in graph.get_operations()}
  variables = graph.get_collection(tf.GraphKeys.GLOBAL_VARIABLES)
  assert {v.op.name for v in variables if "opaque_kernel" in v.op.name} == {
      "cudnn_lstm/opaque_kernel", "cudnn_lstm/opaque_kernel/Adam",
      "cudnn_lstm/opaque_kernel/Adam_1"}
  assert layer.kernel.shape.rank is None


def test_restoring_packs_the_canonical_tensors_into_the_buffer(tf, lstm_graph):
  graph, layer, _, _ = lstm_graph
  with graph.as_default():
    saver = tf.train.Saver()
    restore = graph.get_operation_by_name(saver.saver_def.restore_op_name)
  # The restore op assigns the opaque buffer from CudnnRNNCanonicalToParams fed by
  # the four canonical tensors read (two layers: kernel and bias each).
  pack = [op for op in graph.get_operations()
          if op.type == "CudnnRNNCanonicalToParams" and op.name.startswith("save/")]
  assert len(pack) == 1 and pack[0].device == "/device:GPU:0"
  assert pack[0].get_attr("num_params") == 16
  assert restore.type == "NoOp"
  assert layer.saveable.format_converter.__class__.__name__ == "CudnnParamsFormatConverterLSTM"


def test_saving_without_a_gpu_fails_naming_the_cudnn_op(tf, lstm_graph, tmp_path):
  # As in TF 1.x: the conversion to canonical weights has a GPU kernel only. What
  # must not happen is a checkpoint written in another format.
  if tf.config.list_physical_devices("GPU"):
    pytest.skip("a GPU is present: the cuDNN conversion runs there and the save succeeds, "
                "so the CPU-only failure this test checks cannot happen")
  graph, _, _, _ = lstm_graph
  with graph.as_default():
    saver = tf.train.Saver()
    with tf.Session() as session:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match=r"(?s)No OpKernel was registered to support Op 'CudnnRNN\w*'"
                               r".*device='GPU'"):
        saver.save(session, str(tmp_path / "model.ckpt"))
  assert not list(tmp_path.iterdir())


def test_object_based_saving_raises_naming_the_alternatives(tf, lstm_graph):
  # Gathering the layer's own saveables (a Saver given the layer object, or
  # tf.train.Checkpoint, which on a CPU first fails running its save counter in the
  # graph) refuses rather than write the opaque buffer alone.
  graph, layer, _, _ = lstm_graph
  with graph.as_default():
    with pytest.raises(NotImplementedError, match=r"tf\.compat\.v1\.train\.Saver.*"
                                                  r"CudnnCompatibleLSTMCell"):
      tf.train.Saver([layer])


def test_a_second_call_reuses_the_variable_and_the_saveable(tf, cudnn_rnn):
  with tf.Graph().as_default():
    layer = cudnn_rnn.CudnnGRU(1, 4)
    layer(tf.zeros([3, 2, 5]))
    second, (h,) = layer(tf.zeros([7, 2, 5]))
    assert len(tf.global_variables()) == 1
    assert tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS) == [layer.saveable]
    assert second.shape.as_list() == [7, 2, 4] and h.shape.as_list() == [1, 2, 4]
