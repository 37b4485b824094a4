"""slim_ext.contrib.quantize.graph_matcher on real TensorFlow graphs."""
import pytest

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def gm(tf):  # pylint: disable=unused-argument
  from slim_ext.contrib.quantize import graph_matcher  # pylint: disable=g-import-not-at-top
  return graph_matcher


@pytest.fixture()
def conv_graph(tf):
  """conv -> bias -> relu twice, plus a split feeding an add, in one graph."""
  graph = tf.Graph()
  with graph.as_default():
    images = tf.placeholder(tf.float32, [1, 4, 4, 2], name="images")
    net = images
    for index in range(2):
      kernel = tf.constant(1.0, shape=[1, 1, 2, 2], name=f"kernel{index}")
      net = tf.nn.conv2d(net, kernel, [1, 1, 1, 1], "SAME", name=f"conv{index}")
      net = tf.nn.bias_add(net, tf.constant([0.5, -0.5]), name=f"bias{index}")
      net = (tf.nn.relu if index == 0 else tf.nn.relu6)(net, name=f"act{index}")
    _, second = tf.split(net, 2, axis=3, name="split")
    tf.add(tf.constant(1.0, shape=[1, 4, 4, 1]), second, name="add")
  return graph


def test_chain_matches_each_block_with_named_parts(gm, conv_graph):
  conv = gm.OpTypePattern("Conv2D", name="conv")
  bias = gm.OpTypePattern("BiasAdd", inputs=[conv, "*"])
  act = gm.OpTypePattern("Relu|Relu6", inputs=[bias], name="act")
  matches = list(gm.GraphMatcher(act).match_graph(conv_graph))
  assert [m.get_op("act").name for m in matches] == ["act0", "act1"]
  assert [m.get_op(conv).name for m in matches] == ["conv0", "conv1"]
  first = matches[0]
  # The tensor is the one the parent op consumes; the root has none.
  assert first.get_tensor(bias) is conv_graph.get_tensor_by_name("bias0:0")
  assert first.get_tensor(act) is None
  assert first.get_op("missing") is None and first.get_tensor("missing") is None
  with pytest.raises(ValueError, match="Expect Pattern or str"):
    first.get_op(3)


def test_op_type_and_input_count_must_fit(gm, conv_graph):
  matcher = gm.GraphMatcher(gm.OpTypePattern("Relu6", inputs=["BiasAdd"]))
  assert matcher.match_op(conv_graph.get_operation_by_name("act0")) is None
  assert matcher.match_op(conv_graph.get_operation_by_name("act1")) is not None
  # BiasAdd has two inputs: a one-input pattern does not fit it.
  one_input = gm.GraphMatcher(gm.OpTypePattern("BiasAdd", inputs=["Conv2D"]))
  assert list(one_input.match_graph(conv_graph)) == []
  # No inputs given: any inputs are accepted.
  assert len(list(gm.GraphMatcher(gm.OpTypePattern("BiasAdd")).match_graph(conv_graph))) == 2


def test_unordered_inputs_and_output_index(gm, conv_graph):
  split = gm.OpTypePattern("Split", name="split")
  ordered = gm.OpTypePattern("AddV2|Add", inputs=[split, "Const"])
  unordered = gm.OpTypePattern("AddV2|Add", inputs=[split, "Const"], ordered_inputs=False)
  add = conv_graph.get_operation_by_name("add")
  assert gm.GraphMatcher(ordered).match_op(add) is None
  match = gm.GraphMatcher(unordered).match_op(add)
  assert match.get_op("split").name == "split"
  # The add reads the split's second output.
  assert match.get_tensor(split).name == "split:1"


def test_oneof_takes_the_first_sub_pattern_that_matches(gm, conv_graph):
  relu = gm.OpTypePattern("Relu", name="which")
  relu6 = gm.OpTypePattern("Relu6", name="which")
  anything = gm.OpTypePattern("*", name="any")
  either = gm.OneofPattern([relu6, relu, anything])
  results = {op.name: result for op in conv_graph.get_operations()
             for result in [gm.GraphMatcher(either).match_op(op)] if result}
  assert results["act0"].get_op("which").name == "act0"
  assert results["act1"].get_op(relu6).name == "act1"
  assert results["act1"].get_op(relu) is None
  assert results["conv0"].get_op("any").name == "conv0"


def test_the_object_detection_exporter_pattern(gm, tf):
  """The resize pattern object_detection's exporter rewrites, on a graph built for it."""
  graph = tf.Graph()
  with graph.as_default():
    projection = tf.placeholder(tf.float32, [1, 2, 2, 3], name="projection")
    reshaped = tf.reshape(projection, [1, 2, 1, 2, 1, 3])
    tiled = reshaped * tf.ones([1, 1, 2, 1, 2, 1])
    resized = tf.reshape(tiled, [1, 4, 4, 3])
    tf.add(resized, tf.zeros([1, 4, 4, 3]), name="sum")
  input_pattern = gm.OpTypePattern("*")
  reshape_1 = gm.OpTypePattern("Reshape", inputs=[input_pattern, "Const"], ordered_inputs=False)
  mul = gm.OpTypePattern("Mul", inputs=[reshape_1, "Const"], ordered_inputs=False)
  fake_quant = gm.OpTypePattern("FakeQuantWithMinMaxVars", inputs=[mul, "Identity", "Identity"],
                                ordered_inputs=False)
  reshape_2 = gm.OpTypePattern("Reshape", inputs=[gm.OneofPattern([fake_quant, mul]), "Const"],
                               ordered_inputs=False)
  add = gm.OpTypePattern("Add|AddV2", inputs=[reshape_2, "*"], ordered_inputs=False)
  matches = list(gm.GraphMatcher(add).match_graph(graph))
  assert len(matches) == 1
  assert matches[0].get_op(input_pattern).name == "projection"
  assert matches[0].get_op(add).name == "sum"
  assert matches[0].get_op(fake_quant) is None


def test_too_many_unordered_inputs(gm):
  with pytest.raises(ValueError, match="ordered_inputs"):
    gm.OpTypePattern("AddN", inputs=["*"] * 9, ordered_inputs=False)
  assert gm.OpTypePattern("AddN", inputs=["*"] * 9).name is None


def test_pattern_is_abstract(gm):
  with pytest.raises(TypeError):
    gm.Pattern()  # pylint: disable=abstract-class-instantiated


def test_module_paths(gm):
  import slim_ext.contrib  # pylint: disable=g-import-not-at-top
  assert slim_ext.contrib.quantize.graph_matcher is gm
  from slim_ext.contrib import RemovedInTF2Error  # pylint: disable=g-import-not-at-top
  with pytest.raises(RemovedInTF2Error, match="tensorflow-model-optimization"):
    slim_ext.contrib.quantize.create_training_graph()
