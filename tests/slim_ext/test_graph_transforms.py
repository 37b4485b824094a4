"""slim_ext.graph_transforms: strip_unused_nodes as TensorFlow 1.15's tool does it.

The expected node lists are what TF 1.15's ``TransformGraph`` (Python 3.7) returned for
the same graph, run 2026-11-27: the nodes the outputs need, data and control inputs
alike, in the graph's order, and nothing else of the GraphDef (no ``versions``).
"""
from __future__ import annotations

import pytest
import tensorflow as tf

from slim_ext import graph_transforms
from slim_ext.removed import RemovedInTF2Error


@pytest.fixture(scope="module")
def graph_def():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        tf.compat.v1.placeholder(tf.float32, [2], name="unused")
        c = tf.constant(2.0, name="c")
        dead = tf.constant(5.0, name="dead")
        with tf.control_dependencies([tf.no_op(name="ctl")]):
            y = tf.multiply(x, c, name="y")
        parts = tf.split(y, 3, axis=1, name="s")
        tf.add(parts[1], parts[2], name="z")
        tf.identity(dead, name="dead_out")
    return graph.as_graph_def()


NEEDED_BY_Z = ["x", "c", "ctl", "y", "s/split_dim", "s", "z"]


@pytest.mark.parametrize(("inputs", "outputs", "expected"), [
    ([], ["z"], NEEDED_BY_Z),
    (["x"], ["z"], NEEDED_BY_Z),
    ([], ["s:2"], NEEDED_BY_Z[:-1]),
    ([], ["^z", "dead_out"], ["x", "c", "dead", "ctl", "y", "s/split_dim", "s", "z",
                              "dead_out"]),
])
def test_strip_unused_nodes_keeps_what_tf1_kept(graph_def, inputs, outputs, expected):
    stripped = graph_transforms.TransformGraph(graph_def, inputs, outputs,
                                               ["strip_unused_nodes"])
    assert [node.name for node in stripped.node] == expected
    kept = {node.name: node for node in graph_def.node}
    assert all(node == kept[node.name] for node in stripped.node)
    assert not stripped.HasField("versions") and graph_def.HasField("versions")


def test_no_transforms_return_a_copy(graph_def):
    copy = graph_transforms.TransformGraph(graph_def, [], ["z"], [])
    assert copy == graph_def and copy is not graph_def


def test_tf1_errors_for_a_missing_output_and_an_unknown_transform(graph_def):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input node nope not found"):
        graph_transforms.TransformGraph(graph_def, [], ["nope"], ["strip_unused_nodes"])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Transform 'no_such' not recognized"):
        graph_transforms.TransformGraph(graph_def, [], ["z"], ["no_such"])


@pytest.mark.parametrize(("inputs", "transform", "named"), [
    ([], "fold_constants", "'fold_constants'"),
    ([], "strip_unused_nodes(type=float)", "'strip_unused_nodes\\(type=float\\)'"),
    (["c"], "strip_unused_nodes", "'c', a Const node"),
])
def test_what_the_stand_in_does_not_do_raises_naming_it(graph_def, inputs, transform, named):
    with pytest.raises(RemovedInTF2Error, match=f"{named}.*TFLiteConverter"):
        graph_transforms.TransformGraph(graph_def, inputs, ["z"], [transform])
